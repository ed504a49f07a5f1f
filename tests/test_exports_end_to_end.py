"""`quizbank build` on the bundled content: every format, both languages, one answer key."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import jsonschema
import pytest
from conftest import QUIZ, Run
from lxml import etree
from markdown_it import MarkdownIt

from quizbank.loader import load_quiz
from quizbank.locales import option_letter
from quizbank.model import SingleChoice


@pytest.fixture
def dist(bank: Path, cli: Callable[..., Run]) -> Path:
    run = cli("build", "-O", "multilang=true", "-o", "dist")
    assert run.code == 0, run.out + run.err
    written = re.match(r"wrote (\d+) files for 1 quiz in 2 languages in ", run.lines[-1])
    assert written, run.lines[-1]
    dist = bank.parent / "dist"
    files = [p for p in dist.rglob("*") if p.is_file() and not p.name.startswith(".")]
    assert int(written[1]) == len(files)  # every format's files, each counted once
    return dist


def _key(bank: Path, lang: str) -> list[str]:
    quiz = load_quiz(bank / lang / f"{QUIZ}.yaml").quiz
    assert quiz is not None
    return [q.answer for q in quiz.questions if isinstance(q, SingleChoice)]


@pytest.mark.parametrize("lang", ["en", "ur"])
def test_every_format_carries_the_same_answer_key(bank: Path, dist: Path, lang: str) -> None:
    key = _key(bank, lang)
    assert len(key) == 8
    letters = [option_letter(lang, "abcd".index(answer)) for answer in key]

    export = json.loads((dist / "json" / lang / f"{QUIZ}.json").read_text(encoding="utf-8"))
    schema = json.loads((dist / "json" / "schema.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator(schema).validate(export)
    assert [q["answer"] for q in export["questions"]] == key

    root = etree.parse(str(dist / "moodle" / lang / f"{QUIZ}.xml")).getroot()
    questions = root.findall("question[@type='multichoice']")
    assert [[a.get("fraction") for a in q.findall("answer")].index("100") for q in questions] == [
        "abcd".index(answer) for answer in key
    ]

    markdown = (dist / "markdown" / lang / f"{QUIZ}.md").read_text(encoding="utf-8")
    tokens = MarkdownIt("commonmark").parse(markdown)
    headings = [
        tokens[i + 1].content
        for i, t in enumerate(tokens)
        if t.type == "heading_open" and t.tag == "h3"
    ]
    # An Urdu key heading opens with an Urdu word, so that it stays right to left (issue 27, X7).
    heading = "سوال {n}: {letter}" if lang == "ur" else "{n}. {letter}"
    assert headings == [heading.format(n=n, letter=letter) for n, letter in enumerate(letters, 1)]

    page = (dist / "html" / lang / f"{QUIZ}.html").read_text(encoding="utf-8")
    assert re.search(rf'<html lang="{lang}" dir="{"rtl" if lang == "ur" else "ltr"}"', page)


def test_multilang_moodle_file_holds_both_languages(dist: Path) -> None:
    root = etree.parse(str(dist / "moodle" / "multilang" / f"{QUIZ}.xml")).getroot()
    text = root.findtext("question[@type='multichoice']/questiontext/text", "")
    # One span per language inside the paragraph: Moodle's HTML cleaner keeps them there.
    assert re.fullmatch(
        r'<p><span lang="en" class="multilang">[^<]+</span>'
        r'<span lang="ur" class="multilang">[^<]+</span></p>',
        text,
    )


def test_the_html_index_links_every_page(dist: Path) -> None:
    index = (dist / "html" / "index.html").read_text(encoding="utf-8")
    for lang in ("en", "ur"):
        assert f'href="{lang}/{QUIZ}.html"' in index
