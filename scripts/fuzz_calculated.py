"""Fuzzed calculated-question formulas, for scripts/fuzz.py: random formulas in Moodle's
language (numbers, {variables}, operators, Moodle's functions, nesting) and hostile ones
(Python, PHP, huge powers, deep nesting, stray characters), read and evaluated by
quizbank/formula.py with random variable values, each within a bound of time.

A formula fails when reading or evaluating it raises anything but FormulaError, runs past the
bound, or gives a value that is not a finite number.
"""

from __future__ import annotations

import math
import random
import signal
import time
from collections.abc import Iterator
from dataclasses import dataclass

from quizbank.formula import FUNCTIONS, FormulaError, parse

NAMES = ["p", "bytes", "n_1", "x"]
ATOMS = ["0", "1", "2.5", "1e300", "1e-300", ".5", "7", "{p}", "{bytes}", "{n_1}", "{x}", "pi()"]
OPERATORS = [" + ", " - ", " * ", " / ", " % ", "-", ","]
HOSTILE = [
    "__import__('os')",
    "().__class__",
    "{p}.real",
    "$x",
    "`ls`",
    "9^9^9",
    "pow(10, 400)",
    "pow(pow(10, 300), 10)",
    "exp(1000)",
    "sqrt(-1)",
    "log(0)",
    "1/0",
    "fmod(1, 0)",
    "{q}",
    "{",
    "}",
    "((((((((((",
    "))",
    "max()",
    "round(1, 2, 3)",
    "\x00",
    "ن",
    "1" * 400,
    "-" * 60 + "1",
    "(" * 60 + "1" + ")" * 60,
]


def random_formula(rng: random.Random, depth: int = 0) -> str:
    """A formula: most of them Moodle's, now and then hostile or broken."""
    roll = rng.random()
    if roll < 0.08:
        return rng.choice(HOSTILE)
    if depth > 6 or roll < 0.35:
        return rng.choice(ATOMS)
    if roll < 0.55:
        name = rng.choice(sorted(FUNCTIONS))
        fewest, most, _ = FUNCTIONS[name]
        count = rng.randint(fewest, min(most, 3)) if rng.random() < 0.9 else rng.randint(0, 4)
        args = ", ".join(random_formula(rng, depth + 1) for _ in range(count))
        return f"{name}({args})"
    if roll < 0.65:
        return f"({random_formula(rng, depth + 1)})"
    left, right = random_formula(rng, depth + 1), random_formula(rng, depth + 1)
    return f"{left}{rng.choice(OPERATORS)}{right}"


@dataclass(frozen=True)
class CalculatedOutcome:
    """One formula's run: how long it took, and why it failed (empty when it did not)."""

    formula: str
    seconds: float
    failure: str = ""


class _Slow(Exception):
    pass


def _alarm(signum: int, frame: object) -> None:
    raise _Slow


def check_calculated(count: int, seed: int, bound: float = 1.0) -> Iterator[CalculatedOutcome]:
    """Read and evaluate `count` fuzzed formulas, each with random values, within `bound`."""
    rng = random.Random(seed)
    previous = signal.signal(signal.SIGALRM, _alarm)
    try:
        for _ in range(count):
            formula = random_formula(rng)
            values = {name: rng.choice([0.0, 1.0, -3.5, 1e300, 7.0]) for name in NAMES}
            started = time.perf_counter()
            failure = ""
            signal.setitimer(signal.ITIMER_REAL, bound)
            try:
                value = parse(formula).evaluate(values)
                if not math.isfinite(value):
                    failure = f"a value that is no finite number: {value!r}"
            except FormulaError:
                pass
            except _Slow:
                failure = f"ran past {bound} s"
            except Exception as exc:  # what the fuzzer is for: anything but a refusal
                failure = f"{type(exc).__name__}: {exc}"
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
            yield CalculatedOutcome(formula, time.perf_counter() - started, failure)
    finally:
        signal.signal(signal.SIGALRM, previous)


def main() -> int:
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=28)
    args = parser.parse_args()
    outcomes = list(check_calculated(args.count, args.seed))
    failed = [o for o in outcomes if o.failure]
    for outcome in failed[:20]:
        print(f"FAIL {outcome.formula[:80]!r}: {outcome.failure}")
    slowest = max(outcome.seconds for outcome in outcomes)
    print(f"{len(outcomes)} calculated formulas; {len(failed)} failed; slowest {slowest:.3f} s")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
