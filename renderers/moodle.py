"""Moodle XML, written the way Moodle's importer reads it (question/format/xml/format.php).

One file per quiz and language: a category question first, then a `multichoice` or `truefalse`
question per question, every text as HTML in CDATA. With `multilang=true` the renderer also
writes `multilang/<quiz-id>.xml`, each question holding every language in the spans of Moodle's
multilang filter.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator, Sequence
from functools import lru_cache
from html import escape
from operator import attrgetter
from pathlib import PurePosixPath
from typing import Literal, Protocol, TypeVar

from lxml import etree
from lxml.etree import CDATA
from pydantic import Field

from quizbank.crosslang import reference_language
from quizbank.errors import RendererError
from quizbank.locales import is_rtl
from quizbank.markup import to_html, to_plain
from quizbank.model import MultipleChoice, Question, Quiz, SingleChoice, TrueFalse
from quizbank.renderer import OutputFile, QuizTranslations, Renderer, RendererOptions

# question_bank::fraction_options_full() in percent: the import refuses any other grade.
POSITIVE_GRADES = (100.0, 90.0, 83.33333, 80.0, 75.0, 70.0, 66.66667, 60.0, 50.0, 40.0, 33.33333,
                   30.0, 25.0, 20.0, 16.66667, 14.28571, 12.5, 11.11111, 10.0, 5.0)  # fmt: skip
# match_grade_options() accepts a fraction within 0.00001 of a listed one: 0.001 in percent.
TOLERANCE = 0.001
IDNUMBER_MAX = 100  # question_bank_entries.idnumber and question_categories.idnumber: char(100)
NAME_MAX = 80  # question.name holds 255; a short name reads better in the question bank

T = TypeVar("T")
Versions = Sequence[tuple[str, T]]  # the same item in each language, reference language first


class MoodleOptions(RendererOptions):
    """Options of the Moodle XML renderer."""

    multilang: bool = Field(
        False,
        description="Also write multilang/<quiz-id>.xml: every language in one question, "
        "in the spans of Moodle's multilang filter.",
    )
    shuffle: bool = Field(True, description="Let Moodle shuffle the options (shuffleanswers).")
    numbering: Literal["abc", "ABCD", "123", "iii", "IIII", "none"] = Field(
        "abc", description="How Moodle numbers the options (answernumbering)."
    )


@lru_cache(maxsize=32)
def right_grades(count: int) -> tuple[float, ...]:
    """Grades from Moodle's list for `count` right options that add up to 100%.

    Equal shares where Moodle lists one; otherwise the two closest grades that add up
    (11 right options: nine at 10% and two at 5%). More than 20 right options cannot be graded:
    Moodle's smallest positive grade is 5%.
    """
    best: tuple[float, float, int] | None = None
    for high in POSITIVE_GRADES:
        for low in (grade for grade in POSITIVE_GRADES if grade <= high):
            for n_high in range(1, count + 1):
                fits = abs(n_high * high + (count - n_high) * low - 100) <= TOLERANCE
                if fits and (best is None or high - low < best[0] - best[1]):
                    best = (high, low, n_high)
    if best is None:
        raise ValueError(
            f"Moodle cannot split 100% among {count} right options (its smallest positive "
            "grade is 5%): mark at most 20 options as right"
        )
    high, low, n_high = best
    return (high,) * n_high + (low,) * (count - n_high)


def wrong_grade(count: int) -> float:
    """The grade of each of `count` wrong options: choosing every option scores nothing."""
    return -min(grade for grade in POSITIVE_GRADES if grade >= 100 / count - TOLERANCE)


def _grades(question: SingleChoice | MultipleChoice) -> dict[str, float]:
    right = question.answer_ids
    wrong = [option.id for option in question.options if option.id not in right]
    if isinstance(question, SingleChoice):
        return {option.id: 100.0 if option.id in right else 0.0 for option in question.options}
    grades = dict(zip(right, right_grades(len(right)), strict=True))
    return grades | dict.fromkeys(wrong, wrong_grade(len(wrong)) if wrong else 0.0)


def _percent(grade: float) -> str:
    return f"{grade:.5f}".rstrip("0").rstrip(".")


def _idnumber(*parts: str) -> str:
    """Parts joined by `/`, shortened with a hash to Moodle's 100 characters when longer."""
    full = "/".join(parts)
    if len(full) <= IDNUMBER_MAX:
        return full
    digest = hashlib.sha256(full.encode()).hexdigest()[:8]
    return f"{full[: IDNUMBER_MAX - 9]}~{digest}"


