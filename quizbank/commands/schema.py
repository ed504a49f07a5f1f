"""`quizbank schema`: print the JSON Schema of the authoring format, for editors."""

from __future__ import annotations

import argparse

from rich.console import Console

from quizbank.schema import authoring_schema_text

NAME = "schema"
SUMMARY = "print the JSON Schema of the authoring format"
HELP = """\
Print the JSON Schema (Draft 2020-12) of the authoring format, for editors.

example:
  quizbank schema > schema/quiz.schema.json
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """None: there is one schema."""


def run(args: argparse.Namespace, out: Console, err: Console) -> int:
    out.file.write(authoring_schema_text())
    return 0
