"""The formulas of a quiz that Typst cannot set: each is shown as its TeX in monospace, and
`build` warns of it, naming the question (the converter, `maths.py`, is meant to leave none;
this is what keeps a formula it gets wrong from failing the build)."""

from __future__ import annotations

from quizbank.markup import find_formulas
from quizbank.maths import FormulaError
from quizbank.model import Quiz, text_fields

from .engine import refused_formulas
from .maths import to_typst

Formula = tuple[str, bool]  # its TeX, and whether it is displayed on its own


def unset_formulas(quiz: Quiz) -> dict[Formula, set[int | None]]:
    """Each formula of the quiz that Typst refuses, with the indexes of the questions that
    hold it (None for the quiz's title or description)."""
    places: dict[Formula, set[int | None]] = {}
    for loc, text in text_fields(quiz):
        for formula in find_formulas(text):
            question = loc[1] if loc[0] == "questions" else None
            places.setdefault(formula, set()).add(question)  # type: ignore[arg-type]
    sources: dict[Formula, str] = {}
    for tex, display in places:
        try:
            sources[tex, display] = to_typst(tex, display=display)
        except FormulaError:  # refused when the quiz was checked; never reaches an export
            continue
    refused = refused_formulas(sources.values())
    return {formula: places[formula] for formula, source in sources.items() if source in refused}
