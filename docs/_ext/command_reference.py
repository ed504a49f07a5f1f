"""Writes the command reference page from quizbank's own argument parser, as the site is built.

The page `reference.md` holds the words around it; this extension appends one section per
command: its summary, and its `--help` exactly as `quizbank COMMAND --help` prints it (at a
fixed width), so the reference cannot drift from the parser.
"""

from __future__ import annotations

import argparse
from typing import Any

from sphinx.application import Sphinx

from quizbank.cli import _parser

PAGE = "reference"
WIDTH = 88


def _fixed_width(parser: argparse.ArgumentParser) -> None:
    """Format the parser's help at WIDTH columns, whatever the terminal the build runs in."""
    kind = parser.formatter_class

    def formatter(prog: str) -> argparse.HelpFormatter:
        return kind(prog, width=WIDTH)  # type: ignore[call-arg]

    parser.formatter_class = formatter


def _commands(parser: argparse.ArgumentParser) -> list[tuple[str, str, argparse.ArgumentParser]]:
    """(name, summary, parser) of every subcommand, in the order `quizbank --help` lists them."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            summaries = {choice.dest: choice.help or "" for choice in action._choices_actions}
            return [(name, summaries[name], sub) for name, sub in action.choices.items()]
    return []


def markdown() -> str:
    """The generated part of the page, as MyST Markdown."""
    parser = _parser()
    _fixed_width(parser)
    parts = ["## quizbank", "", "```text", parser.format_help().rstrip(), "```", ""]
    for name, summary, command in _commands(parser):
        _fixed_width(command)
        parts += [f"## quizbank {name}", "", summary[:1].upper() + summary[1:] + ".", ""]
        parts += ["```text", command.format_help().rstrip(), "```", ""]
    return "\n".join(parts)


def _append(app: Sphinx, docname: str, source: list[str]) -> None:
    if docname == PAGE:
        source[0] = source[0].rstrip() + "\n\n" + markdown()


def setup(app: Sphinx) -> dict[str, Any]:
    app.connect("source-read", _append)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
