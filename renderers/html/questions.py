"""The questions of a quiz page, written as HTML straight from the validated model.

A page can hold thousands of questions, and a template escaped and wrapped some thirty values for
each of them: most of the renderer's time. So each question is written here, with f-strings, from
parts that are safe already: the content through `quizbank.markup.to_html` (which escapes raw
HTML and bidi-isolates Latin runs in right-to-left languages), plain texts (a drop-down's
choices) through `to_plain` and `escape`, ids and interface strings through `escape`. The page's
template receives each question as `Markup` and stays autoescaped.

Images come as the page's own `data:` URIs (page.py sets them for `to_html`), formulas as MathML
that the browser draws; a drop-down's choice can hold only text, so there a formula is its TeX
and an image its alt text.

Each type is one unit: `WRITERS` maps a model class to the function that writes its HTML, and
`SPECS` to the function that gives the page's script what it grades with (assets/quiz.js has
the matching table of handlers). Ids inside a question join their parts with `--`, which no
question, option, pair, item or gap id can contain, so they never collide.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, NamedTuple

from markupsafe import Markup, escape

from quizbank.gaps import GAP_MARKS, gap_index, mark_gaps
from quizbank.grading import option_grades
from quizbank.i18n import N_, format_number, gettext_for, ngettext_for, word_limits_message
from quizbank.locales import direction, is_rtl
from quizbank.markup import plain_label, to_html
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
    ShortAnswer,
    ShortAnswerGap,
    SingleChoice,
    TrueFalse,
)
from quizbank.scramble import scrambled_order

from .draws import Asked, Part, every_question
from .environment import number_html

ICON = (
    '<svg class="icon" viewBox="0 0 24 24" aria-hidden="true" fill="none" stroke="currentColor"'
    ' stroke-width="3" stroke-linecap="round" stroke-linejoin="round"><path d="{path}"/></svg>'
)
RIGHT_ICON = ICON.format(path="M4 12.5l5 5L20 6.5")
WRONG_ICON = ICON.format(path="M6 6l12 12M18 6L6 18")
PARTIAL_ICON = ICON.format(path="M4 12.5l5 5L20 6.5M13 19h7")
UP_ICON = ICON.format(path="M12 19V5M5 12l7-7 7 7")
DOWN_ICON = ICON.format(path="M12 5v14M5 12l7 7 7-7")

# Interface strings the page's script fills in (page.py passes them in its data).
# Translators: the points a question earned after submitting, e.g. "Points: 1.5 of 3".
POINTS = N_("Points: %(score)s of %(total)s")
# Translators: said by a screen reader after an item of an ordering question moved.
MOVED = N_("%(item)s is now at position %(position)s of %(total)s")
# Translators: the live word count under an essay's text area.
WORDS = N_("Words: %(count)s")
# Translators: each question's legend; the numbers come formatted; Urdu: "سوال %(num)s از
# %(total)s".
LEGEND = N_("Question %(num)s of %(total)s")
ESSAYS_NOT_SCORED = N_("Essay questions are not scored here.")


@dataclass(frozen=True)
class Labels:
    """What every question of a page shows alike, translated and escaped once per language."""

    legend: str  # "Question %(num)s of %(total)s"
    options_dir: str
    hint: str
    verdicts: str
    answer: str
    explanation: str
    true: str
    false: str
    your_answer: str
    choose: str
    move_up: str
    move_down: str
    gap: str  # "Gap %(num)s of %(total)s", escaped
    fill_gaps: str
    model_answer: str
    essay_verdict: str
    arrow: str


@lru_cache(maxsize=16)
def labels(lang: str) -> Labels:
    """The interface strings of the questions in `lang`, from its catalog."""
    gettext = gettext_for(lang)

    def escaped(message: str) -> str:  # a plain str: an f-string formats it the fastest
        return str(escape(message))

    right, wrong = escaped(gettext("Correct")), escaped(gettext("Incorrect"))
    partial = escaped(gettext("Partly correct"))
    unanswered = escaped(gettext("Not answered"))
    return Labels(
        legend=escaped(gettext(LEGEND)),
        options_dir=direction(lang),
        hint=escaped(gettext("Choose all that apply.")),
        verdicts=(
            f'<p class="verdict right" hidden>{RIGHT_ICON} {right}</p>\n'
            f'<p class="verdict partial" hidden>{PARTIAL_ICON} {partial}</p>\n'
            f'<p class="verdict wrong" hidden>{WRONG_ICON} {wrong}</p>\n'
            f'<p class="verdict unanswered" hidden>{unanswered}</p>\n'
            '<p class="points" hidden></p>\n'
        ),
        answer=escaped(gettext("Answer")),
        explanation=escaped(gettext("Explanation")),
        true=escaped(gettext("True")),
        false=escaped(gettext("False")),
        your_answer=escaped(gettext("Your answer")),
        choose=escaped(gettext("Choose…")),
        move_up=escaped(gettext("Move up")),
        move_down=escaped(gettext("Move down")),
        # Translators: the accessible name of a gap in a text; the numbers come formatted.
        gap=escaped(gettext("Gap %(num)s of %(total)s")),
        fill_gaps=escaped(gettext("Fill in the gaps.")),
        model_answer=escaped(gettext("Model answer")),
        essay_verdict=(
            f'<p class="verdict unscored" hidden>{escaped(gettext(ESSAYS_NOT_SCORED))}</p>\n'
        ),
        arrow="←" if is_rtl(lang) else "→",
    )


def legends(shared: Labels, total: int, lang: str) -> Iterator[str]:
    """The legends of a page of `total` questions, "Question 1 of 20" on, numbers by Babel."""
    of_total = number_html(total, lang)
    for number in range(1, total + 1):
        # The message is escaped, and so are the numbers: a plain `%` keeps the legend safe.
        yield shared.legend % {"num": number_html(number, lang), "total": of_total}


@lru_cache(maxsize=64)
def show_answer(lang: str, count: int) -> str:
    """The summary of the `<details>` that holds a question's `count` right answers: "Show
    answer" while it is closed, "Hide answer" while it is open (the stylesheet picks one)."""
    ngettext = ngettext_for(lang)
    show = escape(ngettext("Show answer", "Show answers", count))
    hide = escape(ngettext("Hide answer", "Hide answers", count))
    return f'<span class="when-closed">{show}</span><span class="when-open">{hide}</span>'


