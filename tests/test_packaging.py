"""The wheel holds the tree: every module and every data file the code reads, and nothing else.

A package listed by hand once left `quizbank.importer` out of the wheel while the editable
install of the test suite had it; these tests compare what ships with the source tree.
"""

from __future__ import annotations

import email
import subprocess
import sys
import tomllib
import zipfile
from email.message import Message
from pathlib import Path

import pytest
from artefacts import REPO, Dist, built

# Where each installed package's files are in the tree.
PACKAGE_FOLDERS = {"quizbank": REPO / "quizbank", "quizbank_renderers": REPO / "renderers"}
# Files of the tree that are sources of other files, not read by the code: the translation
# catalogs are compiled to the .mo files that ship.
SOURCE_ONLY = {".po", ".pot"}
LEFT_OUT_FOLDERS = {"__pycache__"}


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Dist:
    return built(tmp_path_factory.mktemp("dist"))


def tree_files() -> set[str]:
    """The files of quizbank/ and renderers/ as the wheel should hold them."""
    expected = set()
    for package, folder in PACKAGE_FOLDERS.items():
        for path in folder.rglob("*"):
            relative = path.relative_to(folder)
            if path.is_dir() or LEFT_OUT_FOLDERS & set(relative.parts):
                continue
            if path.suffix in SOURCE_ONLY or path.suffix == ".pyc":
                continue
            expected.add(f"{package}/{relative.as_posix()}")
    return expected


def wheel_files(wheel: Path) -> set[str]:
    """The wheel's files, without its own metadata folder."""
    with zipfile.ZipFile(wheel) as archive:
        return {name for name in archive.namelist() if ".dist-info/" not in name}


def metadata(wheel: Path) -> Message:
    with zipfile.ZipFile(wheel) as archive:
        name = next(n for n in archive.namelist() if n.endswith(".dist-info/METADATA"))
        return email.message_from_bytes(archive.read(name))


def test_the_wheel_holds_every_module_and_data_file_of_the_tree_and_nothing_else(
    dist: Dist,
) -> None:
    shipped, expected = wheel_files(dist.wheel), tree_files()
    assert {f for f in expected if f.endswith(".py")} >= {
        "quizbank/importer/__init__.py",
        "quizbank_renderers/html/__init__.py",
    }
    assert sorted(expected - shipped) == [], "in the tree but not in the wheel"
    assert sorted(shipped - expected) == [], "in the wheel but not in the tree"


def test_the_sdist_builds_the_same_wheel(dist: Dist, tmp_path: Path) -> None:
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(tmp_path), dist.sdist],
        check=True,
        capture_output=True,
    )
    (rebuilt,) = tmp_path.glob("*.whl")
    assert wheel_files(rebuilt) == wheel_files(dist.wheel)


def test_twine_accepts_both_artefacts(dist: Dist) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "twine", "check", "--strict", dist.wheel, dist.sdist],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_a_package_index_shows_what_quizbank_is(dist: Dist) -> None:
    shown = metadata(dist.wheel)
    project = tomllib.loads((REPO / "pyproject.toml").read_text("utf-8"))["project"]
    assert shown["Version"] == project["version"] == dist.version
    summary = shown["Summary"]
    for name in ("HTML", "Markdown", "Moodle XML", "GIFT", "QTI 1.2", "QTI 3", "JSON"):
        assert name in summary
    urls = {value.split(",")[0] for value in shown.get_all("Project-URL", [])}
    assert {"Source", "Documentation", "Issues", "Changelog"} <= urls
    classifiers = set(shown.get_all("Classifier", []))
    assert {
        "Intended Audience :: Education",
        "Topic :: Education :: Testing",
        "Natural Language :: English",
        "Natural Language :: Urdu",
        "Environment :: Console",
        "Programming Language :: Python :: 3.11",
    } <= classifiers
    assert shown["License-Expression"] == "MIT"
    assert "LICENSE" in (shown.get_all("License-File") or [])
    assert shown["Description-Content-Type"] == "text/markdown"
