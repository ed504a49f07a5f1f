"""`to_plain`: Markdown as one line of plain text (Moodle question names, plug-ins), with every
block boundary a space, so that no two words are ever glued together."""

from __future__ import annotations

import pytest

from quizbank.markup import to_plain


@pytest.mark.parametrize(
    ("markdown", "plain"),
    [
        ("Line one\nLine two", "Line one Line two"),
        ("Line one  \nLine two", "Line one Line two"),  # a hard break
        ("First paragraph.\n\nSecond one.", "First paragraph. Second one."),
        (
            "run, in this order:\n\n1. git init\n2. git add",
            "run, in this order: 1. git init 2. git add",
        ),
        ("Pick:\n- `torch.save`\n- **pickle**", "Pick: torch.save pickle"),
        ("Before\n\n```python\nx = 1\ny = 2\n```\nafter", "Before x = 1 y = 2 after"),
        ("> quoted\n\nthen", "quoted then"),
        ("A *plain* line with `code`", "A plain line with code"),
    ],
)
def test_block_boundaries_become_spaces(markdown: str, plain: str) -> None:
    assert to_plain(markdown) == plain