# A displayed formula's MathML (quizbank.maths), which ends at the first `</math>`: MathML
# does not nest.
_DISPLAYED = re.compile(r'<math [^>]*display="block".*?</math>', re.S)


def _with_formulas(html: str) -> str:
    """Formulas ready for the page: a displayed formula is in a box of its own that scrolls
    sideways on a phone when it is wider than the column, and that keyboard users can reach.
    (Each is named by its TeX already: quizbank.maths sets `aria-label`.)"""
    return _DISPLAYED.sub(r'<span class="formula" tabindex="0">\g<0></span>', html)


# An inline code span (not a code block's, which scrolls) and, in its escaped text, a run of
# dots or underscores between two letters or digits: `torch.serialization.add_safe_globals()`.
_INLINE_CODE = re.compile(r"(?<!<pre>)(<code[^>]*>)([^<]*)</code>")
_JOINS = re.compile(r"(?<=[^\W_])([._]+)(?=[^\W_])")
_WBR = r"\1<wbr>"  # the run, then a line-break opportunity
_LONG_CODE = 24  # characters: about the most a phone's line holds beside a few words


def _breakable(code: re.Match[str]) -> str:
    """A long inline code span that a narrow line breaks only after a dot or an underscore
    (the browser would otherwise break inside a name, `add_safe_glo` / `bals()`); a short one
    moves to the next line whole (`set_` / `epoch()` would be worse)."""
    if len(code[2]) < _LONG_CODE:
        return code[0]
    return f"{code[1]}{_JOINS.sub(_WBR, code[2])}</code>"


