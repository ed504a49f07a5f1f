"""Running a command as a fresh process and measuring it: its wall and CPU seconds (its workers'
included), the peak memory of its largest process, and the memory of all its processes."""

from __future__ import annotations

import os
import statistics
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class Run:
    """One command run: wall and CPU seconds, peak RSS of its largest process, and its output."""

    wall: float
    cpu: float
    maxrss_mb: float
    out: str


@dataclass
class Memory:
    """Memory of one build: the largest process, and every process's peak added up."""

    largest_mb: float
    processes: int
    sum_of_peaks_mb: float
    peak_total_pss_mb: float


@dataclass
class Series:
    """Every run of one command."""

    runs: list[Run] = field(default_factory=list)

    @property
    def wall(self) -> float:
        return statistics.median(r.wall for r in self.runs)

    @property
    def cpu(self) -> float:
        return statistics.median(r.cpu for r in self.runs)

    @property
    def low(self) -> float:
        return min(r.wall for r in self.runs)

    @property
    def high(self) -> float:
        return max(r.wall for r in self.runs)


def child_env() -> dict[str, str]:
    # Byte-code caches are written as after any normal install, even where the environment
    # turns them off; otherwise every start-up would compile quizbank's modules again.
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["NO_COLOR"] = "1"
    return env


def run(
    command: Sequence[str],
    sampler: Callable[[int], None] | None = None,
    env: dict[str, str] | None = None,
) -> Run:
    """Run a command to its end; its own rusage (and its workers') comes from wait4.

    The file system's pending writes (the previous command's outputs, a folder just deleted)
    are flushed first, so that each command pays for its own writes only."""
    os.sync()
    with tempfile.TemporaryFile() as out:
        started = time.perf_counter()
        proc = subprocess.Popen(
            command, stdout=out, stderr=subprocess.STDOUT, env=env or child_env()
        )
        if sampler:
            sampler(proc.pid)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - started
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        text = out.read().decode("utf-8", "replace")
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(command)} exited with {proc.returncode}:\n{text}")
    return Run(wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, text)


class TreeSampler:
    """Samples, in a thread, the memory of a process and of every process below it."""

    def __init__(self, interval: float = 0.05) -> None:
        self.interval = interval
        self.peaks: dict[int, float] = {}
        self.peak_pss = 0.0
        self._thread: threading.Thread | None = None

    def __call__(self, pid: int) -> None:
        """Start watching the process `pid` and its workers until it ends."""
        self._thread = threading.Thread(target=self._watch, args=(pid,), daemon=True)
        self._thread.start()

    def result(self, largest_mb: float) -> Memory:
        if self._thread:
            self._thread.join()
        return Memory(
            largest_mb, len(self.peaks), sum(self.peaks.values()) / 1024, self.peak_pss / 1024
        )

    def _watch(self, root: int) -> None:
        tree: list[int] = []
        samples = 0
        while Path(f"/proc/{root}").exists() and _state(root) not in ("Z", "X", ""):
            if samples % 10 == 0:
                tree = _tree(root)  # workers come and go rarely; scanning /proc is the cost
            samples += 1
            total_pss = 0.0
            for pid in tree:
                hwm = _kib(f"/proc/{pid}/status", "VmHWM:")
                if hwm:
                    self.peaks[pid] = max(self.peaks.get(pid, 0.0), hwm)
                total_pss += _kib(f"/proc/{pid}/smaps_rollup", "Pss:")
            self.peak_pss = max(self.peak_pss, total_pss)
            time.sleep(self.interval)


def _state(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return ""


def _tree(root: int) -> list[int]:
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            parents[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])
    found, frontier = [root], [root]
    while frontier:
        frontier = [pid for pid, parent in parents.items() if parent in frontier]
        found += frontier
    return found


def _kib(path: str, key: str) -> float:
    try:
        for line in Path(path).read_text().splitlines():
            if line.startswith(key):
                return float(line.split()[1])
    except OSError:
        pass
    return 0.0
