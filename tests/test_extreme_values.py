"""What validate accepts, every renderer renders: values at the edges of their types (a huge or
tiny number, the most right options, points and tolerances) either build in every format or
are refused by validate at their line, in an author's words (issue 32, item 3)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
import yaml
from conftest import REPO, Run

from quizbank.i18n import format_number

TYPES = REPO / "tests" / "fixtures" / "types" / "en" / "every-type.yaml"


def _write_quiz(root: Path, edit: Callable[[dict[str, object]], None]) -> Path:
    """content/en/every-type.yaml under `root`: the every-type fixture, changed by `edit`."""
    data = yaml.safe_load(TYPES.read_text("utf-8"))
    edit(data)
    folder = root / "content" / "en"
    folder.mkdir(parents=True)
    path = folder / "every-type.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), "utf-8")
    return path


def _question(data: dict[str, object], question_id: str) -> dict[str, object]:
    questions = data["questions"]
    assert isinstance(questions, list)
    return next(q for q in questions if q["id"] == question_id)


@pytest.mark.parametrize(
    ("number", "written"),
    [
        (1e25, "10,000,000,000,000,000,000,000,000"),
        (-1e25, "-10,000,000,000,000,000,000,000,000"),
        (1.7976931348623157e308, "179,769,313,486,231,570" + ",000" * 97),
        (5e-324, "0." + "0" * 323 + "5"),
        (0.0005, "0.0005"),
    ],
)
def test_format_number_writes_a_huge_or_tiny_number_with_every_digit(
    number: float, written: str
) -> None:
    assert format_number(number, "en") == written
    assert any(c.isdigit() for c in format_number(number, "ur"))


@pytest.mark.parametrize("value", [1e25, -1e25, 1.7976931348623157e308, 5e-324])
def test_a_numerical_answer_at_the_edge_of_a_float_builds_in_every_format(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cli: Callable[..., Run], value: float
) -> None:
    def huge(data: dict[str, object]) -> None:
        _question(data, "adam-beta1").update(answer=value, tolerance=abs(value))
        gaps = _question(data, "index-gaps")["gaps"]
        assert isinstance(gaps, dict)
        gaps["count"].update(answer=value, tolerance=abs(value))

    _write_quiz(tmp_path, huge)
    monkeypatch.chdir(tmp_path)
    run = cli("build", "--no-cache", "-j", "1", "-o", "out", "content")
    assert run.code == 0, run.out + run.err
    assert (tmp_path / "out" / "html" / "en" / "every-type.html").is_file()


def test_more_than_twenty_right_options_are_refused_at_the_answer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cli: Callable[..., Run]
) -> None:
    def many_right(data: dict[str, object]) -> None:
        question = _question(data, "pick-all")
        question["options"] = [{"id": f"o{i}", "text": f"Option {i}"} for i in range(26)]
        question["answer"] = [f"o{i}" for i in range(21)]

    path = _write_quiz(tmp_path, many_right)
    monkeypatch.chdir(tmp_path)
    # The answer's list starts on the line after its key.
    answer_line = path.read_text("utf-8").splitlines().index("  answer:") + 2
    for command in ("validate", "build"):
        run = cli(command, "content")
        assert run.code == 1, run.out + run.err
        assert "Traceback" not in run.out + run.err
        [error] = run.errors
        assert error.startswith(f"content/en/every-type.yaml:{answer_line}:"), error
        assert "21 right options" in error and "at most 20" in error


def test_twenty_right_options_build_in_every_format(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cli: Callable[..., Run]
) -> None:
    def twenty_right(data: dict[str, object]) -> None:
        question = _question(data, "pick-all")
        question["options"] = [{"id": f"o{i}", "text": f"Option {i}"} for i in range(26)]
        question["answer"] = [f"o{i}" for i in range(20)]

    _write_quiz(tmp_path, twenty_right)
    monkeypatch.chdir(tmp_path)
    run = cli("build", "--no-cache", "-j", "1", "-o", "out", "content")
    assert run.code == 0, run.out + run.err


def test_more_matches_than_letters_are_refused_at_the_distractors(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cli: Callable[..., Run]
) -> None:
    def many_matches(data: dict[str, object]) -> None:
        question = _question(data, "state-parts")
        question["pairs"] = [
            {"id": f"p{i}", "item": f"Item {i}", "match": f"Match {i}"} for i in range(13)
        ]
        question["distractors"] = [{"id": f"d{i}", "text": f"Wrong {i}"} for i in range(14)]

    path = _write_quiz(tmp_path, many_matches)
    monkeypatch.chdir(tmp_path)
    line = path.read_text("utf-8").splitlines().index("  distractors:") + 2
    for command in ("validate", "build"):
        run = cli(command, "content")
        assert run.code == 1, run.out + run.err
        [error] = run.errors
        assert error == (
            f"content/en/every-type.yaml:{line}:3: error: question 6 (state-parts), distractors: "
            "a matching question offers at most 26 matches, each with a letter of its own: "
            "13 pairs and 14 distractors make 27; drop 1 distractor"
        )


def test_twenty_six_matches_build_in_every_format(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cli: Callable[..., Run]
) -> None:
    def all_letters(data: dict[str, object]) -> None:
        question = _question(data, "state-parts")
        question["pairs"] = [
            {"id": f"p{i}", "item": f"Item {i}", "match": f"Match {i}"} for i in range(13)
        ]
        question["distractors"] = [{"id": f"d{i}", "text": f"Wrong {i}"} for i in range(13)]

    _write_quiz(tmp_path, all_letters)
    monkeypatch.chdir(tmp_path)
    run = cli("build", "--no-cache", "-j", "1", "-o", "out", "content")
    assert run.code == 0, run.out + run.err
