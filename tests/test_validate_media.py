"""Images and formulas checked before they leave: every mistake at file:line:column, in words an
author understands, with a non-zero exit code."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import REPO, Run, edit, line_of

MEDIA = REPO / "tests" / "fixtures" / "media"
EN = Path("content/en/media.yaml")
UR = Path("content/ur/media.yaml")
DIAGRAM = "![Three shard files listed by one index file](../images/shards.svg)"
SVG_HEAD = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">'


@pytest.fixture
def media_bank(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The media fixture (quizzes and images) as content/ in a temporary working folder."""
    shutil.copytree(MEDIA, tmp_path / "content")
    monkeypatch.chdir(tmp_path)
    return tmp_path / "content"


def _at(path: Path, needle: str) -> str:
    """`path:line:column` of the first occurrence of `needle`, as a diagnostic names it."""
    line = line_of(path, needle)
    column = path.read_text(encoding="utf-8").splitlines()[line - 1].index(needle) + 1
    return f"{path}:{line}:{column}"


def _errors(run: Run) -> list[str]:
    return [line for line in run.out.splitlines() if ": error: " in line]


def test_the_fixture_with_images_formulas_and_money_validates(
    media_bank: Path, cli: Callable[..., Run]
) -> None:
    run = cli("validate")
    assert run.code == 0, run.out
    assert "0 errors, 0 warnings in 2 files" in run.out


def _image_error(media_bank: Path, cli: Callable[..., Run], src: str) -> list[str]:
    """The errors once the diagram of the English prompt is `src`."""
    edit(EN, "](../images/shards.svg)", f"]({src})")
    run = cli("validate")
    assert run.code == 1, run.out
    return _errors(run)


def _only(errors: list[str], where: str, message: str) -> None:
    assert errors == [f"{where}: error: question 1 (diagram), prompt: {message}"]


def test_a_missing_image_names_the_file_it_looked_for(
    media_bank: Path, cli: Callable[..., Run]
) -> None:
    errors = _image_error(media_bank, cli, "../images/shard.svg")
    _only(errors, _at(EN, "![Three shard"), "there is no image at content/images/shard.svg")


def test_an_image_outside_the_content_folder_is_refused(
    media_bank: Path, cli: Callable[..., Run]
) -> None:
    (media_bank.parent / "secret.png").write_bytes((MEDIA / "images" / "grid.png").read_bytes())
    [error] = _image_error(media_bank, cli, "../../secret.png")
    assert error.startswith(f"{_at(EN, '![Three shard')}: error: question 1 (diagram), prompt: ")
    assert "../../secret.png leads outside the content folder" in error


def test_a_link_leading_outside_the_content_folder_is_refused(
    media_bank: Path, cli: Callable[..., Run], tmp_path: Path
) -> None:
    outside = tmp_path / "elsewhere.png"
    outside.write_bytes((MEDIA / "images" / "grid.png").read_bytes())
    os.symlink(outside, media_bank / "images" / "linked.png")
    [error] = _image_error(media_bank, cli, "../images/linked.png")
    assert "leads outside the content folder" in error


@pytest.mark.parametrize(
    ("name", "data", "message"),
    [
        (
            "grid.jpg",
            "png",
            "content/images/grid.jpg holds PNG data, not what its name says (.jpg)",
        ),
        (
            "notes.png",
            b"just some notes\n",
            "content/images/notes.png holds no image data that quizbank reads, not what its "
            "name says (.png)",
        ),
        (
            "drawing.bmp",
            b"BM",
            "content/images/drawing.bmp is not a PNG, JPEG, GIF, WebP or SVG file (by its name); "
            "quizbank exports only those",
        ),
        ("cut.png", "truncated", "content/images/cut.png is damaged: "),
    ],
)
def test_an_image_must_be_the_type_its_bytes_say(
    media_bank: Path, cli: Callable[..., Run], name: str, data: bytes | str, message: str
) -> None:
    png = (MEDIA / "images" / "grid.png").read_bytes()
    content = {"png": png, "truncated": png[:60]}.get(data, data) if isinstance(data, str) else data
    assert isinstance(content, bytes)
    (media_bank / "images" / name).write_bytes(content)
    [error] = _image_error(media_bank, cli, f"../images/{name}")
    assert error.startswith(f"{_at(EN, '![Three shard')}: error: ")
    assert message in error