def _html(text: str, lang: str, *, inline: bool = False) -> str:
    """Markdown as safe HTML through the shared `to_html`, its code spans breakable after a
    dot or underscore; only a text with a `$` may hold a formula, and only such a text is
    looked at again."""
    html = to_html(text, lang, inline=inline)
    if "`" in text:
        html = _INLINE_CODE.sub(_breakable, html)
    return _with_formulas(html) if "$" in text else html


def _block(text: str, lang: str) -> str:
    # A code block scrolls sideways inside its own box on a phone: keyboard users need to reach
    # it to scroll it. (A literal "<pre>" in the author's text arrives escaped, as "&lt;pre&gt;".)
    return _html(text, lang).replace("<pre>", '<pre tabindex="0">')


def block_html(text: str, lang: str) -> Markup:
    """Markdown blocks as safe HTML, through the shared `to_html`."""
    return Markup(_block(text, lang))  # to_html escapes the author's text


def _is_one_paragraph(html: str) -> bool:
    return html.startswith("<p>") and html.endswith("</p>") and html.count("<p>") == 1


def _prompt(text: str, lang: str) -> tuple[str, str]:
    """The prompt as HTML: inline in the legend if it is one paragraph, else as blocks after it."""
    if _is_one_paragraph(to_html(text, lang)):
        return _html(text, lang, inline=True), ""
    return "", _block(text, lang)


def _feedback(text: str | None, lang: str) -> str:
    return _block(text, lang) if text else ""


def _plain(text: str, lang: str) -> str:
    """A text where no markup may go (a drop-down's choice): its words, an image as its alt
    text and a formula as its TeX, escaped; in a right-to-left language each Latin run and
    formula isolated left to right (`plain_label`), or `loss.backward()` would read
    `()loss.backward`."""
    return str(escape(plain_label(text, lang)))


class Head(NamedTuple):
    """What the writer of every type gets besides its question."""

    qid: str  # the question's id on the page (a variant's: `adam-memory__3`): a slug
    legend: str
    shared: Labels
    lang: str
    hidden: bool = False  # a variant the page shows only when an attempt draws it


def _start(head: Head, prompt: str, *, hint: str = "", legend_text: str = "") -> str:
    """The fieldset's opening, its legend, and whatever the legend leaves out (a long prompt,
    a hint), which the fieldset points at. `legend_text` replaces the prompt in the legend."""
    qid = head.qid
    inline, block = ("", prompt) if legend_text else _prompt(prompt, head.lang)
    described = [f"q-{qid}--prompt"] if block and not legend_text else []
    if hint:
        described.append(f"q-{qid}--hint")
    aria = f' aria-describedby="{" ".join(described)}"' if described else ""
    shown = legend_text or inline
    return "".join(
        (
            f'<fieldset class="question" id="q-{qid}" data-question="{qid}"{aria}'
            f"{' hidden' if head.hidden else ''}>\n",
            f'<legend><span class="number">{head.legend}</span>\n',
            f'<span class="prompt">{shown}</span>' if shown else "",
            "</legend>\n",
            f'<div class="prompt" id="q-{qid}--prompt">{block}</div>' if block else "",
            f'<p class="hint" id="q-{qid}--hint">{hint}</p>' if hint else "",
        )
    )


def _list(items: Sequence[str], tag: str = "ul") -> str:
    return f"<{tag}>{''.join(f'<li>{item}</li>' for item in items)}</{tag}>"


def _end(
    head: Head,
    answer: str,
    count: int,
    explanation: str,
    *,
    answer_label: str = "",
    explanation_label: str = "",
    verdicts: str = "",
) -> str:
    """The verdicts and the closed `<details>` with the right answer (`count` of them, as HTML;
    none for an essay) and the explanation."""
    shared = head.shared
    right = f"<dt>{answer_label or shared.answer}</dt>\n<dd>{answer}</dd>\n" if answer else ""
    return (
        f"{verdicts or shared.verdicts}"
        '<details class="answer">\n'
        f"<summary>{show_answer(head.lang, count)}</summary>\n"
        f"<dl>\n{right}"
        f"<dt>{explanation_label or shared.explanation}</dt>\n"
        f"<dd>{_block(explanation, head.lang)}</dd>\n</dl>\n"
        "</details>\n"
        "</fieldset>\n"
    )


