"""What a format cannot carry is never dropped silently: a renderer declares the types it
supports, and `build` warns once per quiz and format, naming each question left out (an error,
and nothing written, with --strict); cached rebuilds say it again, other formats do not."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path
from typing import ClassVar

import pytest
from conftest import REPO

from quizbank.build import BuildRequest, BuildResult, build
from quizbank.registry import Registry, RendererEntry
from quizbank.renderer import QuizTranslations

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


def test_one_warning_per_quiz_and_format_names_each_question_left_out(
    content: Path, tmp_path: Path
) -> None:
    out = tmp_path / "dist"
    result = _build(content, out, "choices", "plaintext")
    assert not result.report.has_errors
    [warning] = _messages(result)
    assert warning.startswith(f"{content / 'en' / 'every-type.yaml'}:")
    assert (
        ": warning: choices: question 4 (adam-beta1) is left out: choices has no numerical "
        in warning
    )
    assert "question 9 (why-weights-only) is left out: choices has no essay questions" in warning
    kept = (out / "choices" / "en" / "every-type.txt").read_text("utf-8").split()
    assert kept == ["pick-one", "pick-all", "statement"]
    again = _build(content, out, "choices", "plaintext")
    assert again.written == 0 and _messages(again) == [warning]  # from the cache, said again
    assert _messages(_build(content, out, "plaintext")) == []  # a format that carries all


def test_a_strict_build_fails_on_a_loss_and_writes_nothing(content: Path, tmp_path: Path) -> None:
    out = tmp_path / "dist"
    result = _build(content, out, "choices", strict=True)
    assert result.report.has_errors
    [error] = _messages(result)
    assert ": error: choices: question 4 (adam-beta1) is left out" in error
    assert not (out / "choices").exists()
