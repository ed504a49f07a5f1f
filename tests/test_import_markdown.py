"""to_markdown (quizbank/importer/html_markdown.py): a text of a Moodle or GIFT file as Markdown.

What matters most: every text of the bundled content and of the fixtures, exported as the Moodle
export writes it and read back, renders to the HTML the author's Markdown renders to, in English
and in Urdu (whose export adds `<bdi>`, a right-to-left `<div>`, word joiners and no-break
spaces). Then each construct, each loss, the escaping of plain text (every character shown as
it is), Moodle's other text formats, and hostile input.
"""

# ruff: noqa: RUF001 - Urdu letters and typographic quotes are meant
from __future__ import annotations

import html
import re
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from quizbank_renderers import moodle_text as moodle

from quizbank.importer import html_markdown as hm
from quizbank.importer.findings import Findings
from quizbank.importer.html_cleaning import MAX_DEPTH
from quizbank.importer.html_markdown import MAX_TAGS, Markdown, to_markdown
from quizbank.importer.simple_html import from_simple_html
from quizbank.loader import load_quiz
from quizbank.markup import media, to_html, to_plain
from quizbank.model import text_fields

ROOT = Path(__file__).resolve().parent.parent
QUIZZES = [
    *sorted((ROOT / "content").glob("*/*.yaml")),
    *sorted((ROOT / "tests/fixtures/types").glob("*/*.yaml")),
    *sorted((ROOT / "tests/fixtures/media").glob("*/*.yaml")),
]


def _in_file(name: str) -> str | None:
    """Every embedded file is in the question, at ../images/<name>."""
    return f"../images/{name}"


def md(value: str, format: Any = "html", **options: Any) -> str:
    return to_markdown(value, format, image_path=_in_file, **options).text


def losses(value: str, **options: Any) -> tuple[str, ...]:
    return to_markdown(value, image_path=_in_file, **options).losses


# ------------------------------------------------------------------------------- round trip

# Where each text of a question goes in the Moodle export: a one-line field (`inline`), plain
# text (`plain`, Moodle keeps it without markup), a title (the category's name: not a text), or
# HTML of blocks.
_INLINE = {"text", "feedback", "item", "feedback_true", "feedback_false"}
_PLAIN = {("pairs", "match"), ("distractors", "text")}


def _kind(loc: tuple[str | int, ...]) -> str:
    if loc[0] in ("title", "guide"):
        return "title"
    keys = [part for part in loc[2:] if isinstance(part, str)]
    if not keys:
        return "block"
    if tuple(keys[-2:]) in _PLAIN or (keys[:1] == ["gaps"] and keys[-1] == "text"):
        return "plain"
    return "inline" if keys[-1] in _INLINE else "block"


def _exported_texts() -> Iterator[Any]:
    """Each text of each quiz as the Moodle export writes it, with what it was written from."""
    for path in QUIZZES:
        loaded = load_quiz(path)
        assert loaded.quiz is not None, loaded.diagnostics
        lang = loaded.quiz.lang
        files = {moodle._File(image).name: src for src, image in loaded.images.items()}
        with moodle._media([(lang, loaded.images)]):
            for loc, text in text_fields(loaded.quiz):
                kind = _kind(loc)
                if not text or kind == "title":
                    continue
                if kind == "plain":
                    exported = moodle.inert_text(moodle.untagged(" ".join(to_plain(text).split())))
                else:
                    exported = moodle._localised(text, lang, kind == "inline")
                where = f"{path.relative_to(ROOT)}:{'.'.join(map(str, loc))}"
                yield pytest.param(text, exported, lang, kind, files, id=where)


EXPORTED = list(_exported_texts())


def test_the_round_trip_covers_every_kind_of_text() -> None:
    kinds = {param.values[3] for param in EXPORTED}
    assert kinds == {"block", "inline", "plain"}
    assert len(EXPORTED) > 400
    assert any("@@PLUGINFILE@@" in param.values[1] for param in EXPORTED)
    assert any("\\(" in param.values[1] for param in EXPORTED)
    assert any("<bdi" in param.values[1] for param in EXPORTED)
    assert any("[[" in param.values[1] for param in EXPORTED)


@pytest.mark.parametrize(("original", "exported", "lang", "kind", "files"), EXPORTED)
def test_an_exported_text_reads_back_as_its_markdown(
    original: str, exported: str, lang: str, kind: str, files: dict[str, str]
) -> None:
    """Rendered, the Markdown read back is the author's (equal after Markdown normalisation),
    nothing is lost, and the images are the ones the text shows."""
    inline = kind == "inline"
    result = to_markdown(exported, inline=inline, plain=kind == "plain", image_path=files.get)
    assert result.losses == ()
    if kind == "plain":
        assert to_plain(result.text) == " ".join(to_plain(original).split())
        return
    assert to_html(result.text, lang, inline=inline) == to_html(original, lang, inline=inline)
    if inline:
        assert "\n" not in result.text
    shown = [name for name, src in files.items() if f"]({src})" in original]
    assert sorted(result.images) == sorted(shown)


