"""`quizbank translated`: mark a reviewed translation as current."""

from __future__ import annotations

import argparse
from pathlib import Path

from rich.console import Console

from quizbank.commands.printing import count
from quizbank.diagnostics import display_path, printable

NAME = "translated"
SUMMARY = "mark a reviewed translation as current"
HELP = """\
Mark a reviewed translation as current: record in each question of FILE (or each question
given) what its English (the reference language's) texts are now, as `source:` lines. Nothing
else in the file changes. `quizbank validate` then warns when the English of a question changes
again, naming the texts that changed. A file with an error is refused; nothing is written.

examples:
  quizbank translated content/ur/checkpoint-sharding.yaml
  quizbank translated content/ur/checkpoint-sharding.yaml --question resume-state
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="+", type=Path, metavar="FILE", help="translated quiz files")
    parser.add_argument(
        "-q",
        "--question",
        dest="questions",
        action="append",
        default=[],
        metavar="ID",
        help="mark only this question (repeatable; default: every question)",
    )


def run(args: argparse.Namespace, out: Console, err: Console) -> int:
    # Imported here: only this command writes into quiz files.
    from quizbank.translated import mark_translated

    for marked in mark_translated(args.files, args.questions):
        ids = marked.question_ids
        shown = ", ".join(ids) if len(ids) <= 5 else f"{', '.join(ids[:4])} and {len(ids) - 4} more"
        out.print(
            printable(
                f"marked {display_path(marked.path)}: {count(len(ids), 'question')} "
                f"translated from the current reference ({shown})"
            )
        )
    return 0
