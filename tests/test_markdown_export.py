"""The `markdown` renderer, read back with a CommonMark parser (markdown-it-py, commonmark mode)."""

from __future__ import annotations

import random
import re
import sys
from pathlib import Path
from typing import Any

import pytest
from markdown_it import MarkdownIt
from markdown_it.token import Token
from quizbank_renderers import markdown as renderer
from quizbank_renderers import markdown_guards, markdown_lists
from quizbank_renderers.markdown import MarkdownOptions, MarkdownRenderer
from quizbank_renderers.markdown_guards import safe_markdown

from quizbank.errors import UsageError
from quizbank.loader import load_quiz
from quizbank.locales import option_letter
from quizbank.markup import mathjax_opener, safe_link
from quizbank.model import Quiz
from quizbank.registry import configure, discover_renderers
from quizbank.renderer import QuizTranslations

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
from generate import generate_bank  # noqa: E402
from test_markdown_fast_path import take_shortcuts_away  # noqa: E402

COMMONMARK = MarkdownIt("commonmark")  # raw HTML on, as on Markdown hosts: we must not emit it
HOSTILE = "<script>alert('x')</script> ]]> \"quoted\" & AT&T <!-- c --> <b>bold</b> `<kbd>`"
RTL_DIV = '<div dir="rtl" lang="ur">'
ANSWER_KEY = {"en": "Answer key", "ur": "درست جوابات"}  # from the gettext catalogs


def _question(qid: str, prompt: str, **extra: Any) -> dict[str, Any]:
    question: dict[str, Any] = {
        "id": qid,
        "type": "single_choice",
        "prompt": prompt,
        "options": [{"id": "a", "text": "first"}, {"id": "b", "text": "second"}],
        "answer": "b",
        "explanation": f"Explained {qid}.",
    }
    return question | extra


def _quiz(lang: str, title: str, description: str, questions: list[dict[str, Any]]) -> Quiz:
    return Quiz.model_validate(
        {
            "id": "made-up",
            "lang": lang,
            "title": title,
            "description": description,
            "level": "beginner",
            "questions": questions,
        }
    )


def _hostile(lang: str) -> Quiz:
    return _quiz(
        lang,
        f"Title {HOSTILE}",
        f'{HOSTILE}\n\n<div>\n\n</div>\n\n<a href="javascript:alert(1)">x</a>',
        [
            _question(
                "one",
                f"Prompt {HOSTILE}",
                options=[
                    {"id": "a", "text": f"Option {HOSTILE}", "feedback": HOSTILE},
                    {"id": "b", "text": "<https://example.org> <javascript:alert(1)>"},
                ],
                explanation=f"Explanation {HOSTILE}\n\n```html\n<p>code <b>stays</b></p>\n```",
            ),
            _question("two", "- `a\n- <img src=x onerror=alert(1)>`"),
            _question("three", "</div>\n\n<script>\nalert(1)\n</script>"),
        ],
    )


@pytest.fixture(scope="module")
def hostile() -> Quiz:
    return _hostile("en")


@pytest.fixture(scope="module")
def tricky() -> Quiz:
    """Prompts and options that Markdown would read as structure, and blocks in every field."""
    return _quiz(
        "en",
        "# Tricky #",
        "A description.\n\n```\nan unclosed fence in the description",
        [
            _question("hash", "# of GPUs per node?"),
            _question("numbered", "1. Which comes first?"),
            _question("dash", "- Is this a list?"),
            _question("closing", "Is it C #"),
            _question(
                "blocks",
                "Given this loop:\n\n```python\nfor i in range(3):\n    print(i)\n```\n\n"
                "- it counts\n- it prints",
                options=[
                    {"id": "a", "text": "0 1 2"},
                    {"id": "b", "text": "Two lines:\n\n```\n1\n2\n```"},
                    {"id": "c", "text": "1. numbered text"},
                ],
                answer="a",
                explanation="- a list first\n- that must not merge with the key\n\nThen text.",
            ),
            {
                "id": "several",
                "type": "multiple_choice",
                "prompt": "Which are prime?\nPick all.",
                "options": [{"id": i, "text": t} for i, t in zip("abcd", "2349", strict=True)],
                "answer": ["a", "b"],
                "explanation": "Two and three.\n\n```\nunclosed",
            },
            {
                "id": "statement",
                "type": "true_false",
                "prompt": "The sky is green.",
                "answer": False,
                "explanation": "It is blue.",
            },
        ],
    )


