"""A hostile file of the largest size quizbank reads (16 MiB), in the shapes that cost most per
byte, is refused or reported in bounded time and memory: under 30 s and 1 GB, measured on the
child process that validates it."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import REPO

HEAD = "id: big\nlang: en\ntitle: Big\ndescription: d\nlevel: beginner\n"
LIMIT = 16 * 1024 * 1024 - 1024

# Each shape as (start, item repeated, end, repeats): written to the file piece by piece, so
# that the test process itself stays small (a forked child starts from its size).
SHAPES = {
    "flat list": (HEAD + "tags: [", "Ab, ", "a]\n", 0),
    "block list": (HEAD + "tags:\n", "  - Ab\n", "", 0),
    "huge mapping": (HEAD, "k: 1\n", "", 0),  # keys made unique as they are written
    "scalar list in a text": (HEAD + "questions:\n  - id: q\n    prompt: [", "x, ", "x]\n", 0),
    # just under the cap on values, with values long enough to fill the file
    "mapping under the cap": (HEAD, "k: v\n", "", 290_000),
    "list under the cap": (HEAD + "tags: [", "Abcdefghijklmnopqrstuvwxyz, ", "a]\n", 550_000),
}


def _write(path: Path, start: str, item: str, end: str, repeats: int) -> None:
    keyed = item.startswith("k:")
    size = len(item) + (len("ey000000000") if keyed else 0)
    count = repeats or (LIMIT - len(start) - len(end)) // size
    with path.open("w", encoding="utf-8") as handle:
        handle.write(start)
        for index in range(count):
            handle.write(item.replace("k:", f"key{index:09d}:", 1) if keyed else item)
        handle.write(end)


@pytest.mark.parametrize("shape", SHAPES)
def test_a_hostile_shape_is_bounded(tmp_path: Path, shape: str) -> None:
    folder = tmp_path / "en"
    folder.mkdir()
    _write(folder / "big.yaml", *SHAPES[shape])
    assert (folder / "big.yaml").stat().st_size <= 16 * 1024 * 1024
    started = time.monotonic()
    with open(tmp_path / "out", "w+b") as out, open(tmp_path / "err", "w+b") as err:
        child = subprocess.Popen(
            [sys.executable, "-m", "quizbank", "validate", str(folder)],
            cwd=REPO,
            stdout=out,
            stderr=err,
        )
        _, status, usage = os.wait4(child.pid, 0)  # the child's own peak memory
        child.returncode = os.waitstatus_to_exitcode(status)
    seconds = time.monotonic() - started
    printed = (tmp_path / "out").read_text(encoding="utf-8")
    errors = (tmp_path / "err").read_text(encoding="utf-8")
    assert child.returncode == 1, errors
    assert "Traceback" not in errors
    assert printed.strip().splitlines()[-1].endswith("in 1 file")
    assert ": error: " in printed
    refused = "the file holds too many values" in printed
    assert refused != shape.endswith("under the cap"), printed[-300:]
    assert seconds < 30
    assert usage.ru_maxrss < 1024 * 1024, f"{usage.ru_maxrss} KB"
