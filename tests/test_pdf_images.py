"""Images on paper: every image a quiz may hold (PNG, JPEG, GIF, WebP, and SVG in any encoding
quizbank accepts) is drawn in the PDF, rasters as their pixels, SVG as vectors."""

from __future__ import annotations

import io
import shutil
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import REPO, Run
from PIL import Image
from pypdf import PdfReader

pytestmark = pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="needs poppler-utils")

RED = (200, 30, 30)
SVG = (
    '<?xml version="1.0" encoding="{encoding}"?>\n'
    '<svg xmlns="http://www.w3.org/2000/svg" width="80" height="40" viewBox="0 0 80 40">'
    "<title>Un carré rouge, déjà vu</title>"
    '<rect width="80" height="40" fill="#c81e1e"/></svg>'
)


def _raster(kind: str) -> bytes:
    data = io.BytesIO()
    Image.new("RGB", (80, 40), RED).save(data, kind)
    return data.getvalue()


IMAGES = {
    "red.png": _raster("PNG"),
    "red.jpg": _raster("JPEG"),
    "red.gif": _raster("GIF"),
    "red.webp": _raster("WEBP"),
    "latin1.svg": SVG.format(encoding="ISO-8859-1").encode("latin-1"),
    "utf16.svg": SVG.format(encoding="UTF-16").encode("utf-16"),
}
QUIZ = """\
id: pictures
lang: en
title: Pictures
description: One image of each kind.
level: beginner
questions:
"""
QUESTION = """\
  - id: q{n}
    type: true_false
    prompt: |
      ![A red box]({name})

      Is the box red?
    answer: true
    explanation: It is red.
"""


def _image_objects(resources: Any) -> Iterator[Any]:
    """Every image XObject of a page's resources, inside form XObjects too (an SVG's)."""
    for xobject in (resources.get("/XObject") or {}).values():
        xobject = xobject.get_object()
        if xobject["/Subtype"] == "/Image":
            yield xobject
        elif "/Resources" in xobject:
            yield from _image_objects(xobject["/Resources"].get_object())


def _images_in(path: Path) -> list[Any]:
    return [
        image
        for page in PdfReader(path).pages
        for image in _image_objects(page["/Resources"].get_object())
    ]


def _red_pixels(path: Path, out: Path) -> int:
    """How many pixels of the pages, drawn in colour by poppler, are the images' red."""
    out.mkdir()
    subprocess.run(["pdftoppm", "-r", "30", "-png", str(path), str(out / "page")], check=True)
    count = 0
    for page in sorted(out.glob("page-*.png")):
        with Image.open(page) as image:
            pixels = image.convert("RGB").tobytes()
        count += sum(
            1
            for r, g, b in zip(pixels[0::3], pixels[1::3], pixels[2::3], strict=True)
            if abs(r - RED[0]) < 30 and g < 80 and b < 80
        )
    return count


def test_the_golden_quiz_s_png_is_drawn(cli: Callable[..., Run], tmp_path: Path) -> None:
    source = REPO / "tests" / "fixtures" / "golden"
    run = cli("build", str(source), "-f", "pdf", "-o", str(tmp_path / "out"))
    assert run.code == 0, run.err
    for name in ("golden.pdf", "golden-key.pdf"):
        assert len(_images_in(tmp_path / "out" / "pdf" / "en" / name)) == 1


def test_every_kind_of_image_is_drawn(cli: Callable[..., Run], tmp_path: Path) -> None:
    content = tmp_path / "content"
    (content / "en").mkdir(parents=True)
    for name, data in IMAGES.items():
        (content / "en" / name).write_bytes(data)
    questions = "".join(QUESTION.format(n=n, name=name) for n, name in enumerate(IMAGES))
    (content / "en" / "pictures.yaml").write_text(QUIZ + questions, "utf-8")
    run = cli("build", str(content), "-f", "pdf", "-o", str(tmp_path / "out"))
    assert run.code == 0, run.err
    exam = tmp_path / "out" / "pdf" / "en" / "pictures.pdf"
    rasters = _images_in(exam)
    assert len(rasters) == 4  # the SVGs are vectors
    assert sorted((int(i["/Width"]), int(i["/Height"])) for i in rasters) == [(80, 40)] * 4
    # Six red boxes, drawn at 30 dpi, each at its natural size: 80 by 40 CSS pixels, as a
    # browser shows them (60 by 30 points).
    box = (80 * 0.75 * 30 / 72) * (40 * 0.75 * 30 / 72)
    assert _red_pixels(exam, tmp_path / "pages") == pytest.approx(6 * box, rel=0.1)
