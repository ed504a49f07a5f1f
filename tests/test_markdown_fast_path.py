"""The Markdown export's shortcuts say of a text only what markdown-it, parsing it, says too.

Each check that spares work (`markdown_guards`: a text the guards leave as written, a text of
one paragraph line, a text that can hold no code block, a text whose `<` are all in code spans)
is compared with the guards or the parse on many random texts that nearly make fences, code,
lists, tables, links and HTML; the renderer's results with every shortcut taken away
(`take_shortcuts_away`) are compared with its results in tests/test_markdown_export.py and
tests/test_markdown_types.py.
"""

from __future__ import annotations

import random
import re

import pytest
from quizbank_renderers import markdown_guards as guards
from quizbank_renderers import markdown_lists, markdown_rtl

# Pieces of lines that make (or nearly make) code spans and blocks, links, tables and HTML.
PIECES = [
    *("words", "Some words.", "چیک پوائنٹ", "16", "2.4", "state_dict()", "a,b", "#", "# "),
    *(" ", "  ", "    ", "\t", "\xa0", "\n", "\n\n", "\r\n", "\r", "\n    ", "\n- ", "\n> "),
    *("- ", "* ", "+ ", "1. ", "2) ", "> ", "---", "***", "===", "|", "| a | b |\n|---|---|"),
    *("`", "``", "```", "~~~", "`x`", "`<b>`", "`a < b`", "` <i> `", "`|<b>|`", "`a", "b`"),
    *("<", "<b>", "</b>", "<!-- c -->", "<https://example.org>", "&lt;", "&", "\\", "\\`"),
    *("[", "]", "[a](https://example.org)", "[a](x)", "[r]: x", "![i](x.png)", "*", "**", "_"),
    *("[a `b`](https://e.org)", "[a](https://e.org/`)", '[a](https://e.org "`<b>`")', "!"),
]


def _random_texts(count: int, seed: int) -> list[str]:
    """Texts of random pieces, and texts of words and code spans with `<` in many shapes."""
    rng = random.Random(seed)
    texts = ["".join(rng.choices(PIECES, k=rng.randint(1, 9))) for _ in range(count)]
    code = ["words", "`<b>`", "`a < b`", "- ", "> ", "1. ", "\n", "\n\n", "# ", "*x*", "`y`"]
    code += ["[a](https://e.org)", "[`a`](https://e.org)", "[a](https://e.org/`)", "`", "["]
    texts += [" ".join(rng.choices(code, k=rng.randint(1, 8))) for _ in range(count)]
    return texts


def _parsed(text: str) -> list[tuple[str, list[int] | None]]:
    return [(t.type, t.map) for t in guards.block_tokens(text)]


def test_texts_left_as_written_are_what_the_guards_make_them() -> None:
    texts = _random_texts(3000, seed=30)
    taken = [text for text in texts if guards._left_as_written(text)]
    assert len(taken) > 1000
    assert len(taken) < len(texts) - 1000
    for text in taken:
        assert guards._guarded(text) == text, text


def test_one_line_paragraphs_are_what_markdown_reads() -> None:
    texts = _random_texts(3000, seed=31)
    taken = [text for text in texts if guards.one_line_paragraph(text)]
    assert len(taken) > 300
    paragraph = [("paragraph_open", [0, 1]), ("inline", [0, 1]), ("paragraph_close", None)]
    for text in taken:
        assert _parsed(text) == paragraph, text


def test_texts_that_cannot_hold_a_code_block_hold_none() -> None:
    texts = _random_texts(3000, seed=32)
    taken = [text for text in texts if not guards.MAY_HOLD_CODE_BLOCK.search(text)]
    assert len(taken) > 1000
    for text in taken:
        assert guards._code_lines(text) == set(), text
        kinds = {kind for kind, _ in _parsed(text)}
        assert not kinds & {"fence", "code_block"}, text


def test_texts_that_need_no_parse_hold_no_html_and_no_unsafe_link() -> None:
    texts = _random_texts(3000, seed=33)
    taken = [text for text in texts if guards._needs_no_parse(text)]
    with_lt = [text for text in taken if "<" in text]
    assert len(taken) > 1000
    assert len(with_lt) > 300  # many texts with `<` in code spans are spared the parse
    assert sum("[" in text for text in with_lt) > 30  # links beside them too
    for text in taken:
        assert guards._live(text) == (False, False), text


def test_lt_outside_a_line_s_code_spans_is_parsed() -> None:
    for text in [
        "`a` <b> `c`",  # between two code spans
        "`a\nb` <c>`",  # a code span across lines
        "- `a\r- <b>`",  # or across list items, where it is none
        "| `a | <b>` |\n|---|---|",  # a table cell splits the code span
        "[x](`<b>`)",  # a link's destination takes the backticks
        "[x](https://e.org/`) <b>`",
        '[x](https://e.org "`") <b>`',  # and its title
        "[`x](https://e.org) <b>`",
        "\\`<b>`",  # an escaped backtick opens nothing
        "``<b>`",  # a run of two backticks
        "    `<b>`",  # indented code
    ]:
        assert not guards._needs_no_parse(text), text


def take_shortcuts_away(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every text is parsed for its fences, code, HTML, links, lead and lists, and the memoized
    results are forgotten, so that they are computed again."""
    monkeypatch.setattr(guards, "_GUARDED", re.compile(""))
    monkeypatch.setattr(guards, "MAY_HOLD_CODE_BLOCK", re.compile(""))
    monkeypatch.setattr(guards, "_left_as_written", lambda text: False)
    monkeypatch.setattr(guards, "_needs_no_parse", lambda text: False)
    monkeypatch.setattr(guards, "one_line_paragraph", lambda text: False)
    monkeypatch.setattr(guards, "is_plain_paragraph", lambda text: False)
    monkeypatch.setattr(markdown_lists, "_may_list_at_edge", lambda text, last: True)
    monkeypatch.setattr(markdown_lists, "_may_ordered_at_edge", lambda text, last: True)
    monkeypatch.setattr(markdown_rtl, "MAY_HOLD_CODE_BLOCK", re.compile(""))
    for function in (guards._guarded, guards.block_tokens, markdown_rtl._isolate):
        function.cache_clear()
