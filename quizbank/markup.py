"""Markdown in text fields, rendered once and safely for every renderer that needs HTML.

Raw HTML in content is escaped, never passed through; links may only be http(s) or mailto.
In right-to-left languages, code and runs of Latin script are bidi-isolated so that
`optimizer.state_dict()` never reads backwards.

Images (`![alt](path)`) are written with the address each export gives their path (a data URI,
a file beside the export, a Moodle file); formulas (`$…$` inline, `$$…$$` on their own) as
MathML, or as TeX between `\\(…\\)` and `\\[…\\]` for an LMS that typesets them itself. A `$`
opens a formula only before a character that is not a space, and closes one only after such a
character and not before a digit (pandoc's rule): `costs $5 and $7` stays text; `\\$` is a `$`.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache
from pathlib import Path
from typing import Literal

from markdown_it import MarkdownIt
from markdown_it.common.utils import escapeHtml
from markdown_it.renderer import RendererHTML
from markdown_it.rules_inline import StateInline
from markdown_it.rules_inline.image import image
from markdown_it.token import Token
from markdown_it.utils import EnvType, OptionsDict
from mdit_py_plugins.dollarmath import dollarmath_plugin

from quizbank.images import elsewhere
from quizbank.locales import is_rtl
from quizbank.maths import FormulaError, to_mathml

# How an export writes formulas: MathML drawn by the browser, or TeX for the LMS's MathJax.
MathStyle = Literal["mathml", "tex"]

SAFE_SCHEMES = ("http://", "https://", "mailto:")
# A run of Latin letters or digits, possibly several words joined by spaces and punctuation
# that belongs inside such a run (model.safetensors.index.json, PyTorch 2.4, CUDA-12,
# weights_only=True), with a call's parentheses (state_dict(), load(path)): outside the
# isolation, right-to-left text would show them before the name, `()state_dict`. Superscript and
# subscript digits belong to the run (10⁹, x₁): left out, `10⁹` would show as `⁹10`.
_SCRIPT_DIGITS = "\u00b2\u00b3\u00b9\u2070\u2074-\u2079\u2080-\u2089"
_IN_WORD = rf"[\w.,:/+=%\-{_SCRIPT_DIGITS}]"
_LATIN_WORD = rf"[A-Za-z0-9]{_IN_WORD}*(?:\([\w.,:/+=%\-' ]*\){_IN_WORD}*)*"
LATIN_RUN = re.compile(rf"{_LATIN_WORD}(?:[ \t]+{_LATIN_WORD})*", re.ASCII)
# Unicode's isolates, for text that holds no markup: LEFT-TO-RIGHT ISOLATE, FIRST STRONG
# ISOLATE and POP DIRECTIONAL ISOLATE.
LRI, FSI, PDI = "\u2066", "\u2068", "\u2069"


def latin_runs(text: str) -> Iterator[tuple[int, int]]:
    """Where each Latin run of `text` starts and ends; a full stop, comma or colon after a run
    is the sentence's, not the run's."""
    for match in LATIN_RUN.finditer(text):
        yield match.start(), match.start() + len(match.group().rstrip(".,:"))


def safe_link(url: str) -> bool:
    """Whether a link may be followed: http, https or mailto only."""
    return url.strip().lower().startswith(SAFE_SCHEMES)


# Multi-word terms that a line must not break inside, per language, kept beside the catalogs.
TERMS_FILE = "no-break-terms.txt"
_LOCALE_DIR = Path(__file__).with_name("locale")


@lru_cache(maxsize=16)
def _no_break_terms(lang: str) -> tuple[re.Pattern[str] | None, tuple[tuple[str, str], ...]]:
    """The terms of quizbank/locale/<lang>/no-break-terms.txt (one a line, `#` comments), each
    with its no-break form, longest first, and a pattern that finds any of them (one scan of a
    text instead of one per term); none when the language has no list."""
    path = _LOCALE_DIR / lang / TERMS_FILE
    if not path.is_file():
        return None, ()
    lines = path.read_text(encoding="utf-8").splitlines()
    terms = sorted({t.strip() for t in lines if t.strip() and t[0] != "#"}, key=len, reverse=True)
    if not terms:
        return None, ()
    pattern = re.compile("|".join(map(re.escape, terms)))
    return pattern, tuple((term, term.replace(" ", "\u00a0")) for term in terms)


def _kept_together(text: str, lang: str) -> str:
    """Text with a no-break space inside each of `lang`'s multi-word terms (چیک پوائنٹ) where a
    word starts with the term (چیک پوائنٹس too, not a word that merely ends like its first)."""
    any_term, terms = _no_break_terms(lang)
    if any_term is None or not any_term.search(text):
        return text  # nearly every text
    for term, joined in terms:
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
    for start, end in latin_runs(text):
        out.append(escapeHtml(text[last:start]))
        out.append(f'<bdi lang="en">{escapeHtml(text[start:end])}</bdi>')
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


def with_maths(md: MarkdownIt) -> MarkdownIt:
    """A parser that reads `$…$` and `$$…$$` as formulas, by pandoc's rule for `$`."""
    return md.use(
        dollarmath_plugin,
        allow_labels=False,
        allow_space=False,
        allow_digits=False,
        double_inline=True,
    )


