"""Issue 26, item 13: a link that every export shows as text (`javascript:`, `ftp:`, a relative
link) is a warning at its column, as raw HTML is; a safe link is none."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import QUIZ, Run, edit

EN = f"content/en/{QUIZ}.yaml"
START = "    prompt: Why are large"


@pytest.mark.parametrize(
    ("written", "destination"),
    [
        ("[docs](javascript:alert(1))", "javascript:alert(1)"),
        ("[files](ftp://example.org/a)", "ftp://example.org/a"),
        ("[guide](../guide.md)", "../guide.md"),
        ("<ftp://example.org/b>", "ftp://example.org/b"),
    ],
)
def test_a_link_shown_as_text_warns_at_its_column(
    bank: Path, cli: Callable[..., Run], written: str, destination: str
) -> None:
    line = edit(bank / "en" / f"{QUIZ}.yaml", START, f"    prompt: See {written} Why are large")
    column = len("    prompt: See ") + written.index(destination) + 1
    warnings = [w for w in cli("validate").lines if ": warning: " in w and w.startswith(EN)]
    assert warnings == [
        f"{EN}:{line}:{column}: warning: question 1 (why-shard), prompt: the link to "
        f"{destination} is shown as text: a link must go to an http://, https:// or mailto: "
        "address (write the full address, https://…)"
    ]


def test_a_safe_link_and_a_link_in_code_do_not_warn(bank: Path, cli: Callable[..., Run]) -> None:
    prompt = "    prompt: See [docs](https://pytorch.org) and `[x](javascript:y)` Why are large"
    edit(bank / "en" / f"{QUIZ}.yaml", START, prompt)
    assert not [w for w in cli("validate").lines if ": warning: " in w and w.startswith(EN)]
