"""The `pdf` format: paper exams and their keys, set by Typst.

For each quiz and language: `<lang>/<quiz-id>.pdf` (the exam: title, the quiz's details, the
instructions in the language, every question with room to answer, no answers) and
`<lang>/<quiz-id>-key.pdf` (each question's answer, points and explanation). With
`-O pdf.forms=3`, forms A, B and C (`<quiz-id>-A.pdf`, `<quiz-id>-A-key.pdf`, …), each in its
own order (`forms.py`). Each exam and form draws its sections' picks and a variant of each
question with variables (`draws.py`). `document.py` says what a PDF holds, one function per
question type;
`content.py` turns Markdown into nodes; `exam.typ` draws them; `engine.py` runs Typst.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import PurePosixPath
from typing import ClassVar, Literal

from pydantic import Field

from quizbank.renderer import Loss, OutputFile, QuizTranslations, Renderer, RendererOptions

from .content import Images, Texts
from .document import Paper, document
from .engine import compile_pdf
from .forms import MAX_FORMS, forms
from .formulas import unset_formulas
from .strings import Words

SHOWN_TEX = 60  # characters of a formula's TeX that a warning quotes


class PdfOptions(RendererOptions):
    """Options of the `pdf` renderer (`-O pdf.forms=3`)."""

    forms: int = Field(
        1,
        ge=1,
        le=MAX_FORMS,
        description="How many forms (A, B, C…) to write, each in its own order with its own "
        "key; 1 writes one exam in the author's order.",
    )
    answer_sheet: bool = Field(
        False, description="Add a page of answer bubbles for the choice questions."
    )
    paper: Literal["a4", "letter"] = Field("a4", description="The paper size: a4 or letter.")


class PdfRenderer(Renderer[PdfOptions]):
    """Paper exams and keys: `<lang>/<quiz-id>.pdf` and `<lang>/<quiz-id>-key.pdf`."""

    name: ClassVar[str] = "pdf"
    description: ClassVar[str] = (
        "Paper exams and their answer keys (PDF), optionally in several forms."
    )
    extension: ClassVar[str] = "pdf"
    Options: ClassVar[type[RendererOptions]] = PdfOptions
    # Typesetting costs seconds a quiz where the other formats take milliseconds: a plain build
    # leaves paper out, and `-f pdf` asks for it.
    builds_by_default: ClassVar[bool] = False
    quiz_loss_kinds: ClassVar[tuple[str, ...]] = ("formula",)
    # Each exam and form draws its sections' picks and its questions' variants (`draws.py`).
    handles_variables: ClassVar[bool] = True
    handles_sections: ClassVar[bool] = True

    def render_quiz(self, quiz: QuizTranslations) -> Iterator[OutputFile]:
        for lang in quiz.languages:
            texts = self._texts(quiz, lang)
            for form in forms(quiz.quiz_id, self.options.forms):
                stem = quiz.quiz_id if form.letter is None else f"{quiz.quiz_id}-{form.letter}"
                for key, name in ((False, stem), (True, f"{stem}-key")):
                    paper = Paper(lang, Words(lang), texts, form)
                    data = document(quiz[lang], paper, key=key, sheet=self.options.answer_sheet)
                    content = compile_pdf(data, texts.images.files, self.options.paper)
                    yield OutputFile(PurePosixPath(lang, f"{name}.pdf"), content)

    def render(self, quiz: QuizTranslations, lang: str) -> str:
        """The data the template sets as the exam (JSON): what the PDF says, for inspection."""
        paper = Paper(lang, Words(lang), self._texts(quiz, lang), forms(quiz.quiz_id, 1)[0])
        data = document(quiz[lang], paper, key=False, sheet=self.options.answer_sheet)
        return json.dumps(data, ensure_ascii=False, indent=1)

    def losses(self, quiz: QuizTranslations, lang: str) -> Iterator[Loss]:
        """Besides the types it lacks (none), each formula Typst cannot set: its TeX is shown."""
        yield from super().losses(quiz, lang)
        for (tex, _), places in unset_formulas(quiz.quiz_id, quiz[lang]).items():
            shown = tex if len(tex) <= SHOWN_TEX else tex[: SHOWN_TEX - 1] + "…"
            what = f"shows the formula ${shown}$ as its TeX source: Typst cannot draw it"
            for place in sorted(places, key=lambda index: -1 if index is None else index):
                yield Loss(place, what, kind="formula" if place is None else "")

    @staticmethod
    def _texts(quiz: QuizTranslations, lang: str) -> Texts:
        unset = frozenset(unset_formulas(quiz.quiz_id, quiz[lang]))
        return Texts(lang, Images(quiz.images_of(lang)), unset)


__all__ = ["PdfOptions", "PdfRenderer"]
