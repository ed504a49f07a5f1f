"""What `quizbank import` tells its user: each loss, one line per question at its line of the
source file; the files written; what validating them found; a summary and what to review."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

from quizbank.diagnostics import Severity, display_path, printable
from quizbank.importer.command import ImportReport
from quizbank.importer.convert import Loss


def import_lines(report: ImportReport) -> tuple[list[str], bool]:
    """The lines to print, and whether the author must act: something was left out or lost, or
    what was written does not validate (a placeholder to write is a warning, not a failure)."""
    lines: list[str] = []
    grouped: dict[tuple[Path, int, str | None], list[Loss]] = defaultdict(list)
    for source, loss in report.losses:
        grouped[(source, loss.line, loss.question)].append(loss)
    for (source, line, question), losses in grouped.items():
        about = f"question {question!r}: " if question else ""
        whats = "; ".join(loss.what for loss in losses)
        lines.append(printable(f"{display_path(source)}:{line}: {about}{whats}"))
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
    left_out = [ls for ls in grouped.values() if any(_left_out(loss) for loss in ls)]
    kept = [ls for ls in grouped.values() if not any(_left_out(loss) for loss in ls)]
    lost = sum(any(not loss.to_write for loss in ls) for ls in kept)
    to_write = sum(any(loss.to_write for loss in ls) for ls in kept)
    summary = f"imported {_count(len(quizzes), 'quiz file')}"
    if images:
        summary += f" and {_count(images, 'image')}"
    if left_out:
        summary += f"; {_count(len(left_out), 'question')} left out"
    found = [f"{lost} with something lost"] if lost else []
    found += [f"{to_write} with something to write"] if to_write else []
    if found:
        summary += f"; {', '.join(found)} (above)"
    if errors:
        summary += f"; validation found {_count(errors, 'error')} (above)"
    lines.append(summary)
    if quizzes:
        lines.append(
            "review: each quiz's level (Moodle has none: intermediate), placeholders the lines "
            "above name, then run: quizbank validate"
        )
    return lines, bool(left_out) or lost > 0 or errors > 0


def _left_out(loss: Loss) -> bool:
    return loss.what.startswith("left out")


def _count(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"
