"""Questions with variables: their variants, drawn the same in every language and every build,
and each variant as the plain question a renderer already knows how to write.

A numerical question (or a cloze, for its numerical gaps) may declare `variables` (a range or a
list of values each), `variants` (how many to draw, or the values of each) and compute its answer
with a formula (quizbank/formula.py). Its texts show a variable as `{name}` and a computed value
as `{=formula}`, as Moodle's calculated questions do. The variants are drawn by a random number
generator seeded from the quiz's and the question's ids (or the question's `seed`), so that
every language file and every build gets the same ones; `variant_question` gives one variant as
a question without variables, its texts filled in, its answers numbers and its tolerance
absolute, which every renderer writes as it writes any other.
"""

from __future__ import annotations

import math
import random
import re
from collections.abc import Iterator, Mapping, Sequence
from decimal import Decimal
from functools import lru_cache

from quizbank.formula import Formula, parse
from quizbank.model import (
    ChoiceGap,
    ChoicesVariable,
    Cloze,
    Gap,
    Numerical,
    NumericalGap,
    RangeVariable,
    Variable,
)

Values = dict[str, float]
Calculated = Numerical | Cloze
# `{name}` (a variable) and `{=formula}` (a computed value) in a text.
PLACEHOLDER = re.compile(
    r"(?<!\\)\{(?:=(?P<formula>[^{}\n]*(?:\{[A-Za-z_]\w*\}[^{}\n]*)*)|(?P<name>[A-Za-z_]\w*))\}"
)


class VariantsError(ValueError):
    """Variants that cannot be drawn as asked."""


def has_variables(question: object) -> bool:
    """Whether a question computes its answers from variables."""
    return isinstance(question, Numerical | Cloze) and bool(question.variables)


def variable_values(variable: Variable) -> list[float]:
    """Every value a variable may take, in order."""
    if isinstance(variable, ChoicesVariable):
        return list(variable.choices)
    assert isinstance(variable, RangeVariable)
    return _range_values(variable.start, variable.to, variable.step)


def _range_values(start: float, to: float, step: float) -> list[float]:
    """`start`, `start + step`, … up to `to`, computed in decimal so that 0.1 steps stay exact."""
    first, last, by = Decimal(repr(start)), Decimal(repr(to)), Decimal(repr(step))
    count = int((last - first) / by) + 1
    return [float(first + by * index) for index in range(count)]


def variants(quiz_id: str, question: Calculated) -> list[Values]:
    """The question's variants, the same for the same ids and variables whatever the language:
    as listed, or drawn without repeats; VariantsError when there are fewer than asked."""
    assert question.variables, "a question with variables"
    if isinstance(question.variants, list):
        return [{name: float(value) for name, value in row.items()} for row in question.variants]
    names = sorted(question.variables)
    columns = [variable_values(question.variables[name]) for name in names]
    combinations = math.prod(len(column) for column in columns)
    wanted = question.variants
    if combinations < wanted:
        raise VariantsError(
            f"the variables have {combinations} distinct combination"
            f"{'' if combinations == 1 else 's'}, fewer than the {wanted} variants asked for: "
            "widen their ranges or ask for fewer `variants`"
        )
    seed = question.seed if question.seed is not None else f"{quiz_id}/{question.id}"
    drawn = random.Random(str(seed)).sample(range(combinations), wanted)
    return [_combination(index, names, columns) for index in drawn]


def _combination(index: int, names: Sequence[str], columns: Sequence[list[float]]) -> Values:
    """The `index`-th combination of the columns' values (the last variable changing fastest)."""
    values: Values = {}
    for name, column in zip(reversed(names), reversed(columns), strict=True):
        index, at = divmod(index, len(column))
        values[name] = column[at]
    return dict(sorted(values.items()))


@lru_cache(maxsize=4096)
def formula(source: str) -> Formula:
    """A formula, parsed once however many variants and texts use it."""
    return parse(source)


def show(value: float, decimals: int | None = None) -> str:
    """A value as a text shows it: with `decimals` places, or as computed without a trailing
    `.0` (15 significant digits, as Moodle's default)."""
    if decimals is not None:
        return f"{value:.{decimals}f}"
    shown = f"{value:.15g}"
    return "0" if shown == "-0" else shown


def fill(text: str, values: Mapping[str, float], decimals: int | None = None) -> str:
    """A text with `{name}` and `{=formula}` replaced by the variant's values (a `{word}` that
    names no variable, as in TeX, stays as written)."""
    if "{" not in text:
        return text

    def value(found: re.Match[str]) -> str:
        if found["formula"] is not None:
            return show(formula(found["formula"]).evaluate(values), decimals)
        name = found["name"]
        return show(values[name]) if name in values else found[0]

    return PLACEHOLDER.sub(value, text)


def answer_of(answer: float | str, values: Mapping[str, float]) -> float:
    """An answer for a variant: the number, or the formula's value."""
    return answer if isinstance(answer, float | int) else formula(answer).evaluate(values)


def tolerance_of(tolerance: float | str, answer: float) -> float:
    """An absolute tolerance: as written, or the percentage of the answer."""
    if isinstance(tolerance, str):
        return abs(answer) * float(tolerance.rstrip("%")) / 100
    return float(tolerance)


def variant_question(question: Calculated, values: Mapping[str, float]) -> Calculated:
    """One variant as a question without variables: texts filled in, answers computed, the
    tolerance absolute."""
    decimals = question.decimals
    update: dict[str, object] = {
        "variables": None,
        "prompt": fill(question.prompt, values, decimals),
        "explanation": fill(question.explanation, values, decimals),
    }
    if isinstance(question, Numerical):
        answer = answer_of(question.answer, values)
        update["answer"] = answer
        update["tolerance"] = tolerance_of(question.tolerance, answer)
    else:
        update["gaps"] = {
            gap_id: _variant_gap(gap, values, decimals) for gap_id, gap in question.gaps.items()
        }
    return question.model_copy(update=update)


def _variant_gap(gap: Gap, values: Mapping[str, float], decimals: int | None) -> Gap:
    """A gap of one variant: a numerical one's answer computed, a drop-down's texts filled in."""
    if isinstance(gap, NumericalGap):
        answer = answer_of(gap.answer, values)
        tolerance = tolerance_of(gap.tolerance, answer)
        return gap.model_copy(update={"answer": answer, "tolerance": tolerance})
    if isinstance(gap, ChoiceGap):
        options = [
            option.model_copy(
                update={
                    "text": fill(option.text, values, decimals),
                    "feedback": option.feedback and fill(option.feedback, values, decimals),
                }
            )
            for option in gap.options
        ]
        return gap.model_copy(update={"options": options})
    return gap


def expand(quiz_id: str, question: Calculated) -> Iterator[tuple[Values, Calculated]]:
    """Each variant's values with the question it makes."""
    for values in variants(quiz_id, question):
        yield values, variant_question(question, values)
