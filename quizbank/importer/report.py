"""What `quizbank import` tells its user: each loss, one line per question at its line of the
source file; the files written; what validating them found; a summary and what to review."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

from quizbank.diagnostics import Severity, display_path, printable
from quizbank.importer.command import ImportReport


def import_lines(report: ImportReport) -> tuple[list[str], bool]:
    """The lines to print, and whether anything was left out or needs writing."""
    lines: list[str] = []
    grouped: dict[tuple[Path, int, str | None], list[str]] = defaultdict(list)
    for source, loss in report.losses:
        grouped[(source, loss.line, loss.question)].append(loss.what)
    for (source, line, question), whats in grouped.items():
        about = f"question {question!r}: " if question else ""
        lines.append(printable(f"{display_path(source)}:{line}: {about}{'; '.join(whats)}"))
    quizzes = [file for file in report.written if file.path.suffix == ".yaml"]
    images = len(report.written) - len(quizzes)
    for file in quizzes:
        lines.append(printable(f"wrote {display_path(file.path)}"))
    if report.schema is not None:
        shown = display_path(report.schema)
        lines.append(
            printable(f"wrote {shown} (an editor checks the quiz files against it as you type)")
        )
    lines += [diagnostic.format() for diagnostic in report.diagnostics]
    errors = sum(d.severity is Severity.ERROR for d in report.diagnostics)
    left_out = {(s, loss.line) for s, loss in report.losses if loss.what.startswith("left out")}
    summary = f"imported {_count(len(quizzes), 'quiz file')}"
    if images:
        summary += f" and {_count(images, 'image')}"
    if left_out:
        summary += f"; {_count(len(left_out), 'question')} left out"
    if len(grouped) > len(left_out):
        summary += f"; {len(grouped) - len(left_out)} with something lost or to write (above)"
    if errors:
        summary += f"; validation found {_count(errors, 'error')} (above)"
    lines.append(summary)
    if quizzes:
        lines.append(
            "review: each quiz's level (Moodle has none: intermediate), placeholders the lines "
            "above name, then run: quizbank validate"
        )
    return lines, bool(grouped) or errors > 0


def _count(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"
