"""Moodle's GIFT grammar (question/format/gift/format.php) ported: `parse_gift(path, text)`
reads a GIFT file's categories and questions as Moodle's import stores them.

qformat_default::readquestions() and qformat_gift::readquestion() step by step, PHP's string
functions as Python's, yielding each `$CATEGORY:` as a `GiftCategory` and each question as a
`GiftQuestion` holding what Moodle stores of it (its type, texts with their formats, answers with
their fractions, …). The file is cut into blocks at each line that is blank once trimmed (a line
`0` too, PHP's `empty`); a block's `//` lines are its comments (`[id:…]` the idnumber, `[tag:…]`
its tags); GIFT's escapes (`\\:` `\\#` `\\=` `\\{` `\\}` `\\~` `\\n`, a backslash `\\\\`) stand for
placeholders (`&&058;`) while the syntax is read and are the characters again in every text
(escapedchar_pre/post), as in Moodle, so a literal `&&058;` in a file is a `:` there too.
gift.py makes the records quizbank's source bank; tests/test_gift.py reads the GIFT renderer's
files through this grammar.

Where the reader is stricter than Moodle, the file is malformed (`MalformedFile` at the line
and column of the problem, the import stops): Moodle's own errors (an answer block not closed,
a `}` with no `{` before it, fewer than two choices or pairs, a pair without `->`, a numerical
answer with no number or a tolerance that is not one), and what Moodle takes silently but
turns into something the author did not write: a `{` inside an answer block or a brace after
it (Moodle keeps the second block as text, or reads a `{`…`}` of TeX as the answers), an empty
choice or accepted answer (`~~`, a trailing `=`), a numerical answer that is not a number
(Moodle makes it `*`, any response), a weight that is not a number (`%--50%`), and a question
written on the line after a `$CATEGORY:` line (Moodle makes it part of the category's name).

Line numbers: a question's is the line of its first line that is not a `//` comment (where
`::name::` or its text starts); a category's that of its `$CATEGORY:` line. Columns count
characters from 1, on the line as the file has it (indentation included).

Parsing is linear in the file's size: the file is read line by line, the escapes are
`str.replace`, every search is `str.find`, and the few regular expressions cannot backtrack
more than a bounded amount per character (the tags of a comment are found by a scan, not by
Moodle's expression, which is quadratic on `[tag:[tag:…`).
"""

from __future__ import annotations

import html
import math
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from quizbank.importer.source import MalformedFile, TextFormat

_PHP_TRIM = " \t\n\r\0\x0b"  # PHP's trim()
_ESCAPED = ("\\:", "\\#", "\\=", "\\{", "\\}", "\\~", "\\n")
_PLACEHOLDERS = ("&&058;", "&&035;", "&&061;", "&&123;", "&&125;", "&&126;", "&&010")
_CHARACTERS = (":", "#", "=", "{", "}", "~", "\n")
# What escapedchar_pre() replaces, in one left-to-right pass, and how long each becomes.
_PRE = re.compile(r"\\\\|\\[:#={}~n]|&&092;")
_PRE_LENGTH = {"\\\\": 1, "&&092;": 1, "\\n": 5} | dict.fromkeys(_ESCAPED[:-1], 6)
_WEIGHT = re.compile(r"%-*[0-9]{1,2}\.?[0-9]*%")  # $giftanswerweightregex, anchored by match()
_FORMATS: dict[str, TextFormat] = {
    "moodle": "moodle",
    "html": "html",
    "plain": "plain",
    "markdown": "markdown",
}
# extract_idnumber_and_tags_from_comment(): what ends an id (`[^][:cntrl:]]`: a `]`, unless after
# a `\`, or a control character), and a tag (`<`, `>` and a backquote too).
_ID_STOP = re.compile(r"[\]\x00-\x1f\x7f]")
_TAG_STOP = re.compile(r"[\]<>`\x00-\x1f\x7f]")
# PHP's is_numeric(): an optional sign, digits with an optional point, an optional exponent.
_NUMBER = re.compile(
    r"[ \t\n\r\v\f]*[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?[ \t\n\r\v\f]*"
)
_TAGS = re.compile(r"<[^<>]*>")
_SPACES = re.compile(r"\s+")
_NAME_LENGTH = 80  # create_default_question_name(): shorten_text($questiontext, 80)
_NAME_MOST = 255  # clean_question_name(): a name fits Moodle's column
_MOST_ANSWERS = 1000  # in one answer block: more is a missing } (the model holds 50 at most)
_NO_ANSWER_TEXT = "an answer with no text (only a weight or a #feedback): write its text"


