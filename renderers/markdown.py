"""Markdown export: a readable quiz for docs and repositories, the answer key in its own section.

Content is Markdown and passes through as Markdown, with guards that keep untrusted text inside
its place in the page:
- raw HTML never goes live: each `<` outside code is written `&lt;` (in CommonMark every piece of
  raw HTML starts with `<`; `>` and `&` stay as written, so blockquotes and entities render as
  they do in the HTML export). The result is parsed again and, should any HTML remain, every `<`
  is escaped, code included;
- a code fence left open is closed at the end of its own text, so it cannot swallow the page;
- the first paragraph of a prompt or an option sits on its numbered heading or lettered list
  line, so a leading `#`, `1.` or `-` stays text; any further blocks follow, inside the item.
Right-to-left languages are wrapped in `<div dir="rtl" lang="…">` with blank lines inside, so
hosts such as GitHub still render the Markdown within. Inside it, each code span, safe autolink
and run of Latin script (the runs the HTML export isolates, `quizbank.markup.latin_runs`) is
put between U+2066 LEFT-TO-RIGHT ISOLATE and U+2069 POP DIRECTIONAL ISOLATE, outside the
backticks, so that `state_dict()` does not show as `()state_dict` and `8 GPUs` as `GPUs 8`; a
code span that holds a right-to-left letter (`سیڈ`) between U+2068 FIRST STRONG ISOLATE and
U+2069, so that it is not drawn reversed. The answer key's headings of a right-to-left page open
with the language's word for question (`### سوال 7: 4`), or GitHub's `dir="auto"` would lay out
one with no right-to-left letter (`### 7. 4`) left to right.
Characters, not `<bdi>`: GitHub's sanitizer drops `<bdi>` (its allowed tags have `bdo`, not
`bdi`), a host with raw HTML off would show it as text, and the page would no longer be free of
HTML of its own; the characters work in any renderer, editor and plain-text view, and also keep
GitHub's `dir="auto"` paragraphs right-to-left when they open with Latin text. The isolates go
only where they change nothing Markdown reads: never in fenced or indented code, a link's
destination, a reference's label, an entity or a line's block mark, nor next to a `*`, `_` or
`~` whose opening or closing they would change; the page's own labels and numbers are not
isolated. Left-to-right pages get no isolates and no extra work.

Interface strings ("Answer key", "3 questions", True/False) come from quizbank's gettext catalogs.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.common.utils import isPunctChar, isWhiteSpace
from markdown_it.token import Token
from markdown_it.utils import EnvType
from pydantic import BaseModel, Field

from quizbank.i18n import (
    format_number,
    gettext_for,
    level_name,
    ngettext_for,
    word_limits_message,
)
from quizbank.images import elsewhere
from quizbank.locales import is_rtl, option_label, option_letter, option_list
from quizbank.markup import (
    FSI,
    LRI,
    PDI,
    is_plain_paragraph,
    latin_runs,
    safe_link,
    to_plain,
    walk,
)
from quizbank.model import (
    GAP,
    ChoiceGap,
    Cloze,
    Essay,
    Gap,
    Matching,
    MultipleChoice,
    Numerical,
    NumericalGap,
    Ordering,
    Question,
    Quiz,
    RangeVariable,
    Section,
    ShortAnswer,
    ShortAnswerGap,
    SingleChoice,
    TrueFalse,
)
from quizbank.renderer import (
    OutputFile,
    QuizTranslations,
    Renderer,
    RendererOptions,
    image_files,
)
from quizbank.scramble import scrambled_order
from quizbank.variables import variant_question, variants

# GitHub's dialect for structure (tables too); HTML on, so that leftover HTML is detectable.
_MD = MarkdownIt("commonmark", {"html": True}).enable(["table", "strikethrough"])
# The same parser without inline parsing: block tokens (type, level, map, markup) are the same,
# for the checks that only look at the blocks of a text.
_BLOCKS = MarkdownIt("commonmark", {"html": True}).enable(["table", "strikethrough"])
_BLOCKS.disable("inline")
_SPECIAL = re.compile(r"\\.|`+|<", re.DOTALL)
# A formula as quizbank reads it (pandoc's rule for `$`, see quizbank.markup): `$$…$$`, or `$…$`
# with no space just inside either `$` and no digit just after the closing one.
_FORMULA = (
    r"\$\$(?:\\[\s\S]|[^\\$])+?\$\$"
    r"|\$(?![\s$])(?:\\[\s\S]|[^\\$])*?(?<!\s)\$(?![0-9])"
)
# An autolink that the HTML export links too (`safe_link`: http://, https:// or mailto:).
_SAFE_AUTOLINK = re.compile(r"<(?:https?://|mailto:)[^\s<>]*>", re.IGNORECASE)
_CLOSING_HASHES = re.compile(r"(?<=\s)(#+[ \t]*)$")
_LINK_TEXT_BRACKET = re.compile(r"(?<!\\)([\[\]])")
# Markdown reads a fence only where three backticks or tildes open it, raw HTML only from a `<`.
_GUARDED = re.compile(r"<|```|~~~")
# A line that opens with a bullet after spaces or tabs (markdown-it ends lines at \n, \r\n, \r).
_BULLET_LINE = re.compile(r"(?:\A|[\r\n])[ \t]*[-+*]")
_LINE_BLOCKS = ("heading_open", "bullet_list_open", "ordered_list_open", "blockquote_open")


class MarkdownOptions(RendererOptions):
    answers: bool = Field(
        True,
        description="Add the answer key with explanations; "
        "-O answers=false leaves the key out: a copy for learners.",
    )


@lru_cache(maxsize=1024)
def _blocks(text: str) -> tuple[Token, ...]:
    """The block tokens of a text (inline tokens have no children), parsed once per text.

    Shared between callers: read them, never change them."""
    return tuple(_BLOCKS.parse(text))


def _has_html(text: str) -> bool:
    """True if markdown-it reads raw HTML (a block or inline) anywhere in the text."""
    if "<" not in text:
        return False  # every piece of raw HTML, block or inline, starts with `<`
    return any(t.type in ("html_block", "html_inline") for t in walk(_MD.parse(text)))


def _escape_lt(segment: str) -> str:
    """Write `<` as `&lt;` outside code spans and backslash escapes; keep safe autolinks."""
    return _outside_code(segment, _SPECIAL, _lt_or_autolink)


def _lt_or_autolink(segment: str, at: int) -> tuple[str, int]:
    link = _SAFE_AUTOLINK.match(segment, at)
    return (link.group(), link.end()) if link else ("&lt;", at + 1)


def _outside_code(
    text: str, special: re.Pattern[str], rewrite: Callable[[str, int], tuple[str, int]]
) -> str:
    """`text` with each match of `special` (one character) outside code spans and backslash
    escapes replaced as `rewrite(text, where)` says: the replacement and where to go on."""
    out: list[str] = []
    pos = 0
    while found := special.search(text, pos):
        end = found.end()
        if found.group().startswith("`"):
            ticks = re.escape(found.group())
            closing = re.compile(f"(?<!`){ticks}(?!`)").search(text, end)
            end = closing.end() if closing else end
        elif not found.group().startswith("\\"):
            replacement, end = rewrite(text, found.start())
            out.append(text[pos : found.start()] + replacement)
            pos = end
            continue
        out.append(text[pos:end])
        pos = end
    return "".join(out) + text[pos:]


def _close_fence(text: str) -> str:
    """Close a top-level code fence that runs to the end of the text."""
    top = [t for t in _blocks(text) if t.level == 0]
    if not (top and top[-1].type == "fence" and top[-1].map):
        return text
    fence, (start, end) = top[-1].markup, top[-1].map
    closing = re.compile(rf" {{0,3}}{re.escape(fence[0])}{{{len(fence)},}}[ \t]*")
    if any(closing.fullmatch(line) for line in text.split("\n")[start + 1 : end]):
        return text
    return f"{text.rstrip()}\n{fence}"


@lru_cache(maxsize=16384)
def safe_markdown(text: str) -> str:
    """Content Markdown as it may appear in the page: no live HTML, no open fence, and no link,
    image, autolink or reference definition that the HTML export would not link."""
    if is_plain_paragraph(text):
        return text  # one line of words, code and emphasis: nothing to guard, no parse needed
    if "\r" in text:  # lines end at \r\n and \r too: as \n, the line numbers of the tokens
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    text = text.strip("\n")
    if "$" in text and "<" in text:
        text = _outside_code(text, _DOLLAR, _formula_without_lt)
    if _GUARDED.search(text):
        text = _close_fence(text)
        escaped = _without_html(text)
    else:
        escaped = text  # no fence to close, no `<` to escape
    if "<" not in escaped and not _may_have_unsafe_links(escaped):
        return escaped  # no HTML, no autolink, no link or reference that can go elsewhere
    html, unsafe = _live(escaped)
    if html:  # a `<` the guard took for code is HTML: every `<` escaped, code included
        escaped = text.replace("<", "&lt;")
        html, unsafe = _live(escaped)
    if unsafe:
        escaped = _outside_code(escaped, _BRACKET, lambda text, at: ("\\[", at + 1))
        html, unsafe = _live(escaped)
    if html or unsafe:
        # The guards took for code a run of backticks that Markdown does not (a code span
        # cannot cross blocks or table cells): every `<` and `[` escaped, code included.
        escaped = _EVERY_BRACKET.sub(r"\1\\[", escaped.replace("<", "&lt;"))
    return escaped


_DOLLAR = re.compile(r"\\.|`+|\$", re.DOTALL)
_FORMULA_AT = re.compile(_FORMULA)


def _formula_without_lt(text: str, at: int) -> tuple[str, int]:
    """The formula that opens at `at` with each `<` as TeX's `\\lt`: as `&lt;` a formula
    would show the entity, and as `<` a host without maths would read HTML."""
    formula = _FORMULA_AT.match(text, at)
    if formula is None:
        return "$", at + 1
    return formula.group().replace("<", "\\lt "), formula.end()


def _without_html(text: str) -> str:
    """`<` escaped outside fences and indented code, and outside code spans in each run of lines
    that no blank line or code interrupts."""
    return _in_text_lines(text, _escape_lt)


def _in_text_lines(text: str, rewrite: Callable[[str], str]) -> str:
    """The text with each run of lines that no blank line, fence or indented code interrupts
    (where code spans can wrap) as `rewrite` makes it; code blocks and blank lines as written."""
    code = {
        n
        for t in _blocks(text)
        if t.type in ("fence", "code_block") and t.map
        for n in range(*t.map)
    }
    out: list[str] = []
    segment: list[str] = []  # lines of one paragraph-like run, where code spans can wrap
    for number, line in enumerate(text.split("\n")):
        if number in code or not line.strip():
            out += [rewrite("\n".join(segment))] if segment else []
            out.append(line)
            segment = []
        else:
            segment.append(line)
    out += [rewrite("\n".join(segment))] if segment else []
    return "\n".join(out)


# Links of every scheme, so that the ones the HTML export would not link can be found.
_ANY_LINK = MarkdownIt("commonmark", {"html": True}).enable(["table", "strikethrough"])
_ANY_LINK.validateLink = lambda url: True  # type: ignore[method-assign]
_BRACKET = re.compile(r"\\.|`+|\[", re.DOTALL)
# A `[` that no backslash escapes (an even run of backslashes escapes only themselves).
_EVERY_BRACKET = re.compile(r"(?<!\\)((?:\\\\)*)\[")


def _live(text: str) -> tuple[bool, bool]:
    """Whether Markdown reads raw HTML in the text, and whether it reads a link, image, autolink
    or reference definition to anything but http(s) or mailto (as `safe_link` says). A
    definition counts even if no link of this text uses it: a link elsewhere in the page can."""
    env: EnvType = {}
    tokens = walk(_ANY_LINK.parse(text, env))
    html = any(token.type in ("html_block", "html_inline") for token in tokens)
    hrefs = [str(token.attrGet("href") or "") for token in tokens if token.type == "link_open"]
    hrefs += [str(reference.get("href", "")) for reference in env.get("references", {}).values()]
    images = [str(token.attrGet("src") or "") for token in tokens if token.type == "image"]
    return html, not (all(map(safe_link, hrefs)) and all(map(_image_beside, images)))


def _image_beside(src: str) -> bool:
    """An image's path relative to the page, which the export copies beside it (the checks
    refused any other); anything with a scheme or from the root is not linked."""
    return not (elsewhere(src) or src.startswith(("/", "\\")))


# Where a link or image written inline (`](`) goes, as far as a glance can tell.
_INLINE_DESTINATION = re.compile(r"\]\(\s*<?(?!(?:https?://|mailto:)[^\s&%\\]*[\s)>])")


def _may_have_unsafe_links(text: str) -> bool:
    """False when every link is inline and plainly goes to http(s) or mailto, with no image or
    reference definition: then no parse is needed."""
    return "[" in text and (
        "]:" in text or "![" in text or _INLINE_DESTINATION.search(text) is not None
    )


def _without_hard_break(line: str) -> str:
    trailing = len(line) - len(line.rstrip("\\"))
    return line[:-1] if trailing % 2 else line


@lru_cache(maxsize=16384)
def lead_and_rest(text: str) -> tuple[str, str]:
    """Safe Markdown split into the line that leads it and the blocks after that line.

    The lead is the first paragraph, joined into one line, or a first line that only Markdown
    would read as a heading, list or quote (`# of GPUs`, `1. Which…`): on a heading or item line
    it stays text. A text that opens with code or a table has no lead.
    """
    if is_plain_paragraph(text):
        return text, ""  # a paragraph of one line is all lead
    text = safe_markdown(text)
    lines = text.split("\n")
    first = _blocks(text)[:1]
    if not (first and first[0].map and first[0].map[0] == 0):
        return "", text
    end = first[0].map[1]
    one_line = not any(line.strip() for line in lines[1:end])
    if first[0].type != "paragraph_open" and not (
        first[0].type in _LINE_BLOCKS and one_line and not _holds_code(text, end)
    ):
        return "", text
    parts = [line.strip() for line in lines[:end] if line.strip()]
    lead = " ".join([*map(_without_hard_break, parts[:-1]), parts[-1]])  # line breaks: spaces
    return _CLOSING_HASHES.sub(r"\\\1", lead), "\n".join(lines[end:]).strip("\n")


def _holds_code(text: str, end: int) -> bool:
    """True if code starts before line `end`: in an item or quote on the first line (`-     x`,
    `>     x`) it is code, with its `<` and links as written; on a heading line it would not be."""
    return any(
        t.type in ("code_block", "fence") and t.map and t.map[0] < end for t in _blocks(text)
    )


def _may_list_at_edge(text: str, *, last: bool) -> bool:
    """False when no top-level list can end (or open) the text. A list needs a line that opens
    with a bullet; one that opens the text comes after nothing but blank lines and link reference
    definitions (they make no token), so the text's first character is a bullet or `[`."""
    if last:
        return _BULLET_LINE.search(text) is not None
    return text.lstrip()[:1] in ("-", "+", "*", "[")


