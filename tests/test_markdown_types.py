"""The `markdown` renderer shows every question type on paper and in a repository, its key in the
answer-key section; read back with a CommonMark parser that reads tables (as GitHub does)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from markdown_it import MarkdownIt
from markdown_it.token import Token
from quizbank_renderers import markdown as renderer
from quizbank_renderers.markdown import _TYPES, MarkdownOptions, MarkdownRenderer
from test_markdown_fast_path import take_shortcuts_away

from quizbank.loader import load_quiz
from quizbank.markup import safe_link
from quizbank.model import QUESTION_MODELS, Quiz

ROOT = Path(__file__).resolve().parents[1]
FIXTURE = ROOT / "tests" / "fixtures" / "types"
GFM = MarkdownIt("commonmark", {"html": True}).enable(["table", "strikethrough"])
READER = MarkdownIt("commonmark", {"html": True}).enable(["table", "strikethrough"])
READER.validateLink = lambda url: True  # type: ignore[method-assign]
RTL_DIV = '<div dir="rtl" lang="ur">'
HOSTILE = "<script>alert('x')</script> & <b>bold</b> [x](javascript:alert(1)) `<kbd>`"
NBSP = "\u00a0"
WJ = "\u2060"  # WORD JOINER: between it and a character after it, a blank is never emphasis


def _load(lang: str) -> Quiz:
    loaded = load_quiz(FIXTURE / lang / "every-type.yaml")
    assert loaded.quiz is not None, [d.format() for d in loaded.diagnostics]
    return loaded.quiz


@pytest.fixture(scope="module", params=["en", "ur"])
def every_type(request: pytest.FixtureRequest) -> Quiz:
    return _load(request.param)


def _render(quiz: Quiz, **options: Any) -> str:
    from quizbank.renderer import QuizTranslations

    page = MarkdownRenderer(MarkdownOptions(**options))
    return page.render(QuizTranslations(quiz.id, {quiz.lang: quiz}, [quiz.lang]), quiz.lang)


def _shown(markdown: str) -> str:
    """The page with the isolates around code and Latin runs of a right-to-left page left out:
    the text a reader sees (tests/test_markdown_rtl.py checks the isolates, and that the page
    reads the same without them)."""
    return markdown.replace("\u2066", "").replace("\u2069", "")


def _all(tokens: list[Token]) -> list[Token]:
    return [t for token in tokens for t in (token, *_all(token.children or []))]


# An Urdu key heading opens with the word for question (`سوال 7: 4`, issue 27, X7): read as
# `7. 4`, as an English one is written, so that both languages' keys compare.
# An Urdu heading that would open with a Latin run opens with "سوال N:" (issue 27, X7).
_URDU_KEY = re.compile(r"^سوال ([0-9]+):(?: |$)")


def _sections(tokens: list[Token], tag: str) -> dict[str, list[Token]]:
    """The tokens under each heading of `tag`, by the heading's text (an Urdu heading opening
    with "سوال N:" as an English one), up to the next heading of that level or above."""
    found: dict[str, list[Token]] = {}
    current: list[Token] | None = None
    at = 0
    while at < len(tokens):
        token = tokens[at]
        if token.type == "heading_open" and token.tag <= tag:
            text = _URDU_KEY.sub(r"\1. ", tokens[at + 1].content)
            current = found.setdefault(text, []) if token.tag == tag else None
            at += 3  # the heading's text and its end
            continue
        if current is not None:
            current.append(token)
        at += 1
    return found


def _section(tokens: list[Token], tag: str, start: str) -> tuple[str, list[Token]]:
    [(heading, section)] = [
        (h, s) for h, s in _sections(tokens, tag).items() if h.startswith(start)
    ]
    return heading, section


def _table(section: list[Token]) -> list[list[str]]:
    """The rows of the first table of a section, each cell's inline source."""
    start = next(i for i, t in enumerate(section) if t.type == "table_open")
    rows: list[list[str]] = []
    for token in section[start:]:
        if token.type == "tr_open":
            rows.append([])
        elif token.type == "inline":
            rows[-1].append(token.content)
        elif token.type == "table_close":
            break
    return rows


