"""What a reader found in a bank file, before it is split by language and made Markdown.

Each question is a dictionary in the shape of the authoring format (`type`, `prompt`,
`options`, `answer`, …) whose texts are `SourceText`s: a text as the file holds it (HTML, perhaps
with Moodle's multilang spans, or one of GIFT's formats). Ids of questions are decided later
(from the idnumber or the name); ids of options, pairs, items and gaps are given by the reader.

The fields of each type, as every reader fills them (ST a SourceText; None or absent when the
file has nothing; the converter orders the keys as the bundled content does):

- every type: `type`, `prompt` ST, `explanation` ST | None (Moodle's general feedback),
  `points` float (Moodle's defaultgrade).
- single_choice / multiple_choice: `options` [{`id` "a", "b", …, `text` ST, `feedback` ST |
  None}], `answer` "a" or ["a", "c"], `shuffle` bool.
- true_false: `answer` bool, `feedback_true`, `feedback_false` ST | None.
- numerical: `answer` float, `tolerance` float (absolute).
- short_answer: `answer` [str] (plain text, Moodle's `*` wildcard kept), `case_sensitive` bool.
- matching: `pairs` [{`id`, `item` ST, `match` ST(plain, inline)}], `distractors` [{`id`,
  `text` ST(plain, inline)}], `shuffle` bool; ids "a", "b", … across pairs then distractors.
- ordering: `items` [{`id` "a", …, `text` ST}] in the right order.
- cloze: `prompt` ST whose HTML has `[[1]]`, `[[2]]`, … where the gaps were; `gaps` {"1":
  {`type` "short_answer", `answer` [str], `case_sensitive`} | {`type` "numerical", `answer`,
  `tolerance`} | {`type` "single_choice", `options` [{`id`, `text` ST(inline),
  `feedback` ST | None}], `answer` "a"}}, `shuffle` bool.
- essay: `grader_info` ST | None, `min_words`, `max_words` int | None.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from quizbank.errors import QuizbankError

# Moodle's text formats: FORMAT_HTML, FORMAT_MOODLE (auto-format), FORMAT_PLAIN, FORMAT_MARKDOWN.
TextFormat = Literal["html", "moodle", "plain", "markdown"]


@dataclass(frozen=True, slots=True)
class SourceText:
    """A text as the file holds it.

    `inline` marks a one-line field of the model (a title, a match, a gap's option): its
    Markdown is one line. `plain` marks a field Moodle keeps as plain text, not HTML (a match's
    answer, a drop-down choice of a cloze gap): its characters are text, `<b>` is not a tag.
    `code` marks a plain text whose code spans are code (a match of a Moodle XML file, where
    quizbank's export keeps a code span's backticks).
    """

    value: str
    format: TextFormat = "html"
    inline: bool = False
    plain: bool = False
    code: bool = False


@dataclass(slots=True)
class SourceQuestion:
    """One question the model can hold.

    `fields` has the authoring keys but `id` (type first), texts as SourceText, in any order;
    `files` the images embedded in the question, by the name its HTML gives them
    (`@@PLUGINFILE@@/<name>`); `losses` what the file says that the model cannot, each a
    sentence ("its hints", "a penalty of 33%").
    """

    line: int
    name: str
    idnumber: str | None
    fields: dict[str, Any]
    files: dict[str, bytes] = field(default_factory=dict)
    losses: list[str] = field(default_factory=list)


@dataclass(slots=True)
class SourceCategory:
    """The questions of one category: one quiz.

    `path` is the category's path below Moodle's `$course$/top` (or `$system$/…`), one name a
    part, e.g. ["Checkpointing", "Sharding (en)"]; `info` is the category's description.
    """

    line: int
    path: list[str]
    idnumber: str | None = None
    info: SourceText | None = None
    questions: list[SourceQuestion] = field(default_factory=list)
    # Its sub-categories' questions, joined to its own (convert.py): by the name of the
    # sub-category below it, the indexes of their questions (a section of the quiz).
    sections: dict[str, list[int]] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Skipped:
    """A question left out whole: its line, its name, and why (a type the model lacks)."""

    line: int
    name: str
    why: str


@dataclass(slots=True)
class SourceBank:
    """Everything read from one file."""

    path: Path
    categories: list[SourceCategory] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)


class MalformedFile(QuizbankError):
    """A file the reader cannot read: `path:line:column: message`."""

    def __init__(self, path: Path | str, line: int, column: int, message: str) -> None:
        self.path, self.line, self.column = str(path), line, column
        super().__init__(f"{path}:{line}:{column}: {message}")