def _edge_bullet(text: str, *, last: bool) -> str:
    """The bullet of the top-level list that ends (or opens) the text; "" if no list does."""
    if not _may_list_at_edge(text, last=last) or is_plain_paragraph(text):
        return ""  # no list at that edge
    top = [t for t in _blocks(text) if t.level == 0]
    kind = "bullet_list_close" if last else "bullet_list_open"
    return top[-1 if last else 0].markup if top and top[-1 if last else 0].type == kind else ""


# --- right-to-left pages: code and Latin runs isolated --------------------------------------

_LRI, _FSI, _PDI = LRI, FSI, PDI  # LEFT-TO-RIGHT / FIRST STRONG ISOLATE … POP DIRECTIONAL ISOLATE
# What a text needs looked at before any isolation: Latin letters or digits, or code.
_LATIN_OR_CODE = re.compile(r"[A-Za-z0-9`]")
# Lines that may be fenced or indented code (in a list item or quote too): only then are the
# blocks of a text parsed to leave them as they are.
_MAY_HOLD_CODE_BLOCK = re.compile(r"```|~~~|    |\t")
_ESCAPE = r"\\[\s\S]"
# A link's destination (and title) that no reading can take for anything else: after a text
# in brackets, a link for sure, whose text can be isolated. After any other bracketed text,
# the text may be a reference's label (`[ref](> x` links to `[ref]: …`): it stays as written.
_PLAIN_DESTINATION = (
    r"""\((?:<[^<>\n\\]*>|[^\s()<>\\]+(?:\([^\s()<>\\]*\)[^\s()<>\\]*)*)(?: +"[^"\\\n]*")?\)"""
)
# What isolation finds in guarded Markdown from left to right: a run of backticks (a code
# span's opening), a backslash escape, a safe autolink (the guard escaped any other `<`), `_`;
# and what must stay as written: an entity, a bracketed text that is not a link's for sure
# (a reference's label must match its definition's) up to a `](` after it, or with the
# destination after `]:` of a definition, and what follows `](`: its balanced parentheses, or
# all the rest when they are not.
_ISOLATION = re.compile(
    r"(?P<ticks>`+)"
    r"|(?P<escape>\\[!-/:-@\[-`{-~])"
    rf"|(?P<formula>{_FORMULA})"
    r"|(?P<autolink><(?i:https?://|mailto:)[^\s<>]*>)"
    r"|(?P<underscore>_)"
    r"|&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});"
    rf"|\]\((?:{_ESCAPE}|\((?:{_ESCAPE}|\((?:{_ESCAPE}|[^\\()])*\)|[^\\()])*\)|[^\\()])*\)"
    r"|\]\([\s\S]*"
    rf"|\[(?:{_ESCAPE}|[^\\\[\]])*"
    rf"(?:(?=\](?!{_PLAIN_DESTINATION})\()|\](?!\()(?::[ \t]*\n?[^\n]*)?)"
)
_ISOLATION_STARTS = re.compile(r"[`\\<_&\[\]$]")  # where anything `_ISOLATION` finds starts
# The block marks that open a line (`1.` of an ordered list, in a quote or list item too): as
# written, never in a run. None of their characters opens anything `_ISOLATION` finds.
_LINE_MARKS = re.compile(r"^[ \t]*(?:(?:>|(?:[-+*]|[0-9]{1,9}[.)])(?=[ \t]|$))[ \t]*)+", re.M)
_MARK_STARTS = frozenset(" \t>-+*0123456789")
# Escaped characters that a Latin run may hold (`snake\_case`, `v1\.2`): in a run, each
# escape counts as its character twice, so a run never ends between the backslash and it.
_IN_RUN = frozenset("_.,:/+=%-")
_MASK = "\x00"  # ends every Latin run: stands in for what the runs must not hold
_EMPHASIS_MARKS = frozenset("*_~")  # emphasis and strikethrough


