"""Questions with variables and sections in the Markdown export (issue 28): each question as its
first variant, its formula and its variables' ranges in the answer key; each section under its
title, with how many of its questions to draw, the questions in the sections' order.

The fixture tests/fixtures/variables: a numerical with 12 drawn variants, a cloze with 3 listed
ones, and two true/false questions in a section that asks one of them.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import REPO, Run
from markdown_it import MarkdownIt
from quizbank_renderers.markdown import MarkdownRenderer, render_markdown

from quizbank.loader import load_quiz
from quizbank.model import Quiz

FIXTURE = REPO / "tests" / "fixtures" / "variables"
ISOLATE, POP = "\u2068", "\u2069"  # FIRST STRONG ISOLATE … POP DIRECTIONAL ISOLATE, as code

ENGLISH = """\
# Checkpoint arithmetic

Questions whose numbers change with every attempt.

Intermediate · 4 questions

## Basics

*Draw 1 of these 2 questions.*

### 1. Sharding lets a checkpoint be written by several processes at once.

- **A.** True
- **B.** False

### 2. A resumed run needs the optimizer state.

- **A.** True
- **B.** False

## Practice

### 3. A model has 15 billion parameters in 2-byte floats, and Adam keeps two more values \
per parameter. How many GB does a full checkpoint take?

Answer: ____________

### 4. A checkpoint of 18 GB in shards of at most 5 GB needs at least (1)\u00a0________ shards.

*Fill in the gaps.*

## Answer key

### 1. A

- **A.** True

Each rank writes its own shards.

### 2. A

- **A.** True

Without it, Adam's moments restart from zero.

### 3. 90 ± 0.01

*Formula:* `{p} * {bytes} * 3`

*Variables:* `p` from 1 to 20 in steps of 1; `bytes` one of 2, 4

Weights and two moments, 15 \u00d7 2 \u00d7 3 = 90.00 GB.

### 4. (1) 4

- (1) 4

*Formula:* (1) `ceil({size} / 5)`

*Variables:* `size` from 10 to 40 in steps of 2

18 / 5, rounded up, is 4.
"""


def _quiz(lang: str) -> Quiz:
    loaded = load_quiz(FIXTURE / lang / "calc.yaml")
    assert loaded.quiz is not None, [d.format() for d in loaded.diagnostics]
    return loaded.quiz


def test_the_first_variant_with_its_formula_and_ranges_in_sections() -> None:
    assert render_markdown(_quiz("en")) == ENGLISH


def test_in_urdu_the_labels_are_translated_and_the_formulas_isolated() -> None:
    page = render_markdown(_quiz("ur"))
    lines = page.splitlines()
    assert "## بنیادی باتیں" in lines
    assert "*ان 2 سوالات میں سے 1 منتخب کریں۔*" in lines  # noqa: RUF001
    assert "## مشق" in lines
    assert lines.index("## بنیادی باتیں") < lines.index("## مشق")
    assert f"*فارمولا:* {ISOLATE}`{{p}} * {{bytes}} * 3`{POP}" in lines
    assert (
        f"*متغیرات:* {ISOLATE}`p`{POP}، 1 سے 20 تک، 1 کے وقفے سے؛ "
        f"{ISOLATE}`bytes`{POP}: 2، 4 میں سے کوئی ایک"
    ) in lines
    # The headings stay one under the other on GitHub: sections, then their questions.
    headings = [
        (token.tag, token.map)
        for token in MarkdownIt("commonmark").parse(page)
        if token.type == "heading_open"
    ]
    assert [tag for tag, _ in headings][:6] == ["h1", "h2", "h3", "h3", "h2", "h3"]


def test_without_answers_no_formula_is_shown() -> None:
    page = render_markdown(_quiz("en"), answers=False)
    assert "{p}" not in page and "Formula" not in page
    assert "*Draw 1 of these 2 questions.*" in page


def test_a_quiz_without_sections_keeps_its_questions_under_the_title() -> None:
    quiz = _quiz("en").model_copy(update={"sections": None})
    page = render_markdown(quiz)
    assert "## Basics" not in page and "Draw" not in page
    assert "## 1. A model has 15 billion" in page  # in the order written, at level 2
    assert "*Formula:* `{p} * {bytes} * 3`" in page


def test_the_renderer_draws_itself_and_no_loss_is_reported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cli: Callable[..., Run]
) -> None:
    shutil.copytree(FIXTURE, tmp_path / "content")
    monkeypatch.chdir(tmp_path)
    assert MarkdownRenderer.handles_variables and MarkdownRenderer.handles_sections
    run = cli("build", "-o", "out", "-f", "markdown", "-f", "html")
    assert run.code == 0, run.out
    assert not [line for line in run.lines if "markdown:" in line or "html:" in line], run.out
    written = (tmp_path / "out" / "markdown" / "en" / "calc.md").read_text("utf-8")
    assert written == ENGLISH
