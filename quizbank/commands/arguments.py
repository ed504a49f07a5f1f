"""The arguments several commands share (the quiz files to read, how strictly, the largest image;
how to print the problems found) and the warning an old spelling of one gets."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from rich.console import Console
from rich.text import Text

from quizbank.images import MAX_IMAGE_BYTES
from quizbank.project import DEFAULT_CONTENT

REPORT_FORMATS = ("text", "json", "github")


def add_paths_argument(parser: argparse.ArgumentParser) -> None:
    """The quiz files or folders a command reads (none: the content folder)."""
    parser.add_argument(
        "paths",
        nargs="*",
        type=Path,
        metavar="PATH",
        help=f"quiz files or folders (default: {DEFAULT_CONTENT}/)",
    )


def add_source_arguments(parser: argparse.ArgumentParser, *, losses_refused: bool = False) -> None:
    """The quiz files to check, --strict (which also refuses a format's losses that bank.yaml
    does not accept, with `losses_refused`) and --max-image-size."""
    add_paths_argument(parser)
    refused = (
        "a quiz or a question missing in a language, and placeholder text that `quizbank new` "
        "or `quizbank import` wrote"
    )
    if losses_refused:
        refused += ", and a loss of a format (what it cannot carry) that bank.yaml does not accept"
    parser.add_argument(
        "--strict", action="store_true", help=f"make errors of these warnings: {refused}"
    )
    parser.add_argument(
        "--max-image-size",
        type=_byte_size,
        default=MAX_IMAGE_BYTES,
        metavar="SIZE",
        help="the largest image a quiz may use, as 500KiB, 2MiB or bytes (default: 1MiB)",
    )


def add_report_argument(parser: argparse.ArgumentParser) -> None:
    """--output-format of the problems found."""
    parser.add_argument(
        "--output-format",
        choices=REPORT_FORMATS,
        default=None,
        help="how to print the problems: text for people, json for editors and CI, github for "
        "annotations in GitHub Actions (default: text)",
    )


def output_format(args: argparse.Namespace, err: Console) -> str:
    """The output format asked for; the old spelling, `--format`, still works, with a warning."""
    old = getattr(args, "old_report", None)
    if old:
        err.print(
            Text("quizbank: warning: --format is now --output-format for reports", style="yellow")
        )
    return str(args.output_format or old or "text")


_SIZE = re.compile(r"\s*([0-9]+(?:\.[0-9]+)?)\s*(|B|K|KB|KiB|M|MB|MiB)\s*", re.IGNORECASE)
_UNITS = {"": 1, "b": 1, "k": 1 << 10, "kb": 1 << 10, "kib": 1 << 10}
_UNITS |= {"m": 1 << 20, "mb": 1 << 20, "mib": 1 << 20}


def _byte_size(text: str) -> int:
    """A size as `--max-image-size` takes it: bytes, or a number with KiB or MiB."""
    match = _SIZE.fullmatch(text)
    if match is None:
        raise argparse.ArgumentTypeError(f"{text!r} is not a size such as 500KiB or 2MiB")
    return int(float(match[1]) * _UNITS[match[2].lower()])