def _parser(rtl: bool, math: MathStyle = "mathml") -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False})
    md.enable("table").enable("strikethrough")
    with_maths(md)
    md.validateLink = safe_link  # type: ignore[method-assign]
    md.inline.ruler.at("image", _image_rule)
    if rtl:
        md.renderer = _RtlRenderer(md)
    md.add_render_rule("link_open", _link_open)
    md.add_render_rule("image", _image)
    for kind, display in _MATH_TOKENS.items():
        md.add_render_rule(kind, _MATH_WRITERS[math](display))
    return md


def _image_rule(state: StateInline, silent: bool) -> bool:
    """markdown-it's image rule, taking any path: links are checked by `safe_link`, an image's
    path when its quiz is (quizbank.images), so that an author hears what is wrong with it."""
    md = state.md
    validate, md.validateLink = md.validateLink, _any_path  # type: ignore[method-assign]
    try:
        return image(state, silent)
    finally:
        md.validateLink = validate  # type: ignore[method-assign]


def _any_path(url: str) -> bool:
    return True


def _image(
    self: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType
) -> str:
    """An image with a placeholder address, which to_html replaces with the export's own."""
    token = tokens[idx]
    alt = escapeHtml(self.renderInlineAsText(token.children or [], options, env))
    title = token.attrGet("title")
    number = env.setdefault("images", 0)
    env["images"] = number + 1
    titled = f' title="{escapeHtml(str(title))}"' if title else ""
    return f'<img src="{_SLOT}{number}{_SLOT}" alt="{alt}"{titled}>'


# An image's address until to_html knows it: NUL cannot come from a text (markdown-it reads it
# as U+FFFD), so nothing an author writes can be taken for one.
_SLOT = "\x00"
_SLOTS = re.compile(f"{_SLOT}([0-9]+){_SLOT}")
_MATH_TOKENS = {"math_inline": False, "math_inline_double": True, "math_block": True}


def _mathml(display: bool):  # type: ignore[no-untyped-def]
    def write(
        self: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType
    ) -> str:
        try:
            return to_mathml(tokens[idx].content.strip(), display=display)
        except FormulaError:  # refused when the quiz was checked; never reaches an export
            return f"<code>{escapeHtml(tokens[idx].content)}</code>"

    return write


def _tex(display: bool):  # type: ignore[no-untyped-def]
    def write(
        self: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType
    ) -> str:
        tex = escapeHtml(tokens[idx].content.strip())
        if tokens[idx].type == "math_block":
            return f"<p>\\[{tex}\\]</p>\n"
        return f"\\[{tex}\\]" if display else f"\\({tex}\\)"

    return write


_MATH_WRITERS = {"mathml": _mathml, "tex": _tex}


def _link_open(
    self: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType
) -> str:
    token = tokens[idx]
    token.attrSet("rel", "noopener noreferrer")
    return self.renderToken(tokens, idx, options, env)


