"""GIFT, Moodle's text format for questions, written the way Moodle's importer reads it
(question/format/gift/format.php).

One file per quiz and language, `gift/<lang>/<quiz-id>.gift`: a `$CATEGORY:` line naming the
quiz as the Moodle XML export does (`$course$/top/<title> (<lang>)`), then one question per
block, blocks apart by a blank line (the importer cuts the file at each line that is blank once
trimmed), each block:

    // [id:<quiz-id>/<question-id>] [tag:<tag>]…
    ::<name>::[html]<prompt>{<answers>
        ####<explanation>
    }

The comment carries the idnumber and the quiz's tags (extract_idnumber_and_tags_from_comment),
the same idnumber as the Moodle XML export's: Moodle's import never replaces a question, so
importing a file again adds copies, and Moodle keeps an idnumber only on the first question with
it in a category (a copy has none). The name is the prompt as a line of plain text (as in Moodle
XML); every text is safe HTML from the core (`[html]`, which Moodle's GIFT import keeps as is;
`[markdown]` would be Moodle's own Markdown, without the core's escaping, right-to-left isolation
or formulas), Urdu in `<div lang="ur" dir="rtl">`, formulas as TeX between `\\(…\\)` and
`\\[…\\]` for Moodle's MathJax filter, `@@PLUGINFILE@@` and `{mlang` made inert and a `{` that
MathJax's filter would misread `&#123;`, all as in Moodle XML. Each type is one writer in
`WRITERS`:

- single_choice: `multichoice`, `=right` and `~wrong`, `#feedback` after an option.
- multiple_choice: `multichoice` with no `=` (Moodle's `single` 0), every option `~%grade%`,
  the grades of quizbank.grading (the only ones Moodle's import accepts).
- true_false: `{TRUE#feedback if wrong#feedback if right}`.
- numerical: `{#answer:tolerance}`.
- short_answer: `=answer` for each accepted answer (Moodle's `*` is quizbank's).
- matching: `=item -> match` per pair, `= -> match` per distractor (an empty subquestion).
- essay: `{}`.

Escaping. Moodle's importer reads `\\~ \\= \\# \\{ \\} \\:` and `\\n` as the characters
(`escapedchar_pre`, a backslash being `\\\\`): every text escapes them, so the only raw ones are
the syntax, and each text is one line (a code block's newlines are `\\n`). TeX keeps every
character: `\\frac{1}{2}` is written `\\\\frac\\{1\\}\\{2\\}` and stored as the author wrote it, and
`\\nabla` is no newline. What the escaping does not cover is avoided: a sub-text starting with
`[` would be read as a text format (`[markdown]`), a choice starting with `%50%` as a grade: such
a text is written after `[html]` (an accepted answer after `[plain]`). The importer stands for
each escaped character by a placeholder (`&&058;`) and turns placeholders back in any text: in
plain texts (the name, the category, a match) a `&&` gets a word joiner (U+2060, invisible)
between its `&`; an accepted answer holding a placeholder cannot be written (RendererError).
The category line is not unescaped by Moodle beyond `\\\\`: it is written raw, backslashes
doubled.

What GIFT cannot carry is reported (`losses`), never dropped silently: cloze and ordering
questions are left out; a question's points (Moodle gives a GIFT question 1 mark), `shuffle:
false` (the site's default decides), `case_sensitive: true`, an essay's grader information and
word limits, and images (GIFT carries no files: an image is its alt text). An accepted answer
with `->` beside others would make Moodle read a short answer as a matching question: it is left
out (and reported), a lone one written without its `=`. The quiz's description has no place in
GIFT (Moodle XML makes it the category's information).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from operator import attrgetter
from pathlib import PurePosixPath
from types import MappingProxyType
from typing import Any, ClassVar

from pydantic import Field

from quizbank.errors import RendererError
from quizbank.grading import option_grades
from quizbank.markup import find_images, to_html, to_plain
from quizbank.model import (
    Essay,
    Matching,
    MultipleChoice,
    Numerical,
    Question,
    Quiz,
    ShortAnswer,
    SingleChoice,
    TrueFalse,
    question_texts,
)
from quizbank.renderer import (
    Loss,
    OutputFile,
    QuizTranslations,
    Renderer,
    RendererOptions,
    in_sections,
)
from quizbank.variables import expand, has_variables, variants

from . import moodle_text as mt
from .moodle_types import grade_percent, plain_line, plain_number

# ------------------------------------------------------------------------------------ escaping

# What GIFT reserves, as Moodle's own export escapes it (qformat_gift::repchar), each with what
# it is written as. A carriage return is dropped, as there: the core's Markdown has made line
# ends `\n` already. The backslash comes first: the others' escapes add backslashes.
_ESCAPES = (
    ("\\", "\\\\"),
    *((char, f"\\{char}") for char in "~=#{}:"),
    ("\n", "\\n"),
    ("\r", ""),
)
# The importer's placeholders (escapedchar_pre), which it turns back into characters in any text.
_PLACEHOLDER = re.compile(r"&&(?:0(?:58;|35;|61;|92;|10)|12[356];)")
_AMPERSANDS = re.compile("&(?=&)")
_WORD_JOINER = "\u2060"


def _escaped(text: str) -> str:
    """A text with GIFT's reserved characters and newlines escaped: one line.

    A `replace` per character the text holds: eight times as fast as `str.translate` with a
    table of strings (which looks every character up), the same text (each escape adds only a
    backslash, already escaped, and its own character)."""
    for char, escape in _ESCAPES:
        if char in text:
            text = text.replace(char, escape)
    return text


def _escaped_plain(text: str) -> str:
    """A plain text (name, match) escaped, a word joiner between two `&`: no text of its can
    be taken for one of the importer's placeholders."""
    text = _escaped(text)
    return _AMPERSANDS.sub("&" + _WORD_JOINER, text) if "&&" in text else text


