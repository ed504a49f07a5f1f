"""Moodle's embedded answers (multianswer, "Cloze") read into the gaps of a cloze question.

The syntax is qtype_multianswer's (question/type/multianswer/questiontype.php): `{2:SA:=a~%50%b#
close}` is a gap of weight 2, its type, then alternatives `~`-separated, each an optional grade
(`=` or `%50%`), the answer, and `#feedback`. An answer ends at a `~`, `#` or `}` not after `\\`,
`&` or `&amp;`; a feedback at a `~` or `}` not after `\\`. Answers and feedback are HTML-decoded
and `\\}`, `\\#` are `}`, `#`, as Moodle stores them.

The scan is linear: where answers and feedback can end is found once for the whole text, each
gap is walked alternative by alternative from its start, and a place a walk passed on its way to
a gap that does not close is remembered, so that no later gap walks on from it again (Moodle's
one regular expression starts again at every `{`, and reads to the end of the text each time).
"""

from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import dataclass, field
from html import unescape
from typing import Any

from quizbank.importer.source import SourceText

_KINDS = {
    **dict.fromkeys(("NUMERICAL", "NM"), ("numerical", False, False)),
    **dict.fromkeys(("SHORTANSWER", "SA", "MW"), ("short_answer", False, False)),
    **dict.fromkeys(("SHORTANSWER_C", "SAC", "MWC"), ("short_answer_c", False, False)),
}
# A choice gap: (single, shuffled, shown as a drop-down).
_CHOICES: dict[str, tuple[bool, bool, bool]] = {
    **dict.fromkeys(("MULTICHOICE", "MC"), (True, False, True)),
    **dict.fromkeys(("MULTICHOICE_S", "MCS"), (True, True, True)),
    **dict.fromkeys(("MULTICHOICE_V", "MCV"), (True, False, False)),
    **dict.fromkeys(("MULTICHOICE_VS", "MCVS"), (True, True, False)),
    **dict.fromkeys(("MULTICHOICE_H", "MCH"), (True, False, False)),
    **dict.fromkeys(("MULTICHOICE_HS", "MCHS"), (True, True, False)),
    **dict.fromkeys(("MULTIRESPONSE", "MR", "MULTIRESPONSE_H", "MRH"), (False, False, False)),
    **dict.fromkeys(("MULTIRESPONSE_S", "MRS", "MULTIRESPONSE_HS", "MRHS"), (False, True, False)),
}
_TYPES = "|".join(sorted((*_KINDS, *_CHOICES), key=len, reverse=True))
_START = re.compile(rf"\{{([0-9]*):({_TYPES}):")
_GRADE = re.compile(r"=|%(-?[0-9]+(?:[.,][0-9]*)?)%")
_ANSWER_END = re.compile(r"(?<!\\)(?<!&)(?<!&amp;)[~#}]")
_FEEDBACK_END = re.compile(r"(?<!\\)[~}]")
_NUMBER = r"-?(?:[0-9]+[.,]?[0-9]*|[.,][0-9]+)(?:[eE][-+]?[0-9]+)?"
_NUMERICAL = re.compile(rf"^({_NUMBER})(?::({_NUMBER}))?$")
_LETTERS = "abcdefghijklmnopqrstuvwxyz"


@dataclass(frozen=True, slots=True)
class _Alternative:
    grade: float
    answer: str
    feedback: str


@dataclass(slots=True)
class Cloze:
    """A multianswer question text read: the HTML with `[[1]]`, `[[2]]`, … for its gaps, the
    gaps, each one's weight, whether its drop-downs shuffle, and what the model cannot hold."""

    prompt: str
    gaps: dict[str, dict[str, Any]] = field(default_factory=dict)
    weights: list[float] = field(default_factory=list)
    shuffled: list[bool] = field(default_factory=list)
    losses: list[str] = field(default_factory=list)


