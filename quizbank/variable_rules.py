"""The checks of questions with variables, beyond the schema: every formula read, every name
declared and used, every variant evaluated, at the line and column an author would change.

Each problem is `(message, loc, written, column)`: where `written` (a formula or `{name}` as the
text holds it) is in the value at `loc`, and how far into it the problem is, so that the loader
can point inside the formula.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from quizbank.formula import FormulaError
from quizbank.model import Cloze, Numerical, NumericalGap, Quiz, question_texts
from quizbank.paths import Loc
from quizbank.variables import (
    PLACEHOLDER,
    Calculated,
    VariantsError,
    answer_of,
    formula,
    show,
    variants,
)

Problem = tuple[str, Loc, str, int]
# What a text holds that is not prose: a formula (`$…$`) or code, where a `{word}` is TeX's or
# the code's own, not a variable.
_NOT_PROSE = re.compile(r"\$\$.*?\$\$|\$[^$\n]*\$|`[^`]*`", re.DOTALL)


def variable_problems(quiz: Quiz) -> Iterator[Problem]:
    """Every problem of the quiz's questions with variables, and every formula or relative
    tolerance written in a question without them."""
    for index, question in enumerate(quiz.questions):
        if not isinstance(question, Numerical | Cloze):
            continue
        if question.variables:
            yield from _question_problems(quiz.id, question, ("questions", index))
        else:
            yield from _without_variables(question, ("questions", index))


def _without_variables(question: Calculated, base: Loc) -> Iterator[Problem]:
    """A formula or a percentage is for a question with variables."""
    numbers: list[tuple[Loc, float | str, float | str]] = []
    if isinstance(question, Numerical):
        numbers.append((base, question.answer, question.tolerance))
    else:
        numbers += [
            ((*base, "gaps", gap_id), gap.answer, gap.tolerance)
            for gap_id, gap in question.gaps.items()
            if isinstance(gap, NumericalGap)
        ]
    for loc, answer, tolerance in numbers:
        if isinstance(answer, str):
            yield _text_answer(answer), (*loc, "answer"), "", 0
        if isinstance(tolerance, str):
            yield (
                f"a tolerance of {tolerance} is relative to an answer computed from variables; "
                "this question has none: write the tolerance as a number",
                (*loc, "tolerance"),
                "",
                0,
            )


def _text_answer(answer: str) -> str:
    try:
        float(answer)
    except ValueError:
        return (
            f"the answer {answer!r} is a formula, but the question has no `variables:`: declare "
            "them, or write the answer as a number"
        )
    return (
        f"{answer!r} is a text, not a number: write the number without quotes, like this: "
        f"answer: {answer}"
    )


def _question_problems(quiz_id: str, question: Calculated, base: Loc) -> Iterator[Problem]:
    assert question.variables
    declared = set(question.variables)
    used: set[str] = set()
    formulas: list[tuple[str, Loc, str, int]] = []  # source, where, as written, offset in it
    for source, loc in _answers(question, base):
        formulas.append((source, loc, source, 0))
    for loc, text in question_texts(question, base):
        prose = _prose(text)  # where a `{word}` that names no variable is a mistake
        for found in PLACEHOLDER.finditer(text):  # filled everywhere, formulas and code too
            if found["formula"] is not None:
                formulas.append((found["formula"], loc, found[0], 2))
            elif found["name"] in declared:
                used.add(found["name"])
            elif prose[found.start()] == "{":
                yield (
                    f"{found[0]} names no variable of this question (its variables: "
                    f"{', '.join(sorted(declared))}); write \\{{ for a brace",
                    loc,
                    found[0],
                    0,
                )
    parsed = []
    for source, loc, written, offset in formulas:
        try:
            read = formula(source)
        except FormulaError as exc:
            yield f"the formula {source!r}: {exc.message}", loc, written, offset + exc.column
            continue
        for name in sorted(read.variables - declared):
            yield (
                f"{{{name}}} is not a variable of this question (its variables: "
                f"{', '.join(sorted(declared))})",
                loc,
                written,
                offset + source.index(f"{{{name}}}"),
            )
        used |= read.variables
        parsed.append((source, loc, written, offset))
    for name in sorted(declared - used):
        yield (
            f"the variable {name!r} is used nowhere: show it as {{{name}}} in a text or use it "
            "in the answer's formula, or delete it",
            (*base, "variables", name),
            "",
            0,
        )
    yield from _variant_problems(quiz_id, question, base, parsed)


def _answers(question: Calculated, base: Loc) -> Iterator[tuple[str, Loc]]:
    """The answers written as formulas, with where each is."""
    if isinstance(question, Numerical):
        if isinstance(question.answer, str):
            yield question.answer, (*base, "answer")
        return
    for gap_id, gap in question.gaps.items():
        if isinstance(gap, NumericalGap) and isinstance(gap.answer, str):
            yield gap.answer, (*base, "gaps", gap_id, "answer")


def _prose(text: str) -> str:
    """The text with its formulas and code blanked out (the same length, so offsets hold)."""
    if "$" not in text and "`" not in text:
        return text
    return _NOT_PROSE.sub(lambda found: " " * len(found[0]), text)


def _variant_problems(
    quiz_id: str, question: Calculated, base: Loc, parsed: list[tuple[str, Loc, str, int]]
) -> Iterator[Problem]:
    """Each variant drawn and every formula evaluated with it: the first failure of each."""
    assert question.variables
    try:
        drawn = variants(quiz_id, question)
    except VariantsError as exc:
        yield str(exc), (*base, "variants"), "", 0
        return
    if isinstance(question.variants, list):
        yield from _listed_variant_problems(question, base)
        if any(set(values) != set(question.variables) for values in drawn):
            return
    for source, loc, written, offset in parsed:
        for values in drawn:
            try:
                result = answer_of(source, values)
            except FormulaError as exc:
                yield (
                    f"for {_values(values)}: {exc.message}",
                    loc,
                    written,
                    offset + exc.column,
                )
                break
            if loc[-1] == "answer" and abs(result) > 1e15:
                yield (
                    f"for {_values(values)} the answer is {show(result)}: an answer is at most "
                    "10¹⁵ (no LMS stores a larger one exactly)",
                    loc,
                    written,
                    offset,
                )
                break


def _listed_variant_problems(question: Calculated, base: Loc) -> Iterator[Problem]:
    """Listed variants give every variable, and no two are the same."""
    assert question.variables and isinstance(question.variants, list)
    declared = set(question.variables)
    seen: dict[tuple[tuple[str, float], ...], int] = {}
    for index, values in enumerate(question.variants):
        loc = (*base, "variants", index)
        missing, extra = declared - set(values), set(values) - declared
        if missing or extra:
            said = [f"gives no {', '.join(sorted(missing))}"] if missing else []
            said += [f"names {', '.join(sorted(extra))}, which is no variable"] if extra else []
            yield f"it {' and '.join(said)}", loc, "", 0
            continue
        key = tuple(sorted((name, float(value)) for name, value in values.items()))
        if key in seen:
            yield f"it is the same as variant {seen[key] + 1}", loc, "", 0
        seen.setdefault(key, index)


def _values(values: dict[str, float]) -> str:
    return ", ".join(f"{name} = {show(value)}" for name, value in values.items())