def _sub_text(html: str) -> str:
    """An answer's or feedback's HTML, after `[html]` where Moodle would read its start as a
    format (`[markdown]…`) or a grade (`%50%…`); the question's format is its default."""
    return f"[html]{html}" if html[:1] in ("[", "%") else html


_NO_IMAGES: Mapping[str, str] = MappingProxyType({})


def html_text(text: str, lang: str, *, inline: bool = False) -> str:
    """A text's HTML as Moodle should store it: formulas as TeX for MathJax, images as their alt
    text, what Moodle reads as its own markup inert, Urdu in its right-to-left `<div>`."""
    html = to_html(text, lang, inline=inline, images=_NO_IMAGES, math="tex")
    if "<img " in html:
        html = mt.without_images(html)
    before, after = mt.rtl_wrapper(lang)
    return f"{before}{mt.inert_html(html)}{after}"


def _html(text: str | None, lang: str, *, inline: bool = False) -> str:
    """A text as escaped HTML (`html_text`), or nothing."""
    return _escaped(html_text(text, lang, inline=inline)) if text else ""


def _quiz_path(quiz: Quiz, bank: str | None = None) -> str:
    """The quiz's category, named as the Moodle XML export names it (under the bank's, in a
    bank)."""
    title = mt.inert_text(f"{mt.untagged(to_plain(quiz.title))} ({quiz.lang})")
    path = mt.category_name(title)
    if bank is not None:
        path = f"{mt.category_name(mt.inert_text(mt.untagged(bank)))}/{path}"
    return path


def _sub_path(path: str, title: str) -> str:
    """A category below `path`, named by a title (a section's, a question's)."""
    return f"{path}/{mt.category_name(mt.inert_text(mt.untagged(to_plain(title))))}"


