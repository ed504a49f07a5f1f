"""Moodle's calculated-question formula language, read by quizbank's own parser.

A formula is numbers, `{variables}`, `+ - * / %`, parentheses and Moodle's functions
(`sqrt(…)`, `pow(a, b)`, `pi()`, …), so that it goes to Moodle as written and comes back from
it as written. Nothing else is accepted: no Python `eval`, no attribute, no name but the
question's variables and the functions below. A formula is parsed once into a small tree of
tuples and evaluated for each variant; every error names its column in the formula.

Hostile formulas are refused quickly: a formula is at most `MAX_LENGTH` characters and nests at
most `MAX_DEPTH` deep, and a result that is not a finite real number (a division by zero,
`pow(10, 400)`, `sqrt(-1)`) is an error naming what went wrong.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass

MAX_LENGTH = 500
MAX_DEPTH = 40


class FormulaError(ValueError):
    """A formula that cannot be read or evaluated, with the 0-based column of the problem."""

    def __init__(self, message: str, column: int = 0) -> None:
        super().__init__(message)
        self.message = message
        self.column = column


def _round(value: float, digits: float = 0) -> float:
    """PHP's round: halves away from zero, to `digits` decimals."""
    factor = 10.0 ** int(digits)
    scaled = abs(value) * factor
    return math.copysign(math.floor(scaled + 0.5) / factor, value)


def _fmod(a: float, b: float) -> float:
    return math.fmod(a, b)


# Moodle's functions (qtype_calculated's list, as PHP has them): name, fewest and most arguments.
FUNCTIONS: dict[str, tuple[int, int, Callable[..., float]]] = {
    "abs": (1, 1, abs),
    "acos": (1, 1, math.acos),
    "acosh": (1, 1, math.acosh),
    "asin": (1, 1, math.asin),
    "asinh": (1, 1, math.asinh),
    "atan": (1, 1, math.atan),
    "atan2": (2, 2, math.atan2),
    "atanh": (1, 1, math.atanh),
    "ceil": (1, 1, lambda x: float(math.ceil(x))),
    "cos": (1, 1, math.cos),
    "cosh": (1, 1, math.cosh),
    "deg2rad": (1, 1, math.radians),
    "exp": (1, 1, math.exp),
    "expm1": (1, 1, math.expm1),
    "floor": (1, 1, lambda x: float(math.floor(x))),
    "fmod": (2, 2, _fmod),
    "log": (1, 2, lambda x, base=math.e: math.log(x, base)),
    "log10": (1, 1, math.log10),
    "log1p": (1, 1, math.log1p),
    "max": (2, 50, max),  # PHP's max and min of single numbers: two at least
    "min": (2, 50, min),
    "pi": (0, 0, lambda: math.pi),
    "pow": (2, 2, math.pow),
    "rad2deg": (1, 1, math.degrees),
    "round": (1, 2, _round),
    "sin": (1, 1, math.sin),
    "sinh": (1, 1, math.sinh),
    "sqrt": (1, 1, math.sqrt),
    "tan": (1, 1, math.tan),
    "tanh": (1, 1, math.tanh),
}

_TOKEN = re.compile(
    r"\s*(?:(?P<number>(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)"
    r"|\{(?P<variable>[A-Za-z_][A-Za-z0-9_]*)\}"
    r"|(?P<name>[A-Za-z_][A-Za-z0-9_]*)"
    r"|(?P<op>[-+*/%(),]))"
)
VARIABLE_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


@dataclass(frozen=True, slots=True)
class Num:
    """A number as written."""

    value: float

    def evaluate(self, values: Mapping[str, float]) -> float:
        return self.value


@dataclass(frozen=True, slots=True)
class Var:
    """`{name}`: a variable's value."""

    name: str
    column: int

    def evaluate(self, values: Mapping[str, float]) -> float:
        if self.name not in values:
            raise FormulaError(f"{{{self.name}}} is not a variable of this question", self.column)
        return values[self.name]


@dataclass(frozen=True, slots=True)
class Neg:
    """`-x`."""

    inner: Node

    def evaluate(self, values: Mapping[str, float]) -> float:
        return -self.inner.evaluate(values)


@dataclass(frozen=True, slots=True)
class Binary:
    """`a + b`, `a - b`, `a * b`, `a / b`, `a % b`."""

    op: str
    left: Node
    right: Node
    column: int

    def evaluate(self, values: Mapping[str, float]) -> float:
        return _binary(
            self.op, self.left.evaluate(values), self.right.evaluate(values), self.column
        )


@dataclass(frozen=True, slots=True)
class Call:
    """`name(a, b)`: one of Moodle's functions."""

    name: str
    args: tuple[Node, ...]
    column: int

    def evaluate(self, values: Mapping[str, float]) -> float:
        numbers = [arg.evaluate(values) for arg in self.args]
        shown = f"{self.name}({', '.join(_shown(n) for n in numbers)})"
        try:
            result = float(FUNCTIONS[self.name][2](*numbers))
        except OverflowError:
            raise FormulaError(f"{shown} is too large to be a number", self.column) from None
        except ZeroDivisionError:
            raise FormulaError(f"{shown} divides by zero", self.column) from None
        except ValueError:
            raise FormulaError(f"{shown} has no real value", self.column) from None
        if not math.isfinite(result):
            raise FormulaError(f"{shown} is {_not_finite(result)}", self.column)
        return result


Node = Num | Var | Neg | Binary | Call


