"""A literal `@@PLUGINFILE@@` written by an author is text in every format's HTML, never the
marker Moodle (and LMSs that import its files) turns into the URL of a question's file."""

from __future__ import annotations

import pytest

from quizbank.markup import to_html


@pytest.mark.parametrize("lang", ["en", "ur"])
@pytest.mark.parametrize(
    "text",
    [
        "See @@PLUGINFILE@@/a.png",  # a plain paragraph: the fast path
        "See `@@PLUGINFILE@@/a.png` and [x](https://example.org)",  # parsed by markdown-it
        "First\n\n- @@PLUGINFILE@@/a.png",  # blocks; inline, a list is text
    ],
)
@pytest.mark.parametrize("inline", [False, True])
def test_pluginfile_is_escaped_in_html(text: str, lang: str, inline: bool) -> None:
    html = to_html(text, lang, inline=inline)
    assert "@@" not in html
    assert "&#64;&#64;" in html and "PLUGINFILE" in html
