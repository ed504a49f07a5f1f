"""The HTML pages in a real browser (Debian's Chromium through Playwright): a learner takes the
quiz in each language, by mouse and by keyboard, on a 375 px phone; right-to-left layout, fonts,
no request, printing and axe-core's accessibility rules.

CI installs Chromium (.ci/run); these tests fail, not skip, when it is missing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, BrowserContext, Page, expect, sync_playwright
from test_html import CONTENT, FIXTURES, LANGS, QUIZ_ID, build, load

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
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
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


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
