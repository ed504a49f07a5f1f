"""A Moodle `calculated` (or `calculatedsimple`) question read as a numerical question with
variables: what format.php's import_calculated reads, and quizbank's Moodle XML export writes
(renderers/moodle_calculated.py).

- the answer is the formula (Moodle's calculated-question language is quizbank's); a tolerance
  `relative` (1) is a percentage (`1%`), `nominal` (2) absolute, `geometric` (3) relative and a
  loss;
- an answer length in decimal places (`correctanswerformat` 1) is `decimals`; in significant
  figures the values are shown as computed;
- each dataset definition is a variable from its least to its greatest value in steps of its
  decimals (`{from: 1, to: 20, step: 1}`), or the values its items take when such a range would
  hold more than quizbank allows; its items, by number, are the question's `variants`, listed
  (item n of every variable is variant n), so that every variant Moodle asked is asked again;
- `{=round(formula, decimals)}` in a text, as quizbank's export writes a computed value shown
  with `decimals` places, is `{=formula}` again.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator

from lxml import etree

from quizbank.importer.source import SourceQuestion, SourceText
from quizbank.model import MAX_VARIANTS
from quizbank.variables import PLACEHOLDER

_Element = etree._Element
_MAX_RANGE = 1_000_000  # the most values a range variable holds (model.RangeVariable)


def read_calculated(element: _Element, question: SourceQuestion) -> None:
    """The variables, variants, tolerance type and decimals of a calculated question, into
    `question.fields` (whose answer and tolerance `_numerical` has read)."""
    fields = question.fields
    answer = _right_answer(element)
    decimals = None
    if answer is not None:
        kind = (answer.findtext("tolerancetype") or "2").strip()
        tolerance = float(fields.get("tolerance") or 0)
        if kind in ("1", "3"):
            fields["tolerance"] = f"{tolerance * 100:g}%"
            if kind == "3":
                question.losses.append("its geometric tolerance (quizbank's is relative)")
        if (answer.findtext("correctanswerformat") or "").strip() == "1":
            length = int(float(answer.findtext("correctanswerlength") or 0))
            decimals = min(max(length, 0), 10)
    fields["decimals"] = decimals
    columns = dict(_datasets(element))
    if not columns:
        return
    count = min(len(items) for _, items in columns.values())
    if count > MAX_VARIANTS:
        question.losses.append(f"its variants after the first {MAX_VARIANTS} of {count}")
        count = MAX_VARIANTS
    fields["variables"] = {
        name: _variable(definition, items[:count]) for name, (definition, items) in columns.items()
    }
    fields["variants"] = [{name: items[n] for name, (_, items) in columns.items()}
                          for n in range(count)]  # fmt: skip
    for key in ("prompt", "explanation"):
        text = fields.get(key)
        if isinstance(text, SourceText) and decimals is not None:
            fields[key] = SourceText(
                _unrounded(text.value, decimals), text.format, text.inline, text.plain, text.code
            )


def _right_answer(element: _Element) -> _Element | None:
    answers = element.findall("answer")
    for answer in answers:
        if float(answer.get("fraction") or 0) >= 100:
            return answer
    return answers[0] if answers else None


def _datasets(element: _Element) -> Iterator[tuple[str, tuple[_Element, list[float]]]]:
    """Each dataset definition's name, with the definition and its items' values by number."""
    for definition in element.iterfind("dataset_definitions/dataset_definition"):
        name = (definition.findtext("name/text") or "").strip()
        items: dict[int, float] = {}
        for item in definition.iterfind("dataset_items/dataset_item"):
            try:
                items[int((item.findtext("number") or "").strip())] = float(
                    (item.findtext("value") or "").strip()
                )
            except ValueError:
                continue
        if name:
            yield name, (definition, [items[number] for number in sorted(items)])


def _number(definition: _Element, tag: str, default: float) -> float:
    try:
        value = float((definition.findtext(f"{tag}/text") or "").strip())
    except ValueError:
        return default
    return value if math.isfinite(value) else default


def _variable(definition: _Element, items: list[float]) -> dict[str, object]:
    """A dataset definition as a range over its bounds in steps of its decimals (widened to
    take every item), or the items' values when the range would be too long."""
    least = min([_number(definition, "minimum", min(items, default=0)), *items])
    greatest = max([_number(definition, "maximum", max(items, default=0)), *items])
    places = int(_number(definition, "decimals", 0))
    step = 10.0**-places if 0 <= places <= 10 else 1.0
    on_steps = all(abs((v - least) / step - round((v - least) / step)) < 1e-6 for v in items)
    if on_steps and (greatest - least) / step < _MAX_RANGE:
        return {"from": least, "to": greatest, "step": step}
    return {"choices": sorted(set(items))}


def _unrounded(html: str, decimals: int) -> str:
    """`{=round(formula, decimals)}` as `{=formula}`: quizbank shows it with `decimals`."""
    tail = f", {decimals})"

    def plain(found: re.Match[str]) -> str:
        source = found["formula"]
        if source is not None and source.startswith("round(") and source.endswith(tail):
            return f"{{={source[len('round(') : -len(tail)]}}}"
        return found[0]

    return PLACEHOLDER.sub(plain, html) if "{=round(" in html else html