def _isolated(text: str, rtl: bool) -> str:
    """Guarded Markdown as a right-to-left page shows it (see `_isolate`); as it is otherwise."""
    return _isolate(text) if rtl and _LATIN_OR_CODE.search(text) else text


@lru_cache(maxsize=16384)
def _isolate(text: str) -> str:
    """Each code span, safe autolink and Latin run (as the HTML export finds them) between
    LEFT-TO-RIGHT ISOLATE and POP DIRECTIONAL ISOLATE, outside the backticks; fenced and
    indented code, link destinations, references, entities and block marks as written."""
    if not _MAY_HOLD_CODE_BLOCK.search(text):
        return _isolate_lines(text)
    return _in_text_lines(text, _isolate_lines)


def _isolate_lines(text: str) -> str:
    """`_isolate` for lines with no code block among them."""
    masked: list[str] = []  # the text as Latin runs are looked for in it, of the same length
    spans: list[tuple[int, int, str]] = []  # code spans, autolinks and Latin runs to isolate
    pos = at = 0
    while candidate := _ISOLATION_STARTS.search(text, at):
        found = _ISOLATION.match(text, candidate.start())
        if found is None:
            at = candidate.end()
            continue
        start, end = found.span()
        kind = found.lastgroup
        if kind == "ticks":  # a code span if a run of as many backticks closes it
            closing = _closing_ticks(end - start).search(text, end)
            if closing:
                end = closing.end()
            # (an escaped backtick before: isolates would split a run of backticks)
            if closing and text[start - 1 : start] != "`" and _keeps_flanking(text, start, end):
                spans.append((start, end, _code_isolate(text[start:end])))
        elif kind in ("autolink", "formula") and _keeps_flanking(text, start, end):
            spans.append((start, end, _LRI))
        elif kind == "escape" and text[end - 1] in _IN_RUN:
            masked += [text[pos:start], text[end - 1] * 2]
            pos = at = end
            continue
        elif kind == "underscore" and _inert(text, start):
            masked += [text[pos:start], "_"]  # in a word (`state_dict`): part of the run
            pos = at = end
            continue
        elif kind is None and "`" in found.group():
            return text  # a backtick that may open code where Markdown reads no link: as written
        masked += [text[pos:start], _MASK * (end - start)]
        pos = at = end
    masked.append(text[pos:])
    runs = "".join(masked)
    if text[:1] in _MARK_STARTS or "\n" in text:
        for mark in _LINE_MARKS.finditer(text):
            runs = runs[: mark.start()] + _MASK * len(mark.group()) + runs[mark.end() :]
    for start, end in latin_runs(runs):  # as the HTML export finds them
        if not _keeps_flanking(text, start, end):  # `**f()**x`: the run ends at `f`
            while not (text[end - 1].isascii() and text[end - 1].isalnum()):
                end -= 1  # (a backslash and what it escapes go together)
        spans.append((start, end, _LRI))
    spans.sort()
    out: list[str] = []
    pos = 0
    for start, end, isolate in spans:
        out += [text[pos:start], isolate, text[start:end], _PDI]
        pos = end
    return "".join(out) + text[pos:]


