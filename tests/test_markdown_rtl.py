"""Code and Latin runs in a right-to-left Markdown page (issue 19, item 3): each code span and each
run of Latin script between U+2066 LEFT-TO-RIGHT ISOLATE and U+2069 POP DIRECTIONAL ISOLATE,
outside the backticks; the page reads the same without them; and in Chromium, once a host has
made HTML of the page as CommonMark does (HTML on, so the `dir="rtl"` wrapper stays),
`state_dict()` and Latin phrases are laid out left to right, which they are not without them.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from markdown_it import MarkdownIt
from playwright.sync_api import Browser
from quizbank_renderers import markdown as renderer
from quizbank_renderers import markdown_guards, markdown_rtl
from quizbank_renderers.markdown import render_markdown
from quizbank_renderers.markdown_guards import safe_markdown

from quizbank.loader import load_quiz
from quizbank.model import Quiz

ROOT = Path(__file__).resolve().parents[1]
LRI, FSI, PDI = "\u2066", "\u2068", "\u2069"
# As a host makes HTML of the page: CommonMark with raw HTML kept (GitHub's tables too).
HOST = MarkdownIt("commonmark", {"html": True}).enable(["table", "strikethrough"])
PROMPT = "تربیت جاری رکھنے کے لیے `state_dict()` محفوظ کرنا ضروری ہے؟"
STOP = "\u06d4"  # the Arabic full stop
PHRASE = f"ہر نوڈ پر 8 GPUs اور CUDA-12 ہیں{STOP}"


def _quiz(lang: str, **question: Any) -> Quiz:
    return Quiz.model_validate(
        {
            "id": "isolated",
            "lang": lang,
            "title": "PyTorch چیک پوائنٹس",
            "description": f"شارڈز اور `safetensors`{STOP}",
            "level": "beginner",
            "questions": [
                {
                    "id": "one",
                    "type": "single_choice",
                    "prompt": PROMPT,
                    "options": [
                        {"id": "a", "text": PHRASE},
                        {"id": "b", "text": "صرف ویٹس"},
                    ],
                    "answer": "a",
                    "explanation": f"دیکھیں [PyTorch docs](https://pytorch.org/docs/stable/){STOP}\n\n"
                    "```python\nmodel.load_state_dict(state_dict)\n```\n\n"
                    "1. Adam کی حالت\n2. RNG کی حالتیں",
                }
                | question
            ],
        }
    )


def _plain(markdown: str) -> str:
    return markdown.replace(LRI, "").replace(FSI, "").replace(PDI, "")


def _unisolated(monkeypatch: pytest.MonkeyPatch) -> None:
    """Render right-to-left pages as before the isolation."""
    monkeypatch.setattr(renderer, "isolated", lambda text, rtl: text)


# --- the Markdown, exactly -------------------------------------------------------------------


def test_urdu_page_isolates_code_and_latin_runs() -> None:
    page = render_markdown(_quiz("ur"))
    shown = page.replace(LRI, "⟨").replace(PDI, "⟩")
    assert shown == (
        '<div dir="rtl" lang="ur">\n\n'
        "# ⟨PyTorch⟩ چیک پوائنٹس\n\n"
        f"شارڈز اور ⟨`safetensors`⟩{STOP}\n\n"
        "ابتدائی سطح · 1 سوال\n\n"
        "## 1. تربیت جاری رکھنے کے لیے ⟨`state_dict()`⟩ محفوظ کرنا ضروری ہے؟\n\n"
        f"- **(الف)** ہر نوڈ پر ⟨8 GPUs⟩ اور ⟨CUDA-12⟩ ہیں{STOP}\n"
        "- **(ب)** صرف ویٹس\n\n"
        "## درست جوابات\n\n"
        "### سوال 1: الف\n\n"
        f"- **(الف)** ہر نوڈ پر ⟨8 GPUs⟩ اور ⟨CUDA-12⟩ ہیں{STOP}\n\n"
        f"دیکھیں [⟨PyTorch docs⟩](https://pytorch.org/docs/stable/){STOP}\n\n"
        "```python\nmodel.load_state_dict(state_dict)\n```\n\n"
        "1. ⟨Adam⟩ کی حالت\n2. ⟨RNG⟩ کی حالتیں\n\n"
        "</div>\n"
    )


def test_left_to_right_pages_have_no_isolates() -> None:
    quiz = _quiz("en")
    assert LRI not in render_markdown(quiz) and PDI not in render_markdown(quiz)


@pytest.mark.parametrize(
    ("text", "isolated"),
    [
        ("`state_dict()` کو", "⟨`state_dict()`⟩ کو"),
        ("``a ` b`` اور", "⟨``a ` b``⟩ اور"),
        ("PyTorch 2.6 میں", "⟨PyTorch 2.6⟩ میں"),
        ("فائل model.safetensors.index.json، پھر", "فائل ⟨model.safetensors.index.json⟩، پھر"),
        ("یہ snake\\_case ہے", "یہ ⟨snake\\_case⟩ ہے"),  # an escape stays inside its run
        ("یہ state_dict ہے", "یہ ⟨state_dict⟩ ہے"),
        # links: the text isolated, never the destination; a reference's label as written
        ("[PyTorch](https://pytorch.org/a_(b)) میں", "[⟨PyTorch⟩](https://pytorch.org/a_(b)) میں"),
        ("<https://pytorch.org> پر", "⟨<https://pytorch.org>⟩ پر"),
        (
            "[PyTorch] میں\n\n[pytorch]: https://pytorch.org",
            "[PyTorch] میں\n\n[pytorch]: https://pytorch.org",
        ),
        ("[ref](> x) PyTorch", "[ref](> x) ⟨PyTorch⟩"),  # `[ref]` may be a reference
        ("AT&amp;T اور &nbsp;", "⟨AT⟩&amp;⟨T⟩ اور &nbsp;"),
        # block marks stay marks; code blocks stay as written
        ("1. Adam\n2. SGD", "1. ⟨Adam⟩\n2. ⟨SGD⟩"),
        ("> 1. Adam", "> 1. ⟨Adam⟩"),
        (
            "متن\n\n```\nx = f(y)\n```\n\n    indented code",
            "متن\n\n```\nx = f(y)\n```\n\n    indented code",
        ),
        # emphasis keeps its marks: an isolate is never put where it would change what opens
        # or closes (`x*` before a code span: the isolates would let the `*` open)
        ("**`state_dict()`** اور _Adam_", "**⟨`state_dict()`⟩** اور _⟨Adam⟩_"),
        ("x*`a`*y", "⟨x⟩*`a`*⟨y⟩"),
        ("**f()**x", "**⟨f⟩()**⟨x⟩"),
        ("صرف اردو", "صرف اردو"),
    ],
)
def test_what_is_isolated_and_what_stays_as_written(text: str, isolated: str) -> None:
    safe = safe_markdown(text)
    got = markdown_rtl.isolated(safe, True)
    assert got.replace(LRI, "⟨").replace(PDI, "⟩") == isolated
    assert _html(got) == _html(safe)


def _html(markdown: str) -> str:
    """The HTML a host makes of the Markdown, the isolates left out."""
    return _plain(HOST.render(markdown))


# --- the page reads the same without the isolates -------------------------------------------

PIECES = [
    *("PyTorch", "state_dict", "`state_dict()`", "f(x)", "CUDA-12", "2.6", "a", "x_", "_y"),
    *("اردو", "ب", " ", " ", "\t", "\n", "\n\n", "    ", "```\n", "~~~\n", "1. ", "- ", "> "),
    *("**", "*", "_", "__", "~~", "`", "``", "\\", "\\_", "\\*", "\\(", "\\)", "\\-", "\\."),
    *("&amp;", "&nbsp;", "&#65;", "<", "<https://example.org>", "[x](https://example.org/a_(b))"),
    *("[ref]", "[ref]: https://example.org", "](", "]", "[", "(", ")", "!", "|", "#", "-", "="),
    *(".", ",", ":", "'", "| a | b |\n|---|---|\n| c | d |"),
]


def _texts(count: int, seed: int) -> Iterator[str]:
    rng = random.Random(seed)
    for _ in range(count):
        yield "".join(rng.choices(PIECES, k=rng.randint(1, 10)))


def test_isolation_changes_nothing_but_the_isolates() -> None:
    """Random Markdown of code, Latin runs, emphasis, escapes, entities, links and blocks: the
    host's HTML with the isolates left out is the HTML without them, and no isolate is in code
    or a link's destination."""
    isolated = 0
    for text in _texts(4000, seed=19):
        safe = safe_markdown(text)
        for shown in (safe, *markdown_guards.lead_and_rest(text)):
            got = markdown_rtl.isolated(shown, True)
            html = HOST.render(got)
            assert _plain(html) == HOST.render(shown), (shown, got)
            assert not re.search(f"<(code|pre)>[^<]*[{LRI}{FSI}{PDI}]", html), got
            assert "%E2%81%A6" not in html and "%E2%81%A9" not in html, got
            isolated += got != shown
    assert isolated > 2000


