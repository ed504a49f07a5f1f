"""The commands of `quizbank`, one module each (as mkdocs and ruff keep theirs): its name, its
one-line summary, its help with examples, its arguments and its body. cli.py builds the parser
from them and runs the one asked for; a command imports what only it needs when it runs, so
that `quizbank validate` starts quickly.
"""

from __future__ import annotations

import argparse
from typing import Protocol

from rich.console import Console


class Command(Protocol):
    """What a command's module holds."""

    NAME: str  # as typed: `quizbank NAME`
    SUMMARY: str  # a line, in `quizbank --help`
    HELP: str  # `quizbank NAME --help`'s description, examples as written

    def add_arguments(self, parser: argparse.ArgumentParser) -> None: ...

    def run(self, args: argparse.Namespace, out: Console, err: Console) -> int:
        """Do it; the exit code (0 fine, 1 problems found)."""
        ...