# A right-to-left letter (Hebrew, Arabic and their presentation forms), bidi class R or AL.
_RTL_LETTER = re.compile("[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]")


def _code_isolate(code: str) -> str:
    """How a code span is isolated: left to right, or, when it holds a right-to-left letter
    (an Urdu accepted answer, `اسٹیٹ*ڈکٹ`), by its first strong character (FIRST STRONG
    ISOLATE), so that it is not drawn reversed."""
    return _FSI if _RTL_LETTER.search(code) else _LRI


@lru_cache(maxsize=64)
def _closing_ticks(count: int) -> re.Pattern[str]:
    """What closes a code span opened by `count` backticks: as many, and no more."""
    return re.compile(f"(?<!`){'`' * count}(?!`)")


def _other(char: str) -> bool:
    """Neither whitespace nor punctuation as CommonMark's emphasis rules see it: a letter, a
    digit, or a format character such as the isolates (absent, at an edge: whitespace)."""
    return bool(char) and not isWhiteSpace(ord(char)) and not isPunctChar(char)


def _space(char: str) -> bool:
    return isWhiteSpace(ord(char))


def _inert(text: str, at: int) -> bool:
    """True if the `_` at `at` can neither open nor close emphasis, whatever is put around the
    word it is in: between two letters or digits."""
    return at > 0 and _other(text[at - 1]) and _other(text[at + 1 : at + 2])


def _keeps_flanking(text: str, start: int, end: int) -> bool:
    """True if isolates around `text[start:end]` leave every `*`, `_` and `~` next to it able to
    open and close emphasis as before. An isolate counts as a letter: where a letter or digit
    was next to the mark, nothing changes; where punctuation (a backtick, `>`, `)`) was, the
    mark's other side must be whitespace."""
    if text[start - 1 : start] in _EMPHASIS_MARKS and not _other(text[start]):
        before = len(text[:start].rstrip(text[start - 1]))
        if before and not _space(text[before - 1]):
            return False
    if text[end : end + 1] in _EMPHASIS_MARKS and not _other(text[end - 1]):
        after = len(text) - len(text[end:].lstrip(text[end]))
        if after < len(text) and not _space(text[after]):
            return False
    return True


@dataclass(frozen=True)
class _Interface:
    """The interface strings of one language, looked up once."""

    true: str
    false: str
    choose_all: str
    guide: str
    answer_key: str
    answer_line: str
    fill_gaps: str
    match_how: str
    order_how: str
    item: str
    match: str
    model_answer: str
    case_sensitive: str
    wildcard: str
    arrow: str
    question: str
    draw: str
    formula: str
    variables: str
    range: str
    choices: str


