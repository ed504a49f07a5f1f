"""The Markdown export links only what the HTML export links (http, https, mailto): every other
link, image, reference or autolink is left as plain text, so no reader's renderer follows it."""

from __future__ import annotations

import pytest
from markdown_it import MarkdownIt
from markdown_it.token import Token
from quizbank_renderers.markdown_guards import safe_markdown

from quizbank.markup import safe_link

# A CommonMark parser that keeps every link, as a permissive renderer would.
_READER = MarkdownIt("commonmark", {"html": True})
_READER.validateLink = lambda url: True  # type: ignore[method-assign]


def _links(markdown: str) -> list[str]:
    def walk(tokens: list[Token]) -> list[Token]:
        return [t for token in tokens for t in (token, *walk(token.children or []))]

    return [
        str(t.attrGet("href") or t.attrGet("src"))
        for t in walk(_READER.parse(markdown))
        if t.type in ("link_open", "image")
    ]


@pytest.mark.parametrize(
    "text",
    [
        "[click](javascript:alert(1))",
        "[click](JaVaScRiPt:alert(1))",
        "[click]( javascript:alert(1))",
        "[click](<javascript:alert(1)>)",
        "[click](&#106;avascript:alert(1))",
        "[click](vbscript:msgbox(1))",
        "[click](data:text/html;base64,PHNjcmlwdD4=)",
        "![x](data:image/svg+xml;base64,PHN2Zz4=)",
        "See [the docs][d].\n\n[d]: javascript:alert(1)",
        "Go <javascript:alert(1)>",
        "[ok](https://example.org) and [bad](javascript:x) and `[code](javascript:y)`",
        "[relative](../../etc/passwd)",
    ],
)
def test_an_unsafe_link_is_plain_text(text: str) -> None:
    exported = safe_markdown(text)
    assert all(safe_link(href) for href in _links(exported)), exported
    # nothing lost: only escapes were added, and a reader sees the text as written
    assert exported.replace("\\[", "[").replace("&lt;", "<") == text


def test_safe_links_stay_links() -> None:
    text = "Read [the guide](https://example.org/guide) or <mailto:team@example.org>."
    assert _links(safe_markdown(text)) == ["https://example.org/guide", "mailto:team@example.org"]


def test_code_keeps_its_brackets() -> None:
    exported = safe_markdown("[bad](javascript:x) and `a[0](javascript:y)`")
    assert "`a[0](javascript:y)`" in exported and _links(exported) == []