def _category(path: str) -> str:
    """The `$CATEGORY:` line: the questions after it go to the category `path`.

    Moodle turns back only `\\\\` in this line (escapedchar_pre; no escapedchar_post): it is
    written raw, backslashes doubled."""
    name = path.replace("\\", "\\\\")
    if "&&" in name:
        name = _AMPERSANDS.sub("&" + _WORD_JOINER, name)
    return f"$CATEGORY: $course$/top/{name}\n"


def _comment(quiz_id: str, question: Question, tags: str, variant: str = "") -> str:
    """The comment Moodle reads a question's idnumber and tags from."""
    parts = (quiz_id, question.id, variant) if variant else (quiz_id, question.id)
    idnumber = mt.idnumber_of(*parts).replace("]", "\\]")
    return f"// [id:{idnumber}]{tags}\n"


# ------------------------------------------------------------------------------------- writers
# A writer returns what goes between the `{` and the general feedback.


def _choice(question: SingleChoice | MultipleChoice, lang: str) -> str:
    """`=right ~wrong` (single) or `~%grade%` for every option (multiple), then `#feedback`."""
    single = isinstance(question, SingleChoice)
    grades = option_grades(question)
    lines = []
    for option in question.options:
        grade = grades[option.id]
        if single:
            mark = "=" if grade == 1 else "~"
        else:
            mark = f"~%{grade_percent(grade * 100)}%" if grade else "~"
        feedback = _html(option.feedback, lang, inline=True)
        text = _sub_text(_html(option.text, lang, inline=True))
        lines.append(f"\n\t{mark}{text}#{_sub_text(feedback)}" if feedback else f"\n\t{mark}{text}")
    return "".join(lines)


def _true_false(question: TrueFalse, lang: str) -> str:
    """`TRUE` or `FALSE`, then the feedback on a wrong answer, then on a right one."""
    right, wrong = (
        (question.feedback_true, question.feedback_false)
        if question.answer
        else (question.feedback_false, question.feedback_true)
    )
    right_html = _sub_text(_html(right, lang, inline=True))
    wrong_html = _sub_text(_html(wrong, lang, inline=True))
    written = "TRUE" if question.answer else "FALSE"
    if wrong_html or right_html:
        written += f"#{wrong_html}"
    return f"{written}#{right_html}" if right_html else written


def _numerical(question: Numerical, lang: str) -> str:
    """`#answer:tolerance`."""
    return f"#{plain_number(question.answer_value)}:{plain_number(question.tolerance_value)}"


def accepted_answers(question: ShortAnswer) -> tuple[list[str], list[str]]:
    """The accepted answers GIFT can write, and those it cannot: with several answers (each
    after `=`), one holding `->` makes Moodle read a matching question."""
    answers = question.answer
    if len(answers) == 1 or not any("->" in answer for answer in answers):
        return answers, []
    kept = [answer for answer in answers if "->" not in answer] or answers[:1]
    return kept, [answer for answer in answers if answer not in kept]


def _accepted(answer: str) -> str:
    """An accepted answer as Moodle stores it back: after `[plain]` where it starts with what
    Moodle would take for a grade (`%50%`) or a format (`[html]`); a ValueError if it holds
    one of the importer's placeholders (`&&035;` would be stored as `#`)."""
    if "&&" in answer and (found := _PLACEHOLDER.search(answer)):
        raise ValueError(
            f"its accepted answer {answer!r} cannot be written in GIFT: Moodle's importer reads "
            f"{found[0]!r} in any text as one of the characters GIFT escapes"
        )
    return f"[plain]{_escaped(answer)}" if answer[:1] in ("[", "%") else _escaped(answer)


def _short_answer(question: ShortAnswer, lang: str) -> str:
    """`=answer` for each accepted answer; a lone answer with `->` without its `=`."""
    answers, _lost = accepted_answers(question)
    if len(answers) == 1 and "->" in answers[0]:
        return _accepted(answers[0])
    return "".join(f"\n\t={_accepted(answer)}" for answer in answers)


_MATCH = attrgetter("match")
_TEXT = attrgetter("text")


