"""Images in a build: copied beside the exports that link them, known to the build cache (an
edited image rebuilds the quizzes that use it and nothing else), and a missing one stops the
build before anything is written."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from conftest import REPO

from quizbank.build import BuildRequest, BuildResult, build
from quizbank.registry import discover_renderers

MEDIA = REPO / "tests" / "fixtures" / "media"
TYPES = REPO / "tests" / "fixtures" / "types"
FORMATS = ("markdown", "json")
BANK_FILES = 1  # json/schema.json, written by every build


@pytest.fixture
def content(tmp_path: Path) -> Path:
    """The media quiz, which shows images, beside the every-type quiz, which shows none."""
    root = tmp_path / "content"
    shutil.copytree(MEDIA, root)
    for lang in ("en", "ur"):
        shutil.copy(TYPES / lang / "every-type.yaml", root / lang)
    return root


def _build(content: Path, out: Path, **kwargs: Any) -> BuildResult:
    request = BuildRequest(paths=[content], out_dir=out, formats=FORMATS, **kwargs)
    return build(request, discover_renderers())


def test_each_image_is_copied_once_beside_each_export(content: Path, tmp_path: Path) -> None:
    out = tmp_path / "dist"
    assert not _build(content, out).report.has_errors
    for name in FORMATS:
        for image in ("shards.svg", "grid.png"):
            copy = out / name / "images" / image
            assert copy.read_bytes() == (content / "images" / image).read_bytes()
        pages = sorted(p.relative_to(out / name).as_posix() for p in (out / name).rglob("*.*"))
        assert "images/grid.png" in pages and "images/shards.svg" in pages


def test_an_edited_image_rebuilds_only_the_quizzes_that_use_it(
    content: Path, tmp_path: Path
) -> None:
    out = tmp_path / "dist"
    first = _build(content, out)
    assert first.reused == 0
    unchanged = _build(content, out)
    assert (unchanged.written, unchanged.reused) == (BANK_FILES, first.written - BANK_FILES)
    grid = content / "images" / "grid.png"
    from PIL import Image  # the fixture's picture, redrawn

    Image.new("RGB", (60, 40), "red").save(grid)
    again = _build(content, out)
    # The media quiz: two pages and two images in each format; the every-type quiz is reused.
    assert again.written == BANK_FILES + 2 * (2 + 2), again
    assert again.reused == 2 * 2
    assert (out / "markdown" / "images" / "grid.png").read_bytes() == grid.read_bytes()


def test_a_deleted_image_stops_the_build_and_keeps_the_last_export(
    content: Path, tmp_path: Path
) -> None:
    out = tmp_path / "dist"
    _build(content, out)
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    (content / "images" / "grid.png").unlink()
    result = _build(content, out)
    assert result.report.has_errors
    messages = [d.message for d in result.report.diagnostics]
    assert "there is no image at content/images/grid.png" in messages
    assert {p: p.read_bytes() for p in out.rglob("*") if p.is_file()} == before


def test_the_size_limit_is_part_of_what_a_cached_build_checked(
    content: Path, tmp_path: Path
) -> None:
    """A build with a lower limit checks again (and fails) rather than reusing a build that a
    higher limit let through."""
    out = tmp_path / "dist"
    assert not _build(content, out).report.has_errors
    strict = _build(content, out, max_image_bytes=1024)
    assert strict.report.has_errors
    assert any("over the limit of 1 KiB" in d.message for d in strict.report.diagnostics)