def test_an_image_over_the_size_limit_is_refused(media_bank: Path, cli: Callable[..., Run]) -> None:
    big = media_bank / "images" / "big.png"
    big.write_bytes((MEDIA / "images" / "grid.png").read_bytes() + b"\0" * (3 << 19))
    [error] = _image_error(media_bank, cli, "../images/big.png")
    assert error.endswith(
        "content/images/big.png is 1.5 MiB, over the limit of 1.0 MiB: make it smaller "
        "(or raise the limit with --max-image-size)"
    )


def test_the_size_limit_is_an_option(
    media_bank: Path, cli: Callable[..., Run], capsys: pytest.CaptureFixture[str]
) -> None:
    run = cli("validate", "--max-image-size", "200")
    assert run.code == 1
    errors = _errors(run)
    assert len(errors) == 6, errors  # each image, where each language first uses it
    assert sum("grid.png is 239 bytes, over the limit of 200 bytes" in e for e in errors) == 4
    run = cli("validate", "--max-image-size", "1KiB")
    assert _errors(run) == [
        f"{_at(path, '![')}: error: question 1 (diagram), prompt: content/images/shards.svg is "
        "2 KiB, over the limit of 1 KiB: make it smaller (or raise the limit with "
        "--max-image-size)"
        for path in (EN, UR)
    ]
    assert cli("validate", "--max-image-size", "3KiB").code == 0
    with pytest.raises(SystemExit) as exited:
        cli("validate", "--max-image-size", "lots")
    assert exited.value.code == 2
    assert "'lots' is not a size such as 500KiB or 2MiB" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("inside", "what"),
    [
        ("<script>alert(1)</script>", "a <script> element"),
        ('<rect width="5" height="5" onload="alert(1)"/>', "the event attribute onload on <rect>"),
        ("<foreignObject><p>hi</p></foreignObject>", "a <foreignObject> element"),
        ('<image href="https://example.org/x.png"/>', "a link to 'https://example.org/x.png'"),
        (
            '<use xmlns:xlink="http://www.w3.org/1999/xlink" xlink:href="file:///etc/passwd"/>',
            "a link to 'file:///etc/passwd' on <use>",
        ),
        (
            '<rect style="fill: url(https://example.org/p.svg#x)"/>',
            "a url(…) to something outside the file on <rect>",
        ),
        ("<style>@import url(https://example.org/a.css);</style>", "a style that loads"),
    ],
)
def test_an_svg_that_could_act_or_fetch_is_refused_and_says_why(
    media_bank: Path, cli: Callable[..., Run], inside: str, what: str
) -> None:
    (media_bank / "images" / "bad.svg").write_text(f"{SVG_HEAD}{inside}</svg>", encoding="utf-8")
    [error] = _image_error(media_bank, cli, "../images/bad.svg")
    assert error.startswith(f"{_at(EN, '![Three shard')}: error: question 1 (diagram), prompt: ")
    assert f"content/images/bad.svg is refused: it holds {what}" in error
    assert "quizbank does not change drawings, so remove it from the file" in error


@pytest.mark.parametrize(
    ("svg", "message"),
    [
        (
            '<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaa">]>' + SVG_HEAD + "&a;</svg>",
            "it holds a <!DOCTYPE> or entity declaration",
        ),
        (
            '<?xml-stylesheet href="https://example.org/a.css"?>' + SVG_HEAD + "</svg>",
            "a style sheet from outside the file",
        ),
        (SVG_HEAD + "<rect>", "is not well-formed SVG"),
        ('<svg xmlns="http://example.org/not-svg"/>', "is XML but not SVG"),
    ],
)
def test_an_svg_that_is_not_plain_svg_is_refused(
    media_bank: Path, cli: Callable[..., Run], svg: str, message: str
) -> None:
    (media_bank / "images" / "bad.svg").write_text(svg, encoding="utf-8")
    [error] = _image_error(media_bank, cli, "../images/bad.svg")
    assert message in error


