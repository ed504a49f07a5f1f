"""How fast quizbank validates and builds a large bilingual bank, against issue 30's targets.

    python benchmarks/run.py [--quizzes 500] [--questions 20] [--repeat 3] [--sizes 250 1000]
                             [--big-quiz 5000] [--variants 100] [--formats FORMAT ...]
                             [--all-types] [--variables-sections] [--json FILE]

A synthetic bank (benchmarks/generate.py; `--all-types` and `--variables-sections` choose its
kind) is written to a temporary folder; then, in rounds that alternate the commands (the floor
first), each one is run as a fresh subprocess and timed by its wall clock, so interpreter
start-up and imports count alike in every figure. A first round warms the byte-code and file
caches and is not counted; before each command the file system's pending writes are flushed
(`sync`), so that each command pays for its own writes, not for the previous one's. In each round:

- floor: `yaml.load(text, Loader=yaml.CSafeLoader)` over every file, in one process (PyYAML's C
  parser, with nothing else: no positions, no checks, no output);
- validate: `python -m quizbank validate BANK`;
- validate one file: `python -m quizbank validate BANK/en/<first>.yaml` (it has `--questions`
  questions and its translation is checked with it), what an author runs after saving: the cold
  start, imports included;
- text2qti: `text2qti quiz.txt` on a 10-question quiz in text2qti's format (choice, multiple
  answers, true/false, numerical, short answer and essay questions with feedback and Markdown),
  run right after the previous one, as many times; text2qti 0.8 is installed with pip into a
  venv in the work folder (`python -m venv`), and its config file goes to a home of its own
  there. If it cannot be installed, its comparison is reported as not measured;
- build: `python -m quizbank build BANK -o OUT --no-cache` into an empty folder: every default
  format, every language;
- rebuild: `python -m quizbank build BANK -o OUT` again after one file changed (the cache of the
  previous build in OUT is used);
- one format: `python -m quizbank build BANK -o OUT -f X --no-cache` into an empty folder, for
  every format `quizbank formats` lists, those built only when asked (qti21) included, except
  pdf, which takes long: `--formats` names the formats to build one by one instead (pdf
  included if named). Not in the warm-up round (the full build has warmed the caches).

Issue 30's targets, as ratios to the floor measured in the same run (wall clock, medians):

| measure | target |
| --- | --- |
| build of every default format | <= 2.5x the floor |
| each default format's own cost: its one-format build minus validate | <= 0.5x the floor |
| validate | <= 0.5x the floor |
| rebuild after one edit | <= 0.10x the build |
| peak memory of the build's largest process | <= 300 MB |
| validate one file (cold) | <= text2qti's whole job on a 10-question file |

A format built only when asked is measured the same way, with no target. The table gives each
measure, its ratio, its target and ok or MISS, and ends on "all targets met" or "targets
missed: ..." (a target not measured counts as missed). Medians are quoted, with the CPU time
(user + system, the command and its workers together) next to the wall time, and each ratio
of wall times has the same ratio of CPU times beside it (a shared machine spreads wall times,
not CPU times; the targets are on the wall clock). Peak memory is
measured on a separate, untimed build: the largest single process (`ru_maxrss` from `wait4`,
which covers the command and its worker processes), and, sampled from /proc every 50 ms, the sum
of every process's peak and the peak of their summed proportional set size (which shares
copy-on-write pages fairly between forked workers).

Then, without targets: a scaling table (banks of `--sizes` quizzes: floor, validate, build), one
quiz of `--big-quiz` questions, and a bank of `--variants` quizzes of each richer kind (every
type with images and formulas; variables and sections) validated and built once each (0 skips
it). `--json FILE` writes every figure. The default run takes about 10 minutes on 2 cores.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from generate import Kind, edit_one_file, generate_bank
from measuring import Memory, Run, Series, TreeSampler, child_env, run
from peer import Text2qti, install_text2qti

FLOOR_CODE = """\
import pathlib, sys, yaml
for path in sorted(pathlib.Path(sys.argv[1]).rglob("*.yaml")):
    yaml.load(path.read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)
