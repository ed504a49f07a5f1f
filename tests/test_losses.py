"""What a format cannot carry is never dropped silently: a renderer declares the types it
supports, and `build` warns once per question and format, at the question's line in the file
that loses it (an error, and nothing written, with --strict), unless bank.yaml accepts that
loss; cached rebuilds say it again, other formats do not."""

from __future__ import annotations

import shutil
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import ClassVar

import pytest
from conftest import REPO

from quizbank.build import BuildRequest, BuildResult, build
from quizbank.registry import Registry, RendererEntry
from quizbank.renderer import Loss, QuizTranslations

sys.path.insert(0, str(Path(__file__).parent / "plugin"))
from quizbank_plaintext import PlainTextRenderer

TYPES = REPO / "tests" / "fixtures" / "types"


class ChoicesOnly(PlainTextRenderer):
    """A format that carries only choice questions, as some LMS formats do."""

    name = "choices"
    supported_types: ClassVar[frozenset[str] | None] = frozenset(
        {"single_choice", "multiple_choice", "true_false"}
    )

    def render(self, quiz: QuizTranslations, lang: str) -> str:
        kept = [q.id for q in quiz[lang].questions if self.carries(q)]
        return "\n".join(kept) + "\n"


REGISTRY = Registry(
    {
        c.name: RendererEntry(c.name, c, "quizbank-plaintext", "1.0.0")
        for c in (PlainTextRenderer, ChoicesOnly)
    }
)


@pytest.fixture
def content(tmp_path: Path) -> Path:
    shutil.copytree(TYPES, tmp_path / "content")
    return tmp_path / "content"


def _build(content: Path, out: Path, *formats: str, strict: bool = False) -> BuildResult:
    request = BuildRequest(paths=[content], out_dir=out, formats=formats, strict=strict)
    return build(request, REGISTRY)


def _messages(result: BuildResult) -> list[str]:
    return [d.format() for d in result.report.diagnostics]


def _line_of_question(path: Path, question_id: str) -> int:
    lines = path.read_text(encoding="utf-8").splitlines()
    return next(n for n, line in enumerate(lines, 1) if line.strip() == f"- id: {question_id}")


def test_one_warning_per_question_and_format_at_the_question_s_line(
    content: Path, tmp_path: Path
) -> None:
    out = tmp_path / "dist"
    result = _build(content, out, "choices", "plaintext")
    assert not result.report.has_errors
    english = content / "en" / "every-type.yaml"
    left_out = ["adam-beta1", "format-name", "state-parts", "resume-order", "index-gaps"]
    left_out.append("why-weights-only")
    kinds = ["numerical", "short_answer", "matching", "ordering", "cloze", "essay"]
    expected = [
        f"{english}:{_line_of_question(english, qid)}:5: warning: choices: question {n} ({qid}) "
        f"is left out: choices has no {kind} questions"
        for n, qid, kind in zip(range(4, 10), left_out, kinds, strict=True)
    ]
    assert _messages(result) == expected  # once, in the reference file: every language loses it
    assert result.losses == {"choices": 6}
    kept = (out / "choices" / "en" / "every-type.txt").read_text("utf-8").split()
    assert kept == ["pick-one", "pick-all", "statement"]
    again = _build(content, out, "choices", "plaintext")
    assert again.written == 0 and _messages(again) == expected  # from the cache, said again
    assert _messages(_build(content, out, "plaintext")) == []  # a format that carries all


def test_a_loss_of_one_language_is_reported_in_that_language_s_file(
    content: Path, tmp_path: Path
) -> None:
    class UrduChoicesOnly(ChoicesOnly):
        name = "urdu-choices"

        def losses(self, quiz: QuizTranslations, lang: str) -> Iterator[Loss]:
            if lang == "ur":
                yield from super().losses(quiz, lang)

    registry = Registry(
        {UrduChoicesOnly.name: RendererEntry(UrduChoicesOnly.name, UrduChoicesOnly, "t", "1")}
    )
    request = BuildRequest(paths=[content], out_dir=tmp_path / "d", formats=["urdu-choices"])
    messages = _messages(build(request, registry))
    urdu = content / "ur" / "every-type.yaml"
    assert len(messages) == 6
    assert all(m.startswith(f"{urdu}:") for m in messages)
    assert messages[0].startswith(f"{urdu}:{_line_of_question(urdu, 'adam-beta1')}:5: warning: ")


def test_a_loss_the_bank_accepts_is_not_reported(content: Path, tmp_path: Path) -> None:
    (content / "bank.yaml").write_text(
        "accept_losses:\n  choices: [ordering, cloze, essay]\n", encoding="utf-8"
    )
    result = _build(content, tmp_path / "dist", "choices")
    assert [m.split(": warning: ")[1] for m in _messages(result)] == [
        "choices: question 4 (adam-beta1) is left out: choices has no numerical questions",
        "choices: question 5 (format-name) is left out: choices has no short_answer questions",
        "choices: question 6 (state-parts) is left out: choices has no matching questions",
    ]
    strict = _build(content, tmp_path / "strict", "choices", strict=True)
    assert len([m for m in _messages(strict) if ": error: " in m]) == 3  # only the others
    (content / "bank.yaml").write_text(
        "accept_losses:\n  choices: [numerical, short_answer, matching, ordering, cloze, essay]\n",
        encoding="utf-8",
    )
    assert _messages(_build(content, tmp_path / "dist", "choices")) == []  # the cache knows


def test_a_strict_build_fails_on_a_loss_and_writes_nothing(content: Path, tmp_path: Path) -> None:
    out = tmp_path / "dist"
    result = _build(content, out, "choices", strict=True)
    assert result.report.has_errors
    errors = _messages(result)
    assert len(errors) == 6
    assert ": error: choices: question 4 (adam-beta1) is left out" in errors[0]
    assert not (out / "choices").exists()
