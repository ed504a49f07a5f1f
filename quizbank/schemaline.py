"""The editor's schema line of a quiz file (`# yaml-language-server: $schema=…`): where `new` and
`import` point it, the schema they write there on first use, and a warning when a file's line
points at nothing (the editor then checks nothing as the author types)."""

from __future__ import annotations

import os
import re
from pathlib import Path

from quizbank.diagnostics import Position, Severity
from quizbank.loader import LoadedQuiz
from quizbank.schema import authoring_schema_text

_LINE = re.compile(rb"#\s*yaml-language-server:\s*\$schema=(\S+)")
_FIRST_LINE_BYTES = 1024


def schema_file(content: Path) -> Path:
    """Where the schema line of a quiz file under `content` leads (`../../schema/…` from
    content/<lang>/<quiz>.yaml)."""
    return content.parent / "schema" / "quiz.schema.json"


def write_schema(content: Path) -> Path | None:
    """Write the authoring schema where the quiz files' schema line leads, unless a file is
    there already; return the path written, or None."""
    target = schema_file(content)
    if target.exists() or target.is_symlink():
        return None
    target.parent.mkdir(parents=True, exist_ok=True)
    with target.open("x", encoding="utf-8", newline="\n") as file:
        file.write(authoring_schema_text())
    return target


def check_schema_line(loaded: LoadedQuiz) -> None:
    """Warn when the file's schema line names a local schema file that does not exist."""
    if loaded.quiz is None:
        return
    first = loaded.head[:_FIRST_LINE_BYTES].split(b"\n", 1)[0]
    found = _LINE.match(first.lstrip(b"\xef\xbb\xbf"))
    if found is None:
        return
    where = found.group(1).decode("utf-8", "replace")
    target = loaded.path.parent / where
    if "://" in where or target.is_file():
        return
    loaded.report(
        f"the editor's schema line points at {where!r}, which does not exist, so the editor "
        f"checks nothing as you type: write it with `quizbank schema > "
        f"{Path(os.path.normpath(target)).as_posix()}`",
        position=Position(1, found.start(1) + 1),
        severity=Severity.WARNING,
    )
