"""How every export grades a question, so that the HTML page scores what Moodle scores.

Grades are fractions of a question's points. A multiple_choice question grades each option as
Moodle's multichoice does with the grades quizbank exports (Moodle accepts only the grades of
its list, `POSITIVE_GRADES`): each right option a share of 100%, each wrong one minus a share,
the sum kept between 0 and 1. Matching grades each pair, cloze each gap, ordering each item in
its right place (Moodle's ordering "absolute position"), equally; the rest are right or wrong.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from quizbank.model import MultipleChoice, SingleChoice

# question_bank::fraction_options_full() in percent: the import refuses any other grade.
POSITIVE_GRADES = (100.0, 90.0, 83.33333, 80.0, 75.0, 70.0, 66.66667, 60.0, 50.0, 40.0, 33.33333,
                   30.0, 25.0, 20.0, 16.66667, 14.28571, 12.5, 11.11111, 10.0, 5.0)  # fmt: skip
# match_grade_options() accepts a fraction within 0.00001 of a listed one: 0.001 in percent.
TOLERANCE = 0.001


@lru_cache(maxsize=32)
def right_grades(count: int) -> tuple[float, ...]:
    """Grades from Moodle's list for `count` right options that add up to 100%.

    Equal shares where Moodle lists one; otherwise the two closest grades that add up
    (11 right options: nine at 10% and two at 5%). More than 20 right options cannot be graded:
    Moodle's smallest positive grade is 5%.
    """
    best: tuple[float, float, int] | None = None
    for high in POSITIVE_GRADES:
        for low in (grade for grade in POSITIVE_GRADES if grade <= high):
            for n_high in range(1, count + 1):
                fits = abs(n_high * high + (count - n_high) * low - 100) <= TOLERANCE
                if fits and (best is None or high - low < best[0] - best[1]):
                    best = (high, low, n_high)
    if best is None:
        raise ValueError(
            f"Moodle cannot split 100% among {count} right options (its smallest positive "
            "grade is 5%): mark at most 20 options as right"
        )
    high, low, n_high = best
    return (high,) * n_high + (low,) * (count - n_high)


def wrong_grade(count: int) -> float:
    """The grade of each of `count` wrong options: choosing every option scores nothing."""
    return -min(grade for grade in POSITIVE_GRADES if grade >= 100 / count - TOLERANCE)


def option_grades(question: SingleChoice | MultipleChoice) -> dict[str, float]:
    """Each option's grade as a fraction of the question's points (-1 to 1), in option order."""
    ids = [option.id for option in question.options]
    if isinstance(question, SingleChoice):
        return {key: 1.0 if key == question.answer else 0.0 for key in ids}
    return multiple_choice_grades(ids, question.answer)


def multiple_choice_grades(ids: Sequence[str], right: Sequence[str]) -> dict[str, float]:
    """The grade of each option of a multiple_choice question whose `right` options are right."""
    wrong = [key for key in ids if key not in right]
    grades = dict(zip(right, right_grades(len(right)), strict=True))
    grades |= dict.fromkeys(wrong, wrong_grade(len(wrong)) if wrong else 0.0)
    return {key: round(grades[key] / 100, 7) for key in ids}
