"""What one PDF says, as data for the Typst template: the exam or its key, in one language and
one form. Each question type is one small function in `WRITERS`, which gives the question's
body on the exam (`exam`), its answer in the key (`key`) and, for a choice question, the letters
of its bubbles on the answer sheet (`bubbles`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from quizbank.gaps import mark_gaps
from quizbank.i18n import level_name, word_limits_message
from quizbank.locales import direction, option_letter, option_list
from quizbank.model import (
    ChoiceGap,
    Cloze,
    Essay,
    Matching,
    MultipleChoice,
    Numerical,
    NumericalGap,
    Ordering,
    Question,
    Quiz,
    ShortAnswer,
    ShortAnswerGap,
    SingleChoice,
    TrueFalse,
)

from .content import Node, Texts, isolated
from .draws import AskedSection, asked
from .forms import Form
from .strings import Words

WORDS_PER_LINE = 12  # handwritten words on one ruled line (7 mm apart) of a page
ESSAY_LINES = (4, 40)  # the fewest and most ruled lines an essay gets
DEFAULT_ESSAY_WORDS = 150


@dataclass
class Paper:
    """What every question of one PDF is written with: language, words, texts, form."""

    lang: str
    words: Words
    texts: Texts
    form: Form

    def blocks(self, text: str) -> list[Node]:
        return self.texts.blocks(text)

    def inline(self, text: str) -> list[Node]:
        return self.texts.inline(text)

    def letter(self, at: int) -> str:
        return option_letter(self.lang, at)


@dataclass
class Part:
    """One question's body on the exam, its answer in the key, its bubbles on the sheet."""

    exam: list[Node]
    key: list[Node]
    hint: str = ""
    bubbles: list[str] | None = None
    extra_key: list[Node] = field(default_factory=list)


def _p(*inlines: Node) -> Node:
    return {"k": "p", "c": list(inlines)}


def _t(text: str) -> Node:
    return {"k": "t", "v": text}


def _strong(*inlines: Node) -> Node:
    return {"k": "strong", "c": list(inlines)}


def _labelled(label: str, blocks: list[Node]) -> Node:
    return {"k": "labelled", "label": label, "c": blocks}


def _choice_part(
    question: SingleChoice | MultipleChoice, paper: Paper, right: set[str], multiple: bool
) -> Part:
    order = paper.form.options(question, len(question.options), question.shuffle)
    items, answers = [], []
    for at, index in enumerate(order):
        option = question.options[index]
        letter = paper.letter(at)
        items.append({"label": letter, "c": paper.blocks(option.text)})
        if option.id in right:
            answers.append(_labelled(letter, paper.blocks(option.text)))
    mark = "square" if multiple else "circle"
    exam = [{"k": "choices", "mark": mark, "items": items}]
    hint = paper.words["choose_all" if multiple else "choose_one"]
    return Part(exam, answers, hint, [paper.letter(at) for at in range(len(order))])


def _single_choice(question: SingleChoice, paper: Paper) -> Part:
    return _choice_part(question, paper, {question.answer}, multiple=False)


def _multiple_choice(question: MultipleChoice, paper: Paper) -> Part:
    return _choice_part(question, paper, set(question.answer), multiple=True)


def _true_false(question: TrueFalse, paper: Paper) -> Part:
    names = [paper.words.gettext("True"), paper.words.gettext("False")]
    items = [{"label": paper.letter(at), "c": [_p(_t(name))]} for at, name in enumerate(names)]
    right = 0 if question.answer else 1
    key = [_labelled(paper.letter(right), [_p(_t(names[right]))])]
    exam = [{"k": "choices", "mark": "circle", "items": items}]
    return Part(exam, key, paper.words["true_false"], [paper.letter(0), paper.letter(1)])


def _answer_box(paper: Paper) -> Node:
    return {"k": "box", "label": paper.words["answer"]}


def _number(answer: float, tolerance: float, paper: Paper) -> str:
    shown = isolated(paper.words.number(answer), paper.lang)
    if not tolerance:
        return shown
    return paper.words.say("tolerance", answer=shown, tolerance=paper.words.number(tolerance))


