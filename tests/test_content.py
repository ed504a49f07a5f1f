"""The bundled quizzes: complete in both languages, with a key, explanations and feedback."""

from __future__ import annotations

import re
from typing import Any

import pytest
from conftest import CONTENT, QUIZ

from quizbank.loader import load_quiz
from quizbank.markup import find_formulas, find_images
from quizbank.model import (
    QUESTION_MODELS,
    ChoiceGap,
    Cloze,
    Essay,
    Matching,
    MultipleChoice,
    Numerical,
    NumericalGap,
    Ordering,
    Question,
    Quiz,
    ShortAnswer,
    ShortAnswerGap,
    SingleChoice,
    TrueFalse,
    text_fields,
)
from quizbank.scripts import ARABIC

SECOND = "resuming-training-in-practice"
QUIZZES = [QUIZ, SECOND]
LANGS = ["en", "ur"]


def _quiz(lang: str, quiz_id: str = QUIZ) -> Quiz:
    loaded = load_quiz(CONTENT / lang / f"{quiz_id}.yaml")
    assert loaded.quiz is not None, [d.format() for d in loaded.diagnostics]
    assert not loaded.diagnostics, [d.format() for d in loaded.diagnostics]
    return loaded.quiz


def test_the_bank_holds_the_bundled_quizzes_in_both_languages() -> None:
    for lang in LANGS:
        assert sorted(path.stem for path in (CONTENT / lang).glob("*.yaml")) == sorted(QUIZZES)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("quiz_id", QUIZZES)
def test_every_text_a_learner_is_owed_is_written(quiz_id: str, lang: str) -> None:
    """An explanation for every question, feedback for every option, both true/false answers."""
    quiz = _quiz(lang, quiz_id)
    assert quiz.level == "intermediate"
    for question in quiz.questions:
        where = f"{lang} {quiz_id} {question.id}"
        assert question.explanation.strip(), where
        if isinstance(question, SingleChoice | MultipleChoice):
            for option in question.options:
                assert option.feedback, f"{where} option {option.id} has no feedback"
        if isinstance(question, TrueFalse):
            assert question.feedback_true and question.feedback_false, where
        if isinstance(question, Cloze):
            for gap_id, gap in question.gaps.items():
                if isinstance(gap, ChoiceGap):
                    for gap_option in gap.options:
                        assert gap_option.feedback, f"{where} gap {gap_id} option {gap_option.id}"
        if isinstance(question, Essay):
            assert question.grader_info, where
            assert question.min_words and question.max_words, where
            assert question.min_words < question.max_words, where
            # The explanation is the model answer: itself within the limits it sets.
            words = len(question.explanation.split())
            assert question.min_words <= words <= question.max_words, (where, words)


@pytest.mark.parametrize("lang", LANGS)
def test_first_quiz_is_eight_single_choice_questions_of_four_options(lang: str) -> None:
    quiz = _quiz(lang)
    assert len(quiz.questions) == 8
    for question in quiz.questions:
        assert isinstance(question, SingleChoice)
        assert len(question.options) == 4


@pytest.mark.parametrize("lang", LANGS)
def test_second_quiz_has_every_question_type(lang: str) -> None:
    quiz = _quiz(lang, SECOND)
    assert 10 <= len(quiz.questions) <= 13
    types = [question.type for question in quiz.questions]
    assert set(types) == set(QUESTION_MODELS), set(QUESTION_MODELS) - set(types)

    numerical = [q for q in quiz.questions if isinstance(q, Numerical)]
    assert any(q.tolerance > 0 for q in numerical), "a numerical question with a tolerance"
    short = [q for q in quiz.questions if isinstance(q, ShortAnswer)]
    assert any("*" in answer for q in short for answer in q.answer), "a wildcard answer"
    matching = [q for q in quiz.questions if isinstance(q, Matching)]
    assert any(q.distractors for q in matching), "a matching question with a distractor"
    assert all(len(q.items) >= 3 for q in quiz.questions if isinstance(q, Ordering))
    for cloze in (q for q in quiz.questions if isinstance(q, Cloze)):
        kinds = {gap.type for gap in cloze.gaps.values()}
        assert kinds == {"short_answer", "numerical", "single_choice"}, kinds


ALL_OF_THE_ABOVE = {"en": "All of the above", "ur": "مندرجہ بالا سب"}


@pytest.mark.parametrize("lang", LANGS)
def test_second_quiz_keeps_all_of_the_above_last_in_one_unshuffled_question(lang: str) -> None:
    quiz = _quiz(lang, SECOND)
    fixed = [q for q in quiz.questions if isinstance(q, MultipleChoice) and not q.shuffle]
    assert len(fixed) == 1
    (question,) = fixed
    assert question.options[-1].text == ALL_OF_THE_ABOVE[lang]
    assert question.options[-1].id not in question.answer  # not every option above is right
    shuffled = [q for q in quiz.questions if isinstance(q, MultipleChoice) and q.shuffle]
    assert shuffled, "a multiple_choice question that is shuffled as usual"


def _options(options: Any) -> list[str]:
    return [option.id for option in options]