def _items(section: list[Token], kind: str) -> list[str]:
    """The inline source of each item of the top-level lists of `kind` in a section."""
    texts, depth = [], 0
    for token in section:
        if token.type == f"{kind}_list_open":
            depth += 1
        elif token.type == f"{kind}_list_close":
            depth -= 1
        elif depth and token.type == "inline":
            texts.append(token.content)
    return texts


def _html_tokens(tokens: list[Token]) -> list[str]:
    return [t.content.strip() for t in _all(tokens) if t.type in ("html_block", "html_inline")]


def _live(markdown: str) -> list[str]:
    env: dict[str, Any] = {}
    tokens = _all(READER.parse(markdown, env))
    hrefs = [str(t.attrGet("href") or t.attrGet("src")) for t in tokens if t.type == "link_open"]
    hrefs += [str(t.attrGet("src")) for t in tokens if t.type == "image"]
    hrefs += [str(ref["href"]) for ref in env.get("references", {}).values()]
    ours = {RTL_DIV, "</div>"}
    return [h for h in hrefs if not safe_link(h)] + [
        h for h in _html_tokens(tokens) if h not in ours
    ]


def _letters(lang: str) -> list[str]:
    return ["الف", *"بجد"] if lang == "ur" else list("ABCD")


def _label(lang: str, n: int) -> str:
    letter = _letters(lang)[n]
    return f"**({letter})**" if lang == "ur" else f"**{letter}.**"


# --- every type on the page ------------------------------------------------------------------


def test_every_type_has_its_function() -> None:
    assert set(_TYPES) == set(QUESTION_MODELS.values())


def test_every_question_and_every_key(every_type: Quiz) -> None:
    markdown = _render(every_type)
    tokens = GFM.parse(markdown)
    questions = _sections(tokens, "h2")
    assert len(questions) == len(every_type.questions) + 1  # and the answer key
    key = [heading for heading in _sections(tokens, "h3")]
    assert [h.split(".")[0] for h in key] == [str(n) for n in range(1, 10)]
    assert _live(markdown) == []
    if every_type.lang == "ur":
        assert markdown.startswith(RTL_DIV) and _html_tokens(tokens) == [RTL_DIV, "</div>"]
    else:
        assert _html_tokens(tokens) == []


def test_numerical_and_short_answer_have_answer_lines(every_type: Quiz) -> None:
    tokens = GFM.parse(_render(every_type))
    answer = "جواب" if every_type.lang == "ur" else "Answer"
    for start in ("4.", "5."):
        _, section = _section(tokens, "h2", start)
        assert [t.content for t in section if t.type == "inline"] == [f"{answer}: ____________"]
    assert "4. 0.9 ± 0.005" in _sections(tokens, "h3")
    heading, section = _section(tokens, "h3", "5.")
    codes = [t.content for t in _all(GFM.parse(heading)) if t.type == "code_inline"]
    assert codes == every_type.questions[4].answer  # type: ignore[union-attr]
    if every_type.lang == "ur":  # each answer isolated, joined with the Urdu comma
        assert heading.count("\u2068") == 2 and "⁩، ⁨" in heading
    else:
        assert heading == "5. `safetensors`, `safe*tensors`"
        notes = [t.content for t in section if t.type == "inline"]
        assert notes[0] == "*`*` stands for any run of characters.*"