def _numerical(question: Numerical, paper: Paper) -> Part:
    key = [_p(_strong(_t(_number(question.answer_value, question.tolerance_value, paper))))]
    return Part([_answer_box(paper)], key)


def _accepted(answers: Sequence[str], case_sensitive: bool, paper: Paper) -> list[Node]:
    listed = option_list(paper.lang, [isolated(answer, paper.lang) for answer in answers])
    blocks = [_p(_t(paper.words["accepted"] + " "), _strong(_t(listed)))]
    if case_sensitive:
        blocks.append(_p(_t(paper.words["case_sensitive"])))
    return blocks


def _short_answer(question: ShortAnswer, paper: Paper) -> Part:
    key = _accepted(question.answer, question.case_sensitive, paper)
    return Part([_answer_box(paper)], key)


def _matching(question: Matching, paper: Paper) -> Part:
    texts = [pair.match for pair in question.pairs] + [d.text for d in question.distractors]
    shown = paper.form.scrambled(question, len(texts), len(question.pairs))
    letter_of = {index: paper.letter(at) for at, index in enumerate(shown)}
    items_order = paper.form.options(question, len(question.pairs), question.shuffle)
    items, key = [], []
    for at, index in enumerate(items_order):
        number = paper.words.number(at + 1)
        pair = question.pairs[index]
        items.append({"label": number, "c": paper.blocks(pair.item)})
        match = [_p(_strong(_t(letter_of[index] + " ")), *paper.inline(pair.match))]
        key.append(_labelled(number, match))
    matches = [
        {"label": paper.letter(at), "c": paper.inline(texts[index])}
        for at, index in enumerate(shown)
    ]
    exam = [{"k": "matching", "items": items, "matches": matches}]
    return Part(exam, key, paper.words["match"])


def _ordering(question: Ordering, paper: Paper) -> Part:
    count = len(question.items)
    shown = paper.form.scrambled(question, count, count)
    items = [{"c": paper.blocks(question.items[index].text)} for index in shown]
    numbers = [paper.words.number(shown.index(index) + 1) for index in range(count)]
    right = {
        "k": "list",
        "ordered": True,
        "start": 1,
        "items": [paper.blocks(item.text) for item in question.items],
    }
    positions = paper.words.say("exam_numbers", numbers=option_list(paper.lang, numbers))
    key = [_p(_t(paper.words["right_order"])), right, _p(_t(positions))]
    return Part([{"k": "ordering", "items": items}], key, paper.words["order"])


def _gap_answer(gap: ShortAnswerGap | NumericalGap | ChoiceGap, paper: Paper) -> list[Node]:
    if isinstance(gap, ChoiceGap):
        at = [option.id for option in gap.options].index(gap.answer)
        return [_strong(_t(paper.letter(at) + " ")), *paper.inline(gap.options[at].text)]
    if isinstance(gap, NumericalGap):
        return [_strong(_t(_number(gap.answer_value, gap.tolerance_value, paper)))]
    listed = option_list(paper.lang, [isolated(answer, paper.lang) for answer in gap.answer])
    return [_strong(_t(listed))]


def _cloze(question: Cloze, paper: Paper) -> Part:
    gap_choices, key = [], []
    for n, gap_id in enumerate(question.gap_order, 1):
        gap = question.gaps[gap_id]
        number = paper.words.number(n)
        key.append(_labelled(f"({number})", [_p(*_gap_answer(gap, paper))]))
        if isinstance(gap, ChoiceGap):
            choices = [
                {"label": paper.letter(at), "c": paper.inline(option.text)}
                for at, option in enumerate(gap.options)
            ]
            label = paper.words.say("gap_choices", n=number)
            gap_choices.append({"label": label, "items": choices})
    exam: list[Node] = [{"k": "gaps", "gaps": gap_choices}] if gap_choices else []
    return Part(exam, key, paper.words["cloze"])


def essay_lines(question: Essay) -> int:
    """Ruled lines for an essay: room for its most words (else its fewest, with some over)."""
    words = question.max_words or (question.min_words or DEFAULT_ESSAY_WORDS) * 3 // 2
    low, high = ESSAY_LINES
    return max(low, min(high, math.ceil(words / WORDS_PER_LINE)))


