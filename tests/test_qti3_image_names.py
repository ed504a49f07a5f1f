"""Issue 32, item 7: images whose file names hold what a URI or a zip treats specially (spaces,
%, #, ?, quotes, <, &, leading dashes, letters beyond ASCII, very long names) are found by a QTI 3
player: every href and src of a package names one of its zip's entries once URI-decoded, and
the entries' names are ones any unzip tool writes as they are."""

from __future__ import annotations

import posixpath
import re
import shutil
from pathlib import Path
from urllib.parse import quote, unquote, urlsplit

import pytest
from conftest import REPO
from lxml import etree
from PIL import Image as PillowImage
from test_qti3 import Package, built

# RFC 3986's characters of a URI reference, and percent-encoded octets.
URI_REFERENCE = re.compile(r"(?:[A-Za-z0-9\-._~!$&'()*+,;=:@/?#]|%[0-9A-Fa-f]{2})*")
GRID = REPO / "tests" / "fixtures" / "media" / "images" / "grid.png"
NAMES = [
    "a b.png",
    "100%.png",
    "50%25 off.png",
    "#1.png",
    "why?.png",
    "what?x=1&y=2.png",
    "it's.png",
    'say "hi".png',
    "<b>bold.png",
    "salt & pepper.png",
    "-rf.png",
    "--help.png",
    ".hidden.png",
    "ünïcödé.png",
    "ڈایاگرام.png",
    "图表.png",
    "😀.png",
    "semi;colon,comma.png",
    "brackets[1](2){3}.png",
    "plus+equals=.png",
    "colon:star*pipe|.png",
    "trailing dots...png",
    "tab\tand newline.png",
    "x" * 200 + ".png",
]


@pytest.fixture(scope="module")
def hostile_names(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A content folder whose quiz shows an image of each name, in its description and in a
    question each (a different image each, so that none is merged with another)."""
    content = tmp_path_factory.mktemp("names") / "content"
    (content / "en").mkdir(parents=True)
    (content / "images").mkdir()
    questions = []
    for number, name in enumerate(NAMES):
        PillowImage.new("RGB", (4, 4), (number, 0, 0)).save(content / "images" / name)
        src = f"../images/{quote(name)}"
        questions.append(
            f"  - id: q{number}\n    type: true_false\n"
            f'    prompt: "![Picture {number}]({src}) Is this picture {number}?"\n'
            "    answer: true\n    explanation: It is.\n"
        )
    (content / "en" / "names.yaml").write_text(
        "id: names\nlang: en\ntitle: Hostile names\nlevel: beginner\n"
        f'description: "![The first picture](../images/{quote(NAMES[0])}) Pictures."\n'
        f"questions:\n{''.join(questions)}",
        encoding="utf-8",
    )
    return content


def _references(path: str, data: bytes) -> list[str]:
    """Every href and src in one XML file of a package."""
    root = etree.fromstring(data)
    return [
        str(value)
        for element in root.iter("*")
        for attribute, value in element.attrib.items()
        if etree.QName(attribute).localname in ("href", "src")
    ]


def _unresolved(package: Package) -> list[tuple[str, str]]:
    """The references of a package (in its manifest and every XML file) that name no entry
    once URI-decoded, as a player resolves them (a query or fragment is not the file's name),
    each with the file that holds it."""
    missing = []
    for path, data in package.items():
        if not path.endswith(".xml"):
            continue
        for reference in _references(path, data):
            if not URI_REFERENCE.fullmatch(reference):
                missing.append((path, reference))  # not a URI: a player may read it otherwise
                continue
            address = urlsplit(reference)
            if address.scheme or address.netloc:
                continue  # a schema's address, not a file of the package
            target = posixpath.normpath(
                posixpath.join(posixpath.dirname(path), unquote(address.path))
            )
            if target not in package:
                missing.append((path, reference))
    return missing


@pytest.mark.parametrize("options", [(), ("qti3.bank=true",)], ids=["quiz", "bank"])
def test_every_href_and_src_names_an_entry_of_the_zip(
    hostile_names: Path, tmp_path: Path, options: tuple[str, ...]
) -> None:
    packages = built(hostile_names, tmp_path / "out", *options)
    assert packages
    for name, package in packages.items():
        images = [path for path in package if path.startswith("images/")]
        assert len(images) == len(NAMES), (name, images)
        assert _unresolved(package) == [], name


def test_the_zip_entry_names_are_safe_to_unzip(hostile_names: Path, tmp_path: Path) -> None:
    [package] = built(hostile_names, tmp_path / "out").values()
    for path in package:
        folder, _, name = path.rpartition("/")
        assert folder in ("", "images", "items"), path
        assert name and not name.startswith(("-", ".")), path
        assert len(name) <= 64 and len(name.encode()) <= 255, path
        assert not set(name) & set("\\/:*?\"<>|%#&;'\t\n\r "), path


def test_an_image_keeps_a_recognisable_name(hostile_names: Path, tmp_path: Path) -> None:
    [package] = built(hostile_names, tmp_path / "out").values()
    stems = sorted(path.removeprefix("images/")[:-13] for path in package if "images/" in path)
    assert "a-b" in stems and "salt-pepper" in stems and "ünïcödé" in stems and "图表" in stems


def test_a_package_of_ordinary_names_is_unchanged(tmp_path: Path) -> None:
    shutil.copytree(REPO / "tests" / "fixtures" / "media", tmp_path / "content")
    package = built(tmp_path / "content", tmp_path / "out")["en/media.zip"]
    assert sorted(path for path in package if path.startswith("images/")) == [
        f"images/grid-{_digest(GRID)}.png",
        f"images/shards-{_digest(tmp_path / 'content' / 'images' / 'shards.svg')}.svg",
    ]


def _digest(path: Path) -> str:
    import hashlib

    return hashlib.sha256(path.read_bytes()).hexdigest()[:8]
