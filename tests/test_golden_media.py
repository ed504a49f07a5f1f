"""Golden outputs: one image and one formula, as each format writes them, compared with the
files in tests/golden/ that were read and checked by eye (and by the real consumers: Chromium,
the real Moodle, a CommonMark reader, the JSON Schema). A change in how any format writes
images or formulas shows here as a diff. After a deliberate change, write them again with
`QUIZBANK_UPDATE_GOLDEN=1 pytest tests/test_golden_media.py` and read the diff."""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from pathlib import Path

import lxml.html
import pytest
from conftest import REPO

from quizbank.build import BuildRequest, build
from quizbank.registry import discover_renderers

SOURCE = REPO / "tests" / "fixtures" / "golden"
GOLDEN = REPO / "tests" / "golden"


@pytest.fixture(scope="module")
def out(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("golden") / "dist"
    request = BuildRequest(paths=[SOURCE], out_dir=folder, options=["json.indent=2"])
    assert not build(request, discover_renderers()).report.has_errors
    return folder


def _html_question(page: str) -> str:
    """The page's first question, as the renderer wrote it (the page's styles and script
    aside, which have goldens of their own: the tests of the HTML page)."""
    tree = lxml.html.fromstring(page)
    [question] = tree.xpath("(//*[contains(concat(' ', @class, ' '), ' question ')])[1]")
    return str(lxml.html.tostring(question, encoding="unicode"))


def _json(text: str) -> str:
    """The export with its writer's version left out: a release changes only that."""
    return re.sub(r'"quizbank_version": "[^"]*"', '"quizbank_version": "…"', text)


FORMATS: dict[str, tuple[str, Callable[[str], str]]] = {
    "golden.md": ("markdown/en/golden.md", str),
    "golden.json": ("json/en/golden.json", _json),
    "golden.xml": ("moodle/en/golden.xml", str),
    "golden-question.html": ("html/en/golden.html", _html_question),
}


@pytest.mark.parametrize("golden", FORMATS)
def test_each_format_writes_the_image_and_formulas_as_its_golden_file(
    out: Path, golden: str
) -> None:
    path, part = FORMATS[golden]
    written = part((out / path).read_text("utf-8"))
    expected = GOLDEN / golden
    if os.environ.get("QUIZBANK_UPDATE_GOLDEN"):
        expected.write_text(written, "utf-8")
    assert written == expected.read_text("utf-8")