@dataclass(frozen=True, slots=True)
class GiftText:
    """A text as Moodle stores it: the characters (escapes decoded) and its format."""

    text: str
    format: TextFormat


_NO_TEXT = GiftText("", "moodle")


@dataclass(slots=True)
class GiftAnswer:
    """One answer as Moodle stores it. `text` is the choice, the accepted answer, or a numerical
    answer as written (`1..5`); `number` and `tolerance` are a numerical answer's."""

    text: GiftText
    fraction: float
    feedback: GiftText
    number: float = 0.0
    tolerance: float = 0.0


@dataclass(slots=True)
class GiftQuestion:
    """One question as Moodle stores it (the fields of its question object that GIFT sets).

    `qtype` is Moodle's: description, essay, multichoice, match, truefalse, shortanswer,
    numerical. `named` says whether the file gave `::name::` (else `name` is made from the text,
    as Moodle makes it); `missing_word` whether text followed the answer block (`_____` stands
    for the block in `text`). `other_feedback` is a numerical question's `~` feedback (Moodle's
    answer `*` with fraction 0).
    """

    line: int
    name: str
    named: bool
    idnumber: str
    tags: list[str]
    qtype: str
    text: GiftText
    general_feedback: GiftText
    missing_word: bool = False
    single: bool = True
    answers: list[GiftAnswer] = field(default_factory=list)
    correct: bool = True
    feedback_true: GiftText = _NO_TEXT
    feedback_false: GiftText = _NO_TEXT
    subquestions: list[tuple[GiftText, str]] = field(default_factory=list)
    other_feedback: GiftText | None = None


@dataclass(frozen=True, slots=True)
class GiftCategory:
    """A `$CATEGORY:` line: the path as Moodle reads it (escapes not decoded, as there)."""

    line: int
    path: str


def php_trim(text: str) -> str:
    return text.strip(_PHP_TRIM)


def _php_empty(text: str) -> bool:
    return text in ("", "0")


def escapedchar_pre(text: str) -> str:
    """The escapes as placeholders (`\\:` is `&&058;`), a `\\\\` a backslash."""
    text = text.replace("\\\\", "&&092;")
    for escaped, placeholder in zip(_ESCAPED, _PLACEHOLDERS, strict=True):
        text = text.replace(escaped, placeholder)
    return text.replace("&&092;", "\\")


def escapedchar_post(text: str) -> str:
    """The placeholders as the characters they stand for."""
    if "&&" not in text:
        return text
    for placeholder, character in zip(_PLACEHOLDERS, _CHARACTERS, strict=True):
        text = text.replace(placeholder, character)
    return text


def parse_text_with_format(text: str, default: TextFormat = "moodle") -> GiftText:
    """A text after its optional `[format]` (a known name only), placeholders decoded, trimmed."""
    text_format = default
    if text.startswith("["):
        end = text.find("]")
        name = text[1:end] if end >= 0 else text[1:-1]  # PHP: substr($text, 1, false - 1)
        if name in _FORMATS:
            text_format, text = _FORMATS[name], text[end + 1 :] if end >= 0 else text[1:]
    return GiftText(php_trim(escapedchar_post(text)), text_format)


def is_numeric(text: str) -> bool:
    """PHP's is_numeric() of a string."""
    return _NUMBER.fullmatch(text) is not None


