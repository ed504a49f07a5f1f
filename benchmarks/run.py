"""How fast quizbank validates and builds a large bilingual bank, compared with just parsing it.

    python benchmarks/run.py [--quizzes 500] [--questions 20] [--repeat 3]
                             [--sizes 250 1000] [--big-quiz 5000] [--json FILE] [--all-types]

A synthetic bank (benchmarks/generate.py) is written to a temporary folder; then, in rounds that
alternate the commands, each one is run as a fresh subprocess and timed by its wall clock, so
interpreter start-up and imports count alike in every figure:

- floor: `yaml.load(text, Loader=yaml.CSafeLoader)` over every file, in one process (PyYAML's C
  parser, with nothing else: no positions, no checks, no output);
- validate: `python -m quizbank validate BANK`;
- validate one file: `python -m quizbank validate BANK/en/<first>.yaml` (with its translation),
  what an author runs after saving: the cold start, imports included (target ≤ 0.3 s);
- build: `python -m quizbank build BANK -o OUT --no-cache` into an empty folder: every format
  that loads, every language;
- rebuild: `python -m quizbank build BANK -o OUT` again after one file changed (the cache of the
  previous build in OUT is used).

Medians are quoted, with the CPU time (user + system, the command and its workers together) next
to the wall time. Peak memory is measured on a separate, untimed build: the largest single
process (`ru_maxrss` from `wait4`, which covers the command and its worker processes), and,
sampled from /proc every 50 ms, the sum of every process's peak and the peak of their summed
proportional set size (which shares copy-on-write pages fairly between forked workers).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from generate import edit_one_file, generate_bank

FLOOR_CODE = """\
import pathlib, sys, yaml
for path in sorted(pathlib.Path(sys.argv[1]).rglob("*.yaml")):
    yaml.load(path.read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)
"""
TARGETS = {"validate": 1.3, "build": 2.0, "rebuild": 0.10, "memory_mb": 300, "validate_one": 0.3}


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


def _child_env() -> dict[str, str]:
    # Byte-code caches are written as after any normal install, even where the environment
    # turns them off; otherwise every start-up would compile quizbank's modules again.
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["NO_COLOR"] = "1"
    return env


def run(command: Sequence[str], sampler: Callable[[int], Memory] | None = None) -> Run:
    """Run a command to its end; its own rusage (and its workers') comes from wait4."""
    with tempfile.TemporaryFile() as out:
        started = time.perf_counter()
        proc = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, env=_child_env())
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

    def __call__(self, pid: int) -> Memory:
        self._thread = threading.Thread(target=self._watch, args=(pid,), daemon=True)
        self._thread.start()
        return Memory(0, 0, 0, 0)

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


@dataclass
class Bench:
    """The commands of one bank, and where its outputs go."""

    bank: Path
    work: Path

    @property
    def out(self) -> Path:
        return self.work / "out"

    def floor(self) -> list[str]:
        return [sys.executable, "-c", FLOOR_CODE, str(self.bank)]

    def validate(self) -> list[str]:
        return [sys.executable, "-m", "quizbank", "validate", str(self.bank)]

    def validate_one(self) -> list[str]:
        """What an author runs after saving: one file (its translation is checked with it)."""
        first = min((self.bank / "en").glob("*.yaml"))
        return [sys.executable, "-m", "quizbank", "validate", str(first)]

    def build(self, *, cache: bool = False) -> list[str]:
        command = [sys.executable, "-m", "quizbank", "build", str(self.bank), "-o", str(self.out)]
        return command if cache else [*command, "--no-cache"]

    def fresh_out(self) -> None:
        shutil.rmtree(self.out, ignore_errors=True)

    def memory(self) -> tuple[Run, Memory]:
        self.fresh_out()
        sampler = TreeSampler()
        result = run(self.build(), sampler)
        return result, sampler.result(result.maxrss_mb)


def measure(bench: Bench, repeat: int, *, rebuild: bool, edit: int) -> dict[str, Series]:
    """Alternate floor, validate, build (and rebuild) `repeat` times, after one warm-up round."""
    names = ("floor", "validate", "validate_one", "build", "rebuild")
    series = {name: Series() for name in names}
    for round_ in range(repeat + 1):
        results = {"floor": run(bench.floor()), "validate": run(bench.validate())}
        results["validate_one"] = run(bench.validate_one())
        bench.fresh_out()
        results["build"] = run(bench.build())
        if rebuild:
            edit_one_file(bench.bank, edit, round_)
            results["rebuild"] = run(bench.build(cache=True))
        if round_ == 0:
            continue  # warm-up: byte-code caches, the file cache
        for name, result in results.items():
            series[name].runs.append(result)
        _progress(
            f"round {round_}/{repeat}: "
            + ", ".join(f"{k} {v.wall:.2f} s" for k, v in results.items())
        )
    return series


