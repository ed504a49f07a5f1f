"""Forms of one exam: the same questions, each form in its own order, fixed by the quiz's id.

A form draws everything it shuffles from one `random.Random` per question, seeded with the quiz
id, the form's letter and the question's id: every build gives the same forms, in every
language, whatever else changes. Questions are shuffled as one section (sections, when quizzes
have them, will shuffle within each one); options only where the question's `shuffle` allows.
The exam of a build without forms (`pdf.forms=1`) keeps the author's order.
"""

from __future__ import annotations

import random
import string
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

from quizbank.model import Question
from quizbank.scramble import scrambled_order

T = TypeVar("T")
MAX_FORMS = 26


@dataclass(frozen=True)
class Form:
    """One form: its letter (None for a build without forms) and the quiz it shuffles."""

    quiz_id: str
    letter: str | None

    def _random(self, *parts: str) -> random.Random:
        return random.Random("/".join((self.quiz_id, self.letter or "", *parts)))

    def questions(self, questions: Sequence[Question]) -> list[int]:
        """The order of the questions (their indexes)."""
        order = list(range(len(questions)))
        if self.letter is not None:
            self._random("questions").shuffle(order)
        return order

    def options(self, question: Question, count: int, shuffle: bool) -> list[int]:
        """The order of a question's options (indexes), shuffled on a form if allowed."""
        order = list(range(count))
        if self.letter is not None and shuffle:
            self._random(question.id, "options").shuffle(order)
        return order

    def scrambled(self, question: Question, count: int, keep: int) -> list[int]:
        """An order that gives nothing away (a matching's right column, an ordering's items):
        quizbank's fixed scramble without forms, one of the form's own on a form."""
        seed = question.id if self.letter is None else f"{self.quiz_id}/{self.letter}/{question.id}"
        return scrambled_order(count, seed, keep)


def forms(quiz_id: str, count: int) -> list[Form]:
    """The forms of a build: one without a letter, or `count` lettered A, B, C…"""
    if count <= 1:
        return [Form(quiz_id, None)]
    return [Form(quiz_id, letter) for letter in string.ascii_uppercase[:count]]