class _Joined:
    """Lines joined by `\\n` as they come (and one after the last too with `end_last`), held in
    chunks: a block of millions of lines is held as its text, not as a list of strings."""

    _CHUNK = 4096

    def __init__(self, *, end_last: bool) -> None:
        self.end_last = end_last
        self.chunks: list[str] = []
        self.pending: list[str] = []

    def add(self, line: str) -> None:
        self.pending.append(line)
        if len(self.pending) >= self._CHUNK:
            self.chunks.append("\n".join(self.pending))
            self.pending = []

    def text(self) -> str:
        if self.pending:
            self.chunks.append("\n".join(self.pending))
            self.pending = []
        joined = "\n".join(self.chunks)
        return joined + "\n" if self.end_last and joined else joined


class _Block:
    """A block of lines (a question or a category) and where each of its characters is in the
    file: `text` is the block as readquestion() reads it (its lines trimmed, a comment line a
    space, escapes made placeholders); `source`, `start` and `number` the file's text, where the
    block starts in it and on which line, for the positions of errors."""

    def __init__(self, source: str, separator: str, start: int, number: int) -> None:
        self.source, self.separator, self.start, self.number = source, separator, start, number
        self.first_line = 0  # the line of the first line that is not a comment
        self.lines = _Joined(end_last=False)
        self.comment_lines = _Joined(end_last=True)
        self.raw = self.text = ""
        self.lead = 0

    def add(self, number: int, line: str) -> None:
        """A line of the block, trimmed."""
        if line.startswith("//"):
            self.comment_lines.add(line)
            line = " "
        elif not self.first_line:
            self.first_line = number
        self.lines.add(line)

    def close(self) -> _Block:
        joined = self.lines.text()
        self.raw = php_trim(joined)
        self.lead = len(joined) - len(joined.lstrip(_PHP_TRIM))
        self.text = escapedchar_pre(self.raw)
        return self

    def comments(self) -> str:
        return self.comment_lines.text()

    def position(self, offset: int) -> tuple[int, int]:
        """The file's line and column of the character at `offset` in `text`."""
        raw = self._raw_offset(offset) + self.lead
        at = 0
        lines = _lines(self.source, self.separator, self.start)
        for number, (_, line) in enumerate(lines, self.number):
            trimmed = php_trim(line)
            length = 1 if trimmed.startswith("//") else len(trimmed)
            if raw <= at + length or _php_empty(trimmed):
                return number, len(line) - len(line.lstrip(_PHP_TRIM)) + raw - at + 1
            at += length + 1
        return self.number, 1  # not reached: the offset is in the block

    def _raw_offset(self, offset: int) -> int:
        """Where the character at `offset` of `text` was before the escapes were replaced."""
        shift = 0
        for found in _PRE.finditer(self.raw):
            start = found.start() - shift
            if offset < start:
                break
            length = _PRE_LENGTH[found[0]]
            if offset < start + length:
                return found.start()
            shift += len(found[0]) - length
        return offset + shift


class _Reader:
    """One block read as readquestion() reads it; `base` is where the text being read starts in
    the block's text, for the positions of errors."""

    def __init__(self, path: Path, block: _Block) -> None:
        self.path, self.block, self.base, self.brace = path, block, 0, 0

    def error(self, offset: int, message: str) -> MalformedFile:
        """The file is malformed at `offset` of the text being read."""
        return self.error_at(self.base + offset, message)

    def error_at(self, offset: int, message: str) -> MalformedFile:
        """The file is malformed at `offset` of the block's text."""
        line, column = self.block.position(offset)
        return MalformedFile(self.path, line, column, message)


def parse_gift(path: Path, text: str) -> Iterator[GiftCategory | GiftQuestion]:
    """Every category and question of a GIFT file, as Moodle's import reads them."""
    for block in _blocks(text):
        record = _read_block(path, block)
        if record is not None:
            yield record


