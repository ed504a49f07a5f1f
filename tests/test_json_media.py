"""Images and formulas in the JSON export: each text keeps its Markdown and has HTML with the
image's relative path and MathML; each file lists its images, copied beside it."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any

import pytest
from conftest import REPO
from jsonschema import Draft202012Validator

from quizbank.build import BuildRequest, build
from quizbank.registry import discover_renderers

MEDIA = REPO / "tests" / "fixtures" / "media"


@pytest.fixture(scope="module")
def exports(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("media") / "dist"
    request = BuildRequest(paths=[MEDIA], out_dir=out, formats=["json"])
    assert not build(request, discover_renderers()).report.has_errors
    return out / "json"


def _load(exports: Path, lang: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((exports / lang / "media.json").read_text("utf-8"))
    return data


def _texts(node: Any) -> list[dict[str, str]]:
    """Every text ({markdown, html}) of an export."""
    if isinstance(node, dict):
        if set(node) == {"markdown", "html"}:
            return [node]
        return [text for value in node.values() for text in _texts(value)]
    if isinstance(node, list):
        return [text for value in node for text in _texts(value)]
    return []


@pytest.mark.parametrize("lang", ["en", "ur"])
def test_the_export_with_images_meets_its_schema(exports: Path, lang: str) -> None:
    schema = json.loads((exports / "schema.json").read_text("utf-8"))
    Draft202012Validator(schema).validate(_load(exports, lang))


@pytest.mark.parametrize("lang", ["en", "ur"])
def test_each_listed_image_is_copied_beside_the_file(exports: Path, lang: str) -> None:
    images = _load(exports, lang)["images"]
    assert [image["src"] for image in images] == ["../images/shards.svg", "../images/grid.png"]
    for image in images:
        copy = exports / image["path"]
        assert copy == (exports / lang / image["src"]).resolve()
        data = copy.read_bytes()
        assert data == (MEDIA / "images" / copy.name).read_bytes()
        assert image["size"] == len(data)
        assert image["sha256"] == hashlib.sha256(data).hexdigest()
    assert {image["media_type"] for image in images} == {"image/svg+xml", "image/png"}


@pytest.mark.parametrize("lang", ["en", "ur"])
def test_every_image_in_the_html_is_listed(exports: Path, lang: str) -> None:
    data = _load(exports, lang)
    listed = {image["src"] for image in data["images"]}
    shown = {
        src for text in _texts(data) for src in re.findall(r'<img src="([^"]*)"', text["html"])
    }
    assert shown == listed


def test_formulas_are_mathml_with_their_tex_and_markdown_as_written(exports: Path) -> None:
    data = _load(exports, "en")
    prompt = data["questions"][1]["prompt"]
    assert prompt["markdown"].endswith("$4 + 2 \\times 4$?")
    assert '<math xmlns="http://www.w3.org/1998/Math/MathML" display="inline"' in prompt["html"]
    assert 'alttext="4 + 2 \\times 4" aria-label="4 + 2 \\times 4" dir="ltr"' in prompt["html"]
    explanation = data["questions"][1]["explanation"]["html"]
    assert 'display="block" alttext="b = 4 + 2 \\times 4 = 12" aria-label=' in explanation
    assert "it costs $5 and $7, and $3 too." in explanation  # money, and `\$` as a `$`


def test_an_export_without_images_lists_none(exports: Path, tmp_path: Path) -> None:
    out = tmp_path / "dist"
    types = REPO / "tests" / "fixtures" / "types"
    request = BuildRequest(paths=[types], out_dir=out, formats=["json"])
    assert not build(request, discover_renderers()).report.has_errors
    data = json.loads((out / "json" / "en" / "every-type.json").read_text("utf-8"))
    assert data["images"] == []
    assert not (out / "json" / "images").exists()
