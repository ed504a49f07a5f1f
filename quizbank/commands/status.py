"""`quizbank status`: a table of how current each translation is, per quiz and language."""

from __future__ import annotations

import argparse
import json

from rich.console import Console

from quizbank.commands.arguments import add_paths_argument, output_format
from quizbank.project import DEFAULT_CONTENT

NAME = "status"
SUMMARY = "how current each translation is, per quiz"
HELP = """\
A table of each quiz in each language: its questions, those missing (in the reference language
but not here), stale (the reference changed since they were translated), unmarked (no
`source`, see `quizbank translated`), texts that look untranslated, and errors; then totals.

examples:
  quizbank status
  quizbank status content/ --format json
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_paths_argument(parser)
    parser.add_argument(
        "--output-format",
        choices=("text", "json"),
        default=None,
        help="a table for people, or json (default: text)",
    )
    parser.add_argument(
        "--format", dest="old_report", choices=("text", "json"), help=argparse.SUPPRESS
    )


def run(args: argparse.Namespace, out: Console, err: Console) -> int:
    from quizbank.status import COUNTS, bank_status, totals

    report_format = output_format(args, err)
    rows = bank_status(args.paths or [DEFAULT_CONTENT])
    sums = totals(rows)
    if report_format == "json":
        payload = {"quizzes": [row.as_json() for row in rows], "totals": sums}
        out.file.write(json.dumps(payload, ensure_ascii=False, indent=2) + "\n")
        return 0
    from rich import box
    from rich.table import Table

    table = Table(box=box.SIMPLE_HEAD if out.is_terminal else None, pad_edge=False)
    table.add_column("quiz")
    table.add_column("lang")
    for name in COUNTS:
        table.add_column(name, justify="right")
    for row in rows:
        lang = f"{row.lang} (ref)" if row.reference else row.lang
        if row.file is None:
            lang += " (no file)"
        values = [getattr(row, name) for name in COUNTS]
        table.add_row(row.quiz, lang, *("-" if v is None else str(v) for v in values))
    table.add_section()
    table.add_row("total", "", *(str(sums[name]) for name in COUNTS))
    # Not on a terminal: the whole table, however wide, for a file or another program.
    shown = out if out.is_terminal else Console(file=out.file, width=1000, highlight=False)
    shown.print(table)
    return 0