def _key(question: Question) -> tuple[Any, ...]:
    """What must be the same in every language: everything but the texts (and the accepted
    short answers, which are translated)."""
    common = (question.id, question.type, question.points)
    if isinstance(question, SingleChoice | MultipleChoice):
        return (*common, _options(question.options), question.answer_ids, question.shuffle)
    if isinstance(question, TrueFalse):
        return (*common, question.answer)
    if isinstance(question, Numerical):
        return (*common, question.answer, question.tolerance)
    if isinstance(question, ShortAnswer):
        return (*common, question.case_sensitive)
    if isinstance(question, Matching):
        return (*common, _options(question.pairs), _options(question.distractors), question.shuffle)
    if isinstance(question, Ordering):
        return (*common, _options(question.items))
    if isinstance(question, Cloze):
        gaps: list[tuple[Any, ...]] = []
        for gap_id in question.gap_order:
            gap = question.gaps[gap_id]
            if isinstance(gap, ChoiceGap):
                gaps.append((gap_id, gap.type, _options(gap.options), gap.answer))
            elif isinstance(gap, NumericalGap):
                gaps.append((gap_id, gap.type, gap.answer, gap.tolerance))
            else:
                gaps.append((gap_id, gap.type, gap.case_sensitive))
        return (*common, gaps, question.shuffle)
    assert isinstance(question, Essay)
    return (*common, question.min_words, question.max_words)


@pytest.mark.parametrize("quiz_id", QUIZZES)
def test_languages_share_the_key(quiz_id: str) -> None:
    english, urdu = _quiz("en", quiz_id), _quiz("ur", quiz_id)
    assert (english.id, english.level, english.tags) == (urdu.id, urdu.level, urdu.tags)
    assert [_key(q) for q in english.questions] == [_key(q) for q in urdu.questions]


def test_titles() -> None:
    assert _quiz("en").title == "Checkpoint sharding and resumable training"
    assert _quiz("en", SECOND).title == "Resuming training in practice"


def test_urdu_short_answers_accept_the_english_ones_too() -> None:
    """A learner may type the English term on the Urdu page."""
    english, urdu = _quiz("en", SECOND), _quiz("ur", SECOND)
    for en_q, ur_q in zip(english.questions, urdu.questions, strict=True):
        if isinstance(en_q, ShortAnswer):
            assert isinstance(ur_q, ShortAnswer)
            assert set(en_q.answer) <= set(ur_q.answer), en_q.id
        if isinstance(en_q, Cloze):
            assert isinstance(ur_q, Cloze)
            for gap_id, gap in en_q.gaps.items():
                ur_gap = ur_q.gaps[gap_id]
                if isinstance(gap, ShortAnswerGap):
                    assert isinstance(ur_gap, ShortAnswerGap)
                    assert set(gap.answer) <= set(ur_gap.answer), (en_q.id, gap_id)


@pytest.mark.parametrize("quiz_id", QUIZZES)
def test_urdu_uses_the_agreed_terms(quiz_id: str) -> None:
    text = (CONTENT / "ur" / f"{quiz_id}.yaml").read_text(encoding="utf-8")
    for avoided in ARABIC.avoid:
        assert avoided not in text
    assert "وزن" not in text  # weights are ویٹس in this bank (URDU.md)
    assert "جاری کی گئی" not in text  # "issued", not "resumed"
    assert "، اور" not in text  # no comma before اور (URDU.md)
    assert "اسٹیپس کی پیش رفت" not in text  # step progress is the step counter (URDU.md)
    assert "چیک پوائنٹ" in text and "آپٹیمائزر" in text
    assert "safetensors" in text and "RNG" in text


def test_second_quiz_urdu_follows_the_style_sheet() -> None:
    text = (CONTENT / "ur" / f"{SECOND}.yaml").read_text(encoding="utf-8")
    # RNG is spelt out where it first appears.
    first = text.index("RNG")
    assert text[:first].endswith("رینڈم نمبر جنریٹر ("), text[first - 40 : first + 5]
    for term in ("لرننگ ریٹ", "شیڈیولر", "ڈیٹا لوڈر", "رینک", "میٹا ڈیٹا", "ویٹس", "ایپوک"):
        assert term in text, term
    # Every sentence of Urdu prose ends in Urdu punctuation, not a Latin full stop.
    urdu = _quiz("ur", SECOND)
    for question in urdu.questions:
        assert not re.search(r"[\u0600-\u06ff]\.(\s|$)", question.explanation), question.id


@pytest.mark.parametrize("lang", LANGS)
def test_second_quiz_shows_a_diagram_and_formulas(lang: str) -> None:
    """The sharded checkpoint's diagram, with alt text, and the formulas for Adam's checkpoint
    size and the number of shards, in each language."""
    quiz = _quiz(lang, SECOND)
    texts = [text for _, text in text_fields(quiz)]
    images = [image for text in texts for image in find_images(text)]
    assert [image.src for image in images] == ["../images/sharded-checkpoint.svg"]
    assert len(images[0].alt.split()) >= 8, "the alt text describes the diagram"
    formulas = [tex for text in texts for tex, _ in find_formulas(text)]
    assert any("\\times" in tex and "12" in tex for tex in formulas), formulas
    assert any("\\lceil" in tex and "\\frac{S}{B}" in tex for tex in formulas), formulas