def test_matching_is_a_table_of_items_and_scrambled_matches(every_type: Quiz) -> None:
    question = every_type.questions[5]
    assert question.type == "matching"
    lang = every_type.lang
    tokens = GFM.parse(_shown(_render(every_type)))
    _, section = _section(tokens, "h2", "6.")
    assert sum(t.type == "table_open" for t in section) == 1
    rows = _table(section)
    assert rows[0] == (["جزو", "جوڑ"] if lang == "ur" else ["Item", "Match"])
    body = rows[1:]
    matches = [p.match for p in question.pairs] + [d.text for d in question.distractors]
    assert len(body) == len(matches) == 4
    assert [row[0] for row in body] == [
        *(f"**{n}.** {pair.item}" for n, pair in enumerate(question.pairs, 1)),
        "",
    ]
    shown = [row[1].split("** ", 1)[1] for row in body]
    assert sorted(shown) == sorted(matches)
    assert [row[1].split("** ")[0] + "**" for row in body] == [_label(lang, n) for n in range(4)]
    for n, pair in enumerate(question.pairs):
        assert shown[n] != pair.match  # no item beside its own match
    # the key: each item with its match, and the same letters in the heading
    heading, key = _section(tokens, "h3", "6.")
    pairs = _table(key)[1:]
    arrow = "←" if lang == "ur" else "→"
    letters = []
    for n, (row, pair) in enumerate(zip(pairs, question.pairs, strict=True)):
        assert row[0] == f"**{n + 1}.** {pair.item}"
        assert row[1].endswith(f"** {pair.match}")
        letter = _letters(lang)[shown.index(pair.match)]
        assert row[1].startswith(_label(lang, shown.index(pair.match)))
        letters.append(f"{n + 1} {arrow} {letter}")
    assert heading == "6. " + ("، " if lang == "ur" else ", ").join(letters)


def test_ordering_is_a_numbered_list_out_of_order(every_type: Quiz) -> None:
    question = every_type.questions[6]
    assert question.type == "ordering"
    tokens = GFM.parse(_shown(_render(every_type)))
    _, section = _section(tokens, "h2", "7.")
    shown = _items(section, "ordered")
    right = [item.text for item in question.items]
    assert sorted(shown) == sorted(right) and shown != right
    assert all(a != b for a, b in zip(shown, right, strict=True))
    heading, key = _section(tokens, "h3", "7.")
    assert _items(key, "ordered") == right
    numbers = [str(shown.index(text) + 1) for text in right]
    assert heading == "7. " + ("، " if every_type.lang == "ur" else ", ").join(numbers)
    # the same order in every language: the key's numbers do not depend on the language
    english, urdu = _render(_load("en")), _render(_load("ur"))
    assert re.findall(r"### 7\. (\d)", english) == re.findall(r"### سوال 7: (\d)", urdu)


def test_cloze_has_numbered_blanks_and_each_gap_in_the_key(every_type: Quiz) -> None:
    lang = every_type.lang
    markdown = _shown(_render(every_type))
    tokens = GFM.parse(markdown)
    heading, section = _section(tokens, "h2", "8.")
    assert "[[" not in heading
    blanks = re.findall(rf"\((\d)\){NBSP}________", heading)
    assert blanks == ["1", "2", "3"]
    # a gap's options listed under the text
    [options] = _items(section, "bullet")
    assert options == f"(2) {_label(lang, 0)} {'شارڈ فائل' if lang == 'ur' else 'shard file'}" + (
        f" · {_label(lang, 1)} {'آپٹیمائزر' if lang == 'ur' else 'optimizer'}"
    )
    heading, key = _section(tokens, "h3", "8.")
    gaps = _items(key, "bullet")
    assert [gap[:3] for gap in gaps] == ["(1)", "(2)", "(3)"]
    assert "`parameter`" in gaps[0] and gaps[1].startswith(f"(2) {_label(lang, 0)}")
    assert gaps[2] == "(3) 3"
    assert heading.endswith(f"(2) {_letters(lang)[0]} · (3) 3")


def test_essay_has_word_limits_and_lines_and_never_the_grader_info(every_type: Quiz) -> None:
    question = every_type.questions[8]
    assert question.type == "essay" and question.grader_info
    for answers in (True, False):
        markdown = _render(every_type, answers=answers)
        assert question.grader_info not in markdown
    tokens = GFM.parse(_render(every_type))
    _, section = _section(tokens, "h2", "9.")
    limits = [t.content for t in section if t.type == "inline"]
    assert limits == (["*5 سے 200 الفاظ*"] if every_type.lang == "ur" else ["*5 to 200 words*"])
    assert sum(t.type == "hr" for t in section) == 15  # lines to write on
    heading, _ = _section(tokens, "h3", "9.")
    assert heading == ("9. نمونہ جواب" if every_type.lang == "ur" else "9. Model answer")


def test_answers_false_leaves_every_key_out(every_type: Quiz) -> None:
    markdown = _render(every_type, answers=False)
    tokens = GFM.parse(markdown)
    assert _sections(tokens, "h3") == {}
    assert "0.9 ± 0.005" not in markdown and "`safetensors`" not in markdown
    for question in every_type.questions:
        assert question.explanation not in markdown