def _render(quiz: Quiz, **options: Any) -> str:
    renderer = MarkdownRenderer(MarkdownOptions(**options))
    return renderer.render(QuizTranslations(quiz.id, {quiz.lang: quiz}, [quiz.lang]), quiz.lang)


def _shown(markdown: str) -> str:
    """The page with the isolates around code and Latin runs of a right-to-left page left out:
    the text a reader sees (tests/test_markdown_rtl.py checks the isolates, and that the page
    reads the same without them)."""
    return markdown.replace("\u2066", "").replace("\u2069", "")


def _parse(markdown: str) -> list[Token]:
    return COMMONMARK.parse(markdown)


def _all(tokens: list[Token]) -> list[Token]:
    return [t for token in tokens for t in (token, *_all(token.children or []))]


def _headings(tokens: list[Token], tag: str) -> list[str]:
    return [
        tokens[i + 1].content
        for i, token in enumerate(tokens)
        if token.type == "heading_open" and token.tag == tag
    ]


def _html_tokens(tokens: list[Token]) -> list[str]:
    return [t.content.strip() for t in _all(tokens) if t.type in ("html_block", "html_inline")]


def _question_sections(tokens: list[Token]) -> list[list[Token]]:
    """The tokens under each `##` heading up to the next one, the heading itself left out."""
    starts = [i for i, t in enumerate(tokens) if t.type == "heading_open" and t.tag == "h2"]
    return [tokens[a + 3 : b] for a, b in zip(starts, [*starts[1:], len(tokens)], strict=True)]


# --- the real quizzes ------------------------------------------------------------------------


@pytest.mark.parametrize("quiz_name", ["english", "urdu"])
def test_title_questions_and_answer_key(quiz_name: str, request: pytest.FixtureRequest) -> None:
    quiz: Quiz = request.getfixturevalue(quiz_name)
    tokens = _parse(_shown(_render(quiz)))
    assert _headings(tokens, "h1") == [quiz.title]
    numbered = _headings(tokens, "h2")
    assert numbered[-1] == ANSWER_KEY[quiz.lang]
    assert numbered[:-1] == [f"{n}. {q.prompt}" for n, q in enumerate(quiz.questions, 1)]
    assert len(quiz.questions) == 8
    # an Urdu key heading opens with an Urdu word, or `dir="auto"` would lay it out left to right
    number = "{n}. " if quiz.lang == "en" else "سوال {n}: "
    key = [
        number.format(n=n) + option_letter(quiz.lang, [o.id for o in q.options].index(q.answer))
        for n, q in enumerate(quiz.questions, 1)
        if q.type == "single_choice"
    ]
    assert _headings(tokens, "h3") == key


@pytest.mark.parametrize(
    ("quiz_name", "line"),
    [("english", "Intermediate · 8 questions"), ("urdu", "درمیانی سطح · 8 سوالات")],
)
def test_level_and_question_count_line(
    quiz_name: str, line: str, request: pytest.FixtureRequest
) -> None:
    quiz: Quiz = request.getfixturevalue(quiz_name)
    inlines = [t.content for t in _parse(_render(quiz)) if t.type == "inline"]
    assert inlines[0] == quiz.title and inlines[1] == quiz.description
    assert inlines[2] == line


