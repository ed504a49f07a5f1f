"""The two kinds of page: one quiz in one language, and the index of the whole bank."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from markupsafe import Markup

from quizbank.i18n import (
    N_,
    format_fraction_percent,
    format_number,
    gettext_for,
    ngettext_for,
)
from quizbank.locales import direction, language_name
from quizbank.renderer import QuizSummary, QuizTranslations

from .environment import asset, environment
from .questions import answer_key, block_html, questions_html

# The score line, filled in by the page's script.
# Translators: the learner's score after submitting, e.g. "Your score: 6 of 8 (75%)". Move the
# placeholders as your language needs (Urdu: "آپ کا اسکور: %(total)s میں سے %(score)s ...").
SCORE_MESSAGE = N_("Your score: %(score)s of %(total)s (%(percent)s)")
INDEX_LANG = "en"  # the language of the index page's own headings; each section has its own


@dataclass(frozen=True)
class LanguageLink:
    """A link to the same quiz in another language, named in that language."""

    lang: str
    href: str

    @property
    def name(self) -> str:
        return language_name(self.lang)

    @property
    def dir(self) -> str:
        return direction(self.lang)


def quiz_href(lang: str, quiz_id: str) -> str:
    """Where a quiz page lives, relative to the HTML folder."""
    return f"{lang}/{quiz_id}.html"  # both checked to be plain names, with no slash or dot


def script_data(key: dict[str, list[str]], total: int, lang: str, shuffle: bool) -> dict[str, Any]:
    """What the page's script needs: the key, the score message and numbers formatted by Babel.

    Every score the learner can get (0 to `total`) is formatted here, with Babel, as a number
    and as a percentage; the script only picks one. So the page's numbers all come from Babel's
    locale data, never from whatever locale data the learner's browser happens to ship.
    """
    return {
        "key": key,
        "shuffle": shuffle,
        "score": gettext_for(lang)(SCORE_MESSAGE),
        "numbers": [format_number(n, lang) for n in range(total + 1)],
        "percents": [format_fraction_percent(n / total, lang) for n in range(total + 1)],
        "unanswered": [_unanswered(n, lang) for n in range(total + 1)],
    }


def _unanswered(count: int, lang: str) -> str:
    """The note after the score when `count` questions were left unanswered."""
    if not count:
        return ""
    message = ngettext_for(lang)(
        "%(number)s question not answered", "%(number)s questions not answered", count
    )
    return message % {"number": format_number(count, lang)}


def quiz_page(quiz: QuizTranslations, lang: str, *, shuffle: bool) -> str:
    """The self-contained page of one quiz in one language."""
    content = quiz[lang]
    total = len(content.questions)
    others = [
        LanguageLink(other, f"../{quiz_href(other, quiz.quiz_id)}")
        for other in quiz.by_lang
        if other != lang and other in quiz.languages
    ]
    return (
        environment(lang)
        .get_template("quiz.html")
        .render(
            quiz=content,
            description=block_html(content.description, lang),
            questions=questions_html(content.questions, lang),
            total=total,
            others=others,
            data=script_data(answer_key(content.questions), total, lang, shuffle),
            css=asset("quiz.css"),
            js=asset("quiz.js"),
        )
    )


def index_page(summaries: Sequence[QuizSummary]) -> str:
    """The bank's index: a section per language, each in its own language and direction."""
    by_lang: dict[str, list[QuizSummary]] = {}
    for summary in summaries:
        by_lang.setdefault(summary.lang, []).append(summary)
    sections = [
        Markup(  # rendered with autoescaping by the section's own template
            environment(lang)
            .get_template("index_section.html")
            .render(
                quizzes=[(quiz_href(lang, s.quiz_id), s) for s in quizzes],
                language=language_name(lang),
            )
        )
        for lang, quizzes in by_lang.items()
    ]
    return (
        environment(INDEX_LANG)
        .get_template("index.html")
        .render(sections=sections, css=asset("quiz.css"))
    )