def _answers(answers: Sequence[str], tag: str = "ul") -> tuple[str, int]:
    """One right answer as it is, several as a list; and how many."""
    return (answers[0] if len(answers) == 1 else _list(answers, tag)), len(answers)


# Choice questions: single_choice, multiple_choice and true_false.


class Choice(NamedTuple):
    """One option of a question: its id (an `OptionId`, nothing to escape), and its label and
    feedback (empty if none) as HTML."""

    id: str
    label: str
    feedback: str


def _choices(question: SingleChoice | MultipleChoice | TrueFalse, head: Head) -> list[Choice]:
    if isinstance(question, TrueFalse):
        shared = head.shared
        return [
            Choice("true", shared.true, _feedback(question.feedback_true, head.lang)),
            Choice("false", shared.false, _feedback(question.feedback_false, head.lang)),
        ]
    lang = head.lang
    return [
        Choice(option.id, _html(option.text, lang, inline=True), _feedback(option.feedback, lang))
        for option in question.options
    ]


def _option(choice: Choice, input_type: str, name: str) -> str:
    feedback = f'<div class="feedback" hidden>{choice.feedback}</div>' if choice.feedback else ""
    return (
        '<div class="option">\n'
        f'<label><input type="{input_type}" name="{name}" value="{choice.id}">'
        f' <span class="text">{choice.label}</span></label>\n'
        f"{feedback}</div>\n"
    )


def _choice_html(question: SingleChoice | MultipleChoice | TrueFalse, head: Head) -> str:
    checkbox = isinstance(question, MultipleChoice)
    input_type = "checkbox" if checkbox else "radio"
    choices = _choices(question, head)
    right = set(question.answer_ids)
    answer, count = _answers([choice.label for choice in choices if choice.id in right])
    return (
        f"{_start(head, question.prompt, hint=head.shared.hint if checkbox else '')}"
        f'<div class="options" dir="{head.shared.options_dir}">\n'
        f"{''.join(_option(choice, input_type, head.qid) for choice in choices)}"
        "</div>\n"
        f"{_end(head, answer, count, question.explanation)}"
    )


# Typed answers: numerical and short_answer, and the gaps of a cloze.

# A typed answer's field reads as the learner types: left to right once its first letter is
# Latin (`state_dict()`, not `()state_dict`, on an Urdu page), right to left for Urdu.
TYPED = 'dir="auto" autocomplete="off" autocapitalize="off" spellcheck="false"'


def _field(head: Head, numeric: bool) -> str:
    """A labelled text field for a typed answer."""
    mode = ' inputmode="decimal"' if numeric else ""
    return (
        '<div class="response">\n'
        f'<label for="q-{head.qid}--answer">{head.shared.your_answer}</label>\n'
        f'<input type="text" id="q-{head.qid}--answer" name="{head.qid}"{mode} {TYPED}>\n'
        "</div>\n"
    )


def _number_answer(answer: float, tolerance: float, lang: str) -> str:
    """`0.9 ± 0.005`, each number by Babel (in Urdu the reader meets 0.9 first, on the right)."""
    number = number_html(answer, lang)
    return f"{number} ± {number_html(tolerance, lang)}" if tolerance else number


def _accepted(answers: Sequence[str], lang: str) -> list[str]:
    """Accepted answers as typed, each isolated; in a right-to-left page one without a
    right-to-left letter (`state*dict`) is marked English, as the Latin runs of the texts are."""
    english = ' lang="en"' if is_rtl(lang) else ""
    return [
        f"<bdi{'' if _has_rtl_letter(answer) else english}>{escape(answer)}</bdi>"
        for answer in answers
    ]


def _has_rtl_letter(text: str) -> bool:
    return any(unicodedata.bidirectional(char) in ("R", "AL") for char in text)


def _numerical_html(question: Numerical, head: Head) -> str:
    answer = _number_answer(question.answer_value, question.tolerance_value, head.lang)
    return (
        f"{_start(head, question.prompt)}{_field(head, numeric=True)}"
        f"{_end(head, answer, 1, question.explanation)}"
    )