def test_one_question_is_singular_and_strings_follow_the_language() -> None:
    statement = {
        "id": "sky",
        "type": "true_false",
        "prompt": "آسمان سبز ہے؟",
        "answer": False,
        "explanation": "آسمان نیلا ہے",
    }
    lines = _render(_quiz("ur", "عنوان", "تفصیل", [statement])).splitlines()
    assert "ابتدائی سطح · 1 سوال" in lines
    question = lines.index("## 1. آسمان سبز ہے؟")
    # Urdu letters, which no host reads as a left-to-right "A." list (../shared/URDU.md)
    assert lines[question + 2 : question + 4] == ["- **(الف)** درست", "- **(ب)** غلط"]
    key = lines[lines.index("## درست جوابات") :]
    assert key[:7] == [
        "## درست جوابات",
        "",
        "### سوال 1: ب",
        "",
        "- **(ب)** غلط",
        "",
        "آسمان نیلا ہے",
    ]
    english = _render(_quiz("en", "Title", "Text", [statement | {"prompt": "Green?"}]))
    assert "Beginner · 1 question" in english.splitlines()


def test_every_question_has_its_lettered_options(english: Quiz) -> None:
    tokens = _parse(_render(english, answers=False))
    sections = _question_sections(tokens)
    assert len(sections) == len(english.questions)
    for question, section in zip(english.questions, sections, strict=True):
        assert question.type == "single_choice"
        items = [t.content for t in section if t.type == "inline"]
        assert items == [
            f"**{letter}.** {option.text}"
            for letter, option in zip("ABCD", question.options, strict=True)
        ]
        assert sum(t.type == "bullet_list_open" for t in section) == 1


def test_answer_key_has_the_right_options_and_explanations(english: Quiz) -> None:
    markdown = _render(english)
    key = markdown.split("## Answer key\n", 1)[1]
    for question in english.questions:
        assert question.type == "single_choice"
        right = next(o for o in question.options if o.id == question.answer)
        letter = "ABCD"[question.options.index(right)]
        assert f"- **{letter}.** {right.text}\n\n{question.explanation}" in key
        wrong = [o.text for o in question.options if o.id != question.answer]
        assert not any(f".** {text}\n" in key for text in wrong)


@pytest.mark.parametrize("quiz_name", ["english", "urdu"])
def test_answers_false_leaves_the_key_out(quiz_name: str, request: pytest.FixtureRequest) -> None:
    quiz: Quiz = request.getfixturevalue(quiz_name)
    markdown = _render(quiz, answers=False)
    tokens = _parse(markdown)
    assert ANSWER_KEY[quiz.lang] not in _headings(tokens, "h2")
    assert ANSWER_KEY[quiz.lang] not in markdown
    assert _headings(tokens, "h3") == []
    assert len(_headings(tokens, "h2")) == len(quiz.questions)
    for question in quiz.questions:
        assert question.explanation not in markdown


def test_urdu_body_sits_in_a_right_to_left_html_block(urdu: Quiz) -> None:
    markdown = _render(urdu)
    assert markdown.startswith(f"{RTL_DIV}\n\n") and markdown.endswith("\n\n</div>\n")
    tokens = _parse(markdown)
    assert tokens[0].type == "html_block" and tokens[0].content.strip() == RTL_DIV
    assert tokens[-1].type == "html_block" and tokens[-1].content.strip() == "</div>"
    assert _html_tokens(tokens) == [RTL_DIV, "</div>"]
    # Markdown inside the div is still Markdown: headings and lists, not one HTML blob.
    assert tokens[1].type == "heading_open" and tokens[1].tag == "h1"
    assert sum(t.type == "bullet_list_open" for t in tokens) == 2 * len(urdu.questions)


def test_left_to_right_quiz_has_no_html(english: Quiz) -> None:
    markdown = _render(english)
    assert _html_tokens(_parse(markdown)) == []
    assert markdown.endswith("\n") and not markdown.endswith("\n\n")
    assert markdown == _render(english)