def _progress(message: str) -> None:
    print(f"  … {message}", file=sys.stderr, flush=True)


def _wrote(output: str) -> str:
    match = re.search(r"wrote .*", output)
    return match.group() if match else output.strip().splitlines()[-1]


def _status(value: float, target: float) -> str:
    return "ok" if value <= target else "MISS"


def _bank_size(bank: Path) -> tuple[int, float]:
    files = list(bank.rglob("*.yaml"))
    return len(files), sum(f.stat().st_size for f in files) / 2**20


def main_table(series: dict[str, Series], memory: Memory) -> list[str]:
    floor = series["floor"]
    rows = [
        f"{'':34} {'median s':>9} {'min-max s':>13} {'CPU s':>7} {'CPU x fl':>8} "
        f"{'x floor':>8}  target",
        f"{'floor (CSafeLoader, 1 process)':34} {floor.wall:9.2f} "
        f"{floor.low:6.2f}-{floor.high:<6.2f} {floor.cpu:7.2f} {1:8.2f} {1:8.2f}",
    ]
    for name, label in (
        ("validate", "quizbank validate"),
        ("build", "quizbank build (all formats)"),
    ):
        s = series[name]
        ratio = s.wall / floor.wall
        target = TARGETS[name]
        rows.append(
            f"{label:34} {s.wall:9.2f} {s.low:6.2f}-{s.high:<6.2f} {s.cpu:7.2f} "
            f"{s.cpu / floor.cpu:8.2f} {ratio:8.2f}"
            f"  ≤ {target:.1f} {_status(ratio, target)}"
        )
    if series["validate_one"].runs:
        s, target = series["validate_one"], TARGETS["validate_one"]
        rows.append(
            f"{'validate one file (cold start)':34} {s.wall:9.2f} {s.low:6.2f}-{s.high:<6.2f} "
            f"{s.cpu:7.2f} {'':>8} {'':>8}  ≤ {target:.2f} s {_status(s.wall, target)}"
        )
    if series["rebuild"].runs:
        s, build = series["rebuild"], series["build"]
        ratio = s.wall / build.wall
        rows.append(
            f"{'rebuild after one file changed':34} {s.wall:9.2f} {s.low:6.2f}-{s.high:<6.2f} "
            f"{s.cpu:7.2f} {s.cpu / floor.cpu:8.2f} {s.wall / floor.wall:8.2f}  "
            f"x build {ratio:.3f} (≤ {TARGETS['rebuild']:.2f} {_status(ratio, TARGETS['rebuild'])})"
        )
    rows.append(
        f"peak memory of the build: largest process {memory.largest_mb:.0f} MB "
        f"(≤ {TARGETS['memory_mb']} MB {_status(memory.largest_mb, TARGETS['memory_mb'])}); "
        f"{memory.processes} processes, sum of their peaks {memory.sum_of_peaks_mb:.0f} MB, "
        f"peak of their summed PSS {memory.peak_total_pss_mb:.0f} MB"
    )
    return rows


def machine() -> str:
    import yaml

    model = "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    libyaml = getattr(yaml, "__with_libyaml__", False)
    return (
        f"{model}, {os.cpu_count()} cores, {memory:.0f} GiB; {platform.system()} "
        f"{platform.release()}; Python {platform.python_version()}; PyYAML {yaml.__version__}"
        f"{' with libyaml' if libyaml else ' WITHOUT libyaml'}"
    )