def _short_answer_html(question: ShortAnswer, head: Head) -> str:
    answer, count = _answers(_accepted(question.answer, head.lang))
    return (
        f"{_start(head, question.prompt)}{_field(head, numeric=False)}"
        f"{_end(head, answer, count, question.explanation)}"
    )


# Matching: an item per row, each with a drop-down of every match and distractor.


def _select(attributes: str, choices: str, choose: str) -> str:
    return f'<select {attributes}><option value="">{choose}</option>{choices}</select>'


def _matching_html(question: Matching, head: Head) -> str:
    qid, lang = head.qid, head.lang
    choices = [(pair.id, pair.match) for pair in question.pairs]
    choices += [(distractor.id, distractor.text) for distractor in question.distractors]
    if question.shuffle:  # without JavaScript, no match beside its own item
        order = scrambled_order(len(choices), question.id, len(question.pairs))
        choices = [choices[index] for index in order]
    options = "".join(
        f'<option value="{cid}">{_plain(text, lang)}</option>' for cid, text in choices
    )
    rows = []
    answers = []
    for pair in question.pairs:
        item = _html(pair.item, lang, inline=True)
        field = f"q-{qid}--{pair.id}"
        select = _select(f'id="{field}" name="{qid}--{pair.id}"', options, head.shared.choose)
        rows.append(
            f'<div class="pair" data-pair="{pair.id}">\n'
            f'<label for="{field}">{item}</label>\n{select}\n</div>\n'
        )
        match = _html(pair.match, lang, inline=True)  # rich, as the texts of the question
        answers.append(f"{item} {head.shared.arrow} {match}")
    answer, count = _answers(answers)
    return (
        f"{_start(head, question.prompt)}"
        f'<div class="pairs">\n{"".join(rows)}</div>\n'
        f"{_end(head, answer, count, question.explanation)}"
    )


# Ordering: a list the learner reorders with two buttons per item.


def _ordering_html(question: Ordering, head: Head) -> str:
    qid, lang, shared = head.qid, head.lang, head.shared
    texts = {item.id: _html(item.text, lang, inline=True) for item in question.items}
    # Without JavaScript, no item in its place; the script shuffles again on each attempt.
    order = scrambled_order(len(question.items), question.id, len(question.items))
    rows = [
        f'<li class="item" data-item="{item.id}">'
        f'<span class="text" id="q-{qid}--{item.id}">{texts[item.id]}</span>'
        '<span class="moves">'
        f'<button type="button" class="move up" aria-describedby="q-{qid}--{item.id}">'
        f'{UP_ICON}<span class="visually-hidden">{shared.move_up}</span></button>'
        f'<button type="button" class="move down" aria-describedby="q-{qid}--{item.id}">'
        f'{DOWN_ICON}<span class="visually-hidden">{shared.move_down}</span></button>'
        "</span></li>\n"
        for item in (question.items[index] for index in order)
    ]
    answer = _list([texts[item.id] for item in question.items], "ol")
    return (
        f"{_start(head, question.prompt)}"
        f'<ol class="order">\n{"".join(rows)}</ol>\n'
        f'<p class="announce" aria-live="polite"></p>\n'
        f"{_end(head, answer, len(question.items), question.explanation)}"
    )


# Cloze: a text with a field or drop-down in place of each [[gap]].


def _gap_field(gap: Any, attributes: str, head: Head) -> str:
    if isinstance(gap, ChoiceGap):
        options = "".join(
            f'<option value="{option.id}">{_plain(option.text, head.lang)}</option>'
            for option in gap.options
        )
        return _select(f'class="gap" {attributes}', options, head.shared.choose)
    mode = ' inputmode="decimal"' if isinstance(gap, NumericalGap) else ""
    return f'<input type="text" class="gap" {attributes}{mode} size="12" {TYPED}>'


def _gap_answer(gap: Any, lang: str) -> str:
    if isinstance(gap, ChoiceGap):
        (right,) = [option for option in gap.options if option.id == gap.answer]
        return _html(right.text, lang, inline=True)
    if isinstance(gap, NumericalGap):
        return _number_answer(gap.answer_value, gap.tolerance_value, lang)
    return " / ".join(_accepted(gap.answer, lang))


