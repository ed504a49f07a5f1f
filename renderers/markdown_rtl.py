"""Right-to-left Markdown pages: code and Latin runs isolated, so that they read in order.

Inside a right-to-left page, each code span, safe autolink and run of Latin script (the runs the
HTML export isolates, `quizbank.markup.latin_runs`) is put between U+2066 LEFT-TO-RIGHT ISOLATE
and U+2069 POP DIRECTIONAL ISOLATE, outside the backticks, so that `state_dict()` does not show
as `()state_dict` and `8 GPUs` as `GPUs 8`; a code span that holds a right-to-left letter
(`سیڈ`) between U+2068 FIRST STRONG ISOLATE and U+2069, so that it is not drawn reversed.
Characters, not `<bdi>`: GitHub's sanitizer drops `<bdi>` (its allowed tags have `bdo`, not
`bdi`), a host with raw HTML off would show it as text, and the page would no longer be free of
HTML of its own; the characters work in any renderer, editor and plain-text view, and also keep
GitHub's `dir="auto"` paragraphs right-to-left when they open with Latin text. The isolates go
only where they change nothing Markdown reads: never in fenced or indented code, a link's
destination, a reference's label, an entity or a line's block mark, nor next to a `*`, `_` or
`~` whose opening or closing they would change. Left-to-right pages get no isolates and no
extra work.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from markdown_it.common.utils import isPunctChar, isWhiteSpace

from quizbank.markup import FSI, LRI, PDI, latin_runs

from .markdown_guards import FORMULA, MAY_HOLD_CODE_BLOCK, closing_ticks, in_text_lines

# What a text needs looked at before any isolation: Latin letters or digits, or code.
_LATIN_OR_CODE = re.compile(r"[A-Za-z0-9`]")
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
    rf"|(?P<formula>{FORMULA})"
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


def isolated(text: str, rtl: bool) -> str:
    """Guarded Markdown as a right-to-left page shows it (see `_isolate`); as it is otherwise."""
    return _isolate(text) if rtl and _LATIN_OR_CODE.search(text) else text


@lru_cache(maxsize=16384)
def _isolate(text: str) -> str:
    """Each code span, safe autolink and Latin run (as the HTML export finds them) between
    LEFT-TO-RIGHT ISOLATE and POP DIRECTIONAL ISOLATE, outside the backticks; fenced and
    indented code, link destinations, references, entities and block marks as written."""
    if not MAY_HOLD_CODE_BLOCK.search(text):
        return _isolate_lines(text)  # no code block: the lines as one run
    return in_text_lines(text, _isolate_lines)


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
            closing = closing_ticks(end - start).search(text, end)
            if closing:
                end = closing.end()
            # (an escaped backtick before: isolates would split a run of backticks)
            if closing and text[start - 1 : start] != "`" and _keeps_flanking(text, start, end):
                spans.append((start, end, _code_isolate(text[start:end])))
        elif kind in ("autolink", "formula") and _keeps_flanking(text, start, end):
            spans.append((start, end, LRI))
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
        spans.append((start, end, LRI))
    spans.sort()
    out: list[str] = []
    pos = 0
    for start, end, isolate in spans:
        out += [text[pos:start], isolate, text[start:end], PDI]
        pos = end
    return "".join(out) + text[pos:]


# A right-to-left letter (Hebrew, Arabic and their presentation forms), bidi class R or AL.
_RTL_LETTER = re.compile("[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]")


def _code_isolate(code: str) -> str:
    """How a code span is isolated: left to right, or, when it holds a right-to-left letter
    (an Urdu accepted answer, `اسٹیٹ*ڈکٹ`), by its first strong character (FIRST STRONG
    ISOLATE), so that it is not drawn reversed."""
    return FSI if _RTL_LETTER.search(code) else LRI


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


def opens_right_to_left(text: str) -> bool:
    """Whether a text's first strongly directional character is right to left, as a host's
    `dir="auto"` finds it (isolated runs included)."""
    for character in text:
        kind = unicodedata.bidirectional(character)
        if kind in ("R", "AL"):
            return True
        if kind == "L":
            return False
    return False
