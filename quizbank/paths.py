"""Field paths as authors read them: `questions[2].options[0].text`."""

from __future__ import annotations

from collections.abc import Sequence


def format_loc(loc: Sequence[str | int]) -> str:
    """Join a location tuple into a dotted path with list indexes in brackets."""
    text = ""
    for part in loc:
        if isinstance(part, int):
            text += f"[{part}]"
        else:
            text += f".{part}" if text else str(part)
    return text