def _cloze_html(question: Cloze, head: Head) -> str:
    qid, lang = head.qid, head.lang
    order = question.gap_order
    total = escape(format_number(len(order), lang))
    fields = {}
    for n, gap_id in enumerate(order, 1):
        name = head.shared.gap % {"num": escape(format_number(n, lang)), "total": total}
        fields[gap_id] = _gap_field(
            question.gaps[gap_id],
            f'id="q-{qid}--{gap_id}" name="{qid}--{gap_id}" data-gap="{gap_id}"'
            f' aria-label="{name}"',
            head,
        )
    prompt = _block(mark_gaps(question.prompt), lang)
    text = GAP_MARKS.sub(lambda mark: fields[order[gap_index(mark[0])]], prompt)
    # The right answer: the text again, each gap filled in.
    answers = [_gap_answer(question.gaps[gap_id], lang) for gap_id in order]
    filled_in = GAP_MARKS.sub(
        lambda mark: f'<strong class="filled">{answers[gap_index(mark[0])]}</strong>', prompt
    )
    return (
        f"{_start(head, text, legend_text=head.shared.fill_gaps)}\n"
        f"{_end(head, filled_in, len(order), question.explanation)}"
    )


# Essay: a text area with a live word count; the explanation is the model answer.


@lru_cache(maxsize=256)
def _word_limits(low: int | None, high: int | None, lang: str) -> str:
    message = word_limits_message(low, high, lang)
    numbers = {"min": number_html(low or 0, lang), "max": number_html(high or 0, lang)}
    return str(escape(message) % numbers) if message else ""


def _essay_html(question: Essay, head: Head) -> str:
    qid, shared = head.qid, head.shared
    limits = _word_limits(question.min_words, question.max_words, head.lang)
    shown = f'<span class="limits">{limits}</span> ' if limits else ""
    end = _end(
        head,
        "",
        1,
        question.explanation,
        explanation_label=shared.model_answer,
        verdicts=shared.essay_verdict,
    )
    return (
        f"{_start(head, question.prompt)}"
        '<div class="response">\n'
        f'<label for="q-{qid}--answer">{shared.your_answer}</label>\n'
        f'<textarea id="q-{qid}--answer" name="{qid}" rows="6"'
        f' aria-describedby="q-{qid}--words" dir="auto"></textarea>\n'
        f'<p class="words" id="q-{qid}--words">{shown}<span class="count"></span></p>\n'
        "</div>\n"
        f"{end}"
    )


WRITERS: dict[type[Any], Callable[[Any, Head], str]] = {
    SingleChoice: _choice_html,
    MultipleChoice: _choice_html,
    TrueFalse: _choice_html,
    Numerical: _numerical_html,
    ShortAnswer: _short_answer_html,
    Matching: _matching_html,
    Ordering: _ordering_html,
    Cloze: _cloze_html,
    Essay: _essay_html,
}


def question_html(question: Question, head: Head) -> str:
    """One question as a `<fieldset>`: its legend and prompt, its answer fields, its verdicts
    and its closed answer, written by its type's writer (safe HTML: escaped and to_html
    parts)."""
    return WRITERS[type(question)](question, head)


def _asked_html(asked: Asked, legend: str, shared: Labels, lang: str) -> str:
    """A question as the page asks it: its `<fieldset>`; a question with variables, each
    variant's, together, all but the first hidden until an attempt draws one."""
    if not asked.drawn:  # ids are slugs, variants' with `__` and a number: nothing to escape
        (qid, question), *_ = asked.variants
        return question_html(question, Head(qid, legend, shared, lang))
    fieldsets = "".join(
        question_html(question, Head(qid, legend, shared, lang, hidden=n > 0))
        for n, (qid, question) in enumerate(asked.variants)
    )
    return (
        f'<div class="variants" data-question="{asked.question.id}"'
        f' data-variants="{len(asked.variants)}">\n{fieldsets}</div>\n'
    )


