"""Markdown in text fields, rendered once and safely for every renderer that needs HTML.

Raw HTML in content is escaped, never passed through; links may only be http(s) or mailto;
images are off (a quiz page makes no requests). In right-to-left languages, code and runs of
Latin script are bidi-isolated so that `optimizer.state_dict()` never reads backwards.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

from markdown_it import MarkdownIt
from markdown_it.common.utils import escapeHtml
from markdown_it.renderer import RendererHTML
from markdown_it.token import Token
from markdown_it.utils import EnvType, OptionsDict

from quizbank.locales import is_rtl

SAFE_SCHEMES = ("http://", "https://", "mailto:")
# A run of Latin letters or digits, possibly several words joined by spaces and punctuation
# that belongs inside such a run (model.safetensors.index.json, PyTorch 2.4, CUDA-12,
# weights_only=True), with a call's parentheses (state_dict(), load(path)): outside the
# isolation, right-to-left text would show them before the name, `()state_dict`.
_LATIN_WORD = r"[A-Za-z0-9][\w.,:/+=%\-]*(?:\([\w.,:/+=%\-' ]*\)[\w.,:/+=%\-]*)*"
LATIN_RUN = re.compile(rf"{_LATIN_WORD}(?:[ \t]+{_LATIN_WORD})*", re.ASCII)


def safe_link(url: str) -> bool:
    """Whether a link may be followed: http, https or mailto only."""
    return url.strip().lower().startswith(SAFE_SCHEMES)


# Multi-word terms that a line must not break inside, per language, kept beside the catalogs.
TERMS_FILE = "no-break-terms.txt"
_LOCALE_DIR = Path(__file__).with_name("locale")


@lru_cache(maxsize=16)
def _no_break_terms(lang: str) -> tuple[tuple[str, str], ...]:
    """The terms of quizbank/locale/<lang>/no-break-terms.txt (one a line, `#` comments), each
    with its no-break form, longest first; none when the language has no list."""
    path = _LOCALE_DIR / lang / TERMS_FILE
    if not path.is_file():
        return ()
    lines = path.read_text(encoding="utf-8").splitlines()
    terms = sorted({t.strip() for t in lines if t.strip() and t[0] != "#"}, key=len, reverse=True)
    return tuple((term, term.replace(" ", "\u00a0")) for term in terms)


def _kept_together(text: str, lang: str) -> str:
    """Text with a no-break space inside each of `lang`'s multi-word terms (چیک پوائنٹ) where a
    word starts with the term (چیک پوائنٹس too, not a word that merely ends like its first)."""
    for term, joined in _no_break_terms(lang):
        at = text.find(term)
        while at >= 0:
            if at == 0 or not text[at - 1].isalnum():
                text = text[:at] + joined + text[at + len(term) :]
            at = text.find(term, at + len(term))
    return text


def _isolate_latin(text: str, lang: str) -> str:
    """Escape text and wrap each Latin run in `<bdi lang="en">` (isolated, and read in an
    English voice); keep `lang`'s multi-word terms on one line."""
    text = _kept_together(text, lang)  # the terms hold no Latin letter: the runs stay as they are
    out: list[str] = []
    last = 0
    for match in LATIN_RUN.finditer(text):
        run = match.group().rstrip(".,:")
        end = match.start() + len(run)
        out.append(escapeHtml(text[last : match.start()]))
        out.append(f'<bdi lang="en">{escapeHtml(run)}</bdi>')
        last = end
    out.append(escapeHtml(text[last:]))
    return "".join(out)


class _RtlRenderer(RendererHTML):
    """HTML renderer that isolates left-to-right runs inside right-to-left text."""

    def text(self, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType) -> str:
        return _isolate_latin(tokens[idx].content, str(env.get("lang", "")))

    def code_inline(
        self, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType
    ) -> str:
        return f'<code dir="ltr" lang="en">{escapeHtml(tokens[idx].content)}</code>'


def _parser(rtl: bool) -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False})
    md.enable("table").enable("strikethrough").disable("image")
    md.validateLink = safe_link  # type: ignore[method-assign]
    if rtl:
        md.renderer = _RtlRenderer(md)
    md.add_render_rule("link_open", _link_open)
    return md


def _link_open(
    self: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType
) -> str:
    token = tokens[idx]
    token.attrSet("rel", "noopener noreferrer")
    return self.renderToken(tokens, idx, options, env)


_PARSERS = {False: _parser(False), True: _parser(True)}


