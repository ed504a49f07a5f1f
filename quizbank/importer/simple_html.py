"""The fast path: the HTML of most texts (paragraphs of text and code, as quizbank's export and
Moodle's editor write them) made Markdown without a parser, as the converter would make it."""

from __future__ import annotations

import re
from html import unescape

from quizbank.importer.markdown_text import (
    CLEAN_CHARACTERS,
    code_span,
    collapsed,
    finished,
    one_line,
    with_maths,
)

# The HTML of most texts: paragraphs (or none) of text and `<code>`, the `<bdi>` and the
# `<div>` of a right-to-left quizbank export, the attributes Moodle's editor gives a paragraph.
# The converter (html_converter.py) makes the same of it, slower.
_RTL_DIV = re.compile(
    r'\s*<div lang="[A-Za-z]{2,3}(?:-[A-Za-z0-9]{1,8})*" dir="rtl">(.*)</div>\s*', re.S
)
_CONTENT = r'(?:[^<]++|<bdi lang="en">[^<]*+</bdi>|<code(?: dir="ltr" lang="en")?>[^<]*+</code>)*+'
_SIMPLE_CONTENT = re.compile(_CONTENT)
_PARAGRAPH = re.compile(
    r'\s*<p(?:\s+(?:dir|lang|class)="[^"<>]*"|\s+style="\s*text-align:\s*(?:left|start);?\s*")*'
    rf"\s*>({_CONTENT})</p>\s*"
)
_SIMPLE_PIECE = re.compile(r'<bdi lang="en">|</bdi>|<code(?: dir="ltr" lang="en")?>([^<]*)</code>')


def from_simple_html(html: str, inline: bool) -> str | None:
    """The Markdown of HTML of the common shape (see _PARAGRAPH), as the parser and the
    converter make it; None for any other HTML."""
    if "<" not in html:
        return _simple_paragraph(html, inline)
    wrapped = _RTL_DIV.fullmatch(html)
    if wrapped is not None:
        html = wrapped[1]
    if _SIMPLE_CONTENT.fullmatch(html):
        return _simple_paragraph(html, inline)
    paragraphs: list[str] = []
    pos = 0
    while found := _PARAGRAPH.match(html, pos):
        paragraphs.append(found[1])
        pos = found.end()
    if not paragraphs or pos < len(html) or (inline and len(paragraphs) > 1):
        return None
    converted = (_simple_paragraph(paragraph, inline) for paragraph in paragraphs)
    return "\n\n".join(text for text in converted if text)


def _simple_paragraph(html: str, inline: bool) -> str:
    """The Markdown of a paragraph's content of text, `<code>` and `<bdi>`."""
    pieces: list[tuple[str, bool]] = []  # (text, is code)
    text: list[str] = []
    last = 0
    for found in _SIMPLE_PIECE.finditer(html):
        text.append(html[last : found.start()])
        if found[1] is not None:
            pieces += [("".join(text), False), (found[1], True)]
            text = []
        last = found.end()
    pieces.append(("".join(text) + html[last:], False))
    pieces = [
        ((unescape(p) if "&" in p else p).translate(CLEAN_CHARACTERS), code) for p, code in pieces
    ]
    for index in range(len(pieces) - 3, -1, -1):  # `<code>a</code><code>b</code>` is one
        if pieces[index][1] and not pieces[index + 1][0] and pieces[index + 2][1]:
            pieces[index : index + 3] = [(pieces[index][0] + pieces[index + 2][0], True)]
    several = any("\n" in piece for piece, _ in pieces)
    alone = not inline and len(pieces) == 1
    out: list[str] = []
    for index, (piece, code) in enumerate(pieces):
        if code:
            out.append(code_span(one_line(piece)))
            continue
        piece = collapsed(piece, inline)
        first, final = index == 0, index == len(pieces) - 1
        if first:
            piece = piece.lstrip(" \t\r\n")
        if final:
            piece = piece.rstrip(" \t\r\n")
        if piece:
            out.append(
                with_maths(
                    piece,
                    "\n" if first else "`",
                    "\n" if final else "`",
                    pipes=not inline and several and "|" in piece,
                    block=not inline,
                    alone=alone,
                )
            )
    return finished("".join(out), inline)