def _part_html(part: Part, questions: Iterator[str], lang: str) -> str:
    """A section: its title, and its questions, of which an attempt asks `data-pick`."""
    pick = f' data-pick="{part.pick}"' if part.pick is not None else ""
    title = f"<h2>{_html(part.title, lang, inline=True)}</h2>\n" if part.title else ""
    return f'<div class="part"{pick}>\n{title}{"".join(questions)}</div>\n'


def _parts_html(parts: Sequence[Part], lang: str) -> Iterator[str]:
    """Each question of the page (a section that has a title or a pick, whole)."""
    shared = labels(lang)
    numbered = legends(shared, sum(len(part.questions) for part in parts), lang)
    for part in parts:
        written = (_asked_html(asked, next(numbered), shared, lang) for asked in part.questions)
        if part.title is None and part.pick is None:
            yield from written
        else:
            yield _part_html(part, written, lang)


def questions_html(parts: Sequence[Part], lang: str) -> Markup:
    """The questions of a page, one per line, numbered in order, as a page without JavaScript
    shows them all (its script numbers the questions each attempt draws). One `Markup` for the
    page's template to insert whole, not one per question for it to look at."""
    return Markup("\n".join(_parts_html(parts, lang)))  # from escaped and to_html parts


# What the page's script grades each type with (assets/quiz.js, `TYPES`). Every question has
# its `type`; the scored ones their `points`. Grades are Moodle's: see quizbank.grading.

Spec = dict[str, Any]


def _choice_spec(question: SingleChoice | MultipleChoice) -> Spec:
    return {"grades": option_grades(question), "shuffle": question.shuffle}


def _true_false_spec(question: TrueFalse) -> Spec:
    return {"grades": {"true": float(question.answer), "false": float(not question.answer)}}


def _numerical_spec(question: Numerical | NumericalGap) -> Spec:
    return {"answer": question.answer, "tolerance": question.tolerance}


def _short_answer_spec(question: ShortAnswer | ShortAnswerGap) -> Spec:
    return {"answers": question.answer, "case_sensitive": question.case_sensitive}


def _matching_spec(question: Matching) -> Spec:
    return {"pairs": [pair.id for pair in question.pairs], "shuffle": question.shuffle}


def _ordering_spec(question: Ordering) -> Spec:
    return {"order": [item.id for item in question.items]}


def _choice_gap_spec(gap: ChoiceGap) -> Spec:
    return {"answer": gap.answer}


GAP_SPECS: dict[type[Any], Callable[[Any], Spec]] = {
    ShortAnswerGap: _short_answer_spec,
    NumericalGap: _numerical_spec,
    ChoiceGap: _choice_gap_spec,
}


def _cloze_spec(question: Cloze) -> Spec:
    gaps = [
        {"id": gap_id, "type": gap.type, **GAP_SPECS[type(gap)](gap)}
        for gap_id in question.gap_order
        for gap in (question.gaps[gap_id],)
    ]
    return {"gaps": gaps, "shuffle": question.shuffle}


def _essay_spec(question: Essay) -> Spec:
    return {}  # nothing to grade; and grader_info is for graders, never in the page


SPECS: dict[type[Any], Callable[[Any], Spec]] = {
    SingleChoice: _choice_spec,
    MultipleChoice: _choice_spec,
    TrueFalse: _true_false_spec,
    Numerical: _numerical_spec,
    ShortAnswer: _short_answer_spec,
    Matching: _matching_spec,
    Ordering: _ordering_spec,
    Cloze: _cloze_spec,
    Essay: _essay_spec,
}


def question_spec(question: Question) -> Spec:
    """What the page's script needs to grade one question."""
    spec: Spec = {"type": question.type}
    if not isinstance(question, Essay):
        spec["points"] = question.points
    return spec | SPECS[type(question)](question)


def answer_key(parts: Sequence[Part]) -> dict[str, Spec]:
    """Each question's id on the page (each variant's) to what grades it, for the page's
    script."""
    return {
        qid: question_spec(question)
        for asked in every_question(parts)
        for qid, question in asked.variants
    }