# --- numbers ---------------------------------------------------------------------------------


def _one(question: dict[str, Any], lang: str = "en") -> Quiz:
    return Quiz.model_validate(
        {
            "id": "one",
            "lang": lang,
            "title": "T",
            "description": "D",
            "level": "beginner",
            "questions": [{"id": "q", "prompt": "P", "explanation": "E"} | question],
        }
    )


@pytest.mark.parametrize(
    ("answer", "tolerance", "shown"),
    [
        (0.9, 0.005, "0.9 ± 0.005"),
        (3, 0, "3"),
        (1234.5678, 0.0005, "1,234.5678 ± 0.0005"),
        (-2.5, 0.25, "-2.5 ± 0.25"),
        (1e-7, 0, "0.0000001"),
    ],
)
def test_numbers_keep_every_digit(answer: float, tolerance: float, shown: str) -> None:
    question = {"type": "numerical", "answer": answer, "tolerance": tolerance}
    assert f"### 1. {shown}\n" in _render(_one(question))


# --- hostile and tricky content --------------------------------------------------------------


@pytest.fixture(scope="module", params=["en", "ur"])
def hostile_types(request: pytest.FixtureRequest) -> Quiz:
    h = HOSTILE
    return Quiz.model_validate(
        {
            "id": "hostile-types",
            "lang": request.param,
            "title": "Hostile",
            "description": "Every new type.",
            "level": "advanced",
            "questions": [
                {
                    "id": "short",
                    "type": "short_answer",
                    "prompt": f"S {h}",
                    "answer": ["<b>x</b>", "a`b", "`tick", "a | b", "x\\*y"],
                    "case_sensitive": True,
                    "explanation": f"E {h}",
                },
                {
                    "id": "match",
                    "type": "matching",
                    "prompt": "- a prompt\n- that ends in a list",
                    "pairs": [
                        {"id": "a", "item": f"I {h}\n\n- a | list\n- two", "match": f"M1 | {h}"},
                        {"id": "b", "item": "```\ncode | <b>\n```", "match": "---"},
                        {"id": "c", "item": "    <img src=x onerror=alert(1)>", "match": "\\|x"},
                    ],
                    "distractors": [
                        {"id": "d", "text": f"D `a|b` {h}"},
                        {"id": "e", "text": "| |"},
                    ],
                    "explanation": "| a | b |\n|---|---|\n| c | d |",
                },
                {
                    "id": "order",
                    "type": "ordering",
                    "prompt": "Steps:\n\n1. first\n2. second",
                    "items": [
                        {"id": "a", "text": f"A {h}\n\n```\n<b>\n```"},
                        {"id": "b", "text": "1. B"},
                        {"id": "c", "text": "C\n\n\tcode <x>"},
                    ],
                    "explanation": "1. an explanation\n2. that opens with a list",
                },
                {
                    "id": "gaps",
                    "type": "cloze",
                    "prompt": "A [[one]]x and `[[two]]`, [[three]]_b_ and\n\n[[four]]",
                    "gaps": {
                        "one": {
                            "type": "single_choice",
                            "options": [
                                {"id": "a", "text": f"O {h}", "feedback": f"F {h}"},
                                {"id": "b", "text": "b | c"},
                            ],
                            "answer": "b",
                        },
                        "two": {"type": "short_answer", "answer": "t"},
                        "three": {"type": "numerical", "answer": 2, "tolerance": 0.5},
                        "four": {"type": "short_answer", "answer": "f"},
                    },
                    "explanation": "    indented",
                },
                {
                    "id": "essay",
                    "type": "essay",
                    "prompt": f"Write {h}",
                    "grader_info": "SECRET for graders",
                    "min_words": 1,
                    "explanation": f"E {h}",
                },
            ],
        }
    )


def test_hostile_text_is_never_live(hostile_types: Quiz) -> None:
    for answers in (True, False):
        markdown = _render(hostile_types, answers=answers)
        assert _live(markdown) == [], markdown
        html = GFM.render(markdown)
        for dangerous in ("<script", "<b>", "<img", "<kbd>", 'href="javascript'):
            assert dangerous not in html
        assert "SECRET" not in markdown