def _category_name(name: str) -> str:
    """One level of a category path, escaped as qformat_default::assemble_category_path() does."""
    escaped = name.replace("/", "//")
    if escaped.startswith("/"):
        escaped = " " + escaped
    if escaped.endswith("/"):
        escaped += " "
    return escaped


# Moodle cleans names with PARAM_TEXT (strip_tags): `List<String>` would lose `<String>`.
_ANGLE_QUOTES = str.maketrans({"<": "\u2039", ">": "\u203a"})


def _untagged(text: str) -> str:
    """Plain text with `<` and `>` as single angle quotes, so no part looks like a tag."""
    return text.translate(_ANGLE_QUOTES)


def _question_name(question: Question) -> str:
    text = _untagged(" ".join(to_plain(question.prompt).split()))
    if len(text) > NAME_MAX:
        text = text[: NAME_MAX - 1].rsplit(" ", 1)[0] + "…"
    return text or question.id


def _html(versions: Versions[T], get: Callable[[T], str | None], *, inline: bool = False) -> str:
    """One text as HTML; in several languages, as adjacent multilang spans."""
    parts = []
    for lang, item in versions:
        text = get(item)
        if text:
            html = to_html(text, lang, inline=inline)
            if is_rtl(lang):
                html = f'<div lang="{escape(lang)}" dir="rtl">{html}</div>'
            parts.append((lang, html))
    if len(parts) < 2:
        return parts[0][1] if parts else ""
    return "".join(
        f'<span lang="{escape(lang)}" class="multilang">{html}</span>' for lang, html in parts
    )


class _HasId(Protocol):
    @property
    def id(self) -> str: ...


IdT = TypeVar("IdT", bound=_HasId)


def _find(items: Sequence[IdT], item_id: str) -> IdT | None:
    return next((item for item in items if item.id == item_id), None)


def _sub(
    parent: etree._Element, tag: str, text: str | None = None, **attrib: str
) -> etree._Element:
    element = etree.SubElement(parent, tag, attrib)
    element.text = text
    return element


def _set_html(element: etree._Element, html: str) -> None:
    """HTML as the element's text: in CDATA, or escaped where CDATA cannot hold it (`]]>`)."""
    element.text = CDATA(html) if html and "]]>" not in html else html


def _html_field(parent: etree._Element, tag: str, html: str) -> None:
    _set_html(_sub(_sub(parent, tag, format="html"), "text"), html)


