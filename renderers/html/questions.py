"""The questions of a quiz page, written as HTML straight from the validated model.

A page can hold thousands of questions, and a template escaped and wrapped some thirty values for
each of them: most of the renderer's time. So each question is written here, with f-strings, from
parts that are safe already: the content through `quizbank.markup.to_html` (which escapes raw
HTML and bidi-isolates Latin runs in right-to-left languages), ids and interface strings through
`escape`. The page's template receives each question as `Markup` and stays autoescaped.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

from markupsafe import Markup, escape

from quizbank.i18n import gettext_for, ngettext_for
from quizbank.locales import direction
from quizbank.markup import to_html
from quizbank.model import MultipleChoice, Question, TrueFalse

from .environment import number_html

ICON = (
    '<svg class="icon" viewBox="0 0 24 24" aria-hidden="true" fill="none" stroke="currentColor"'
    ' stroke-width="3" stroke-linecap="round" stroke-linejoin="round"><path d="{path}"/></svg>'
)
RIGHT_ICON = ICON.format(path="M4 12.5l5 5L20 6.5")
WRONG_ICON = ICON.format(path="M6 6l12 12M18 6L6 18")


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


@lru_cache(maxsize=16)
def labels(lang: str) -> Labels:
    """The interface strings of the questions in `lang`, from its catalog."""
    gettext = gettext_for(lang)
    right, wrong = escape(gettext("Correct")), escape(gettext("Incorrect"))
    unanswered = escape(gettext("Not answered"))
    return Labels(
        # Translators: the numbers come formatted; Urdu: "سوال %(num)s از %(total)s".
        legend=str(escape(gettext("Question %(num)s of %(total)s"))),
        options_dir=direction(lang),
        hint=escape(gettext("Choose all that apply.")),
        verdicts=(
            f'<p class="verdict right" hidden>{RIGHT_ICON} {right}</p>\n'
            f'<p class="verdict wrong" hidden>{WRONG_ICON} {wrong}</p>\n'
            f'<p class="verdict unanswered" hidden>{unanswered}</p>\n'
        ),
        answer=escape(gettext("Answer")),
        explanation=escape(gettext("Explanation")),
        true=escape(gettext("True")),
        false=escape(gettext("False")),
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


def _block(text: str, lang: str) -> str:
    # A code block scrolls sideways inside its own box on a phone: keyboard users need to reach
    # it to scroll it. (A literal "<pre>" in the author's text arrives escaped, as "&lt;pre&gt;".)
    return to_html(text, lang).replace("<pre>", '<pre tabindex="0">')


def block_html(text: str, lang: str) -> Markup:
    """Markdown blocks as safe HTML, through the shared `to_html`."""
    return Markup(_block(text, lang))  # to_html escapes the author's text


def _is_one_paragraph(html: str) -> bool:
    return html.startswith("<p>") and html.endswith("</p>") and html.count("<p>") == 1


def _prompt(text: str, lang: str) -> tuple[str, str]:
    """The prompt as HTML: inline in the legend if it is one paragraph, else as blocks after it."""
    if _is_one_paragraph(to_html(text, lang)):
        return to_html(text, lang, inline=True), ""
    return "", _block(text, lang)


def _feedback(text: str | None, lang: str) -> str:
    return _block(text, lang) if text else ""


class Choice(NamedTuple):
    """One option of a question: its id, and its label and feedback (empty if none) as HTML."""

    id: str
    label: str
    feedback: str


def _choices(question: Question, shared: Labels, lang: str) -> list[Choice]:
    if isinstance(question, TrueFalse):
        return [
            Choice("true", shared.true, _feedback(question.feedback_true, lang)),
            Choice("false", shared.false, _feedback(question.feedback_false, lang)),
        ]
    return [
        Choice(option.id, to_html(option.text, lang, inline=True), _feedback(option.feedback, lang))
        for option in question.options
    ]


def _option(choice: Choice, input_type: str, name: str) -> str:
    feedback = f'<div class="feedback" hidden>{choice.feedback}</div>' if choice.feedback else ""
    return (
        '<div class="option">\n'
        f'<label><input type="{input_type}" name="{name}" value="{escape(choice.id)}">'
        f' <span class="text">{choice.label}</span></label>\n'
        f"{feedback}</div>\n"
    )


def _fieldset(qid: str, prompt_block: bool, checkbox: bool) -> str:
    """The opening tag, pointing at what the legend leaves out: a long prompt, the hint."""
    described = [f"q-{qid}-prompt"] if prompt_block else []
    if checkbox:
        described.append(f"q-{qid}-hint")
    ids = " ".join(described)
    aria = f' aria-describedby="{ids}"' if ids else ""
    return f'<fieldset class="question" id="q-{qid}" data-question="{qid}"{aria}>\n'


def _answer(answers: list[str], explanation: str, shared: Labels, lang: str) -> str:
    """The closed `<details>` with the right answers and the explanation."""
    if len(answers) == 1:
        answer = f"<dd>{answers[0]}</dd>"
    else:
        answer = f"<dd><ul>{''.join(f'<li>{label}</li>' for label in answers)}</ul></dd>"
    return (
        '<details class="answer">\n'
        f"<summary>{show_answer(lang, len(answers))}</summary>\n"
        f"<dl>\n<dt>{shared.answer}</dt>\n{answer}\n"
        f"<dt>{shared.explanation}</dt>\n<dd>{_block(explanation, lang)}</dd>\n</dl>\n"
        "</details>\n"
    )


def question_html(question: Question, legend: str, shared: Labels, lang: str) -> Markup:
    """One question as a `<fieldset>`: its legend and prompt, its options, and its answer."""
    qid = escape(question.id)
    inline, block = _prompt(question.prompt, lang)
    checkbox = isinstance(question, MultipleChoice)
    input_type = "checkbox" if checkbox else "radio"
    choices = _choices(question, shared, lang)
    right = set(question.answer_ids)
    answers = [choice.label for choice in choices if choice.id in right]
    parts = (
        _fieldset(qid, bool(block), checkbox),
        f'<legend><span class="number">{legend}</span>\n',
        f'<span class="prompt">{inline}</span>' if inline else "",
        "</legend>\n",
        f'<div class="prompt" id="q-{qid}-prompt">{block}</div>' if block else "",
        f'<p class="hint" id="q-{qid}-hint">{shared.hint}</p>' if checkbox else "",
        f'<div class="options" dir="{shared.options_dir}">\n',
        *(_option(choice, input_type, qid) for choice in choices),
        "</div>\n",
        shared.verdicts,
        _answer(answers, question.explanation, shared, lang),
        "</fieldset>\n",
    )
    return Markup("".join(parts))  # written from escaped ids and strings and to_html's output


def questions_html(questions: Sequence[Question], lang: str) -> Iterator[Markup]:
    """The questions of a page, written one at a time as the template reaches them."""
    shared = labels(lang)
    for question, legend in zip(questions, legends(shared, len(questions), lang), strict=True):
        yield question_html(question, legend, shared, lang)


def answer_ids(question: Question) -> list[str]:
    """The ids of a question's right options, in the order the page shows its options."""
    if isinstance(question, TrueFalse):
        return list(question.answer_ids)
    right = set(question.answer_ids)
    return [option.id for option in question.options if option.id in right]


def answer_key(questions: Sequence[Question]) -> dict[str, list[str]]:
    """Question id to the ids of its right options, for the page's script."""
    return {question.id: answer_ids(question) for question in questions}