def _blocks(text: str) -> Iterator[_Block]:
    """readdata() and readquestions(): the lines apart by a line blank once trimmed."""
    text = text.removeprefix("\ufeff")
    separator = "\r" if "\n" not in text and "\r" in text else "\n"  # an old Mac's file
    block: _Block | None = None
    for number, (start, line) in enumerate(_lines(text, separator), 1):
        trimmed = php_trim(line)
        if _php_empty(trimmed):
            if block is not None:
                yield block.close()
                block = None
            continue
        if block is None:
            block = _Block(text, separator, start, number)
        block.add(number, trimmed)
    if block is not None:
        yield block.close()


def _lines(text: str, separator: str, start: int = 0) -> Iterator[tuple[int, str]]:
    """Each line from `start` and where it starts, one at a time (str.split would hold them
    all)."""
    while start <= len(text):
        end = text.find(separator, start)
        if end < 0:
            end = len(text)
        yield start, text[start:end]
        start = end + 1


def _read_block(path: Path, block: _Block) -> GiftCategory | GiftQuestion | None:
    """readquestion(): a category, a question, or nothing (a block of comments)."""
    text = block.text
    if text == "":
        return None
    reader = _Reader(path, block)
    if text.startswith("$CATEGORY:"):
        return _category_line(reader, text)
    name, start = _question_name(text)
    text = text[start:]
    reader.base = start + len(text) - len(text.lstrip(_PHP_TRIM))
    text = php_trim(text)
    answer_start, answer_end = _answer_block(reader, text)
    if answer_start < 0:
        question = _question(block, name, text, "")
        question.qtype = "description"
        return question
    answertext = text[answer_start + 1 : answer_end]
    lead = len(answertext) - len(answertext.lstrip(_PHP_TRIM))
    answertext = php_trim(answertext)
    missing_word = answer_end < len(text) - 1
    questiontext = text[:answer_start] + ("_____" if missing_word else "") + text[answer_end + 1 :]
    general_feedback = ""
    if (at := answertext.rfind("####")) >= 0:
        general_feedback, answertext = answertext[at + 4 :], php_trim(answertext[:at])
    question = _question(block, name, questiontext, general_feedback)
    question.missing_word = missing_word
    reader.brace = reader.base + answer_start
    reader.base += answer_start + 1 + lead
    question.qtype = _qtype(answertext)
    _TYPES[question.qtype](reader, question, answertext)
    return question


def _category_line(reader: _Reader, text: str) -> GiftCategory:
    if "\n" in text:
        after = text.index("\n")
        after += len(text[after:]) - len(text[after:].lstrip(_PHP_TRIM))
        raise reader.error(
            after,
            "a question right after a $CATEGORY line: put a blank line between them (Moodle "
            "would read this line as part of the category's name)",
        )
    return GiftCategory(reader.block.first_line, php_trim(text[10:]))


def _question_name(text: str) -> tuple[str | None, int]:
    """The `::name::` and where the text after it starts; no name when there is none (a `::`
    that is not closed is dropped, as Moodle drops it)."""
    if not text.startswith("::"):
        return None, 0
    end = text.find("::", 2)
    if end < 0:
        return None, 2
    return _shortened(php_trim(escapedchar_post(text[2:end])), _NAME_MOST), end + 2


def _answer_block(reader: _Reader, text: str) -> tuple[int, int]:
    """Where the `{` and `}` of the answer block are; (-1, -1) when there is none."""
    start, end = text.find("{"), text.find("}")
    if start < 0 and end < 0:
        return -1, -1
    if end < 0:
        raise reader.error(
            start, "this answer block is not closed: end it with } (a { in a text is written \\{)"
        )
    if start < 0 or end < start:
        raise reader.error(end, "a } with no { before it: a } in a text is written \\}")
    nested = text.find("{", start + 1, end)
    if nested >= 0:
        raise reader.error(
            nested,
            "a { inside an answer block: close the block with } first (a { in a text is "
            "written \\{)",
        )
    after = min(
        (at for at in (text.find("{", end), text.find("}", end + 1)) if at >= 0), default=-1
    )
    if after >= 0:
        raise reader.error(
            after,
            "a brace after the answer block: a question has one answer block (a { or } in a text "
            "is written \\{ or \\})",
        )
    return start, end