# Markdown the bundled content does not have: lists, tables, code blocks, quotes, escapes.
RICH = [
    "A paragraph with *emphasis*, **strong**, `code`, ~~gone~~ and a [link](https://example.org/a_(b)).",
    "Two lines\nin one paragraph.",
    "Hard\\\nbreak.",
    "- one\n- two\n  - nested\n  - more\n- three",
    "1. first\n2. second\n\n   with a paragraph\n3. third",
    "3. starts at three\n4. four",
    "10. ten\n11. eleven",
    "* star list\n* second",
    "1) paren list\n2) second",
    "- a list\n\n* right after another",
    "> quoted\n> text\n>\n> > nested",
    "# Heading\n\n## Sub *heading*\n\nText.",
    "Trailing hashes #",
    "| a | b |\n| --- | --- |\n| `x|y` | *c* |\n| $x^2$ | [[1]] |",
    "| left | centre | right |\n| :--- | :---: | ---: |\n| 1 | 2 | 3 |",
    "```python\ndef f(x):\n    return x * 2\n\n\nprint(f(1))\n```",
    "~~~\ncode with ``` inside\n~~~",
    "    indented code\n    block",
    "Costs $5 and $7, and \\$3 too; $x^2$ and $$\\frac{a}{b}$$ inline.",
    "$$\nE = mc^2\n$$",
    "Before\n\n$$\n\\sum_{i=1}^{n} i\n$$\n\nafter.",
    "Literal \\*stars\\*, \\_underscores\\_, \\# hash, a\\_b, 2 * 3, snake_case, __init__.",
    "Fill [[1]] and [[2]] here, then [[3]].",
    "Text with <b>raw html</b> shown as text & AT&T &amp; entity.",
    "---\n\nAfter a rule.",
    "Email <mailto:a@b.org> and <https://example.org>.",
    "Backslash \\\\ and \\` tick and a trailing backslash\\",
    "A [ bracket and ] and [text] and [a][b] and [c]\\(d).",
    "**Bold** then *em* then ***both*** and *a* **b**.",
    "![Alt *text*](../images/grid.png) after.",
    "Paragraph\n\n- list right after\n\nParagraph after.",
    "a `` code with ` tick `` b",
    "x <y and y> z, 1 < 2",
    "Tab\there.",
    "Moodle writes @@PLUGINFILE@@/x.png and {mlang en} and {1:SA:=a} and {#1}.",
    "Formula $\\frac{1}{2}$ and braces {x} and `{mlang}` code.",
    "Emoji 🎉 and ünïcödé.",
]
URDU = "اردو متن، "


def _rich_cases() -> Iterator[Any]:
    for text in RICH:
        for lang in ("en", "ur"):
            written = text if lang == "en" or not text[0].isalpha() else URDU + text
            for inline in (False, True):
                if inline and "\n" in text:
                    continue
                yield pytest.param(written, lang, inline, id=f"{lang}-{inline}-{text[:30]}")


@pytest.mark.parametrize(("text", "lang", "inline"), list(_rich_cases()))
def test_any_markdown_exported_reads_back_the_same(text: str, lang: str, inline: bool) -> None:
    addresses = {lang: {"../images/grid.png": "@@PLUGINFILE@@/grid-1234abcd.png"}}
    with media(addresses, math="tex"):
        exported = moodle._localised(text, lang, inline)
    paths = {"grid-1234abcd.png": "../images/grid.png"}
    result = to_markdown(exported, inline=inline, image_path=paths.get)
    assert to_html(result.text, lang, inline=inline) == to_html(text, lang, inline=inline)
    assert result.losses == ()


def test_the_fast_path_converts_as_markdownify_does() -> None:
    """The common shape of text is converted without a parser, to the same Markdown."""
    extra = [
        "<p>a  b\n c | d</p>",
        "x&amp;y <code>a|b</code> z",
        "<p>\\[x\\]</p>",
        "<p>5\\(x\\)</p>",
        "<code>a\nb</code> c",
        " lead <code>`x`</code>trail ",
        "<p>&#10;|x|</p>",
        "#x",
        "1. x",
        "<p>a\n# b</p>",
        "a\u2060b\xa0c",
        "<p>One</p>\n<p>Two <code>x</code></p>\xa0<p></p><p>&nbsp;</p>",
        '<p dir="ltr" style="text-align: left;">Moodle\'s editor</p><p class="x">b</p>',
        '<div lang="ur" dir="rtl"><p>a</p>\n<p>b</p></div>',
        "<p>a</p>b",
        "<p>\\[x\\]</p><p>y</p>",
        "<p>a|b\nc</p><p>d|e</p>",
    ]
    texts = [param.values[1] for param in EXPORTED] + extra
    fast = 0
    for value in texts:
        for inline in (False, True):
            simple = from_simple_html(value, inline)
            if simple is not None:
                fast += 1
                findings = Findings(_in_file)
                assert simple == hm._converted(value, inline, findings), value
    assert fast > len(texts)  # most texts, both ways