_PARSERS = {(rtl, math): _parser(rtl, math) for rtl in (False, True) for math in ("mathml", "tex")}


# What `media()` set: each language's image addresses, and how formulas are written.
_MEDIA: ContextVar[tuple[Mapping[str, Mapping[str, str]], MathStyle]] = ContextVar(
    "media", default=({}, "mathml")
)


@contextmanager
def media(addresses: Mapping[str, Mapping[str, str]], math: MathStyle = "mathml") -> Iterator[None]:
    """Inside the block, to_html writes the images of a text in language L at
    `addresses[L][path as written]`, and formulas in the `math` style, unless told otherwise.

    A renderer wraps the rendering of one file in it (a function that returns, not a generator
    that yields, so that nothing else renders meanwhile)."""
    token = _MEDIA.set((addresses, math))
    try:
        yield
    finally:
        _MEDIA.reset(token)


def to_html(
    text: str,
    lang: str = "en",
    *,
    inline: bool = False,
    images: Mapping[str, str] | None = None,
    math: MathStyle | None = None,
) -> str:
    """Markdown source to safe HTML; `inline` drops the paragraph around a one-paragraph text.

    `images` gives the address to write for each image path as written (markdown-it's
    normalised `src`), `math` how formulas are written; by default, what `media()` set (a path
    it lacks is written as it is; formulas are MathML).

    A text that is more than one paragraph is rendered inline by markdown-it's inline rules, so
    that block syntax (`- item`, `# title`) stays text where only phrasing content may go.
    Moodle turns `@@PLUGINFILE@@` in a text into the URL of one of the question's files: every
    `@@` is written as character references, which show the same and match nothing an LMS
    rewrites, whatever `<bdi>` an Urdu text puts between them.
    """
    if "$" not in text:
        math = "mathml"  # no formula: one rendering, cached once for every style
    elif math is None:
        math = _MEDIA.get()[1]
    block, paragraph = _rendered(text, lang, math)
    if not inline:
        html = block
    else:
        html = paragraph if paragraph is not None else _inline_only(text, lang, math)
    if _SLOT not in html:  # nearly every text: no image
        return html
    if images is None:
        images = _MEDIA.get()[0].get(lang)
    whole = not inline or paragraph is not None  # else rendered as one run of inline content
    return _with_images(html, text, images, as_blocks=whole)


def _with_images(
    html: str, text: str, images: Mapping[str, str] | None, *, as_blocks: bool = True
) -> str:
    """The HTML with each image's placeholder replaced by the address of its path; the text
    was rendered `as_blocks`, or else as one run of inline content (which may hold other
    images: an indented `![a](b)` is code in a block, an image inline)."""
    sources = [image.src for image in find_images(text, as_blocks=as_blocks)]
    addresses = images or {}

    def address(slot: re.Match[str]) -> str:
        src = sources[int(slot[1])]
        if src in addresses:
            return escapeHtml(addresses[src])
        return "" if elsewhere(src) else escapeHtml(src)  # a path, or nothing

    return _SLOTS.sub(address, html)


class ImageRef:
    """An image as a text writes it: its path (markdown-it's normalised `src`) and alt text."""

    __slots__ = ("alt", "src")

    def __init__(self, src: str, alt: str) -> None:
        self.src = src
        self.alt = alt


@lru_cache(maxsize=1024)
def _tokens(text: str, as_blocks: bool) -> tuple[Token, ...]:
    """A text's tokens as the checks read it (block tokens, or inline content only), parsed
    once for its images and its formulas alike. Shared between callers: never change them."""
    md = _PARSERS[False, "mathml"]
    return tuple(md.parse(text) if as_blocks else md.parseInline(text))


@lru_cache(maxsize=1024)
def find_images(text: str, *, as_blocks: bool = True) -> tuple[ImageRef, ...]:
    """The images of a text, in the order they are rendered (read as inline content only
    unless `as_blocks`)."""
    if "![" not in text:
        return ()
    return tuple(
        ImageRef(str(child.attrGet("src") or ""), child.content)
        for token in _tokens(text, as_blocks)
        for child in walk(token.children or (), into_images=False)
        if child.type == "image"
    )


