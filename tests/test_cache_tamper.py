"""The build cache in the output folder is untrusted: a hand-edited one is ignored whole, with a
warning, and never makes a build write or delete anything outside the output folder."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import QUIZ, Run

CACHE = Path("out/.quizbank-cache.json")


def _tree(root: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(root)): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and "out" not in p.relative_to(root).parts[:1]
    }


def _victim(tmp_path: Path) -> tuple[Path, list[int]]:
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    info = victim.stat()
    return victim, [info.st_size, info.st_mtime_ns]


def _stamp_outside(cache: dict[str, Any], stamp: list[int]) -> None:
    cache["stamps"]["html/../../victim.txt"] = stamp


def _outputs_outside(cache: dict[str, Any], stamp: list[int]) -> None:
    entry = cache["quizzes"][QUIZ]
    key = next(iter(entry["outputs"]))
    entry["outputs"][key] = ["../victim.txt", "/etc/passwd"]
    cache["stamps"]["../victim.txt"] = stamp


def _absolute_stamp(cache: dict[str, Any], stamp: list[int]) -> None:
    cache["stamps"][str(Path.cwd() / "victim.txt")] = stamp


def _unknown_format(cache: dict[str, Any], stamp: list[int]) -> None:
    cache["stamps"]["nosuchformat/victim.txt"] = stamp


def _wrong_types(cache: dict[str, Any], stamp: list[int]) -> None:
    cache["quizzes"][QUIZ]["outputs"] = "html/en/x.html"
    cache["stamps"] = [1, 2]


def _huge_count(cache: dict[str, Any], stamp: list[int]) -> None:
    for summary in cache["quizzes"][QUIZ]["summaries"]:
        summary["question_count"] = 1_000_000_000


def _foreign_link(cache: dict[str, Any], stamp: list[int]) -> None:
    cache["quizzes"][QUIZ]["summaries"][0]["quiz_id"] = "../../x/evil"


def _other_quizs_summary(cache: dict[str, Any], stamp: list[int]) -> None:
    cache["quizzes"][QUIZ]["summaries"][0]["quiz_id"] = "another-quiz"


TAMPERED: dict[str, Callable[[dict[str, Any], list[int]], None]] = {
    "stamp-outside": _stamp_outside,
    "outputs-outside": _outputs_outside,
    "absolute-stamp": _absolute_stamp,
    "unknown-format": _unknown_format,
    "wrong-types": _wrong_types,
    "huge-count": _huge_count,
    "foreign-link": _foreign_link,
    "other-quizs-summary": _other_quizs_summary,
}


@pytest.mark.parametrize("name", TAMPERED)
def test_a_tampered_cache_is_ignored_whole_and_touches_nothing_outside(
    bank: Path, tmp_path: Path, cli: Callable[..., Run], name: str
) -> None:
    assert cli("build", "-o", "out").code == 0
    victim, stamp = _victim(tmp_path)
    cache = json.loads(CACHE.read_text(encoding="utf-8"))
    TAMPERED[name](cache, stamp)
    CACHE.write_text(json.dumps(cache), encoding="utf-8")
    before = _tree(tmp_path)
    run = cli("build", "-o", "out")
    assert run.code == 0, run.err
    assert "Traceback" not in run.err
    assert "is not one quizbank wrote" in run.err and "every quiz is built again" in run.err
    assert victim.read_text() == "precious"
    assert _tree(tmp_path) == before
    index = Path("out/html/index.html").read_text(encoding="utf-8")
    assert "1,000,000,000" not in index and "1000000000" not in index and "evil" not in index
    assert Path(f"out/html/en/{QUIZ}.html").is_file()


@pytest.mark.parametrize(
    "content",
    [
        b"[" * 100_000 + b"]" * 100_000,
        b"\xff\xfe not json",
        b'{"format": 2, "version": 1, "quizzes": {}, "stamps": {}, "digests": {}}',
        b"null",
    ],
    ids=["deep-nesting", "not-utf8", "wrong-version-type", "null"],
)
def test_a_malformed_cache_is_a_warning_not_a_traceback(
    bank: Path, cli: Callable[..., Run], content: bytes
) -> None:
    assert cli("build", "-o", "out").code == 0
    CACHE.write_bytes(content)
    run = cli("build", "-o", "out")
    assert run.code == 0, run.err
    assert "Traceback" not in run.err and "is not one quizbank wrote" in run.err
    assert json.loads(CACHE.read_text(encoding="utf-8"))["quizzes"]  # rewritten, usable


def test_an_untampered_cache_gives_no_warning_and_is_used(
    bank: Path, cli: Callable[..., Run]
) -> None:
    assert cli("build", "-o", "out").code == 0
    run = cli("build", "-o", "out")
    assert run.code == 0 and run.err == ""
    assert "0 written" in run.out or "reused" in run.out or "unchanged" in run.out
