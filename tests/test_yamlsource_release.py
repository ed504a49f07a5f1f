"""A released document (its node tree dropped to save memory) still places problems."""

from __future__ import annotations

import shutil
from pathlib import Path

from conftest import CONTENT, QUIZ

from quizbank.yamlsource import load_document

LOCS = [(), ("title",), ("questions", 2, "options", 1, "feedback"), ("questions", 5, "answer")]


def test_positions_after_release_are_the_same(tmp_path: Path) -> None:
    path = tmp_path / f"{QUIZ}.yaml"
    shutil.copy(CONTENT / "ur" / f"{QUIZ}.yaml", path)
    document = load_document(path)
    before = [document.locate(loc, key=key) for loc in LOCS for key in (False, True)]
    document.release()
    assert document.root is None and document.data is None
    assert [document.locate(loc, key=key) for loc in LOCS for key in (False, True)] == before


def test_a_file_changed_since_gives_no_wrong_position(tmp_path: Path) -> None:
    path = tmp_path / f"{QUIZ}.yaml"
    shutil.copy(CONTENT / "en" / f"{QUIZ}.yaml", path)
    document = load_document(path)
    start = document.locate(())
    document.release()
    path.write_text("# edited\n\n" + path.read_text(encoding="utf-8"), encoding="utf-8")
    assert document.locate(("questions", 3, "prompt")) == start
