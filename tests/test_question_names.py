"""A question's name in an LMS (issue 27, X14): its prompt's words, an image's alt text left out
unless the prompt has no other words (Moodle listed shard-count by its diagram's alt text)."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import CONTENT

from quizbank.loader import load_quiz
from quizbank.model import Quiz
from quizbank.renderer import question_line


def _question(prompt: str) -> Any:
    quiz = Quiz.model_validate(
        {
            "id": "names",
            "lang": "en",
            "title": "T",
            "description": "D",
            "level": "beginner",
            "questions": [
                {"id": "q", "type": "numerical", "prompt": prompt, "answer": 3, "explanation": "E"}
            ],
        }
    )
    return quiz.questions[0]


@pytest.mark.parametrize(
    ("prompt", "name"),
    [
        ("![Three boxes](grid.png)\n\nHow many boxes?", "How many boxes?"),
        ("How many ![boxes](grid.png) are there?", "How many are there?"),
        ("![Three boxes](grid.png)", "Three boxes"),  # nothing else to name it by
    ],
)
def test_a_name_leaves_images_out(prompt: str, name: str) -> None:
    assert question_line(_question(prompt)) == name


@pytest.mark.parametrize("lang", ["en", "ur"])
def test_shard_count_is_named_by_its_question(lang: str) -> None:
    quiz = load_quiz(CONTENT / lang / "resuming-training-in-practice.yaml").quiz
    assert quiz is not None
    [question] = [q for q in quiz.questions if q.id == "shard-count"]
    image, *rest = question.prompt.strip().split("\n\n")
    assert image.startswith("![")  # the diagram opens the prompt
    assert question_line(question).startswith(rest[0][:30])