@lru_cache(maxsize=1024)
def find_formulas(text: str) -> tuple[tuple[str, bool], ...]:
    """The formulas of a text, each with whether it is displayed on its own, in order."""
    if "$" not in text:
        return ()
    found = []
    for token in _tokens(text, True):
        for child in (token, *walk(token.children or ())):
            if child.type in _MATH_TOKENS:
                found.append((child.content.strip(), _MATH_TOKENS[child.type]))
    return tuple(found)


# What MathJax, where an LMS typesets formulas, reads as the start of one in a text's words.
_MATHJAX_OPENER = re.compile(r"\\[(\[]|\$\$")
# What a text's source holds when its words may show one: a backslash, `$$`, or a character
# reference to a backslash or a dollar sign.
_MAY_SHOW_OPENER = re.compile(r"\\|\$\$|&(?:#0*(?:92|36)|#[xX]0*(?:5[cC]|24)|bsol|dollar);")
# Inline tokens that show no characters of their own, where a text's words run on across them.
_JOINED = frozenset({"em_open", "em_close", "strong_open", "strong_close", "s_open", "s_close"})
_JOINED |= {"link_open", "link_close"}


@lru_cache(maxsize=1024)
def mathjax_opener(text: str) -> str | None:
    """The formula delimiter (`\\(`, `\\[` or `$$`) that a text shows as characters outside
    code and its own formulas, where an LMS's MathJax would typeset what follows as TeX that
    quizbank never checked; None when it shows none."""
    if ("\\" not in text and "$" not in text and "&" not in text) or (
        _MAY_SHOW_OPENER.search(text) is None
    ):
        return None  # nearly every text: no backslash, `$$` or entity of either to show one
    for token in _tokens(text, True):
        if token.type != "inline":  # code blocks and displayed formulas are no words
            continue
        words = "".join(
            child.content if child.type in _WORDS else "" if child.type in _JOINED else "\n"
            for child in walk(token.children or (), into_images=False)
        )
        if found := _MATHJAX_OPENER.search(words):
            return found[0]
    return None


_WORDS = frozenset({"text", "text_special"})


def walk(tokens: Sequence[Token], *, into_images: bool = True) -> list[Token]:
    """Tokens and their children, depth first; an image's alt text (its children) is not
    rendered as images, so `into_images=False` leaves it out."""
    return [
        t
        for token in tokens
        for t in (
            token,
            *(
                walk(token.children or (), into_images=into_images)
                if into_images or token.type != "image"
                else ()
            ),
        )
    ]


def _without_at_at(html: str) -> str:
    """`@@` as character references (see to_html)."""
    return html.replace("@@", "&#64;&#64;") if "@@" in html else html


# Links of every scheme, to find those that the exports show as text (`safe_link`).
_ANY_LINK = with_maths(MarkdownIt("commonmark", {"html": False}).enable(["table", "strikethrough"]))
_ANY_LINK.validateLink = _any_path  # type: ignore[method-assign]


# Where a text may hold a link whose destination is not written after `](`: a reference
# definition (`[x]: dest`) or an autolink (`<scheme:…>`).
_MAY_LINK_ELSEWHERE = re.compile(r"\]:|<[A-Za-z][A-Za-z0-9+.-]{1,31}:")
_INLINE_DESTINATION = re.compile(r"\]\(\s*<?([^\s)>]*)")
_SAFE_DESTINATION = re.compile(r"(?i:https?://|mailto:)[^\\&%]*$")


@lru_cache(maxsize=1024)
def unlinked(text: str) -> tuple[str, ...]:
    """The destinations, as written, of the links Markdown reads in a text (autolinks and
    reference definitions too) that every export shows as text: not http(s) or mailto."""
    if "]" not in text and "<" not in text:
        return ()  # nearly every text: no link of any kind
    if not _MAY_LINK_ELSEWHERE.search(text) and all(
        _SAFE_DESTINATION.match(found) for found in _INLINE_DESTINATION.findall(text)
    ):
        return ()  # no link, or only inline links to http(s) or mailto: nothing to parse
    env: EnvType = {}
    tokens = walk(_ANY_LINK.parse(text, env), into_images=False)
    hrefs = [str(t.attrGet("href") or "") for t in tokens if t.type == "link_open"]
    hrefs += [str(ref.get("href", "")) for ref in env.get("references", {}).values()]
    return tuple(dict.fromkeys(_ANY_LINK.normalizeLinkText(h) for h in hrefs if not safe_link(h)))


