"""The bundled quiz: complete in both languages, with a key, explanations and feedback."""

from __future__ import annotations

import pytest
from conftest import CONTENT, QUIZ

from quizbank.loader import load_quiz
from quizbank.model import Quiz, SingleChoice
from quizbank.scripts import ARABIC


def _quiz(lang: str) -> Quiz:
    loaded = load_quiz(CONTENT / lang / f"{QUIZ}.yaml")
    assert loaded.quiz is not None, [d.format() for d in loaded.diagnostics]
    return loaded.quiz


@pytest.mark.parametrize("lang", ["en", "ur"])
def test_seed_quiz_is_complete(lang: str) -> None:
    quiz = _quiz(lang)
    assert quiz.level == "intermediate"
    assert len(quiz.questions) == 8
    for question in quiz.questions:
        assert isinstance(question, SingleChoice)
        assert len(question.options) == 4
        assert question.explanation.strip()
        for option in question.options:
            if option.id != question.answer:
                assert option.feedback, f"{lang} {question.id} option {option.id} has no feedback"


def test_languages_share_the_key() -> None:
    english, urdu = _quiz("en"), _quiz("ur")
    assert [(q.id, q.answer_ids) for q in english.questions] == [
        (q.id, q.answer_ids) for q in urdu.questions
    ]
    assert english.title == "Checkpoint sharding and resumable training"


def test_urdu_uses_the_agreed_terms() -> None:
    text = (CONTENT / "ur" / f"{QUIZ}.yaml").read_text(encoding="utf-8")
    for avoided in ARABIC.avoid:
        assert avoided not in text
    assert "چیک پوائنٹ" in text and "آپٹیمائزر" in text
    assert "safetensors" in text and "RNG" in text
