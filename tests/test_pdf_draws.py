"""Sections and variants on paper (issues 28 and 29): each exam draws its sections' picks and one
variant of each question with variables, the same in every build and every language; each form
draws its own, and each key answers its own exam's variant.

The fixture tests/fixtures/variables: a numerical with 12 drawn variants (adam-memory), a cloze
with 3 listed ones (shards), and two true/false questions in a section that asks one of them.
"""

from __future__ import annotations

import contextlib
import io
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest
from conftest import REPO
from pypdf import PdfReader
from quizbank_renderers.pdf.draws import asked
from quizbank_renderers.pdf.forms import Form, forms

from quizbank.cli import main
from quizbank.loader import load_quiz
from quizbank.model import Cloze, Numerical, NumericalGap, Quiz
from quizbank.variables import answer_of, variants

pytestmark = pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="needs poppler-utils")

FIXTURE = REPO / "tests" / "fixtures" / "variables"
LANGS = ("en", "ur")
BASICS = {
    "why-shard": "Sharding lets a checkpoint be written by several processes at once.",
    "resume": "A resumed run needs the optimizer state.",
}
ADAM = re.compile(r"A model has (\d+) billion parameters in (\d+)-byte floats")
SIZE = re.compile(r"A checkpoint of (\d+) GB in shards")


@dataclass(frozen=True)
class Built:
    """One build of the fixture: its PDFs and what it said (its warnings among it)."""

    pdf: Path
    said: str


def _build(out: Path, *options: str) -> Built:
    said = io.StringIO()
    with contextlib.redirect_stderr(said), contextlib.redirect_stdout(said):
        code = main(["build", str(FIXTURE), "-f", "pdf", "-o", str(out), *options])
    assert code == 0, said.getvalue()
    return Built(out / "pdf", said.getvalue())


@pytest.fixture(scope="session")
def plain(tmp_path_factory: pytest.TempPathFactory) -> Built:
    """The fixture as one exam and key per language, built once."""
    return _build(tmp_path_factory.mktemp("draws"))


@pytest.fixture(scope="session")
def two_forms(tmp_path_factory: pytest.TempPathFactory) -> Built:
    """The fixture in forms A and B, built once."""
    return _build(tmp_path_factory.mktemp("draw-forms"), "-O", "pdf.forms=2")


def _quiz(lang: str) -> Quiz:
    quiz = load_quiz(FIXTURE / lang / "calc.yaml").quiz
    assert quiz is not None
    return quiz


def _text(path: Path) -> str:
    return " ".join(" ".join(page.extract_text() for page in PdfReader(path).pages).split())


@dataclass(frozen=True)
class Drawn:
    """What one English exam asks, read off its text: the basics question and the values."""

    basics: str
    adam: dict[str, float]
    shards: dict[str, float]


def _drawn(exam: str) -> Drawn:
    basics = [qid for qid, prompt in BASICS.items() if prompt in exam]
    assert len(basics) == 1, f"the section of two asks one question: {basics}"
    adam, size = ADAM.search(exam), SIZE.search(exam)
    assert adam and size, exam
    return Drawn(
        basics[0],
        {"bytes": float(adam[2]), "p": float(adam[1])},
        {"size": float(size[1])},
    )


def _answers(drawn: Drawn) -> tuple[float, float]:
    """The right answers of the drawn variants, computed by quizbank's formulas."""
    by_id = {question.id: question for question in _quiz("en").questions}
    adam, shards = by_id["adam-memory"], by_id["shards"]
    assert isinstance(adam, Numerical) and isinstance(shards, Cloze)
    assert drawn.adam in variants("calc", adam), "the exam shows one of the question's variants"
    assert drawn.shards in variants("calc", shards)
    gap = shards.gaps["count"]
    assert isinstance(gap, NumericalGap)
    return answer_of(adam.answer, drawn.adam), answer_of(gap.answer, drawn.shards)


def _number(value: float) -> str:
    return f"{value:g}"


