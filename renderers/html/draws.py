"""What a quiz page asks: its questions in their sections' order, each with its variants.

The page holds every variant of a question with variables, each written as an ordinary question
(`quizbank.variables.variant_question`), and every question of every section; the page's
script draws, on each attempt, the sections' picks and one variant of each question drawn. A
variant's fields go by the question's id and its number, `adam-memory__3`: a question id has no
`_` and the parts of an id inside a question are joined by `--`, so no id of the page is the
same as a variant's.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from quizbank.model import Cloze, Numerical, Question, Quiz
from quizbank.variables import expand

VARIANT = "__"  # between a question's id and its variant's number


@dataclass(frozen=True)
class Asked:
    """One question of the page: as written, and what the page writes of it: its variants,
    each with the id it goes by on the page (the question itself when it has no variables)."""

    question: Question
    variants: tuple[tuple[str, Question], ...]

    @property
    def drawn(self) -> bool:
        """Whether an attempt draws one of several variants."""
        return isinstance(self.question, Numerical | Cloze) and bool(self.question.variables)


@dataclass(frozen=True)
class Part:
    """A section of the page, or the whole quiz when it has no sections: its title, how many
    of its questions an attempt asks (None: all of them), and its questions."""

    title: str | None
    pick: int | None
    questions: tuple[Asked, ...]

    @property
    def asked(self) -> int:
        """How many of its questions an attempt asks."""
        return len(self.questions) if self.pick is None else self.pick


def _asked(quiz_id: str, question: Question) -> Asked:
    if isinstance(question, Numerical | Cloze) and question.variables:
        made = enumerate(expand(quiz_id, question), 1)
        return Asked(question, tuple((f"{question.id}{VARIANT}{n}", one) for n, (_, one) in made))
    return Asked(question, ((question.id, question),))


def page_parts(quiz_id: str, quiz: Quiz) -> list[Part]:
    """The page's parts: one per section, in the sections' order (a pick as large as its
    section asks all), or one of every question in order for a quiz without sections."""
    by_id = {question.id: question for question in quiz.questions}
    if not quiz.sections:
        return [Part(None, None, tuple(_asked(quiz_id, q) for q in quiz.questions))]
    return [
        Part(
            section.title,
            section.pick if section.pick and section.pick < len(section.questions) else None,
            tuple(_asked(quiz_id, by_id[qid]) for qid in section.questions),
        )
        for section in quiz.sections
    ]


def every_question(parts: Sequence[Part]) -> Iterator[Asked]:
    """The page's questions, in order."""
    for part in parts:
        yield from part.questions


def draws_questions(parts: Sequence[Part]) -> bool:
    """Whether an attempt asks fewer than all the page's questions."""
    return any(part.pick is not None for part in parts)
