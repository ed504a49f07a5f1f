"""The `html` format: a self-contained page per quiz and language, and an index of the bank.

Each page carries its CSS and JavaScript inline and makes no request: a learner chooses answers,
submits, and sees the score, the right answers, the feedback and the explanations. Each attempt
draws the sections' picks and a variant of each question with variables. Without JavaScript the
questions still show (each question's first variant) and each answer waits in a closed
`<details>`.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import PurePosixPath
from typing import ClassVar

from pydantic import Field

from quizbank.renderer import (
    OutputFile,
    QuizSummary,
    QuizTranslations,
    Renderer,
    RendererOptions,
)

from .page import index_page, quiz_page


class HtmlOptions(RendererOptions):
    """Options of the `html` renderer (`-O shuffle=true`)."""

    shuffle: bool = Field(
        False,
        description="Shuffle the options of every question on each attempt, in the browser.",
    )


class HtmlRenderer(Renderer[HtmlOptions]):
    """Interactive self-check pages: `<lang>/<quiz-id>.html` and `index.html`."""

    name: ClassVar[str] = "html"
    description: ClassVar[str] = (
        "Self-contained interactive quiz pages, one per quiz and language, and an index."
    )
    extension: ClassVar[str] = "html"
    Options: ClassVar[type[RendererOptions]] = HtmlOptions
    # Every variant and every question is in the page; its script draws them (draws.py).
    handles_variables: ClassVar[bool] = True
    handles_sections: ClassVar[bool] = True

    def render(self, quiz: QuizTranslations, lang: str) -> str:
        return quiz_page(quiz, lang, shuffle=self.options.shuffle)

    def render_bank(self, summaries: Sequence[QuizSummary]) -> Iterator[OutputFile]:
        yield OutputFile(PurePosixPath("index.html"), index_page(summaries).encode("utf-8"))


__all__ = ["HtmlOptions", "HtmlRenderer"]