def _check_key(exam: Path, key: Path) -> Drawn:
    """The key of an exam answers the variants that exam drew, and asks what it asks."""
    drawn = _drawn(_text(exam))
    key_text = _text(key)
    assert _drawn(key_text) == drawn, "the key shows other values than its exam"
    adam, shards = _answers(drawn)
    assert f"{_number(adam)} (±0.01 accepted)" in key_text
    assert f"(1) {_number(shards)}" in key_text
    return drawn


def test_pdf_draws_so_build_reports_no_undrawn_sections_or_variants(plain: Built) -> None:
    assert "wrote 4 files" in plain.said
    assert "pdf draws none" not in plain.said
    assert "pdf draws no questions" not in plain.said


def test_the_exam_asks_the_sections_in_order_under_their_titles(plain: Built) -> None:
    exam = _text(plain.pdf / "en" / "calc.pdf")
    basics, practice = exam.find("Basics"), exam.find("Practice")
    drawn = _drawn(exam)
    prompt = exam.find(BASICS[drawn.basics])
    assert 0 <= basics < prompt < practice < exam.find("A model has"), exam
    assert "4 questions" not in exam and "3 questions · Total: 3 points" in exam
    assert "Drawn" not in exam, "the candidates' exam does not talk of draws"
    key = _text(plain.pdf / "en" / "calc-key.pdf")
    assert "Basics Drawn: 1 of 2 questions" in key
    assert "Practice Drawn" not in key, "a section asked in full draws nothing"


def test_the_key_answers_the_exam_s_variant(plain: Built) -> None:
    _check_key(plain.pdf / "en" / "calc.pdf", plain.pdf / "en" / "calc-key.pdf")


def test_each_form_draws_its_own_picks_and_variants_and_its_key_answers_them(
    two_forms: Built,
) -> None:
    a, b = (
        _check_key(
            two_forms.pdf / "en" / f"calc-{form}.pdf", two_forms.pdf / "en" / f"calc-{form}-key.pdf"
        )
        for form in "AB"
    )
    assert a.basics != b.basics
    assert a.adam != b.adam
    assert a.shards != b.shards


@pytest.mark.parametrize("count", [1, 3])
def test_every_language_draws_the_same(count: int) -> None:
    english, urdu = _quiz("en"), _quiz("ur")
    for form in forms("calc", count):
        drawn = [
            [
                [(one.question.id, one.values) for one in part.questions]
                for part in asked(quiz, form)
            ]
            for quiz in (english, urdu)
        ]
        assert drawn[0] == drawn[1]


@pytest.mark.parametrize("form", ["A", "B"])
def test_the_urdu_form_shows_the_english_form_s_numbers(two_forms: Built, form: str) -> None:
    drawn = _drawn(_text(two_forms.pdf / "en" / f"calc-{form}.pdf"))
    exam = _text(two_forms.pdf / "ur" / f"calc-{form}.pdf")
    numbers = set(re.findall(r"\d+", exam))
    for value in (*drawn.adam.values(), *drawn.shards.values()):
        assert _number(value) in numbers
    adam, shards = _answers(drawn)
    key = _text(two_forms.pdf / "ur" / f"calc-{form}-key.pdf")
    assert _number(adam) in key and _number(shards) in key


def _draw(quiz: Quiz, form: str | None) -> list[dict[str, dict[str, float] | None]]:
    """What an exam asks of each section: its questions' ids, each with its variant's values."""
    parts = asked(quiz, Form("calc", form))
    return [{one.question.id: one.values for one in part.questions} for part in parts]


def test_forms_go_round_the_variants_and_the_picks_before_repeating_one() -> None:
    quiz = _quiz("en")
    shards = quiz.questions[1]
    assert isinstance(shards, Cloze)
    three = [_draw(quiz, form)[1]["shards"] for form in "ABC"]
    assert sorted(map(str, three)) == sorted(map(str, variants("calc", shards)))
    adams = {str(_draw(quiz, form)[1]["adam-memory"]) for form in "ABCDEFGHIJKL"}
    assert len(adams) == 12, "12 forms, each a different one of the 12 variants"
    basics = [set(_draw(quiz, form)[0]) for form in "ABCD"]
    assert basics[0] != basics[1] and basics[0] == basics[2] and basics[1] == basics[3]
    assert _draw(quiz, None) == _draw(quiz, "A"), "the exam without forms draws as form A"
