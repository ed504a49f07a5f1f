"""Questions with variables and quizzes with sections: variants drawn the same in every language
and build, every mistake at file:line:column inside the formula or text, every variant checked."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import REPO, Run, edit, line_of

from quizbank.loader import load_quiz
from quizbank.model import Cloze, Numerical
from quizbank.variables import fill, variant_question, variants

FIXTURE = REPO / "tests" / "fixtures" / "variables"
EN = "content/en/calc.yaml"
UR = "content/ur/calc.yaml"


@pytest.fixture
def calc(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The variables fixture as content/ in a temporary working folder."""
    shutil.copytree(FIXTURE, tmp_path / "content")
    monkeypatch.chdir(tmp_path)
    return tmp_path / "content"


def _question(lang: str, index: int) -> Numerical | Cloze:
    quiz = load_quiz(FIXTURE / lang / "calc.yaml").quiz
    assert quiz is not None
    question = quiz.questions[index]
    assert isinstance(question, Numerical | Cloze)
    return question


def test_the_fixture_validates(calc: Path, cli: Callable[..., Run]) -> None:
    run = cli("validate")
    assert (run.code, run.lines) == (0, ["0 errors, 0 warnings in 2 files"])


def test_variants_are_distinct_the_same_in_every_language_and_every_time() -> None:
    english, urdu = _question("en", 0), _question("ur", 0)
    drawn = variants("calc", english)
    assert len(drawn) == 12
    assert len({tuple(sorted(v.items())) for v in drawn}) == 12
    assert drawn == variants("calc", urdu) == variants("calc", english)
    assert all(1 <= v["p"] <= 20 and v["bytes"] in (2, 4) for v in drawn)
    assert variants("other-quiz", english) != drawn  # seeded from the quiz's id too
    seeded = english.model_copy(update={"seed": 7})
    assert variants("calc", seeded) == variants("other-quiz", seeded) != drawn


def test_a_variant_is_the_question_with_its_numbers() -> None:
    question = _question("en", 0)
    one = variant_question(question, {"p": 7, "bytes": 4})
    assert isinstance(one, Numerical)
    assert (one.answer, one.tolerance, one.variables) == (84, 0.01, None)
    assert one.prompt.startswith("A model has 7 billion parameters in 4-byte floats")
    assert one.explanation == "Weights and two moments, 7 × 4 × 3 = 84.00 GB."  # noqa: RUF001
    cloze = variant_question(_question("en", 1), {"size": 31})
    assert isinstance(cloze, Cloze)
    assert cloze.gaps["count"].answer == 7  # type: ignore[union-attr]
    assert cloze.explanation == "31 / 5, rounded up, is 7."


def test_a_relative_tolerance_is_a_share_of_each_variant_s_answer() -> None:
    question = _question("en", 0).model_copy(update={"tolerance": "1%"})
    one = variant_question(question, {"p": 10, "bytes": 2})
    assert one.tolerance == pytest.approx(0.6)  # type: ignore[union-attr]


def test_a_computed_value_inside_a_formula_is_checked_as_it_is_filled(
    calc: Path, cli: Callable[..., Run]
) -> None:
    for lang in ("en", "ur"):
        edit(calc / lang / "calc.yaml", "{=ceil({size} / 5)}", "$n = {=ceil({size} / 0)}$")
    run = cli("validate", EN)
    assert run.code == 1
    assert any("divides by zero" in error for error in run.errors), run.out
    build = cli("build", "-o", "out")
    assert build.code == 1 and "Traceback" not in build.err


def test_fill_leaves_a_brace_that_names_no_variable() -> None:
    assert fill(r"$\frac{a}{b}$ and \{p} and {p}", {"p": 2}) == r"$\frac{a}{b}$ and \{p} and 2"


