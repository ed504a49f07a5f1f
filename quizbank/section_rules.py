"""The checks of a quiz's sections: each names questions the quiz has, each question is in one
section, and a section draws at least one and at most all of its questions."""

from __future__ import annotations

from collections.abc import Iterator

from quizbank.model import Quiz
from quizbank.paths import Loc

Problem = tuple[str, Loc]


def section_problems(quiz: Quiz) -> Iterator[Problem]:
    """Every problem of the quiz's sections (none without sections)."""
    if not quiz.sections:
        return
    ids = {question.id for question in quiz.questions}
    placed: dict[str, str] = {}
    section_ids: set[str] = set()
    for index, section in enumerate(quiz.sections):
        base: Loc = ("sections", index)
        if section.id in section_ids:
            yield f"two sections have the id {section.id!r}: each has its own", (*base, "id")
        section_ids.add(section.id)
        seen: set[str] = set()
        for at, question_id in enumerate(section.questions):
            loc = (*base, "questions", at)
            if question_id in seen:
                yield f"the section names {question_id!r} twice", loc
            elif question_id not in ids:
                yield f"the quiz has no question {question_id!r}", loc
            elif question_id in placed:
                yield (
                    f"{question_id!r} is in the section {placed[question_id]!r} already: a "
                    "question is in one section",
                    loc,
                )
            else:
                placed[question_id] = section.id
            seen.add(question_id)
        if section.pick is not None and section.pick > len(section.questions):
            yield (
                f"the section draws {section.pick} of its {len(section.questions)} questions: "
                "pick at most as many as it has",
                (*base, "pick"),
            )
    left_out = [question.id for question in quiz.questions if question.id not in placed]
    if left_out:
        yield (
            f"the sections leave out {', '.join(left_out)}: with sections, every question is in "
            "one (or it would never be asked)",
            ("sections",),
        )
