"""The two kinds of page: one quiz in one language, and the index of the whole bank."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from babel.numbers import format_decimal, get_decimal_symbol, get_group_symbol
from markupsafe import Markup

from quizbank.i18n import N_, format_number, gettext_for, ngettext_for
from quizbank.images import Image
from quizbank.locales import direction, language_name, locale_for
from quizbank.markup import media
from quizbank.model import Essay
from quizbank.renderer import QuizSummary, QuizTranslations

from .draws import Part, draws_questions, every_question, page_parts
from .environment import asset, environment
from .questions import (
    ESSAYS_NOT_SCORED,
    LEGEND,
    MOVED,
    POINTS,
    WORDS,
    answer_key,
    block_html,
    questions_html,
)

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


@lru_cache(maxsize=16)
def number_format(lang: str) -> dict[str, Any]:
    """How `lang` writes numbers, from Babel's locale data, for the page's script to format
    scores with: its digits, decimal and group symbols, grouping sizes, and the prefix and
    suffix of its percentages. So the page's numbers all come from Babel, never from whatever
    locale data the learner's browser happens to ship. Scores show at most two decimals
    (Moodle's default for marks), percentages none, both rounded half up."""
    locale = locale_for(lang)
    decimal, percent = locale.decimal_formats[None], locale.percent_formats[None]
    return {
        "digits": "".join(format_decimal(digit, locale=locale) for digit in range(10)),
        "decimal": get_decimal_symbol(locale),
        "group": get_group_symbol(locale),
        "grouping": list(decimal.grouping),
        "decimals": 2,
        "percent": [percent.prefix[0], percent.suffix[0]],
        "percent_grouping": list(percent.grouping),
    }


def script_data(parts: Sequence[Part], lang: str, shuffle: bool) -> dict[str, Any]:
    """What the page's script needs: how to grade each question (each variant), the interface
    strings it fills in, and Babel's number format for the page's language; and, when an
    attempt asks only some of the questions, the legend it numbers them with."""
    gettext = gettext_for(lang)
    questions = [asked.question for asked in every_question(parts)]
    scored = sum(not isinstance(question, Essay) for question in questions)
    numbered = {"legend": gettext(LEGEND)} if draws_questions(parts) else {}
    return {
        "questions": answer_key(parts),
        "shuffle": shuffle,
        "score": gettext(SCORE_MESSAGE),
        "points": gettext(POINTS),
        "moved": gettext(MOVED),
        "words": gettext(WORDS),
        "essays": gettext(ESSAYS_NOT_SCORED) if scored < len(questions) else "",
        "correct": gettext("Correct"),
        "incorrect": gettext("Incorrect"),
        "number": number_format(lang),
        "unanswered": unanswered_notes(scored, lang),
        **numbered,
    }


@lru_cache(maxsize=256)
def unanswered_notes(scored: int, lang: str) -> tuple[str, ...]:
    """The notes after the score of a page of `scored` questions, by how many were left
    unanswered (0 to `scored`): the same for every page of as many questions, made once (a
    tuple, which the page's JSON writes as a list)."""
    return tuple(_unanswered(count, lang) for count in range(scored + 1))


def _unanswered(count: int, lang: str) -> str:
    """The note after the score when `count` questions were left unanswered."""
    if not count:
        return ""
    message = ngettext_for(lang)(
        "%(number)s question not answered", "%(number)s questions not answered", count
    )
    return message % {"number": format_number(count, lang)}


def embedded(images: Mapping[str, Image]) -> dict[str, str]:
    """Each image's address in the page, by its path as written: the image itself, as a
    `data:` URI, so that the page stays one file and makes no request."""
    return {src: image.data_uri for src, image in images.items()}


def quiz_page(quiz: QuizTranslations, lang: str, *, shuffle: bool) -> str:
    """The self-contained page of one quiz in one language, its images inside it."""
    content = quiz[lang]
    parts = page_parts(quiz.quiz_id, content)
    images = quiz.images_of(lang)
    others = [
        LanguageLink(other, f"../{quiz_href(other, quiz.quiz_id)}")
        for other in quiz.by_lang
        if other != lang and other in quiz.languages
    ]
    with media({lang: embedded(images)}):  # every text of the page is rendered inside
        return (
            environment(lang)
            .get_template("quiz.html")
            .render(
                quiz=content,
                description=block_html(content.description, lang),
                questions=questions_html(parts, lang),
                total=sum(part.asked for part in parts),  # the questions of one attempt
                others=others,
                images=bool(images),
                data=script_data(parts, lang, shuffle),
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