def _question(block: _Block, name: str | None, questiontext: str, feedback: str) -> GiftQuestion:
    """What every question has: its name, texts, idnumber and tags."""
    text = parse_text_with_format(questiontext)
    idnumber, tags = extract_idnumber_and_tags_from_comment(block.comments())
    return GiftQuestion(
        line=block.first_line,
        name=name or default_name(text),
        named=name is not None,
        idnumber=idnumber,
        tags=tags,
        qtype="",
        text=text,
        general_feedback=parse_text_with_format(feedback, text.format),
    )


def default_name(text: GiftText) -> str:
    """create_default_question_name(): the start of the text, without tags (entities decoded,
    spaces and newlines made one space), at most 80 characters (cut at a space, `...` after),
    or `(no name)`."""
    start = text.text[: _NAME_LENGTH * 50]
    if text.format != "plain":
        start = html.unescape(_TAGS.sub(" ", start))
    return _shortened(_SPACES.sub(" ", start).strip(), _NAME_LENGTH) or "(no name)"


def _shortened(text: str, most: int) -> str:
    """shorten_text(): at most `most` characters, cut at a space, `...` after."""
    if len(text) <= most:
        return text
    cut = text.rfind(" ", 0, most)
    return text[: cut if cut > 0 else most].rstrip() + "..."


def extract_idnumber_and_tags_from_comment(comment: str) -> tuple[str, list[str]]:
    """The first `[id:…]` and every `[tag:…]` of the comments, `\\]` a `]`."""
    found = next(_tokens(comment, "[id:", _ID_STOP, empty=False), "")
    tags = [php_trim(tag).replace("\\]", "]") for tag in _tokens(comment, "[tag:", _TAG_STOP)]
    return php_trim(found).replace("\\]", "]"), tags


def _tokens(
    comment: str, opener: str, stop: re.Pattern[str], *, empty: bool = True
) -> Iterator[str]:
    """What Moodle's `~\\[id:((?:\\\\]|[^][:cntrl:]])+)]~` (`stop` `]` or a control character,
    no `empty` token) or `~\\[tag:((?:\\\\]|[^]<>`[:cntrl:]]|)+)]~` (`stop` also `<`, `>`, a
    backquote) finds, in linear time: the expressions backtrack quadratically on `[tag:[tag:…`.

    From the opener a token runs to the first character it cannot hold (a `stop` that is not a
    `]` after a `\\`); an unescaped `]` there closes it, otherwise it ends at the last
    (escaped) `]` of the run, as the expression backtracks, or is none. A run is found once for
    all the openers inside it."""
    run_start = run_end = last_bracket = -1
    at = comment.find(opener)
    while at >= 0:
        start = at + len(opener)
        if not run_start <= start <= run_end:
            run_start, run_end = start, _run_end(comment, start, stop)
            last_bracket = comment.rfind("]", start, run_end)
        if run_end < len(comment) and comment[run_end] == "]" and (empty or run_end > start):
            close = run_end
        elif last_bracket >= start:
            close = last_bracket
        else:
            at = comment.find(opener, at + 1)
            continue
        yield comment[start:close]
        at = comment.find(opener, close + 1)


def _run_end(comment: str, start: int, stop: re.Pattern[str]) -> int:
    """The first character from `start` a token cannot hold (the end of the text if none)."""
    while (found := stop.search(comment, start)) is not None:
        if found[0] == "]" and comment[found.start() - 1] == "\\":
            start = found.end()  # `\\]`: part of the token
            continue
        return found.start()
    return len(comment)


