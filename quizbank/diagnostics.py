"""Diagnostics: one authoring problem at path:line:column, and a run's collection of them."""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path


class Severity(StrEnum):
    """How bad a problem is: an error fails the run, a warning does not (unless --strict)."""

    ERROR = "error"
    WARNING = "warning"


@dataclass(frozen=True, order=True)
class Position:
    """A 1-based line and column in a source file."""

    line: int = 1
    column: int = 1


# What must never reach a terminal or a reader of the JSON as itself: control characters (C0,
# DEL, C1, which hold escape sequences and line breaks), the Unicode line and paragraph
# separators, the bidirectional overrides and embeddings, which reorder what follows them, and
# the lone surrogates that stand for the undecodable bytes of a file name (no output takes them).
_UNPRINTABLE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\ud800-\udfff]")


def _escaped(match: re.Match[str]) -> str:
    return repr(match.group())[1:-1]


def printable(text: str) -> str:
    """`text` with every unprintable character written as its Python escape (`\\x1b`)."""
    return _UNPRINTABLE.sub(_escaped, text)


@dataclass(frozen=True)
class Diagnostic:
    """One problem in one file, with the field it concerns and a message for the author.

    Whatever it quotes from content or file names is escaped when it is made, so that neither a
    terminal nor a JSON reader is handed an escape sequence or a line break from a file.
    """

    path: str
    position: Position
    severity: Severity
    field: str
    message: str

    def __post_init__(self) -> None:
        for name in ("path", "field", "message"):
            value = getattr(self, name)
            if _UNPRINTABLE.search(value):
                object.__setattr__(self, name, printable(value))

    @property
    def sort_key(self) -> tuple[str, int, int, str]:
        return (self.path, self.position.line, self.position.column, self.message)

    def format(self) -> str:
        """The one-line form `path:line:column: severity: field: message`."""
        where = f"{self.path}:{self.position.line}:{self.position.column}"
        subject = f"{self.field}: " if self.field else ""
        return f"{where}: {self.severity}: {subject}{self.message}"

    def github(self) -> str:
        """The GitHub Actions workflow command that shows this problem as an annotation on its
        line: `::error file=content/en/x.yaml,line=12,col=5,title=quizbank::field: message`."""
        path = self.path if os.sep == "/" else self.path.replace(os.sep, "/")
        properties = ",".join(
            f"{key}={escape_property(str(value))}"
            for key, value in (
                ("file", path),
                ("line", self.position.line),
                ("col", self.position.column),
                ("title", "quizbank"),
            )
        )
        subject = f"{self.field}: " if self.field else ""
        return f"::{self.severity} {properties}::{escape_data(subject + self.message)}"

    def as_json(self) -> dict[str, object]:
        return {
            "path": self.path,
            "severity": str(self.severity),
            "field": self.field,
            "message": self.message,
            "line": self.position.line,
            "column": self.position.column,
        }

    @classmethod
    def from_json(cls, data: dict[str, object]) -> Diagnostic:
        """The diagnostic that `as_json` wrote (the build cache keeps warnings this way)."""
        return cls(
            str(data["path"]),
            Position(int(str(data["line"])), int(str(data["column"]))),
            Severity(str(data["severity"])),
            str(data["field"]),
            str(data["message"]),
        )


def escape_data(text: str) -> str:
    """A workflow command's message, escaped as @actions/core's `escapeData` does."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """A workflow command's property value, escaped as @actions/core's `escapeProperty`."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def display_path(path: Path) -> str:
    """A path as the author typed it or relative to the working folder when it is below it."""
    # Not resolved: a symbolic link is named as the link, never as what it points to.
    absolute = os.path.abspath(path)
    cwd = os.getcwd()
    if absolute.startswith(cwd + os.sep):
        return absolute[len(cwd) + 1 :]
    return str(path)


@dataclass
class Report:
    """Every diagnostic of a run, and how many files were looked at."""

    diagnostics: list[Diagnostic] = field(default_factory=list)
    files: int = 0

    def extend(self, diagnostics: Iterable[Diagnostic]) -> None:
        self.diagnostics.extend(diagnostics)

    def __iter__(self) -> Iterator[Diagnostic]:
        return iter(sorted(self.diagnostics, key=lambda d: d.sort_key))

    def count(self, severity: Severity) -> int:
        return sum(1 for d in self.diagnostics if d.severity is severity)

    @property
    def has_errors(self) -> bool:
        return any(d.severity is Severity.ERROR for d in self.diagnostics)

    def summary(self) -> str:
        """`2 errors, 1 warning in 3 files`."""
        errors, warnings = self.count(Severity.ERROR), self.count(Severity.WARNING)
        return (
            f"{_plural(errors, 'error')}, {_plural(warnings, 'warning')}"
            f" in {_plural(self.files, 'file')}"
        )


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"
