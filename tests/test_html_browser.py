"""The HTML pages in a real browser (Debian's Chromium through Playwright): a learner takes the
quiz in each language, by mouse and by keyboard, on a 375 px phone; right-to-left layout, fonts,
no request, printing and axe-core's accessibility rules; images and formulas drawn inside the
page, and every page the Nu HTML Checker reads.

CI installs Chromium (.ci/run); these tests fail, not skip, when it is missing.
"""

from __future__ import annotations

import re
import subprocess
import unicodedata
from collections.abc import Callable, Iterator
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from pathlib import Path, PurePosixPath
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from babel.numbers import format_decimal, format_percent
from playwright.sync_api import Browser, BrowserContext, Locator, Page, expect
from quizbank_renderers.html import HtmlOptions, HtmlRenderer
from test_html import CONTENT, FIXTURES, LANGS, QUIZ_ID, ROOT, VNU, build, load
from test_html_media import GRID, MEDIA, MEDIA_ID, PRACTICE_ID, one_question
from test_html_media import render as render_page

from quizbank.grading import option_grades
from quizbank.images import Image
from quizbank.markup import to_plain
from quizbank.model import (
    ChoiceGap,
    Cloze,
    Essay,
    Matching,
    MultipleChoice,
    Numerical,
    NumericalGap,
    Ordering,
    Quiz,
    ShortAnswer,
    SingleChoice,
    TrueFalse,
)
from quizbank.renderer import QuizTranslations

PHONE = {"width": 375, "height": 812}
SCORES = {
    ("en", 8): "Your score: 8 of 8 (100%)",
    ("en", 0): "Your score: 0 of 8 (0%)",
    ("ur", 8): "آپ کا اسکور: 8 میں سے 8 (100%)",
    ("ur", 0): "آپ کا اسکور: 8 میں سے 0 (0%)",
}
Chooser = Callable[[list[str], list[str]], list[str]]


def right(key: list[str], values: list[str]) -> list[str]:
    return key


def wrong(key: list[str], values: list[str]) -> list[str]:
    return [next(value for value in values if value not in key)]


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    pages = build(tmp_path_factory.mktemp("site"), CONTENT, QUIZ_ID)
    mixed = build(tmp_path_factory.mktemp("mixed"), FIXTURES, "mixed-types")
    shuffled = build(tmp_path_factory.mktemp("shuffled"), CONTENT, QUIZ_ID, shuffle=True)
    mixed_shuffled = build(
        tmp_path_factory.mktemp("mixed-shuffled"), FIXTURES, "mixed-types", shuffle=True
    )
    return {
        **pages,
        **{f"mixed/{name}": path for name, path in mixed.items()},
        **{f"shuffled/{name}": path for name, path in shuffled.items()},
        **{f"mixed-shuffled/{name}": path for name, path in mixed_shuffled.items()},
    }


