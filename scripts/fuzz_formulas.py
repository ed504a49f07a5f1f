"""Fuzzed formulas, for scripts/fuzz.py: random TeX (ordinary commands nested, hostile ones,
delimiters, broken braces, deep nesting) through quizbank's formula check, each in a bounded
time. A formula fails when the check raises anything but its refusal, runs past the bound, or
accepts TeX that an LMS's MathJax would read otherwise than quizbank drew it (a delimiter, a
command inside a text argument, a refused command).
"""

from __future__ import annotations

import random
import re
import signal
import time
from collections.abc import Iterator
from dataclasses import dataclass

ATOMS = [
    "x",
    "1",
    "2.5",
    "\u03b1",
    "\\alpha",
    "\\infty",
    "+",
    "-",
    "=",
    "<",
    ">",
    "'",
    ",",
    "\\,",
    "\\ ",
    "\\{",
    "\\}",
    "\\$",
    "\\%",
    "\\#",
    "\\_",
    "\\&",
    "|",
    "\\|",
    "ن",
    "🙂",
    "\u0301",
    "\\\\",
    "\\lt",
    "\\gt",
    "\\ldots",
    "\\cdot",
    "\\times",
    "\\sum",
    "\\int",
    "\\lim",
    "\\to",
    "\\mathbb{R}",
    "&",
    "~",
    "%",
    "#",
    " ",
]
HOSTILE = [
    "\\(",
    "\\)",
    "\\[",
    "\\]",
    "$",
    "$$",
    "\\href{javascript:alert(1)}{x}",
    "\\url{javascript:x}",
    "\\unicode{x}",
    "\\unicode{65}",
    "\\unicode{0x1F600}",
    "\\style{color:red}{x}",
    "\\class{a}{x}",
    "\\cssId{a}{x}",
    "\\require{html}",
    "\\def\\x{y}",
    "\\newcommand{\\x}{y}",
    "\\let\\a\\b",
    "\\foo",
    "\\begin",
    "\\end",
    "\\end{matrix}",
    "\\left",
    "\\right",
    "\\verb|\\(|",
    "<script>",
    "&amp;",
    "]]>",
    "\\mmlToken{mi}{x}",
    "\\color{red;x:url(y)}",
    "\\operatorname",
    "\\limits",
    "\\tag{1}",
]
# Commands with holes: @A and @B are filled with formulas, @T with text.
SHAPES = [
    "\\frac{@A}{@B}",
    "\\sqrt{@A}",
    "\\sqrt[@A]{@B}",
    "@A^{@B}",
    "@A_{@B}",
    "@A^@B",
    "{@A}",
    "\\left(@A\\right)",
    "\\left.@A\\right|",
    "\\begin{matrix}@A & @B \\\\ @A\\end{matrix}",
    "\\begin{pmatrix}@A\\end{pmatrix}",
    "\\begin{cases}@A & @B\\end{cases}",
    "\\text{@T}",
    "\\textbf{@T}",
    "\\mbox{@T}",
    "\\hat{@A}",
    "\\overset{@A}{@B}",
    "\\underset{@A}{@B}",
    "\\operatorname{@T}",
    "\\mathbf{@A}",
    "\\color{red}{@A}",
    "\\colorbox{yellow}{@T}",
    "\\binom{@A}{@B}",
    "\\overline{@A}",
    "\\boxed{@A}",
    "\\genfrac{(}{)}{0}{1}{@A}{@B}",
]
TEXT_PIECES = ["for all ", "x", " ", "$", "\\(", "\\href{j}{x}", "\\alpha", "\\$", "{", "}", "a b"]


def random_formula(rng: random.Random, depth: int = 0, *, hostile: bool = True) -> str:
    """A formula: ordinary TeX, and unless not `hostile`, now and then hostile or broken."""
    parts = []
    for _ in range(rng.randint(1, 4)):
        roll = rng.random()
        if roll < 0.4 or depth > 4:
            parts.append(rng.choice(ATOMS))
        elif roll < 0.5:
            parts.append(rng.choice(HOSTILE if hostile else ATOMS))
        else:
            shape = rng.choice(SHAPES)
            while "@A" in shape or "@B" in shape:
                hole = "@A" if "@A" in shape else "@B"
                shape = shape.replace(hole, random_formula(rng, depth + 1, hostile=hostile), 1)
            while "@T" in shape:
                pieces = TEXT_PIECES if hostile else ["for all ", "x", " ", "a b"]
                text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 3)))
                shape = shape.replace("@T", text, 1)
            parts.append(shape)
    return "".join(parts)


def mutated_formula(rng: random.Random) -> str:
    """A random formula, then perhaps broken or blown up."""
    tex = random_formula(rng)
    roll = rng.random()
    if roll < 0.1 and tex:
        at = rng.randrange(len(tex))
        tex = tex[:at] + tex[at + 1 :]
    elif roll < 0.2:
        at = rng.randint(0, len(tex))
        tex = tex[:at] + rng.choice(["{", "}", "\\", "^", "_", "&", "\\\\", "$"]) + tex[at:]
    elif roll < 0.3:
        size = rng.choice([100, 500, 999, 1000, 2000])
        tex = rng.choice(
            [
                "{" * size + "x" + "}" * size,
                "\\frac{" * (size // 7) + "x" + "}{y}" * (size // 7),
                "x^" * size,
                "x_{" * size + "}" * size,
                "\\sqrt{" * (size // 6) + "}" * (size // 6),
                "\\left(" * (size // 6) + "\\right)" * (size // 6),
                "\\text{" + "a" * size + "}",
                "\\begin{matrix}" + "a&" * size + "\\end{matrix}",
                "\\\\" * size,
                "x" * (size + 1),
            ]
        )
    return tex


@dataclass
class FormulaOutcome:
    tex: str
    seconds: float
    problem: str | None  # why it failed, or None


# What an accepted formula may not hold: a delimiter, a refused command, a command in a text.
_DELIMITER = re.compile(r"(?<!\\)(?:\\\\)*(?:\$|\\[()\[\]])")
_REFUSED = re.compile(
    r"(?<!\\)(?:\\\\)*\\(?:href|url|style|class|cssId|unicode|require|def|newcommand|let)"
    r"(?![A-Za-z])"
)


class _Overtime(Exception):
    pass


def _alarm(signum: int, frame: object) -> None:
    raise _Overtime


def check_formulas(seed: int, count: int, *, bound: float = 1.0) -> Iterator[FormulaOutcome]:
    """`count` fuzzed formulas of `seed` through maths.check_formula, each in `bound` seconds."""
    from quizbank import maths

    previous = signal.signal(signal.SIGALRM, _alarm)
    try:
        for index in range(count):
            rng = random.Random(f"formula:{seed}:{index}")
            tex = mutated_formula(rng)
            maths.to_mathml.cache_clear()
            started = time.monotonic()
            problem = None
            signal.setitimer(signal.ITIMER_REAL, bound)
            try:
                reason = maths.check_formula(tex)
            except _Overtime:
                reason, problem = None, f"ran past {bound:g} s"
            except Exception as exc:  # the check's own failure: what the fuzzer looks for
                reason, problem = None, f"raised {type(exc).__name__}: {exc}"
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
            seconds = time.monotonic() - started
            if problem is None and seconds > bound:
                problem = f"took {seconds:.2f} s"
            found = _DELIMITER.search(tex) or _REFUSED.search(tex)
            if problem is None and reason is None and found:
                problem = f"accepted {found[0]!r}, which an LMS's MathJax reads unchecked"
            yield FormulaOutcome(tex, seconds, problem)
    finally:
        signal.signal(signal.SIGALRM, previous)
