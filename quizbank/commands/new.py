"""`quizbank new`: write a new quiz that validates as it is, in each language."""

from __future__ import annotations

import argparse
import shlex
from pathlib import Path

from rich.console import Console

from quizbank.diagnostics import display_path, printable
from quizbank.project import DEFAULT_CONTENT

NAME = "new"
SUMMARY = "write a new quiz to start from, in each language"
HELP = """\
Write a new quiz that validates as it is: content/<lang>/QUIZ-ID.yaml in each language, with
every required field, one example question of each of the nine types and comments that teach
the format. Languages: every language folder under the content folder (else en and ur).
Nothing is written if any of the files already exists.

examples:
  quizbank new checkpoint-basics
  quizbank new checkpoint-basics --lang en --title "Checkpoint basics"
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("quiz_id", metavar="QUIZ-ID", help="the quiz id, such as checkpoint-basics")
    parser.add_argument(
        "path",
        nargs="?",
        type=Path,
        default=DEFAULT_CONTENT,
        metavar="PATH",
        help=f"the content folder holding the language folders (default: {DEFAULT_CONTENT}/)",
    )
    parser.add_argument(
        "-l",
        "--lang",
        dest="languages",
        action="append",
        default=[],
        metavar="LANG",
        help="a language to write (repeatable; default: every language folder in PATH, "
        "else en and ur)",
    )
    parser.add_argument("--title", help="the quiz's title, in every file written")


def run(args: argparse.Namespace, out: Console, err: Console) -> int:
    # Imported here: only this command reads the templates.
    from quizbank.scaffold import default_languages, new_quiz
    from quizbank.schemaline import write_schema

    languages = args.languages or default_languages(args.path)
    written = new_quiz(args.quiz_id, args.path, languages, args.title)
    for new in written:
        shown = printable(display_path(new.path))
        out.print(f"wrote {shown} ({new.note})" if new.note else f"wrote {shown}")
    schema = write_schema(args.path)
    if schema is not None:
        shown = printable(display_path(schema))
        out.print(f"wrote {shown} (an editor checks the quiz files against it as you type)")
    first = next((new for new in written if new.lang == "en"), written[0])
    command = f"quizbank validate {shlex.quote(display_path(first.path))}"
    out.print(printable(f"next: replace the example questions, then run: {command}"))
    return 0
