"""Hostile and broken files: a clear error, exit 1, no traceback, little time and memory."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import Run

FIXTURES = Path(__file__).parent / "fixtures" / "broken"


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        (
            "syntax.yaml",
            'syntax.yaml:3:8: error: title: this quote (") is never closed: end the text with " '
            "on this line; as written, the text runs on to the end of the file",
        ),
        (
            "latin1.yaml",
            "latin1.yaml:3:12: error: the file is not UTF-8 (byte 0xe9 cannot be "
            "decoded); save it as UTF-8 in your editor",
        ),
        (
            "empty.yaml",
            "empty.yaml:1:1: error: the file is empty; a quiz starts with `id:`, "
            "`lang:` and `title:`",
        ),
        (
            "top-level-list.yaml",
            "top-level-list.yaml:1:1: error: a quiz file is a mapping of keys "
            "(id, lang, title, ...), but this is a list",
        ),
        (
            "python-tag.yaml",
            "python-tag.yaml:3:8: error: title: the YAML tag "
            "'!!python/object/apply:os.system' is not allowed; quiz files use plain text, numbers, "
            "lists and mappings",
        ),
        (
            "alias-bomb.yaml",
            "alias-bomb.yaml:3:4: error: b[0]: YAML anchors and aliases "
            "(`&name`, `*name`) are not allowed; write the value out",
        ),
        (
            "deep.yaml",
            "deep.yaml:3:1007: error: the document is nested too deeply (at most 32 levels)",
        ),
    ],
)
def test_broken_file_gets_one_clear_error(
    name: str, expected: str, cli: Callable[..., Run], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(FIXTURES)
    run = cli("validate", name)
    assert run.code == 1
    assert run.lines == [expected, "1 error, 0 warnings in 1 file"]


def test_python_tag_is_never_executed(tmp_path: Path, cli: Callable[..., Run]) -> None:
    marker = tmp_path / "pwned"
    quiz = tmp_path / "en" / "tag.yaml"
    quiz.parent.mkdir()
    quiz.write_text(
        f"id: tag\nlang: en\ntitle: !!python/object/apply:os.system ['touch {marker}']\n",
        encoding="utf-8",
    )
    assert cli("validate", quiz).code == 1
    assert not marker.exists()


def test_byte_order_mark_is_accepted(bank: Path, cli: Callable[..., Run]) -> None:
    path = bank / "en" / "checkpoint-sharding.yaml"
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    assert cli("validate").code == 0


def test_more_than_one_document(tmp_path: Path, cli: Callable[..., Run]) -> None:
    quiz = tmp_path / "two.yaml"
    quiz.write_text("id: two\n---\nid: three\n", encoding="utf-8")
    run = cli("validate", quiz)
    assert "more than one YAML document" in run.out
    assert run.code == 1


# The command, run by a child that writes its own peak memory (VmHWM, KiB) when it exits. Not the
# child's ru_maxrss: Linux counts in it the memory of the test process it was forked from.
_MEASURED = """
import atexit, os, runpy, sys

def peak():
    with open("/proc/self/status") as status, open(os.environ["PEAK_FILE"], "w") as out:
        out.write(next(line for line in status if line.startswith("VmHWM:")).split()[1])

atexit.register(peak)
sys.argv[0] = "quizbank"
runpy.run_module("quizbank", run_name="__main__", alter_sys=True)
"""


def _run_isolated(*args: str) -> tuple[subprocess.CompletedProcess[str], float, int]:
    """Run the real command in a child process; return it, its seconds and its peak memory (KiB)."""
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        peak_file = Path(folder) / "peak"
        done = subprocess.run(
            [sys.executable, "-c", _MEASURED, *args],
            capture_output=True,
            text=True,
            env={**os.environ, "PEAK_FILE": str(peak_file)},
        )
        peak_kib = int(peak_file.read_text())
    return done, time.perf_counter() - started, peak_kib


def test_64_mib_file_is_refused_quickly_without_reading_it(tmp_path: Path) -> None:
    big = tmp_path / "big.yaml"
    line = b"key: " + b"x" * 1018 + b"\n"
    with big.open("wb") as handle:
        for _ in range(64 * 1024):
            handle.write(line)
    done, seconds, peak_kib = _run_isolated("validate", str(big))
    assert done.returncode == 1
    assert "the file is 64.0 MiB; a quiz file may be at most 16 MiB" in done.stdout
    assert "Traceback" not in done.stderr
    assert seconds < 30 and peak_kib < 300 * 1024


def test_alias_bomb_in_a_child_process_stays_small(tmp_path: Path) -> None:
    done, seconds, peak_kib = _run_isolated("validate", str(FIXTURES / "alias-bomb.yaml"))
    assert done.returncode == 1
    assert "anchors and aliases" in done.stdout
    assert "Traceback" not in done.stderr
    assert seconds < 30 and peak_kib < 300 * 1024