def _qtype(answertext: str) -> str:
    """The type the answer block says, in Moodle's order."""
    if answertext == "":
        return "essay"
    if answertext[0] == "#":
        return "numerical"
    if "~" in answertext:
        return "multichoice"
    if "=" in answertext and "->" in answertext:
        return "match"
    check = answertext
    if answertext.find("#") > 0:
        check = php_trim(answertext[: answertext.find("#")])
    return "truefalse" if check in ("T", "TRUE", "F", "FALSE") else "shortanswer"


def _answers(
    reader: _Reader, answertext: str, separators: str, least: tuple[int, str], keep: str = ""
) -> list[tuple[int, str]]:
    """explode() of the answer block at each separator, each answer trimmed with its offset;
    a separator in `keep` starts the next answer (multichoice's `=`, which Moodle makes `~=`).
    The first is dropped when empty (PHP's `empty`); there must be `least` of them
    (check_answer_count()), none empty, and at most _MOST_ANSWERS."""
    starts, ends = [0], []
    for found in re.finditer(f"[{re.escape(separators)}]", answertext):
        ends.append(found.start())
        starts.append(found.start() if found[0] in keep else found.end())
        if len(starts) > _MOST_ANSWERS + 1:
            break
    ends.append(len(answertext))
    pieces = [_piece(answertext, start, end) for start, end in zip(starts, ends, strict=False)]
    if _php_empty(pieces[0][1]):
        pieces.pop(0)
    if len(pieces) < least[0]:
        raise reader.error_at(reader.brace, f"this answer block needs at least {least[1]}")
    for offset, piece in pieces[:_MOST_ANSWERS]:
        if piece == "" or (piece == "=" and "=" in keep):
            raise reader.error(
                offset,
                "an empty answer: delete the extra ~ or = (a ~ or = in a text is written \\~ "
                "or \\=)",
            )
    if len(pieces) > _MOST_ANSWERS:
        raise reader.error(
            pieces[_MOST_ANSWERS][0],
            f"more than {_MOST_ANSWERS} answers in one answer block: is a }} missing?",
        )
    return pieces


def _piece(answertext: str, start: int, end: int) -> tuple[int, str]:
    """An answer trimmed, and where it starts (where its separator is, when it is empty)."""
    piece = answertext[start:end]
    trimmed = php_trim(piece)
    if not trimmed:
        return max(start - 1, 0), trimmed
    return start + len(piece) - len(piece.lstrip(_PHP_TRIM)), trimmed


def _weight(reader: _Reader, offset: int, answer: str) -> tuple[float, str]:
    """answerweightparser(): a leading `%50%` as 0.5, and the answer after it."""
    answer = answer[1:]
    end = answer.find("%")
    if not is_numeric(answer[:end]):
        raise reader.error(offset, f"the weight %{answer[:end]}% is not a number, such as %50%")
    return float(answer[:end]) / 100, answer[end + 1 :]


def _weighted(reader: _Reader, offset: int, answer: str, default: float) -> tuple[float, str]:
    if _WEIGHT.match(answer):
        return _weight(reader, offset, answer)
    return default, answer


def commentparser(answer: str, default: TextFormat) -> tuple[GiftText, GiftText]:
    """An answer's text and its `#feedback`."""
    bits = answer.split("#", 1)
    text = parse_text_with_format(php_trim(bits[0]), default)
    if len(bits) == 1:
        return text, GiftText("", default)
    return text, parse_text_with_format(php_trim(bits[1]), default)


# ------------------------------------------------------------------------------- each type


def _essay(reader: _Reader, question: GiftQuestion, answertext: str) -> None:
    """`{}`: Moodle's essay, with an editor and no grader information."""


def _multichoice(reader: _Reader, question: GiftQuestion, answertext: str) -> None:
    question.single = "=" in answertext
    for offset, answer in _answers(reader, answertext, "~=", (2, "two choices"), keep="="):
        if answer[0] == "=":
            fraction, answer = 1.0, answer[1:]
        else:
            fraction, answer = _weighted(reader, offset, answer, 0.0)
        _add_answer(reader, question, offset, answer, fraction)


