"""Issue 32, items 1, 2 and 7 (pixels): an SVG is decided on its parsed tree whatever its
encoding, its CSS read as a browser reads it (escapes undone), a link's animation refused, and a
raster image's pixels counted before it is decoded; ordinary drawings keep passing."""

from __future__ import annotations

import base64
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import CONTENT, REPO, Run, edit, line_of
from hostile_svgs import Hostile, hostile_svgs, ordinary_svgs
from PIL import Image as PillowImage

from quizbank.cli import main
from quizbank.images import SVG, ImageError, check_image

MEDIA = REPO / "tests" / "fixtures" / "media"
EN = Path("content/en/media.yaml")
DIAGRAM = "](../images/shards.svg)"
HOSTILE = hostile_svgs("http://127.0.0.1:9/")
REFUSED = "is refused: it holds "


@pytest.fixture
def media_bank(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The media fixture (quizzes and images) as content/ in a temporary working folder."""
    shutil.copytree(MEDIA, tmp_path / "content")
    monkeypatch.chdir(tmp_path)
    return tmp_path / "content"


@pytest.mark.parametrize("svg", HOSTILE, ids=lambda svg: svg.name)
def test_each_hostile_svg_is_refused_saying_what_it_holds(svg: Hostile) -> None:
    with pytest.raises(ImageError) as refused:
        check_image(svg.data, ".svg", f"content/images/{svg.name}")
    message = str(refused.value)
    assert message.startswith(f"content/images/{svg.name} {REFUSED}"), message
    assert svg.reason in message
    assert message.endswith("quizbank does not change drawings, so remove it from the file")


@pytest.mark.parametrize("svg", HOSTILE, ids=lambda svg: svg.name)
def test_validate_reports_a_hostile_svg_at_the_line_that_shows_it(
    media_bank: Path, cli: Callable[..., Run], svg: Hostile
) -> None:
    (media_bank / "images" / svg.name).write_bytes(svg.data)
    edit(EN, DIAGRAM, f"](../images/{svg.name})")
    run = cli("validate")
    assert run.code == 1, run.out
    [error] = [line for line in run.out.splitlines() if ": error: " in line]
    line = line_of(EN, svg.name)
    assert error.startswith(f"{EN}:{line}:"), error
    assert f"question 1 (diagram), prompt: content/images/{svg.name} {REFUSED}" in error
    assert svg.reason in error


def _moodle_file(path: Path, images: dict[str, bytes]) -> Path:
    questions = "".join(
        f'<question type="truefalse"><name><text>{name}</text></name>'
        '<questiontext format="html"><text><![CDATA[<p>Is this a grid?</p>'
        f'<p><img src="@@PLUGINFILE@@/{name}" alt="A grid"></p>]]></text>'
        f'<file name="{name}" path="/" encoding="base64">{base64.b64encode(data).decode()}'
        "</file></questiontext>"
        '<answer fraction="100"><text>true</text></answer>'
        '<answer fraction="0"><text>false</text></answer></question>'
        for name, data in images.items()
    )
    path.write_text(f'<?xml version="1.0"?><quiz>{questions}</quiz>', encoding="utf-8")
    return path


def test_import_leaves_each_hostile_svg_out_with_the_reason(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = _moodle_file(tmp_path / "hostile.xml", {svg.name: svg.data for svg in HOSTILE})
    content = tmp_path / "content"
    code = main(["import", str(source), "-o", str(content), "--lang", "en"])
    out = capsys.readouterr().out
    assert code == 1, out
    for svg in HOSTILE:
        [line] = [line for line in out.splitlines() if f"kept: {svg.name} " in line]
        assert f"an image left out, its alt text kept: {svg.name} {REFUSED}" in line
        assert svg.reason in line
    assert not (content / "images").exists()
    assert main(["validate", str(content)]) == 0


@pytest.mark.parametrize(
    "path",
    [*sorted((CONTENT / "images").glob("*.svg")), *sorted((MEDIA / "images").glob("*.svg"))],
    ids=lambda path: path.name,
)
def test_the_bundled_and_fixture_drawings_pass(path: Path) -> None:
    assert check_image(path.read_bytes(), ".svg", path.name) == SVG


@pytest.mark.parametrize(("name", "data"), ordinary_svgs().items())
def test_an_ordinary_drawing_passes_in_any_encoding_a_tool_writes(name: str, data: bytes) -> None:
    assert check_image(data, ".svg", name) == SVG


@pytest.mark.parametrize(
    ("svg", "message"),
    [
        ("<svg xmlns='http://www.w3.org/2000/svg'><rect>", "is not well-formed SVG"),
        ("<svg xmlns='http://example.org/not-svg'/>", "is XML but not SVG"),
        ("<svg xmlns='http://www.w3.org/2000/svg'>&nbsp;</svg>", "is not well-formed SVG"),
    ],
)
def test_a_drawing_that_is_not_plain_svg_says_so_in_utf16_too(svg: str, message: str) -> None:
    with pytest.raises(ImageError, match=message):
        check_image(("\ufeff" + svg).encode("utf-16-le"), ".svg", "x.svg")


def test_an_svg_in_an_encoding_browsers_read_otherwise_is_refused() -> None:
    svg = "<?xml version='1.0' encoding='UTF-32'?><svg xmlns='http://www.w3.org/2000/svg'/>"
    with pytest.raises(ImageError) as refused:
        check_image(("\ufeff" + svg).encode("utf-32-le"), ".svg", "x.svg")
    assert str(refused.value) == (
        "x.svg is written in 'UTF-32', which browsers may read differently from quizbank: save "
        "it as UTF-8"
    )


def test_an_image_of_too_many_pixels_is_refused_before_it_is_decoded_without_a_warning(
    media_bank: Path, tmp_path: Path
) -> None:
    PillowImage.new("1", (12000, 12000)).save(media_bank / "images" / "huge.png")
    edit(EN, DIAGRAM, "](../images/huge.png)")
    run = subprocess.run(
        [sys.executable, "-W", "default", "-m", "quizbank", "validate"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 1, run.stdout
    assert "Warning" not in run.stderr and "warning" not in run.stderr.lower(), run.stderr
    assert (
        "content/images/huge.png is 12000 by 12000 pixels (144,000,000), over the limit of "
        "50,000,000 pixels: make it smaller" in run.stdout
    ), run.stdout