@dataclass(frozen=True)
class Formula:
    """A parsed formula: its text, its tree, and the variables it uses."""

    source: str
    tree: Node
    variables: frozenset[str]

    def evaluate(self, values: Mapping[str, float]) -> float:
        """The formula's value for the variables' `values`; FormulaError when it has none."""
        result = self.tree.evaluate(values)
        if not math.isfinite(result):
            raise FormulaError(_not_finite(result))
        return result


def parse(source: str) -> Formula:
    """Read a formula; FormulaError, at its column, for anything Moodle's language has not."""
    if len(source) > MAX_LENGTH:
        raise FormulaError(f"the formula is {len(source)} characters long; at most {MAX_LENGTH}")
    parser = _Parser(source)
    tree = parser.expression(0)
    if (token := parser.peek()) is not None:
        raise FormulaError(f"{token[1]!r} is not expected here", token[2])
    return Formula(source, tree, frozenset(parser.variables))


class _Parser:
    """Recursive descent over the tokens: sums of products of signed factors."""

    def __init__(self, source: str) -> None:
        self.tokens = _tokens(source)
        self.index = 0
        self.end = len(source)
        self.variables: set[str] = set()

    def peek(self) -> tuple[str, str, int] | None:
        return self.tokens[self.index] if self.index < len(self.tokens) else None

    def take(self) -> tuple[str, str, int]:
        token = self.peek()
        if token is None:
            raise FormulaError(
                "the formula ends too soon: a number, a variable or ( is missing", self.end
            )
        self.index += 1
        return token

    def expect(self, text: str) -> None:
        token = self.peek()
        if token is None or token[1] != text:
            column = self.end if token is None else token[2]
            raise FormulaError(f"{text!r} is missing here", column)
        self.index += 1

    def expression(self, depth: int) -> Node:
        if depth > MAX_DEPTH:
            token = self.peek()
            column = self.end if token is None else token[2]
            raise FormulaError(f"the formula nests more than {MAX_DEPTH} deep", column)
        node = self.term(depth)
        while (token := self.peek()) is not None and token[1] in "+-" and token[0] == "op":
            self.index += 1
            node = Binary(token[1], node, self.term(depth), token[2])
        return node

    def term(self, depth: int) -> Node:
        node = self.factor(depth)
        while (token := self.peek()) is not None and token[1] in "*/%" and token[0] == "op":
            self.index += 1
            node = Binary(token[1], node, self.factor(depth), token[2])
        return node

    def factor(self, depth: int) -> Node:
        if depth > MAX_DEPTH:
            raise FormulaError(f"the formula nests more than {MAX_DEPTH} deep", self.take()[2])
        kind, text, column = self.take()
        if kind == "op" and text in "+-":
            inner = self.factor(depth + 1)
            return Neg(inner) if text == "-" else inner
        if kind == "number":
            value = float(text)
            if not math.isfinite(value):
                raise FormulaError(f"{text[:20]}… is too large to be a number", column)
            return Num(value)
        if kind == "variable":
            self.variables.add(text)
            return Var(text, column)
        if kind == "op" and text == "(":
            node = self.expression(depth + 1)
            self.expect(")")
            return node
        if kind == "name":
            return self.call(text, column, depth)
        raise FormulaError(f"{text!r} is not expected here", column)

    def call(self, name: str, column: int, depth: int) -> Node:
        if name not in FUNCTIONS:
            hint = f" (a variable is written in braces: {{{name}}})" if len(name) < 20 else ""
            raise FormulaError(f"{name!r} is not one of Moodle's functions{hint}", column)
        self.expect("(")
        args: list[Node] = []
        if (token := self.peek()) is not None and token[1] == ")":
            self.index += 1
        else:
            args.append(self.expression(depth + 1))
            while (token := self.peek()) is not None and token[1] == ",":
                self.index += 1
                args.append(self.expression(depth + 1))
            self.expect(")")
        fewest, most, _ = FUNCTIONS[name]
        if not fewest <= len(args) <= most:
            wanted = str(fewest) if fewest == most else f"{fewest} to {most}"
            raise FormulaError(f"{name}() takes {wanted} values, not {len(args)}", column)
        return Call(name, tuple(args), column)


def _tokens(source: str) -> list[tuple[str, str, int]]:
    tokens = []
    at = 0
    stripped_end = len(source.rstrip())
    while at < stripped_end:
        found = _TOKEN.match(source, at)
        if found is None or found.end() == at:
            column = at + len(source[at:]) - len(source[at:].lstrip())
            character = source[column]
            hint = " (write pow(a, b) for a to the power b)" if character == "^" else ""
            raise FormulaError(f"{character!r} cannot be in a formula{hint}", column)
        kind = found.lastgroup
        assert kind is not None
        start = found.start(kind) - (kind == "variable")  # a variable's column is its {
        tokens.append((kind, found.group(kind), start))
        at = found.end()
    return tokens


def _binary(op: str, a: float, b: float, column: int) -> float:
    if op in "/%" and b == 0:
        raise FormulaError(f"{_shown(a)} {op} 0 divides by zero", column)
    if op == "+":
        result = a + b
    elif op == "-":
        result = a - b
    elif op == "*":
        result = a * b
    elif op == "/":
        result = a / b
    else:  # PHP's %: of the whole parts, with the sign of the left one
        whole = math.trunc(b)
        if whole == 0:
            raise FormulaError(f"{_shown(a)} % {_shown(b)} divides by zero", column)
        result = float(math.fmod(math.trunc(a), whole))
    if not math.isfinite(result):
        raise FormulaError(f"{_shown(a)} {op} {_shown(b)} is {_not_finite(result)}", column)
    return result


def _not_finite(value: float) -> str:
    return "not a number" if math.isnan(value) else "too large to be a number"


def _shown(value: float) -> str:
    return f"{value:.15g}"
