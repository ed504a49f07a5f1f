"""`quizbank build`: validate, then export every quiz in every format and language."""

from __future__ import annotations

import argparse
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from rich.console import Console
from rich.text import Text

from quizbank.commands.arguments import add_report_argument, add_source_arguments, output_format
from quizbank.commands.printing import (
    count,
    print_diagnostics,
    print_json,
    print_report,
    renderers_found,
)
from quizbank.diagnostics import printable
from quizbank.project import DEFAULT_CONTENT

if TYPE_CHECKING:  # imported by build alone, when it runs
    from quizbank.build import BuildProgress

NAME = "build"
SUMMARY = "validate, then export in every format"
HELP = """\
Validate, then export every quiz in every format and language into DIR/<format>/<lang>/
(paper exams, -f pdf, only when asked for).
Nothing is written when there is an error. A build of some files, formats or languages
replaces only those outputs and removes only outputs of quizzes gone from the sources given.

examples:
  quizbank build                                 # everything into dist/
  quizbank build -f html -l ur                   # the Urdu HTML quizzes only
  quizbank build -f moodle -O moodle.multilang=spans -o exports
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_source_arguments(parser, losses_refused=True)
    parser.add_argument(
        "-f",
        "--format",
        dest="formats",
        action="append",
        default=[],
        metavar="FORMAT",
        help="a format to write (repeatable; default: all, see `quizbank formats`)",
    )
    parser.add_argument(
        "-l",
        "--lang",
        dest="languages",
        action="append",
        default=[],
        metavar="LANG",
        help="a language to write (repeatable; default: all)",
    )
    parser.add_argument(
        "-O",
        "--option",
        dest="options",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a renderer option, such as moodle.shuffle=false (repeatable; FORMAT.KEY=VALUE "
        "aims at one format, and is needed when several chosen formats have KEY)",
    )
    parser.add_argument(
        "-o",
        "--output",
        type=Path,
        default=Path("dist"),
        metavar="DIR",
        help="output folder (default: dist)",
    )
    parser.add_argument("--no-cache", action="store_true", help="ignore the build cache")
    parser.add_argument(
        "--force",
        action="store_true",
        help="write into DIR even if it is a non-empty folder quizbank did not create",
    )
    parser.add_argument(
        "-j",
        "--jobs",
        type=int,
        default=0,
        metavar="N",
        help="worker processes (default: one per core)",
    )
    add_report_argument(parser)


def run(args: argparse.Namespace, out: Console, err: Console) -> int:
    # Imported here: the build's machinery (the cache, the output folder, the workers) is a
    # third of the start-up time that `validate` of one file would pay for nothing.
    from quizbank.build import BuildRequest, build

    report_format = output_format(args, err)
    registry = renderers_found(err, args.formats or ())
    request = BuildRequest(
        paths=args.paths or [DEFAULT_CONTENT],
        out_dir=args.output,
        formats=args.formats,
        languages=args.languages,
        options=args.options,
        strict=args.strict,
        use_cache=not args.no_cache,
        jobs=args.jobs,
        force=args.force,
        max_image_bytes=args.max_image_size,
    )
    if out.is_terminal and report_format == "text":
        with _progress_bar(out) as progress:
            result = build(request, registry, progress)
    else:
        result = build(request, registry)
    for warning in result.warnings:
        err.print(Text(printable(f"quizbank: warning: {warning}"), style="yellow"))
    formats = args.formats or list(registry.renderers)
    page = str(args.output / "html" / "index.html") if "html" in formats else None
    if report_format == "json":
        print_json(
            out,
            result.report,
            written=result.written,
            unchanged=result.reused,
            quizzes=result.quizzes,
            untranslated=result.untranslated,
            losses=result.losses,
            output=str(args.output),
            open=None if result.report.has_errors else page,
        )
        return 1 if result.report.has_errors else 0
    github = report_format == "github"
    if result.report.has_errors:
        print_report(result.report, out, github=github)
        out.print(Text(printable(f"nothing was written to {args.output}"), style="bold red"))
        return 1
    print_diagnostics(result.report, out, github=github)
    reused = f" ({result.reused} unchanged)" if result.reused else ""
    opening = f"; open {page}" if page else ""
    out.print(
        printable(
            f"wrote {count(result.written, 'file')}{reused} for {count(result.quizzes, 'quiz')} "
            f"in {count(result.languages, 'language')} in {result.seconds:.1f} s "
            f"into {args.output}{os.sep}{opening}"
        )
    )
    for name, lost in sorted(result.losses.items()):
        out.print(
            f"{name}: {count(lost, 'warning')} of what it cannot carry; accept a known loss "
            f"in bank.yaml (accept_losses: {{{name}: [...]}}, see quizbank formats)"
        )
    for lang, left_out in sorted(result.untranslated.items()):
        out.print(
            f"{lang}: {count(left_out, 'question')} not translated yet, left out of the {lang} "
            "outputs (see the warnings)"
        )
    return 0


@contextmanager
def _progress_bar(out: Console) -> Iterator[BuildProgress]:
    """A bar of the quizzes built so far out of those found, on a terminal."""
    # Imported here: rich.progress takes a noticeable part of a one-file rebuild to import.
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TaskID,
        TextColumn,
        TimeElapsedColumn,
    )

    progress = Progress(
        TextColumn("building"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=out,
        transient=True,
    )

    class Bar:
        task: TaskID | None = None

        def start(self, total: int) -> None:
            self.task = progress.add_task("build", total=total)

        def advance(self) -> None:
            if self.task is not None:
                progress.advance(self.task)

    with progress:
        yield Bar()