# Every renderer asks for the same texts of a quiz (a page, an export, an XML file), some as
# blocks and some inline: one parse gives both, and the last few thousand texts are kept.
@lru_cache(maxsize=8192)
def _rendered(text: str, lang: str, math: MathStyle) -> tuple[str, str | None]:
    """The text's HTML, and the inside of its paragraph if it is exactly one paragraph."""
    if _just_words(text):  # the commonest text: one piece, escaped (isolated in Urdu)
        inside = _isolate_latin(text, lang) if is_rtl(lang) else escapeHtml(text)
        return _paragraph(_without_at_at(inside))
    pieces = _plain_pieces(text)
    if pieces is not None:
        return _paragraph(_without_at_at(_render_pieces(pieces, lang)))
    if (blocks := _plain_blocks(text, lang)) is not None:
        return _without_at_at(blocks), None
    block, paragraph = _parsed(text, lang, math)
    return _without_at_at(block), None if paragraph is None else _without_at_at(paragraph)


def _parsed(text: str, lang: str, math: MathStyle) -> tuple[str, str | None]:
    md = _PARSERS[is_rtl(lang), math]
    env: EnvType = {"lang": lang}
    if one_line_paragraph(text):
        return _paragraph(md.renderer.render(md.parseInline(text, env), md.options, env))
    tokens = md.parse(text, env)
    block: str = md.renderer.render(tokens, md.options, env).strip()
    if [t.type for t in tokens] != ["paragraph_open", "inline", "paragraph_close"]:
        return block, None
    env["images"] = 0  # its images are numbered from the first again
    paragraph: str = md.renderer.render(tokens[1:2], md.options, env).strip()
    return block, paragraph


def _paragraph(inside: str) -> tuple[str, str]:
    return f"<p>{inside}</p>", inside


# What can open a block other than a paragraph on the first line of a text (a heading, quote,
# list, rule, fence, table, reference or indented code); a line after it could end a paragraph.
_BLOCK_OPENER = re.compile(r"[#>\-+*=_|~`\[<0-9 \t]")


def one_line_paragraph(text: str) -> bool:
    """True if Markdown surely reads the text as one paragraph of that one line, as it is: then
    only its inline syntax needs parsing."""
    return (
        bool(text)
        and text == text.strip()
        and not _BLOCK_OPENER.match(text)
        and not _CODE_BREAK.search(text)
    )


@lru_cache(maxsize=1024)
def _inline_only(text: str, lang: str, math: MathStyle) -> str:
    html: str = _PARSERS[is_rtl(lang), math].renderInline(text, {"lang": lang})
    return _without_at_at(html.strip())


@lru_cache(maxsize=8192)  # every format names each question by its prompt's plain text
def to_plain(text: str, *, images: bool = True) -> str:
    """Markdown source to plain text, for places that take no markup (titles, names).

    Words and single spaces: a block, line break, list item or table cell is a space, an ordered
    list item keeps the number a reader sees, and nothing is glued or padded. One line is read as
    inline Markdown only (`# of GPUs` stays as written); a text of no words is given as written,
    its whitespace collapsed. An image is its alt text; without `images`, it is left out unless
    the text has no other words (a question's name is its words, not its diagram's).
    """
    pieces = _plain_pieces(text)
    if pieces is not None:
        words = " ".join("".join(c for kind, c in pieces if kind in ("text", "code")).split())
    else:
        words = _words(text, images) or (_words(text, True) if not images else "")
    return words or " ".join(text.split())


