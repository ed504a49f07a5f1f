"""What the quiz template shows, computed from the validated model.

Every piece of content goes through `quizbank.markup.to_html` (which escapes raw HTML and
bidi-isolates Latin runs in right-to-left languages); that is why it is safe to wrap it in
`Markup` here and nowhere else.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property

from markupsafe import Markup, escape

from quizbank.markup import to_html
from quizbank.model import MultipleChoice, Question, TrueFalse


@dataclass(frozen=True)
class OptionView:
    """One choice as the page shows it."""

    id: str
    label: Markup
    feedback: Markup | None
    is_answer: bool


@dataclass(frozen=True)
class QuestionView:
    """One question as the page shows it."""

    id: str
    number: int
    input_type: str  # "radio" or "checkbox"
    prompt_inline: Markup | None  # the prompt fits inside the legend
    prompt_block: Markup | None  # the prompt has several blocks: shown after the legend
    options: tuple[OptionView, ...]
    explanation: Markup

    @cached_property
    def described_by(self) -> list[str]:
        """The ids of what the fieldset's legend leaves out: a long prompt, the checkbox hint."""
        ids = [f"q-{self.id}-prompt"] if self.prompt_block else []
        return ids + ([f"q-{self.id}-hint"] if self.input_type == "checkbox" else [])

    @cached_property
    def answers(self) -> tuple[OptionView, ...]:
        return tuple(option for option in self.options if option.is_answer)

    @property
    def answer_ids(self) -> list[str]:
        return [option.id for option in self.answers]


def block_html(text: str, lang: str) -> Markup:
    """Markdown blocks as safe HTML, through the shared `to_html`."""
    # A code block scrolls sideways inside its own box on a phone: keyboard users need to reach
    # it to scroll it. (A literal "<pre>" in the author's text arrives escaped, as "&lt;pre&gt;".)
    html = to_html(text, lang).replace("<pre>", '<pre tabindex="0">')
    return Markup(html)  # to_html escapes the author's text


def _inline(text: str, lang: str) -> Markup:
    return Markup(to_html(text, lang, inline=True))  # escaped by to_html


def _feedback(text: str | None, lang: str) -> Markup | None:
    return block_html(text, lang) if text else None


def _is_one_paragraph(html: str) -> bool:
    return html.startswith("<p>") and html.endswith("</p>") and html.count("<p>") == 1


def _options(question: Question, lang: str, gettext: Callable[[str], str]) -> list[OptionView]:
    answers = set(question.answer_ids)
    if isinstance(question, TrueFalse):
        labels = {"true": gettext("True"), "false": gettext("False")}
        feedback = {"true": question.feedback_true, "false": question.feedback_false}
        return [
            OptionView(key, escape(labels[key]), _feedback(feedback[key], lang), key in answers)
            for key in ("true", "false")
        ]
    return [
        OptionView(
            option.id,
            _inline(option.text, lang),
            _feedback(option.feedback, lang),
            option.id in answers,
        )
        for option in question.options
    ]


def question_view(
    question: Question, number: int, lang: str, gettext: Callable[[str], str]
) -> QuestionView:
    """The page's view of one question; `gettext` translates the labels true and false."""
    prompt = to_html(question.prompt, lang)
    one_paragraph = _is_one_paragraph(prompt)
    return QuestionView(
        id=question.id,
        number=number,
        input_type="checkbox" if isinstance(question, MultipleChoice) else "radio",
        prompt_inline=_inline(question.prompt, lang) if one_paragraph else None,
        prompt_block=None if one_paragraph else block_html(question.prompt, lang),
        options=tuple(_options(question, lang, gettext)),
        explanation=block_html(question.explanation, lang),
    )


def answer_key(questions: Sequence[QuestionView]) -> dict[str, list[str]]:
    """Question id to the ids of its right options, for the page's script."""
    return {question.id: question.answer_ids for question in questions}
