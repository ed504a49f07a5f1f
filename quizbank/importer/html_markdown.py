"""A text as a Moodle or GIFT file holds it, made the authoring format's Markdown.

`to_markdown` reads Moodle's four text formats (HTML, Moodle's auto-format, plain text and
Markdown) and writes CommonMark with tables and strikethrough, formulas between `$…$` and
`$$…$$` (pandoc's rule, as quizbank.markup reads them) and images `![alt](../images/x.png)`.
Rendered by quizbank.markup.to_html, the Markdown shows what the HTML showed: text is escaped
where Markdown would read it as markup, and nowhere else (a cloze's `[[1]]` stays as written).

What quizbank's own exports add is taken away again, so that an exported quiz imports back as
the author wrote it: the right-to-left `<div dir="rtl">`, the `<bdi>` around Latin runs, the
`<code dir="ltr">`, the word joiners (U+2060) after `@@` and `{`, the no-break spaces inside
terms, `&#64;&#64;` and `&#123;`.

What Markdown cannot say (a colour, a merged table cell, a video, an underline, a script) is
reported in `Markdown.losses`, one short phrase each, never dropped silently. Hostile input
cannot exhaust time, memory or the stack: a text of more than MAX_TAGS tags is read as plain
text, and markup nested deeper than html_cleaning.MAX_DEPTH levels is flattened to its text;
both are reported as losses. Most texts (paragraphs of text and code, as quizbank's export and
Moodle's editor write them) are converted without a parser, to the Markdown the converter would
give.

Its jobs are modules of their own: markdown_text.py (escaping, formulas, code spans),
findings.py (the losses and images found), plain_text.py (plain text, Moodle's auto-format),
moodle_markdown.py (Moodle's Markdown), simple_html.py (the fast path), html_cleaning.py
(Moodle's editor HTML made what the converter takes) and html_converter.py (markdownify's
converter made quizbank's).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from html import unescape
from typing import Final

from bs4 import BeautifulSoup

from quizbank.importer.findings import Findings
from quizbank.importer.html_cleaning import prepare
from quizbank.importer.html_converter import convert
from quizbank.importer.markdown_text import finished
from quizbank.importer.moodle_markdown import from_markdown
from quizbank.importer.plain_text import from_plain, moodle_html
from quizbank.importer.simple_html import from_simple_html
from quizbank.importer.source import TextFormat
from quizbank.markup import to_html

# A text with more tags than this is read as plain text: BeautifulSoup's tree of a million tags
# takes gigabytes, and its edits (unwrapping a tag finds it among its siblings) are quadratic.
# Five thousand is a table of a thousand cells.
MAX_TAGS: Final = 5_000


@dataclass(frozen=True, slots=True)
class Markdown:
    """A text made Markdown: the Markdown, what it could not say, and the embedded files it
    shows (the names after `@@PLUGINFILE@@/`, URL-decoded), in order, each once."""

    text: str
    losses: tuple[str, ...]
    images: tuple[str, ...]


def _no_path(name: str) -> str | None:
    return None


def to_markdown(
    value: str,
    format: TextFormat = "html",
    *,
    inline: bool = False,
    plain: bool = False,
    code: bool = False,
    image_path: Callable[[str], str | None] = _no_path,
) -> Markdown:
    """A text in one of Moodle's formats as the authoring format's Markdown.

    `plain`: the value is plain text whatever its format; `inline`: the result is one line
    (blocks joined with a space, and a loss for each kind of block so flattened); `code`: the
    code spans of a plain line are code (every other character is shown as it is).
    `image_path(name)` is the path to write for the embedded file `name`, or None when the
    question does not embed it (the image is then its alt text, and a loss).
    """
    findings = Findings(image_path)
    if plain or format == "plain":
        text = from_plain(value, inline, findings, code)
    elif format == "markdown":
        text = from_markdown(value, inline, findings)
    else:
        html = moodle_html(value) if format == "moodle" else value
        text = _from_html(html, inline, findings)
    return Markdown(_bare_blanks(text, inline), tuple(findings.losses), tuple(findings.images))


# A blank, three or more escaped underscores (after an even number of backslashes: escapes of
# backslashes), and the backslashes before it.
_ESCAPED_BLANK = re.compile(r"(?<!\\)((?:\\\\)*)((?:\\_){3,})")


def _bare_blanks(text: str, inline: bool) -> str:
    """The text with its blanks (`___`) as written, without the escapes that kept their
    underscores from making emphasis, when none of them would: the text renders the same.

    Whether an underscore can open or close emphasis depends on the rest of its paragraph,
    which the escapes were decided without; rendering both texts decides it at once."""
    if "\\_\\_\\_" not in text:
        return text
    bare = _ESCAPED_BLANK.sub(_unescaped_blank, text)
    return bare if to_html(bare, inline=inline) == to_html(text, inline=inline) else text


def _unescaped_blank(found: re.Match[str]) -> str:
    return found[1] + found[2].replace("\\", "")


_TAG_START = re.compile(r"<[A-Za-z]")
_TAG = re.compile(r"<[A-Za-z!/?][^<>]*>?")


def _from_html(html: str, inline: bool, findings: Findings) -> str:
    """HTML as Markdown: the most common shapes directly, any other through markdownify."""
    simple = from_simple_html(html, inline)
    if simple is not None:
        return simple
    return _converted(html, inline, findings)


def _converted(html: str, inline: bool, findings: Findings) -> str:
    """HTML parsed, prepared and converted (or, with too many tags, taken as plain text)."""
    if len(_TAG_START.findall(html)) > MAX_TAGS:
        findings.lost(f"a text of more than {MAX_TAGS:,} tags (kept as plain text)")
        return from_plain(unescape(_TAG.sub(" ", html)), inline, findings)
    soup = BeautifulSoup(html, "html.parser")
    prepare(soup, findings)
    return finished(convert(soup, inline, findings), inline)