@pytest.mark.parametrize(
    ("src", "message"),
    [
        (
            "https://example.org/diagram.png",
            "https://example.org/diagram.png is on another site, and a quiz page makes no "
            "request: download the image into content/images/ and give its path from this file",
        ),
        (
            "data:image/png;base64,iVBORw0KGgo=",
            "an image is a file in the content folder, given by its path",
        ),
        (
            "/images/shards.svg",
            "give the image's path relative to this file, with / between folders, like "
            "../images/diagram.svg",
        ),
    ],
)
def test_an_image_that_is_not_a_file_of_the_bank_is_refused(
    media_bank: Path, cli: Callable[..., Run], src: str, message: str
) -> None:
    errors = _image_error(media_bank, cli, src)
    _only(errors, _at(EN, "![Three shard"), message)


def test_an_image_needs_alt_text(media_bank: Path, cli: Callable[..., Run]) -> None:
    edit(EN, "![Three boxes in a row](../images/grid.png) Count", "![](../images/grid.png) Count")
    run = cli("validate")
    assert run.code == 1
    assert _errors(run) == [
        f"{_at(EN, '![](../images/grid.png) Count')}: error: question 1 (diagram), option 2, "
        "feedback: this image has no alt text: say in the brackets what it shows, for those "
        "who cannot see it, like ![Shards on three GPUs](…)"
    ]


def test_urdu_alt_text_left_in_english_is_untranslated(
    media_bank: Path, cli: Callable[..., Run]
) -> None:
    edit(UR, "![تین شارڈ فائلیں جنہیں ایک انڈیکس فائل درج کرتی ہے]", DIAGRAM[: DIAGRAM.index("(")])
    run = cli("validate")
    assert run.code == 1
    assert _errors(run) == [
        f"{_at(UR, '![Three shard')}: error: question 1 (diagram), prompt: looks untranslated: "
        "the image's alt text 'Three shard files listed by one index f…' has no "
        "Arabic-script (Urdu) letters"
    ]


def test_a_text_that_is_only_a_formula_is_not_untranslated(
    media_bank: Path, cli: Callable[..., Run]
) -> None:
    """`$\\sum_{i=1}^{n} i$` is the same in every language: no Urdu letters needed."""
    assert '"$\\\\sum_{i=1}^{n} i$"' in UR.read_text(encoding="utf-8")
    assert cli("validate").code == 0


@pytest.mark.parametrize(
    ("old", "new", "needle", "message"),
    [
        (
            "$4 + 2 \\times 4$?",
            "$4 + 2^$?",
            "4 + 2^$",
            "the formula $4 + 2^$ cannot be drawn: a ^ or _ has nothing after it",
        ),
        (
            "$4 + 2 \\times 4$?",
            "$\\sqrt$?",
            "\\sqrt$",
            "the formula $\\sqrt$ cannot be drawn: the formula ends where something more is "
            "needed (an argument, or a closing brace)",
        ),
        (
            "$4 + 2 \\times 4$?",
            "$\\frac{4}$?",
            "\\frac{4}",
            "the formula $\\frac{4}$ cannot be drawn: a \\frac needs two arguments: \\frac{a}{b}",
        ),
        (
            "$4 + 2 \\times 4$?",
            "$4 + \\foo 4$?",
            "4 + \\foo 4",
            "the formula $4 + \\foo 4$ cannot be drawn: \\foo is not a command quizbank can draw",
        ),
        (
            "$$b = 4 + 2 \\times 4 = 12$$",
            "$$b = {4 + 2 \\times 4 = 12$$",
            "b = {4",
            "the formula $b = {4 + 2 \\times 4 = 12$ cannot be drawn: a { opens a group that "
            "is never closed",
        ),
        (
            "$4 + 2 \\times 4$?",
            "$\\text{<b>} 4$?",
            "\\text{<b>} 4",
            "the formula $\\text{<b>} 4$ cannot be drawn: \\text{…} holds <, > or &, which "
            "cannot be written inside it: write \\lt, \\gt or \\& outside the \\text{…}",
        ),
        (
            "$4 + 2 \\times 4$?",
            "$\\href{javascript:alert(1)}{4}$?",
            "\\href",
            "the formula $\\href{javascript:alert(1)}{4}$ cannot be drawn: \\href, \\style and "
            "\\class are not drawn: a formula holds no links or styles",
        ),
    ],
)
def test_a_formula_that_does_not_parse_is_an_error_where_it_is(
    media_bank: Path, cli: Callable[..., Run], old: str, new: str, needle: str, message: str
) -> None:
    edit(EN, old, new)
    run = cli("validate")
    assert run.code == 1, run.out
    [error] = _errors(run)
    field = "prompt" if "$$" not in old else "explanation"
    assert error == f"{_at(EN, needle)}: error: question 2 (adam-bytes), {field}: {message}"


