"""`quizbank import` of hostile bank files (tests/import_hostile.py): each read in time linear in
its size. A file of several megabytes in a shape that made a scan start again at every opening
would take hours; the child process that imports it runs under a CPU limit that a linear import
stays far below (the bound is on resources, not a timing assertion)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO
from import_hostile import HOSTILE_IMPORTS

SIZE = 4_000_000  # bytes: a quadratic scan of this takes hours, a linear one seconds
CPU_SECONDS = 60

# The command, run by a child that limits its own CPU time first.
_LIMITED = f"""
import resource, runpy, sys
resource.setrlimit(resource.RLIMIT_CPU, ({CPU_SECONDS}, {CPU_SECONDS + 5}))
sys.argv[0] = "quizbank"
runpy.run_module("quizbank", run_name="__main__", alter_sys=True)
"""


@pytest.mark.parametrize("shape", HOSTILE_IMPORTS)
def test_a_hostile_file_imports_in_linear_time(tmp_path: Path, shape: str) -> None:
    name, data = HOSTILE_IMPORTS[shape](SIZE)
    source = tmp_path / name
    source.write_bytes(data)
    done = subprocess.run(
        [sys.executable, "-c", _LIMITED, "import", str(source), "-o", str(tmp_path / "content")],
        capture_output=True,
        text=True,
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    stopped = done.returncode in (-signal.SIGXCPU, -signal.SIGKILL)
    assert not stopped, f"{shape}: stopped past {CPU_SECONDS} s of CPU"
    assert done.returncode in (0, 1), done.stderr[-2000:]
    assert "Traceback" not in done.stderr
    assert "left out: a text of it is too long" in done.stdout, done.stdout[-2000:]
