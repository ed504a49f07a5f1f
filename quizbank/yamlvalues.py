"""How many values a YAML text holds, roughly: a quiz file holding more is refused unread by
`validate` (PyYAML keeps some 450 bytes per node until the document is built), and is never
written by `import`.

A quiz of 10,000 questions (the most a quiz may have) holds some 400,000 values; a file of four
bytes per value (`[a, a, a, ...]`) would hold four million and take two gigabytes.
"""

from __future__ import annotations

MAX_VALUES = 600_000
COUNT_FROM = 1 << 20  # bytes: below a MiB, a text cannot hold that many


def values_at_most(text: str) -> int:
    """An upper bound, roughly, of the values a YAML text holds: each one ends at a comma, a
    colon or a line break (a mapping's key and value at one of each)."""
    return text.count(",") + text.count(":") + text.count("\n")
