"""`quizbank.markup`'s fast path gives, byte for byte, what markdown-it gives.

Plain one-line texts with `code` spans skip markdown-it; every text here goes through both, in
left-to-right and right-to-left languages, as blocks and inline, and as plain text. Inline, a text
of one paragraph is that paragraph's inside; any other text is rendered by the inline rules. One
line that cannot open any other block is parsed as inline Markdown only: that shortcut is checked
here too.
"""

from __future__ import annotations

import random
import re
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import CONTENT

from quizbank import markup
from quizbank.loader import load_quiz
from quizbank.model import text_fields

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
from generate import generate_bank

# Links: plain ones to web pages take the fast path; the others are compared all the same.
LINKS = [
    *("[the guide](https://example.org/guides/markdown)", "[b c](http://e.org)", "!"),
    *(
        "[x](https://e.org/)",
        "[x](https://E.org)",
        "[x](https://e.org/a(b))",
        "[ x ](https://e.org)",
    ),
    *("[x](https://e.org/%41)", "[**x**](https://e.org)", "[`x`](https://e.org)"),
    *("[x](https://e.org/a?b=c)", "[x]( https://e.org)", '[x](https://e.org "t")'),
    "[اردو PyTorch](https://e.org/a_b)",
]
PIECES = [
    *("alpha", "Beta", "GPU", "x", "2.4", "16", "state_dict()", "model.safetensors", "a,b"),
    *("چیک", "پوائنٹ", "تربیت", "\u06d4", "\u061f", "\u060c", "PyTorch 2.4", "CUDA-12"),
    *(" ", " ", " ", "  ", "\t", "\xa0", "\u2003", "\n", "\n\n", "   \n", "\\\n"),
    *("- ", "+ ", "* ", "1. ", "2) ", "1.5", "# ", "> ", "    ", "---", "===", "| a |"),
    *("`", "``", "```", "` x `", "`  `", "`a < b`", "`*no*`", "`\\`", "` `"),
    *("**", "*", "_", "__", "~~", "<b>", "</b>", "<", ">", "&", "&amp;", "&#65;", '"', "'"),
    *("[a](https://example.org)", "[a](javascript:x)", "<https://example.org>", "![i](x.png)"),
    *("\\", "\\*", "|", "!", "#", "$", "%", "^", "{", "}", "=", "@", ":", ";", "(", ")", "?"),
    *("**bold**", "*em*", "**two words**", "(**x**)", "**x**.", "**x**b", "a**b**", "*x*:"),
    *("***x***", "**x*", "*x**", "** x**", "**x **", "*", "**", "*`x`*", "**\u0650x**"),
    *LINKS,
    "\x00",
]


def _reference_html(text: str, lang: str, inline: bool) -> str:
    """markdown-it's HTML; inline, the inside of the paragraph when the text is one paragraph,
    and markdown-it's inline rendering of the whole text otherwise."""
    md = markup._PARSERS[lang == "ur", "mathml"]
    block = markup._with_images(md.render(text, {"lang": lang}).strip(), text, None)
    if not inline:
        return block
    one = re.fullmatch(r"<p>(.*)</p>", block, re.DOTALL)
    if one and "<p>" not in one[1] and "</p>" not in one[1]:
        return one[1]
    html: str = md.renderInline(text, {"lang": lang})
    return markup._with_images(html.strip(), text, None, as_blocks=False)


_WORDS = ("text", "code_inline", "math_inline", "math_inline_double")


def _reference_plain(text: str) -> str:
    """One line's plain text as markdown-it reads its inline content, in words and single spaces
    (the fast path's case; texts of several lines are tested in tests/test_plain_text.py and
    tests/test_markup.py): its text, code and formulas, an image's alt text included."""
    tokens: list[Any] = markup._PARSERS[False, "mathml"].parseInline(text)

    def words(children: list[Any]) -> str:
        return "".join(
            child.content if child.type in _WORDS else words(child.children or [])
            for child in children
        )

    joined = "".join(words(token.children or []) for token in tokens)
    return " ".join(joined.split()) or " ".join(text.split())


MOSTLY_PLAIN = [
    "`x`",
    "`a b`",
    "` c `",
    "`<i>`",
    "**b**",
    "*e*",
    "**b c**",
    "[a b](https://e.org/x-y)",
]


