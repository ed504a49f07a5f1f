"""What a format that writes each variant as a question of its own (GIFT) asks of a quiz: each
question it carries in its section's order, a question with variables as its variants, each
numbered from 1 (0 for a question without variables)."""

from __future__ import annotations

from collections.abc import Collection

from quizbank.model import Question, Quiz
from quizbank.renderer import in_sections
from quizbank.variables import expand, has_variables


def asked(quiz: Quiz, types: Collection[str]) -> list[tuple[Question, int]]:
    return [
        pair
        for _, question in in_sections(quiz)
        if question.type in types
        for pair in (
            [(variant, n) for n, (_, variant) in enumerate(expand(quiz.id, question), 1)]
            if has_variables(question)
            else [(question, 0)]
        )
    ]