def _match(item: Any, get: Callable[[Any], str], lang: str) -> str:
    """A match as plain text (Moodle shows it in a drop-down), as the Moodle XML export has it."""
    return _escaped_plain(plain_line([(lang, item)], get))


def _matching(question: Matching, lang: str) -> str:
    """`=item -> match` per pair, then `= -> match` per distractor."""
    pairs = "".join(
        f"\n\t={_sub_text(_html(pair.item, lang, inline=True))} -> {_match(pair, _MATCH, lang)}"
        for pair in question.pairs
    )
    return pairs + "".join(
        f"\n\t= -> {_match(distractor, _TEXT, lang)}" for distractor in question.distractors
    )


def _essay(question: Essay, lang: str) -> str:
    """Nothing: `{}` is an essay (an editor, a response required, no attachments)."""
    return ""


Writer = Callable[[Any, str], str]
WRITERS: dict[str, Writer] = {
    "single_choice": _choice,
    "multiple_choice": _choice,
    "true_false": _true_false,
    "numerical": _numerical,
    "short_answer": _short_answer,
    "matching": _matching,
    "essay": _essay,
}

# -------------------------------------------------------------------------------------- losses
# What each type loses in GIFT, as clauses completing "question 3 (id) …".


def _shuffle_lost(question: SingleChoice | MultipleChoice | Matching) -> Iterator[str]:
    if not question.shuffle:
        yield "is shuffled as the Moodle site says (gift cannot say shuffle: false)"


def _short_answer_lost(question: ShortAnswer) -> Iterator[str]:
    if question.case_sensitive:
        yield "ignores case (gift cannot say case_sensitive: true)"
    _kept, lost = accepted_answers(question)
    if lost:
        answers = ", ".join(repr(answer) for answer in lost)
        yield f"loses its accepted answers {answers} (gift cannot write -> beside other answers)"


def _essay_lost(question: Essay) -> Iterator[str]:
    if question.grader_info:
        yield "loses its grader information (gift has none)"
    if question.min_words is not None or question.max_words is not None:
        yield "loses its word limits (gift has none)"


def _nothing_lost(question: Question) -> Iterator[str]:
    return iter(())


_TYPE_LOSSES: dict[str, Callable[[Any], Iterator[str]]] = {
    "single_choice": _shuffle_lost,
    "multiple_choice": _shuffle_lost,
    "matching": _shuffle_lost,
    "short_answer": _short_answer_lost,
    "essay": _essay_lost,
}


def _images(question: Question) -> list[str]:
    """The paths of a question's images, each once (read as blocks, and as inline content, as
    an option may be rendered)."""
    found: dict[str, None] = {}
    for _, text in question_texts(question):
        if text and "![" in text:  # nearly every text has no image: no look-up
            for image in (*find_images(text), *find_images(text, as_blocks=False)):
                found[image.src] = None
    return list(found)


def question_losses(question: Question) -> list[str]:
    """What GIFT loses of a question of a type it carries, as clauses."""
    clauses = []
    if question.points != 1:
        clauses.append(f"is worth 1 mark, not {plain_number(question.points)} (gift has no marks)")
    clauses += _TYPE_LOSSES.get(question.type, _nothing_lost)(question)
    if images := _images(question):
        clauses.append(
            f"shows its images {', '.join(images)} as their alt text (gift carries no files)"
        )
    return clauses


# ------------------------------------------------------------------------------------ renderer


class GiftOptions(RendererOptions):
    """Options of the GIFT renderer."""

    bank: bool = Field(
        False,
        description="Also write bank/<lang>.gift, every quiz in one file for one import, each in "
        "its own category under the bank's (the title in content/bank.yaml, or the folder's).",
    )