def _random_texts(count: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    texts = []
    for _ in range(count):
        pieces = rng.choices(PIECES, k=rng.randint(1, 10))
        joiner = rng.choice(["", " ", " "])
        texts.append(joiner.join(pieces))
    # Mostly-plain texts with code, which the fast path takes, in many shapes.
    for _ in range(count):
        words = rng.choices(
            [*PIECES[:17], *MOSTLY_PLAIN],
            k=rng.randint(1, 8),
        )
        texts.append(" ".join(words))
    return texts


def _random_blocks(count: int, seed: int) -> list[str]:
    """Texts of paragraphs and lists between blank lines, as explanations are, in the shapes the
    fast path takes and in near shapes it must leave to markdown-it."""
    rng = random.Random(seed)
    lines = [" ".join(rng.choices([*PIECES[:17], *MOSTLY_PLAIN], k=3)) for _ in range(50)]
    lines += ["- - x", "---", "***", "===", "1. x", "+ x", "* x", "> q", "    x", " a", "a "]
    markers = ["- ", "- ", "- ", "-  ", "+ ", "* ", "1. ", "-\t"]
    gaps = ["\n\n", "\n\n", "\n\n", "\n", "\n\n\n", "\n \n"]
    texts = []
    for _ in range(count):
        blocks = []
        for _ in range(rng.randint(1, 4)):
            if rng.random() < 0.5:
                blocks.append(rng.choice(lines))
            else:
                items = [rng.choice(markers) + rng.choice(lines) for _ in range(rng.randint(1, 4))]
                blocks.append(rng.choice(["\n", "\n", "\n\n"]).join(items))
        gap = rng.choice(gaps)
        texts.append(gap.join(blocks) + rng.choice(["", "", "\n", "\n\n", " "]))
    return texts


def _check(text: str) -> bool:
    """Compare both ways for one text; True when the fast path took it."""
    fast = markup._plain_pieces(text) is not None or markup._plain_blocks(text, "en") is not None
    for lang in ("en", "ur"):
        for inline in (False, True):
            assert markup.to_html(text, lang, inline=inline) == _reference_html(
                text, lang, inline
            ), (text, lang, inline)
    plain = markup.to_plain(text)
    if "\n" in text or "\r" in text:  # blocks and lines: spaces, never glued (test_markup.py)
        assert plain == " ".join(plain.split()) or not plain.strip(), text
    else:
        assert plain == _reference_plain(text), text
    return fast


def test_random_texts_render_as_markdown_it_renders_them() -> None:
    texts = _random_texts(1500, seed=20261202)
    taken = sum(_check(text) for text in texts)
    assert taken > 1000  # the comparison means something: many texts took the fast path
    # and many others were parsed as one line of inline Markdown, with no block parse
    one_line = [t for t in texts if markup._plain_pieces(t) is None]
    assert sum(map(markup.one_line_paragraph, one_line)) > 200


def test_texts_of_paragraphs_and_lists_render_as_markdown_it_renders_them() -> None:
    texts = _random_blocks(3000, seed=20261205)
    taken = sum(_check(text) for text in texts)
    assert taken > 150 and len(texts) - taken > 1500  # many took the fast path, many did not


@pytest.mark.parametrize("lang", ["en", "ur"])
def test_bundled_content_renders_as_markdown_it_renders_it(lang: str) -> None:
    quiz = load_quiz(CONTENT / lang / "checkpoint-sharding.yaml").quiz
    assert quiz is not None
    for _, text in text_fields(quiz):
        _check(text)


def test_generated_bank_renders_as_markdown_it_renders_it(tmp_path: Path) -> None:
    for path in generate_bank(tmp_path, 2, 15, seed=3):
        quiz = load_quiz(path).quiz
        assert quiz is not None
        for _, text in text_fields(quiz):
            _check(text)


@pytest.mark.parametrize(
    "text",
    [
        "See [the guide](https://example.org/guides/markdown) first.",
        "[PyTorch 2.4](https://pytorch.org/docs/2.4/index.html) کی دستاویز `torch.load` میں",
        "**Read** [a b](http://e.org/x-y) and [c](https://e.org) *now*",
    ],
)
def test_plain_links_take_the_fast_path(text: str) -> None:
    assert markup._plain_pieces(text) is not None
    assert not markup.is_plain_paragraph(text)  # the Markdown export parses links itself
    assert _check(text)


@pytest.mark.parametrize(
    "text",
    ["- item", "1. item", "10) item", "# title", "a  ", " a", "a\nb", "``a``", "`a", "a `b` `c"],
)
def test_what_could_be_other_markdown_takes_the_slow_path(text: str) -> None:
    assert markup._plain_pieces(text) is None
    _check(text)


def _without_shortcut(monkeypatch: pytest.MonkeyPatch) -> None:
    """Take the Markdown renderer's shortcut for plain paragraphs away (in its guards and its
    lists), and forget its memoized results, so that they are computed again."""
    from quizbank_renderers import markdown_guards, markdown_lists

    for module in (markdown_guards, markdown_lists):
        monkeypatch.setattr(module, "is_plain_paragraph", lambda text: False)
    guards = markdown_guards
    for function in (guards._guarded, guards.block_tokens):
        function.cache_clear()


def test_markdown_renderer_shortcut_changes_no_output(monkeypatch: pytest.MonkeyPatch) -> None:
    """The Markdown renderer passes plain paragraphs through without parsing them: the same
    result as parsing them."""
    from quizbank_renderers import markdown_guards as guards
    from quizbank_renderers import markdown_lists as lists

    texts = [t for t in _random_texts(1000, seed=7) if markup.is_plain_paragraph(t)]
    texts += ["", "a", "`<b>`", "**x** `y`"]
    assert len(texts) > 500

    def outputs() -> list[object]:
        return [
            (
                guards.safe_markdown(text),
                guards.lead_and_rest(text),
                lists._edge_bullet(text, last=True),
                lists._edge_bullet(text, last=False),
            )
            for text in texts
        ]

    shortcut = outputs()
    _without_shortcut(monkeypatch)
    assert outputs() == shortcut


def test_markdown_export_is_the_same_without_the_shortcut(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from quizbank_renderers import markdown as renderer

    paths = [*generate_bank(tmp_path, 2, 15, seed=5), *sorted(CONTENT.rglob("*.yaml"))]
    quizzes = [quiz for path in paths if (quiz := load_quiz(path).quiz) is not None]
    shortcut = [renderer.render_markdown(quiz) for quiz in quizzes]
    _without_shortcut(monkeypatch)
    assert [renderer.render_markdown(quiz) for quiz in quizzes] == shortcut


def test_a_text_of_just_words_is_the_one_piece_the_fast_path_reads() -> None:
    """`_rendered`'s shortcut for the commonest text agrees with `_plain_pieces`."""
    texts = _random_texts(3000, seed=11) + _random_blocks(500, seed=12)
    words = [text for text in texts if markup._just_words(text)]
    assert len(words) > 300
    for text in texts:
        if markup._just_words(text):
            assert markup._plain_pieces(text) == (("text", text),), text
        elif (pieces := markup._plain_pieces(text)) is not None:
            assert pieces != (("text", text),), text
