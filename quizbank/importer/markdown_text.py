"""Text written as the authoring format's Markdown shows it: escaped where Markdown would read
it as markup and nowhere else, its formulas as `$…$` and `$$…$$`, code in code spans, addresses
as link destinations; and the characters quizbank's exports add, taken away again."""

from __future__ import annotations

import re
from typing import Final

# ------------------------------------------------------------------------------ characters

# The word joiner quizbank's Moodle export puts after `@@` and `{` goes; a no-break space (one
# inside an Urdu term, or an editor's `&nbsp;`) is a space.
CLEAN_CHARACTERS = str.maketrans({"\u2060": None, "\xa0": " ", "\x02": None})
# Where a block made part of a line meets what is beside it: one space, however many meet.
SOFT_BREAK = "\x02"
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
BACKTICK_RUNS = re.compile(r"`+")


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


def split_lines(text: str) -> list[str]:
    """Text cut into its lines, at any of CRLF, CR and LF."""
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


def collapsed(text: str, inline: bool) -> str:
    """Text's whitespace as HTML shows it: a run with a line break one line break, any other
    run one space; with `inline`, all of it one line."""
    text = _SPACES.sub(" ", _NEWLINES.sub("\n", text))
    if inline:
        text = _SPACES.sub(" ", text.replace("\n", " "))
    return text


def one_line(code: str) -> str:
    """Code's line endings as spaces, as CommonMark reads them in a code span."""
    return code.replace("\r\n", " ").replace("\n", " ").replace("\r", " ")


def soft(text: str) -> str:
    """A block's text made part of a line."""
    return f"{SOFT_BREAK}{text}{SOFT_BREAK}" if text else ""


def unsoft(text: str) -> str:
    return _SOFTS.sub(" ", text) if SOFT_BREAK in text else text


def finished(text: str, inline: bool) -> str:
    text = unsoft(text).strip()
    if inline and "\n" in text:
        text = " ".join(text.split("\n"))
    return text


def destination(url: str) -> str:
    """A link's or an image's address as Markdown writes it: between `<…>` when it has
    spaces, parentheses or angle brackets."""
    url = "".join(url.split("\n"))
    url = _REFERENCE.sub(lambda found: "\\" + found[0], url.replace("\\", "\\\\"))
    if re.search(r"[\s<>()]", url):
        return "<" + url.replace("<", "\\<").replace(">", "\\>") + ">"
    return url


def code_span(text: str) -> str:
    """Code between enough backticks, padded where CommonMark would strip or join."""
    if not text:
        return ""
    longest = max((len(run) for run in BACKTICK_RUNS.findall(text)), default=0)
    fence = "`" * (longest + 1)
    pad = (
        text[0] == "`"
        or text[-1] == "`"
        or (text[0] == " " and text[-1] == " " and bool(text.strip(" ")))
    )
    return f"{fence} {text} {fence}" if pad else f"{fence}{text}{fence}"