"""
# Issue 30's targets: ratios to the floor (own cost: a format's build minus validate), to the
# full build (rebuild), to text2qti (validate one file), and megabytes.
TARGETS = {
    "build": 2.5,
    "own_cost": 0.5,
    "validate": 0.5,
    "rebuild": 0.10,
    "memory_mb": 300.0,
    "validate_one": 1.0,
}
SLOW_FORMATS = {"pdf"}  # measured one by one only when --formats names them


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

    def build(self, *, cache: bool = False, only: str = "") -> list[str]:
        """Every default format, or `only` that one."""
        command = [sys.executable, "-m", "quizbank", "build", str(self.bank), "-o", str(self.out)]
        command += ["-f", only] if only else []
        return command if cache else [*command, "--no-cache"]

    def fresh_out(self) -> None:
        shutil.rmtree(self.out, ignore_errors=True)

    def memory(self) -> tuple[Run, Memory]:
        self.fresh_out()
        sampler = TreeSampler()
        result = run(self.build(), sampler)
        return result, sampler.result(result.maxrss_mb)


@dataclass(frozen=True)
class Format:
    """A format `quizbank formats` lists, and whether a build without `-f` writes it."""

    name: str
    default: bool

    def __str__(self) -> str:
        return self.name if self.default else f"{self.name} (only when asked)"


def list_formats() -> tuple[list[Format], list[str]]:
    """The formats installed, and the warnings about those that could not be loaded."""
    proc = subprocess.run(
        [sys.executable, "-m", "quizbank", "formats"],
        capture_output=True,
        text=True,
        env=child_env(),
        check=True,
    )
    found = [
        Format(match.group(1), "[only when asked" not in line)
        for line in proc.stdout.splitlines()
        if (match := re.match(r"([a-z0-9_]+)  \S", line))
    ]
    return found, [line for line in proc.stderr.splitlines() if line.strip()]


def formats_to_measure(found: list[Format], asked: Sequence[str] | None) -> list[Format]:
    """The formats to build one by one: those asked, or every one but the slow ones."""
    if asked is None:
        return [f for f in found if f.name not in SLOW_FORMATS]
    by_name = {f.name: f for f in found}
    unknown = [name for name in asked if name not in by_name]
    if unknown:
        raise SystemExit(f"--formats: no such format: {', '.join(unknown)} (see quizbank formats)")
    return [by_name[name] for name in dict.fromkeys(asked)]


def measure(
    bench: Bench,
    repeat: int,
    *,
    rebuild: bool,
    edit: int,
    formats: Sequence[str] = (),
    text2qti: Text2qti | None = None,
) -> dict[str, Series]:
    """Alternate floor, validate, validate one file (and text2qti), build (and rebuild, and each
    format alone) `repeat` times, after a warm-up round without the one-format builds."""
    series: dict[str, Series] = {}
    for round_ in range(repeat + 1):
        results = {"floor": run(bench.floor()), "validate": run(bench.validate())}
        results["validate_one"] = run(bench.validate_one())
        if text2qti and not text2qti.problem:
            results["text2qti"] = run(text2qti.command(), env=text2qti.env())
        bench.fresh_out()
        results["build"] = run(bench.build())
        if rebuild:
            edit_one_file(bench.bank, edit, round_)
            results["rebuild"] = run(bench.build(cache=True))
        if round_ == 0:
            continue  # warm-up: byte-code caches, the file cache
        for name in formats:
            bench.fresh_out()
            results[f"format {name}"] = run(bench.build(only=name))
        for name, result in results.items():
            series.setdefault(name, Series()).runs.append(result)
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


def _bank_size(bank: Path) -> tuple[int, float]:
    files = list(bank.rglob("*.yaml"))
    return len(files), sum(f.stat().st_size for f in files) / 2**20


@dataclass(frozen=True)
class Row:
    """One measure of the table: its runs, its ratio (wall and CPU) to what it is compared
    with, and its target (None: informational)."""

    label: str
    series: Series | None
    ratio: float | None  # None: not measured
    cpu_ratio: float | None
    unit: str  # what the ratio is of: "x floor", "x build", "x text2qti", "MB"
    target: float | None = None

    @property
    def status(self) -> str:
        if self.target is None:
            return ""
        if self.ratio is None:
            return "not measured"
        return "ok" if self.ratio <= self.target else "MISS"

    def missed(self) -> str:
        """How it missed its target, for the final line."""
        if self.ratio is None:
            return f"{self.label.strip()} (not measured)"
        return f"{self.label.strip()} ({self.ratio:.2f} {self.unit}, target ≤ {self.target:g})"


def _ratio(top: Series, bottom: Series, minus: Series | None = None) -> tuple[float, float]:
    """(top - minus) / bottom, of the wall and of the CPU medians."""
    wall = (top.wall - (minus.wall if minus else 0)) / bottom.wall
    cpu = (top.cpu - (minus.cpu if minus else 0)) / bottom.cpu
    return wall, cpu


def table_rows(
    series: dict[str, Series], memory: Memory, formats: Sequence[Format], *, targeted: bool
) -> list[Row]:
    """The rows of the table; with `targeted`, each of issue 30's measures has its target."""

    def goal(name: str) -> float | None:
        return TARGETS[name] if targeted else None

    floor, validate, build = series["floor"], series["validate"], series["build"]
    rows = [
        Row("floor (CSafeLoader, 1 process)", floor, 1.0, 1.0, "x floor"),
        Row("validate", validate, *_ratio(validate, floor), "x floor", goal("validate")),
        Row("build, every default format", build, *_ratio(build, floor), "x floor", goal("build")),
    ]
    for fmt in formats:
        one = series[f"format {fmt.name}"]
        rows.append(
            Row(
                f"  {fmt.name} own cost",
                one,
                *_ratio(one, floor, minus=validate),
                "x floor",
                goal("own_cost") if fmt.default else None,
            )
        )
    if "rebuild" in series:
        rebuild = series["rebuild"]
        rows.append(
            Row(
                "rebuild after one edit",
                rebuild,
                *_ratio(rebuild, build),
                "x build",
                goal("rebuild"),
            )
        )
    one_file, text2qti = series["validate_one"], series.get("text2qti")
    wall, cpu = _ratio(one_file, text2qti) if text2qti else (None, None)
    label = "validate one file (cold)"
    rows.append(Row(label, one_file, wall, cpu, "x text2qti", goal("validate_one")))
    if text2qti:
        rows.append(Row("text2qti, 10 questions (whole job)", text2qti, None, None, ""))
    largest = memory.largest_mb
    rows.append(Row("peak memory of the build", None, largest, None, "MB", goal("memory_mb")))
    return rows


