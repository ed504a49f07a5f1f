"""The Urdu page in Chromium, measured as a learner sees it (issue 27, review 3 §5): every Latin
run of its text isolated and English, the matching answer list included (X4); what a learner
types read as typed (X3); long identifiers broken only after `.` or `_` (X11); Latin drawn in a
Latin face, never a serif fallback (X12). Positions come from DOM character rectangles, as in
test_markdown_rtl, in both bundled quizzes.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page
from test_html import CONTENT, LANGS, build
from test_html_browser import PHONE, platform_fonts

QUIZZES = ("checkpoint-sharding", "resuming-training-in-practice")
MATCHING = "state-sources"  # the second quiz's matching question

# Each run of Latin letters in the text under `root` that is not both inside an isolate (a
# `<bdi>` or a left-to-right element) and marked English: its text and where it is. Drop-downs
# are left out: an `<option>` holds plain text only, isolated with U+2066…U+2069 instead.
UNISOLATED = """(root) => {
  const skip = "script, style, select, textarea, math, svg";
  const found = [];
  const walker = document.createTreeWalker(document.querySelector(root), NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (parent.closest(skip)) continue;
    const isolate = parent.closest("bdi, [dir]");
    const isolated = isolate && (isolate.localName === "bdi" || isolate.dir === "ltr");
    const english = parent.closest("[lang]").lang === "en";
    for (const run of node.data.matchAll(/[A-Za-z]+/g)) {
      if (!(isolated && english)) {
        found.push(`${run[0]} in ${parent.closest("[id]").id}: ${node.data.trim().slice(0, 60)}`);
      }
    }
  }
  return found;
}"""

# The x of the middle of each character of the first text node under `root` holding `text`.
MEASURE = """([root, text]) => {
  const walker = document.createTreeWalker(document.querySelector(root), NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const at = node.data.indexOf(text);
    if (at < 0) continue;
    return Array.from(text, (_, offset) => {
      const range = document.createRange();
      range.setStart(node, at + offset);
      range.setEnd(node, at + offset + 1);
      const box = range.getBoundingClientRect();
      return box.left + box.width / 2;
    });
  }
  return null;
}"""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    out = tmp_path_factory.mktemp("bidi")
    pages: dict[str, Path] = {}
    for quiz_id in QUIZZES:  # every question on show: its text is measured, not the draw
        pages |= build(out, CONTENT, quiz_id, every_question=True)
    return pages


@pytest.fixture
def open_quiz(browser: Browser, site: dict[str, Path]) -> Iterator[Any]:
    pages: list[Page] = []

    def open_(lang: str, quiz_id: str) -> Page:
        page = browser.new_page(viewport=PHONE)
        pages.append(page)
        page.goto(site[f"{lang}/{quiz_id}.html"].as_uri())
        return page

    yield open_
    for page in pages:
        page.close()


def xs(page: Page, root: str, text: str) -> list[float]:
    found: list[float] | None = page.evaluate(MEASURE, [root, text])
    assert found is not None, (root, text)
    return found


@pytest.mark.parametrize("quiz_id", QUIZZES)
def test_every_latin_run_of_the_urdu_page_is_isolated_and_english(
    open_quiz: Any, quiz_id: str
) -> None:
    page = open_quiz("ur", quiz_id)
    page.locator("button.submit").click()  # every answer list and explanation on show
    unisolated: list[str] = page.evaluate(UNISOLATED, "main")
    assert not unisolated, f"{len(unisolated)} Latin runs not isolated as English:\n" + "\n".join(
        unisolated
    )


@pytest.mark.parametrize("lang", LANGS)
def test_the_matching_answer_list_is_rich_text(open_quiz: Any, lang: str) -> None:
    page = open_quiz(lang, QUIZZES[1])
    page.locator("button.submit").click()
    answers = f"#q-{MATCHING} .answer dd ul"
    # `last_epoch` keeps its code formatting, as in the question's own texts
    code = page.locator(f"{answers} code", has_text="last_epoch")
    assert code.count() == 1
    assert code.evaluate("node => getComputedStyle(node).fontFamily").startswith("ui-monospace")
    name = xs(page, answers, "last_epoch")
    assert name == sorted(name)  # read left to right
    if lang == "ur":
        # Latin in a Latin face, not the serif fallback of a Nastaliq text
        first = f"{answers} li:first-child"
        assert page.locator(f"{first} bdi[lang=en]").inner_text() == "CPU"
        fonts = platform_fonts(page, f"{first} bdi")
        assert not any("Serif" in font for font in fonts), fonts
        # one line that reads right to left: the item, the arrow, then its match
        item = xs(page, first, "torch.get_rng_state()")
        (arrow,) = xs(page, first, "←")
        cpu = xs(page, first, "CPU")
        assert item == sorted(item) and cpu == sorted(cpu)  # each left to right inside
        assert min(item) > arrow > max(cpu)


TYPED = {"state_dict()": "ltr", "اسٹیٹ ڈکٹ": "rtl"}


@pytest.mark.parametrize("lang", LANGS)
def test_what_a_learner_types_reads_as_typed(open_quiz: Any, lang: str) -> None:
    page = open_quiz(lang, QUIZZES[1])
    # The fields of the questions this attempt draws (of a short answer, two numbers, two
    # gaps and the essay; the sections draw some, each number one variant of ten).
    fields = page.locator("input[type=text]:visible, textarea:visible")
    assert page.locator("input[type=text], textarea").count() == 24
    assert fields.count() > 0
    for text, direction in TYPED.items():
        for index in range(fields.count()):
            field = fields.nth(index)
            field.fill(text)
            shown = field.evaluate("field => field.matches(':dir(ltr)') ? 'ltr' : 'rtl'")
            assert shown == direction, (field.get_attribute("id"), text)
    if lang == "ur":  # typed Latin in a Latin face, not a serif fallback
        fields.first.fill("state_dict()")
        fonts = platform_fonts(page, "input[type=text]")
        assert not any("Serif" in font for font in fonts), fonts


# Where each inline code span of the page breaks across lines: its text, and the offset in it
# of the last character drawn before each break.
CODE_BREAKS = """() => Array.from(document.querySelectorAll("main code"))
  .filter((code) => !code.closest("pre"))
  .flatMap((code) => {
    const breaks = [];
    let last = null;
    let at = 0;
    const walker = document.createTreeWalker(code, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (let offset = 0; offset < node.data.length; offset += 1, at += 1) {
        const range = document.createRange();
        range.setStart(node, offset);
        range.setEnd(node, offset + 1);
        const box = range.getBoundingClientRect();
        if (box.width === 0) continue;
        if (last && box.top > last.top + 1) breaks.push([code.textContent, last.at]);
        last = { top: box.top, at };
      }
    }
    return breaks;
  })"""


def inside_a_name(text: str, at: int) -> bool:
    """Whether a line break after text[at] falls inside a name: not after a dot, an
    underscore or before a space."""
    return text[at] not in "._" and not text[at + 1 : at + 2].isspace()


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("quiz_id", QUIZZES)
def test_code_breaks_only_after_a_dot_or_underscore(
    open_quiz: Any, lang: str, quiz_id: str
) -> None:
    page = open_quiz(lang, quiz_id)
    page.locator("button.submit").click()
    breaks: list[tuple[str, int]] = page.evaluate(CODE_BREAKS)
    assert breaks  # a phone's line is too short for some of them
    inside = [
        f"{text[: at + 1]} / {text[at + 1 :]}" for text, at in breaks if inside_a_name(text, at)
    ]
    assert not inside
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
