"""The guards that keep an author's Markdown, untrusted, inside its place in the Markdown page.

Content is Markdown and passes through as Markdown, guarded:
- raw HTML never goes live: each `<` outside code is written `&lt;` (in CommonMark every piece of
  raw HTML starts with `<`; `>` and `&` stay as written, so blockquotes and entities render as
  they do in the HTML export). The result is parsed again and, should any HTML remain, every `<`
  is escaped, code included;
- no link, image, autolink or reference definition goes where the HTML export would not link;
- a code fence left open is closed at the end of its own text, so it cannot swallow the page;
- the first paragraph of a prompt or an option can sit on its numbered heading or lettered list
  line (`lead_and_rest`), so that a leading `#`, `1.` or `-` stays text; any further blocks
  follow, inside the item.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache

from markdown_it import MarkdownIt
from markdown_it.token import Token
from markdown_it.utils import EnvType

from quizbank.images import elsewhere
from quizbank.markup import is_plain_paragraph, one_line_paragraph, safe_link, walk

# GitHub's dialect for structure (tables too), without inline parsing: block tokens (type,
# level, map, markup) as a full parse gives them, for the checks that only look at the blocks
# of a text. HTML on, so that the blocks of raw HTML are found.
_BLOCKS = MarkdownIt("commonmark", {"html": True}).enable(["table", "strikethrough"])
_BLOCKS.disable("inline")
_SPECIAL = re.compile(r"\\.|`+|<", re.DOTALL)
# A formula as quizbank reads it (pandoc's rule for `$`, see quizbank.markup): `$$…$$`, or `$…$`
# with no space just inside either `$` and no digit just after the closing one.
FORMULA = (
    r"\$\$(?:\\[\s\S]|[^\\$])+?\$\$"
    r"|\$(?![\s$])(?:\\[\s\S]|[^\\$])*?(?<!\s)\$(?![0-9])"
)
# An autolink that the HTML export links too (`safe_link`: http://, https:// or mailto:).
_SAFE_AUTOLINK = re.compile(r"<(?:https?://|mailto:)[^\s<>]*>", re.IGNORECASE)
_CLOSING_HASHES = re.compile(r"(?<=\s)(#+[ \t]*)$")
# Markdown reads a fence only where three backticks or tildes open it, raw HTML only from a `<`.
_GUARDED = re.compile(r"<|```|~~~")
# What every code block needs: a fence's backticks or tildes, or an indentation (in a list item
# or quote too) of four spaces or a tab. Only a text with one of them is parsed to find its code.
MAY_HOLD_CODE_BLOCK = re.compile(r"```|~~~|    |\t")
_LINE_BLOCKS = ("heading_open", "bullet_list_open", "ordered_list_open", "blockquote_open")


@lru_cache(maxsize=1024)
def block_tokens(text: str) -> tuple[Token, ...]:
    """The block tokens of a text (inline tokens have no children), parsed once per text.

    Shared between callers: read them, never change them."""
    return tuple(_BLOCKS.parse(text))


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
            closing = closing_ticks(end - found.start()).search(text, end)
            end = closing.end() if closing else end
        elif not found.group().startswith("\\"):
            replacement, end = rewrite(text, found.start())
            out.append(text[pos : found.start()] + replacement)
            pos = end
            continue
        out.append(text[pos:end])
        pos = end
    return "".join(out) + text[pos:]


@lru_cache(maxsize=64)
def closing_ticks(count: int) -> re.Pattern[str]:
    """What closes a code span opened by `count` backticks: as many, and no more."""
    return re.compile(f"(?<!`){'`' * count}(?!`)")


def _close_fence(text: str) -> str:
    """Close a top-level code fence that runs to the end of the text."""
    if not MAY_HOLD_CODE_BLOCK.search(text):
        return text  # no fence
    top = [t for t in block_tokens(text) if t.level == 0]
    if not (top and top[-1].type == "fence" and top[-1].map):
        return text
    fence, (start, end) = top[-1].markup, top[-1].map
    closing = re.compile(rf" {{0,3}}{re.escape(fence[0])}{{{len(fence)},}}[ \t]*")
    if any(closing.fullmatch(line) for line in text.split("\n")[start + 1 : end]):
        return text
    return f"{text.rstrip()}\n{fence}"


def safe_markdown(text: str) -> str:
    """Content Markdown as it may appear in the page: no live HTML, no open fence, and no link,
    image, autolink or reference definition that the HTML export would not link."""
    return text if _left_as_written(text) else _guarded(text)


def _left_as_written(text: str) -> bool:
    """True when the guards surely change nothing (most texts): its lines end at `\\n` alone,
    none is empty at either end, and it has no `<`, no fence and no link that
    `_may_have_unsafe_links` cannot clear."""
    return not (
        _GUARDED.search(text) or "\r" in text or text[:1] == "\n" or text[-1:] == "\n"
    ) and not _may_have_unsafe_links(text)


@lru_cache(maxsize=16384)
def _guarded(text: str) -> str:
    """`safe_markdown` of a text that the guards may change, memoized: it may be parsed."""
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
    if _needs_no_parse(escaped):
        return escaped
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
_FORMULA_AT = re.compile(FORMULA)


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
    return in_text_lines(text, _escape_lt)


def in_text_lines(text: str, rewrite: Callable[[str], str]) -> str:
    """The text with each run of lines that no blank line, fence or indented code interrupts
    (where code spans can wrap) as `rewrite` makes it; code blocks and blank lines as written."""
    code = _code_lines(text)
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


def _code_lines(text: str) -> set[int]:
    """The numbers of the lines of fenced and indented code (from 0)."""
    if not MAY_HOLD_CODE_BLOCK.search(text):
        return set()
    return {
        n
        for t in block_tokens(text)
        if t.type in ("fence", "code_block") and t.map
        for n in range(*t.map)
    }


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


def _needs_no_parse(guarded: str) -> bool:
    """True when guarded Markdown surely holds no raw HTML and no link, image, autolink or
    reference that can go elsewhere (what `_live` parses it for): no link that
    `_may_have_unsafe_links` cannot clear, and no `<` but in code spans of its lines, beside
    links that plainly go to http(s) or mailto."""
    if _may_have_unsafe_links(guarded):
        return False
    return "<" not in guarded or _lt_only_in_line_code(_PLAIN_LINK.sub(" ", guarded))


# A link whose text has no bracket, backtick, `<` or escape, to http(s) or mailto with no space,
# parenthesis, backtick or `<`: where Markdown reads it, it takes none of the text's backticks.
_PLAIN_LINK = re.compile(r"\[[^\[\]`<>\\\n]*\]\((?:https?://|mailto:)[^\s()<>`\\]*\)")


# A code span of one backtick on each side, within a line (lines end at \n, \r\n and \r).
_LINE_CODE_SPAN = re.compile(r"`[^`\r\n]+`")
# What could make Markdown pair backticks otherwise than line by line (with a code block, see
# `MAY_HOLD_CODE_BLOCK`): a link's or reference's `[`, an escape, a table's `|` (cells split code
# spans), a run of several backticks.
_PAIRED_OTHERWISE = re.compile(r"[\[\\|]|``")


def _lt_only_in_line_code(text: str) -> bool:
    """True if every `<` of the text is inside a code span that Markdown surely reads: each line
    pairs all its backticks, one by one, and nothing else takes a backtick (no block is code, no
    link, escape or table cell)."""
    if _PAIRED_OTHERWISE.search(text) or MAY_HOLD_CODE_BLOCK.search(text):
        return False
    outside = _LINE_CODE_SPAN.sub("", text)
    return "<" not in outside and "`" not in outside


def _without_closing_hashes(lead: str) -> str:
    """A lead whose closing `#`s, which would end its heading, are escaped to stay text."""
    return _CLOSING_HASHES.sub(r"\\\1", lead) if "#" in lead else lead


def _without_hard_break(line: str) -> str:
    trailing = len(line) - len(line.rstrip("\\"))
    return line[:-1] if trailing % 2 else line


def lead_and_rest(text: str) -> tuple[str, str]:
    """Safe Markdown split into the line that leads it and the blocks after that line.

    The lead is the first paragraph, joined into one line, or a first line that only Markdown
    would read as a heading, list or quote (`# of GPUs`, `1. Which…`): on a heading or item line
    it stays text. A text that opens with code or a table has no lead. (Not memoized: what is
    costly in it, the guards and the parse, is.)
    """
    text = safe_markdown(text)
    if one_line_paragraph(text) or is_plain_paragraph(text):
        return _without_closing_hashes(text), ""  # a paragraph of one line is all lead
    lines = text.split("\n")
    first = block_tokens(text)[:1]
    if not (first and first[0].map and first[0].map[0] == 0):
        return "", text
    end = first[0].map[1]
    one_line = not any(line.strip() for line in lines[1:end])
    if first[0].type != "paragraph_open" and not (
        first[0].type in _LINE_BLOCKS and one_line and not _holds_code(text, end)
    ):
        return "", text
    # line breaks: spaces; a paragraph of Unicode spaces alone (`\xa0`), which Markdown strips: ""
    parts = [line.strip() for line in lines[:end] if line.strip()]
    lead = " ".join([*map(_without_hard_break, parts[:-1]), *parts[-1:]])
    return _without_closing_hashes(lead), "\n".join(lines[end:]).strip("\n")


def _holds_code(text: str, end: int) -> bool:
    """True if code starts before line `end`: in an item or quote on the first line (`-     x`,
    `>     x`) it is code, with its `<` and links as written; on a heading line it would not be."""
    return any(
        t.type in ("code_block", "fence") and t.map and t.map[0] < end for t in block_tokens(text)
    )
