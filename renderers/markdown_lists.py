"""The Markdown page's own lists (options, items, the key), kept apart from an author's lists.

Each list of the page takes a marker unlike that of a list of the author's text just before or
after it, so that Markdown does not join the two; an item's first line stays text, its further
blocks go inside it; and a list is ended before an indented text, which would go on inside it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from quizbank.markup import is_plain_paragraph

from .markdown_guards import block_tokens

# A line that opens with a bullet after spaces or tabs (markdown-it ends lines at \n, \r\n, \r).
_BULLET_LINE = re.compile(r"(?:\A|[\r\n])[ \t]*[-+*]")
# A line that opens an ordered list after spaces or tabs (`1.`, `2)`).
_ORDERED_LINE = re.compile(r"(?:\A|[\r\n])[ \t]*[0-9]{1,9}[.)]")

# (label, lead, rest) of a list item: its text split as `lead_and_rest` splits it.
Item = tuple[str, str, str]


@dataclass(frozen=True)
class PageList:
    """A list of the page, its marker chosen where it is placed: unlike that of a list of the
    text beside it, so that the two stay apart."""

    items: Sequence[Item]
    ordered: bool = False


Block = str | PageList

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


def _list(block: PageList, avoid: set[str]) -> tuple[str, str]:
    """The list as Markdown with a marker not in `avoid`, and that marker."""
    if block.ordered:
        mark = next(d for d in _DELIMITERS if d not in avoid)
        lines = [_item(f"{n}{mark}", *item) for n, item in enumerate(block.items, 1)]
    else:
        mark = next(b for b in _BULLETS if b not in avoid)
        lines = [_item(mark, *item) for item in block.items]
    return "\n".join(lines), mark


def laid_out(blocks: Sequence[Block]) -> list[str]:
    """The blocks as Markdown: each list of the page marked unlike a list of the text before or
    after it, and ended before an indented text (which would go on inside its last item)."""
    out: list[str] = []
    before = ""  # the marker of the list that ends the block before, if it is the page's
    previous: Block = ""  # the last block that is not empty
    for at, block in enumerate(blocks):
        if not isinstance(block, PageList):
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
    top = [t for t in block_tokens(text) if t.level == 0]
    kind = "ordered_list_close" if last else "ordered_list_open"
    return top[-1 if last else 0].markup if top and top[-1 if last else 0].type == kind else ""


# A paragraph of one no-break space: it ends a list, so that an indented text after it is read
# as it is on its own (code stays code), and it shows as an empty line.
_END_OF_LIST = "&nbsp;"


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
    top = [t for t in block_tokens(text) if t.level == 0]
    kind = "bullet_list_close" if last else "bullet_list_open"
    return top[-1 if last else 0].markup if top and top[-1 if last else 0].type == kind else ""
