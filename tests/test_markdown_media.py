"""Images and formulas in the Markdown export, read back as a Markdown host with maths reads
it (CommonMark with `$` maths, as GitHub and GitLab render them)."""

from __future__ import annotations

import shutil
from pathlib import Path, PurePosixPath
from typing import Any

import pytest
from conftest import REPO
from markdown_it import MarkdownIt
from mdit_py_plugins.dollarmath import dollarmath_plugin
from quizbank_renderers.markdown_guards import safe_markdown

from quizbank.build import BuildRequest, build
from quizbank.loader import load_quiz
from quizbank.markup import find_formulas
from quizbank.model import text_fields
from quizbank.registry import discover_renderers

MEDIA = REPO / "tests" / "fixtures" / "media"
HOST = MarkdownIt("commonmark", {"html": True}).enable("table")
HOST.use(dollarmath_plugin, allow_space=False, allow_digits=False, double_inline=True)
MATH = ("math_inline", "math_inline_double", "math_block")


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("media") / "dist"
    request = BuildRequest(paths=[MEDIA], out_dir=out, formats=["markdown"])
    assert not build(request, discover_renderers()).report.has_errors
    return out / "markdown"


def _tokens(markdown: str) -> list[Any]:
    found: list[Any] = []
    for token in HOST.parse(markdown):
        found += [token, *(token.children or [])]
    return found


@pytest.mark.parametrize("lang", ["en", "ur"])
def test_every_image_link_finds_its_copy(pages: Path, lang: str) -> None:
    page = pages / lang / "media.md"
    sources = [t.attrGet("src") for t in _tokens(page.read_text("utf-8")) if t.type == "image"]
    assert len(sources) == 3  # the diagram, and the picture in the key's feedback and table
    for src in sources:
        copy = (page.parent / str(src)).resolve()
        original = MEDIA / lang / str(src)
        assert copy.read_bytes() == original.read_bytes(), src


@pytest.mark.parametrize("lang", ["en", "ur"])
def test_every_formula_reads_back_as_the_author_wrote_it(pages: Path, lang: str) -> None:
    quiz = load_quiz(MEDIA / lang / "media.yaml").quiz
    assert quiz is not None
    written = {tex for _, text in text_fields(quiz) for tex, _ in find_formulas(text)}
    page = (pages / lang / "media.md").read_text("utf-8")
    read = {t.content.strip() for t in _tokens(page) if t.type in MATH}
    assert read == written
    assert not any("5 and" in tex for tex in read)  # `$5 and $7` is money


def test_a_diagram_opening_a_prompt_goes_below_its_heading(pages: Path) -> None:
    """Below a heading that names the question: never an empty `## 1.` (issue 26, item 17)."""
    page = (pages / "en" / "media.md").read_text("utf-8")
    diagram = "![Three shard files listed by one index file](../images/shards.svg)"
    assert f"## Question 1\n\n{diagram}\n" in page


def test_a_less_than_sign_in_a_formula_is_tex_not_html() -> None:
    """As `&lt;` a host's maths would show the entity; as `<`, a host without maths reads HTML."""
    exported = safe_markdown("If $a<b$ and `$x<y$` then <b> costs $5 < $7")
    assert exported == "If $a\\lt b$ and `$x<y$` then &lt;b> costs $5 &lt; $7"
    tokens = _tokens(exported)
    assert [t.content for t in tokens if t.type in MATH] == ["a\\lt b"]
    assert not [t for t in tokens if t.type in ("html_inline", "html_block")]


def test_urdu_isolates_a_formula_whole_outside_its_dollars(pages: Path) -> None:
    page = (pages / "ur" / "media.md").read_text("utf-8")
    assert "\u2066$\\frac{3}{2}$\u2069 شارڈز" in page
    for token in _tokens(page):
        if token.type in MATH:
            assert "\u2066" not in token.content and "\u2069" not in token.content


def test_images_land_where_the_quiz_files_keep_them(pages: Path) -> None:
    files = {PurePosixPath(p.relative_to(pages).as_posix()) for p in pages.rglob("*.*")}
    assert files == {
        PurePosixPath(name)
        for name in ("en/media.md", "ur/media.md", "images/shards.svg", "images/grid.png")
    }


def test_a_language_s_own_images_folder_is_copied_under_its_language(tmp_path: Path) -> None:
    content = tmp_path / "content"
    shutil.copytree(MEDIA, content)
    (content / "ur" / "images").mkdir()
    shutil.copy(MEDIA / "images" / "grid.png", content / "ur" / "images" / "grid.png")
    quiz = content / "ur" / "media.yaml"
    text = quiz.read_text("utf-8").replace("](../images/grid.png)", "](images/grid.png)")
    quiz.write_text(text, "utf-8")
    out = tmp_path / "dist"
    request = BuildRequest(paths=[content], out_dir=out, formats=["markdown"])
    assert not build(request, discover_renderers()).report.has_errors
    assert (out / "markdown" / "ur" / "images" / "grid.png").is_file()
    assert "](images/grid.png)" in (out / "markdown" / "ur" / "media.md").read_text("utf-8")