def test_money_is_not_a_formula(media_bank: Path, cli: Callable[..., Run]) -> None:
    """`$5 and $7` is text (a `$` before a space never closes a formula); `\\$` is a `$`."""
    edit(EN, "it costs $5 and $7, and \\$3 too.", "it costs $5 and $7, and \\$3 or $ 2 $ too.")
    assert cli("validate").code == 0


def test_a_translation_showing_other_images_or_formulas_is_warned(
    media_bank: Path, cli: Callable[..., Run]
) -> None:
    edit(UR, "![تین شارڈ فائلیں جنہیں ایک انڈیکس فائل درج کرتی ہے](../images/shards.svg)", "")
    edit(UR, "$4 + 2 \\times 4$؟", "چار جمع دو ضرب چار؟")
    run = cli("validate")
    assert run.code == 0, run.out
    warnings = [line for line in run.out.splitlines() if ": warning: " in line]
    assert warnings == [
        f"{UR}:9:13: warning: question 1 (diagram), prompt: this text shows no image but 1 image "
        "in content/en/media.yaml: a translation shows the same images",
        f"{UR}:20:13: warning: question 2 (adam-bytes), prompt: this text shows no formula but "
        "1 formula in content/en/media.yaml: a translation shows the same formulas",
    ]


def test_a_file_of_too_many_formulas_is_refused_not_converted_forever(
    media_bank: Path, cli: Callable[..., Run], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("quizbank.loader.MAX_FORMULAS", 3)
    run = cli("validate")
    assert run.code == 1
    assert [e.split(": error: ", 1)[1] for e in _errors(run)] == [
        "this file holds more than 3 formulas: split the quiz"
    ] * 2


def test_each_image_file_is_read_once_however_it_is_written(
    media_bank: Path, cli: Callable[..., Run], monkeypatch: pytest.MonkeyPatch
) -> None:
    from quizbank import loader

    reads: list[Path] = []
    real = loader.read_image
    monkeypatch.setattr(loader, "read_image", lambda *a: reads.append(a[0]) or real(*a))
    edit(EN, "Count the boxes.", "Count ![the boxes](./../images/./grid.png).")
    assert cli("validate", str(EN)).code == 0
    # Once in each language's file, though the English one writes grid.png two ways.
    assert sorted(path.name for path in reads) == ["grid.png", "grid.png", "shards.svg"] * 1 + [
        "shards.svg"
    ]


def test_a_file_s_images_may_not_add_up_past_the_limit(
    media_bank: Path, cli: Callable[..., Run], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("quizbank.loader.MAX_IMAGES_BYTES", 1000)
    run = cli("validate")
    assert run.code == 1
    errors = _errors(run)
    assert errors and all(
        e.endswith(
            "this file's images add up to more than 1000 bytes: split the quiz, or make the "
            "images smaller"
        )
        for e in errors
    )


@pytest.mark.parametrize(
    ("name", "pillow_format"),
    [("a.png", "PNG"), ("a.jpg", "JPEG"), ("a.jpeg", "JPEG"), ("a.gif", "GIF"), ("a.webp", "WEBP")],
)
def test_each_raster_type_is_accepted(
    media_bank: Path, cli: Callable[..., Run], name: str, pillow_format: str
) -> None:
    from PIL import Image

    Image.new("RGB", (8, 8), "navy").save(media_bank / "images" / name, pillow_format)
    edit(EN, "](../images/shards.svg)", f"](../images/{name})")
    run = cli("validate")
    assert run.code == 0, run.out