class GiftRenderer(Renderer[GiftOptions]):
    """Moodle's GIFT text format for the question bank import: a category per quiz and language."""

    name = "gift"
    description = "Moodle's GIFT text format for the question bank import"
    extension = "gift"
    Options = GiftOptions
    supported_types: ClassVar[frozenset[str] | None] = frozenset(WRITERS)
    handles_variables = True  # each variant a question in a sub-category of the question
    handles_sections = True  # each section a sub-category
    quiz_loss_kinds = ("sections",)

    @property
    def combines(self) -> bool:
        return self.options.bank

    def combine(self, lang: str, parts: Sequence[bytes]) -> OutputFile | None:
        """`bank/<lang>.gift`: every quiz's file, each opening with its `$CATEGORY:` line."""
        content = b"\n".join(part.rstrip(b"\n") + b"\n" for part in parts)
        return OutputFile(PurePosixPath("bank", f"{lang}.{self.extension}"), content)

    def render(self, quiz: QuizTranslations, lang: str) -> str:
        current = quiz[lang]
        tags = "".join(f" [tag:{tag}]" for tag in current.tags)
        bank = quiz.bank_title.get(lang) if self.options.bank else None
        top = _quiz_path(current, bank)
        blocks = [_category(top)]
        placed = top
        for section, question in in_sections(current):
            if not self.carries(question):
                continue
            path = top if section is None else _sub_path(top, section.title or section.id)
            if path != placed:
                blocks.append(_category(path))
                placed = path
            try:
                blocks += self._blocks(quiz.quiz_id, question, lang, tags, path)
            except ValueError as exc:
                raise RendererError(
                    f"renderer 'gift': quiz {quiz.quiz_id!r} question {question.id!r}: {exc}"
                ) from None
            if has_variables(question):
                placed = ""  # its variants' sub-category: the next question says its own
        return "\n".join(blocks)

    def _blocks(
        self, quiz_id: str, question: Question, lang: str, tags: str, path: str
    ) -> list[str]:
        """A question's block; a question with variables as its variants, each a question of
        its own in a sub-category of the question (a random question draws one)."""
        if not isinstance(question, Numerical) or not question.variables:
            return [self._question(quiz_id, question, lang, tags)]
        blocks = [_category(_sub_path(path, mt.question_name(question)))]
        for number, (_, variant) in enumerate(expand(quiz_id, question), 1):
            blocks.append(self._question(quiz_id, variant, lang, tags, str(number)))
        return blocks

    @staticmethod
    def _question(quiz_id: str, question: Question, lang: str, tags: str, variant: str = "") -> str:
        """One question's block: its comment, name, text, answers and general feedback."""
        answers = WRITERS[question.type](question, lang)
        name = _escaped_plain(mt.question_name(question))
        explanation = _sub_text(_html(question.explanation, lang))
        return (
            f"{_comment(quiz_id, question, tags, variant)}"
            f"::{name}::[html]{_html(question.prompt, lang)}{{{answers}\n"
            f"\t####{explanation}\n"
            "}\n"
        )

    def losses(self, quiz: QuizTranslations, lang: str) -> Iterator[Loss]:
        """The questions left out (cloze, ordering), and what each other question loses (the
        quiz's description, for which GIFT has no place and the author nothing to do, is not
        reported)."""
        current = quiz[lang]
        left_out = {loss.question: loss for loss in super().losses(quiz, lang)}
        for index, question in enumerate(current.questions):
            if index in left_out:
                yield left_out[index]
                continue
            clauses = question_losses(question)
            if isinstance(question, Numerical) and question.variables:
                count = len(variants(current.id, question))
                clauses.append(
                    f"is its {count} variants, each a numerical question in a sub-category of its "
                    "own (GIFT has no calculated questions): add 'a random question' from it to "
                    "the Moodle quiz"
                )
            if clauses:
                yield Loss(index, ", and ".join(clauses))
        for section in current.sections or ():
            count = len(section.questions)
            if section.pick is not None and section.pick < count:
                yield Loss(
                    None,
                    f"draws {section.pick} of the {count} questions of its section {section.id}: "
                    "GIFT cannot say so; the section is a sub-category: add 'a random question' "
                    f"from it {section.pick} times to the Moodle quiz",
                    kind="sections",
                )