def to_html(text: str, lang: str = "en", *, inline: bool = False) -> str:
    """Markdown source to safe HTML; `inline` drops the paragraph around a one-paragraph text.

    A text that is more than one paragraph is rendered inline by markdown-it's inline rules, so
    that block syntax (`- item`, `# title`) stays text where only phrasing content may go.
    Moodle turns `@@PLUGINFILE@@` in a text into the URL of one of the question's files: every
    `@@` is written as character references, which show the same and match nothing an LMS
    rewrites, whatever `<bdi>` an Urdu text puts between them.
    """
    block, paragraph = _rendered(text, lang)
    if not inline:
        return block
    return paragraph if paragraph is not None else _inline_only(text, lang)


def _without_at_at(html: str) -> str:
    """`@@` as character references (see to_html)."""
    return html.replace("@@", "&#64;&#64;") if "@@" in html else html


# Every renderer asks for the same texts of a quiz (a page, an export, an XML file), some as
# blocks and some inline: one parse gives both, and the last few thousand texts are kept.
@lru_cache(maxsize=8192)
def _rendered(text: str, lang: str) -> tuple[str, str | None]:
    """The text's HTML, and the inside of its paragraph if it is exactly one paragraph."""
    pieces = _plain_pieces(text)
    if pieces is not None:
        return _paragraph(_without_at_at(_render_pieces(pieces, lang)))
    block, paragraph = _parsed(text, lang)
    return _without_at_at(block), None if paragraph is None else _without_at_at(paragraph)


def _parsed(text: str, lang: str) -> tuple[str, str | None]:
    md = _PARSERS[is_rtl(lang)]
    env: EnvType = {"lang": lang}
    if _one_line_paragraph(text):
        return _paragraph(md.renderer.render(md.parseInline(text, env), md.options, env))
    tokens = md.parse(text, env)
    block: str = md.renderer.render(tokens, md.options, env).strip()
    if [t.type for t in tokens] != ["paragraph_open", "inline", "paragraph_close"]:
        return block, None
    paragraph: str = md.renderer.render(tokens[1:2], md.options, env).strip()
    return block, paragraph


def _paragraph(inside: str) -> tuple[str, str]:
    return f"<p>{inside}</p>", inside


# What can open a block other than a paragraph on the first line of a text (a heading, quote,
# list, rule, fence, table, reference or indented code); a line after it could end a paragraph.
_BLOCK_OPENER = re.compile(r"[#>\-+*=_|~`\[<0-9 \t]")


def _one_line_paragraph(text: str) -> bool:
    """True if Markdown reads the text as one paragraph of that one line, as it is: then only
    its inline syntax needs parsing."""
    return (
        bool(text)
        and text == text.strip()
        and not _BLOCK_OPENER.match(text)
        and not _CODE_BREAK.search(text)
    )


@lru_cache(maxsize=1024)
def _inline_only(text: str, lang: str) -> str:
    html: str = _PARSERS[is_rtl(lang)].renderInline(text, {"lang": lang})
    return _without_at_at(html.strip())


def to_plain(text: str) -> str:
    """Markdown source to plain text, for places that take no markup (titles, names).

    Words and single spaces: a block, line break, list item or table cell is a space, an ordered
    list item keeps the number a reader sees, and nothing is glued or padded. One line is read as
    inline Markdown only (`# of GPUs` stays as written); a text of no words is given as written,
    its whitespace collapsed.
    """
    pieces = _plain_pieces(text)
    if pieces is not None:
        words = [content for kind, content in pieces if kind in ("text", "code")]
    elif not _LINE_END.search(text):  # one line: its inline content is all there is
        words = [
            child.content
            for token in _PARSERS[False].parseInline(text)
            for child in token.children or ()
            if child.type in ("text", "code_inline")
        ]
    else:
        words = _block_words(text)
    return " ".join("".join(words).split()) or " ".join(text.split())


def _block_words(text: str) -> list[str]:
    """The words of a text of several lines, with a space wherever blocks and lines meet."""
    words: list[str] = []
    numbers: list[int] = []  # the next number of each ordered list open around the token
    for token in _PARSERS[False].parse(text):
        if token.type == "inline":
            words.extend(_BREAK if c.type in _BREAKS else c.content for c in token.children or [])
        elif token.type in ("code_block", "fence"):
            words += [_BREAK, token.content, _BREAK]
        elif token.type == "ordered_list_open":
            numbers.append(int(token.attrGet("start") or 1))
        elif token.type == "ordered_list_close":
            numbers.pop()
        elif token.type == "list_item_open" and token.info:  # an ordered list's item
            words += [_BREAK, f"{numbers[-1]}{token.markup}", _BREAK]
            numbers[-1] += 1
        if token.nesting:  # a block opens or closes
            words.append(_BREAK)
    return words


# Where blocks, lines and list items meet in to_plain: a space. Markdown ends a line at \n,
# \r\n or \r.
_BREAK = " "
_BREAKS = frozenset({"softbreak", "hardbreak"})
_LINE_END = re.compile(r"[\r\n]")


