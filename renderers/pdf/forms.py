"""Forms of one exam: the same quiz, each form in its own order with its own draws, fixed by the
quiz's id and the form's letter.

A form draws everything from `random.Random`s seeded with the quiz id and, for what it shuffles,
its letter: every build gives the same forms, in every language, whatever else changes. On a
form the questions are shuffled within each section (the whole quiz when it has none), options
only where the question's `shuffle` allows; the exam of a build without forms (`pdf.forms=1`)
keeps the author's order. What a form asks of a section with a pick and which variant of a
question with variables it shows go round a fixed order (seeded from the quiz id alone), each
form starting where the one before it stopped: forms differ wherever the quiz leaves room, and
every question and variant is asked about as often as the others. The exam without forms draws
as form A does.
"""

from __future__ import annotations

import random
import string
from dataclasses import dataclass

from quizbank.model import Question
from quizbank.scramble import scrambled_order

MAX_FORMS = 26


@dataclass(frozen=True)
class Form:
    """One form: its letter (None for a build without forms) and the quiz it shuffles."""

    quiz_id: str
    letter: str | None

    @property
    def number(self) -> int:
        """The form's place among the forms: 0 for A (and for the exam without forms)."""
        return 0 if self.letter is None else string.ascii_uppercase.index(self.letter)

    def _random(self, *parts: str) -> random.Random:
        return random.Random("/".join((self.quiz_id, self.letter or "", *parts)))

    def _round(self, count: int, *parts: str) -> list[int]:
        """The fixed order that the forms draw from in turn: the same on every form."""
        order = list(range(count))
        random.Random("/".join((self.quiz_id, *parts))).shuffle(order)
        return order

    def questions(self, count: int, section: str | None = None) -> list[int]:
        """The order of a section's questions (their indexes), or of a quiz's without one."""
        order = list(range(count))
        if self.letter is not None:
            self._random("questions", *([section] if section else [])).shuffle(order)
        return order

    def pick(self, section: str, count: int, pick: int) -> list[int]:
        """The `pick` of a section's `count` questions that this form asks (indexes, in the
        section's order): the next `pick` of the section's round after the previous form's."""
        order = self._round(count, section, "pick")
        start = self.number * pick
        return sorted(order[(start + at) % count] for at in range(pick))

    def variant(self, question: Question, count: int) -> int:
        """Which of a question's `count` variants this form shows."""
        return self._round(count, question.id, "variant")[self.number % count]

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
