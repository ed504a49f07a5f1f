"""How long and how much memory `quizbank build -f pdf` takes for one long quiz, within bounds.

    python benchmarks/pdf_long_quiz.py [--questions 1000] [--all-types] [--repeat 2]
                                       [--max-seconds 20] [--max-mb 800]

A bank of one quiz of QUESTIONS questions in English and Urdu (benchmarks/generate.py) is built
into the pdf format alone (four PDFs: the exam and key in each language), in one process
(`-j 1`, `--no-cache`), then each language alone. Printed: the median wall and CPU seconds and the
peak memory of the build (its largest process, from wait4). Exits 1 when the two-language build
takes longer than --max-seconds (wall) or more memory than --max-mb.

Before the renderer's fixes (issue 29), 1000 choice questions took 25 s and 3.6 GB for both
languages (9 s and 2.0 GB for English alone): Typst measured every question to keep it on a
page, and kept what it had set of every PDF in memory.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

from generate import generate_bank
from measuring import Run, run


def _build(bank: Path, out: Path, *langs: str) -> Run:
    command = [sys.executable, "-m", "quizbank", "build", str(bank), "-f", "pdf", "-j", "1"]
    command += ["--no-cache", "--force", "-o", str(out)]
    for lang in langs:
        command += ["-l", lang]
    return run(command)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--questions", type=int, default=1000)
    parser.add_argument("--all-types", action="store_true", help="the nine types in turn")
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--max-seconds", type=float, default=20.0)
    parser.add_argument("--max-mb", type=float, default=800.0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="quizbank-pdf-") as folder:
        bank, out = Path(folder) / "bank", Path(folder) / "out"
        generate_bank(bank, quizzes=1, questions=args.questions, all_types=args.all_types)
        worst: Run | None = None
        for langs in ((), ("en",), ("ur",)):
            runs = [_build(bank, out, *langs) for _ in range(args.repeat)]
            wall = statistics.median(r.wall for r in runs)
            cpu = statistics.median(r.cpu for r in runs)
            memory = max(r.maxrss_mb for r in runs)
            name = " and ".join(langs) or "en and ur"
            print(f"{name}: {wall:.2f} s ({cpu:.2f} s CPU), {memory:.0f} MB")
            if not langs:
                worst = Run(wall, cpu, memory, "")
    assert worst is not None
    over = []
    if worst.wall > args.max_seconds:
        over.append(f"{worst.wall:.1f} s is over the bound of {args.max_seconds:g} s")
    if worst.maxrss_mb > args.max_mb:
        over.append(f"{worst.maxrss_mb:.0f} MB is over the bound of {args.max_mb:g} MB")
    for line in over:
        print(f"{args.questions} questions in en and ur: {line}")
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