class MoodleRenderer(Renderer[MoodleOptions]):
    """Moodle XML for the question bank import: a category per quiz and language."""

    name = "moodle"
    description = "Moodle XML for the question bank import (optionally bilingual, multilang)"
    extension = "xml"
    Options = MoodleOptions

    def render(self, quiz: QuizTranslations, lang: str) -> str:
        return self._document(quiz.quiz_id, [(lang, quiz[lang])], lang)

    def render_quiz(self, quiz: QuizTranslations) -> Iterator[OutputFile]:
        """The file of each language, and the multilang file when asked for and bilingual."""
        yield from super().render_quiz(quiz)
        langs = [lang for lang in quiz.languages if lang in quiz.by_lang]
        if not (self.options.multilang and len(langs) > 1):
            return
        first = reference_language(dict.fromkeys(langs))
        langs = [first, *(lang for lang in langs if lang != first)]
        text = self._document(
            quiz.quiz_id, [(lang, quiz[lang]) for lang in langs], ", ".join(langs)
        )
        path = PurePosixPath("multilang", f"{quiz.quiz_id}.{self.extension}")
        yield OutputFile(path, text.encode("utf-8"))

    def _document(self, quiz_id: str, versions: Versions[Quiz], label: str) -> str:
        """A category named after the quiz, then its questions.

        The category has no idnumber: Moodle finds categories by name, and a renamed quiz would
        otherwise create a second category with the same idnumber, which aborts the import.
        """
        root = etree.Element("quiz")
        category = _sub(root, "question", type="category")
        title = f"{_untagged(to_plain(versions[0][1].title))} ({label})"
        _sub(_sub(category, "category"), "text", f"$course$/top/{_category_name(title)}")
        _html_field(category, "info", _html(versions, lambda quiz: quiz.description))
        # Questions by id in each language (ids are unique in a valid quiz): finding each
        # question by a scan made a quiz of 5,000 questions take quadratic time.
        by_id = [(lang, {q.id: q for q in quiz.questions}) for lang, quiz in versions]
        for question in versions[0][1].questions:
            same = [(lang, q) for lang, index in by_id if (q := index.get(question.id))]
            try:
                self._question(root, quiz_id, same, versions[0][1].tags)
            except ValueError as exc:
                raise RendererError(
                    f"renderer 'moodle': quiz {quiz_id!r} question {question.id!r}: {exc}"
                ) from None
        xml: bytes = etree.tostring(root, xml_declaration=True, encoding="UTF-8", pretty_print=True)
        return xml.decode("utf-8")

    def _question(
        self, root: etree._Element, quiz_id: str, versions: Versions[Question], tags: list[str]
    ) -> None:
        first = versions[0][1]
        kind = "truefalse" if isinstance(first, TrueFalse) else "multichoice"
        element = _sub(root, "question", type=kind)
        _sub(_sub(element, "name"), "text", _question_name(first))
        _html_field(element, "questiontext", _html(versions, lambda q: q.prompt))
        _html_field(element, "generalfeedback", _html(versions, lambda q: q.explanation))
        _sub(element, "defaultgrade", f"{first.points:.7f}")
        # Moodle's true/false form fixes the penalty at 1: a second try would give it away.
        _sub(element, "penalty", "1" if kind == "truefalse" else "0.3333333")
        _sub(element, "hidden", "0")
        _sub(element, "idnumber", _idnumber(quiz_id, first.id))
        if isinstance(first, TrueFalse):
            self._true_false(
                element, first, [(lang, q) for lang, q in versions if isinstance(q, TrueFalse)]
            )
        else:
            choices = [(lang, q) for lang, q in versions if not isinstance(q, TrueFalse)]
            self._choice(element, first, choices)
        if tags:
            tag_list = _sub(element, "tags")
            for tag in tags:
                _sub(_sub(tag_list, "tag"), "text", tag)

    def _true_false(
        self, element: etree._Element, first: TrueFalse, versions: Versions[TrueFalse]
    ) -> None:
        # import_truefalse() tells the answers apart by their text: exactly `true` and `false`.
        for value, word in ((True, "true"), (False, "false")):
            answer = _sub(element, "answer", fraction="100" if first.answer is value else "0")
            _sub(answer, "text", word)
            feedback = _html(versions, attrgetter(f"feedback_{word}"), inline=True)
            _html_field(answer, "feedback", feedback)

    def _choice(
        self,
        element: etree._Element,
        first: SingleChoice | MultipleChoice,
        versions: Versions[SingleChoice | MultipleChoice],
    ) -> None:
        single = isinstance(first, SingleChoice)
        grades = _grades(first)
        _sub(element, "single", "true" if single else "false")
        _sub(element, "shuffleanswers", "true" if self.options.shuffle else "false")
        _sub(element, "answernumbering", self.options.numbering)
        _sub(element, "showstandardinstruction", "1")
        for tag in ("correctfeedback", "partiallycorrectfeedback", "incorrectfeedback"):
            _html_field(element, tag, "")
        if not single:
            _sub(element, "shownumcorrect")
        for option in first.options:
            same = [(lang, o) for lang, q in versions if (o := _find(q.options, option.id))]
            answer = _sub(element, "answer", fraction=_percent(grades[option.id]), format="html")
            _set_html(_sub(answer, "text"), _html(same, lambda o: o.text, inline=True))
            _html_field(answer, "feedback", _html(same, lambda o: o.feedback, inline=True))
