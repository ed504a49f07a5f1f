"""What the README tells an author about the HTML page (issue 26, item 19): that it is for
self-study and practice, that its answer key is readable in the page source, and that an exam
needs an export for a learning platform."""

from __future__ import annotations

import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def test_the_readme_says_what_the_html_page_is_for() -> None:
    text = README.read_text(encoding="utf-8")
    found = re.search(r"^\*\*The HTML page\*\*.*?(?=\n\n)", text, re.M | re.S)
    assert found, "no paragraph on the HTML page"
    paragraph = " ".join(found.group().split())
    for words in ("self-study", "practice", "page source", "exam", "Moodle", "QTI"):
        assert words in paragraph, words