def _words(text: str, images: bool) -> str:
    """The words of a text that is not a plain paragraph, single-spaced; an image's alt text
    among them if `images`."""
    if not _LINE_END.search(text):  # one line: its inline content is all there is
        words = [
            child.content
            for token in _PARSERS[False, "mathml"].parseInline(text)
            for child in walk(token.children or (), into_images=images)
            if child.type in _PLAIN_CONTENT
        ]
    else:
        words = _block_words(text, images)
    return " ".join("".join(words).split())


def plain_label(text: str, lang: str) -> str:
    """Markdown source as a label that holds no markup (a drop-down's choice, a match's answer):
    its plain text (`to_plain`). In a right-to-left language, each Latin run and each formula's
    TeX is put between LEFT-TO-RIGHT ISOLATE and POP DIRECTIONAL ISOLATE, as `<bdi>` isolates
    them in HTML: else `loss.backward()` shows as `()loss.backward`."""
    plain = to_plain(text)
    if not is_rtl(lang):
        return plain
    out: list[str] = []
    at = 0
    for tex, _ in find_formulas(text):
        tex = " ".join(tex.split())  # as to_plain gives it
        found = plain.find(tex, at)
        if found >= 0:
            out += [_isolated_runs(plain[at:found]), LRI, tex, PDI]
            at = found + len(tex)
    out.append(_isolated_runs(plain[at:]))
    return "".join(out)


def _isolated_runs(plain: str) -> str:
    """Plain text with each Latin run between LRI and PDI."""
    out: list[str] = []
    last = 0
    for start, end in latin_runs(plain):
        out += [plain[last:start], LRI, plain[start:end], PDI]
        last = end
    return "".join(out) + plain[last:]


def _block_words(text: str, images: bool = True) -> list[str]:
    """The words of a text of several lines, with a space wherever blocks and lines meet."""
    words: list[str] = []
    numbers: list[int] = []  # the next number of each ordered list open around the token
    for token in _PARSERS[False, "mathml"].parse(text):
        if token.type == "inline":
            words.extend(
                _BREAK if c.type in _BREAKS else c.content
                for c in walk(token.children or (), into_images=images)
                if c.type in _PLAIN_CONTENT or c.type in _BREAKS
            )
        elif token.type in ("code_block", "fence", "math_block"):
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
# The inline tokens whose content is words: text (an image's alt text too), code, formulas' TeX.
_PLAIN_CONTENT = frozenset({"text", "text_special", "code_inline", *_MATH_TOKENS})
_LINE_END = re.compile(r"[\r\n]")


# The fast path. Most texts are one line of words with, at most, `code` spans, **strong** or
# *emphasised* words and links to web pages: markdown-it renders such a text as one paragraph of
# its escaped text, code, emphasis and links, and so does `_render_pieces`, some twenty times
# faster. Anything else (a character that can start other Markdown syntax, a line break, a line
# that could start a list, emphasis that is not plainly words between spaces or punctuation, a
# link whose text or address is not plain) goes to markdown-it.
# tests/test_markup_fast_path.py compares both on every text it can think of.
_SYNTAX = re.compile(r"[\\`~_\[\]<>&#|$\x00\r\n]")
_BLOCK_START = re.compile(r"[-+]|[0-9]{1,9}[.)]")
_CODE_BREAK = re.compile(r"[\x00\r\n]")
_EMPHASIS = {1: "em", 2: "strong"}
# `[words](https://host/path)`, not after `!` (an image): words with no syntax and no emphasis,
# an address that markdown-it's normalisation and escaping leave as it is.
_PLAIN_LINK = re.compile(
    r"(?<!!)\[([^\\`~_\[\]<>&#|$*\x00\r\n]+)\]\((https?://[a-z0-9.-]+(?:/[A-Za-z0-9._/-]*)?)\)"
)

# (kind, content): kind is "text", "code", "link" with its address as content, or
# "open"/"close" with the tag as content.
Piece = tuple[str, str]


def is_plain_paragraph(text: str) -> bool:
    """True for one line of words, `code` spans and plain emphasis, with nothing that Markdown
    could read as a block, raw HTML, a link, an entity or an escape: such a text is a paragraph
    of itself, and a renderer that guards Markdown source can pass it through as it is."""
    pieces = _plain_pieces(text)
    return pieces is not None and all(kind != "link" for kind, _ in pieces)