# The fast path. Most texts are one line of words with, at most, `code` spans and **strong** or
# *emphasised* words: markdown-it renders such a text as one paragraph of its escaped text, code
# and emphasis, and so does `_render_pieces`, some twenty times faster. Anything else (a character
# that can start other Markdown syntax, a line break, a line that could start a list, emphasis
# that is not plainly words between spaces or punctuation) goes to markdown-it.
# tests/test_markup_fast_path.py compares both on every text it can think of.
_SYNTAX = re.compile(r"[\\`~_\[\]<>&#|\x00\r\n]")
_BLOCK_START = re.compile(r"[-+]|[0-9]{1,9}[.)]")
_CODE_BREAK = re.compile(r"[\x00\r\n]")
_EMPHASIS = {1: "em", 2: "strong"}

# (kind, content): kind is "text", "code", or "open"/"close" with the tag as content.
Piece = tuple[str, str]


def is_plain_paragraph(text: str) -> bool:
    """True for one line of words, `code` spans and plain emphasis, with nothing that Markdown
    could read as a block, raw HTML, a link, an entity or an escape: such a text is a paragraph
    of itself, and a renderer that guards Markdown source can pass it through as it is."""
    return _plain_pieces(text) is not None


@lru_cache(maxsize=8192)
def _plain_pieces(text: str) -> tuple[Piece, ...] | None:
    """A one-line paragraph of text, `code` spans and emphasis as markdown-it tokenises it;
    None for any other text."""
    if not text or text != text.strip() or _BLOCK_START.match(text):
        return None
    if "`" not in text:
        if _SYNTAX.search(text):
            return None
        if "*" not in text:
            return (("text", text),)
        found = _emphasis(text, True, True)
        return None if found is None else tuple(found)
    parts = text.split("`")
    if len(parts) % 2 == 0 or "``" in text:
        return None  # an unpaired backtick, or a run of several: not the simple case
    pieces: list[Piece] = []
    last = len(parts) - 1
    for index, part in enumerate(parts):
        if index % 2 == 0:
            if _SYNTAX.search(part):
                return None
            if "*" in part:
                found = _emphasis(part, index == 0, index == last)
                if found is None:
                    return None
                pieces += found
            elif part:
                pieces.append(("text", part))
        else:
            if _CODE_BREAK.search(part):
                return None
            if part.startswith(" ") and part.endswith(" ") and part.strip(" "):
                part = part[1:-1]  # CommonMark drops one space on each side of such code
            pieces.append(("code", part))
    return tuple(pieces)


def _emphasis(segment: str, at_start: bool, at_end: bool) -> list[Piece] | None:
    """Text with `*em*` and `**strong**` around words: each opening run after a space or
    punctuation and before a letter or digit, each closing run after a letter or digit and
    before a space or punctuation, with no `*` inside. None for any other use of `*`."""
    pieces: list[Piece] = []
    pos = 0
    while (start := segment.find("*", pos)) != -1:
        size = 2 if segment.startswith("**", start) else 1
        inner = start + size
        end = segment.find("*", inner)
        if end == -1 or end == inner:
            return None
        after = end + size
        before = segment[start - 1] if start else (" " if at_start else "")
        following = segment[after] if after < len(segment) else (" " if at_end else "")
        if not (
            segment[end:after] == "*" * size
            and (before == " " or _punctuation(before))
            and segment[inner].isalnum()
            and segment[end - 1].isalnum()
            and (following == " " or _punctuation(following))
        ):
            return None
        if start > pos:
            pieces.append(("text", segment[pos:start]))
        tag = _EMPHASIS[size]
        pieces += [("open", tag), ("text", segment[inner:end]), ("close", tag)]
        pos = after
    if pos < len(segment):
        pieces.append(("text", segment[pos:]))
    return pieces


def _punctuation(char: str) -> bool:
    """Punctuation or a symbol as CommonMark's emphasis rules see it, other than `*` itself."""
    return bool(char) and char != "*" and unicodedata.category(char)[0] in "PS"


def _render_pieces(pieces: tuple[Piece, ...], lang: str) -> str:
    """What markdown-it's renderers (ours for right-to-left) make of these tokens."""
    rtl = is_rtl(lang)
    code = '<code dir="ltr" lang="en">' if rtl else "<code>"
    out = []
    for kind, content in pieces:
        if kind == "text":
            out.append(_isolate_latin(content, lang) if rtl else escapeHtml(content))
        elif kind == "code":
            out.append(f"{code}{escapeHtml(content)}</code>")
        else:
            out.append(f"<{content}>" if kind == "open" else f"</{content}>")
    return "".join(out)
