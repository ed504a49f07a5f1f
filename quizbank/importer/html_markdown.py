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
text, and markup nested deeper than MAX_DEPTH levels is flattened to its text; both are
reported as losses. Most texts (paragraphs of text and code, as quizbank's export and Moodle's
editor write them) are converted without a parser, to the Markdown the converter would give.

The library: markdownify 1.2 (on BeautifulSoup with Python's html.parser), chosen over html2text
2025.4 and html-to-markdown 3.21 after converting with each quizbank's Moodle export of the
bundled content and fixtures and cases of tables, nested lists, code blocks and escaping, and
rendering the results with quizbank.markup. All three gave the bundled texts back, but html2text
left `*`, `_`, `#` and `>` unescaped, indented code blocks so that their blank lines ended them,
and broke headerless tables and loose lists. html-to-markdown (a compiled Rust extension) was
the most correct and the fastest, but its visitor hook is told only a node's parent tag, not
whether a text is in code or in a table cell, and it silently dropped the text of markup nested
past its depth limit. markdownify escaped too much (`\\[\\[1\\]\\]`) and broke a fence holding
backticks and a table cell holding `` `x|y` ``, but it is a walk that calls one
`convert_<tag>` method per element and `process_text` per text with the element at hand: here
each is overridden (escaping, formulas, images, links, code, tables, losses) while its walk
keeps the whitespace between blocks and inline elements; it is maintained and brings in only
beautifulsoup4 and six.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from html import unescape
from pathlib import PurePosixPath
from typing import Any, Final
from urllib.parse import unquote

from bs4 import BeautifulSoup
from bs4.element import NavigableString, PageElement, Tag
from markdownify import MarkdownConverter

from quizbank.importer.source import TextFormat
from quizbank.markup import safe_link, to_html

# A text with more tags than this is read as plain text: BeautifulSoup's tree of a million tags
# takes gigabytes, and its edits (unwrapping a tag finds it among its siblings) are quadratic.
# Five thousand is a table of a thousand cells.
MAX_TAGS: Final = 5_000
# Markup nested deeper than this is flattened to its text: markdownify converts a tree
# recursively, some three Python frames a level.
MAX_DEPTH: Final = 64
PLUGINFILE: Final = "@@PLUGINFILE@@/"


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
    state = _State(image_path)
    if plain or format == "plain":
        text = _from_plain(value, inline, state, code)
    elif format == "markdown":
        text = _from_markdown(value, inline, state)
    else:
        html = _moodle_html(value) if format == "moodle" else value
        text = _from_html(html, inline, state)
    return Markdown(_bare_blanks(text, inline), tuple(state.losses), tuple(state.images))


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


class _State:
    """What one conversion found: its losses and images, each once, in order."""

    __slots__ = ("_images", "_losses", "image_path")

    def __init__(self, image_path: Callable[[str], str | None]) -> None:
        self.image_path = image_path
        self._losses: dict[str, None] = {}
        self._images: dict[str, None] = {}

    @property
    def losses(self) -> list[str]:
        return list(self._losses)

    @property
    def images(self) -> list[str]:
        return list(self._images)

    def lost(self, phrase: str) -> None:
        self._losses[phrase] = None

    def shown(self, name: str) -> None:
        self._images[name] = None


# ------------------------------------------------------------------------------ characters

# The word joiner quizbank's Moodle export puts after `@@` and `{` goes; a no-break space (one
# inside an Urdu term, or an editor's `&nbsp;`) is a space.
_CLEAN = str.maketrans({"\u2060": None, "\xa0": " ", "\x02": None})
# Where a block made part of a line meets what is beside it: one space, however many meet.
_SOFT = "\x02"
_SOFTS = re.compile(r"[ \x02]*\x02[ \x02]*")
_ASCII_PUNCTUATION = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
# What may need an escape: what a line starts with that Markdown reads as a block (a heading, a
# quote, a list item, a rule or a setext underline, a link reference definition: groups 1 to
# 6, each the character to escape), or a character that may be markup wherever it is (group 7).
_ESCAPABLE = re.compile(
    r"^[ \t]{0,3}(?:(#)(?=#{0,5}(?:[ \t]|$))|(>)|([-+*])(?=[ \t]|$)|[0-9]{1,9}([.)])(?=[ \t]|$)"
    r"|([-_*=])(?=(?:[ \t]*\5)*[ \t]*$)|(\[)(?=[^\]\n]*\]:))"
    r"|([\\`*_(<&$~|\[\]])",
    re.MULTILINE,
)
_SPECIAL_GROUP: Final = 7
_ESCAPED: Final = {char: "\\" + char for char in _ASCII_PUNCTUATION}
# A `<` that opens an autolink (`<https://…>`, `<a@b.c>`); an `&` that starts a reference.
_AUTOLINK = re.compile(r"<(?:[A-Za-z][A-Za-z0-9+.\-]{1,31}:|[^\s<>@]+@)")
_REFERENCE = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")
_NEWLINES = re.compile(r"[\t \r\n]*[\r\n][\t \r\n]*")
_SPACES = re.compile(r"[\t ]{2,}")
_BACKTICKS = re.compile(r"`+")


def _wordy(char: str) -> bool:
    return char.isalnum()


def escape(
    text: str, before: str = "\n", after: str = "\n", *, pipes: bool = False, brackets: bool = False
) -> str:
    """Text escaped so that Markdown shows it as it is, between the characters `before` and
    `after` (a newline: the start or end of a line). Only what could be markup is escaped: an
    `*` or `_` that could open or close emphasis, a `(` after `]` (a link), a backtick, a `$`, a
    `\\` before punctuation, a `<` that starts an autolink, an `&` that starts a reference, a
    `~` of a run, what a line starts with that makes a block; `|` with `pipes` (a text of
    several lines, where a line could be a table's), `[` and `]` with `brackets` (a link's
    text, an image's alt text)."""
    size = len(text)

    def needed(at: int) -> bool:
        """Whether the character at `at` needs an escape wherever it is."""
        char = text[at]
        prev = text[at - 1] if at else before
        nxt = text[at + 1] if at + 1 < size else after
        if char == "\\":
            return nxt in _ASCII_PUNCTUATION or nxt == "\n" or at + 1 == size
        if char in "`$":
            return True
        if char == "*":
            return not (prev.isspace() and nxt.isspace())
        if char == "_":
            return not ((_wordy(prev) and _wordy(nxt)) or (prev.isspace() and nxt.isspace()))
        if char == "~":
            return prev == "~" or nxt == "~"
        if char == "(":
            return prev == "]"
        if char == "<":
            return _AUTOLINK.match(text, at) is not None
        if char == "&":
            return _REFERENCE.match(text, at) is not None
        if char == "|":
            return pipes
        if char in "[]":
            return brackets
        return False

    def escaped(found: re.Match[str]) -> str:
        group = found.lastindex or _SPECIAL_GROUP
        at = found.start(group)
        char = text[at]
        if group != _SPECIAL_GROUP and (found.start() > 0 or before == "\n"):
            return text[found.start() : at] + _ESCAPED[char]
        if needed(at):
            return text[found.start() : at] + _ESCAPED[char]
        return found[0]

    return _ESCAPABLE.sub(escaped, text)


# ------------------------------------------------------------------------------------ maths

# Moodle's TeX delimiters (its MathJax filter's): each opener with its closer, and whether the
# formula is displayed.
_DELIMITERS: Final = (("\\(", "\\)", False), ("\\[", "\\]", True), ("$$", "$$", True))
# A formula's piece of text: (TeX, displayed) for a formula, (text, None) for text around.
Piece = tuple[str, bool | None]


def split_maths(text: str) -> list[Piece]:
    """Text cut into its formulas and the text around them, in linear time: an opener with no
    closer after it is text, and so is every later opener of its kind."""
    pieces: list[Piece] = []
    pos = 0
    nexts = [text.find(opener) for opener, _, _ in _DELIMITERS]
    while True:
        live = [(at, kind) for kind, at in enumerate(nexts) if at >= 0]
        if not live:
            break
        at, kind = min(live)
        opener, closer, display = _DELIMITERS[kind]
        end = text.find(closer, at + len(opener))
        if end < 0:
            nexts[kind] = -1
            continue
        if at > pos:
            pieces.append((text[pos:at], None))
        pieces.append((" ".join(text[at + len(opener) : end].split()), display))
        pos = end + len(closer)
        nexts = [n if n < 0 or n >= pos else text.find(o, pos) for n, (o, _, _) in
                 zip(nexts, _DELIMITERS, strict=True)]  # fmt: skip
    if pos < len(text):
        pieces.append((text[pos:], None))
    return pieces


def _digit_safe(text: str, at_end: bool) -> str:
    """Text beside a formula with the digit that touches its `$` as a character reference:
    pandoc's rule reads no `$` after a digit as an opener, nor one before a digit as a closer."""
    if at_end and text and text[-1].isdigit():
        return f"{text[:-1]}&#{ord(text[-1])};"
    if not at_end and text and text[0].isdigit():
        return f"&#{ord(text[0])};{text[1:]}"
    return text


def with_maths(
    text: str,
    before: str,
    after: str,
    *,
    pipes: bool = False,
    brackets: bool = False,
    block: bool = True,
    alone: bool = False,
) -> str:
    """Text with its formulas as `$…$` and `$$…$$`, the rest escaped (see `escape`); `block`
    when the text is in a block of Markdown (not in a table cell or a one-line text), `alone`
    when it is all its paragraph holds (a displayed formula alone is a block of its own)."""
    if "\\(" not in text and "\\[" not in text and "$$" not in text:
        return escape(text, before, after, pipes=pipes, brackets=brackets)
    pieces = [piece for piece in split_maths(text) if piece[0] or piece[1] is None]
    if alone and len(pieces) == 1 and pieces[0][1] is True:
        return f"$$\n{pieces[0][0]}\n$$"
    out: list[str] = []
    for index, (content, display) in enumerate(pieces):
        if display is not None:
            out.append(f"$${content}$$" if display else f"${content}$")
            continue
        prev = pieces[index - 1][1] is not None if index else False
        nxt = index + 1 < len(pieces) and pieces[index + 1][1] is not None
        left = "$" if prev else before
        right = "$" if nxt else after
        escaped = escape(content, left, right, pipes=pipes, brackets=brackets)
        if prev:
            escaped = _digit_safe(escaped, at_end=False)
        if nxt:
            escaped = _digit_safe(escaped, at_end=True)
        out.append(escaped)
    # A line that starts and ends with `$$` would be read as one displayed formula, text and
    # all: the first formula is a paragraph of its own (it is shown as a block anyway).
    if (
        block
        and before == "\n"
        and after == "\n"
        and len(pieces) > 1
        and pieces[0][1] is True
        and pieces[-1][1] is True
    ):
        out[0] += "\n\n"
        out[1] = out[1].lstrip(" ")
    return "".join(out)


# -------------------------------------------------------------------------------- plain text


def _from_plain(value: str, inline: bool, state: _State, code: bool = False) -> str:
    """Plain text, every character shown: lines are line breaks, blank lines paragraphs."""
    lines = [line.strip() for line in _lines(value.translate(_CLEAN))]
    if inline:
        words = [line for line in lines if line]
        if len(words) > 1:
            state.lost("a line break (made one line)")
        return _code_kept(" ".join(words)) if code else escape(" ".join(words))
    paragraphs: list[list[str]] = [[]]
    for line in lines:
        if line:
            paragraphs[-1].append(line)
        elif paragraphs[-1]:
            paragraphs.append([])
    return "\n\n".join(
        "\\\n".join(escape(line, pipes=len(lines) > 1) for line in paragraph)
        for paragraph in paragraphs
        if paragraph
    )


def _code_kept(line: str) -> str:
    """A line of plain text escaped, but for its code spans (text between two runs of as many
    backticks, as a reader of plain text writes code, and as quizbank's Moodle export writes a
    match's code), kept as code: each run closes at the next run of its length, if any."""
    if "`" not in line:
        return escape(line)
    runs = list(_BACKTICKS.finditer(line))
    following: list[int | None] = [None] * len(runs)  # the next run of the same length
    last: dict[int, int] = {}
    for index in range(len(runs) - 1, -1, -1):
        size = len(runs[index][0])
        following[index] = last.get(size)
        last[size] = index
    out: list[str] = []
    at = index = 0
    while index < len(runs):
        close = following[index]
        if close is None:
            index += 1
            continue
        start, end = runs[index].start(), runs[close].end()
        out += [_escaped_between(line, at, start), line[start:end]]
        at, index = end, close + 1
    return "".join(out) + _escaped_between(line, at, len(line))


def _escaped_between(line: str, start: int, end: int) -> str:
    before = line[start - 1] if start else "\n"
    after = line[end] if end < len(line) else "\n"
    return escape(line[start:end], before, after)


def _lines(text: str) -> list[str]:
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


# ---------------------------------------------------------------------------------- Markdown

_FENCE = re.compile(r" {0,3}(`{3,}|~{3,})")
_DOUBLED = re.compile(r"\\\\([()\[\]])")
_LONE_DOLLAR = re.compile(r"(?<![\\$])\$(?!\$)")
_MARKDOWN_IMAGE = re.compile(r"!\[([^\]\n]*)\]\(\s*@@PLUGINFILE@@/([^)\s]+)\s*\)")
_RAW_TAG = re.compile(r"</?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?/?>|<!--")


def _from_markdown(value: str, inline: bool, state: _State) -> str:
    """Moodle's Markdown as quizbank's: formulas `\\(…\\)` (or `\\\\(…\\\\)`, as Moodle's
    Markdown needs them), `\\[…\\]` and `$$…$$` as `$…$` and `$$…$$`, a lone `$` escaped (it is
    text in Moodle), images of the question's files at their path; code as it is."""
    text = "\n".join(_lines(value.translate(_CLEAN))).strip()
    out: list[str] = []
    last = 0
    raw = False
    for start, end in _markdown_code(text):
        prose = _markdown_prose(text[last:start], state)
        raw = raw or _RAW_TAG.search(prose) is not None
        out += (prose, text[start:end])
        last = end
    prose = _markdown_prose(text[last:], state)
    raw = raw or _RAW_TAG.search(prose) is not None
    out.append(prose)
    result = "".join(out)
    if raw:
        state.lost("raw HTML (shown as text)")
    if inline and "\n" in result:
        state.lost("a line break (made one line)")
        result = " ".join(line.strip() for line in result.split("\n") if line.strip())
    return result


def _markdown_code(text: str) -> list[tuple[int, int]]:
    """Where Markdown has code: fenced blocks, then code spans (a backtick run closed by the
    next run of its length), found in linear time."""
    ranges: list[tuple[int, int]] = []
    fence: str | None = None
    start = pos = 0
    prose: list[tuple[int, int]] = []
    for line in text.splitlines(keepends=True):
        found = _FENCE.match(line)
        if fence is None and found:
            fence, start = found[1], pos
        elif (
            fence is not None
            and found
            and found[1].startswith(fence)
            and not line[found.end() :].strip()
        ):
            ranges.append((start, pos + len(line)))
            fence = None
        elif fence is None:
            prose.append((pos, pos + len(line)))
        pos += len(line)
    if fence is not None:
        ranges.append((start, len(text)))
    for begin, end in _joined(prose):
        runs = [(m.start(), m.end()) for m in _BACKTICKS.finditer(text, begin, end)]
        closer: list[int] = [-1] * len(runs)
        seen: dict[int, int] = {}
        for index in range(len(runs) - 1, -1, -1):
            size = runs[index][1] - runs[index][0]
            closer[index] = seen.get(size, -1)
            seen[size] = index
        index = 0
        while index < len(runs):
            if closer[index] < 0:
                index += 1
                continue
            ranges.append((runs[index][0], runs[closer[index]][1]))
            index = closer[index] + 1
    return sorted(ranges)


def _joined(ranges: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Adjacent ranges made one."""
    out: list[tuple[int, int]] = []
    for start, end in ranges:
        if out and out[-1][1] == start:
            out[-1] = (out[-1][0], end)
        else:
            out.append((start, end))
    return out


def _markdown_prose(text: str, state: _State) -> str:
    if not text:
        return text
    text = _DOUBLED.sub(r"\\\1", text)
    pieces = []
    for content, display in split_maths(text):
        if display is None:
            content = _LONE_DOLLAR.sub(r"\\$", content)
            content = _MARKDOWN_IMAGE.sub(lambda found: _markdown_image(found, state), content)
            pieces.append(content)
        elif content:
            pieces.append(f"$${content}$$" if display else f"${content}$")
    return "".join(pieces)


def _markdown_image(found: re.Match[str], state: _State) -> str:
    """An image of the question's files in Moodle's Markdown, at its path."""
    name, alt = unquote(found[2]), found[1].strip()
    path = state.image_path(name)
    if path is None:
        state.lost(f"an image that is not in the file ({name})")
        return alt or escape(PurePosixPath(name).stem, "!", "\n")
    if not alt:
        alt = escape(PurePosixPath(name).stem or name, "[", "]", brackets=True)
        state.lost(f"an image without alt text ({name})")
    state.shown(name)
    return f"![{alt}]({_destination(path)})"


# ------------------------------------------------------------------------------ Moodle auto


def _moodle_html(text: str) -> str:
    """FORMAT_MOODLE as HTML, as Moodle's text_to_html() makes it: no whitespace between tags,
    a line break beside a tag a space; then blank lines are paragraphs, other newlines line
    breaks."""
    text = "\n".join(_lines(text))
    text = re.sub(r">\s+<", "><", text)
    text = re.sub(r"\n<", " <", text)
    text = re.sub(r">\n", "> ", text)
    paragraphs = re.split(r"\n[ \t]*\n\s*", text.strip())
    return "".join(f"<p>{p.replace(chr(10), '<br>')}</p>" for p in paragraphs if p.strip())


# -------------------------------------------------------------------------------------- HTML

_TAG_START = re.compile(r"<[A-Za-z]")
_TAG = re.compile(r"<[A-Za-z!/?][^<>]*>?")
# The HTML of most texts: paragraphs (or none) of text and `<code>`, the `<bdi>` and the
# `<div>` of a right-to-left quizbank export, the attributes Moodle's editor gives a paragraph.
# `_Converter` makes the same of it, slower.
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


def _from_html(html: str, inline: bool, state: _State) -> str:
    """HTML as Markdown: the most common shapes directly, any other through markdownify."""
    simple = _simple(html, inline)
    if simple is not None:
        return simple
    return _converted(html, inline, state)


def _converted(html: str, inline: bool, state: _State) -> str:
    """HTML parsed, prepared and converted (or, with too many tags, taken as plain text)."""
    if len(_TAG_START.findall(html)) > MAX_TAGS:
        state.lost(f"a text of more than {MAX_TAGS:,} tags (kept as plain text)")
        return _from_plain(unescape(_TAG.sub(" ", html)), inline, state)
    soup = BeautifulSoup(html, "html.parser")
    _prepare(soup, state)
    converter = _Converter(state)
    top = {"_inline", "_line"} if inline else set()
    text = converter.process_tag(soup, top)
    return _finished(text, inline)


def _simple(html: str, inline: bool) -> str | None:
    """The Markdown of HTML of the common shape (see _PARAGRAPH), as `_converted` makes it;
    None for any other HTML."""
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
    pieces = [((unescape(p) if "&" in p else p).translate(_CLEAN), code) for p, code in pieces]
    for index in range(len(pieces) - 3, -1, -1):  # `<code>a</code><code>b</code>` is one
        if pieces[index][1] and not pieces[index + 1][0] and pieces[index + 2][1]:
            pieces[index : index + 3] = [(pieces[index][0] + pieces[index + 2][0], True)]
    several = any("\n" in piece for piece, _ in pieces)
    alone = not inline and len(pieces) == 1
    out: list[str] = []
    for index, (piece, code) in enumerate(pieces):
        if code:
            out.append(_code_span(_one_line(piece)))
            continue
        piece = _SPACES.sub(" ", _NEWLINES.sub("\n", piece))
        if inline:
            piece = _SPACES.sub(" ", piece.replace("\n", " "))
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
    return _finished("".join(out), inline)


def _one_line(code: str) -> str:
    """Code's line endings as spaces, as CommonMark reads them in a code span."""
    return code.replace("\r\n", " ").replace("\n", " ").replace("\r", " ")


def _soft(text: str) -> str:
    """A block's text made part of a line."""
    return f"{_SOFT}{text}{_SOFT}" if text else ""


def _unsoft(text: str) -> str:
    return _SOFTS.sub(" ", text) if _SOFT in text else text


def _finished(text: str, inline: bool) -> str:
    text = _unsoft(text).strip()
    if inline and "\n" in text:
        text = " ".join(text.split("\n"))
    return text


# Elements dropped whole, with what an author is told (`{src}` their address).
_DROPPED: Final = {
    "script": "a script (dropped)",
    "style": "a style sheet (dropped)",
    "iframe": "an embedded page ({src})",
    "frame": "an embedded page ({src})",
    "video": "a video ({src})",
    "audio": "an audio clip ({src})",
    "object": "an embedded object ({src})",
    "embed": "an embedded object ({src})",
    "applet": "an embedded object ({src})",
    "svg": "an SVG drawing (dropped)",
    "canvas": "a canvas (dropped)",
    "form": "a form (dropped)",
    "input": "a form field (dropped)",
    "select": "a form field (dropped)",
    "textarea": "a form field (dropped)",
    "button": "a button (dropped)",
    "map": "an image map (dropped)",
}
# Dropped and nothing lost: what a page's head holds, and what is never shown.
_SILENT: Final = frozenset({"head", "title", "meta", "link", "base", "noscript", "template"})
# Elements whose text is kept as it is, and what is lost with them ("" nothing).
_UNWRAPPED: Final = {
    "html": "",
    "body": "",
    "span": "",
    "bdi": "",
    "font": "",
    "nobr": "",
    "label": "",
    "time": "",
    "data": "",
    "abbr": "",
    "acronym": "",
    "wbr": "",
    "u": "underlined text",
    "ins": "underlined text",
    "mark": "highlighted text",
    "small": "small text",
    "big": "big text",
    "bdo": "a reading direction (bdo)",
    "blink": "blinking text",
    "marquee": "scrolling text",
}
# Elements with the name of the one Markdown has for them (or a block for a block).
_RENAMED: Final = {
    "b": "strong",
    "i": "em",
    "cite": "em",
    "dfn": "em",
    "var": "em",
    "s": "del",
    "strike": "del",
    "kbd": "code",
    "samp": "code",
    "tt": "code",
    "section": "div",
    "article": "div",
    "header": "div",
    "footer": "div",
    "main": "div",
    "nav": "div",
    "aside": "div",
    "figure": "div",
    "figcaption": "div",
    "address": "div",
    "details": "div",
    "summary": "div",
    "center": "div",
    "dl": "div",
    "dt": "p",
    "dd": "p",
    "listing": "pre",
    "xmp": "pre",
    "plaintext": "pre",
}
_RENAME_LOSSES: Final = {
    "center": "centred text",
    "dl": "a definition list (made paragraphs)",
    "details": "a collapsible section (shown open)",
}
# Elements the converter has a method for.
_KNOWN: Final = frozenset(
    {
        "p", "div", "br", "hr", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "li",
        "blockquote", "pre", "code", "strong", "em", "del", "a", "img", "q", "table",
        "thead", "tbody", "tfoot", "tr", "td", "th", "caption", "colgroup", "col",
    }
)  # fmt: skip
# Inline elements that two of side by side are one (`**a****b**` is not two strong words), and
# one inside another is the outer one.
_MERGED: Final = frozenset({"strong", "em", "del", "code"})
_NONE: Final[frozenset[str]] = frozenset()
# What a style property is to an author; properties with a value that changes nothing are left
# out (`text-align: left` in every paragraph of Moodle's editor).
_STYLES: Final = {
    "color": "a colour",
    "background": "a background",
    "background-color": "a background colour",
    "font-size": "a font size",
    "font-family": "a font",
    "font": "a font",
    "font-weight": "a font weight",
    "font-style": "a font style",
    "text-decoration": "a text decoration",
    "text-align": "a text alignment",
    "border": "a border",
    "width": "a size",
    "height": "a size",
}
_NO_STYLE: Final = frozenset(
    {
        "text-align: left", "text-align: start", "direction: ltr", "direction: rtl",
        "font-weight: normal", "font-style: normal", "text-decoration: none",
    }
)  # fmt: skip


def _short(text: str, size: int = 60) -> str:
    text = " ".join(text.split())
    return text if len(text) <= size else text[: size - 1] + "…"


def _attribute(tag: Tag, name: str) -> str:
    value = tag.get(name)
    if isinstance(value, list):
        value = " ".join(value)
    return (value or "").translate(_CLEAN)


def _prepare(soup: BeautifulSoup, state: _State) -> None:
    """The parsed HTML as the converter takes it, its losses reported: comments gone; what
    Markdown cannot show dropped or unwrapped, its text joined to the text around; names made
    those of Markdown's elements; markup deeper than MAX_DEPTH flattened; side-by-side
    `**a****b**` made one."""
    depth: dict[int, int] = {id(soup): 0}
    unwrap: list[Tag] = []
    dropped: list[tuple[PageElement, PageElement | None]] = []  # and what takes their place
    merged: list[Tag] = []
    inside: dict[int, frozenset[str]] = {}  # the emphasis and code each element is inside
    too_deep = False
    for node in list(soup.descendants):
        parent = node.parent
        if parent is None or id(parent) not in depth:
            continue  # inside something dropped
        if not isinstance(node, Tag):
            if type(node) is not NavigableString:
                dropped.append((node, None))  # a comment, a doctype, CDATA, an instruction
            continue
        name = node.name.lower()
        if name in _SILENT:
            dropped.append((node, None))
        elif name in _DROPPED:
            state.lost(_DROPPED[name].format(src=_short(_source(node)) or "no address"))
            dropped.append((node, None))
        elif name == "math":
            dropped.append((node, _mathml(node, state)))
        elif depth[id(parent)] >= MAX_DEPTH:
            too_deep = True  # its text only, in one piece (unwrapping each would be quadratic)
            dropped.append((node, NavigableString(node.get_text())))
        else:
            depth[id(node)] = depth[id(parent)] + 1
            around = inside.get(id(parent), _NONE)
            if _kept(node, name, state) or node.name in around:
                unwrap.append(node)  # (`**` inside `**` would end it)
            elif node.name in _MERGED:
                merged.append(node)
                inside[id(node)] = around | {node.name}
            elif around:
                inside[id(node)] = around
    if too_deep:
        state.lost(f"markup nested more than {MAX_DEPTH} deep (flattened to its text)")
    for element, replacement in dropped:
        if replacement is None:
            element.extract()
        else:
            element.replace_with(replacement)
    for tag in reversed(unwrap):
        tag.unwrap()
    if unwrap or dropped:
        for tag in [soup, *(n for n in soup.descendants if isinstance(n, Tag))]:
            _merge_strings(tag)
    _merge_neighbours(merged)


def _kept(tag: Tag, name: str, state: _State) -> bool:
    """Report what an element's attributes and name say that Markdown cannot, and give it the
    name of Markdown's element; True when only its text is kept (it is to be unwrapped)."""
    _attribute_losses(tag, name, state)
    if name in _RENAMED:
        if name in _RENAME_LOSSES:
            state.lost(_RENAME_LOSSES[name])
        tag.name = _RENAMED[name]
        return False
    if name in _UNWRAPPED:
        if _UNWRAPPED[name]:
            state.lost(_UNWRAPPED[name])
        if name in ("abbr", "acronym") and (title := _attribute(tag, "title").strip()):
            state.lost(f"an abbreviation's title ({_short(title, 40)})")
        return True
    if name in ("sup", "sub"):
        kind = "superscript" if name == "sup" else "subscript"
        state.lost(f"a {kind} ({_short(tag.get_text(), 30)})")
        return True
    if name not in _KNOWN:
        state.lost(f"a <{_short(name, 30)}> element (kept its text)")
        return True
    tag.name = name
    return False


def _source(tag: Tag) -> str:
    """The address of an embedded page, video, sound or object."""
    for name in ("src", "data", "href"):
        if value := _attribute(tag, name):
            return value
    source = tag.find("source")
    return _attribute(source, "src") if isinstance(source, Tag) else ""


def _mathml(tag: Tag, state: _State) -> NavigableString:
    """A MathML formula as Moodle's TeX delimiters around its TeX annotation (made `$…$` with
    the text around it); without one, its text, and a loss."""
    annotation = tag.find("annotation", attrs={"encoding": re.compile("tex", re.I)})
    display = _attribute(tag, "display") == "block"
    if isinstance(annotation, Tag) and annotation.get_text().strip():
        tex = annotation.get_text().strip()
        return NavigableString(f"\\[{tex}\\]" if display else f"\\({tex}\\)")
    state.lost("a MathML formula without its TeX (kept its text)")
    return NavigableString(tag.get_text())


def _attribute_losses(tag: Tag, name: str, state: _State) -> None:
    """What an element's attributes say that Markdown cannot: its style, a `<font>`'s colour,
    face and size, an alignment, a background colour."""
    cell = name in ("td", "th")  # its alignment is its column's (see _Converter._table)
    if style := _attribute(tag, "style"):
        for declaration in style.split(";"):
            prop, _, value = declaration.partition(":")
            prop, value = prop.strip().lower(), " ".join(value.split())
            if not prop or not value or (cell and prop == "text-align"):
                continue
            written = f"{prop}: {value}"
            if written.lower() in _NO_STYLE:
                continue
            state.lost(f"{_STYLES.get(prop, 'a style')} ({_short(written, 50)})")
    if name == "font":
        for attr, what in (("color", "a colour"), ("face", "a font"), ("size", "a font size")):
            if value := _attribute(tag, attr):
                state.lost(f"{what} ({_short(value, 40)})")
    align = _attribute(tag, "align").lower()
    if align and align not in ("left", "start") and not cell:
        state.lost(f"a text alignment (align={_short(align, 20)})")
    if bgcolor := _attribute(tag, "bgcolor"):
        state.lost(f"a background colour ({_short(bgcolor, 20)})")


def _merge_strings(parent: Tag) -> None:
    """Side-by-side strings of an element made one (an unwrapped `<bdi>` cut `[[1]]` in three)."""
    run: list[NavigableString] = []
    for child in [*parent.contents, None]:
        if isinstance(child, NavigableString):
            run.append(child)
            continue
        if len(run) > 1:
            run[0].replace_with(NavigableString("".join(str(s) for s in run)))
            for extra in run[1:]:
                extra.extract()
        run = []


def _merge_neighbours(tags: list[Tag]) -> None:
    """`<strong>a</strong><strong>b</strong>` as `<strong>ab</strong>`: Markdown cannot write
    two such elements side by side (`**a****b**`, `` `a``b` ``)."""
    gone: set[int] = set()
    for tag in tags:
        if id(tag) in gone or tag.parent is None:
            continue
        joined = False
        while isinstance(nxt := tag.next_sibling, Tag) and nxt.name == tag.name:
            for child in list(nxt.contents):
                tag.append(child.extract())
            nxt.extract()
            gone.add(id(nxt))
            joined = True
        if joined:
            _merge_strings(tag)


# -------------------------------------------------------------------------------- converter

# Block elements: text beside them starts or ends a line.
_BLOCKS: Final = frozenset(
    {
        "p", "div", "blockquote", "ul", "ol", "li", "table", "thead", "tbody", "tfoot", "tr",
        "td", "th", "caption", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "hr", "br",
        "[document]", "colgroup", "col",
    }
)  # fmt: skip
# Whitespace strings beside these and inside them go (markdownify's should_remove_whitespace).
_TRIMMED: Final = _BLOCKS - {"br", "hr", "pre", "caption", "[document]", "colgroup", "col"}
# The first and last character of an inline element's Markdown.
_FIRST: Final = {"strong": "*", "em": "*", "del": "~", "code": "`", "a": "[", "img": "!", "q": '"'}
_LAST: Final = {"strong": "*", "em": "*", "del": "~", "code": "`", "a": ")", "img": ")", "q": '"'}
_HEADING = re.compile(r"h([1-6])")
_LANGUAGE = re.compile(r"(?:language|lang)-([\w+#.-]+)")
_CLOSING_HASHES = re.compile(r"(\s)(#+)$")

# markdownify's stub declares convert() and convert_soup() only; its tree walk is typed here.
_process_tag: Callable[..., str] = MarkdownConverter.process_tag  # type: ignore[attr-defined]


def _text_char(text: str, last: bool) -> str:
    char = text[-1] if last else text[0]
    if char in "\r\n":
        return "\n"
    return " " if char.isspace() else char


def _char_before(node: PageElement) -> str:
    """The character the Markdown has before an element: `\\n` at the start of a line."""
    return _char_beside(node, before=True)


def _char_after(node: PageElement) -> str:
    """The character the Markdown has after an element: `\\n` at the end of a line."""
    return _char_beside(node, before=False)


def _char_beside(node: PageElement, *, before: bool) -> str:
    """The character next to an element on one side, found through its siblings, then its
    parents' (an inline parent's own mark on that side, `*` for emphasis)."""
    step = "previous_sibling" if before else "next_sibling"
    facing, own = (_LAST, _FIRST) if before else (_FIRST, _LAST)
    while True:
        sibling = getattr(node, step)
        while sibling is not None:
            if isinstance(sibling, NavigableString):
                if text := str(sibling).translate(_CLEAN):
                    return _text_char(text, last=before)
            elif isinstance(sibling, Tag):
                return "\n" if sibling.name in _BLOCKS else facing.get(sibling.name, "*")
            sibling = getattr(sibling, step)
        parent = node.parent
        if parent is None or parent.name in _BLOCKS:
            return "\n"
        if parent.name in own:
            return own[parent.name]
        node = parent


def _content_after(node: PageElement) -> bool:
    """Whether anything but whitespace follows an element in its block (a `<br>` at a block's
    end shows nothing, but Markdown would show its backslash)."""
    while True:
        sibling = node.next_sibling
        while sibling is not None:
            if isinstance(sibling, Tag):
                return sibling.name not in _BLOCKS or sibling.name == "br"
            if str(sibling).translate(_CLEAN).strip():
                return True
            sibling = sibling.next_sibling
        parent = node.parent
        if parent is None or parent.name in _BLOCKS:
            return False
        node = parent


def _block_of(node: PageElement) -> Tag | None:
    parent = node.parent
    while parent is not None and parent.name not in _BLOCKS:
        parent = parent.parent
    return parent


def _chomped(text: str) -> tuple[str, str, str]:
    """Text with its spaces at either end taken out: (before, text, after)."""
    inner = text.strip(" ")
    if not inner:
        return text, "", ""
    start = len(text) - len(text.lstrip(" "))
    end = len(text.rstrip(" "))
    return text[:start], inner, text[end:]


def _punctuation(char: str) -> bool:
    return not char.isspace() and not char.isalnum()


def _opens(delimiter: str, before: str, first: str) -> bool:
    """Whether a run of `delimiter` between `before` and `first` can open emphasis."""
    if first.isspace():
        return False
    left = not _punctuation(first) or before.isspace() or _punctuation(before)
    if delimiter[0] == "_":
        right = not before.isspace() and (not _punctuation(before) or _punctuation(first))
        return left and (not right or _punctuation(before))
    return left


def _closes(delimiter: str, last: str, after: str) -> bool:
    """Whether a run of `delimiter` between `last` and `after` can close emphasis."""
    if last.isspace():
        return False
    right = not _punctuation(last) or after.isspace() or _punctuation(after)
    if delimiter[0] == "_":
        left = not after.isspace() and (not _punctuation(after) or _punctuation(last))
        return right and (not left or _punctuation(after))
    return right


def _destination(url: str) -> str:
    """A link's or an image's address as Markdown writes it: between `<…>` when it has
    spaces, parentheses or angle brackets."""
    url = "".join(url.split("\n"))
    url = _REFERENCE.sub(lambda found: "\\" + found[0], url.replace("\\", "\\\\"))
    if re.search(r"[\s<>()]", url):
        return "<" + url.replace("<", "\\<").replace(">", "\\>") + ">"
    return url


def _title(tag: Tag) -> str:
    title = " ".join(_attribute(tag, "title").split())
    if not title:
        return ""
    return ' "' + title.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _image_markdown(name: str, alt: str, title: str, state: _State, before: str, after: str) -> str:
    """An embedded file's image at its path, or its alt text when the question lacks it."""
    alt = " ".join(alt.split())
    path = state.image_path(name)
    if not alt:
        alt = PurePosixPath(name).stem or name
        if path is not None:
            state.lost(f"an image without alt text ({name})")
    if path is None:
        state.lost(f"an image that is not in the file ({name})")
        return escape(alt, before, after)
    state.shown(name)
    return f"![{escape(alt, '[', ']', brackets=True)}]({_destination(path)}{title})"


class _Converter(MarkdownConverter):
    """markdownify's converter for one text, with quizbank's escaping, maths, images, links,
    code and tables, reporting what it flattens."""

    def __init__(self, state: _State) -> None:  # markdownify's options are not used
        self.state = state
        self.options: dict[str, Any] = {"strip_document": "strip"}
        self.convert_fn_cache: dict[str, Any] = {}
        self._multiline: dict[int, bool] = {}
        self._rows: dict[int, tuple[list[Tag], list[str]]] = {}
        self._numbers: dict[int, dict[int, int]] = {}
        self._markers: dict[int, str] = {}
        self._marks: dict[int, str] = {}

    def process_tag(self, node: Tag, parent_tags: set[str] | None = None) -> str:
        return _process_tag(self, node, parent_tags)

    def get_conv_fn(self, tag_name: str) -> Callable[..., str] | None:
        """The method for an element (`_prepare` left no other)."""
        heading = _HEADING.fullmatch(tag_name)
        if heading:
            level = int(heading[1])
            return lambda el, text, parent_tags: self.convert_hN(level, el, text, parent_tags)
        name = re.sub(r"[\[\]:-]", "_", tag_name)
        method: Callable[..., str] | None = getattr(self, f"convert_{name}", None)
        return method

    def lost(self, phrase: str) -> None:
        self.state.lost(phrase)

    def flattened(self, what: str, parent_tags: set[str]) -> None:
        """A block made part of one line: in a table cell, a heading or a one-line text."""
        if "td" in parent_tags or "th" in parent_tags:
            self.lost(f"{what} inside a table cell (made one line)")
        elif any(_HEADING.fullmatch(tag) for tag in parent_tags):
            self.lost(f"{what} inside a heading (made one line)")
        else:
            self.lost(f"{what} (made one line)")

    # ---- text

    def process_text(self, el: NavigableString, parent_tags: set[str] | None = None) -> str:
        """A text's Markdown: code as it is; other text with its whitespace collapsed, its
        formulas as `$…$`, escaped where Markdown would read it as markup."""
        tags = parent_tags or set()
        text = str(el).translate(_CLEAN)
        if "pre" in tags:
            return text
        if "code" in tags:
            return _one_line(text)
        text = _SPACES.sub(" ", _NEWLINES.sub("\n", text))
        if "_inline" in tags:
            text = _SPACES.sub(" ", text.replace("\n", " "))
        prev, nxt = el.previous_sibling, el.next_sibling
        parent = el.parent
        inside = parent is not None and (parent.name in _TRIMMED or parent.name == "[document]")
        if _trims(prev) or (inside and prev is None):
            text = text.lstrip(" \t\r\n")
        if _trims(nxt) or (inside and nxt is None):
            text = text.rstrip(" \t\r\n")
        if not text:
            return ""
        pipes = "_inline" not in tags and "|" in text and self._several_lines(el)
        return with_maths(
            text,
            _char_before(el),
            _char_after(el),
            pipes=pipes,
            brackets="a" in tags,
            block="_inline" not in tags,
            alone="_inline" not in tags and prev is None and nxt is None and _alone_in(parent),
        )

    def _several_lines(self, el: PageElement) -> bool:
        """Whether a text's block has more than one line (where one could be a table's)."""
        block = _block_of(el)
        if block is None:
            return True
        key = id(block)
        if key not in self._multiline:
            self._multiline[key] = block.find("br") is not None or "\n" in block.get_text()
        return self._multiline[key]

    # ---- blocks

    def convert__document_(self, el: Tag, text: str, parent_tags: set[str]) -> str:
        return text.strip("\n")

    def convert_p(self, el: Tag, text: str, parent_tags: set[str]) -> str:
        text = text.strip(" \t\r\n")
        if "_inline" in parent_tags:
            if text and _has_neighbours(el):
                self.flattened("a paragraph break", parent_tags)
            return _soft(text)
        return f"\n\n{text}\n\n" if text else ""

    def convert_div(self, el: Tag, text: str, parent_tags: set[str]) -> str:
        text = text.strip(" \t\r\n")
        if "_inline" in parent_tags:
            return _soft(text)
        return f"\n\n{text}\n\n" if text else ""

    def convert_br(self, el: Tag, text: str, parent_tags: set[str]) -> str:
        if "pre" in parent_tags:
            return "\n"
        if "_inline" in parent_tags:
            if _content_after(el):
                self.flattened("a line break", parent_tags)
            return _SOFT
        return "\\\n" if _content_after(el) else ""

    def convert_hr(self, el: Tag, text: str, parent_tags: set[str]) -> str:
        if "_inline" in parent_tags:
            self.flattened("a horizontal rule", parent_tags)
            return _SOFT
        return "\n\n---\n\n"

    def convert_hN(self, n: int, el: Tag, text: str, parent_tags: set[str]) -> str:
        text = _unsoft(text).strip()
        if "_inline" in parent_tags:
            if text:
                self.flattened("a heading", parent_tags)
            return _soft(text)
        if not text:
            return ""
        text = _CLOSING_HASHES.sub(r"\1\\\2", text)
        return f"\n\n{'#' * n} {text}\n\n"

    def convert_blockquote(self, el: Tag, text: str, parent_tags: set[str]) -> str:
        text = text.strip(" \t\r\n")
        if "_inline" in parent_tags:
            if text:
                self.flattened("a block quote", parent_tags)
            return _soft(text)
        if not text:
            return ""
        quoted = "\n".join(f"> {line}" if line else ">" for line in text.split("\n"))
        return f"\n\n{quoted}\n\n"

    def convert_pre(self, el: Tag, text: str, parent_tags: set[str]) -> str:
        """A fenced code block, its language from a `language-x` class; one line of code in
        a one-line context."""
        if text.startswith("\n"):
            text = text[1:]  # HTML shows no newline right after <pre>
        if text.endswith("\n"):
            text = text[:-1]
        if not text.strip():
            return ""
        if "_inline" in parent_tags:
            self.flattened("a code block", parent_tags)
            return _soft(_code_span(" ".join(text.split("\n"))))
        longest = max((len(run) for run in _BACKTICKS.findall(text)), default=0)
        fence = "`" * max(3, longest + 1)
        return f"\n\n{fence}{_language(el)}\n{text}\n{fence}\n\n"

    # ---- lists

    def convert_ul(self, el: Tag, text: str, parent_tags: set[str]) -> str:
        return self._list(el, text, parent_tags)

    def convert_ol(self, el: Tag, text: str, parent_tags: set[str]) -> str:
        return self._list(el, text, parent_tags)

    def _list(self, el: Tag, text: str, parent_tags: set[str]) -> str:
        if "_inline" in parent_tags:
            if text.strip():
                self.flattened("a list", parent_tags)
            return _soft(text.strip())
        if "li" in parent_tags:
            return "\n" + text.rstrip() + "\n"
        return "\n\n" + text.rstrip() + "\n\n"

    def convert_li(self, el: Tag, text: str, parent_tags: set[str]) -> str:
        text = text.strip()
        if "_inline" in parent_tags:
            return _soft(text)
        parent = el.parent
        if isinstance(parent, Tag) and parent.name == "ol":
            bullet = f"{self._number(parent, el)}{self._marker(parent)} "
        else:
            bullet = f"{self._marker(parent)} " if isinstance(parent, Tag) else "- "
        indent = " " * len(bullet)
        lines = text.split("\n")
        body = "\n".join([lines[0], *(indent + line if line else "" for line in lines[1:])])
        return f"{bullet}{body}\n"

    def _number(self, parent: Tag, item: Tag) -> int:
        """An ordered list item's number, from the list's `start` (the items counted once)."""
        numbers = self._numbers.get(id(parent))
        if numbers is None:
            start = _attribute(parent, "start").strip()
            first = int(start) if start.isdigit() and len(start) < 10 else 1
            items = [c for c in parent.children if isinstance(c, Tag) and c.name == "li"]
            numbers = {id(li): first + index for index, li in enumerate(items)}
            self._numbers[id(parent)] = numbers
        return numbers.get(id(item), 1)

    def _marker(self, parent: Tag | None) -> str:
        """A list's bullet (`-`, `.`), or the other one (`*`, `)`) right after a list of the
        same kind, which Markdown would otherwise make one list with it."""
        if parent is None:
            return "-"
        key = id(parent)
        if key in self._markers:
            return self._markers[key]
        first, other = (".", ")") if parent.name == "ol" else ("-", "*")
        marker = first
        previous = parent.previous_sibling
        while isinstance(previous, NavigableString) and not str(previous).strip():
            previous = previous.previous_sibling
        if isinstance(previous, Tag) and previous.name == parent.name:
            marker = other if self._marker(previous) == first else first
        self._markers[key] = marker
        return marker

    # ---- inline

    def convert_code(self, el: Tag, text: str, parent_tags: set[str]) -> str:
        if "pre" in parent_tags or "code" in parent_tags:
            return text
        return _code_span(text)

    def convert_strong(self, el: Tag, text: str, parent_tags: set[str]) -> str:
        return self._emphasis(el, text, parent_tags, "**", "bold text")

    def convert_em(self, el: Tag, text: str, parent_tags: set[str]) -> str:
        return self._emphasis(el, text, parent_tags, "*", "italic text")

    def convert_del(self, el: Tag, text: str, parent_tags: set[str]) -> str:
        return self._emphasis(el, text, parent_tags, "~~", "struck-out text")

    def _emphasis(
        self, el: Tag, text: str, parent_tags: set[str], delimiter: str, what: str
    ) -> str:
        """Text between delimiters, if Markdown reads them as such there (`**Note:**text`
        is not strong); else the text, and a loss."""
        if "pre" in parent_tags or "code" in parent_tags:
            return text
        start, inner, end = _chomped(text)
        if not inner:
            return text
        before = start[-1] if start else _char_before(el)
        after = end[0] if end else _char_after(el)
        delimiters = [delimiter]
        if delimiter[0] == "*":  # `_` where `*` would run into a neighbour's `*`
            previous = self._marks.get(id(el.previous_sibling)) if not start else None
            underscores = "_" * len(delimiter)
            delimiters.insert(0 if previous and previous[0] == "*" else 1, underscores)
        for mark in delimiters:
            if _opens(mark, before, inner[0]) and _closes(mark, inner[-1], after):
                self._marks[id(el)] = mark
                return f"{start}{mark}{inner}{mark}{end}"
        self.lost(f"{what} that Markdown cannot mark there ({_short(el.get_text(), 30)})")
        return text

    def convert_a(self, el: Tag, text: str, parent_tags: set[str]) -> str:
        """A link, if it is http, https or mailto; else its text, and a loss."""
        if "pre" in parent_tags or "code" in parent_tags or "a" in parent_tags:
            return text
        href = _attribute(el, "href").strip()
        start, inner, end = _chomped(text)
        if not inner or not href:
            return text
        if "\n\n" in inner.strip():
            self.lost(f"a link around several blocks ({_short(href)})")
            return text
        if href.startswith(PLUGINFILE):
            self.lost(f"a link to a file of the question ({unquote(href[len(PLUGINFILE) :])})")
            return text
        if not safe_link(href):
            self.lost(f"a link that is not http, https or mailto ({_short(href)})")
            return text
        return f"{start}[{inner}]({_destination(href)}{_title(el)}){end}"

    def convert_img(self, el: Tag, text: str, parent_tags: set[str]) -> str:
        """An embedded file's image at its path; any other image as its alt text, and a loss."""
        src = _attribute(el, "src").strip()
        alt = _attribute(el, "alt")
        if "pre" in parent_tags or "code" in parent_tags:
            return alt
        before, after = _char_before(el), _char_after(el)
        if src.startswith(PLUGINFILE):
            name = unquote(src[len(PLUGINFILE) :].split("?")[0])
            return _image_markdown(name, alt, _title(el), self.state, before, after)
        if src.lower().startswith("data:"):
            self.lost("an image written into the text (data: URI)")
        elif src:
            self.lost(f"an image from elsewhere ({_short(src)})")
        alt = " ".join(alt.split())
        if not alt and src and not src.lower().startswith("data:"):
            alt = PurePosixPath(unquote(src.split("?")[0])).stem
        return escape(alt, before, after) if alt else ""

    def convert_q(self, el: Tag, text: str, parent_tags: set[str]) -> str:
        return f'"{text}"'

    # ---- tables

    def convert_table(self, el: Tag, text: str, parent_tags: set[str]) -> str:
        text = text.strip()
        if "_inline" in parent_tags:
            if text:
                self.flattened("a table", parent_tags)
            return _soft(text)
        return f"\n\n{text}\n\n" if text else ""

    def convert_caption(self, el: Tag, text: str, parent_tags: set[str]) -> str:
        text = text.strip()
        if text and "_inline" not in parent_tags:
            self.lost("a table's caption (made a paragraph)")
            return f"{text}\n\n"
        return _soft(text)

    def convert_thead(self, el: Tag, text: str, parent_tags: set[str]) -> str:
        return text

    convert_tbody = convert_thead
    convert_tfoot = convert_thead

    def convert_colgroup(self, el: Tag, text: str, parent_tags: set[str]) -> str:
        return ""

    convert_col = convert_colgroup

    def convert_td(self, el: Tag, text: str, parent_tags: set[str]) -> str:
        """A cell: one line, each `|` escaped (a table's rows are cut at the others before
        their cells are read, and that takes one backslash before each `|` away)."""
        text = " ".join(text.split("\n")).strip()
        if "_inline" in parent_tags:
            return _soft(text)
        text = _unsoft(text).strip()
        span = _span(el, "colspan")
        if span > 1 or _span(el, "rowspan") > 1:
            self.lost("a table with merged cells")
        return " " + text.replace("|", "\\|") + " |" + " |" * (span - 1)

    convert_th = convert_td

    def convert_tr(self, el: Tag, text: str, parent_tags: set[str]) -> str:
        """A row, padded to the table's widest; the first a header row, an empty one when the
        table has none."""
        if "_inline" in parent_tags:
            return _soft(text.strip())
        table = el.find_parent("table")
        rows, aligns = self._table(table) if table is not None else ([el], [""])
        width = len(aligns)
        cells = _cells(el)
        if _aligns(cells)[:width] != aligns[: len(_aligns(cells))]:
            self.lost("a table cell aligned unlike its column")
        line = "|" + text + " |" * (width - sum(_span(c, "colspan") for c in cells)) + "\n"
        if not rows or rows[0] is not el:
            return line
        rule = "|" + "".join(f" {_RULES[align]} |" for align in aligns) + "\n"
        parent = el.parent
        if (isinstance(parent, Tag) and parent.name == "thead") or all(
            c.name == "th" for c in cells
        ):
            return line + rule
        self.lost("a table without a header row (given an empty one)")
        return "|" + "  |" * width + "\n" + rule + line

    def _table(self, table: Tag) -> tuple[list[Tag], list[str]]:
        """A table's rows (not those of a table inside it), and the alignment of each of its
        columns (as its first row's cells have them)."""
        key = id(table)
        if key not in self._rows:
            rows = [row for row in table.find_all("tr") if row.find_parent("table") is table]
            cells = [_cells(row) for row in rows]
            width = max((sum(_span(c, "colspan") for c in row) for row in cells), default=1)
            aligns = _aligns(cells[0]) if cells else []
            self._rows[key] = (rows, (aligns + [""] * width)[: max(width, 1)])
        return self._rows[key]


def _cells(row: Tag) -> list[Tag]:
    return [c for c in row.children if isinstance(c, Tag) and c.name in ("td", "th")]


_CELL_ALIGN = re.compile(r"text-align\s*:\s*(left|right|center)", re.IGNORECASE)
_RULES: Final = {"": "---", "left": ":---", "right": "---:", "center": ":---:"}


def _aligns(cells: list[Tag]) -> list[str]:
    """The alignment of each column of a row's cells ("" none), a merged cell's for each of
    its columns."""
    aligns: list[str] = []
    for cell in cells:
        found = _CELL_ALIGN.search(_attribute(cell, "style"))
        align = found[1].lower() if found else _attribute(cell, "align").lower()
        aligns += [align if align in _RULES else ""] * _span(cell, "colspan")
    return aligns


def _alone_in(parent: Tag | None) -> bool:
    """Whether a text that is its parent's only child is all of a paragraph."""
    return parent is not None and parent.name in ("p", "div", "li", "blockquote", "[document]")


def _trims(node: PageElement | None) -> bool:
    """Whether whitespace beside this node goes (it is a block, or `<pre>`)."""
    return isinstance(node, Tag) and (node.name in _TRIMMED or node.name == "pre")


def _has_neighbours(el: Tag) -> bool:
    """Whether an element has content beside it in its parent."""
    for siblings in (el.previous_siblings, el.next_siblings):
        for sibling in siblings:
            if isinstance(sibling, Tag) or str(sibling).translate(_CLEAN).strip():
                return True
    return False


def _span(cell: Tag, name: str) -> int:
    value = _attribute(cell, name).strip()
    return max(1, min(int(value), 1000)) if value.isdigit() else 1


def _language(pre: Tag) -> str:
    """A code block's language: a `language-x` class of the `<pre>` or its `<code>`."""
    code = pre.find("code")
    for tag in (pre, code):
        if isinstance(tag, Tag):
            found = _LANGUAGE.search(_attribute(tag, "class"))
            if found:
                return found[1]
    return ""


def _code_span(text: str) -> str:
    """Code between enough backticks, padded where CommonMark would strip or join."""
    if not text:
        return ""
    longest = max((len(run) for run in _BACKTICKS.findall(text)), default=0)
    fence = "`" * (longest + 1)
    pad = (
        text[0] == "`"
        or text[-1] == "`"
        or (text[0] == " " and text[-1] == " " and bool(text.strip(" ")))
    )
    return f"{fence} {text} {fence}" if pad else f"{fence}{text}{fence}"