# --- hostile and tricky content --------------------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "ur"])
def test_raw_html_in_content_is_never_live(lang: str) -> None:
    markdown = _render(_hostile(lang))
    tokens = _parse(markdown)
    ours = [RTL_DIV, "</div>"] if lang == "ur" else []
    assert _html_tokens(tokens) == ours
    html = COMMONMARK.render(markdown)
    for dangerous in ("<script", "<b>", "<img", "<!--", "<kbd>", 'href="javascript'):
        assert dangerous not in html
    html = _shown(html)  # shown as written:
    assert "&lt;script&gt;alert('x')&lt;/script&gt;" in html
    assert "]]&gt;" in html and "&quot;quoted&quot;" in html and "AT&amp;T" in html
    # code stays code, its `<` shown as written
    assert "<code>&lt;kbd&gt;</code>" in html
    assert '<code class="language-html">&lt;p&gt;code &lt;b&gt;stays&lt;/b&gt;&lt;/p&gt;' in html
    # a safe autolink stays a link; a javascript: one is text
    assert '<a href="https://example.org">https://example.org</a>' in html
    assert "&lt;javascript:alert(1)&gt;" in html


def test_hostile_quiz_keeps_its_shape() -> None:
    tokens = _parse(_render(_hostile("en")))
    numbered = _headings(tokens, "h2")
    assert numbered[0].startswith("1. Prompt &lt;script>alert('x')&lt;/script> ]]>")
    assert numbered[1:] == ["2.", "3. &lt;/div>", "Answer key"]
    assert _headings(tokens, "h3") == ["1. B", "2. B", "3. B"]


def test_markdown_structure_at_the_start_stays_in_the_heading(tricky: Quiz) -> None:
    markdown = _render(tricky)
    tokens = _parse(markdown)
    assert _headings(tokens, "h1") == ["# Tricky \\#"]
    html = COMMONMARK.render(markdown)
    assert "<h1># Tricky #</h1>" in html and "<h2>4. Is it C #</h2>" in html
    assert _headings(tokens, "h2") == [
        "1. # of GPUs per node?",
        "2. 1. Which comes first?",
        "3. - Is this a list?",
        "4. Is it C \\#",
        "5. Given this loop:",
        "6. Which are prime? Pick all.",
        "7. The sky is green.",
        "Answer key",
    ]
    assert _headings(tokens, "h3") == [f"{n}. B" for n in range(1, 5)] + ["5. A", "6. A, B", "7. B"]
    inline = {t.content for t in tokens if t.type == "inline"}
    assert "*Choose all that apply.*" in inline


def test_blocks_in_prompts_and_options_stay_in_their_question(tricky: Quiz) -> None:
    sections = _question_sections(_parse(_render(tricky, answers=False)))
    blocks = sections[4]
    fences = [t.content for t in blocks if t.type == "fence"]
    assert fences == ["for i in range(3):\n    print(i)\n", "1\n2\n"]
    # the prompt's own list and the options are two lists, not one merged list
    lists = [t for t in blocks if t.type == "bullet_list_open" and t.level == 0]
    assert len(lists) == 2 and lists[0].markup != lists[1].markup
    option_items = [t for t in blocks if t.type == "list_item_open" and t.level == 1]
    assert len(option_items) == 2 + 3
    assert "**C.** 1. numbered text" in [t.content for t in blocks if t.type == "inline"]
    # the option's code block sits inside its list item
    option_fence = next(t for t in blocks if t.type == "fence" and t.content == "1\n2\n")
    assert option_fence.level > 0


def test_unclosed_fences_do_not_swallow_the_page(tricky: Quiz) -> None:
    tokens = _parse(_render(tricky))
    fences = [t.content for t in tokens if t.type == "fence"]
    assert "an unclosed fence in the description\n" in fences
    assert "unclosed\n" in fences
    assert len(_headings(tokens, "h2")) == 8  # every question, then the key
    assert _headings(tokens, "h3")[-1] == "7. B"


def test_answer_key_list_does_not_merge_with_an_explanation_list(tricky: Quiz) -> None:
    tokens = _parse(_render(tricky))
    key = tokens[[t.content for t in tokens].index("5. A") :]
    key = key[: [t.content for t in key].index("6. A, B")]
    lists = [t for t in key if t.type == "bullet_list_open" and t.level == 0]
    assert len(lists) == 2
    assert [t.content for t in key if t.type == "inline"][1:3] == ["**A.** 0 1 2", "a list first"]