def test_tables_keep_their_shape_whatever_the_cells_hold(hostile_types: Quiz) -> None:
    tokens = GFM.parse(_shown(_render(hostile_types)))
    _, section = _section(tokens, "h2", "2.")
    assert sum(t.type == "table_open" for t in section) == 1
    rows = _table(section)
    assert [len(row) for row in rows] == [2] * 6  # the heads, and five matches
    cells = [cell for row in rows[1:] for cell in row]
    assert all("\n" not in cell for cell in cells)
    html = GFM.render(_shown(_render(hostile_types)))
    assert "M1 | &lt;script&gt;" in html  # a pipe in a cell is text
    assert "<code>a|b</code>" in html  # in code too
    assert "code | &lt;b&gt;" in html  # a fenced item on one line, as code
    assert "- a | list - two" in html  # blocks joined by spaces
    _, key = _section(tokens, "h3", "2.")
    assert [len(row) for row in _table(key)] == [2] * 4
    assert sum(t.type == "table_open" for t in key) == 2  # the explanation's own table too


def test_lists_of_the_page_stay_apart_from_the_authors(hostile_types: Quiz) -> None:
    tokens = GFM.parse(_shown(_render(hostile_types)))
    _, section = _section(tokens, "h2", "3.")
    lists = [t for t in section if t.type == "ordered_list_open" and t.level == 0]
    assert len(lists) == 2  # the prompt's and the items (a paragraph between them)
    assert len(_items(section, "ordered")) == 2 + 3  # "1. B" is an item's text, not a list
    assert "1\\. B" in _items(section, "ordered")
    code = [t.content for t in _all(section) if t.type in ("code_block", "fence")]
    assert "<b>\n" in code and "code <x>\n" in code  # an item's blocks stay inside it
    _, key = _section(tokens, "h3", "3.")
    lists = [t.markup for t in key if t.type == "ordered_list_open" and t.level == 0]
    assert len(lists) == 2 and lists[0] != lists[1]  # the key's and the explanation's


def test_short_answers_are_shown_exactly(hostile_types: Quiz) -> None:
    tokens = GFM.parse(_render(hostile_types))
    heading, key = _section(tokens, "h3", "1.")
    codes = [t.content for t in _all(GFM.parse(heading)) if t.type == "code_inline"]
    assert codes == ["<b>x</b>", "a`b", "`tick", "a | b", "x\\*y"]
    notes = [t.content for t in key if t.type == "inline"][:1]
    assert notes == [
        "*بڑے اور چھوٹے حروف کا فرق بھی ملحوظ رکھا جاتا ہے۔*"  # noqa: RUF001
        if hostile_types.lang == "ur"
        else "*Capital and small letters must match.*"
    ]


def test_gaps_in_code_and_next_to_words(hostile_types: Quiz) -> None:
    markdown = _shown(_render(hostile_types))
    tokens = GFM.parse(markdown)
    _, section = _section(tokens, "h2", "4.")
    html = GFM.render(markdown)
    assert f"<code>(2){NBSP}{WJ}________{WJ}</code>" in html  # a gap in code: a blank in code
    question = re.split(r"<h2>(?:4\.|سوال 4:)", html)[1].split("<h2>")[0]
    assert "<em>b</em>" in question and "<em>_" not in question  # the author's emphasis only
    assert question.count("________") == 4 + 0  # every blank, none taken for emphasis
    assert f"(1){NBSP}{WJ}________{WJ}x" in markdown
    assert "[[" not in markdown
    paragraphs = [t.content for t in section if t.type == "inline"]
    assert paragraphs[0] == f"(4){NBSP}________"  # the prompt's second paragraph


def test_pages_are_the_same_when_every_text_is_parsed(
    monkeypatch: pytest.MonkeyPatch, hostile_types: Quiz
) -> None:
    quizzes = [_load("en"), _load("ur"), hostile_types]
    shortcut = [renderer.render_markdown(quiz) for quiz in quizzes]
    take_shortcuts_away(monkeypatch)
    assert [renderer.render_markdown(quiz) for quiz in quizzes] == shortcut