@lru_cache(maxsize=32)
def _interface(lang: str) -> _Interface:
    _ = gettext_for(lang)
    return _Interface(
        true=_("True"),
        false=_("False"),
        choose_all="*" + _("Choose all that apply.") + "*",
        guide=_("Guide: %(link)s"),
        answer_key="## " + _("Answer key"),
        answer_line=f"{_('Answer')}: {_BLANK_LINE}",
        fill_gaps="*" + _("Fill in the gaps.") + "*",
        # Translators: under a matching question's table of items and matches, on paper.
        match_how="*" + _("Write the letter of each item's match.") + "*",
        # Translators: under an ordering question's numbered items, on paper.
        order_how="*" + _("Write the numbers in the right order.") + "*",
        # Translators: the heads of a matching question's table: what is matched, and the
        # matches to choose from.
        item=_("Item"),
        match=_("Match"),
        model_answer=_("Model answer"),
        # Translators: in the answer key of a short-answer question whose answers must be
        # typed in the same case (safetensors, not SafeTensors).
        case_sensitive="*" + _("Capital and small letters must match.") + "*",
        # Translators: in the answer key of a short-answer question; %(star)s is `*`.
        wildcard="*" + _("%(star)s stands for any run of characters.") % {"star": "`*`"} + "*",
        arrow="←" if is_rtl(lang) else "→",
        # Translators: a heading of the Markdown page: a question whose prompt opens with an
        # image, and, in a right-to-left language, each question of the answer key, as
        # "Question 7: 4".
        question=_("Question %(number)s"),
        # Translators: under a section's title: each attempt asks some of its questions.
        draw="*" + _("Draw %(pick)s of these %(count)s questions.") + "*",
        # Translators: in the answer key of a question whose numbers change from learner to
        # learner: the formula its answer is computed with, then its variables' values.
        formula="*" + _("Formula:") + "* %s",
        variables="*" + _("Variables:") + "* %s",
        # Translators: a variable's values, e.g. "`p` from 1 to 20 in steps of 1".
        range=_("%(name)s from %(first)s to %(last)s in steps of %(step)s"),
        # Translators: a variable's values, e.g. "`bytes` one of 2, 4".
        choices=_("%(name)s one of %(values)s"),
    )


# What a learner writes on: an answer line, a gap in a text, the lines of an essay.
_BLANK_LINE = "_" * 12
_GAP_BLANK = "_" * 8
_ESSAY_LINE = "_" * 48
_NBSP, _NARROW_NBSP = "\u00a0", "\u202f"
# Its underscores never open or close emphasis: with Unicode whitespace on both sides (before an
# author's `_`, a narrow no-break space), or, where a character follows the blank (`________.`),
# between two word joiners (invisible, neither whitespace nor punctuation to CommonMark: a run
# of `_` inside a word).
_WORD_JOINER = "\u2060"
_SPACE_AFTER = re.compile(r"[\s\u00a0\u202f]")
# A line that opens an ordered list after spaces or tabs (`1.`, `2)`).
_ORDERED_LINE = re.compile(r"(?:\A|[\r\n])[ \t]*[0-9]{1,9}[.)]")


# (label, lead, rest) of a list item: its text split as `lead_and_rest` splits it.
Choice = tuple[str, str, str]


@dataclass(frozen=True)
class _List:
    """A list of the page, its marker chosen where it is placed: unlike that of a list of the
    text beside it, so that the two stay apart."""

    items: Sequence[Choice]
    ordered: bool = False


Block = str | _List


@dataclass(frozen=True)
class _Parts:
    """What one question puts on the page beyond its number and explanation."""

    prompt: str  # the prompt as the page shows it (a cloze's gaps as numbered blanks)
    body: Sequence[Block]  # after the prompt
    answer: str  # the key's heading after the number: `B`, `0.9 ± 0.005`, `2, 3, 1`
    key: Sequence[Block]  # the key's blocks before the explanation


@dataclass(frozen=True)
class _Page:
    lang: str
    interface: _Interface
    rtl: bool = False

    def split(self, text: str) -> tuple[str, str]:
        """`lead_and_rest`, isolated on a right-to-left page."""
        lead, rest = lead_and_rest(text)
        return _isolated(lead, self.rtl), _isolated(rest, self.rtl)

    def blocks(self, text: str) -> str:
        """`safe_markdown`, isolated on a right-to-left page."""
        return _isolated(safe_markdown(text), self.rtl)


def _choice_texts(question: Question, interface: _Interface) -> list[tuple[str, str]]:
    """(id, text) of each choice; a true/false question offers True and False."""
    if isinstance(question, TrueFalse):
        return [("true", interface.true), ("false", interface.false)]
    assert isinstance(question, SingleChoice | MultipleChoice)
    return [(option.id, option.text) for option in question.options]


def _choice(question: SingleChoice | MultipleChoice | TrueFalse, page: _Page) -> _Parts:
    """Lettered options; the key gives the right letters and options."""
    lang = page.lang
    texts = _choice_texts(question, page.interface)
    choices = [(f"**{option_label(lang, n)}**", *page.split(t)) for n, (_, t) in enumerate(texts)]
    ids = [choice_id for choice_id, _ in texts]
    right = question.answer_ids
    hint = [page.interface.choose_all] if isinstance(question, MultipleChoice) else []
    letters = option_list(lang, [option_letter(lang, ids.index(choice_id)) for choice_id in right])
    key = [choice for choice_id, choice in zip(ids, choices, strict=True) if choice_id in right]
    return _Parts(question.prompt, [*hint, _List(choices)], letters, [_List(key)])


def _range(answer: float, tolerance: float, lang: str) -> str:
    """`0.9 ± 0.005`, or `3` when only the number itself is right."""
    shown = format_number(answer, lang)
    return f"{shown} ± {format_number(tolerance, lang)}" if tolerance else shown


def _numerical(question: Numerical, page: _Page) -> _Parts:
    answer = _range(question.answer_value, question.tolerance_value, page.lang)
    return _Parts(question.prompt, [page.interface.answer_line], answer, [])


def _code(text: str, lang: str) -> str:
    """Plain text as a code span, shown exactly as written (`*`, `<`, `|` and all); isolated in
    a right-to-left language, so that it is not reordered with the text around it."""
    fence = "`" * (max(map(len, re.findall("`+", text)), default=0) + 1)
    edges = text[:1] + text[-1:]
    pad = " " if "`" in edges or (text[:1] == " " and text[-1:] == " ") else ""
    code = f"{fence}{pad}{text}{pad}{fence}"
    return f"{_FSI}{code}{_PDI}" if is_rtl(lang) else code


def _accepted(answers: Sequence[str], lang: str) -> str:
    return option_list(lang, [_code(answer, lang) for answer in answers])


_WILDCARD = re.compile(r"(?<!\\)(?:\\\\)*\*")


def _accepted_notes(question: ShortAnswer | ShortAnswerGap, page: _Page) -> list[str]:
    """What a grader needs beyond the accepted answers: the case, and what `*` means."""
    notes = [page.interface.case_sensitive] if question.case_sensitive else []
    if any(_WILDCARD.search(answer) for answer in question.answer):
        notes.append(page.interface.wildcard)
    return notes


