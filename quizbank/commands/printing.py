"""What several commands print: the problems found (text for people, one JSON document, or
GitHub Actions annotations), the renderers found with their warnings, and counts in words."""

from __future__ import annotations

import json
from collections.abc import Collection

from rich.console import Console
from rich.text import Text

from quizbank.diagnostics import Diagnostic, Report, Severity, printable
from quizbank.registry import Registry, discover_renderers

_STYLES = {Severity.ERROR: "bold red", Severity.WARNING: "yellow"}


def print_json(out: Console, report: Report, **extra: object) -> None:
    """The report as one JSON document on stdout, for editors and CI."""
    payload = {
        "diagnostics": [d.as_json() for d in report],
        "errors": report.count(Severity.ERROR),
        "warnings": report.count(Severity.WARNING),
        "files": report.files,
        **extra,
    }
    out.file.write(json.dumps(payload, ensure_ascii=False, indent=2) + "\n")


def print_report(report: Report, out: Console, *, github: bool = False) -> None:
    """Every problem, then the summary line."""
    print_diagnostics(report, out, github=github)
    style = "bold red" if report.has_errors else "green"
    out.print(Text(report.summary(), style=style))


def print_diagnostics(report: Report, out: Console, *, github: bool = False) -> None:
    """Every problem, one a line (coloured on a terminal), or one annotation each."""
    if github:  # one workflow command per problem; the summary after them is plain text
        out.file.write("".join(f"{diagnostic.github()}\n" for diagnostic in report))
    elif out.is_terminal:
        for diagnostic in report:
            out.print(_diagnostic_text(diagnostic))
    else:  # no colour to add: plain lines, written at once (thousands of warnings are common)
        out.file.write("".join(f"{diagnostic.format()}\n" for diagnostic in report))


def _diagnostic_text(diagnostic: Diagnostic) -> Text:
    text = Text(f"{diagnostic.path}:{diagnostic.position.line}:{diagnostic.position.column}: ")
    text.append(str(diagnostic.severity), style=_STYLES[diagnostic.severity])
    text.append(": ")
    if diagnostic.field:
        text.append(diagnostic.field, style="bold")
        text.append(": ")
    text.append(diagnostic.message)
    return text


def renderers_found(err: Console, wanted: Collection[str] = ()) -> Registry:
    """The renderers installed (those `wanted` loaded, or all), each warning and error of
    finding them said on stderr."""
    registry = discover_renderers(wanted=wanted)
    for warning in registry.warnings:
        err.print(Text(printable(f"quizbank: warning: {warning}"), style="yellow"))
    for error in registry.errors.values():
        err.print(Text(printable(f"quizbank: error: {error}"), style="red"))
    return registry


def count(number: int, noun: str) -> str:
    """`1 quiz`, `2 quizzes`, `3 files`."""
    plural = "quizzes" if noun == "quiz" else f"{noun}s"
    return f"{number} {noun if number == 1 else plural}"