def table(rows: Sequence[Row]) -> list[str]:
    """The rows as text: each measure's times, ratio, target and whether it is met."""
    lines = [
        f"{'':40} {'median s':>9} {'min-max s':>13} {'CPU s':>7} {'ratio':>17} {'CPU ratio':>10}"
        f"  target"
    ]
    for row in rows:
        s = row.series
        times = (
            f"{s.wall:9.2f} {s.low:6.2f}-{s.high:<6.2f} {s.cpu:7.2f}"
            if s
            else f"{'':9} {'':13} {'':7}"
        )
        if row.ratio is None:
            ratio = "not measured" if row.target is not None else ""
        elif row.unit == "MB":
            ratio = f"{row.ratio:.0f} MB"
        else:
            ratio = f"{row.ratio:.2f} {row.unit}"
        cpu = f"{row.cpu_ratio:.2f}" if row.cpu_ratio is not None else ""
        unit = " MB" if row.unit == "MB" else ""
        target = f"  ≤ {row.target:g}{unit} {row.status}" if row.target is not None else ""
        lines.append(f"{row.label:40} {times} {ratio:>17} {cpu:>10}{target}".rstrip())
    return lines


def verdict(rows: Sequence[Row]) -> str:
    """ "all targets met", or which were missed (a target not measured is missed)."""
    missed = [row.missed() for row in rows if row.status in ("MISS", "not measured")]
    return "targets missed: " + "; ".join(missed) if missed else "all targets met"


def _memory_line(memory: Memory) -> str:
    return (
        f"memory of the build: largest process {memory.largest_mb:.0f} MB; {memory.processes} "
        f"processes, sum of their peaks {memory.sum_of_peaks_mb:.0f} MB, peak of their summed "
        f"PSS {memory.peak_total_pss_mb:.0f} MB"
    )


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