def _short_answer(question: ShortAnswer, page: _Page) -> _Parts:
    answer = _accepted(question.answer, page.lang)
    notes = _accepted_notes(question, page)
    return _Parts(question.prompt, [page.interface.answer_line], answer, notes)


def _escaped(text: str) -> str:
    """Text with every ASCII punctuation character escaped: read as it is written."""
    return re.sub(r"([!-/:-@\[-`{-~])", r"\\\1", text)


def _inline(text: str, rtl: bool) -> str:
    """A text as one line of inline Markdown that stays text on any line (in a table cell, a
    list item): its blocks joined by spaces; isolated on a right-to-left page."""
    flat = " ".join(line.strip() for line in text.splitlines() if line.strip())
    lead, rest = lead_and_rest(flat)
    if rest and flat[:1] in _PUNCTUATION:  # a fence, rule or definition: its first mark as text
        lead, rest = lead_and_rest(f"\\{flat}")
    return _isolated(lead if not rest else _escaped(to_plain(text)), rtl)


_PUNCTUATION = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
# A `|` that no backslash escapes: in a table it would end the cell.
_PIPE = re.compile(r"(?<!\\)((?:\\\\)*)\|")


def _cell(text: str, rtl: bool = False) -> str:
    """A text as a table cell: one line, every pipe escaped (code spans too: tables split rows
    at pipes before they read code)."""
    return _PIPE.sub(r"\1\\|", _inline(text, rtl))


def _table(head: tuple[str, str], rows: Sequence[tuple[str, str]]) -> str:
    lines = [f"| {_cell(head[0])} | {_cell(head[1])} |", "|---|---|"]
    lines += [f"| {left} | {right} |".replace("|  |", "| |") for left, right in rows]
    return "\n".join(lines)


def _matching(question: Matching, page: _Page) -> _Parts:
    """A table of the items, numbered, beside the matches and distractors, lettered in a fixed
    scrambled order; the key pairs them."""
    lang, interface = page.lang, page.interface
    texts = [pair.match for pair in question.pairs] + [d.text for d in question.distractors]
    order = scrambled_order(len(texts), question.id, len(question.pairs))
    letters = {index: option_letter(lang, at) for at, index in enumerate(order)}
    matches = [
        f"**{option_label(lang, at)}** {_cell(texts[index], page.rtl)}"
        for at, index in enumerate(order)
    ]
    items = [
        f"**{format_number(n, lang)}.** {_cell(pair.item, page.rtl)}"
        for n, pair in enumerate(question.pairs, 1)
    ]
    items += [""] * (len(matches) - len(items))
    head = (interface.item, interface.match)
    body = [interface.match_how, _table(head, list(zip(items, matches, strict=True)))]
    pairs = range(len(question.pairs))
    rows = [
        (items[n], f"**{option_label(lang, order.index(n))}** {_cell(texts[n], page.rtl)}")
        for n in pairs
    ]
    answer = option_list(
        lang, [f"{format_number(n + 1, lang)} {interface.arrow} {letters[n]}" for n in pairs]
    )
    return _Parts(question.prompt, body, answer, [_table(head, rows)])


def _ordering(question: Ordering, page: _Page) -> _Parts:
    """A numbered list in a fixed scrambled order; the key gives the right order."""
    order = scrambled_order(len(question.items), question.id, len(question.items))
    shown = [("", *page.split(question.items[index].text)) for index in order]
    right = [("", *page.split(item.text)) for item in question.items]
    numbers = [format_number(order.index(index) + 1, page.lang) for index in range(len(order))]
    body: list[Block] = [page.interface.order_how, _List(shown, ordered=True)]
    return _Parts(
        question.prompt, body, option_list(page.lang, numbers), [_List(right, ordered=True)]
    )


def _blanks(prompt: str, lang: str) -> str:
    """The prompt with each `[[gap]]` as its numbered blank, `(1) ________`."""
    numbers = iter(range(1, len(GAP.findall(prompt)) + 1))

    def blank(gap: re.Match[str]) -> str:
        after = gap.string[gap.end() : gap.end() + 1]
        number = f"({format_number(next(numbers), lang)}){_NBSP}"
        if not after or _SPACE_AFTER.match(after):
            return f"{number}{_GAP_BLANK}"
        if after == "_":  # the author's `_emphasis_` opens only after a space
            return f"{number}{_GAP_BLANK}{_NARROW_NBSP}"
        return f"{number}{_WORD_JOINER}{_GAP_BLANK}{_WORD_JOINER}"  # `________.`, no space

    return GAP.sub(blank, prompt)


def _gap_answer(gap: Gap, lang: str, *, long: bool) -> str:
    """A gap's answer: its accepted answers, its number, or its option's letter (with the
    option's text when `long`)."""
    if isinstance(gap, ShortAnswerGap):
        return _accepted(gap.answer, lang)
    if isinstance(gap, NumericalGap):
        return _range(gap.answer_value, gap.tolerance_value, lang)
    index = [option.id for option in gap.options].index(gap.answer)
    if long:
        return f"**{option_label(lang, index)}** {_inline(gap.options[index].text, is_rtl(lang))}"
    return option_letter(lang, index)


def _cloze(question: Cloze, page: _Page) -> _Parts:
    """Numbered blanks in the text, each choice gap's options listed under it; the key gives
    each gap's answer."""
    lang = page.lang
    gaps = [
        (f"({format_number(n, lang)})", question.gaps[g])
        for n, g in enumerate(question.gap_order, 1)
    ]
    options = [
        (label, " · ".join(_gap_option(lang, n, o.text) for n, o in enumerate(gap.options)), "")
        for label, gap in gaps
        if isinstance(gap, ChoiceGap)
    ]
    body: list[Block] = [page.interface.fill_gaps, *([_List(options)] if options else [])]
    answer = " · ".join(f"{label} {_gap_answer(gap, lang, long=False)}" for label, gap in gaps)
    key: list[Block] = [
        _List([(label, _gap_answer(gap, lang, long=True), "") for label, gap in gaps])
    ]
    notes = [
        note
        for _, gap in gaps
        if isinstance(gap, ShortAnswerGap)
        for note in _accepted_notes(gap, page)
    ]
    return _Parts(_blanks(question.prompt, lang), body, answer, key + list(dict.fromkeys(notes)))


def _gap_option(lang: str, number: int, text: str) -> str:
    return f"**{option_label(lang, number)}** {_inline(text, is_rtl(lang))}"