def test_true_false_offers_true_and_false(tricky: Quiz) -> None:
    markdown = _render(tricky)
    assert "- **A.** True\n- **B.** False\n" in markdown
    assert "### 7. B\n\n- **B.** False\n\nIt is blue.\n" in markdown


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("a <b>x</b> & &lt; > q", "a &lt;b>x&lt;/b> & &lt; > q"),
        ("keep `<code>` and ``a ` <b>``", "keep `<code>` and ``a ` <b>``"),
        ("\\`<b>`", "\\`&lt;b>`"),
        ("\\<b> stays escaped", "\\<b> stays escaped"),
        ("\\\\<b>", "\\\\&lt;b>"),
        ("```\n<b>\n```", "```\n<b>\n```"),
        ("```\n<b>", "```\n<b>\n```"),
        ("    <indented code>", "    <indented code>"),
        (
            "<https://x.org/a> <mailto:a@b.org> <ftp://x>",
            "<https://x.org/a> <mailto:a@b.org> &lt;ftp://x>",
        ),
        ("> quote <q>", "> quote &lt;q>"),
        ("a <b\n\n  c> d", "a &lt;b\n\n  c> d"),
        # a code span that crosses list items is no code span: every `<` is escaped
        ("- `a\n- <b>`", "- `a\n- &lt;b>`"),
    ],
)
def test_safe_markdown(source: str, expected: str) -> None:
    assert safe_markdown(source) == expected
    assert _html_tokens(_parse(safe_markdown(source))) == []


# --- links: only what the HTML export links ------------------------------------------------

# A reader's CommonMark renderer that follows every link, as a permissive host would, and reads
# tables, as GitHub does.
READER = MarkdownIt("commonmark", {"html": True}).enable(["table", "strikethrough"])
READER.validateLink = lambda url: True  # type: ignore[method-assign]


def _live(markdown: str) -> list[str]:
    """Every href, src or reference definition a reader would follow that the HTML export would
    not link (`quizbank.markup.safe_link`), and any raw HTML."""
    env: dict[str, Any] = {}
    tokens = _all(READER.parse(markdown, env))
    hrefs = [str(t.attrGet("href") or t.attrGet("src")) for t in tokens if t.type == "link_open"]
    hrefs += [str(ref["href"]) for ref in env.get("references", {}).values()]
    sources = [str(t.attrGet("src")) for t in tokens if t.type == "image"]
    unsafe = [h for h in hrefs if not safe_link(h)]
    return unsafe + [src for src in sources if not _beside(src)] + _html_tokens(tokens)


def _beside(src: str) -> bool:
    """An image's path relative to the page (the export copies the image there): no scheme, so
    no request elsewhere and no script, and not from the site's root."""
    return re.match(r"[A-Za-z][A-Za-z0-9+.-]*:|/|\\\\", src) is None


UNSAFE = [
    "javascript:alert(1)",
    "JaVaScRiPt:alert(1)",
    " javascript:alert(1)",
    "\tjavascript:alert(1)",
    "&#106;avascript:alert(1)",
    "&#x6A;avascript:alert(1)",
    "%6Aavascript:alert(1)",
    "vbscript:msgbox(1)",
    "data:text/html;base64,PHNjcmlwdD4=",
    "java\nscript:alert(1)",
    "../relative",
    "http:javascript:alert(1)",
    "https:example.org",
]
# Each destination as an inline link, an image, a reference (defined and used), an autolink.
LINKING = [
    "[x]({})",
    "[x](<{}>)",
    "![x]({})",
    '[x]({} "title")',
    "[x][r]\n\n[r]: {}",
    "[r]: {}",
    "[x]\n\n[x]:\n{}",
    "<{}>",
    "[ok](https://example.org) [x]({}) `[code](x)`",
]


@pytest.mark.parametrize("destination", UNSAFE)
@pytest.mark.parametrize("pattern", LINKING)
def test_unsafe_links_are_plain_text(pattern: str, destination: str) -> None:
    text = pattern.format(destination)
    exported = safe_markdown(text)
    assert _live(exported) == [], exported
    assert "x" in exported or pattern in ("[r]: {}", "<{}>")  # the label stays, as text


