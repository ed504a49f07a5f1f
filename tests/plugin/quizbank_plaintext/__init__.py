"""A minimal third-party renderer: one plain-text file per quiz and language."""

from __future__ import annotations

from pydantic import Field

from quizbank.markup import to_plain
from quizbank.model import MultipleChoice, SingleChoice, TrueFalse
from quizbank.renderer import QuizTranslations, Renderer, RendererOptions


class PlainTextOptions(RendererOptions):
    """Options of the plain-text renderer."""

    key: bool = Field(True, description="append the answer key")


class PlainTextRenderer(Renderer[PlainTextOptions]):
    """Questions and lettered options as plain text."""

    name = "plaintext"
    description = "Quizzes as plain text (a test plug-in)"
    extension = "txt"
    Options = PlainTextOptions

    def render(self, quiz: QuizTranslations, lang: str) -> str:
        current = quiz[lang]
        lines = [to_plain(current.title), ""]
        for number, question in enumerate(current.questions, 1):
            lines.append(f"{number}. {to_plain(question.prompt)}")
            if self.options.key and isinstance(question, SingleChoice | MultipleChoice | TrueFalse):
                lines.append(f"   key: {', '.join(question.answer_ids)}")
        return "\n".join(lines) + "\n"
