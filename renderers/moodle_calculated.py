"""A numerical question with variables as Moodle's own `calculated` question.

What Moodle's importer reads (question/format/xml/format.php, import_calculated) and its export
writes back: the answer is the formula as written (Moodle's calculated-question language is
quizbank's), its tolerance `nominal` (2, absolute) or `relative` (1, a fraction of the answer:
`1%` is 0.01), its answer length `decimals` decimal places (`correctanswerformat` 1), or 9
significant figures (2) when the question shows values as computed; each variable a dataset
definition private to the question (`status` private: no other question shares it), uniform
between its least and greatest value, and quizbank's variants its dataset items, item n of every
variable being variant n, in quizbank's order; `synchronize` 0.

Texts keep their `{name}` and `{=formula}`, which Moodle fills in for the variant an attempt
draws (qtype_calculated_variable_substituter::replace_expressions_in_text): a variable as its
dataset item, written as quizbank shows it; a computed value as PHP writes a float (14
significant digits, no trailing zeros). quizbank shows a computed value with `decimals` places:
in Moodle it is `{=round(formula, decimals)}`, the same number without the trailing zeros
(`42`, not `42.00`). Where a variant would still show another number (PHP's rounding of a
half, a 15th digit), `losses` says so. While a text is rendered each placeholder is one
character of Plane 15's private use area (after the cloze gaps' marks), which Markdown, the
formulas and the right-to-left renderer leave alone, put back once the question is written.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from decimal import Decimal

from quizbank.formula import _round
from quizbank.model import ChoicesVariable, Numerical, RangeVariable, Variable
from quizbank.variables import PLACEHOLDER, Values, formula, show, variants

from . import moodle_text as mt

_MARK = 0xF0100  # the cloze gaps' marks are U+F0000 to U+F00FF (quizbank.gaps)
_MAX_MARKS = 0xFFFD - 0x0100
_MARKS = re.compile(f"[{chr(_MARK)}-{chr(_MARK + _MAX_MARKS - 1)}]")
RELATIVE, NOMINAL = 1, 2  # qtype_calculated::tolerance_types()
DECIMALS, SIGNIFICANT = 1, 2  # correctanswerformat
SIGNIFICANT_FIGURES = 9  # the most Moodle's form offers


class Placeholders:
    """The `{name}` and `{=formula}` of a question's texts, each as a mark while the texts are
    rendered, put back as Moodle reads them (`{=round(formula, decimals)}` with `decimals`)."""

    def __init__(self, decimals: int | None) -> None:
        self.decimals = decimals
        self._found: dict[str, str] = {}  # placeholder: its mark

    def mark(self, text: str) -> str:
        """A text with each placeholder as its mark."""
        return PLACEHOLDER.sub(self._marked, text) if "{" in text else text

    def _marked(self, found: re.Match[str]) -> str:
        if found["name"] is None and found["formula"] is None:
            return found[0]
        mark = self._found.get(found[0])
        if mark is None:
            if len(self._found) >= _MAX_MARKS:
                raise ValueError("its texts hold more placeholders than Moodle XML can write")
            mark = self._found[found[0]] = chr(_MARK + len(self._found))
        return mark

    def restore(self, xml: str) -> str:
        """The written question with each mark as Moodle's placeholder."""
        if not self._found:
            return xml
        placeholders = {mark: self._moodle(text) for text, mark in self._found.items()}
        return _MARKS.sub(lambda mark: placeholders[mark[0]], xml)

    def _moodle(self, placeholder: str) -> str:
        if not placeholder.startswith("{=") or self.decimals is None:
            return placeholder
        return f"{{=round({placeholder[2:-1]}, {self.decimals})}}"


def php_float(value: float) -> str:
    """A float as PHP 8 writes it in a string (`precision` 14): `90`, `0.33333333333333`."""
    shown = f"{value:.14G}"
    if "E" not in shown:
        return shown
    mantissa, exponent = shown.split("E")
    if "." not in mantissa:
        mantissa += ".0"
    return f"{mantissa}E{exponent[0]}{exponent[1:].lstrip('0') or '0'}"