# ------------------------------------------------------------------------------- constructs


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("Hello", "Hello"),
        ("<p>One</p><p>Two</p>", "One\n\nTwo"),
        ("<p>  spaced   out\n text </p>", "spaced out\ntext"),
        ("<p>line<br>break<br></p>", "line\\\nbreak"),
        ("<p>a<br><br>b</p>", "a\\\n\\\nb"),
        ("<p><b>bold</b> <strong>strong</strong> <i>it</i> <em>em</em></p>",
         "**bold** **strong** *it* *em*"),
        ("<p><del>a</del> <s>b</s> <strike>c</strike></p>", "~~a~~ ~~b~~ ~~c~~"),
        ("<p>word<em>in</em>word</p>", "word*in*word"),
        ("<p><em>em</em><strong>strong</strong></p>", "*em*__strong__"),
        ("<p><strong>a</strong><strong>b</strong></p>", "**ab**"),
        ("<p><b> spaced </b>x</p>", "**spaced** x"),
        ("<p><b>a <b>b</b></b> <em><i>c</i></em></p>", "**a b** *c*"),
        ("<p><code>x = 1</code> and <code>a`b</code> and <code>`</code></p>",
         "`x = 1` and ``a`b`` and `` ` ``"),
        ("<p><code>a</code><code>b</code></p>", "`ab`"),
        ('<pre><code class="language-python">def f():\n    return 1\n</code></pre>',
         "```python\ndef f():\n    return 1\n```"),
        ("<pre>a ``` b\n\n\nc</pre>", "````\na ``` b\n\n\nc\n````"),
        ("<pre><code>&lt;b&gt; *x*</code></pre>", "```\n<b> *x*\n```"),
        ("<ul><li>a</li><li>b<ul><li>c</li></ul></li></ul>", "- a\n- b\n  - c"),
        ('<ol start="3"><li>c</li><li>d<ol><li>e</li></ol></li></ol>', "3. c\n4. d\n   1. e"),
        ("<ul><li>a</li></ul><ul><li>b</li></ul>", "- a\n\n* b"),
        ("<ol><li>a</li></ol><ol><li>b</li></ol>", "1. a\n\n1) b"),
        ("<ul><li><p>one</p><p>two</p></li></ul>", "- one\n\n  two"),
        ("<blockquote><p>a</p><blockquote><p>b</p></blockquote></blockquote>", "> a\n>\n> > b"),
        ("<h1>Title</h1><h3>Three</h3>", "# Title\n\n### Three"),
        ("<h2>C# and F #</h2>", "## C# and F \\#"),
        ("<p>a</p><hr><p>b</p>", "a\n\n---\n\nb"),
        ('<p><a href="https://example.org">a link</a></p>', "[a link](https://example.org)"),
        ('<p><a href="mailto:a@b.c" title="Write &quot;us&quot;">mail</a></p>',
         '[mail](mailto:a@b.c "Write \\"us\\"")'),
        ('<p><a href="https://x.org/a b_(c)">x [y]</a></p>', "[x \\[y\\]](<https://x.org/a b_(c)>)"),
        ('<p><a href="https://x.org/?a=1&amp;copy;=2">q</a></p>', "[q](https://x.org/?a=1\\&copy;=2)"),
        ("<table><thead><tr><th>a</th><th>b</th></tr></thead>"
         "<tbody><tr><td>1</td><td>2</td></tr></tbody></table>",
         "| a | b |\n| --- | --- |\n| 1 | 2 |"),
        ("<table><tr><th>a</th><th>b</th></tr><tr><td>x | y</td><td><code>p|q</code></td></tr>"
         "<tr><td>only one</td></tr></table>",
         "| a | b |\n| --- | --- |\n| x \\| y | `p\\|q` |\n| only one | |"),
        ('<table><tr><th style="text-align: center">a</th><th align="right">b</th></tr>'
         '<tr><td style="text-align: center">1</td><td align="right">2</td></tr></table>',
         "| a | b |\n| :---: | ---: |\n| 1 | 2 |"),
        ("<p>x<sub>i</sub> and e<sup>2</sup></p>", "xi and e2"),
        ('<p><span style="color: red">red</span> text</p>', "red text"),
        ("<p>a <!-- a comment --> b</p>", "a b"),
    ],
)  # fmt: skip
def test_a_construct_is_its_markdown(value: str, expected: str) -> None:
    assert md(value) == expected


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("<p>\\(x^2\\)</p>", "$x^2$"),
        ("<p>\\( x + 1 \\) is</p>", "$x + 1$ is"),
        ("<p>\\[x^2\\]</p>", "$$\nx^2\n$$"),
        ("<p>$$x^2$$</p>", "$$\nx^2\n$$"),
        ("<p>so \\[x^2\\] inline</p>", "so $$x^2$$ inline"),
        ("<p>\\[a\\] and \\[b\\]</p>", "$$a$$\n\nand $$b$$"),
        ("<p>a \\(x\n+ y\\) b</p>", "a $x + y$ b"),
        ("<p>\\(a_1 * b_2\\) and a_1 * b_2</p>", "$a_1 * b_2$ and a_1 * b_2"),
        ("<p>costs $5 and $7</p>", "costs \\$5 and \\$7"),
        ("<p>5\\(x\\)6</p>", "&#53;$x$&#54;"),
        ("<p>\\(\\)empty</p>", "empty"),
        ("<p>\\(open only</p>", "\\\\(open only"),
        ("<p><code>\\(x\\)</code></p>", "`\\(x\\)`"),
        ("<p>\\(x &lt; y\\)</p>", "$x < y$"),
    ],
)
def test_a_formula_is_written_with_dollars(value: str, expected: str) -> None:
    """Moodle's `\\(…\\)`, `\\[…\\]` and `$$…$$` as quizbank's `$…$` and `$$…$$`, by pandoc's
    rule (no space inside, no digit touching), the TeX as it is."""
    assert md(value) == expected
    assert losses(value) == ()