def read_cloze(html: str) -> Cloze:
    """The gaps of a multianswer question text, in order."""
    found = Cloze("")
    pieces: list[str] = []
    at = 0
    gaps: _Gaps | None = None
    for start in _START.finditer(html):
        if start.start() < at:
            continue  # inside a gap already read
        gaps = gaps or _Gaps(html)
        end = gaps.end(start.end())
        if end is None:
            continue  # not closed: Moodle leaves it as text
        number = str(len(found.gaps) + 1)
        pieces += [html[at : start.start()], f"[[{number}]]"]
        at = end
        found.weights.append(float(start[1] or 1))
        _add_gap(found, number, start[2], gaps.alternatives(start.end()))
    pieces.append(html[at:])
    found.prompt = "".join(pieces)
    weights = set(found.weights)
    if len(weights) > 1:
        shown = ", ".join(_number(w) for w in found.weights)
        found.losses.append(f"its gaps weigh differently ({shown}); each now scores the same share")
    return found


class _Gaps:
    """The gaps of one text, walked alternative by alternative. Where answers and feedback end
    is found once; a walk that reaches where an earlier walk found no `}` stops there."""

    def __init__(self, html: str) -> None:
        self.html = html
        self.answer_ends = [match.start() for match in _ANSWER_END.finditer(html)]
        self.feedback_ends = [match.start() for match in _FEEDBACK_END.finditer(html)]
        self.unclosed: set[int] = set()  # where alternatives start that lead to no `}`

    def end(self, at: int) -> int | None:
        """Where the gap whose first alternative starts at `at` ends; None if it does not
        close."""
        walked: list[int] = []
        while at not in self.unclosed:
            walked.append(at)
            step = self._step(at)
            if step is None:
                break
            if step.closes:
                return step.after
            at = step.after
        self.unclosed.update(walked)
        return None

    def alternatives(self, at: int) -> list[_Alternative]:
        """The alternatives of a gap that closes, its first starting at `at`."""
        found: list[_Alternative] = []
        while True:
            step = self._step(at)
            assert step is not None, "a gap end() found closed"
            answer = self.html[step.answer[0] : step.answer[1]]
            feedback = self.html[step.feedback[0] : step.feedback[1]]
            found.append(_Alternative(step.grade, _decoded(answer), _decoded(feedback)))
            if step.closes:
                return found
            at = step.after

    def _step(self, at: int) -> _Step | None:
        """The alternative starting at `at`; None if the text ends first."""
        html = self.html
        grade_match = _GRADE.match(html, at)
        grade = 0.0
        if grade_match:
            grade = 1.0 if grade_match[0] == "=" else float(grade_match[1].replace(",", ".")) / 100
            at = grade_match.end()
        end = _next(self.answer_ends, at + 1)  # an answer has at least one character
        if end is None:
            return None
        answer, feedback = (at, end), (end, end)
        if html[end] == "#":
            stop = _next(self.feedback_ends, end + 1)
            if stop is None:
                return None
            feedback, end = (end + 1, stop), stop
        return _Step(grade, answer, feedback, html[end] == "}", end + 1)


@dataclass(frozen=True, slots=True)
class _Step:
    """One alternative of a gap as places in the text: its answer's and its feedback's
    (start, end), whether the gap closes after it, and where what follows it starts."""

    grade: float
    answer: tuple[int, int]
    feedback: tuple[int, int]
    closes: bool
    after: int


def _next(ends: list[int], at: int) -> int | None:
    """The first of the sorted places `ends` at or after `at`."""
    index = bisect_left(ends, at)
    return ends[index] if index < len(ends) else None


def _decoded(text: str) -> str:
    """An answer or feedback as Moodle stores it."""
    return unescape(text).replace("\\}", "}").replace("\\#", "#")