@pytest.mark.parametrize(
    "text",
    [
        # A backtick that opens no code span here: the code span cannot cross blocks or cells.
        "`a\n\n[x](javascript:alert(1))\n\n`",
        "`a\n# <javascript:alert(1)> `",
        "`a\n# [x](javascript:alert(1)) `",
        "> `a\n> [x](javascript:alert(1))\n\n`",
        "- `a\n- [x](javascript:alert(1)) `",
        "- `a\n- <javascript:alert(1)> `",
        "| a | b |\n|---|---|\n| `c | [x](javascript:alert(1)) `|",
        "| a | b |\n|---|---|\n| `c | <javascript:alert(1)> `|",
        # an autolink that looks like http(s) but is not http:// or https://
        "<http:javascript:alert(1)>",
        "<HTTPS:example.org>",
        # a reference definition that no link of its own text uses
        "Because.\n\n[x]: javascript:alert(1)",
        "[x]:\n  javascript:alert(1)\n\nMore.",
    ],
)
def test_links_hidden_from_the_guards_are_plain_text(text: str) -> None:
    assert _live(safe_markdown(text)) == [], safe_markdown(text)


@pytest.mark.parametrize(
    "src", ["http://example.org/i.png", "//example.org/i.png", "/etc/i.png", "file:///i.png"]
)
def test_an_image_from_elsewhere_is_plain_text(src: str) -> None:
    """Images are files the export copies beside the page; a page makes no request elsewhere."""
    exported = safe_markdown(f"![i]({src})")
    assert not [t for t in _all(READER.parse(exported)) if t.type == "image"], exported


def test_an_image_beside_the_page_stays_an_image() -> None:
    text = "![Shards on three ranks](../images/shards.svg) and ![grid](images/a%20b.png)"
    exported = safe_markdown(text)
    assert exported == text
    images = [t for t in _all(READER.parse(exported)) if t.type == "image"]
    assert [t.attrGet("src") for t in images] == ["../images/shards.svg", "images/a%20b.png"]


def test_safe_links_stay_live() -> None:
    text = (
        "[a](https://example.org/a) <https://example.org/b> "
        "<mailto:team@example.org> [c][d]\n\n[d]: HTTPS://example.org/d"
    )
    exported = safe_markdown(text)
    assert exported == text
    env: dict[str, Any] = {}
    tokens = _all(READER.parse(exported, env))
    hrefs = [t.attrGet("href") for t in tokens if t.type == "link_open"]
    assert hrefs == [
        "https://example.org/a",
        "https://example.org/b",
        "mailto:team@example.org",
        "HTTPS://example.org/d",
    ]


def test_a_reference_defined_in_one_text_and_used_in_another_is_not_live() -> None:
    """Reference definitions hold for the whole page: one in an explanation reaches a `[x]` in a
    prompt or an option."""
    quiz = _quiz(
        "en",
        "Title [t]",
        "Description [t]\n\n[t]: javascript:alert('title')",
        [
            _question(
                "one",
                "See [x] and [t].",
                options=[{"id": "a", "text": "[x]"}, {"id": "b", "text": "[y][x]"}],
                explanation="Because.\n\n[x]: javascript:alert(1)",
            )
        ],
    )
    for answers in (True, False):
        assert _live(_render(quiz, answers=answers)) == []


@pytest.mark.parametrize(
    "text",
    [
        "-     <img src=x onerror=alert(1)>",
        ">     <b>x</b> [x](javascript:alert(1))",
        "1.     [x](javascript:alert(1))",
        "- >     <javascript:alert(1)>",
    ],
)
def test_code_in_a_first_line_stays_code(text: str) -> None:
    """A list item or quote whose first line is code (five spaces after the marker) holds its
    HTML and links as code: they would be live as the text of a heading or an option's line."""
    quiz = _quiz(
        "en",
        "Title",
        "Description",
        [_question("one", text, options=[{"id": "a", "text": text}, {"id": "b", "text": "b"}])],
    )
    page = _render(quiz)
    assert _live(page) == [], page
    assert "    <" in page or "    [x]" in page  # still code, as written


