"""Questions with variables and sections that draw on the HTML page (issue 28): every variant
written as an ordinary question, one drawn per attempt with the sections' picks, numbered and
scored as drawn, its key and explanation showing the drawn variant's values.

The fixture tests/fixtures/variables: a numerical with 12 drawn variants, a cloze with 3 listed
ones, and two true/false questions in a section that asks one of them.
"""

from __future__ import annotations

import math
import re
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

import lxml.html
import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page, expect
from test_html import CONTENT, LANGS, QUIZ_ID, ROOT, VNU, build, script_data
from test_html_browser import Opened, open_page

from quizbank.i18n import gettext_for
from quizbank.model import Cloze, Numerical
from quizbank.variables import variants

__all__ = ["open_page"]  # the browser tests' fixture, used here too (browser: conftest.py)

FIXTURE = ROOT / "tests" / "fixtures" / "variables"
CALC = "calc"
TIMES = "\u00d7"  # the explanation's multiplication sign
# The prompts' numbers, in both languages: "A model has 7 billion parameters in 4-byte floats"
# ("ایک ماڈل کے 7 ارب پیرامیٹرز 4 بائٹ"), "A checkpoint of 18 GB" ("18 GB کے چیک پوائنٹ").
ADAM = re.compile(r"(\d+)\D+?(\d+)")
SIZE = re.compile(r"(\d+) GB")
# Math.random as a seeded generator (mulberry32): the draws are the page's own, but the same
# on every run of the test.
SEEDED = """
(() => {
  let state = 20260428;
  Math.random = () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
})();
"""