def _word_limits(question: Essay, lang: str) -> str:
    low, high = question.min_words, question.max_words
    message = word_limits_message(low, high, lang)
    numbers = {"min": format_number(low or 0, lang), "max": format_number(high or 0, lang)}
    return f"*{message % numbers}*" if message else ""


def _essay(question: Essay, page: _Page) -> _Parts:
    """Its word limits and lines to write on, about ten words a line; the key gives the model
    answer (the explanation). What graders are told (`grader_info`) is never shown."""
    words = question.max_words or question.min_words or 100
    lines = "\n".join([_ESSAY_LINE] * min(max(math.ceil(words / 10), 3), 15))
    body = [_word_limits(question, page.lang), lines]
    return _Parts(question.prompt, body, page.interface.model_answer, [])


# What each question type shows, by its model class (as markdown-it keys its rules by token).
_TYPES: dict[type[BaseModel], Callable[[Any, _Page], _Parts]] = {
    SingleChoice: _choice,
    MultipleChoice: _choice,
    TrueFalse: _choice,
    Numerical: _numerical,
    ShortAnswer: _short_answer,
    Matching: _matching,
    Ordering: _ordering,
    Cloze: _cloze,
    Essay: _essay,
}

_BULLETS = "-*+"
_DELIMITERS = ".)"


# The start of a line that Markdown reads as a block even at the start of a list item: a
# heading, a bullet, a quote or a number (`1. B` in an item `1. 1. B` is a list in a list).
_BLOCK_START = re.compile(r"#{1,6}(?=[ \t]|$)|[-+*](?=[ \t]|$)|>|[0-9]{1,9}(?=[.)](?:[ \t]|$))")


def _as_text(lead: str) -> str:
    """A lead that stays text at the very start of a list item: a block mark escaped."""
    start = _BLOCK_START.match(lead)
    if start is None:
        return lead
    if start.group()[:1].isdigit():
        return f"{start.group()}\\{lead[start.end() :]}"
    return f"\\{lead}"


def _item(marker: str, label: str, lead: str, rest: str) -> str:
    """A list item: the label and lead on its line, any further blocks indented inside it.

    Markdown reads a tab as reaching the next multiple of four columns: blocks with a tab are
    indented to a multiple of four (`-   **A.**`, `1.  text`), so that every tab spans the
    columns it spans on its own and code stays code."""
    gap = " " * (4 - len(marker) % 4 or 4) if "\t" in rest else " "
    item = f"{marker}{gap}{label} {lead}" if label else f"{marker}{gap}{_as_text(lead)}"
    item = item.rstrip()
    if not rest:
        return item
    indent = " " * (len(marker) + len(gap))
    indented = "\n".join(f"{indent}{line}" if line.strip() else "" for line in rest.split("\n"))
    return f"{item}\n\n{indented}"


def _list(block: _List, avoid: set[str]) -> tuple[str, str]:
    """The list as Markdown with a marker not in `avoid`, and that marker."""
    if block.ordered:
        mark = next(d for d in _DELIMITERS if d not in avoid)
        lines = [_item(f"{n}{mark}", *item) for n, item in enumerate(block.items, 1)]
    else:
        mark = next(b for b in _BULLETS if b not in avoid)
        lines = [_item(mark, *item) for item in block.items]
    return "\n".join(lines), mark


def _laid_out(blocks: Sequence[Block]) -> list[str]:
    """The blocks as Markdown: each list of the page marked unlike a list of the text before or
    after it, and ended before an indented text (which would go on inside its last item)."""
    out: list[str] = []
    before = ""  # the marker of the list that ends the block before, if it is the page's
    previous: Block = ""  # the last block that is not empty
    for at, block in enumerate(blocks):
        if not isinstance(block, _List):
            out.append(block)
            before = ""
        else:
            after = _next_block(blocks, at + 1)
            avoid = {before} | _edges(previous, last=True) | _edges(after, last=False)
            text, before = _list(block, avoid)
            out.append(text)
            if isinstance(after, str) and after[:1] in (" ", "\t"):
                out.append(_END_OF_LIST)  # an indented line after the list would go on in it
        if block:
            previous = block
    return out


def _next_block(blocks: Sequence[Block], start: int) -> Block:
    """The first block from `start` on that is not empty, or "" (found by index: slicing the
    rest of the page for each list made a long quiz take quadratic time)."""
    for index in range(start, len(blocks)):
        if blocks[index]:
            return blocks[index]
    return ""


def _edges(block: Block, *, last: bool) -> set[str]:
    """The markers of the author's lists that end (or open) a text: its bullet and delimiter."""
    if not isinstance(block, str) or (_ONE_LINE.fullmatch(block) and not _OPENS_LIST.match(block)):
        return set()  # one line that opens no list (most prompts): no list at either edge
    return {_edge_bullet(block, last=last), _edge_delimiter(block, last=last)} - {""}


# A text of one line, and a line that opens a top-level list (a bullet or a number after at most
# three spaces): a line that does not is no list, at either edge.
_ONE_LINE = re.compile(r"[^\r\n]*")
_OPENS_LIST = re.compile(r" {0,3}(?:[-+*]|[0-9]{1,9}[.)])(?:[ \t]|$)")


def _may_ordered_at_edge(text: str, *, last: bool) -> bool:
    """False when no top-level ordered list can end (or open) the text (see
    `_may_list_at_edge`)."""
    if last:
        return _ORDERED_LINE.search(text) is not None
    return text.lstrip()[:1] in ("[", *"0123456789")


def _edge_delimiter(text: str, *, last: bool) -> str:
    """The delimiter (`.` or `)`) of the ordered list that ends (or opens) the text, or ""."""
    if not _may_ordered_at_edge(text, last=last) or is_plain_paragraph(text):
        return ""
    top = [t for t in _blocks(text) if t.level == 0]
    kind = "ordered_list_close" if last else "ordered_list_open"
    return top[-1 if last else 0].markup if top and top[-1 if last else 0].type == kind else ""


def _header(quiz: Quiz, page: _Page) -> list[str]:
    """The title, description, level and question count, and the guide's link."""
    count = len(quiz.questions)
    questions = ngettext_for(quiz.lang)("%(number)s question", "%(number)s questions", count)
    questions %= {"number": format_number(count, quiz.lang)}
    blocks = [f"# {page.split(quiz.title)[0]}", page.blocks(quiz.description)]
    blocks.append(f"{level_name(quiz.level, quiz.lang)} · {questions}")
    if quiz.guide:
        guide = _LINK_TEXT_BRACKET.sub(r"\\\1", page.split(quiz.guide.title)[0])
        url = str(quiz.guide.url).replace("(", "%28").replace(")", "%29")
        blocks.append(page.interface.guide % {"link": f"[{guide}]({url})"})
    return blocks