@pytest.mark.parametrize(
    "text",
    [
        "Words\r~~~\n[x](javascript:alert(1))",
        "a\r```\n<img src=x onerror=alert(1)>",
        "> `a\r<b>` [x](javascript:alert(1))",
        "a\r\n\r\n```\r\n<b>\r\n```\r\n[x]: javascript:alert(1)",
    ],
)
def test_lines_ended_by_carriage_returns_are_lines(text: str) -> None:
    """Markdown ends a line at \\r and \\r\\n as at \\n: so do the guards."""
    quiz = _quiz(
        "en",
        "Title [x]",
        text,
        [_question("one", text, options=[{"id": "a", "text": text}, {"id": "b", "text": "b"}])],
    )
    page = _render(quiz)
    assert _live(page) == [], page
    assert "\r" not in page


@pytest.mark.parametrize(
    ("option", "explanation"),
    [
        # Under an option's item, a tab reaches the same tab stop after two spaces as before.
        ("Two lines:\n\n\t<img src=x onerror=alert(1)>", "E."),
        ("Two lines:\n\n>\t  <b>x</b> [x](javascript:alert(1))", "E."),
        ("Code:\n\n```\nx\n\t```\n<b>", "E."),
        # After the key's list, an indented line would go on inside the list's last item.
        ("b", "    <img src=x onerror=alert(1)>"),
        ("b", "  Why:\n\n    <b>x</b> [x](javascript:alert(1))"),
        ("b", "\t<b>"),
    ],
)
def test_code_stays_code_where_it_is_placed(option: str, explanation: str) -> None:
    quiz = _quiz(
        "en",
        "Title",
        "Description",
        [
            _question(
                "one",
                "Prompt",
                options=[{"id": "a", "text": "first"}, {"id": "b", "text": option}],
                explanation=explanation,
            )
        ],
    )
    page = _render(quiz)
    assert _live(page) == [], page
    tokens = _parse(page)
    code = [t.content for t in _all(tokens) if t.type in ("code_block", "fence")]
    assert any("<" in block for block in code), page


def _texts(questions: list[dict[str, Any]]) -> list[str]:
    return [
        text
        for question in questions
        for text in (
            question["prompt"],
            question["explanation"],
            *(option["text"] for option in question["options"]),
        )
    ]


@pytest.mark.parametrize("lang", ["en", "ur"])
def test_no_page_links_what_the_html_export_would_not(lang: str) -> None:
    """Random texts of links, references, code and blocks in every field of a page."""
    rng = random.Random(29)
    pieces = [
        *(pattern.format(rng.choice(UNSAFE)) for pattern in LINKING),
        *("[x]", "[r]", "[y][r]", "`", "``", "`a`", "\\", "\\[", "<", ">", "](", "]: ", "!"),
        *("[ok](https://example.org)", "<https://example.org>", "| a | b |\n|---|---|\n| c | d |"),
        *("\n", "\n\n", "- ", "1. ", "> ", "# ", "    ", "```\n", "words", "|"),
    ]

    def text() -> str:
        written = "".join(rng.choices(pieces, k=rng.randint(1, 8)))
        if mathjax_opener(written):  # refused by validate: an LMS would typeset it unchecked
            return text()
        return written if written.strip() else f"{written}words"

    for _ in range(40):
        questions = [
            _question(
                f"q{n}",
                text(),
                options=[{"id": "a", "text": text()}, {"id": "b", "text": text()}],
                explanation=text(),
            )
            for n in range(5)
        ]
        page = _render(_quiz(lang, "Title [x] [r] [y][r]", text(), questions))
        live = [h for h in _live(page) if h not in (RTL_DIV, "</div>")]
        assert live == [], [safe_markdown(t) for t in _texts(questions)]


# --- texts that cannot need a parse are not parsed ------------------------------------------