def _essay(question: Essay, paper: Paper) -> Part:
    limits = word_limits_message(question.min_words, question.max_words, paper.lang)
    note = limits % {
        "min": paper.words.number(question.min_words or 0),
        "max": paper.words.number(question.max_words or 0),
    }
    exam = [{"k": "lines", "count": essay_lines(question)}]
    key = []
    if question.grader_info:
        key.append(_labelled(paper.words["grader_info"], paper.blocks(question.grader_info)))
    return Part(exam, key, note)


WRITERS: Mapping[type, Callable[[Any, Paper], Part]] = {
    SingleChoice: _single_choice,
    MultipleChoice: _multiple_choice,
    TrueFalse: _true_false,
    Numerical: _numerical,
    ShortAnswer: _short_answer,
    Matching: _matching,
    Ordering: _ordering,
    Cloze: _cloze,
    Essay: _essay,
}


def _prompt(question: Question, paper: Paper) -> list[Node]:
    if isinstance(question, Cloze):
        return paper.blocks(mark_gaps(question.prompt))
    return paper.blocks(question.prompt)


def _entry(question: Question, number: int, paper: Paper, key: bool) -> tuple[Node, Node | None]:
    """One question of the PDF, numbered as the exam numbers it, and its row of bubbles."""
    writer = WRITERS.get(type(question))
    if writer is None:
        raise TypeError(f"the pdf renderer has no writer for {question.type} questions")
    part = writer(question, paper)
    shown = paper.words.number(number)
    entry: Node = {
        "num": shown,
        "points": paper.words.points(question.points),
        "prompt": _prompt(question, paper),
        "hint": part.hint,
    }
    if key:
        essay = isinstance(question, Essay)
        words = paper.words
        label = words["model_answer"] if essay else words.gettext("Explanation") + ":"
        entry["answer"] = part.key
        entry["explanation"] = _labelled(label, paper.blocks(question.explanation))
    else:
        entry["body"] = part.exam
    bubbles = None if part.bubbles is None else {"num": shown, "letters": part.bubbles}
    return entry, bubbles


def _heading(part: AskedSection, paper: Paper, key: bool) -> Node:
    """A section's title (none for a quiz without sections) and, in the key, what it drew."""
    section = part.section
    title = paper.inline(section.title) if section is not None and section.title else []
    note = ""
    if key and section is not None and part.drawn:
        numbers = {"pick": len(part.questions), "count": len(section.questions)}
        note = paper.words.say("drawn", **{k: paper.words.number(v) for k, v in numbers.items()})
    return {"title": title, "note": note}


def document(quiz: Quiz, paper: Paper, *, key: bool, sheet: bool) -> dict[str, Any]:
    """The data of one PDF: the exam (`key` false) or its key, with the answer sheet if asked.
    It asks what its form draws (`draws.asked`), section by section, numbered throughout."""
    words = paper.words
    parts, bubbles, points = [], [], []
    for part in asked(quiz, paper.form):
        entries = []
        for one in part.questions:
            points.append(one.question.points)
            entry, row = _entry(one.question, len(points), paper, key)
            entries.append(entry)
            if row is not None:
                bubbles.append(row)
        parts.append({**_heading(part, paper, key), "questions": entries})
    total = sum(points)
    total_shown = int(total) if float(total).is_integer() else total
    details = [
        words.say("level", level=level_name(quiz.level, paper.lang)),
        words.ngettext("%(number)s question", "%(number)s questions", len(points))
        % {"number": words.number(len(points))},
        words.say("total", n=words.number(total_shown), points=words.points(total)),
    ]
    form = paper.form.letter
    return {
        "lang": paper.lang,
        "dir": direction(paper.lang),
        "key": key,
        "title": paper.inline(quiz.title),
        "subtitle": words.gettext("Answer key") if key else "",
        "description": paper.blocks(quiz.description),
        "details": details,
        "form": words.say("form", form=form) if form else "",
        "form_letter": form or "",
        "instructions": words["key_instructions" if key else "instructions"],
        "fields": [] if key else [words["name"], words["date"]],
        "parts": parts,
        "sheet": (
            {"title": words["sheet"], "note": words["sheet_instructions"], "rows": bubbles}
            if sheet and not key and bubbles
            else None
        ),
        "page": words["page"],
    }
