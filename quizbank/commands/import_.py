"""`quizbank import`: read Moodle XML or GIFT into quiz files (the module is named `import_`,
`import` being Python's)."""

from __future__ import annotations

import argparse
from pathlib import Path

from rich.console import Console

from quizbank.project import DEFAULT_CONTENT

NAME = "import"
SUMMARY = "read Moodle XML or GIFT into quiz files"
HELP = """\
Bring existing questions in: read Moodle XML (as exported from Moodle's question bank) or GIFT
(.gift, .txt) and write one YAML file per quiz per language, content/<lang>/<quiz-id>.yaml, and
the images they show, content/images/. Each Moodle category becomes a quiz; a file whose texts
hold Moodle's multilang spans (or {mlang xx} tags) gives one file per language. What the format
of quizbank cannot hold is reported at its line of the file; the rest is imported. Existing quiz
files are not replaced without --force; every file is written, or none. What was written is then
checked as `quizbank validate` checks it.
Exit code: 0 everything imported (a placeholder to write is a warning); 1 something was left
out or lost, or a file written does not validate; 2 unusable input.

examples:
  quizbank import questions-checkpointing.xml
  quizbank import week1.gift week2.gift --lang ur -o content/
  quizbank import bank.xml --force
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "files", nargs="+", type=Path, metavar="FILE", help="Moodle XML or GIFT files"
    )
    parser.add_argument(
        "-l",
        "--lang",
        help="the language of a file without multilang texts (default: the language its "
        "categories name, else en); in a multilang file, the one language to import",
    )
    parser.add_argument(
        "-o",
        "--output",
        type=Path,
        default=DEFAULT_CONTENT,
        metavar="DIR",
        help=f"the content folder to write into (default: {DEFAULT_CONTENT}/)",
    )
    parser.add_argument(
        "--force", action="store_true", help="replace quiz files that already exist"
    )


def run(args: argparse.Namespace, out: Console, err: Console) -> int:
    # Imported here: only this command reads other formats.
    from quizbank.importer.command import import_files
    from quizbank.importer.report import import_lines

    report = import_files(args.files, args.output, args.lang, args.force)
    lines, failed = import_lines(report)
    out.file.write("".join(f"{line}\n" for line in lines))
    return 1 if failed else 0