def test_a_formula_renders_as_the_moodle_export_writes_it() -> None:
    for value in ["<p>\\(x^2\\) and 5\\(y\\)6</p>", "<p>\\[\\frac{a}{b}\\]</p>"]:
        assert to_html(md(value), math="tex") == value


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ('<div lang="ur" dir="rtl"><p>متن</p></div>', "متن"),
        ('<p>متن <bdi lang="en">state_dict()</bdi> متن</p>', "متن state_dict() متن"),
        ('<p><code dir="ltr" lang="en">torch.save</code></p>', "`torch.save`"),
        ("<p>&#64;&#64;\u2060PLUGINFILE&#64;&#64; and &#123;\u2060mlang en}</p>",
         "@@PLUGINFILE@@ and {mlang en}"),
        ("<p>چیک\xa0پوائنٹ</p>", "چیک پوائنٹ"),
        ('<p>[[<bdi lang="en">1</bdi>]] and [[2]]</p>', "[[1]] and [[2]]"),
        ("<p>[[1]](https://x.org)</p>", "[[1]]\\(https://x.org)"),
    ],
)  # fmt: skip
def test_what_the_export_adds_goes_away(value: str, expected: str) -> None:
    assert md(value) == expected


# ----------------------------------------------------------------------------------- images


def test_an_embedded_image_is_written_at_its_path() -> None:
    paths = {"grid.png": "../images/grid.png", "a b(1).png": "../images/a b(1).png"}
    result = to_markdown(
        '<p><img src="@@PLUGINFILE@@/grid.png" alt="Three [boxes] *here*" title="A grid">'
        ' and <img src="@@PLUGINFILE@@/a%20b%281%29.png" alt="x"> and again'
        ' <img src="@@PLUGINFILE@@/grid.png" alt="The grid"></p>',
        image_path=paths.get,
    )
    assert result.text == (
        '![Three \\[boxes\\] \\*here\\*](../images/grid.png "A grid") and '
        "![x](<../images/a b(1).png>) and again ![The grid](../images/grid.png)"
    )
    assert result.images == ("grid.png", "a b(1).png")
    assert result.losses == ()
    rendered = to_html(result.text)
    assert 'alt="Three [boxes] *here*"' in rendered
    assert 'src="../images/a%20b(1).png"' in rendered


@pytest.mark.parametrize(
    ("value", "expected", "loss"),
    [
        ('<img src="@@PLUGINFILE@@/grid.png">', "![grid](../images/grid.png)",
         "an image without alt text (grid.png)"),
        ('<img src="@@PLUGINFILE@@/grid.png" alt="  ">', "![grid](../images/grid.png)",
         "an image without alt text (grid.png)"),
        ('<img src="@@PLUGINFILE@@/missing.png" alt="A *chart*">', "A \\*chart\\*",
         "an image that is not in the file (missing.png)"),
        ('<img src="https://example.org/x.png" alt="Remote">', "Remote",
         "an image from elsewhere (https://example.org/x.png)"),
        ('<img src="https://example.org/chart.png">', "chart",
         "an image from elsewhere (https://example.org/chart.png)"),
        ('<img src="data:image/png;base64,AAAA" alt="Inline">', "Inline",
         "an image written into the text (data: URI)"),
    ],
)  # fmt: skip
def test_an_image_markdown_cannot_show_is_its_alt_text(
    value: str, expected: str, loss: str
) -> None:
    def path(name: str) -> str | None:
        return None if name == "missing.png" else f"../images/{name}"

    result = to_markdown(value, image_path=path)
    assert result.text == expected
    assert loss in result.losses