# A paragraph of one no-break space: it ends a list, so that an indented text after it is read
# as it is on its own (code stays code), and it shows as an empty line.
_END_OF_LIST = "&nbsp;"


def _sections(quiz: Quiz) -> list[tuple[Section | None, list[Question]]]:
    """The quiz's questions in its sections' order, each section with its own; or all of them
    as written, in no section."""
    if not quiz.sections:
        return [(None, list(quiz.questions))]
    by_id = {question.id: question for question in quiz.questions}
    return [(section, [by_id[qid] for qid in section.questions]) for section in quiz.sections]


def _section_head(section: Section, page: _Page) -> list[str]:
    """A section's title as a heading, and how many of its questions to draw if not all."""
    heading = [f"## {page.split(section.title)[0]}"] if section.title else []
    count = len(section.questions)
    if section.pick is None or section.pick >= count:
        return heading
    numbers = {
        "pick": format_number(section.pick, page.lang),
        "count": format_number(count, page.lang),
    }
    return [*heading, page.interface.draw % numbers]


def _shown(quiz_id: str, question: Question) -> Question:
    """The question as the page shows it: a question with variables as its first variant."""
    if isinstance(question, Numerical | Cloze) and question.variables:
        return variant_question(question, variants(quiz_id, question)[0])
    return question


def _number(value: float, lang: str) -> str:
    return format_number(int(value) if value.is_integer() else value, lang)


def _values(name: str, question: Numerical | Cloze, page: _Page) -> str:
    """A variable's values as the key shows them: its range, or the values it is drawn from."""
    assert question.variables
    variable, lang = question.variables[name], page.lang
    code = _code(name, lang)
    if isinstance(variable, RangeVariable):
        first, last, step = (_number(v, lang) for v in (variable.start, variable.to, variable.step))
        return page.interface.range % {"name": code, "first": first, "last": last, "step": step}
    shown = option_list(lang, [_number(value, lang) for value in variable.choices])
    return page.interface.choices % {"name": code, "values": shown}


def _variables_key(question: Question, page: _Page) -> list[str]:
    """In the key of a question with variables: the formula of its answer (of each numerical
    gap's), and its variables' values."""
    if not (isinstance(question, Numerical | Cloze) and question.variables):
        return []
    lang = page.lang
    if isinstance(question, Numerical):
        formulas = [_code(question.answer, lang)] if isinstance(question.answer, str) else []
    else:
        formulas = [
            f"({format_number(n, lang)}) {_code(gap.answer, lang)}"
            for n, gap_id in enumerate(question.gap_order, 1)
            for gap in (question.gaps[gap_id],)
            if isinstance(gap, NumericalGap) and isinstance(gap.answer, str)
        ]
    values = ("؛ " if page.rtl else "; ").join(
        _values(name, question, page) for name in question.variables
    )
    shown = [page.interface.formula % " · ".join(formulas)] if formulas else []
    return [*shown, page.interface.variables % values]


def render_markdown(quiz: Quiz, *, answers: bool = True) -> str:
    """One quiz as a Markdown page: questions (under their sections' titles), then (unless
    `answers` is false) the answer key. A question with variables shows its first variant; the
    key gives its formula and its variables' values too.

    One pass over the questions writes both sections, each text split only once."""
    interface = _interface(quiz.lang)
    rtl = is_rtl(quiz.lang)
    page = _Page(quiz.lang, interface, rtl)
    blocks = _header(quiz, page)
    key = [interface.answer_key] if answers else []
    level = "###" if quiz.sections else "##"  # under the sections' titles
    number = 0
    for section, questions in _sections(quiz):
        blocks += _section_head(section, page) if section else []
        for written in questions:
            number += 1
            question = _shown(quiz.id, written)
            parts = _TYPES[type(question)](question, page)
            lead, rest = page.split(parts.prompt)
            shown = format_number(number, quiz.lang)
            named = interface.question % {"number": shown}
            if lead.startswith("!["):  # a diagram first: below a heading naming the question
                blocks += [f"{level} {named}", *_laid_out([page.blocks(parts.prompt), *parts.body])]
            elif rtl and not _opens_right_to_left(lead):
                # Code or a Latin word first: `dir="auto"` would lay the heading out left to
                # right, so a word of the language opens it, as in the key.
                blocks += [f"{level} {named}: {lead}".rstrip(), *_laid_out([rest, *parts.body])]
            else:
                blocks += [f"{level} {shown}. {lead}".rstrip(), *_laid_out([rest, *parts.body])]
            if answers:
                # On a right-to-left page, a word of the language first: a host's `dir="auto"`
                # would lay out `### 7. 4` (no right-to-left letter) left to right.
                key.append(
                    f"### {named}: {parts.answer}" if rtl else f"### {shown}. {parts.answer}"
                )
                extra = [*parts.key, *_variables_key(written, page)]
                key += _laid_out([*extra, page.blocks(question.explanation)])
    body = "\n\n".join(block for block in blocks + key if block)
    if rtl:
        body = f'<div dir="rtl" lang="{quiz.lang}">\n\n{body}\n\n</div>'
    return body + "\n"


def _opens_right_to_left(text: str) -> bool:
    """Whether a text's first strongly directional character is right to left, as a host's
    `dir="auto"` finds it (isolated runs included)."""
    for character in text:
        kind = unicodedata.bidirectional(character)
        if kind in ("R", "AL"):
            return True
        if kind == "L":
            return False
    return False


class MarkdownRenderer(Renderer[MarkdownOptions]):
    name = "markdown"
    description = "A readable Markdown quiz with an answer key, for docs and repositories."
    extension = "md"
    Options = MarkdownOptions
    # A question with variables shows its first variant, its formula and variables in the key;
    # each section its title and how many of its questions to draw.
    handles_variables = True
    handles_sections = True

    def render_quiz(self, quiz: QuizTranslations) -> Iterator[OutputFile]:
        """Each language's page, and the images they show beside them, where the pages' links
        (as the author wrote them) find them."""
        yield from super().render_quiz(quiz)
        yield from image_files(quiz)

    def render(self, quiz: QuizTranslations, lang: str) -> str:
        return render_markdown(quiz[lang], answers=self.options.answers)
