"""What `quizbank import` writes validates: a formula quizbank cannot draw leaves its question
out, with the checker's reason, and a quiz file never holds more than validate reads (formulas,
images, values): past a limit, a question is left out or the import is refused, with the reason,
before anything is written."""

from __future__ import annotations

import base64
from pathlib import Path

import pytest
import yaml
from conftest import REPO
from test_import_cli import choice, moodle_file, run

from quizbank.importer import convert, files
from quizbank.importer.command import import_files
from quizbank.importer.files import NothingWritten
from quizbank.loader import load_quiz

IMAGES = REPO / "tests" / "fixtures" / "media" / "images"


def formula_question(name: str, tex: str) -> str:
    return choice(name, prompt=f"What does \\({tex}\\) show?")


def question_ids(content: Path) -> list[str]:
    data = yaml.safe_load((content / "en" / "waves-basics.yaml").read_text(encoding="utf-8"))
    return [question["id"] for question in data["questions"]]


def test_a_formula_quizbank_cannot_draw_leaves_its_question_out_with_the_reason(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = moodle_file(
        tmp_path / "w.xml",
        formula_question("fine", "x^2"),
        formula_question("unicode", "\\unicode{x}"),
        formula_question("undefined", "\\frac{a}"),
    )
    content = tmp_path / "content"
    code, out, _ = run(capsys, str(source), "-o", str(content))
    assert code == 1, out
    assert "question 'unicode': left out: the formula $\\unicode{x}$ cannot be drawn: " in out
    assert "question 'undefined': left out: the formula $\\frac{a}$ cannot be drawn: " in out
    assert "2 questions left out" in out and "error" not in out
    assert question_ids(content) == ["fine"]
    loaded = load_quiz(content / "en" / "waves-basics.yaml")
    assert loaded.quiz is not None and not loaded.diagnostics


def test_a_description_with_a_formula_quizbank_cannot_draw_is_a_placeholder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = moodle_file(tmp_path / "w.xml", choice("q1"))
    source.write_text(
        source.read_text().replace("Waves and how they move.", "Waves \\(\\unicode{x}\\)."),
        encoding="utf-8",
    )
    content = tmp_path / "content"
    code, out, _ = run(capsys, str(source), "-o", str(content))
    assert code == 1, out
    assert "w.xml:3: the description left out: the formula $\\unicode{x}$ cannot be drawn" in out
    loaded = load_quiz(content / "en" / "waves-basics.yaml")
    assert loaded.quiz is not None and not loaded.diagnostics
    assert loaded.quiz.description == "Questions imported from w.xml."


def test_a_quiz_holds_no_more_formulas_than_validate_reads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(convert, "MAX_FORMULAS", 2)
    source = moodle_file(
        tmp_path / "w.xml",
        formula_question("a", "a"),
        formula_question("again", "a"),  # the same formula again: not one more
        formula_question("b", "b"),
        formula_question("c", "c"),
    )
    report = import_files([source], tmp_path / "content")
    assert question_ids(tmp_path / "content") == ["a", "again", "b"]
    [loss] = [loss for _, loss in report.losses]
    assert (loss.question, loss.what) == (
        "c",
        "left out: its quiz would hold more than 2 formulas, the most a quiz file holds: split "
        "the category",
    )


def image_question(name: str, image: str) -> str:
    encoded = base64.b64encode((IMAGES / image).read_bytes()).decode()
    question = choice(name, prompt=f'<img src="@@PLUGINFILE@@/{image}" alt="A picture">')
    file = f'<file name="{image}" path="/" encoding="base64">{encoded}</file>'
    return question.replace("]]></text></questiontext>", f"]]></text>{file}</questiontext>")


def test_a_quiz_shows_no_more_image_bytes_than_validate_reads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    grid = (IMAGES / "grid.png").stat().st_size
    monkeypatch.setattr(convert, "MAX_IMAGES_BYTES", grid + 10)
    source = moodle_file(
        tmp_path / "w.xml",
        image_question("grid", "grid.png"),
        image_question("grid-again", "grid.png"),
        image_question("shards", "shards.svg"),
    )
    report = import_files([source], tmp_path / "content")
    assert question_ids(tmp_path / "content") == ["grid", "grid-again"]
    [loss] = [loss for _, loss in report.losses]
    assert loss.question == "shards"
    assert loss.what.startswith("left out: its quiz's images would add up to more than ")


def test_a_quiz_file_of_more_values_than_validate_reads_is_refused_before_writing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(files, "MAX_VALUES", 20)
    monkeypatch.setattr(files, "COUNT_FROM", 0)
    source = moodle_file(tmp_path / "w.xml", choice("q1"), choice("q2"), choice("q3"))
    with pytest.raises(NothingWritten) as refused:
        import_files([source], tmp_path / "content")
    [problem] = refused.value.problems
    assert "waves-basics.yaml would hold about " in problem
    assert "values; a quiz file may hold about 20: split category 'waves-basics'" in problem
    assert not (tmp_path / "content").exists()


def test_a_question_left_out_in_the_first_language_is_left_out_in_every_language(
    tmp_path: Path,
) -> None:
    spans = (
        '<span lang="en" class="multilang">\\(\\unicode{x}\\)</span>'
        '<span lang="ur" class="multilang">لہر \\(x\\)</span>'
    )
    source = moodle_file(tmp_path / "w.xml", choice("fine"), choice("odd", prompt=spans))
    report = import_files([source], tmp_path / "content")
    ids = {
        quiz.lang: [q["id"] for q in quiz.data["questions"]] for quiz in report.imports[0].quizzes
    }
    assert ids == {"en": ["fine"], "ur": ["fine"]}
    assert [loss.question for _, loss in report.losses if "cannot be drawn" in loss.what] == ["odd"]
