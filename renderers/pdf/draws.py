"""What one exam asks: its sections in order, each with the questions its form draws, and each
question with variables as the variant its form shows, written as a plain question
(`quizbank.variables.variant_question`) that the question type's writer sets like any other.

Everything is drawn from the ids (the quiz's, the sections', the questions') and the form's
letter, never from a text: every language asks the same questions with the same numbers.
"""

from __future__ import annotations

from dataclasses import dataclass

from quizbank.model import Cloze, Numerical, Question, Quiz, Section
from quizbank.variables import Values, variant_question, variants

from .forms import Form


@dataclass(frozen=True)
class Asked:
    """One question as the exam asks it, with the values of its variant (None without)."""

    question: Question
    values: Values | None = None


@dataclass(frozen=True)
class AskedSection:
    """A section of the exam (None: a quiz without sections) and the questions it asks."""

    section: Section | None
    questions: tuple[Asked, ...]

    @property
    def drawn(self) -> bool:
        """Whether the exam asks fewer than all the section's questions."""
        return self.section is not None and len(self.questions) < len(self.section.questions)


def _asked(question: Question, form: Form) -> Asked:
    if not isinstance(question, Numerical | Cloze) or not question.variables:
        return Asked(question)
    made = variants(form.quiz_id, question)
    values = made[form.variant(question, len(made))]
    return Asked(variant_question(question, values), values)


def _part(section: Section | None, questions: list[Question], form: Form) -> AskedSection:
    chosen = list(range(len(questions)))
    if section is not None and section.pick is not None and section.pick < len(questions):
        chosen = form.pick(section.id, len(questions), section.pick)
    order = form.questions(len(chosen), section.id if section else None)
    return AskedSection(section, tuple(_asked(questions[chosen[at]], form) for at in order))


def asked(quiz: Quiz, form: Form) -> list[AskedSection]:
    """The exam's parts: one per section, in the sections' order, or one of every question."""
    if not quiz.sections:
        return [_part(None, list(quiz.questions), form)]
    by_id = {question.id: question for question in quiz.questions}
    return [
        _part(section, [by_id[qid] for qid in section.questions], form) for section in quiz.sections
    ]