def test_without_image_paths_every_image_is_its_alt_text() -> None:
    result = to_markdown('<p><img src="@@PLUGINFILE@@/grid.png" alt="Grid"> x</p>')
    assert result.text == "Grid x"
    assert result.images == ()
    assert result.losses == ("an image that is not in the file (grid.png)",)


# ----------------------------------------------------------------------------------- losses


@pytest.mark.parametrize(
    ("value", "loss"),
    [
        ('<p style="color: red">x</p>', "a colour (color: red)"),
        ('<span style="background-color:#ff0">x</span>', "a background colour (background-color: #ff0)"),
        ('<span style="font-size: 20px; font-family: Arial">x</span>', "a font size (font-size: 20px)"),
        ('<span style="font-size: 20px; font-family: Arial">x</span>', "a font (font-family: Arial)"),
        ('<span style="font-weight: bold">x</span>', "a font weight (font-weight: bold)"),
        ('<p style="text-align: center">x</p>', "a text alignment (text-align: center)"),
        ('<p align="right">x</p>', "a text alignment (align=right)"),
        ('<span style="letter-spacing: 2px">x</span>', "a style (letter-spacing: 2px)"),
        ('<font color="red">x</font>', "a colour (red)"),
        ('<font face="Comic Sans MS">x</font>', "a font (Comic Sans MS)"),
        ('<font size="5">x</font>', "a font size (5)"),
        ("<u>x</u>", "underlined text"),
        ("<p>H<sub>2</sub>O</p>", "a subscript (2)"),
        ("<p>x<sup>n+1</sup></p>", "a superscript (n+1)"),
        ("<mark>x</mark>", "highlighted text"),
        ("<center>x</center>", "centred text"),
        ("<dl><dt>t</dt><dd>d</dd></dl>", "a definition list (made paragraphs)"),
        ('<table><tr><td colspan="2">a</td></tr><tr><td>b</td><td>c</td></tr></table>',
         "a table with merged cells"),
        ('<table><tr><th>a</th><th>b</th></tr><tr><td rowspan="2">b</td><td>c</td></tr></table>',
         "a table with merged cells"),
        ("<table><tr><td>a</td></tr></table>", "a table without a header row (given an empty one)"),
        ("<table><tr><th>h</th></tr><tr><td><table><tr><td>in</td></tr></table></td></tr></table>",
         "a table inside a table cell (made one line)"),
        ("<table><tr><th>h</th></tr><tr><td><ul><li>a</li><li>b</li></ul></td></tr></table>",
         "a list inside a table cell (made one line)"),
        ("<table><tr><th>h</th></tr><tr><td><p>a</p><p>b</p></td></tr></table>",
         "a paragraph break inside a table cell (made one line)"),
        ("<table><tr><th>h</th></tr><tr><td>a<br>b</td></tr></table>",
         "a line break inside a table cell (made one line)"),
        ("<table><caption>Cap</caption><tr><th>h</th></tr></table>", "a table's caption (made a paragraph)"),
        ("<h2>a<br>b</h2>", "a line break inside a heading (made one line)"),
        ('<iframe src="https://www.youtube.com/embed/x"></iframe>',
         "an embedded page (https://www.youtube.com/embed/x)"),
        ('<video controls><source src="clip.mp4"></video>', "a video (clip.mp4)"),
        ('<audio src="a.mp3"></audio>', "an audio clip (a.mp3)"),
        ('<object data="x.swf"></object>', "an embedded object (x.swf)"),
        ('<embed src="x.pdf">', "an embedded object (x.pdf)"),
        ("<script>alert(1)</script>", "a script (dropped)"),
        ("<style>p { color: red }</style>", "a style sheet (dropped)"),
        ('<form action="/x"><input name="a"></form>', "a form (dropped)"),
        ('<input type="text">', "a form field (dropped)"),
        ("<svg><circle r='1'/></svg>", "an SVG drawing (dropped)"),
        ("<blink>x</blink>", "blinking text"),
        ('<abbr title="Graphics Processing Unit">GPU</abbr>', "an abbreviation's title (Graphics Processing Unit)"),
        ('<img src="@@PLUGINFILE@@/g.png" alt="g" style="width: 50%">', "a size (width: 50%)"),
        ('<a href="https://x.org"><p>a</p><p>b</p></a>', "a link around several blocks (https://x.org)"),
        ("<custom-widget>x</custom-widget>", "a <custom-widget> element (kept its text)"),
        ("<p><strong>Note:</strong>text</p>", "bold text that Markdown cannot mark there (Note:)"),
        ('<a href="javascript:alert(1)">x</a>', "a link that is not http, https or mailto (javascript:alert(1))"),
        ('<a href="/course/view.php?id=2">x</a>', "a link that is not http, https or mailto (/course/view.php?id=2)"),
        ('<a href="@@PLUGINFILE@@/notes%201.pdf">notes</a>', "a link to a file of the question (notes 1.pdf)"),
        ("<math><mi>x</mi></math>", "a MathML formula without its TeX (kept its text)"),
    ],
)  # fmt: skip
def test_what_markdown_cannot_say_is_reported(value: str, loss: str) -> None:
    assert loss in losses(value)


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("<script>alert(1)</script><p>kept</p>", "kept"),
        ('<iframe src="x">fallback</iframe>after', "after"),
        ("<p>a <u>b</u> c</p>", "a b c"),
        ('<p><a href="javascript:x()">text</a></p>', "text"),
        ("<table><tr><th>h</th></tr><tr><td><ul><li>a</li><li>b</li></ul></td></tr></table>",
         "| h |\n| --- |\n| a b |"),
        ('<math display="block"><semantics><mi>x</mi>'
         '<annotation encoding="application/x-tex">x^2</annotation></semantics></math>',
         "$$\nx^2\n$$"),
        ('<p>so <math><semantics><mi>x</mi><annotation encoding="TeX">x</annotation>'
         "</semantics></math></p>", "so $x$"),
    ],
)  # fmt: skip
def test_what_is_lost_leaves_the_rest(value: str, expected: str) -> None:
    assert md(value) == expected


