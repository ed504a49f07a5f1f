"""The preview's error page quotes the YAML line of each problem with the problem's column
marked (issue 27, U6): the character at the column inside `<mark>`, the line inside `<bdi>`, so
that in an Urdu line, which bidi reorders, the mark stays on the right word where a caret line
below it could not."""

from __future__ import annotations

import html
import re

import pytest
from playwright.sync_api import Browser

from quizbank.diagnostics import Diagnostic, Position, Severity
from quizbank.serve.problem_pages import error_page

PATH = "content/ur/x.yaml"
LINE = 'prompt: "جب weights_only نہ دیا جائے: تو <b> کیا ہوتا ہے؟"'
COLUMN = LINE.index("weights_only") + 1  # 1-based, as the checks count


def page_for(line: str, column: int) -> str:
    diagnostic = Diagnostic(PATH, Position(2, column), Severity.ERROR, "prompt", "a problem")
    return error_page("x", [diagnostic], {PATH: f"id: x\n{line}\n"})


def test_the_column_is_marked_inside_an_isolated_line() -> None:
    page = page_for(LINE, COLUMN)
    quoted = re.search(r"<pre><code><bdi>(.*?)</bdi></code></pre>", page, re.S)
    assert quoted, page
    parts = re.fullmatch(r"(.*)<mark>(.*)</mark>(.*)", quoted[1], re.S)
    assert parts
    before, marked, after = parts.groups()
    assert (before, marked) == ("prompt: &quot;جب ", "w")
    assert after.startswith("eights_only") and "&lt;b&gt;" in after and "<b>" not in page
    assert "^" not in page


@pytest.mark.parametrize("column", [1, len(LINE), len(LINE) + 1, len(LINE) + 40])
def test_a_column_at_either_end_is_marked(column: int) -> None:
    page = page_for(LINE, column)
    marked = re.search(r"<mark>(.*?)</mark>", page, re.S)
    assert marked
    assert marked[1] == (html.escape(LINE[column - 1]) if column <= len(LINE) else " ")


def test_the_mark_sits_on_the_columns_word_in_chromium(browser: Browser) -> None:
    page = browser.new_page(viewport={"width": 900, "height": 600})
    try:
        page.set_content(page_for(LINE, COLUMN))
        # The mark's box, and the box of the "w" of weights_only found in the quoted text.
        mark = page.locator("pre mark").bounding_box()
        assert mark and page.locator("pre mark").inner_text() == "w"
        word: dict[str, float] = page.evaluate(
            """() => {
              const code = document.querySelector("pre code");
              const walker = document.createTreeWalker(code, NodeFilter.SHOW_TEXT);
              for (let node = walker.nextNode(); node; node = walker.nextNode()) {
                const at = node.data.indexOf("eights_only");
                if (at < 0) continue;
                const range = document.createRange();
                range.setStart(node, at);
                range.setEnd(node, at + 1);
                const box = range.getBoundingClientRect();
                return { x: box.left, y: box.top };
              }
              return null;
            }"""
        )
        # weights_only reads on: its "e" right after the marked "w", on the same line
        assert abs(word["y"] - mark["y"]) < mark["height"]
        assert mark["x"] < word["x"] <= mark["x"] + mark["width"] + 1
    finally:
        page.close()