def _arguments() -> argparse.Namespace:
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
    parser.add_argument(
        "--variants",
        type=int,
        default=100,
        metavar="QUIZZES",
        help="also validate and build a bank of this many quizzes of each richer kind once "
        "(100; 0 to skip)",
    )
    parser.add_argument(
        "--formats",
        nargs="+",
        metavar="FORMAT",
        help="the formats to build one by one (default: every format listed but pdf)",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--all-types",
        action="store_true",
        help="questions of the nine types in turn, with images and formulas",
    )
    parser.add_argument(
        "--variables-sections",
        action="store_true",
        help="numerical and cloze questions with variables, and quizzes with sections",
    )
    parser.add_argument("--workdir", type=Path, help="where to write banks (default: a temp dir)")
    parser.add_argument("--json", type=Path, help="also write the figures to this JSON file")
    return parser.parse_args()


def main() -> int:
    args = _arguments()
    sys.stdout.reconfigure(line_buffering=True)  # type: ignore[union-attr]
    sizes = args.sizes if args.sizes is not None else [args.quizzes // 2, args.quizzes * 2]
    kind = Kind(args.all_types, args.variables_sections)
    found, warnings = list_formats()
    one_by_one = formats_to_measure(found, args.formats)

    work = Path(tempfile.mkdtemp(prefix="quizbank-bench-", dir=args.workdir))
    report: dict[str, object] = {
        "machine": machine(),
        "formats": {f.name: f.default for f in found},
        "not_loaded": warnings,
    }
    print(f"machine: {report['machine']}")
    print(
        f"formats: {', '.join(map(str, found))}" + (f"; not loaded: {warnings}" if warnings else "")
    )
    print(f"built one by one: {', '.join(f.name for f in one_by_one) or 'none'}")
    try:
        _progress("installing text2qti in a venv")
        text2qti = install_text2qti(work)
        report["text2qti"] = {"version": text2qti.version, "problem": text2qti.problem}
        report["main"], series = main_bank(args, kind, work, one_by_one, text2qti)
        if sizes:
            report["scaling"] = scaling(args, kind, work, sizes, series)
        if args.big_quiz:
            report["big_quiz"] = big_quiz(args, kind, work)
        if args.variants:
            report["variants"] = richer_banks(args, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if args.json:
        args.json.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    return 0


def main_bank(
    args: argparse.Namespace, kind: Kind, work: Path, formats: list[Format], text2qti: Text2qti
) -> tuple[dict[str, object], dict[str, Series]]:
    """Measure the bank against issue 30's targets; print its table; return its figures and
    its measures."""
    bench = _bank(work, args.quizzes, args.questions, args.seed, kind)
    names = [f.name for f in formats]
    series = measure(
        bench, args.repeat, rebuild=True, edit=args.quizzes // 2, formats=names, text2qti=text2qti
    )
    _, memory = bench.memory()
    files, mib = _bank_size(bench.bank)
    questions = args.quizzes * args.questions
    print(
        f"\nbank: {args.quizzes} quizzes x {args.questions} questions x 2 languages = "
        f"{2 * questions:,} question renderings per format ({files} files, {mib:.1f} MiB"
        f"{_kind_label(kind)}); {args.repeat} rounds"
    )
    print(
        f"build: {_wrote(series['build'].runs[-1].out)}; "
        f"rebuild: {_wrote(series['rebuild'].runs[-1].out)}"
    )
    if text2qti.problem:
        print(f"text2qti: not measured: {text2qti.problem}")
    else:
        print(f"text2qti: {text2qti.version}, on a 10-question quiz, in the same rounds")
    print(
        "a format's own cost: its `build -f X --no-cache` minus validate (medians; the times"
        " shown are the build's)"
    )
    rows = table_rows(series, memory, formats, targeted=True)
    for line in [*table(rows), _memory_line(memory)]:
        print(line)
    outcome = verdict(rows)
    print(outcome)
    figures = _figures(args.quizzes, args.questions, series, memory, files, mib)
    figures["targets"] = [_row_figures(row) for row in rows if row.target is not None]
    figures["verdict"] = outcome
    return figures, series


def scaling(
    args: argparse.Namespace, kind: Kind, work: Path, sizes: list[int], main: dict[str, Series]
) -> dict[int, dict[str, float]]:
    """Floor, validate and build of banks of each size (the main bank's, `main`, among them);
    print the table; return its figures."""
    results: dict[int, dict[str, Series]] = {args.quizzes: main}
    for size in sorted(set(sizes) - {args.quizzes}):
        bench = _bank(work, size, args.questions, args.seed, kind)
        results[size] = measure(bench, args.repeat, rebuild=False, edit=0)
        shutil.rmtree(bench.work)
    print(f"\nscaling ({args.questions} questions per quiz, medians of {args.repeat}):")
    print(
        f"{'quizzes':>8} {'renderings':>10} {'floor s':>8} {'validate s':>11} "
        f"{'build s':>8} {'build ms per 1,000':>19} {'build x floor':>14}"
    )
    for size, result in sorted(results.items()):
        q = size * args.questions * 2
        print(
            f"{size:8} {q:10,} {result['floor'].wall:8.2f} {result['validate'].wall:11.2f} "
            f"{result['build'].wall:8.2f} {1000 * result['build'].wall / q * 1000:19.1f} "
            f"{result['build'].wall / result['floor'].wall:14.2f}"
        )
    return {size: {name: s.wall for name, s in r.items()} for size, r in sorted(results.items())}


def big_quiz(args: argparse.Namespace, kind: Kind, work: Path) -> dict[str, object]:
    """One quiz of `--big-quiz` questions, once; print its table (no targets)."""
    bench = _bank(work, 1, args.big_quiz, args.seed, kind, name="big")
    series = measure(bench, 1, rebuild=False, edit=0)
    _, memory = bench.memory()
    files, mib = _bank_size(bench.bank)
    print(
        f"\none quiz of {args.big_quiz:,} questions x 2 languages ({mib:.1f} MiB): "
        f"{_wrote(series['build'].runs[-1].out)}"
    )
    for line in [*table(table_rows(series, memory, [], targeted=False)), _memory_line(memory)]:
        print(line)
    shutil.rmtree(bench.work)
    return _figures(1, args.big_quiz, series, memory, files, mib)


# The richer kinds of bank, validated and built once each for the report (no target).
RICHER = {
    "all-types": ("every type, images, formulas", Kind(all_types=True)),
    "variables-sections": ("variables, sections", Kind(variables_sections=True)),
}


def richer_banks(args: argparse.Namespace, work: Path) -> dict[str, dict[str, float]]:
    """Floor, validate and build, once, of a bank of each richer kind; print and return them."""
    print(
        f"\nricher banks ({args.variants} quizzes x {args.questions} questions x 2 languages, "
        "once each, no target):"
    )
    print(
        f"{'bank':30} {'MiB':>5} {'floor s':>8} {'validate s':>11} {'x floor':>8} "
        f"{'build s':>8} {'x floor':>8}"
    )
    figures: dict[str, dict[str, float]] = {}
    for name, (label, kind) in RICHER.items():
        bench = _bank(work, args.variants, args.questions, args.seed, kind, name=name)
        floor, validate = run(bench.floor()), run(bench.validate())
        bench.fresh_out()
        build = run(bench.build())
        mib = _bank_size(bench.bank)[1]
        print(
            f"{label:30} {mib:5.1f} {floor.wall:8.2f} {validate.wall:11.2f} "
            f"{validate.wall / floor.wall:8.2f} {build.wall:8.2f} {build.wall / floor.wall:8.2f}"
        )
        figures[name] = {
            "mib": round(mib, 1),
            "floor_s": round(floor.wall, 3),
            "validate_s": round(validate.wall, 3),
            "build_s": round(build.wall, 3),
            "validate_x_floor": round(validate.wall / floor.wall, 3),
            "build_x_floor": round(build.wall / floor.wall, 3),
        }
        shutil.rmtree(bench.work)
    return figures


def _kind_label(kind: Kind) -> str:
    parts = ["every type, images, formulas"] if kind.all_types else []
    parts += ["variables, sections"] if kind.variables_sections else []
    return f"; {'; '.join(parts)}" if parts else ""


def _bank(work: Path, quizzes: int, questions: int, seed: int, kind: Kind, name: str = "") -> Bench:
    folder = work / (name or f"{quizzes}x{questions}")
    _progress(f"generating {quizzes} x {questions} in {folder}")
    generate_bank(
        folder / "content",
        quizzes,
        questions,
        seed,
        all_types=kind.all_types,
        variables_sections=kind.variables_sections,
    )
    return Bench(folder / "content", folder)


def _row_figures(row: Row) -> dict[str, object]:
    return {
        "measure": row.label.strip(),
        "ratio": None if row.ratio is None else round(row.ratio, 3),
        "cpu_ratio": None if row.cpu_ratio is None else round(row.cpu_ratio, 3),
        "unit": row.unit,
        "target": row.target,
        "status": row.status,
    }


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