def moodle_value(source: str, values: Values, decimals: int | None) -> str:
    """What Moodle shows for `{=source}` in a variant's text (see Placeholders)."""
    value = formula(source).evaluate(values)
    return php_float(_round(value, decimals) if decimals is not None else value)


def shown_differently(question: Numerical, quiz_id: str) -> list[str]:
    """Each computed value of the question's texts that Moodle shows as another number than
    quizbank for some variant: `{=formula}` (variant 3: 0.33 here, 0.333 in Moodle)."""
    sources = dict.fromkeys(
        found["formula"]
        for text in (question.prompt, question.explanation or "")
        for found in PLACEHOLDER.finditer(text)
        if found["formula"] is not None
    )
    differ = []
    for source in sources:
        for number, values in enumerate(variants(quiz_id, question), 1):
            ours = show(formula(source).evaluate(values), question.decimals)
            theirs = moodle_value(source, values, question.decimals)
            if float(ours) != float(theirs):
                differ.append(f"{{={source}}} (variant {number}: {ours} here, {theirs} in Moodle)")
                break
    return differ


def _places(number: float) -> int:
    """How many decimal places a number is written with."""
    exponent = Decimal(repr(float(number))).normalize().as_tuple().exponent
    return max(0, -exponent) if isinstance(exponent, int) else 0


def _bounds(variable: Variable) -> tuple[float, float, int]:
    """A variable's least and greatest value and its decimal places."""
    if isinstance(variable, ChoicesVariable):
        values = list(variable.choices)
        return min(values), max(values), max(_places(v) for v in values)
    assert isinstance(variable, RangeVariable)
    places = max(_places(variable.start), _places(variable.step))
    return variable.start, variable.to, places


def _text_of(value: str) -> str:
    return f"<text>{mt._cdata(value)}</text>"


def _definition(name: str, variable: Variable, items: Sequence[float]) -> str:
    """One variable as a private dataset definition, its items the variants' values."""
    least, greatest, places = _bounds(variable)
    rows = "".join(
        "        <dataset_item>\n"
        f"           <number>{number}</number>\n"
        f"           <value>{show(value)}</value>\n"
        "        </dataset_item>\n"
        for number, value in enumerate(items, 1)
    )
    return (
        "<dataset_definition>\n"
        f"    <status>{_text_of('private')}</status>\n"
        f"    <name>{_text_of(name)}</name>\n"
        "    <type>calculated</type>\n"
        f"    <distribution>{_text_of('uniform')}</distribution>\n"
        f"    <minimum>{_text_of(show(least))}</minimum>\n"
        f"    <maximum>{_text_of(show(greatest))}</maximum>\n"
        f"    <decimals>{_text_of(str(places))}</decimals>\n"
        f"    <itemcount>{len(items)}</itemcount>\n"
        f"    <dataset_items>\n{rows}    </dataset_items>\n"
        f"    <number_of_items>{len(items)}</number_of_items>\n"
        "</dataset_definition>\n"
    )


def datasets(question: Numerical, drawn: Sequence[Values]) -> str:
    """The question's `<dataset_definitions>`, a definition per variable, its items the
    variants' values in order."""
    assert question.variables
    definitions = "".join(
        _definition(name, question.variables[name], [values[name] for values in drawn])
        for name in sorted(question.variables)
    )
    return f"<dataset_definitions>\n{definitions}</dataset_definitions>\n"


def tolerance(question: Numerical) -> tuple[str, int]:
    """The tolerance as Moodle stores it, and its type."""
    value = question.tolerance
    if isinstance(value, str):
        return show(float(value.rstrip("%")) / 100), RELATIVE
    return show(value), NOMINAL


def answer_length(question: Numerical) -> tuple[int, int]:
    """How Moodle writes the right answer: `decimals` places, or significant figures."""
    if question.decimals is not None:
        return question.decimals, DECIMALS
    return SIGNIFICANT_FIGURES, SIGNIFICANT