# Lines and pieces of lines that make (or nearly make) fences, code, lists, references and HTML.
LINES = [
    *("Some words.", "a <b>tag</b> & more", "`a < b` code", "[link](https://example.org)"),
    *("- item", "* item", "+ item", "  - nested", "1. one", "2) two", "> quote", "> - in quote"),
    *("```", "```python", "~~~", "``", "~~", "    indented <code>", "\tcode <x>", "-     <code>"),
    *("[ref]: https://example.org", "[ref]:", "[a]", "<div>", "</div>", "<!-- c -->", "# head"),
    *("- `<b>` item", "`a` <b> `c`", "`a`, `<b>`", "x `<i>", "y` <i>", "words #", "`|<b>|`"),
    *("---", "***", "- - -", "===", "| a | b |", "| - | - |", "", " ", "\t", "\xa0", "\x0c"),
]


def _tricky_texts(count: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    texts = []
    for _ in range(count):
        lines = rng.choices(LINES, k=rng.randint(1, 6))
        text = rng.choice(["\n", "\r\n", "\r", "\n\n"]).join(lines)
        texts.append(rng.choice(["", "\n", " ", "\xa0"]) + text + rng.choice(["", "\n"]))
    return texts


def test_texts_skipped_by_the_shortcuts_come_out_as_parsed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    texts = _tricky_texts(3000, seed=11)

    def outputs() -> list[tuple[str, tuple[str, str], str, str, str, str]]:
        safe = [safe_markdown(text) for text in texts]
        split = [markdown_guards.lead_and_rest(text) for text in texts + safe]
        first = [markdown_lists._edge_bullet(text, last=False) for text in texts + safe]
        last = [markdown_lists._edge_bullet(text, last=True) for text in texts + safe]
        opens = [markdown_lists._edge_delimiter(text, last=False) for text in texts + safe]
        ends = [markdown_lists._edge_delimiter(text, last=True) for text in texts + safe]
        return list(zip(safe + safe, split, first, last, opens, ends, strict=True))

    shortcut = outputs()
    assert sum(bullet != "" for _, _, bullet, _, _, _ in shortcut) > 100  # lists open many
    assert sum(bullet != "" for _, _, _, bullet, _, _ in shortcut) > 100  # and end many
    assert sum(mark != "" for _, _, _, _, mark, _ in shortcut) > 50  # ordered lists too
    assert sum(mark != "" for _, _, _, _, _, mark in shortcut) > 50
    take_shortcuts_away(monkeypatch)
    assert outputs() == shortcut


def test_pages_are_the_same_when_every_text_is_parsed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, hostile: Quiz, tricky: Quiz
) -> None:
    paths = [*generate_bank(tmp_path, 2, 15, seed=5), *sorted((ROOT / "content").rglob("*.yaml"))]
    quizzes = [quiz for path in paths if (quiz := load_quiz(path).quiz) is not None]
    quizzes += [hostile, tricky, _hostile("ur")]
    shortcut = [renderer.render_markdown(quiz) for quiz in quizzes]
    take_shortcuts_away(monkeypatch)
    assert [renderer.render_markdown(quiz) for quiz in quizzes] == shortcut


# --- the plug-in -----------------------------------------------------------------------------


def test_found_through_its_entry_point() -> None:
    entry = discover_renderers().get("markdown")
    assert entry.cls is MarkdownRenderer
    assert entry.cls.extension == "md"


def test_answers_option_from_the_command_line(english: Quiz) -> None:
    entry = discover_renderers().get("markdown")
    renderer = configure(entry, {"answers": "false"})
    assert isinstance(renderer, MarkdownRenderer) and renderer.options.answers is False
    [output] = renderer.render_quiz(QuizTranslations(english.id, {"en": english}, ["en"]))
    assert str(output.path) == "en/checkpoint-sharding.md"
    assert b"## Answer key" not in output.content
    with pytest.raises(UsageError, match="renderer 'markdown' option 'answers'"):
        configure(entry, {"answers": "sometimes"})
    assert re.search(r"answers=false", MarkdownOptions.model_fields["answers"].description or "")