def test_pages_read_the_same_without_the_isolates(monkeypatch: pytest.MonkeyPatch) -> None:
    paths = [
        ROOT / "content" / "ur" / "checkpoint-sharding.yaml",
        ROOT / "tests" / "fixtures" / "types" / "ur" / "every-type.yaml",
    ]
    quizzes = [quiz for path in paths if (quiz := load_quiz(path).quiz) is not None]
    quizzes.append(_quiz("ur"))
    isolated = [render_markdown(quiz) for quiz in quizzes]
    assert all(LRI in page for page in isolated)
    _unisolated(monkeypatch)
    assert [_html(page) for page in isolated] == [_html(render_markdown(quiz)) for quiz in quizzes]


# --- in a browser ----------------------------------------------------------------------------

# The x of characters in the first text node under `root` that holds `text`, by offset in text.
MEASURE = """([root, text, offsets]) => {
  const walker = document.createTreeWalker(document.querySelector(root), NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const at = node.data.indexOf(text);
    if (at < 0) continue;
    return offsets.map((offset) => {
      const range = document.createRange();
      range.setStart(node, at + offset);
      range.setEnd(node, at + offset + 1);
      const box = range.getBoundingClientRect();
      return box.left + box.width / 2;
    });
  }
  return null;
}"""


def test_code_and_latin_phrases_read_left_to_right_in_chromium(
    browser: Browser, monkeypatch: pytest.MonkeyPatch
) -> None:
    quiz = _quiz("ur")
    after = HOST.render(render_markdown(quiz))
    _unisolated(monkeypatch)
    before = HOST.render(render_markdown(quiz))
    page = browser.new_page()
    try:
        page.set_content(
            '<!doctype html><html lang="ur"><meta charset="utf-8">'
            f'<body><section id="after">{after}</section>'
            f'<section id="before">{before}</section></body></html>'
        )

        def xs(root: str, text: str, offsets: list[int]) -> list[float]:
            found: list[float] | None = page.evaluate(MEASURE, [root, text, offsets])
            assert found is not None, (root, text)
            return found

        for root, isolated in (("#after h2", True), ("#before h2", False)):
            name, paren = xs(root, "state_dict()", [0, 10])  # `s` and `(`
            assert (paren > name) is isolated, (root, name, paren)  # `()state_dict` before
        for root, isolated in (("#after li", True), ("#before li", False)):
            eight, gpus = xs(root, "8 GPUs", [0, 2])
            assert (eight < gpus) is isolated, (root, eight, gpus)  # `GPUs 8` before
        cuda, twelve = xs("#after li", "CUDA-12", [0, 5])
        assert cuda < twelve
        # and the sentence around them still reads right to left
        first, last = xs("#after li", PHRASE[:5], [0, 4])
        assert first > last
    finally:
        page.close()