def test_each_loss_is_said_once_in_the_order_found() -> None:
    result = to_markdown(
        '<p style="color: red">a</p><p style="color: red">b</p><u>c</u><u>d</u>'
        '<p style="color: blue">e</p>'
    )
    assert result.losses == ("a colour (color: red)", "underlined text", "a colour (color: blue)")


def test_what_changes_nothing_is_no_loss() -> None:
    """Moodle's editor writes `dir="ltr" style="text-align: left;"` on every paragraph."""
    value = (
        '<div class="editor-indent"><p dir="ltr" style="text-align: left;">x</p>'
        '<p style="direction: rtl; font-weight: normal">y</p><span class="nolink">z</span></div>'
    )
    result = to_markdown(value)
    assert result.losses == ()
    assert result.text == "x\n\ny\n\nz"


# ----------------------------------------------------------------------------------- inline


@pytest.mark.parametrize(
    ("value", "expected", "lost"),
    [
        ("<b>x</b> y", "**x** y", ()),
        ("<p>one paragraph</p>", "one paragraph", ()),
        ('<div lang="ur" dir="rtl"><p>متن</p></div>', "متن", ()),
        ("<p>a</p><p>b</p>", "a b", ("a paragraph break (made one line)",)),
        ("one<br>two", "one two", ("a line break (made one line)",)),
        ("one<br>", "one", ()),
        ("<ul><li>a</li><li>b</li></ul>", "a b", ("a list (made one line)",)),
        ("<table><tr><th>a</th><th>b</th></tr><tr><td>1</td><td>2</td></tr></table>", "a b 1 2",
         ("a table (made one line)",)),
        ("<h3>Title</h3>", "Title", ("a heading (made one line)",)),
        ("<blockquote>q</blockquote>", "q", ("a block quote (made one line)",)),
        ("<pre>a\nb</pre>", "`a b`", ("a code block (made one line)",)),
        ("<p># not a heading</p>", "\\# not a heading", ()),
        ("<p>\\[x\\]</p>", "$$x$$", ()),
    ],
)  # fmt: skip
def test_an_inline_text_is_one_line(value: str, expected: str, lost: tuple[str, ...]) -> None:
    result = to_markdown(value, inline=True)
    assert result.text == expected
    assert result.losses == lost


# --------------------------------------------------------------------------------- escaping

TRICKY = [
    "*a*", "**a**", "_a_", "a_b_c", "__init__", "2 * 3 * 4", "a*b*c", "snake_case and *",
    "# h", "#h", "###### six", "####### seven", "- x", "+ x", "* x", "-x", "1. x", "1) x",
    "10. x", "1234567890. x", "> q", ">q", "---", "***", "___", "===", "- - -", "= = =",
    "[x](https://example.org)", "[x]: https://example.org", "[x][y]", "[[1]]", "![a](b.png)",
    "[a]", "]([", "`code`", "``", "` a `", "$5", "$x$", "$$x$$", "\\(x\\)", "\\[x\\]",
    "\\", "a\\", "\\*", "\\\\", "\\a", "<https://x.org>", "<a@b.c>", "<b>bold</b>", "< b",
    "&amp;", "&copy;", "&#35;", "&#x41;", "AT&T", "&", "~~x~~", "~x~", "~~~", "```",
    "|a|b|", "a | b", "<!-- c -->", "tab\there", "a  b", "x_", "_x", "(x)", "[x](y",
    "**", "*", "_", "~", "|", "!", "#", ">", "=", "-", "+", "1.", "1)", "@@PLUGINFILE@@/x.png",
    "{mlang en}", "{1:SA:=x}", "https://example.org/a_b_c", "a_*b*_c", "*_a_*", "2*3", "x*",
    "متن *ستارہ* متن", "متن_متن", "\u00e9_\u00e9", "‘quotes’ and “more”",
]  # fmt: skip


