"""The Markdown page's headings and blanks (issue 26, item 17; issue 27, X7 and the code span):
no empty `## 9.` heading when a prompt opens with an image; an answer-key heading of a
right-to-left page opens with a word of its language (`### سوال 7: 4`), so that a host's
`dir="auto"` keeps it right to left; no space between a blank and the full stop after it, and
its underscores still never emphasis; an Urdu code span isolated first-strong, not left to right.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from conftest import CONTENT
from markdown_it import MarkdownIt
from quizbank_renderers import markdown_rtl
from quizbank_renderers.markdown import render_markdown

from quizbank.loader import load_quiz
from quizbank.model import Quiz

GFM = MarkdownIt("commonmark", {"html": True}).enable(["table", "strikethrough"])
LRI, FSI, PDI = "\u2066", "\u2068", "\u2069"
NBSP, WORD_JOINER = "\u00a0", "\u2060"
IMAGE = "![تین ڈبے](grid.png)"


def _quiz(lang: str, *questions: dict[str, Any]) -> Quiz:
    return Quiz.model_validate(
        {
            "id": "headings",
            "lang": lang,
            "title": "T" if lang == "en" else "عنوان",
            "description": "D" if lang == "en" else "تفصیل",
            "level": "beginner",
            "questions": [
                {"id": f"q{n}", "explanation": "E" if lang == "en" else "وضاحت"} | question
                for n, question in enumerate(questions, 1)
            ],
        }
    )


def _numerical(prompt: str) -> dict[str, Any]:
    return {"type": "numerical", "prompt": prompt, "answer": 4}


def _headings(page: str, level: str) -> list[str]:
    return [line for line in page.splitlines() if line.startswith(f"{level} ")]


# --- issue 26, item 17: no empty heading ---------------------------------------------------


@pytest.mark.parametrize(("lang", "heading"), [("en", "## Question 1"), ("ur", "## سوال 1")])
def test_a_prompt_opening_with_an_image_has_a_heading_that_says_something(
    lang: str, heading: str
) -> None:
    prompt = f"{IMAGE}\n\n{'How many boxes?' if lang == 'en' else 'کتنے ڈبے ہیں؟'}"
    page = render_markdown(_quiz(lang, _numerical(prompt)))
    assert _headings(page, "##")[0] == heading
    assert f"{heading}\n\n{IMAGE}\n" in page  # the image below it, as before
    assert not [h for h in _headings(page, "##") if re.fullmatch(r"## [0-9]+\.", h)]


# --- issue 27, X7: the answer key's headings -------------------------------------------------


def test_an_urdu_key_heading_opens_with_an_urdu_word() -> None:
    page = render_markdown(_quiz("ur", _numerical("کتنے؟"), _numerical("اور کتنے؟")))
    assert _headings(page, "###") == ["### سوال 1: 4", "### سوال 2: 4"]


def test_an_english_key_heading_is_as_before() -> None:
    page = render_markdown(_quiz("en", _numerical("How many?")))
    assert _headings(page, "###") == ["### 1. 4"]


def _first_strong_is_rtl(html_text: str) -> bool:
    """Whether the first strong character outside isolates is right to left, as a host's
    `dir="auto"` finds it."""
    depth = 0
    for char in html_text:
        if char in (LRI, FSI, "\u2067"):
            depth += 1
        elif char == PDI:
            depth = max(depth - 1, 0)
        elif depth == 0 and char.isalpha():
            return "\u0600" <= char <= "\u06ff"
    return False


def test_every_key_heading_of_the_bundled_urdu_quizzes_stays_right_to_left() -> None:
    for path in sorted((CONTENT / "ur").glob("*.yaml")):
        quiz = load_quiz(path).quiz
        assert quiz is not None
        page = render_markdown(quiz)
        for heading in _headings(page, "###"):
            text = re.sub(r"<[^>]+>", "", GFM.renderInline(heading[4:]))
            assert _first_strong_is_rtl(text), heading


# --- issue 26, item 17: a blank before a full stop -------------------------------------------


def _cloze(prompt: str) -> dict[str, Any]:
    return {
        "type": "cloze",
        "prompt": prompt,
        "gaps": {"g": {"type": "numerical", "answer": 1}},
    }


@pytest.mark.parametrize("after", [".", "،", "?", ")", "x"])
def test_no_space_between_a_blank_and_what_follows_it(after: str) -> None:
    page = render_markdown(_quiz("en", _cloze(f"Write _this_ [[g]]{after} and snake_case_ too")))
    assert f"(1){NBSP}{WORD_JOINER}________{WORD_JOINER}{after}" in page
    html = GFM.render(page)
    assert f"________{WORD_JOINER}{after}" in html
    heading = html.split("<h2>1.")[1].split("</h2>")[0]
    assert heading.count("<em>") == 1 and "<em>this</em>" in heading  # the blank is no emphasis


def test_a_blank_before_a_space_is_as_before() -> None:
    page = render_markdown(_quiz("en", _cloze("Write [[g]] here")))
    assert f"(1){NBSP}________ here" in page


# --- issue 27: an Urdu code span ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "isolated"),
    [
        ("جواب `اسٹیٹ*ڈکٹ` لکھیں", f"جواب {FSI}`اسٹیٹ*ڈکٹ`{PDI} لکھیں"),
        ("جواب `سیڈ` ہے", f"جواب {FSI}`سیڈ`{PDI} ہے"),
        ("جواب `state_dict()` ہے", f"جواب {LRI}`state_dict()`{PDI} ہے"),
        ('جواب `x = "سیڈ"` ہے', f'جواب {FSI}`x = "سیڈ"`{PDI} ہے'),  # first strong: x
    ],
)
def test_a_code_span_with_urdu_is_isolated_first_strong(text: str, isolated: str) -> None:
    assert markdown_rtl.isolated(text, True) == isolated
