"""A cloze prompt's gaps while its Markdown is rendered: each `[[id]]` as one mark character.

Rendered as written, a gap would not reach the HTML whole: an Urdu text isolates Latin runs
(`[[<bdi>what</bdi>]]`), and a `[x]: …` reference elsewhere in the text would make `[[x]]` a
link. A private-use character of plane 15 (U+F0000 on, never in a cloze prompt: validate
refuses it there) is left alone by every Markdown rule and by the isolation, so each renderer
renders the marked prompt once and puts its own gap (a field, an embedded answer, `[[id]]`)
where each mark is.
"""

from __future__ import annotations

import re
from itertools import count

from quizbank.model import GAP

GAP_MARK = 0xF0000
MAX_MARKS = 256
# Every character that may stand for a gap.
GAP_MARKS = re.compile(f"[{chr(GAP_MARK)}-{chr(GAP_MARK + MAX_MARKS - 1)}]")


def mark_gaps(prompt: str) -> str:
    """The prompt with its n-th gap (in the prompt's order, from 0) as `gap_mark(n)`."""
    numbers = count()
    return GAP.sub(lambda _: gap_mark(next(numbers)), prompt)


def gap_mark(index: int) -> str:
    """The character that stands for the prompt's gap number `index` (from 0)."""
    return chr(GAP_MARK + index)


def gap_index(mark: str) -> int:
    """Which gap a mark stands for (from 0)."""
    return ord(mark) - GAP_MARK