def _shown(rendered: str) -> str:
    """The characters an HTML fragment of paragraphs and line breaks shows."""
    tags = set(re.findall(r"</?([a-z0-9]+)", rendered))
    assert tags <= {"p", "br"}, rendered
    return " ".join(html.unescape(re.sub(r"<[^>]*>", " ", rendered)).split())


@pytest.mark.parametrize("text", TRICKY)
def test_plain_text_shows_every_character(text: str) -> None:
    for inline in (False, True):
        result = md(text, plain=True, inline=inline)
        assert _shown(to_html(result, inline=inline)) == " ".join(text.split()), result


def _tex(text: str) -> bool:
    """Whether a text has Moodle's TeX delimiters (which make it a formula in HTML)."""
    return "\\(" in text or "\\[" in text or "$$" in text


@pytest.mark.parametrize("text", [text for text in TRICKY if not _tex(text)])
def test_text_of_html_shows_every_character(text: str) -> None:
    for value in (
        html.escape(text),
        f"<p>{html.escape(text)}</p>",
        f"<p>x<br>{html.escape(text)}</p>",
    ):
        result = md(value)
        shown = _shown(to_html(result))
        assert shown == " ".join(
            html.unescape(re.sub("<br>", " ", value.replace("<p>", ""))).replace("</p>", "").split()
        ), result


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2 * 3", "2 * 3"),
        ("snake_case_name", "snake_case_name"),
        ("[[1]] and [x]", "[[1]] and [x]"),
        ("AT&T <b>", "AT&T <b>"),
        ("a ~ b", "a ~ b"),
        ("a | b", "a | b"),
        ("email a@b.c", "email a@b.c"),
        ("1.5 and 2) x", "1.5 and 2) x"),
        ("C# - x + y", "C# - x + y"),
        ("Fill in ___ here", "Fill in ___ here"),
        ("It resumes from the ___.", "It resumes from the ___."),
        ("___ comes first, then _____", "___ comes first, then _____"),
        ("a ___b and c___ d", "a \\_\\_\\_b and c\\_\\_\\_ d"),  # emphasis unescaped
    ],
)
def test_only_what_could_be_markup_is_escaped(text: str, expected: str) -> None:
    assert md(text, plain=True) == expected
    assert md(f"<p>{html.escape(text)}</p>") == expected


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ab 1.\n*_`$\\[]()<>&#|~!-+=:;@{}é")), max_size=40))
def test_any_plain_text_shows_every_character(text: str) -> None:
    for inline in (False, True):
        result = md(text, plain=True, inline=inline)
        assert _shown(to_html(result, inline=inline)) == " ".join(text.split()), result
        if inline:
            assert "\n" not in result


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ab 1.*_`$\\[]()<>&#|~!-+=:;@é")), max_size=30))
def test_any_text_between_tags_shows_every_character(text: str) -> None:
    """Text split by elements Markdown has no syntax for (`<span>`) or with (`<b>`)."""
    assume(not _tex(text))
    half = len(text) // 2
    value = f"<p>{html.escape(text[:half])}<span>{html.escape(text[half:])}</span></p>"
    assert _shown(to_html(md(value))) == " ".join(text.split())
    value = f"<p>{html.escape(text[:half])}<b>x</b>{html.escape(text[half:])}</p>"
    rendered = to_html(md(value)).replace("<strong>", "").replace("</strong>", "")
    assert _shown(rendered) == " ".join(f"{text[:half]}x{text[half:]}".split())


# ---------------------------------------------------------------------------------- formats


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("line one\nline two\n\nnew paragraph", "line one\\\nline two\n\nnew paragraph"),
        ("with <b>HTML</b>\nand a break", "with **HTML** and a break"),
        ("a *b* \\(x\\)", "a \\*b\\* $x$"),
        ("<p>a</p>\n\n<p>b</p>", "a\n\nb"),
    ],
)
def test_moodle_auto_format(value: str, expected: str) -> None:
    """FORMAT_MOODLE: HTML allowed, blank lines paragraphs, other newlines line breaks (beside
    a tag, a space, as Moodle's text_to_html makes them)."""
    assert md(value, "moodle") == expected


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("<b>not bold</b> & *not em*", "<b>not bold</b> & \\*not em\\*"),
        ("line one\nline two\n\n\npara", "line one\\\nline two\n\npara"),
        ("  # indented\n    four", "\\# indented\\\nfour"),
        ("\\(x\\) $5", "\\\\(x\\\\) \\$5"),
    ],
)
def test_plain_format(value: str, expected: str) -> None:
    """FORMAT_PLAIN: every character is text; the same as `plain`."""
    assert md(value, "plain") == expected
    assert md(value, "html", plain=True) == expected


