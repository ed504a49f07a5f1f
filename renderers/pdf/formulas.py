"""The formulas of a quiz that Typst cannot set: each is shown as its TeX in monospace, and
`build` warns of it, naming the question (the converter, `maths.py`, is meant to leave none;
this is what keeps a formula it gets wrong from failing the build)."""

from __future__ import annotations

from collections.abc import Iterator

from quizbank.markup import find_formulas
from quizbank.maths import FormulaError
from quizbank.model import Cloze, Numerical, Quiz, question_texts, text_fields
from quizbank.variables import expand

from .engine import refused_formulas
from .maths import to_typst

Formula = tuple[str, bool]  # its TeX, and whether it is displayed on its own


def _shown_texts(quiz_id: str, quiz: Quiz) -> Iterator[tuple[int | None, str]]:
    """Every text a PDF may show, with its question's index (None: the quiz's own): a question
    with variables as each of its variants' texts, whose formulas hold the variant's values."""
    for loc, text in text_fields(quiz):
        if loc[0] != "questions":
            yield None, text
            continue
        index = loc[1]
        assert isinstance(index, int)
        question = quiz.questions[index]
        if not isinstance(question, Numerical | Cloze) or not question.variables:
            yield index, text
        elif loc[-1] == "prompt":  # once per question: all its texts, in every variant
            for _, variant in expand(quiz_id, question):
                yield from ((index, shown) for _, shown in question_texts(variant))


def unset_formulas(quiz_id: str, quiz: Quiz) -> dict[Formula, set[int | None]]:
    """Each formula of the quiz, as any exam or form may show it, that Typst refuses, with the
    indexes of the questions that hold it (None for the quiz's title, description, sections)."""
    places: dict[Formula, set[int | None]] = {}
    for question, text in _shown_texts(quiz_id, quiz):
        for formula in find_formulas(text):
            places.setdefault(formula, set()).add(question)
    sources: dict[Formula, str] = {}
    for tex, display in places:
        try:
            sources[tex, display] = to_typst(tex, display=display)
        except FormulaError:  # refused when the quiz was checked; never reaches an export
            continue
    refused = refused_formulas(sources.values())
    return {formula: places[formula] for formula, source in sources.items() if source in refused}