def _add_gap(found: Cloze, number: str, kind: str, alternatives: list[_Alternative]) -> None:
    if kind in _CHOICES:
        single, shuffled, dropdown = _CHOICES[kind]
        found.shuffled.append(shuffled)
        found.gaps[number] = _choice_gap(number, alternatives, single, dropdown, found.losses)
    elif _KINDS[kind][0] == "numerical":
        found.gaps[number] = _numerical_gap(number, alternatives, found.losses)
    else:
        case = _KINDS[kind][0] == "short_answer_c"
        found.gaps[number] = _short_answer_gap(number, alternatives, case, found.losses)


def _right(number: str, alternatives: list[_Alternative], losses: list[str]) -> list[int]:
    """The indexes of the fully right alternatives; the best ones when none is."""
    right = [n for n, alt in enumerate(alternatives) if alt.grade >= 1]
    partly = [alt for alt in alternatives if 0 < alt.grade < 1]
    if not right:
        best = max(alt.grade for alt in alternatives)
        right = [n for n, alt in enumerate(alternatives) if alt.grade == best]
        losses.append(f"gap {number} has no fully right answer; the best ({_percent(best)}) is")
    elif partly:
        shown = ", ".join(f"{alt.answer!r} ({_percent(alt.grade)})" for alt in partly)
        losses.append(f"gap {number}'s partly right answers score nothing: {shown}")
    return right


def _choice_gap(
    number: str, alternatives: list[_Alternative], single: bool, dropdown: bool, losses: list[str]
) -> dict[str, Any]:
    if len(alternatives) > len(_LETTERS):
        losses.append(f"gap {number} has {len(alternatives)} choices; only the first 26 are kept")
        alternatives = alternatives[: len(_LETTERS)]
    right = _right(number, alternatives, losses)
    if not single and len(right) > 1:
        losses.append(f"gap {number} takes several choices; only the first right one is right")
    if not dropdown:
        losses.append(f"gap {number} shows its choices as buttons; quizbank shows a drop-down")
    options = [
        {
            "id": _LETTERS[n],
            "text": SourceText(alt.answer, inline=True),
            "feedback": SourceText(alt.feedback) if alt.feedback.strip() else None,
        }
        for n, alt in enumerate(alternatives)
    ]
    return {"type": "single_choice", "options": options, "answer": _LETTERS[right[0]]}


def _numerical_gap(
    number: str, alternatives: list[_Alternative], losses: list[str]
) -> dict[str, Any]:
    right = _right(number, alternatives, losses)
    first = alternatives[right[0]]
    parsed = _NUMERICAL.match(first.answer.strip())
    if parsed is None:
        losses.append(f"gap {number}'s answer {first.answer!r} is not a number; 0 is written")
        return {"type": "numerical", "answer": 0.0, "tolerance": 0.0}
    _lost_feedback(number, alternatives, losses)
    others = [alt.answer for n, alt in enumerate(alternatives) if n != right[0] and alt.grade >= 1]
    if others:
        losses.append(f"gap {number}'s further right answers ({', '.join(others)}) are dropped")
    tolerance = abs(float(parsed[2].replace(",", "."))) if parsed[2] else 0.0
    return {
        "type": "numerical",
        "answer": float(parsed[1].replace(",", ".")),
        "tolerance": tolerance,
    }


def _short_answer_gap(
    number: str, alternatives: list[_Alternative], case: bool, losses: list[str]
) -> dict[str, Any]:
    right = _right(number, alternatives, losses)
    _lost_feedback(number, alternatives, losses)
    answers = [alternatives[n].answer.strip() for n in right]
    return {"type": "short_answer", "answer": answers, "case_sensitive": case}


def _lost_feedback(number: str, alternatives: list[_Alternative], losses: list[str]) -> None:
    if any(alt.feedback.strip() for alt in alternatives):
        losses.append(f"gap {number}'s feedback (quizbank has feedback for drop-down choices only)")


def _percent(grade: float) -> str:
    return f"{_number(grade * 100)}%"


def _number(value: float) -> str:
    return f"{value:.5f}".rstrip("0").rstrip(".")
