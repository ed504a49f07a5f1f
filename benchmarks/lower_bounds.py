"""What each part of quizbank's work costs on the benchmark bank, in CPU seconds of one process,
each beside the floor measured in the same process: the parts that no build of a format can
skip, against which issue 30's targets are weighed (docs/performance.md).

    python benchmarks/lower_bounds.py [BANK] [--formats FORMAT ...] [--quizzes 500]

BANK is a folder that benchmarks/generate.py wrote (without one, the default bank is generated
into a temporary folder). In order, one process, nothing written:

- floor: `yaml.load(text, Loader=yaml.CSafeLoader)` of every file read, as run.py's floor does
  it (the collector's default thresholds; the rest runs with quizbank's);
- compose: quizbank's YAML composer (nodes with lines and columns) on every file;
- check: `check_quiz` of every quiz, as `validate` and `build` do it;
- for each format: each quiz rendered twice in a row; the first time pays for its texts'
  Markdown (the cache of rendered texts is emptied before each format), the second does not:
  the difference is the texts' Markdown, the second time is the writer's own cost. A format that
  writes zips has their entries deflated again, as zipfile does, and timed apart.

Every figure is CPU time (`time.process_time`), so a figure below 1.0x the floor fits in half
the floor's wall time on two cores, the most a format's own cost may take to meet issue 30.
"""

from __future__ import annotations

import argparse
import tempfile
import time
import zlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TypeVar

import yaml
from generate import generate_bank
from quizbank_renderers.packages import read_zip

from quizbank import markup
from quizbank.build import ActiveRenderer, plan_renderers
from quizbank.parallel import tuned_gc
from quizbank.project import Bank, check_quiz, discover
from quizbank.registry import discover_renderers
from quizbank.renderer import QuizTranslations, rendered_quiz
from quizbank.yamlcompose import compose

ItemT = TypeVar("ItemT")


@contextmanager
def cpu(into: list[float]) -> Iterator[None]:
    """Add the CPU time of the block to `into[0]`."""
    started = time.process_time()
    try:
        yield
    finally:
        into[0] += time.process_time() - started


def timed(work: Callable[[], object]) -> float:
    spent = [0.0]
    with cpu(spent):
        work()
    return spent[0]


def each(items: list[ItemT], read: Callable[[ItemT], object]) -> None:
    """Read every file or text, keeping none of the results (as a command reading file after
    file does)."""
    for item in items:
        read(item)


def read_yaml(path: Path) -> object:
    return yaml.load(path.read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)


def checked_quizzes(bank: Bank) -> list[QuizTranslations]:
    return [
        QuizTranslations(group.quiz_id, checked.translations, bank.languages, checked.images, {})
        for group in bank.groups
        if (checked := check_quiz(group, bank.languages, strict=False)).ok
    ]


def deflate_zip_entries(zips: list[bytes]) -> float:
    """The CPU time of deflating every entry of these zips as zipfile does (level 6)."""
    entries = [data for package in zips for data in read_zip(package).values()]
    spent = [0.0]
    with cpu(spent):
        for data in entries:
            compressor = zlib.compressobj(zlib.Z_DEFAULT_COMPRESSION, zlib.DEFLATED, -15)
            compressor.compress(data)
            compressor.flush()
    return spent[0]


def format_costs(
    active: ActiveRenderer, quizzes: list[QuizTranslations]
) -> tuple[float, float, float]:
    """The texts' Markdown, the writer's own cost, and the deflating of its zips (CPU s)."""
    markup._rendered.cache_clear()
    first, second = [0.0], [0.0]
    zips: list[bytes] = []
    for quiz in quizzes:
        with cpu(first):
            list(active.renderer.render_quiz(rendered_quiz(quiz, active.renderer)))
        with cpu(second):
            outputs = list(active.renderer.render_quiz(rendered_quiz(quiz, active.renderer)))
        zips += [out.content for out in outputs if str(out.path).endswith(".zip")]
    return first[0] - second[0], second[0], deflate_zip_entries(zips) if zips else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("bank", type=Path, nargs="?", help="a bank generate.py wrote")
    parser.add_argument("--quizzes", type=int, default=500, help="for a generated bank (500)")
    parser.add_argument(
        "--formats", nargs="+", default=(), help="(default: those a build without -f writes)"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        root = args.bank or Path(scratch)
        if args.bank is None:
            generate_bank(root, args.quizzes)
        files = sorted(root.rglob("*.yaml"))
        floor = timed(lambda: each(files, read_yaml))
        texts = [path.read_text(encoding="utf-8") for path in files]
        with tuned_gc():
            rows = [("compose (YAML nodes with positions)", timed(lambda: each(texts, compose)))]
            bank = discover([root])
            quizzes: list[QuizTranslations] = []
            rows.append(("check every quiz", timed(lambda: quizzes.extend(checked_quizzes(bank)))))
            registry = discover_renderers(wanted=args.formats)
            for active in plan_renderers(registry, args.formats, [], bank.languages):
                fmt = active.name
                texts_html, writer, deflate = format_costs(active, quizzes)
                rows.append((f"{fmt}: the texts' Markdown", texts_html))
                rows.append((f"{fmt}: the writer, texts at hand", writer))
                if deflate:
                    rows.append((f"{fmt}: deflating its zips (in the writer's)", deflate))
    print(f"{len(files)} files, {len(quizzes)} quizzes; CPU seconds of one process")
    print(f"{'':48} {'CPU s':>6} {'x floor':>8}")
    print(f"{'floor (CSafeLoader)':48} {floor:6.2f} {1:8.2f}")
    for label, seconds in rows:
        print(f"{label:48} {seconds:6.2f} {seconds / floor:8.2f}")


if __name__ == "__main__":
    main()