@pytest.mark.parametrize(
    ("value", "expected", "lost"),
    [
        ("*em* and `code $x$` and \\(x^2\\)", "*em* and `code $x$` and $x^2$", ()),
        ("\\\\(x\\\\) and \\\\[y\\\\] and $$z$$", "$x$ and $$y$$ and $$z$$", ()),
        ("costs $5 or \\$6", "costs \\$5 or \\$6", ()),
        ("```\n$x$ \\(y\\)\n```\nafter $1", "```\n$x$ \\(y\\)\n```\nafter \\$1", ()),
        ("![Grid](@@PLUGINFILE@@/grid.png) and ![](@@PLUGINFILE@@/a%20b.png)",
         "![Grid](../images/grid.png) and ![a b](<../images/a b.png>)",
         ("an image without alt text (a b.png)",)),
        ("<b>raw</b> html", "<b>raw</b> html", ("raw HTML (shown as text)",)),
        ("`<b>` in code", "`<b>` in code", ()),
    ],
)  # fmt: skip
def test_markdown_format(value: str, expected: str, lost: tuple[str, ...]) -> None:
    """FORMAT_MARKDOWN: kept as written, but for the formulas' delimiters, a lone `$`, and the
    images of the question's files."""
    result = to_markdown(value, "markdown", image_path=_in_file)
    assert result.text == expected
    assert result.losses == lost


def test_markdown_format_inline_is_one_line() -> None:
    result = to_markdown("one\ntwo", "markdown", inline=True)
    assert (result.text, result.losses) == ("one two", ("a line break (made one line)",))


def test_markdown_is_a_frozen_value() -> None:
    result = to_markdown("<p>x</p>")
    assert result == Markdown("x", (), ())
    with pytest.raises(AttributeError):
        result.text = "y"  # type: ignore[misc]


# ---------------------------------------------------------------------------------- hostile


def _timed(call: Callable[[], Markdown]) -> tuple[Markdown, float]:
    start = time.perf_counter()
    result = call()
    return result, time.perf_counter() - start


def test_too_many_tags_are_read_as_plain_text() -> None:
    """100,000 nested tags: no tree is built, no recursion, the text kept."""
    value = "<div><span>" * 50_000 + "deep &amp; down" + "</span></div>" * 50_000
    result, seconds = _timed(lambda: to_markdown(value))
    assert result.text == "deep & down"
    assert result.losses == (f"a text of more than {MAX_TAGS:,} tags (kept as plain text)",)
    assert seconds < 10


def test_deep_nesting_is_flattened_without_recursion() -> None:
    depth = MAX_TAGS - 10
    value = "<div><b>" * (depth // 2) + "x *y*" + "</b></div>" * (depth // 2) + "<p>after</p>"
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(400 + MAX_DEPTH * 4)  # what the walk needs, whatever the depth
    try:
        result, seconds = _timed(lambda: to_markdown(value))
    finally:
        sys.setrecursionlimit(limit)
    assert "x \\*y\\*" in result.text
    assert result.text.endswith("\n\nafter")
    assert f"markup nested more than {MAX_DEPTH} deep (flattened to its text)" in result.losses
    assert seconds < 10


@pytest.mark.parametrize(
    ("value", "format"),
    [
        ("<p>" + "word " * 1_000_000 + "</p>", "html"),
        ("*_`$[](\\" * 600_000, "html"),
        ("\\(" * 2_500_000, "html"),
        ("$$" * 2_500_000, "markdown"),
        ("`a" * 2_500_000, "markdown"),
        ("a < b " * 800_000, "html"),
        ("<span>x</span>" * (MAX_TAGS - 1), "html"),
        ("\n#" * 2_500_000, "plain"),
    ],
    ids=["words", "specials", "openers", "dollars", "backticks", "less-than", "spans", "lines"],
)
def test_megabytes_of_text_take_seconds(value: str, format: Any) -> None:
    result, seconds = _timed(lambda: to_markdown(value, format))
    assert len(result.text) <= 3 * len(value)
    assert seconds < 30


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("`torch.save`", "`torch.save`"),
        ("`a` then ``b`c`` and `d", "`a` then ``b`c`` and \\`d"),  # an unclosed run is text
        ("``a` *b*", "\\`\\`a\\` \\*b\\*"),
        ("a\\`b`", "a\\\\`b`"),
    ],
)
def test_a_match_keeps_its_code_spans(text: str, expected: str) -> None:
    """A match of a Moodle XML file (`code`): its code spans, as quizbank's export writes a
    match's code, are code; every other character is shown as it is."""
    assert md(text, plain=True, inline=True, code=True) == expected


def test_a_match_of_many_unclosed_backtick_runs_reads_in_linear_time() -> None:
    text = " ".join("`" * n + "x" for n in range(1, 400))  # no run closes: 80,000 backticks
    assert md(text, plain=True, inline=True, code=True).count("\\`") == text.count("`")