@pytest.fixture(scope="module")
def calc(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return build(tmp_path_factory.mktemp("calc"), FIXTURE, CALC)


def page_of(calc: dict[str, Path], lang: str) -> str:
    return calc[f"{lang}/{CALC}.html"].read_text(encoding="utf-8")


def _question(lang: str, index: int) -> Numerical | Cloze:
    from test_html import load

    question = load(FIXTURE, lang, CALC).questions[index]
    assert isinstance(question, Numerical | Cloze)
    return question


# ------------------------------------------------------------------------- the page as a file


@pytest.mark.parametrize("lang", LANGS)
def test_every_variant_is_a_question_with_its_own_values(calc: dict[str, Path], lang: str) -> None:
    page = page_of(calc, lang)
    tree = lxml.html.fromstring(page)
    drawn = variants(CALC, _question(lang, 0))
    wrapper = tree.xpath("//*[@data-variants][@data-question='adam-memory']")
    assert len(wrapper) == 1 and wrapper[0].get("data-variants") == "12"
    fieldsets = wrapper[0].xpath("./fieldset")
    assert len(fieldsets) == 12
    assert [f.get("hidden") is None for f in fieldsets] == [True] + [False] * 11  # without JS
    key = script_data(page)["questions"]
    assert isinstance(key, dict)
    for fieldset, values in zip(fieldsets, drawn, strict=True):
        p, size = int(values["p"]), int(values["bytes"])
        answer = p * size * 3
        qid = fieldset.get("data-question")
        assert key[qid] == {"type": "numerical", "points": 1.0, "answer": answer, "tolerance": 0.01}
        prompt = fieldset.xpath("string(.//legend/span[@class='prompt'])")
        assert [int(n) for n in ADAM.search(prompt).groups()] == [p, size]  # type: ignore[union-attr]
        right, explanation = fieldset.xpath(".//details[@class='answer']//dd")
        assert right.text_content() == f"{answer} ± 0.01"
        assert f"{p} {TIMES} {size} {TIMES} 3 = {answer}.00 GB" in explanation.text_content()
    cloze = tree.xpath("//*[@data-variants][@data-question='shards']/fieldset")
    for fieldset, size in zip(cloze, (18, 24, 31), strict=True):
        assert fieldset.xpath("string(.//*[@class='filled'])") == str(math.ceil(size / 5))
        assert f"{size} GB" in fieldset.xpath("string(.//legend/following-sibling::*[1])")


@pytest.mark.parametrize("lang", LANGS)
def test_sections_hold_their_questions_in_order_with_their_titles_and_picks(
    calc: dict[str, Path], lang: str
) -> None:
    page = page_of(calc, lang)
    tree = lxml.html.fromstring(page)
    parts = tree.xpath("//form/*[contains(@class, 'part')]")
    titles = {"en": ["Basics", "Practice"], "ur": ["بنیادی باتیں", "مشق"]}[lang]
    assert [part.xpath("string(h2)") for part in parts] == titles
    assert [part.get("data-pick") for part in parts] == ["1", None]
    assert [element.get("data-question") for element in parts[0].xpath("./*[@data-question]")] == [
        "why-shard",
        "resume",
    ]
    assert [element.get("data-question") for element in parts[1].xpath("./*[@data-question]")] == [
        "adam-memory",
        "shards",
    ]
    # A learner answers 3 questions an attempt: 1 of the 2 basics, and both practice ones.
    facts = tree.xpath("string(//ul[@class='facts']/li[2])")
    assert facts == {"en": "3 questions", "ur": "3 سوالات"}[lang]


def test_a_page_without_variables_or_sections_is_written_as_before(tmp_path: Path) -> None:
    """No wrapper, no part, no data for draws: each question a fieldset of the form, as always
    (tests/golden/golden-question.html holds one such question byte for byte)."""
    page = build(tmp_path, CONTENT, QUIZ_ID)[f"en/{QUIZ_ID}.html"].read_text(encoding="utf-8")
    tree = lxml.html.fromstring(page)
    children = [child.tag for child in tree.xpath("//form/*")]
    assert children == ["fieldset"] * 8 + ["div", "div"]
    assert not tree.xpath("//*[@data-variants or @data-pick] | //fieldset[@hidden]")
    assert "legend" not in script_data(page)


# ------------------------------------------------------------------------- in the browser


def drawn(page: Page) -> list[str]:
    """The questions of this attempt, as the page shows them: each one's data-question."""
    asked: list[str] = page.eval_on_selector_all(
        "fieldset.question",
        "all => all.filter(f => f.offsetParent !== null).map(f => f.dataset.question)",
    )
    return asked


def right_answer(page: Page, qid: str) -> str:
    """The right answer of a drawn question, worked out from the numbers its prompt shows."""
    prompt = page.locator(f"#q-{qid} .prompt").last.inner_text()  # (a cloze's after its legend)
    if qid.startswith("adam-memory"):
        p, size = (int(n) for n in ADAM.search(prompt).groups())  # type: ignore[union-attr]
        return str(p * size * 3)
    return str(math.ceil(int(SIZE.search(prompt).group(1)) / 5))  # type: ignore[union-attr]


def answer(page: Page, asked: list[str], lang: str, *, wrong: str = "") -> None:
    """Every drawn question answered right, but `wrong` (one question, by its start) wrong."""
    for qid in asked:
        if qid in ("why-shard", "resume"):
            value = "false" if wrong == qid else "true"
            page.locator(f"#q-{qid} label:has(input[value='{value}']) .text").click()
            continue
        typed = right_answer(page, qid)
        if wrong and qid.startswith(wrong):
            typed = str(int(typed) + 1)
        field = page.locator(f"#q-{qid} input[type=text]")
        field.fill(typed)


def score_line(lang: str, score: int, total: int) -> str:
    message = gettext_for(lang)("Your score: %(score)s of %(total)s (%(percent)s)")
    return message % {"score": score, "total": total, "percent": f"{round(score / total * 100)}%"}


@pytest.fixture
def seeded(open_page: Callable[..., Opened]) -> Iterator[Callable[[Path], Opened]]:
    def open_seeded(path: Path) -> Opened:
        opened = open_page(path)
        opened.page.add_init_script(SEEDED)
        opened.page.reload()
        return opened

    yield open_seeded


@pytest.mark.parametrize("lang", LANGS)
def test_two_attempts_draw_different_variants_and_picks_each_scored_right(
    calc: dict[str, Path], seeded: Callable[[Path], Opened], lang: str
) -> None:
    opened = seeded(calc[f"{lang}/{CALC}.html"])
    page = opened.page
    first = drawn(page)
    assert len(first) == 3
    assert sum(qid in ("why-shard", "resume") for qid in first) == 1  # pick: 1 of the basics
    assert [qid.split("__")[0] for qid in first[1:]] == ["adam-memory", "shards"]
    numbers = page.locator("fieldset.question:visible legend .number")
    legend = gettext_for(lang)("Question %(num)s of %(total)s")
    expect(numbers).to_have_text([legend % {"num": n, "total": 3} for n in (1, 2, 3)])

    answer(page, first, lang)
    opened.submit()
    assert opened.score() == score_line(lang, 3, 3)
    expect(page.locator(".verdict.right:visible")).to_have_count(3)

    for _ in range(40):  # a new draw until both the pick and the variant differ
        page.locator("button.retry").click()
        second = drawn(page)
        if second[0] != first[0] and second[1] != first[1]:
            break
        opened.submit()
    else:
        raise AssertionError("forty attempts drew the same pick or variant")
    assert len(second) == 3
    expect(numbers).to_have_text([legend % {"num": n, "total": 3} for n in (1, 2, 3)])
    expect(page.locator(".verdict:visible, .answer:visible")).to_have_count(0)

    answer(page, second, lang, wrong="adam-memory")
    opened.submit()
    assert opened.score() == score_line(lang, 2, 3)
    adam = page.locator(f"#q-{second[1]}")
    expect(adam.locator(".verdict.wrong")).to_be_visible()
    # The key and explanation show the drawn variant's values, not the first attempt's.
    p, size = (int(n) for n in ADAM.search(adam.locator("legend .prompt").inner_text()).groups())  # type: ignore[union-attr]
    key, explanation = adam.locator(".answer dd").all()
    expect(key).to_have_text(f"{p * size * 3} ± 0.01")
    expect(explanation).to_contain_text(f"{p} {TIMES} {size} {TIMES} 3 = {p * size * 3}.00 GB")
    expect(page.locator(".verdict.right:visible")).to_have_count(2)


def test_without_javascript_the_first_variant_and_every_question_show(
    calc: dict[str, Path], open_page: Callable[..., Opened]
) -> None:
    page = open_page(calc[f"en/{CALC}.html"], javascript=False).page
    assert drawn(page) == ["why-shard", "resume", "adam-memory__1", "shards__1"]


@pytest.mark.parametrize("lang", LANGS)
def test_axe_finds_no_serious_violation_on_a_drawn_page(
    calc: dict[str, Path], seeded: Callable[[Path], Opened], lang: str
) -> None:
    opened = seeded(calc[f"{lang}/{CALC}.html"])
    answer(opened.page, drawn(opened.page), lang)
    opened.submit()
    violations = Axe().run(opened.page).response["violations"]
    serious = [v["id"] for v in violations if v["impact"] in ("serious", "critical")]
    assert not serious
    assert set(opened.requests) == {opened.url}  # (loaded twice: once seeded)


def test_the_pages_are_valid_html(calc: dict[str, Path]) -> None:
    assert VNU.is_file(), "the Nu HTML Checker is not installed: run `npm ci`"
    pages = [str(path) for path in calc.values()]
    result = subprocess.run(
        ["java", "-jar", str(VNU), "--format", "gnu", "--", *pages],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