def _add_answer(
    reader: _Reader, question: GiftQuestion, offset: int, answer: str, fraction: float
) -> None:
    """An answer with its `#feedback`, which must have a text."""
    text, feedback = commentparser(answer, question.text.format)
    if text.text == "":
        raise reader.error(offset, _NO_ANSWER_TEXT)
    question.answers.append(GiftAnswer(text, fraction, feedback))


def _match(reader: _Reader, question: GiftQuestion, answertext: str) -> None:
    for offset, answer in _answers(reader, answertext, "=", (2, "two pairs")):
        marker = answer.find("->")
        if marker < 0:
            raise reader.error(
                offset, "a matching answer is =item -> match: this one has no -> (or write \\=)"
            )
        item = parse_text_with_format(answer[:marker], question.text.format)
        question.subquestions.append((item, php_trim(escapedchar_post(answer[marker + 2 :]))))


def _truefalse(reader: _Reader, question: GiftQuestion, answertext: str) -> None:
    """`{T#feedback when wrong#feedback when right}`."""
    bits = [*answertext.split("#", 2), "", ""]
    answer, wrong, right = (
        parse_text_with_format(php_trim(bit), question.text.format) for bit in bits[:3]
    )
    question.correct = answer.text in ("T", "TRUE")
    if question.correct:
        question.feedback_true, question.feedback_false = right, wrong
    else:
        question.feedback_true, question.feedback_false = wrong, right


def _shortanswer(reader: _Reader, question: GiftQuestion, answertext: str) -> None:
    for offset, answer in _answers(reader, answertext, "=", (1, "an answer")):
        fraction, answer = _weighted(reader, offset, answer, 1.0)
        _add_answer(reader, question, offset, answer, fraction)


def _numerical(reader: _Reader, question: GiftQuestion, answertext: str) -> None:
    """`{#answer:tolerance}`, `{#min..max}`, several `=` answers, a `~` feedback for others."""
    answertext = answertext[1:]
    reader.base += 1
    other = answertext.find("~")
    wrong = answertext[other:] if other >= 0 else ""
    if other >= 0:
        answertext = answertext[:other]
    for offset, answer in _answers(reader, answertext, "=", (1, "a number after its #")):
        fraction, answer = _weighted(reader, offset, answer, 1.0)
        text, feedback = commentparser(answer, question.text.format)
        number, tolerance = _number_and_tolerance(reader, offset, text.text)
        question.answers.append(GiftAnswer(text, fraction, feedback, number, tolerance))
    if not _php_empty(wrong):
        question.other_feedback = commentparser(wrong, question.text.format)[1]


def _number_and_tolerance(reader: _Reader, offset: int, answer: str) -> tuple[float, float]:
    """`min..max` as its midpoint and half-width, `answer:tolerance`, or a number alone."""
    if answer.find("..") > 0:
        low_text, high_text = answer.split("..", 1)
        low, high = _a_number(reader, offset, low_text), _a_number(reader, offset, high_text)
        middle = (high + low) / 2
        return middle, high - middle
    if answer.find(":") > 0:
        value, tolerance = answer.split(":", 1)
        return _a_number(reader, offset, value), _a_number(reader, offset, tolerance)
    return _a_number(reader, offset, answer), 0.0


def _a_number(reader: _Reader, offset: int, text: str) -> float:
    text = php_trim(text)
    if text == "":
        raise reader.error(offset, "a number is missing here (a numerical answer is 3.14:0.01)")
    if not is_numeric(text):
        shown = text if len(text) <= 40 else text[:40] + "…"
        raise reader.error(offset, f"{shown!r} is not a number (a numerical answer is 3.14:0.01)")
    number = float(text)
    if not math.isfinite(number):
        raise reader.error(offset, f"{text[:40]!r} is too large a number")
    return number


_TYPES: dict[str, Callable[[_Reader, GiftQuestion, str], None]] = {
    "essay": _essay,
    "multichoice": _multichoice,
    "match": _match,
    "truefalse": _truefalse,
    "shortanswer": _shortanswer,
    "numerical": _numerical,
}