@pytest.mark.parametrize(
    ("old", "new", "needle", "column_in", "message"),
    [
        (
            'answer: "{p} * {bytes} * 3"',
            'answer: "{p} * * 3"',
            "answer: ",
            "* 3",
            "question 1 (adam-memory), answer: the formula '{p} * * 3': '*' is not expected here",
        ),
        (
            'answer: "{p} * {bytes} * 3"',
            'answer: "{p} * {bytes} * {q}"',
            "answer: ",
            "{q}",
            "question 1 (adam-memory), answer: {q} is not a variable of this question (its "
            "variables: bytes, p)",
        ),
        (
            'answer: "{p} * {bytes} * 3"',
            'answer: "{p} * {bytes} / ({p} - 7)"',
            "answer: ",
            "/",
            "question 1 (adam-memory), answer: for bytes = 2, p = 7: 14 / 0 divides by zero",
        ),
        (
            "explanation: Weights and two moments",
            "explanation: Weights {w} and two moments",
            "explanation: Weights",
            "{w}",
            "question 1 (adam-memory), explanation: {w} names no variable of this question (its "
            "variables: bytes, p); write \\{ for a brace",
        ),
        (
            "{={p} * {bytes} * 3} GB.",
            "{={p} * {bytes} * sqr(3)} GB.",
            "explanation: Weights",
            "sqr",
            "question 1 (adam-memory), explanation: the formula '{p} * {bytes} * sqr(3)': 'sqr' "
            "is not one of Moodle's functions (a variable is written in braces: {sqr})",
        ),
    ],
)
def test_a_formula_mistake_is_reported_inside_the_formula(
    calc: Path,
    cli: Callable[..., Run],
    old: str,
    new: str,
    needle: str,
    column_in: str,
    message: str,
) -> None:
    path = calc / "en" / "calc.yaml"
    edit(path, old, new)
    line = line_of(path, needle)
    text = path.read_text(encoding="utf-8").splitlines()[line - 1]
    column = text.index(column_in) + 1
    run = cli("validate", EN)
    assert run.code == 1
    assert f"{EN}:{line}:{column}: error: {message}" in run.errors, run.out


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        (
            "      bytes: {choices: [2, 4]}\n",
            "      bytes: {choices: [2, 4]}\n      spare: {from: 1, to: 2}\n",
            "question 1 (adam-memory), variables, spare: the variable 'spare' is used nowhere: "
            "show it as {spare} in a text or use it in the answer's formula, or delete it",
        ),
        (
            "    variants: 12\n",
            "    variants: 50\n",
            "question 1 (adam-memory), variants: the variables have 40 distinct combinations, "
            "fewer than the 50 variants asked for: widen their ranges or ask for fewer `variants`",
        ),
        (
            "[{size: 18}, {size: 24}, {size: 31}]",
            "[{size: 18}, {sise: 24}, {size: 18}]",
            "question 2 (shards), variant 2: it gives no size and names sise, which is no variable",
        ),
        (
            "[{size: 18}, {size: 24}, {size: 31}]",
            "[{size: 18}, {size: 24}, {size: 18}]",
            "question 2 (shards), variant 3: it is the same as variant 1",
        ),
    ],
)
def test_variables_and_variants_are_checked(
    calc: Path, cli: Callable[..., Run], old: str, new: str, message: str
) -> None:
    for lang in ("en", "ur"):
        edit(calc / lang / "calc.yaml", old, new)
    run = cli("validate", EN)
    assert run.code == 1
    assert any(error.endswith(f"error: {message}") and EN in error for error in run.errors), run.out


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        (
            "questions: [why-shard, resume]",
            "questions: [why-shard, nope]",
            "the quiz has no question 'nope'",
        ),
        (
            "questions: [why-shard, resume]",
            "questions: [why-shard, why-shard]",
            "the section names 'why-shard' twice",
        ),
        (
            "questions: [why-shard, resume]",
            "questions: [why-shard, resume, shards]",
            "'shards' is in the section 'basics' already: a question is in one section",
        ),
        (
            "    pick: 1\n",
            "    pick: 3\n",
            "the section draws 3 of its 2 questions: pick at most as many as it has",
        ),
        (
            "questions: [why-shard, resume]",
            "questions: [why-shard]",
            "the sections leave out resume: with sections, every question is in one (or it would never be asked)",
        ),
        ("    pick: 1\n", "    pick: 0\n", "pick"),
    ],
)
def test_sections_are_checked(
    calc: Path, cli: Callable[..., Run], old: str, new: str, message: str
) -> None:
    edit(calc / "en" / "calc.yaml", old, new)
    run = cli("validate", EN)
    assert run.code == 1
    assert any(message in error and EN in error for error in run.errors), run.out


def test_a_translation_draws_the_same_variables_and_sections(
    calc: Path, cli: Callable[..., Run]
) -> None:
    urdu = calc / "ur" / "calc.yaml"
    edit(urdu, "p: {from: 1, to: 20, step: 1}", "p: {from: 1, to: 30, step: 1}")
    edit(urdu, "    pick: 1\n", "    pick: 2\n")
    run = cli("validate")
    assert run.code == 1
    assert any(
        UR in e
        and f"question 1 (adam-memory), variables: the variables differ from those in {EN}" in e
        for e in run.errors
    ), run.out
    assert any(UR in e and "the sections differ from those" in e for e in run.errors), run.out


def test_a_formula_needs_variables(calc: Path, cli: Callable[..., Run]) -> None:
    path = calc / "en" / "calc.yaml"
    text = path.read_text(encoding="utf-8")
    block = text[text.index("  - id: adam-memory") : text.index("  - id: shards")]
    plain = block.replace(
        "    variables:\n      p: {from: 1, to: 20, step: 1}\n      bytes: {choices: [2, 4]}\n"
        "    variants: 12\n",
        "",
    ).replace("{={p} * {bytes} * 3}", "some")
    path.write_text(text.replace(block, plain), encoding="utf-8")
    run = cli("validate", EN)
    assert (
        f"{EN}:{line_of(path, 'answer: ')}:13: error: question 1 (adam-memory), answer: the "
        "answer '{p} * {bytes} * 3' is a formula, but the question has no `variables:`: declare "
        "them, or write the answer as a number"
    ) in run.errors


def test_every_format_builds_and_json_carries_every_variant(
    calc: Path, tmp_path: Path, cli: Callable[..., Run]
) -> None:
    run = cli("build", "-o", "out")
    assert run.code == 0, run.out
    assert "Traceback" not in run.err
    exported = {
        lang: json.loads((tmp_path / "out" / "json" / lang / "calc.json").read_text("utf-8"))
        for lang in ("en", "ur")
    }
    english, urdu = (exported[lang]["questions"][0] for lang in ("en", "ur"))
    assert english["answer"] == "{p} * {bytes} * 3"
    assert [v["values"] for v in english["variants"]] == [v["values"] for v in urdu["variants"]]
    for variant in english["variants"]:
        values = variant["values"]
        assert variant["answer"] == values["p"] * values["bytes"] * 3
    assert exported["en"]["sections"][0] == {
        "id": "basics",
        "title": {"markdown": "Basics", "html": "Basics"},
        "pick": 1,
        "questions": ["why-shard", "resume"],
    }