@pytest.fixture(scope="module")
def types_site(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return build(tmp_path_factory.mktemp("types"), TYPES, TYPES_ID)


class Opened:
    """A page opened on a file, with every request it made."""

    def __init__(self, context: BrowserContext, path: Path) -> None:
        self.page = context.new_page()
        self.requests: list[str] = []
        self.page.on("request", lambda request: self.requests.append(request.url))
        self.url = path.as_uri()
        self.page.goto(self.url)

    def data(self) -> dict[str, Any]:
        data: dict[str, Any] = self.page.evaluate(
            "JSON.parse(document.getElementById('quiz-data').textContent)"
        )
        return data

    def key(self) -> dict[str, list[str]]:
        """The choice questions' right options (a positive grade), by question."""
        return {
            question: [option for option, grade in spec["grades"].items() if grade > 0]
            for question, spec in self.data()["questions"].items()
            if "grades" in spec
        }

    def values(self, question: str) -> list[str]:
        values: list[str] = self.page.eval_on_selector_all(
            f"#q-{question} input", "inputs => inputs.map(input => input.value)"
        )
        return values

    def answer(self, choose: Chooser, questions: list[str] | None = None) -> None:
        """Choose options by clicking their label text, as a learner does."""
        for question, key in self.key().items():
            if questions is not None and question not in questions:
                continue
            for value in choose(key, self.values(question)):
                self.page.locator(f"#q-{question} label:has(input[value='{value}']) .text").click()

    def submit(self) -> None:
        self.page.locator("button.submit").click()

    def score(self) -> str:
        return self.page.locator(".score").inner_text().strip()

    def fits(self) -> bool:
        fits: bool = self.page.evaluate(
            "document.documentElement.scrollWidth <= document.documentElement.clientWidth"
        )
        return fits


@pytest.fixture
def open_page(browser: Browser) -> Iterator[Callable[..., Opened]]:
    contexts: list[BrowserContext] = []

    def open_(path: Path, *, javascript: bool = True, width: int = PHONE["width"]) -> Opened:
        context = browser.new_context(
            viewport={"width": width, "height": PHONE["height"]},
            java_script_enabled=javascript,
            color_scheme="light",
        )
        contexts.append(context)
        return Opened(context, path)

    yield open_
    for context in contexts:
        context.close()


def drawn_variant(page: Page, question: str) -> Locator:
    """The variant of a question with variables that this attempt asks."""
    return page.locator(f".variants[data-question='{question}'] > fieldset:visible")


def quiz(site: dict[str, Path], lang: str, prefix: str = "", quiz_id: str = QUIZ_ID) -> Path:
    return site[f"{prefix}{lang}/{quiz_id}.html"]


@pytest.mark.parametrize("lang", LANGS)
def test_all_right_then_all_wrong(
    site: dict[str, Path], open_page: Callable[..., Opened], lang: str
) -> None:
    opened = open_page(quiz(site, lang))
    page = opened.page
    questions = page.locator(".question")
    expect(questions).to_have_count(8)
    expect(page.locator(".answer").first).to_be_hidden()  # explanations wait for Submit
    expect(page.locator(".feedback").first).to_be_hidden()

    opened.answer(right)
    opened.submit()
    assert opened.score() == SCORES[lang, 8]
    expect(page.locator(".verdict.right:visible")).to_have_count(8)
    expect(page.locator(".verdict.wrong:visible")).to_have_count(0)
    expect(page.locator(".question.is-right")).to_have_count(8)
    for index in range(8):
        question = questions.nth(index)
        expect(question.locator(".answer")).to_be_visible()
        expect(question.locator(".answer dd").last).to_be_visible()  # the explanation
        expect(question.locator(".option:has(input:checked) .feedback")).to_be_visible()
        expect(
            question.locator(".option:not(:has(input:checked)) .feedback:visible")
        ).to_have_count(0)
    expect(page.locator("input:disabled")).to_have_count(32)

    page.locator("button.retry").click()
    expect(page.locator("input:checked")).to_have_count(0)
    expect(page.locator(".answer:visible, .verdict:visible, .feedback:visible")).to_have_count(0)
    expect(page.locator("button.submit")).to_be_visible()
    assert opened.score() == ""

    opened.answer(wrong)
    opened.submit()
    assert opened.score() == SCORES[lang, 0]
    expect(page.locator(".verdict.wrong:visible")).to_have_count(8)
    expect(page.locator(".verdict.right:visible")).to_have_count(0)
    expect(page.locator(".option.is-answer")).to_have_count(8)
    expect(page.locator(".option.is-picked-wrong")).to_have_count(8)
    for index in range(8):
        question = questions.nth(index)
        right_text = question.locator(".option.is-answer .text").inner_text()
        expect(question.locator(".answer dd").first).to_have_text(right_text)  # the right answer
        expect(question.locator(".answer dd").first).to_be_visible()
        expect(question.locator(".answer dd").last).to_be_visible()
        expect(question.locator(".option.is-picked-wrong .feedback")).to_be_visible()
    assert opened.requests == [opened.url]


def test_urdu_page_is_right_to_left(
    site: dict[str, Path], open_page: Callable[..., Opened]
) -> None:
    page = open_page(quiz(site, "ur")).page
    assert page.evaluate("getComputedStyle(document.body).direction") == "rtl"
    directions = page.eval_on_selector_all(
        ".options", "lists => lists.map(list => getComputedStyle(list).direction)"
    )
    assert directions == ["rtl"] * 8
    labels = page.locator(".option label")
    for index in range(labels.count()):
        radio = labels.nth(index).locator("input").bounding_box()
        text = labels.nth(index).locator(".text").bounding_box()
        assert radio and text
        assert radio["x"] >= text["x"] + text["width"] - 1, "the radio sits right of its text"


def test_english_page_is_left_to_right(
    site: dict[str, Path], open_page: Callable[..., Opened]
) -> None:
    page = open_page(quiz(site, "en")).page
    assert page.evaluate("getComputedStyle(document.body).direction") == "ltr"
    label = page.locator(".option label").first
    radio, text = label.locator("input").bounding_box(), label.locator(".text").bounding_box()
    assert radio and text and radio["x"] + radio["width"] <= text["x"] + 1


@pytest.mark.parametrize(
    "name",
    [
        "en/checkpoint-sharding.html",
        "ur/checkpoint-sharding.html",
        "index.html",
        "mixed/en/mixed-types.html",
        "mixed/ur/mixed-types.html",
    ],
)
def test_no_horizontal_scrolling_on_a_phone(
    site: dict[str, Path], open_page: Callable[..., Opened], name: str
) -> None:
    opened = open_page(site[name])
    assert opened.fits()
    if name != "index.html":
        opened.answer(wrong)
        opened.submit()
        assert opened.fits(), "after submitting, with feedback and explanations shown"
        for pre in opened.page.locator("pre").all():  # long code scrolls inside its own box
            assert pre.evaluate("pre => getComputedStyle(pre).overflowX") == "auto"
    assert opened.requests == [opened.url]


@pytest.mark.parametrize("lang", LANGS)
def test_every_type_of_the_second_quiz_fits_a_phone(
    tmp_path: Path, open_page: Callable[..., Opened], lang: str
) -> None:
    """Long matches in drop-downs, a cloze's choices, code in items: nothing wider than 375 px,
    before or after Submit."""
    pages = build(tmp_path, CONTENT, "resuming-training-in-practice")
    opened = open_page(pages[f"{lang}/resuming-training-in-practice.html"])
    assert opened.fits()
    opened.submit()
    assert opened.fits(), "after submitting, with the right answers shown"


def test_urdu_type(site: dict[str, Path], open_page: Callable[..., Opened]) -> None:
    opened = open_page(quiz(site, "ur"))
    opened.answer(right)
    opened.submit()
    page = opened.page
    for selector in (".prompt", ".option .text", ".answer dd p", ".description p"):
        ratio = page.locator(selector).first.evaluate(
            "node => parseFloat(getComputedStyle(node).lineHeight)"
            " / parseFloat(getComputedStyle(node).fontSize)"
        )
        assert 2 <= ratio <= 2.2, selector
    family = page.locator(".prompt").first.evaluate("node => getComputedStyle(node).fontFamily")
    assert family.startswith('"Noto Nastaliq Urdu", "Jameel Noori Nastaleeq", "Urdu Typesetting"')
    # The faces Chromium really drew with: Nastaliq, Regular for normal text (not Bold).
    assert platform_fonts(page, ".prompt") == {"NotoNastaliqUrdu-Regular"}
    assert platform_fonts(page, ".option .text") == {"NotoNastaliqUrdu-Regular"}
    assert "NotoNastaliqUrdu-Bold" in platform_fonts(page, "h1")


def test_code_blocks_keep_latin_line_spacing_on_an_urdu_page(
    site: dict[str, Path], open_page: Callable[..., Opened]
) -> None:
    page = open_page(quiz(site, "ur", "mixed/", "mixed-types")).page
    ratios = page.eval_on_selector_all(
        "pre",
        "blocks => blocks.map(node => parseFloat(getComputedStyle(node).lineHeight)"
        " / parseFloat(getComputedStyle(node).fontSize))",
    )
    assert ratios and all(1.3 <= ratio <= 1.6 for ratio in ratios), ratios


def platform_fonts(page: Page, selector: str) -> set[str]:
    """The PostScript names of the fonts that rendered the first element matching `selector`."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("DOM.enable")
    cdp.send("CSS.enable")
    root = cdp.send("DOM.getDocument")["root"]["nodeId"]
    node = cdp.send("DOM.querySelector", {"nodeId": root, "selector": selector})["nodeId"]
    fonts: list[dict[str, Any]] = cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]
    cdp.detach()
    return {font["postScriptName"] for font in fonts}


def test_keyboard(site: dict[str, Path], open_page: Callable[..., Opened]) -> None:
    opened = open_page(quiz(site, "en"))
    page = opened.page

    def focused() -> dict[str, str]:
        info: dict[str, str] = page.evaluate(
            "({type: document.activeElement.type || '', name: document.activeElement.name || '',"
            " value: document.activeElement.value || '', cls: document.activeElement.className})"
        )
        return info

    for _ in range(10):
        page.keyboard.press("Tab")
        if focused()["type"] == "radio":
            break
    assert focused() == {"type": "radio", "name": "why-shard", "value": "a", "cls": ""}
    page.keyboard.press("Space")
    assert page.locator("input[name='why-shard'][value='a']").is_checked()
    for _ in range(3):
        page.keyboard.press("ArrowDown")  # the right answer is the fourth option
    assert page.locator("input[name='why-shard'][value='d']").is_checked()
    for _ in range(12):
        page.keyboard.press("Tab")
        if focused()["cls"] == "submit":
            break
    assert focused()["cls"] == "submit"
    page.keyboard.press("Enter")
    assert opened.score() == "Your score: 1 of 8 (13%) · 7 questions not answered"
    assert page.get_by_role("status").inner_text().strip() == opened.score()  # announced
    assert focused()["cls"] == "retry"
    page.keyboard.press("Enter")
    assert opened.score() == ""
    assert focused() == {"type": "radio", "name": "why-shard", "value": "a", "cls": ""}
    expect(page.locator("input:checked")).to_have_count(0)


@pytest.mark.parametrize(
    ("name", "submitted"),
    [
        ("en/checkpoint-sharding.html", False),
        ("en/checkpoint-sharding.html", True),
        ("ur/checkpoint-sharding.html", False),
        ("ur/checkpoint-sharding.html", True),
        ("mixed/ur/mixed-types.html", True),
        ("index.html", False),
    ],
)
def test_axe_finds_no_serious_violation(
    site: dict[str, Path], open_page: Callable[..., Opened], name: str, submitted: bool
) -> None:
    opened = open_page(site[name])
    if submitted:  # verdicts, feedback and answers on show
        opened.answer(wrong)
        opened.submit()
    violations = Axe().run(opened.page).response["violations"]
    serious = [
        (violation["id"], [node["target"] for node in violation["nodes"]])
        for violation in violations
        if violation["impact"] in ("serious", "critical")
    ]
    assert not serious


def test_shuffle_keeps_the_key(site: dict[str, Path], open_page: Callable[..., Opened]) -> None:
    authored = load(CONTENT, "en", QUIZ_ID)
    texts = {
        (question.id, option.id): option.text
        for question in authored.questions
        for option in question.options  # type: ignore[union-attr]
    }
    opened = open_page(quiz(site, "en", "shuffled/"))
    page = opened.page

    def orders() -> dict[str, list[str]]:
        return {question: opened.values(question) for question in opened.key()}

    first = orders()
    # 8 questions of 4 options: all in the authored order by chance is 1 in 24**8.
    assert any(order != ["a", "b", "c", "d"] for order in first.values())
    for (question, option), text in texts.items():
        label = page.locator(f"#q-{question} label:has(input[value='{option}']) .text")
        assert label.inner_text() == text.replace("`", "")  # each label moved with its input
    opened.answer(right)
    opened.submit()
    assert opened.score() == SCORES["en", 8]
    page.locator("button.retry").click()
    assert orders() != first  # shuffled again for the new attempt
    opened.answer(wrong)
    opened.submit()
    assert opened.score() == SCORES["en", 0]


@pytest.mark.parametrize(
    ("lang", "note", "blank"),
    [
        ("en", "2 questions not answered", "Not answered"),
        ("ur", "2 سوالات کے جواب نہیں دیے گئے", "جواب نہیں دیا گیا"),
    ],
)
def test_a_question_left_blank_is_not_answered_rather_than_incorrect(
    site: dict[str, Path], open_page: Callable[..., Opened], lang: str, note: str, blank: str
) -> None:
    opened = open_page(quiz(site, lang))
    questions = list(opened.key())
    opened.answer(right, questions[2:])  # the first two are left blank
    opened.submit()
    page = opened.page
    for question in questions[:2]:
        expect(page.locator(f"#q-{question} .verdict:visible")).to_have_text(blank)
    for question in questions[2:]:
        expect(page.locator(f"#q-{question} .verdict.right")).to_be_visible()
    assert opened.score().endswith(f" · {note}")
    assert opened.score().startswith(SCORES[lang, 8].split(" 8 ")[0])
    page.locator("button.retry").click()
    expect(page.locator(".verdict:visible")).to_have_count(0)
    assert opened.score() == ""


@pytest.fixture(scope="module")
def practice_site(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return build(tmp_path_factory.mktemp("practice"), CONTENT, PRACTICE_ID, every_question=True)


@pytest.mark.parametrize("lang", LANGS)
def test_an_ordering_never_touched_is_not_answered(
    practice_site: dict[str, Path], open_page: Callable[..., Opened], lang: str
) -> None:
    quiz = load(CONTENT, lang, PRACTICE_ID)
    scored = [q for q in quiz.questions if not isinstance(q, Essay)]
    total = shown(sum((Fraction(str(q.points)) for q in scored), Fraction(0)), lang)
    ordering = next(q for q in quiz.questions if isinstance(q, Ordering))
    opened = open_page(practice_site[f"{lang}/{PRACTICE_ID}.html"])
    page = opened.page
    items = page.locator(f"#q-{ordering.id} .item")
    opened.submit()  # nothing touched: no score from the shuffled order
    zero = SCORE_TEXT[lang].format(score="0", total=total, percent=percent(Fraction(0), lang))
    blank = {"en": f"{len(scored)} questions not answered", "ur": f"{len(scored)} سوالات"}[lang]
    assert opened.score().startswith(f"{zero} · {blank}"), opened.score()
    unanswered = page.locator(f"#q-{ordering.id} .verdict.unanswered")
    marks = page.locator(f"#q-{ordering.id} .mark")
    expect(unanswered).to_be_visible()
    expect(marks).to_have_count(0)
    # Moved and moved back: answered, graded on that order.
    page.locator("button.retry").click()
    items.first.locator("button.down").click()
    items.nth(1).locator("button.up").click()
    opened.submit()
    expect(unanswered).to_be_hidden()
    expect(marks).to_have_count(len(ordering.items))
    # A new attempt starts untouched again.
    page.locator("button.retry").click()
    opened.submit()
    expect(unanswered).to_be_visible()


@pytest.mark.parametrize("lang", LANGS)
def test_shuffle_keeps_true_before_false(
    site: dict[str, Path], open_page: Callable[..., Opened], lang: str
) -> None:
    opened = open_page(quiz(site, lang, "mixed-shuffled/", "mixed-types"))
    for _ in range(6):  # a coin toss each time: six in the right order by chance is 1 in 64
        assert opened.values("pickle-runs-code") == ["true", "false"]
        opened.answer(right)
        opened.submit()
        opened.page.locator("button.retry").click()


@pytest.mark.parametrize("lang", LANGS)
def test_every_question_type(
    site: dict[str, Path], open_page: Callable[..., Opened], lang: str
) -> None:
    opened = open_page(quiz(site, lang, "mixed/", "mixed-types"))
    page = opened.page
    expect(page.locator("#q-pick-formats input[type=checkbox]")).to_have_count(3)
    expect(page.locator("#q-pickle-runs-code input[type=radio]")).to_have_count(2)
    true_label = {"en": "True", "ur": "درست"}[lang]
    expect(page.locator("#q-pickle-runs-code .text").first).to_have_text(true_label)

    # Half of a multiple-choice answer: half its points, as Moodle gives them; true and the
    # single choice are right.
    opened.answer(lambda key, values: key[:1])
    opened.submit()
    expect(page.locator("#q-pick-formats .verdict.partial")).to_be_visible()
    expect(page.locator("#q-pick-formats .points")).to_have_text(
        {"en": "Points: 0.5 of 1", "ur": "نمبر: 1 میں سے 0.5"}[lang]
    )
    expect(page.locator("#q-pick-formats .option.is-answer")).to_have_count(2)
    expect(page.locator("#q-pickle-runs-code .verdict.right")).to_be_visible()
    expect(page.locator("#q-pickle-runs-code .feedback:visible")).to_have_count(1)
    assert (
        opened.score()
        == {"en": "Your score: 2.5 of 3 (83%)", "ur": "آپ کا اسکور: 3 میں سے 2.5 (83%)"}[lang]
    )

    page.locator("button.retry").click()
    opened.answer(right)
    opened.submit()
    assert opened.score().startswith(
        {"en": "Your score: 3 of 3", "ur": "آپ کا اسکور: 3 میں سے 3"}[lang]
    )


def test_without_javascript(site: dict[str, Path], open_page: Callable[..., Opened]) -> None:
    page = open_page(quiz(site, "ur"), javascript=False).page
    expect(page.locator("fieldset legend:visible")).to_have_count(8)
    expect(page.locator("button:visible")).to_have_count(0)
    summaries = page.locator(".answer summary")
    expect(summaries).to_have_count(8)
    expect(summaries.first).to_be_visible()
    explanation = page.locator(".answer dd").nth(1)
    expect(explanation).to_be_hidden()  # closed until the learner opens it
    expect(summaries.first).to_have_text("جواب دکھائیں", use_inner_text=True)  # "Show answer"
    summaries.first.click()
    expect(explanation).to_be_visible()
    expect(summaries.first).to_have_text("جواب چھپائیں", use_inner_text=True)  # while open
    summaries.first.click()
    expect(summaries.first).to_have_text("جواب دکھائیں", use_inner_text=True)
    page.locator(".option label").first.click()
    assert page.locator("input").first.is_checked()


def test_prints_cleanly(site: dict[str, Path], open_page: Callable[..., Opened]) -> None:
    opened = open_page(quiz(site, "ur"))
    opened.answer(right)
    opened.submit()
    page = opened.page
    page.emulate_media(media="print")
    for selector in (".site", ".actions", ".answer summary"):
        assert page.locator(selector).first.evaluate("n => getComputedStyle(n).display") == "none"
    assert (
        page.locator(".question").first.evaluate("n => getComputedStyle(n).breakInside") == "avoid"
    )
    expect(page.locator(".answer dd").first).to_be_visible()  # the results print too


def test_phone_screenshot(
    site: dict[str, Path], open_page: Callable[..., Opened], tmp_path: Path
) -> None:
    opened = open_page(quiz(site, "ur"))
    questions = list(opened.key())
    opened.answer(right, questions[::2])
    opened.answer(wrong, questions[1::2])
    opened.submit()
    assert opened.score() == "آپ کا اسکور: 8 میں سے 4 (50%)"
    shot = tmp_path / "ur-phone.png"
    opened.page.screenshot(path=str(shot), full_page=True)
    assert shot.read_bytes()[16:20] == (375).to_bytes(4, "big")  # PNG width: the phone's


# Every question type: the fixture quiz in both languages, answered all right, all wrong and
# partly right, each score checked against an independent grader written here from Moodle's
# rules (question/type/*/question.php), not from the renderer's code.

TYPES = ROOT / "tests" / "fixtures" / "types"
TYPES_ID = "every-type"
PHP_TRIM = " \t\n\r\0\x0b"  # what PHP's trim() and Moodle's PARAM_RAW_TRIMMED take off
LOCAL = str.maketrans("٠١٢٣٤٥٦٧٨٩۰۱۲۳۴۵۶۷۸۹٫−", "01234567890123456789.-")  # noqa: RUF001
SCORE_TEXT = {
    "en": "Your score: {score} of {total} ({percent})",
    "ur": "آپ کا اسکور: {total} میں سے {score} ({percent})",
}
POINTS_TEXT = {"en": "Points: {score} of {total}", "ur": "نمبر: {total} میں سے {score}"}
NOT_ANSWERED = {"en": "1 question not answered", "ur": "1 سوال کا جواب نہیں دیا گیا"}
ESSAYS = {
    "en": "Essay questions are not scored here.",
    "ur": "مضمون والے سوالات یہاں اسکور میں شامل نہیں ہیں۔",  # noqa: RUF001
}
MOVED = {
    "en": "{item} is now at position {position} of {total}",
    "ur": "{item} اب {total} میں سے {position} نمبر پر ہے",
}


def wildcard(response: str, pattern: str, case_sensitive: bool) -> bool:
    """compare_string_with_wildcard: NFC, the response trimmed, `*` a run, `\\*` an asterisk."""
    pattern = unicodedata.normalize("NFC", pattern.strip(PHP_TRIM))
    bits = re.split(r"(?<!\\)\*+", pattern)
    regex = "[^\n]*".join(re.escape(bit.replace("\\*", "*")) for bit in bits)
    flags = 0 if case_sensitive else re.IGNORECASE
    return (
        re.fullmatch(regex, unicodedata.normalize("NFC", response).strip(PHP_TRIM), flags)
        is not None
    )


def moodle_number(text: str) -> float | None:
    """qtype_numerical_answer_processor::apply_units without units, after the learner's digits
    and decimal separator are read (a lone comma as the decimal point)."""
    text = text.strip(PHP_TRIM).translate(LOCAL).replace(" ", "")
    text = re.sub(r"(?:e|E|(?:x|\*|×)10(?:\^|\*\*))([+-]?[0-9]+)", r"e\1", text)  # noqa: RUF001
    text = text.replace(",", "") if "." in text or text.count(",") > 1 else text.replace(",", ".")
    found = re.match(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:e[-+]?[0-9]+)?", text)
    return float(found.group()) if found else None


def within(text: str, answer: float, tolerance: float) -> bool:
    """Moodle's nominal tolerance, widened by 1e-14 (PHP precision 14) times the larger value."""
    value = moodle_number(text)
    margin = tolerance + 1e-14 * max(abs(tolerance), abs(answer), 1e-14)
    return value is not None and answer - margin <= value <= answer + margin


def filled(value: str | None) -> bool:
    return bool(value and value.strip(PHP_TRIM))


def gap_right(gap: Any, value: str) -> bool:
    if not filled(value):
        return False
    if isinstance(gap, ChoiceGap):
        return value == gap.answer
    if isinstance(gap, NumericalGap):
        return within(value, gap.answer, gap.tolerance)
    return any(wildcard(value, answer, gap.case_sensitive) for answer in gap.answer)


def grade(question: Any, response: Any) -> Fraction | None:
    """The fraction Moodle gives `response`; None when it is no answer at all."""
    if isinstance(question, (SingleChoice, TrueFalse)):
        return None if response is None else Fraction(response in question.answer_ids)
    if isinstance(question, MultipleChoice):
        if not response:
            return None
        grades = option_grades(question)  # the grades quizbank gives Moodle
        total = sum((Fraction(str(grades[option])) for option in response), Fraction(0))
        return min(Fraction(1), max(Fraction(0), total))
    if isinstance(question, Numerical):
        return (
            Fraction(within(response, question.answer, question.tolerance))
            if filled(response)
            else None
        )
    if isinstance(question, ShortAnswer):
        if not filled(response):
            return None
        return Fraction(
            any(wildcard(response, a, question.case_sensitive) for a in question.answer)
        )
    if isinstance(question, Matching):
        if not response:
            return None
        return Fraction(
            sum(response.get(p.id) == p.id for p in question.pairs), len(question.pairs)
        )
    if isinstance(question, Ordering):  # absolute position, once the learner moved an item
        if response is None:
            return None
        right = [item.id for item in question.items]
        return Fraction(sum(a == b for a, b in zip(response, right, strict=True)), len(right))
    if isinstance(question, Cloze):
        if not any(filled(value) for value in response.values()):
            return None
        rights = [gap_right(question.gaps[g], response.get(g, "")) for g in question.gap_order]
        return Fraction(sum(rights), len(rights))
    raise AssertionError(question)


def shown(value: Fraction, lang: str, decimals: int = 2) -> str:
    """A number as Babel writes it for `lang`, rounded half up to `decimals`."""
    exact = Decimal(value.numerator) / Decimal(value.denominator)
    return format_decimal(exact.quantize(Decimal(1).scaleb(-decimals), ROUND_HALF_UP), locale=lang)


def percent(value: Fraction, lang: str) -> str:
    exact = Decimal(value.numerator * 100) / Decimal(value.denominator)
    return format_percent(exact.quantize(Decimal(1), ROUND_HALF_UP) / 100, locale=lang)


def scenarios(lang: str) -> dict[str, dict[str, Any]]:
    ur = lang == "ur"
    return {
        "all right": {
            "pick-one": "a",
            "pick-all": ["a", "b"],
            "statement": "false",
            "adam-beta1": "۰٫۹" if ur else "0.9",  # Urdu digits and decimal separator  # noqa: RUF001
            "format-name": "سیف ٹینسرز" if ur else "  SafeTensors ",
            "state-parts": {"opt": "opt", "rng": "rng", "sched": "sched"},
            "resume-order": ["load", "restore", "seek"],
            "index-gaps": {
                "what": "ٹینسر" if ur else "Parameter",
                "where": "a",
                "count": "۳" if ur else "3",
            },
            "why-weights-only": "It holds no optimizer or RNG state.",
        },
        "all wrong": {
            "pick-one": "b",
            "pick-all": ["c", "d"],
            "statement": "true",
            "adam-beta1": "۰٫۹۱" if ur else "0.91",  # noqa: RUF001
            "format-name": "pickle",
            "state-parts": {"opt": "lr", "rng": "opt", "sched": "rng"},
            "resume-order": ["restore", "seek", "load"],
            "index-gaps": {"what": "weights", "where": "b", "count": "4"},
            "why-weights-only": "",
        },
        "partly right": {
            "pick-all": ["a", "b", "c"],  # half: two right options, one wrong
            "statement": "false",
            "adam-beta1": "۰٫۸۹۵" if ur else "0,905",  # the edges of 0.9 ± 0.005  # noqa: RUF001
            "format-name": "safe-tensors",  # safe*tensors in English only
            "state-parts": {"opt": "opt", "rng": "sched"},  # one of three, one left blank
            "resume-order": ["load", "seek", "restore"],  # one item in its place
            "index-gaps": {"what": "parameter", "where": "b"},  # one gap of three
        },
    }


def reorder_by_keyboard(page: Page, question: str, target: list[str], lang: str) -> None:
    """Tab to each item's "Move up" button and press Enter or Space until it is in place; a
    list shown in the target order already has its first item moved down and back up, as a
    learner who keeps that order does (a list never touched is not answered)."""
    moves = f"#q-{question} button.move"

    def focused() -> int:
        index: int = page.evaluate(
            f"Array.from(document.querySelectorAll('{moves}')).indexOf(document.activeElement)"
        )
        return index

    def order() -> list[str]:
        found: list[str] = page.eval_on_selector_all(
            f"#q-{question} .item", "items => items.map(item => item.dataset.item)"
        )
        return found

    page.locator(f"#q-{question}").locator("xpath=preceding::select[1]").focus()
    page.keyboard.press("Tab")  # from the last field before the list to its first button
    assert focused() == 0
    if order() == target:
        page.keyboard.press("Tab")  # the first item's "Move down"
        page.keyboard.press("Enter")
        page.keyboard.press("Shift+Tab")  # the same item's "Move up", now second
        page.keyboard.press("Enter")
        assert focused() == 0
    for position, item in enumerate(target):
        current = order().index(item)
        while focused() != 2 * current:  # each item has "Move up", then "Move down"
            page.keyboard.press("Tab" if focused() < 2 * current else "Shift+Tab")
        for step in range(current - position):
            page.keyboard.press("Enter" if step % 2 else "Space")
            text = page.locator(f"#q-{question} .item[data-item='{item}'] .text").inner_text()
            expected = MOVED[lang].format(item=text, position=current - step, total=len(target))
            expect(page.locator(f"#q-{question} .announce")).to_have_text(expected)
        assert focused() == 2 * position  # focus stayed on the button that moved
    assert order() == target


def respond(page: Page, quiz: Quiz, responses: dict[str, Any], lang: str) -> dict[str, Any]:
    """Answer as a learner does; returns what each question's response is (an ordering's is
    the order the learner put it in, None if they never moved an item)."""
    given = dict(responses)
    for question in quiz.questions:
        qid = question.id
        value = responses.get(qid)
        if isinstance(question, Ordering):
            if value is not None:
                reorder_by_keyboard(page, qid, value, lang)
        elif value is None or value == "":
            continue
        elif isinstance(question, (SingleChoice, TrueFalse)):
            page.locator(f"#q-{qid} input[value='{value}']").check()
        elif isinstance(question, MultipleChoice):
            for option in value:
                page.locator(f"#q-{qid} input[value='{option}']").check()
        elif isinstance(question, (Numerical, ShortAnswer)):
            page.locator(f"#q-{qid} .response input").press_sequentially(value)
        elif isinstance(question, Matching):
            for item, choice in value.items():
                page.select_option(f"#q-{qid}--{item}", choice)
        elif isinstance(question, Cloze):
            for gap, text in value.items():
                if isinstance(question.gaps[gap], ChoiceGap):
                    page.select_option(f"#q-{qid}--{gap}", text)
                else:
                    page.locator(f"#q-{qid}--{gap}").press_sequentially(text)
        elif isinstance(question, Essay):
            page.locator(f"#q-{qid} textarea").fill(value)
    return given


def expected_results(
    quiz: Quiz, given: dict[str, Any], lang: str
) -> tuple[str, dict[str, tuple[str, str]]]:
    """The score line, and each scored question's verdict and points line."""
    score, total, unanswered = Fraction(0), Fraction(0), 0
    verdicts = {}
    for question in quiz.questions:
        if isinstance(question, Essay):
            continue
        points = Fraction(str(question.points))
        fraction = grade(question, given.get(question.id))
        unanswered += fraction is None
        earned = points * (fraction or 0)
        score, total = score + earned, total + points
        verdict = (
            "unanswered"
            if fraction is None
            else "right"
            if fraction == 1
            else "wrong"
            if fraction == 0
            else "partial"
        )
        verdicts[question.id] = (
            verdict,
            POINTS_TEXT[lang].format(score=shown(earned, lang), total=shown(points, lang)),
        )
    line = SCORE_TEXT[lang].format(
        score=shown(score, lang), total=shown(total, lang), percent=percent(score / total, lang)
    )
    assert unanswered <= 1
    notes = [NOT_ANSWERED[lang]] * unanswered + [ESSAYS[lang]]
    return " · ".join([line, *notes]), verdicts


@pytest.mark.parametrize("lang", LANGS)
def test_every_type_scores_as_moodle_does(
    types_site: dict[str, Path], open_page: Callable[..., Opened], lang: str
) -> None:
    quiz = load(TYPES, lang, TYPES_ID)
    opened = open_page(types_site[f"{lang}/{TYPES_ID}.html"])
    page = opened.page
    scores = {}
    for name, responses in scenarios(lang).items():
        given = respond(page, quiz, responses, lang)
        opened.submit()
        line, verdicts = expected_results(quiz, given, lang)
        assert opened.score() == line, name
        scores[name] = line
        for qid, (verdict, points) in verdicts.items():
            expect(page.locator(f"#q-{qid} .verdict:visible")).to_have_count(1)
            expect(page.locator(f"#q-{qid} .verdict.{verdict}")).to_be_visible()
            expect(page.locator(f"#q-{qid} .points")).to_have_text(points)
        # The essay: no verdict, the note, and its model answer; never the grader's notes.
        expect(page.locator("#q-why-weights-only .verdict.unscored")).to_have_text(ESSAYS[lang])
        expect(page.locator("#q-why-weights-only .answer dd")).to_be_visible()
        expect(page.locator("#q-why-weights-only .points")).to_have_count(0)
        # The learner's answer stays on show, marked part by part.
        marks = page.locator("#q-state-parts .mark")
        expect(marks).to_have_count(3)
        page.locator("button.retry").click()
        expect(page.locator(".mark, .verdict:visible, .points:visible")).to_have_count(0)
    assert len(set(scores.values())) == 3
    weights = [Fraction(str(q.points)) for q in quiz.questions if not isinstance(q, Essay)]
    total = shown(sum(weights, Fraction(0)), lang)
    assert scores["all right"].startswith(
        SCORE_TEXT[lang].format(score=total, total=total, percent=percent(Fraction(1), lang))
    )
    assert scores["all wrong"].startswith(
        SCORE_TEXT[lang].format(score="0", total=total, percent=percent(Fraction(0), lang))
    )
    assert opened.requests == [opened.url]


@pytest.mark.parametrize("lang", LANGS)
def test_every_type_shows_the_right_answers(
    types_site: dict[str, Path], open_page: Callable[..., Opened], lang: str
) -> None:
    quiz = load(TYPES, lang, TYPES_ID)
    opened = open_page(types_site[f"{lang}/{TYPES_ID}.html"])
    page = opened.page
    expect(page.locator(".answer:visible")).to_have_count(0)
    opened.submit()  # nothing answered
    assert opened.score().split(" · ")[1].startswith({"en": "8 questions", "ur": "8 سوالات"}[lang])
    expect(page.locator(".answer:visible")).to_have_count(len(quiz.questions))

    def answer_of(qid: str) -> str:
        return page.locator(f"#q-{qid} .answer dd").first.inner_text()

    assert answer_of("adam-beta1") == "0.9 ± 0.005"
    arrow = "←" if lang == "ur" else "→"
    matching = quiz.questions[5]
    assert isinstance(matching, Matching)
    # An Urdu term's words are joined by a no-break space, which reads as a space.
    assert [" ".join(line.split()) for line in answer_of("state-parts").splitlines()] == [
        f"{to_plain(p.item)} {arrow} {to_plain(p.match)}" for p in matching.pairs
    ]
    ordering = quiz.questions[6]
    assert isinstance(ordering, Ordering)
    assert [" ".join(line.split()) for line in answer_of("resume-order").splitlines()] == [
        to_plain(item.text) for item in ordering.items
    ]
    filled_in = page.locator("#q-index-gaps .answer dd .filled")
    expect(filled_in).to_have_count(3)
    expect(filled_in.nth(1)).to_have_text({"en": "shard file", "ur": "شارڈ فائل"}[lang])
    expect(filled_in.nth(2)).to_have_text("3")
    essay = quiz.questions[8]
    assert isinstance(essay, Essay) and essay.grader_info
    assert essay.grader_info not in page.content()
    assert page.locator("#q-why-weights-only .answer dd").inner_text() == to_plain(
        essay.explanation
    )
    # An ordering the learner never touched is not answered, not graded on its shuffle.
    expect(page.locator("#q-resume-order .verdict.unanswered")).to_be_visible()
    expect(page.locator("#q-resume-order .mark")).to_have_count(0)


@pytest.mark.parametrize("lang", LANGS)
def test_every_type_fits_a_phone(
    types_site: dict[str, Path], open_page: Callable[..., Opened], lang: str
) -> None:
    quiz = load(TYPES, lang, TYPES_ID)
    opened = open_page(types_site[f"{lang}/{TYPES_ID}.html"])
    page = opened.page
    assert opened.fits()
    assert not [
        v["id"]
        for v in Axe().run(page).response["violations"]
        if v["impact"] in ("serious", "critical")
    ]
    shots = Path("/tmp/shots")
    shots.mkdir(exist_ok=True)
    if lang == "ur":
        for qid in ("state-parts", "resume-order"):
            page.locator(f"#q-{qid}").screenshot(path=str(shots / f"ur-{qid}-375.png"))
    respond(page, quiz, scenarios(lang)["partly right"], lang)
    opened.submit()
    assert opened.fits(), "after submitting, with marks, answers and explanations shown"
    if lang == "ur":
        for qid in ("state-parts", "resume-order"):
            shot = shots / f"ur-{qid}-375-submitted.png"
            page.locator(f"#q-{qid}").screenshot(path=str(shot))
            assert shot.read_bytes()[16:20] <= (375).to_bytes(4, "big")  # no wider than the phone
    violations = Axe().run(page).response["violations"]
    serious = [v["id"] for v in violations if v["impact"] in ("serious", "critical")]
    assert not serious


# Typed answers at the edges of Moodle's rules, one question each, on one page.
TYPED_CASES: list[tuple[dict[str, Any], str]] = [
    *(
        ({"type": "short_answer", "answer": ["safe*tensors"]}, response)
        for response in ("safetensors", "SAFE_TENSORS", "\tsafe tensors  ", "xsafetensors")
    ),
    ({"type": "short_answer", "answer": ["safetensors"]}, "\u00a0safetensors"),  # not trimmed
    ({"type": "short_answer", "answer": ["a\\*b"]}, "a*b"),
    ({"type": "short_answer", "answer": ["a\\*b"]}, "axb"),
    ({"type": "short_answer", "answer": ["a.b (c+)"]}, "A.B (C+)"),
    ({"type": "short_answer", "answer": ["a.b (c+)"]}, "axb (c+)"),
    ({"type": "short_answer", "answer": ["PyTorch"], "case_sensitive": True}, "pytorch"),
    ({"type": "short_answer", "answer": ["PyTorch"], "case_sensitive": True}, "PyTorch"),
    ({"type": "short_answer", "answer": ["caf\u00e9"]}, "cafe\u0301"),  # NFC on both sides
    ({"type": "short_answer", "answer": ["0"]}, "0"),
    *(
        ({"type": "numerical", "answer": 0.9, "tolerance": 0.005}, response)
        for response in [
            *("0.895", "0.8949", "0.905", "0.9051", "+.9", "9e-1", "9x10^-1", "0.9 units"),
            *("\u0660\u066b\u0669", "\u06f0,\u06f9", "abc", "1,234.5"),  # Arabic-Indic digits
        ]
    ),
    ({"type": "numerical", "answer": 0.1}, "0.1"),
    ({"type": "numerical", "answer": 0.1}, "0.10000000000001"),
    ({"type": "numerical", "answer": -2.5, "tolerance": 0.1}, "\u22122.6"),
    ({"type": "numerical", "answer": -2.5, "tolerance": 0.1}, "-2.61"),
    ({"type": "numerical", "answer": 1234.5}, "1,234.5"),
]


def test_typed_answers_are_graded_as_moodle_does(
    tmp_path: Path, open_page: Callable[..., Opened]
) -> None:
    quiz = Quiz.model_validate(
        {
            "id": "typed",
            "lang": "en",
            "title": "Typed answers",
            "description": "Edges of Moodle's rules.",
            "level": "beginner",
            "questions": [
                {"id": f"q{n}", "prompt": "Type it", "explanation": "x", **question}
                for n, (question, _) in enumerate(TYPED_CASES)
            ],
        }
    )
    page_file = tmp_path / "typed.html"
    page_file.write_text(
        HtmlRenderer(HtmlOptions()).render(QuizTranslations("typed", {"en": quiz}, ["en"]), "en"),
        encoding="utf-8",
    )
    opened = open_page(page_file)
    page = opened.page
    for n, (_, response) in enumerate(TYPED_CASES):
        page.locator(f"#q-q{n} input").fill(response)
    opened.submit()
    shown_verdicts = page.eval_on_selector_all(
        ".verdict:not([hidden])", "found => found.map(v => v.className.split(' ')[1])"
    )
    expected = [
        "right" if grade(question, response) else "wrong"
        for question, (_, response) in zip(quiz.questions, TYPED_CASES, strict=True)
    ]
    assert shown_verdicts == expected
    assert expected.count("right") == 19  # the cases hold both outcomes, as Moodle's rules say


# Images and formulas: the media fixture and the bundled second quiz, their images inside the
# pages, in both languages on a phone.

MEDIA_PAGES = [
    f"{folder}/{lang}/{quiz}.html"
    for folder, quiz in (("media", MEDIA_ID), ("practice", PRACTICE_ID))
    for lang in LANGS
]
# The fonts with an OpenType MATH table that the stylesheet names, by their PostScript names.
MATH_FONTS = {
    "STIXTwoMath-Regular",
    "CambriaMath",
    "LatinModernMath-Regular",
    "DejaVuMathTeXGyre-Regular",
}
# Each image, as laid out: loaded, its width, and whether it lies inside its column (the
# question's box inside its padding, or the page's main column).
IMAGE_LAYOUT = """images => images.map(image => {
  const column = image.closest(".question") || image.closest("main");
  const box = column.getBoundingClientRect();
  const style = getComputedStyle(column);
  const start = box.left + parseFloat(style.borderLeftWidth) + parseFloat(style.paddingLeft);
  const end = box.right - parseFloat(style.borderRightWidth) - parseFloat(style.paddingRight);
  const own = image.getBoundingClientRect();
  return {
    alt: image.alt, natural: image.naturalWidth, loaded: image.complete, width: own.width,
    shown: own.width > 0, column: end - start,
    inside: own.left >= start - 0.5 && own.right <= end + 0.5,
  };
})"""
# Each formula, as laid out: its box, and every fraction's and stretched bracket's height.
FORMULA_LAYOUT = """formulas => formulas.map(formula => {
  const box = formula.getBoundingClientRect();
  const heights = (selector) => Array.from(
    formula.querySelectorAll(selector), (node) => node.getBoundingClientRect().height);
  return {
    tex: formula.getAttribute("alttext"), width: box.width, height: box.height,
    shown: formula.checkVisibility(), font: parseFloat(getComputedStyle(formula).fontSize),
    fractions: heights("mfrac"), fences: heights("mo[stretchy=true]"),
  };
})"""


def assert_drawn_with_a_math_font(page: Page) -> None:
    """The page's first formula was drawn with a font that has a MATH table, none other."""
    fonts = platform_fonts(page, "fieldset:not([hidden]) math mi")  # (not a variant not drawn)
    assert fonts and fonts <= MATH_FONTS, fonts


@pytest.fixture(scope="module")
def media_site(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    media = build(tmp_path_factory.mktemp("media"), MEDIA, MEDIA_ID)
    practice = build(tmp_path_factory.mktemp("practice"), CONTENT, PRACTICE_ID, every_question=True)
    return {
        **{f"media/{name}": path for name, path in media.items()},
        **{f"practice/{name}": path for name, path in practice.items()},
    }


@pytest.mark.parametrize("name", MEDIA_PAGES)
def test_images_and_formulas_are_drawn_inside_the_page(
    media_site: dict[str, Path], open_page: Callable[..., Opened], name: str
) -> None:
    opened = open_page(media_site[name])
    page = opened.page
    opened.answer(wrong)  # a wrong option's feedback shows, the grid in the media fixture's
    opened.submit()
    images = page.eval_on_selector_all("img", IMAGE_LAYOUT)
    assert images and all(image["loaded"] and image["natural"] > 0 for image in images)
    for image in (image for image in images if image["shown"]):
        assert image["inside"] and image["width"] <= PHONE["width"], image
        if image["natural"] > image["column"]:  # a large drawing takes the column's width
            assert image["width"] == pytest.approx(image["column"], abs=1), image
    formulas = page.eval_on_selector_all("math", FORMULA_LAYOUT)
    shown = [formula for formula in formulas if formula["shown"]]
    assert shown and all(f["width"] > 0 and f["height"] > 0 for f in shown), shown
    for formula in shown:
        for fraction in formula["fractions"]:  # numerator over denominator, not "32" in a line
            assert fraction > 1.3 * formula["font"], formula
        for fence in formula["fences"]:  # \left and \right stretch around a fraction
            assert fence >= 0.9 * max(formula["fractions"], default=0), formula
    assert any(formula["fractions"] for formula in shown)
    assert_drawn_with_a_math_font(page)
    assert opened.fits(), "after submitting, with feedback and explanations shown"
    assert opened.requests == [opened.url]
    assert not Axe().run(page).response["violations"]


@pytest.mark.parametrize("lang", LANGS)
def test_a_root_is_drawn_with_its_sign(
    tmp_path: Path, open_page: Callable[..., Opened], lang: str
) -> None:
    page_file = tmp_path / "root.html"
    quiz = one_question(lang, type="numerical", prompt="$$r = \\sqrt{\\frac{x}{y}}$$", answer=1)
    page_file.write_text(render_page(quiz), encoding="utf-8")
    page = open_page(page_file).page
    root, radicand = (page.locator(selector).bounding_box() for selector in ("msqrt", "msqrt > *"))
    font = page.locator("msqrt").evaluate("node => parseFloat(getComputedStyle(node).fontSize)")
    assert root and radicand
    assert root["width"] >= radicand["width"] + 0.4 * font  # the radical sign beside it
    assert root["height"] > radicand["height"]  # and its bar over it
    assert_drawn_with_a_math_font(page)


@pytest.mark.parametrize("lang", LANGS)
def test_a_wide_formula_scrolls_in_its_own_box(
    media_site: dict[str, Path], open_page: Callable[..., Opened], lang: str
) -> None:
    """Adam's checkpoint size, wider than a phone: it scrolls inside its box, all of it can be
    reached (in Urdu too, where a right-to-left box would cut off its end), and by keyboard."""
    opened = open_page(media_site[f"practice/{lang}/{PRACTICE_ID}.html"])
    opened.submit()
    box = drawn_variant(opened.page, "adam-checkpoint-size").locator(".formula")
    reach = """box => {
      const parts = Array.from(box.querySelectorAll("math *"), (node) => node.getBoundingClientRect());
      return {
        scroll: box.scrollWidth, client: box.clientWidth, overflow: getComputedStyle(box).overflowX,
        ink: Math.max(...parts.map((r) => r.right)) - Math.min(...parts.map((r) => r.left)),
      };
    }"""
    found = box.evaluate(reach)
    assert found["overflow"] == "auto" and found["scroll"] > found["client"]
    assert found["scroll"] >= found["ink"] - 1, "every part of the formula can be scrolled to"
    assert opened.fits()
    box.focus()
    opened.page.keyboard.press("ArrowRight")  # scrolls smoothly: wait for it to move
    opened.page.wait_for_function("box => box.scrollLeft > 0", arg=box.element_handle())


@pytest.mark.parametrize("lang", LANGS)
def test_an_ordering_item_is_announced_by_its_formula_and_alt_text(
    tmp_path: Path, open_page: Callable[..., Opened], lang: str
) -> None:
    grid = Image(PurePosixPath("images/grid.png"), "image/png", GRID.read_bytes())
    items = [
        {"id": "half", "text": "$\\frac{1}{2}$ of it"},
        {"id": "grid", "text": "![Three boxes](grid.png)"},
        {"id": "all", "text": "All of it"},
    ]
    quiz = one_question(lang, type="ordering", prompt="Order them.", items=items)
    page_file = tmp_path / "order.html"
    page_file.write_text(render_page(quiz, {"grid.png": grid}), encoding="utf-8")
    page = open_page(page_file).page
    announced = {}
    for item in ("half", "grid"):
        moves = page.locator(f".item[data-item='{item}'] button.move")
        moves.nth(0 if moves.nth(0).get_attribute("aria-disabled") == "false" else 1).click()
        announced[item] = page.locator(".announce").inner_text()
    assert "\\frac{1}{2} of it" in announced["half"]  # not the bare "12" of its MathML
    assert "Three boxes" in announced["grid"]


def test_the_urdu_diagram_and_formula_after_submitting(
    media_site: dict[str, Path], open_page: Callable[..., Opened]
) -> None:
    """The shard-count question on an Urdu phone after Submit, shot to /tmp/urdu-formula.png:
    the diagram fits the column, and the formulas read left to right inside Urdu text."""
    opened = open_page(media_site[f"practice/ur/{PRACTICE_ID}.html"])
    opened.submit()
    question = drawn_variant(opened.page, "shard-count")
    shot = Path("/tmp/urdu-formula.png")
    question.screenshot(path=str(shot))
    assert shot.read_bytes()[16:20] <= (PHONE["width"]).to_bytes(4, "big")

    def xs(selector: str) -> list[float]:
        boxes = [node.bounding_box() for node in question.locator(selector).all()]
        return [box["x"] for box in boxes if box]

    # n = ⌈S/B⌉ = ⌈46/10⌉: n on the left, 46/10 on the right; B = 10 in the prompt likewise.
    displayed, inline = ".answer math[display=block]", ".prompt math[display=inline]"
    assert xs(f"{displayed} mi")[0] < xs(f"{displayed} mn")[-1]
    assert xs(f"{inline} mi")[0] < xs(f"{inline} mn")[0]
    direction = question.locator(displayed).evaluate("math => getComputedStyle(math).direction")
    assert direction == "ltr"
    image = question.locator("img").evaluate_all(IMAGE_LAYOUT)[0]
    assert image["inside"] and image["width"] == pytest.approx(image["column"], abs=1)


def test_every_page_with_images_and_formulas_is_valid_html(
    media_site: dict[str, Path], tmp_path: Path
) -> None:
    """The Nu HTML Checker, warnings included, on the media fixture's pages and the bundled
    ones. It calls every `data:` image blocked by a policy whatever the policy says, `img-src
    data:` too (it reads no `data:` URL as one): only that report is left out (test_html_media
    checks the policy). A page with a known mistake goes along, to show that reports get out."""
    assert VNU.is_file(), "the Nu HTML Checker is not installed: run `npm ci`"
    first = build(tmp_path / "first", CONTENT, QUIZ_ID)
    broken = tmp_path / "broken.html"
    media = media_site[f"media/en/{MEDIA_ID}.html"].read_text(encoding="utf-8")
    broken.write_text(media.replace('id="q-pick-image"', 'id="q-diagram"'), encoding="utf-8")
    pages = [*media_site.values(), *first.values(), broken]
    data_image_blocked = ".*image “data:[^”]*” blocked by “img-src” directive\\."
    command = ["java", "-jar", str(VNU), "--format", "gnu", "--filterpattern", data_image_blocked]
    result = subprocess.run(
        [*command, "--", *map(str, pages)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    reports = (result.stdout + result.stderr).splitlines()
    assert reports and all("broken.html" in line for line in reports), "\n".join(reports)
    assert any("Duplicate ID" in line for line in reports)
