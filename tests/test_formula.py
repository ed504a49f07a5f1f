"""Moodle's calculated-question formulas: read by quizbank's own parser, evaluated without eval,
every mistake at its column, hostile formulas refused quickly."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from quizbank.formula import MAX_DEPTH, MAX_LENGTH, FormulaError, parse


@pytest.mark.parametrize(
    ("source", "values", "expected"),
    [
        ("{p} * {bytes} * 3", {"p": 7, "bytes": 4}, 84),
        ("1 + 2 * 3 - 4 / 2", {}, 5),
        ("-(2 + 3) * -2", {}, 10),
        ("7 % 3 + -7 % 3", {}, 0),  # PHP: the sign of the left side
        ("7.5 % 2", {}, 1),  # PHP: of the whole parts
        ("sqrt(16) + pow(2, 10) + abs(-1)", {}, 1029),
        ("round(2.5) + round(-2.5) + round(1.2345, 2)", {}, 1.23),  # halves away from zero
        ("min(3, {a}, 5) + max({a}, 1)", {"a": 2}, 4),
        ("2 * pi()", {}, 2 * math.pi),
        ("log(8, 2) + log10(1000) + exp(0)", {}, 7),
        ("1.5e3 + .5", {}, 1500.5),
        ("floor(-1.5) + ceil(1.2)", {}, 0),
    ],
)
def test_a_formula_evaluates_as_moodle_does(
    source: str, values: dict[str, float], expected: float
) -> None:
    assert parse(source).evaluate(values) == pytest.approx(expected)


def test_the_variables_a_formula_uses() -> None:
    assert parse("{p} * {bytes} + {p}").variables == {"p", "bytes"}


@pytest.mark.parametrize(
    ("source", "message", "column"),
    [
        ("{p} +", "the formula ends too soon: a number, a variable or ( is missing", 5),
        ("9^9^9", "'^' cannot be in a formula (write pow(a, b) for a to the power b)", 1),
        (
            "foo(1)",
            "'foo' is not one of Moodle's functions (a variable is written in braces: {foo})",
            0,
        ),
        ("{p}.real", "'.' cannot be in a formula", 3),
        (
            "__import__(1)",
            "'__import__' is not one of Moodle's functions (a variable is written in braces: {__import__})",
            0,
        ),
        ("max()", "max() takes 2 to 50 values, not 0", 0),
        ("min(3)", "min() takes 2 to 50 values, not 1", 0),
        ("1" * 400, "11111111111111111111… is too large to be a number", 0),
        ("sqrt(1, 2)", "sqrt() takes 1 values, not 2", 0),
        ("(1 + 2", "')' is missing here", 6),
        ("1 2", "'2' is not expected here", 2),
        ("{p", "'{' cannot be in a formula", 0),
    ],
)
def test_a_formula_that_cannot_be_read_says_where(source: str, message: str, column: int) -> None:
    with pytest.raises(FormulaError) as caught:
        parse(source)
    assert (caught.value.message, caught.value.column) == (message, column)


@pytest.mark.parametrize(
    ("source", "message", "column"),
    [
        ("1 / ({p} - 1)", "1 / 0 divides by zero", 2),
        ("pow(10, 400)", "pow(10, 400) is too large to be a number", 0),
        ("sqrt({p} - 2)", "sqrt(-1) has no real value", 0),
        ("log(0)", "log(0) has no real value", 0),
        ("{q}", "{q} is not a variable of this question", 0),
        ("1e300 * 1e300", "1e+300 * 1e+300 is too large to be a number", 6),
    ],
)
def test_a_formula_without_a_value_says_why(source: str, message: str, column: int) -> None:
    with pytest.raises(FormulaError) as caught:
        parse(source).evaluate({"p": 1})
    assert (caught.value.message, caught.value.column) == (message, column)


def test_hostile_formulas_are_refused_by_size_and_depth() -> None:
    with pytest.raises(FormulaError, match=f"at most {MAX_LENGTH}"):
        parse("1+" * MAX_LENGTH + "1")
    with pytest.raises(FormulaError, match=f"more than {MAX_DEPTH} deep"):
        parse("(" * (MAX_DEPTH + 2) + "1" + ")" * (MAX_DEPTH + 2))
    with pytest.raises(FormulaError, match=f"more than {MAX_DEPTH} deep"):
        parse("-" * (MAX_DEPTH + 2) + "1")


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet="0123456789.{}()+-*/%^,abcpowsqrt e", max_size=60))
def test_any_text_is_a_value_or_a_formula_error(source: str) -> None:
    try:
        value = parse(source).evaluate({"a": 2.0, "b": -3.0, "c": 0.0})
    except FormulaError:
        return
    assert math.isfinite(value)


def test_fuzzed_formulas_are_a_value_or_a_formula_error() -> None:
    """The fuzzer's calculated stage, a few thousand formulas of it (scripts/fuzz.py runs more)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))
    from fuzz_calculated import check_calculated

    failed = [o for o in check_calculated(3000, seed=5) if o.failure]
    assert failed == []