@lru_cache(maxsize=8192)
def _plain_pieces(text: str) -> tuple[Piece, ...] | None:
    """A one-line paragraph of text, `code` spans, emphasis and links as markdown-it tokenises
    it; None for any other text."""
    if not text or text != text.strip() or _BLOCK_START.match(text):
        return None
    if "`" not in text:
        found = _linked_pieces(text, True, True)
        return None if found is None else tuple(found)
    parts = text.split("`")
    if len(parts) % 2 == 0 or "``" in text:
        return None  # an unpaired backtick, or a run of several: not the simple case
    pieces: list[Piece] = []
    last = len(parts) - 1
    for index, part in enumerate(parts):
        if index % 2 == 0:
            found = _linked_pieces(part, index == 0, index == last)
            if found is None:
                return None
            pieces += found
        else:
            if _CODE_BREAK.search(part):
                return None
            if part.startswith(" ") and part.endswith(" ") and part.strip(" "):
                part = part[1:-1]  # CommonMark drops one space on each side of such code
            pieces.append(("code", part))
    return tuple(pieces)


def _just_words(text: str) -> bool:
    """True for a text `_plain_pieces` gives as one piece of text: one line of words with no
    syntax, no emphasis, no code and no link, that cannot start a block."""
    return (
        bool(text)
        and "`" not in text
        and "*" not in text
        and not _SYNTAX.search(text)
        and text == text.strip()
        and not _BLOCK_START.match(text)
    )


def _linked_pieces(segment: str, at_start: bool, at_end: bool) -> list[Piece] | None:
    """Text between code spans, with plain links, as pieces; None if it holds other syntax.
    `at_start` and `at_end`: whether the segment starts and ends the text."""
    pieces: list[Piece] = []
    last = 0
    for link in _PLAIN_LINK.finditer(segment) if "](" in segment else ():
        before = _words_pieces(segment[last : link.start()], at_start and last == 0, False)
        if before is None:
            return None
        pieces += [*before, ("link", link[2]), ("text", link[1]), ("close", "a")]
        last = link.end()
    rest = _words_pieces(segment[last:], at_start and last == 0, at_end)
    return None if rest is None else pieces + rest


def _words_pieces(segment: str, at_start: bool, at_end: bool) -> list[Piece] | None:
    """Words and plain emphasis as pieces; None if the segment holds other syntax."""
    if _SYNTAX.search(segment):
        return None
    if "*" in segment:
        return _emphasis(segment, at_start, at_end)
    return [("text", segment)] if segment else []


def _plain_blocks(text: str, lang: str) -> str | None:
    """The HTML of a text of blocks that are each a plain one-line paragraph or a tight list of
    `- ` items that are plain lines, one blank line between blocks, as markdown-it renders it;
    None for any other text (the fast path's second case: an explanation with a list of steps)."""
    if "\n\n" not in text or "\r" in text:
        return None
    html: list[str] = []
    last_was_list = False
    for block in text.removesuffix("\n").split("\n\n"):
        lines = block.split("\n")
        is_list = lines[0].startswith("- ")
        if is_list:
            if last_was_list:
                return None  # after a blank line, the same list goes on, loose
            items = [line[2:] for line in lines if line.startswith("- ")]
            if len(items) != len(lines):
                return None
        elif len(lines) > 1:
            return None
        else:
            items = lines
        rendered = []
        for item in items:
            pieces = _plain_pieces(item)
            if pieces is None:
                return None
            rendered.append(_render_pieces(pieces, lang))
        if is_list:
            html += ["<ul>", *(f"<li>{item}</li>" for item in rendered), "</ul>"]
        else:
            html.append(f"<p>{rendered[0]}</p>")
        last_was_list = is_list
    return "\n".join(html)


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
        elif kind == "link":
            out.append(f'<a href="{escapeHtml(content)}" rel="noopener noreferrer">')
        else:
            out.append(f"<{content}>" if kind == "open" else f"</{content}>")
    return "".join(out)