def formats() -> str:
    proc = subprocess.run(
        [sys.executable, "-m", "quizbank", "formats"],
        capture_output=True,
        text=True,
        env=_child_env(),
        check=True,
    )
    names = [line.split()[0] for line in proc.stdout.splitlines() if line and not line[0].isspace()]
    warnings = [line for line in proc.stderr.splitlines() if line.strip()]
    return ", ".join(names) + (f" (not loaded: {'; '.join(warnings)})" if warnings else "")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quizzes", type=int, default=500, help="quizzes in the bank (500)")
    parser.add_argument("--questions", type=int, default=20, help="questions per quiz (20)")
    parser.add_argument("--repeat", type=int, default=3, help="timed rounds per size (3)")
    parser.add_argument(
        "--sizes",
        type=int,
        nargs="*",
        default=None,
        metavar="QUIZZES",
        help="bank sizes in quizzes for the scaling table (default: half and twice --quizzes; "
        "none to skip)",
    )
    parser.add_argument(
        "--big-quiz",
        type=int,
        default=5000,
        metavar="QUESTIONS",
        help="also build one quiz of this many questions (5000; 0 to skip)",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--all-types", action="store_true", help="questions of the nine types in turn"
    )
    parser.add_argument("--workdir", type=Path, help="where to write banks (default: a temp dir)")
    parser.add_argument("--json", type=Path, help="also write the figures to this JSON file")
    args = parser.parse_args()
    sys.stdout.reconfigure(line_buffering=True)  # type: ignore[union-attr]
    sizes = args.sizes if args.sizes is not None else [args.quizzes // 2, args.quizzes * 2]

    work = Path(tempfile.mkdtemp(prefix="quizbank-bench-", dir=args.workdir))
    report: dict[str, object] = {"machine": machine(), "formats": formats()}
    print(f"machine: {report['machine']}")
    print(f"formats: {report['formats']}")
    try:
        main_bench = _bank(work, args.quizzes, args.questions, args.seed, all_types=args.all_types)
        series = measure(main_bench, args.repeat, rebuild=True, edit=args.quizzes // 2)
        _, memory = main_bench.memory()
        files, mib = _bank_size(main_bench.bank)
        questions = args.quizzes * args.questions
        print(
            f"\nbank: {args.quizzes} quizzes x {args.questions} questions x 2 languages = "
            f"{2 * questions:,} question renderings per format ({files} files, {mib:.1f} MiB); "
            f"{args.repeat} rounds"
        )
        print(
            f"build: {_wrote(series['build'].runs[-1].out)}; "
            f"rebuild: {_wrote(series['rebuild'].runs[-1].out)}"
        )
        for row in main_table(series, memory):
            print(row)
        report["main"] = _figures(args.quizzes, args.questions, series, memory, files, mib)

        scaling: dict[int, dict[str, Series]] = {}
        for size in sorted(set(sizes)):
            if size == args.quizzes:
                scaling[size] = series
                continue
            bench = _bank(work, size, args.questions, args.seed, all_types=args.all_types)
            scaling[size] = measure(bench, args.repeat, rebuild=False, edit=0)
            shutil.rmtree(bench.work)
        if scaling:
            scaling.setdefault(args.quizzes, series)
            print(f"\nscaling ({args.questions} questions per quiz, medians of {args.repeat}):")
            print(
                f"{'quizzes':>8} {'renderings':>10} {'floor s':>8} {'validate s':>11} "
                f"{'build s':>8} {'build ms per 1,000':>19} {'build x floor':>14}"
            )
            for size, result in sorted(scaling.items()):
                q = size * args.questions * 2
                print(
                    f"{size:8} {q:10,} {result['floor'].wall:8.2f} {result['validate'].wall:11.2f} "
                    f"{result['build'].wall:8.2f} {1000 * result['build'].wall / q * 1000:19.1f} "
                    f"{result['build'].wall / result['floor'].wall:14.2f}"
                )
            report["scaling"] = {
                size: {name: s.wall for name, s in result.items() if s.runs}
                for size, result in sorted(scaling.items())
            }

        if args.big_quiz:
            bench = _bank(work, 1, args.big_quiz, args.seed, name="big", all_types=args.all_types)
            big = measure(bench, 1, rebuild=False, edit=0)
            _, big_memory = bench.memory()
            files, mib = _bank_size(bench.bank)
            print(
                f"\none quiz of {args.big_quiz:,} questions x 2 languages ({mib:.1f} MiB): "
                f"{_wrote(big['build'].runs[-1].out)}"
            )
            for row in main_table(big, big_memory):
                print(row)
            report["big_quiz"] = _figures(1, args.big_quiz, big, big_memory, files, mib)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if args.json:
        args.json.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    return 0


def _bank(
    work: Path, quizzes: int, questions: int, seed: int, name: str = "", *, all_types: bool = False
) -> Bench:
    folder = work / (name or f"{quizzes}x{questions}")
    _progress(f"generating {quizzes} x {questions} in {folder}")
    generate_bank(folder / "content", quizzes, questions, seed, all_types=all_types)
    return Bench(folder / "content", folder)


def _figures(
    quizzes: int, questions: int, series: dict[str, Series], memory: Memory, files: int, mib: float
) -> dict[str, object]:
    floor = series["floor"].wall
    return {
        "quizzes": quizzes,
        "questions_per_quiz": questions,
        "files": files,
        "mib": round(mib, 1),
        **{
            name: {
                "median_s": round(s.wall, 3),
                "cpu_s": round(s.cpu, 3),
                "runs_s": [round(r.wall, 3) for r in s.runs],
                "x_floor": round(s.wall / floor, 3),
            }
            for name, s in series.items()
            if s.runs
        },
        "memory_mb": {
            "largest_process": round(memory.largest_mb, 1),
            "processes": memory.processes,
            "sum_of_peaks": round(memory.sum_of_peaks_mb, 1),
            "peak_total_pss": round(memory.peak_total_pss_mb, 1),
        },
    }


if __name__ == "__main__":
    sys.exit(main())
