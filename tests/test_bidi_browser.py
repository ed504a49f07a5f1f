"""What an Urdu learner sees (issue 27, X1, X2, the Markdown code span, X7), measured in
Chromium from the character boxes of the bundled quizzes as quizbank builds them: the HTML page,
the Markdown page as a host makes HTML of it (test_markdown_rtl.HOST), and each plain-text label
(a drop-down's choice, which a `<select>` draws with the bidi algorithm of any right-to-left
line but gives no boxes of: measured in a right-to-left paragraph of the same text).
"""

from __future__ import annotations

import re
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import REPO
from playwright.sync_api import Browser, Page
from test_markdown_rtl import HOST, MEASURE

from quizbank.build import BuildRequest, build
from quizbank.registry import discover_renderers

QUIZZES = ("checkpoint-sharding", "resuming-training-in-practice")
ISOLATES = re.compile("[\u2066-\u2069]")


@pytest.fixture(scope="module")
def out(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("bidi") / "dist"
    formats = ["html", "markdown", "moodle", "qti3"]
    request = BuildRequest(
        paths=[REPO / "content"], out_dir=folder, formats=formats, use_cache=False
    )
    assert not build(request, discover_renderers()).report.has_errors
    return folder


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    page = browser.new_page(viewport={"width": 900, "height": 800})
    yield page
    page.close()


def _xs(page: Page, root: str, text: str, offsets: list[int]) -> list[float] | None:
    """The x of the characters at `offsets` of the first occurrence of `text` under `root`."""
    found: list[float] | None = page.evaluate(MEASURE, [root, text, offsets])
    return found


def _markdown_page(out: Path, quiz: str) -> str:
    """The Urdu Markdown page as a host makes HTML of it."""
    html = HOST.render((out / "markdown" / "ur" / f"{quiz}.md").read_text("utf-8"))
    return f'<!doctype html><html lang="ur"><meta charset="utf-8"><body>{html}</body></html>'


def _paragraphs(texts: list[str]) -> str:
    """Each text in a right-to-left paragraph of its own, `#p0`, `#p1`…, as a drop-down in a
    right-to-left page lays out its choice."""
    body = "".join(f'<p id="p{n}" dir="rtl">{text}</p>' for n, text in enumerate(texts))
    return (
        f'<!doctype html><html lang="ur" dir="rtl"><meta charset="utf-8"><body>{body}</body></html>'
    )


# --- X1: 10⁹ -----------------------------------------------------------------------------------


def test_a_power_of_ten_reads_left_to_right_in_the_urdu_pages(out: Path, page: Page) -> None:
    """`10⁹` in adam-checkpoint-size: 1, 0 and ⁹ from left to right, in the HTML page and the
    Markdown page (Moodle's and QTI's HTML are the HTML page's markup). The HTML page holds
    every variant of the question and shows the one drawn: measured there."""
    quiz = "resuming-training-in-practice"
    page.goto((out / "html" / "ur" / f"{quiz}.html").as_uri())
    drawn = "[id^='q-adam-checkpoint-size__']:not([hidden]) .prompt"
    html = _xs(page, drawn, "10⁹", [0, 1, 2]) or []  # not a drawn 10.5 billion parameters
    page.set_content(_markdown_page(out, quiz))
    markdown = (_xs(page, "body", "10", [0, 1]) or []) + (_xs(page, "body", "⁹", [0]) or [])
    for xs in (html, markdown):
        assert len(xs) == 3 and xs[0] < xs[1] < xs[2], xs  # 1, 0, ⁹


# --- X2: plain-text labels --------------------------------------------------------------------


def _labels(out: Path, quiz: str) -> dict[str, list[str]]:
    """Each format's plain-text labels of the Urdu quiz: the HTML page's `<option>`s, Moodle's
    drop-down choices and match answers, QTI 3's inline choices."""
    html = (out / "html" / "ur" / f"{quiz}.html").read_text("utf-8")
    moodle = (out / "moodle" / "ur" / f"{quiz}.xml").read_text("utf-8")
    with zipfile.ZipFile(out / "qti3" / "ur" / f"{quiz}.zip") as package:
        qti = "".join(package.read(n).decode() for n in package.namelist() if n.endswith(".xml"))
    choices = [
        choice.lstrip("=").split("#")[0]
        for gap in re.findall(r"\{[0-9]*:MULTICHOICE(?:_S)?:([^}]*)\}", moodle)
        for choice in gap.split("~")
    ]
    return {
        "html": re.findall(r'<option value="[^"]+">([^<]*)</option>', html),
        "moodle": re.findall(r"<answer>\s*<text><!\[CDATA\[([^\]]*)\]\]>", moodle) + choices,
        "qti3": re.findall(r"<qti-inline-choice [^>]*>([^<]*)<", qti),
    }


@pytest.mark.parametrize("quiz", QUIZZES)
def test_every_latin_call_in_a_label_keeps_its_parentheses_after_its_name(
    out: Path, page: Page, quiz: str
) -> None:
    """In each label of each format, every `name()` shows its `(` right of its name's first
    letter, as written; without the isolates the `()` would land left of it (`()name`)."""
    labels = [
        (fmt, label)
        for fmt, found in _labels(out, quiz).items()
        for label in set(found)
        if "()" in label
    ]
    if quiz == "checkpoint-sharding":
        assert labels == []  # only choices, which are HTML: nothing to measure
        return
    assert {fmt for fmt, _ in labels} == {"html", "moodle", "qti3"}
    texts = [label for _, label in labels]
    page.set_content(_paragraphs(texts + [ISOLATES.sub("", t) for t in texts]))
    for n, label in enumerate(texts):
        plain = ISOLATES.sub("", label)
        for call in re.finditer(r"[A-Za-z_.]+\(\)", plain):
            name = call.group()
            after = _xs(page, f"#p{n}", name, [0, len(name) - 2])
            before = _xs(page, f"#p{n + len(texts)}", name, [0, len(name) - 2])
            assert after is not None and before is not None
            assert after[0] < after[1], (labels[n], name, after)
            assert before[0] > before[1], (labels[n], name, before)  # the bug, without them


# --- the Markdown answer key: X7 and Urdu code spans --------------------------------------------


def _as_github(html: str) -> str:
    """The host's HTML with `dir="auto"` on each heading, paragraph and list item, as GitHub."""
    return re.sub(r"<(h[1-6]|p|li)>", r'<\1 dir="auto">', html)


@pytest.mark.parametrize("quiz", QUIZZES)
def test_every_key_heading_stays_right_to_left_under_dir_auto(
    out: Path, page: Page, quiz: str
) -> None:
    page.set_content(_as_github(_markdown_page(out, quiz)))
    directions: list[str] = page.evaluate(
        "() => [...document.querySelectorAll('h3')].map((h) => getComputedStyle(h).direction)"
    )
    assert directions and set(directions) == {"rtl"}, directions


def test_an_urdu_accepted_answer_reads_right_to_left(out: Path, page: Page) -> None:
    """`*سیڈ` in mid-epoch-gaps' key: the star, written first, right of the word."""
    page.set_content(_as_github(_markdown_page(out, "resuming-training-in-practice")))
    star, letter = _xs(page, "body", "*سیڈ", [0, 1]) or [0.0, 0.0]
    assert star > letter, (star, letter)


def test_an_urdu_code_span_in_a_text_reads_right_to_left(page: Page) -> None:
    """An author's code span `*سیڈ` in a prompt (left to right, its star would show after the
    word), and a Latin one beside it."""
    from quizbank_renderers.markdown_rtl import isolated

    text = "جواب میں `*سیڈ` یا `state_dict()` لکھیں"
    page.set_content(_paragraphs([HOST.renderInline(isolated(text, True))]))
    star, letter = _xs(page, "#p0", "*سیڈ", [0, 1]) or [0.0, 0.0]
    name, paren = _xs(page, "#p0", "state_dict()", [0, 10]) or [0.0, 0.0]
    assert star > letter, (star, letter)
    assert name < paren, (name, paren)
