"""Markdown export: a readable quiz for docs and repositories, the answer key in its own section.

The page: its header, each question as its type's writer shows it (a table of one writer per
type), and the answer key. The author's Markdown passes through guarded
(`quizbank_renderers.markdown_guards`), beside and inside the page's own lists
(`markdown_lists`). Right-to-left languages are wrapped in `<div dir="rtl" lang="…">` with blank
lines inside, so hosts such as GitHub still render the Markdown within, their code and Latin
runs isolated (`markdown_rtl`). The answer key's headings of a right-to-left page open with the
language's word for question (`### سوال 7: 4`), or GitHub's `dir="auto"` would lay out one with
no right-to-left letter (`### 7. 4`) left to right; the page's own labels and numbers are not
isolated.

Interface strings ("Answer key", "3 questions", True/False) come from quizbank's gettext catalogs.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from pydantic import BaseModel, Field

from quizbank.i18n import (
    format_number,
    gettext_for,
    level_name,
    ngettext_for,
    word_limits_message,
)
from quizbank.locales import is_rtl, option_label, option_letter, option_list
from quizbank.markup import (
    FSI,
    PDI,
    to_plain,
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

from .markdown_guards import lead_and_rest, safe_markdown
from .markdown_lists import Block, PageList, laid_out
from .markdown_rtl import isolated, opens_right_to_left

_LINK_TEXT_BRACKET = re.compile(r"(?<!\\)([\[\]])")


class MarkdownOptions(RendererOptions):
    answers: bool = Field(
        True,
        description="Add the answer key with explanations; "
        "-O answers=false leaves the key out: a copy for learners.",
    )


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
        return isolated(lead, self.rtl), isolated(rest, self.rtl)

    def blocks(self, text: str) -> str:
        """`safe_markdown`, isolated on a right-to-left page."""
        return isolated(safe_markdown(text), self.rtl)


@lru_cache(maxsize=256)
def _label(lang: str, number: int) -> str:
    """The label of the option at 0-based `number` in bold, as the page shows it before the
    option's text: `**B.**`, `**(ب)**` (made once per language and number)."""
    return f"**{option_label(lang, number)}**"


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
    choices = [(_label(lang, n), *page.split(t)) for n, (_, t) in enumerate(texts)]
    ids = [choice_id for choice_id, _ in texts]
    right = question.answer_ids
    hint = [page.interface.choose_all] if isinstance(question, MultipleChoice) else []
    letters = option_list(lang, [option_letter(lang, ids.index(choice_id)) for choice_id in right])
    key = [choice for choice_id, choice in zip(ids, choices, strict=True) if choice_id in right]
    return _Parts(question.prompt, [*hint, PageList(choices)], letters, [PageList(key)])


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
    return f"{FSI}{code}{PDI}" if is_rtl(lang) else code


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
    return isolated(lead if not rest else _escaped(to_plain(text)), rtl)


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
        f"{_label(lang, at)} {_cell(texts[index], page.rtl)}" for at, index in enumerate(order)
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
        (items[n], f"{_label(lang, order.index(n))} {_cell(texts[n], page.rtl)}") for n in pairs
    ]
    answer = option_list(
        lang, [f"{format_number(n + 1, lang)} {interface.arrow} {letters[n]}" for n in pairs]
    )
    return _Parts(question.prompt, body, answer, [_table(head, rows)])


def _ordering(question: Ordering, page: _Page) -> _Parts:
    """A numbered list in a fixed scrambled order; the key gives the right order."""
    order = scrambled_order(len(question.items), question.id, len(question.items))
    right = [("", *page.split(item.text)) for item in question.items]
    shown = [right[index] for index in order]
    numbers = [format_number(order.index(index) + 1, page.lang) for index in range(len(order))]
    body: list[Block] = [page.interface.order_how, PageList(shown, ordered=True)]
    return _Parts(
        question.prompt, body, option_list(page.lang, numbers), [PageList(right, ordered=True)]
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
        return f"{_label(lang, index)} {_inline(gap.options[index].text, is_rtl(lang))}"
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
    body: list[Block] = [page.interface.fill_gaps, *([PageList(options)] if options else [])]
    answer = " · ".join(f"{label} {_gap_answer(gap, lang, long=False)}" for label, gap in gaps)
    key: list[Block] = [
        PageList([(label, _gap_answer(gap, lang, long=True), "") for label, gap in gaps])
    ]
    notes = [
        note
        for _, gap in gaps
        if isinstance(gap, ShortAnswerGap)
        for note in _accepted_notes(gap, page)
    ]
    return _Parts(_blanks(question.prompt, lang), body, answer, key + list(dict.fromkeys(notes)))


def _gap_option(lang: str, number: int, text: str) -> str:
    return f"{_label(lang, number)} {_inline(text, is_rtl(lang))}"


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
                blocks += [f"{level} {named}", *laid_out([page.blocks(parts.prompt), *parts.body])]
            elif rtl and not opens_right_to_left(lead):
                # Code or a Latin word first: `dir="auto"` would lay the heading out left to
                # right, so a word of the language opens it, as in the key.
                blocks += [f"{level} {named}: {lead}".rstrip(), *laid_out([rest, *parts.body])]
            else:
                blocks += [f"{level} {shown}. {lead}".rstrip(), *laid_out([rest, *parts.body])]
            if answers:
                # On a right-to-left page, a word of the language first: a host's `dir="auto"`
                # would lay out `### 7. 4` (no right-to-left letter) left to right.
                key.append(
                    f"### {named}: {parts.answer}" if rtl else f"### {shown}. {parts.answer}"
                )
                extra = [*parts.key, *_variables_key(written, page)]
                key += laid_out([*extra, page.blocks(question.explanation)])
    body = "\n\n".join(block for block in blocks + key if block)
    if rtl:
        body = f'<div dir="rtl" lang="{quiz.lang}">\n\n{body}\n\n</div>'
    return body + "\n"


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
