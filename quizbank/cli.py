"""The command line: `quizbank validate | build | import | serve | new | translated | status |
formats | schema`. The parser is built from the commands' modules (quizbank/commands/), and
`main` runs the one asked for, putting what goes wrong into words and an exit code."""

from __future__ import annotations

import argparse
import signal
import threading
from collections.abc import Sequence

from rich.console import Console
from rich.text import Text

from quizbank import __version__
from quizbank.commands import (
    Command,
    build,
    formats,
    import_,
    new,
    schema,
    serve,
    status,
    translated,
    validate,
)
from quizbank.commands.printing import print_json
from quizbank.diagnostics import Report, escape_data, printable
from quizbank.errors import QuizbankError

# In the order `quizbank --help` lists them.
COMMANDS: tuple[Command, ...] = (
    validate,
    build,
    new,
    import_,
    serve,
    translated,
    status,
    formats,
    schema,
)
_BY_NAME = {command.NAME: command for command in COMMANDS}


def _parser() -> argparse.ArgumentParser:
    """The whole command line: each command's arguments and help, from its module."""
    parser = argparse.ArgumentParser(
        prog="quizbank",
        description="Validate bilingual quiz YAML and export it.",
        epilog="Run `quizbank COMMAND --help` for a command's options and examples.",
    )
    parser.add_argument("--version", action="version", version=f"quizbank {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for command in COMMANDS:
        # Raw: a command's help keeps its description's examples as written.
        command.add_arguments(
            commands.add_parser(
                command.NAME,
                help=command.SUMMARY,
                description=command.HELP,
                formatter_class=argparse.RawDescriptionHelpFormatter,
            )
        )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; return the exit code (0 fine, 1 problems found, 2 usage error)."""
    args = _parser().parse_args(argv)
    out = Console(highlight=False, soft_wrap=True, markup=False)
    err = Console(stderr=True, highlight=False, soft_wrap=True, markup=False)
    try:
        _interrupt_on_sigterm()
        return _BY_NAME[args.command].run(args, out, err)
    except QuizbankError as exc:
        message = "\n".join(printable(line) for line in exc.lines)
        err.print(Text(f"quizbank: {exc.category}: {message}", style="red"))
        report_format = getattr(args, "output_format", None) or getattr(args, "old_report", None)
        if report_format == "json":
            # A reader of the JSON report gets a JSON document whatever happened.
            print_json(
                out, Report(), failure={"category": exc.category, "message": printable(str(exc))}
            )
        elif report_format == "github":  # shown on the run's page, not only in its log
            message = escape_data(f"{exc.category}: {printable(str(exc))}")
            out.file.write(f"::error title=quizbank::{message}\n")
        return exc.exit_code
    except OSError as exc:  # a file system's refusal that no layer below put into words
        where = f"{exc.filename}: " if exc.filename else ""
        err.print(Text(printable(f"quizbank: error: {where}{exc.strerror or exc}"), style="red"))
        return 1
    except KeyboardInterrupt:
        err.print("quizbank: interrupted; nothing was written")
        return 130


def _interrupt_on_sigterm() -> None:
    """SIGTERM (a service manager, `kill`, a CI timeout) stops a run as Ctrl-C does: staged files
    are dropped and nothing is written."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, _raise_interrupt)


def _raise_interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt
