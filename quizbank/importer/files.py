"""The files of an import written all or none, inside the content folder only.

Every target is planned and checked before the first is written: an existing quiz file
(`.yaml` or `.yml`) is replaced only with `--force`; an image already there with the same bytes
is left alone (convert.py gave an image with other bytes a name of its own). If writing fails
part way, what was written is removed and what was replaced is put back.
"""

from __future__ import annotations

import contextlib
import os
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from quizbank.diagnostics import display_path, printable
from quizbank.errors import QuizbankError
from quizbank.images import readable_size
from quizbank.importer.convert import Imported, QuizFile
from quizbank.importer.yaml_writer import quiz_yaml
from quizbank.parallel import parallel_map
from quizbank.project import SUFFIXES
from quizbank.yamlsource import MAX_FILE_BYTES as MAX_QUIZ_BYTES
from quizbank.yamlvalues import COUNT_FROM, MAX_VALUES, values_at_most

SCHEMA_LINE_PATH = "../../schema/quiz.schema.json"


class NothingWritten(QuizbankError):
    """An import refused before writing, with every problem found, one a line."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("nothing was written:\n  " + "\n  ".join(problems))
        self.problems = problems

    @property
    def lines(self) -> list[str]:
        return ["nothing was written:", *(f"  {problem}" for problem in self.problems)]


@dataclass(frozen=True, slots=True)
class Planned:
    """One file to write: where, its bytes, and the bytes it replaces (None: a new file)."""

    path: Path
    data: bytes
    replaces: bytes | None


def existing_image(content: Path, name: str) -> bytes | None:
    """The bytes of `content/images/<name>` if it is a file there."""
    path = content / "images" / name
    return path.read_bytes() if path.is_file() and not path.is_symlink() else None


def plan(content: Path, imports: Sequence[Imported], force: bool) -> list[Planned]:
    """Every file of the imports, checked: a QuizbankError names every problem, nothing is
    written."""
    planned: dict[Path, Planned] = {}
    problems: list[str] = []
    sources: dict[Path, str] = {}
    quizzes = [quiz for imported in imports for quiz in imported.quizzes]
    texts = iter(parallel_map(_yaml_bytes, quizzes))  # the emitter is most of an import's time
    for imported in imports:
        for quiz in imported.quizzes:
            data = next(texts)
            path = content / quiz.lang / f"{quiz.quiz_id}.yaml"
            if path in planned:
                problems.append(
                    f"{_shown(path)} would be written twice: two categories become quiz "
                    f"{quiz.quiz_id!r} (from {sources[path]} and {imported.source}); give one "
                    "category an idnumber of its own, or import the files one at a time"
                )
                continue
            sources[path] = str(imported.source)
            if len(data) > MAX_QUIZ_BYTES:
                problems.append(
                    f"{_shown(path)} would be {readable_size(len(data))}; a quiz file may be at "
                    f"most {readable_size(MAX_QUIZ_BYTES)}: split category {quiz.quiz_id!r} in "
                    "Moodle, or leave out its images"
                )
            elif len(data) > COUNT_FROM and (values := values_at_most(data.decode())) > MAX_VALUES:
                problems.append(
                    f"{_shown(path)} would hold about {values:,} values; a quiz file may hold "
                    f"about {MAX_VALUES:,}: split category {quiz.quiz_id!r} in Moodle"
                )
            replaces = _existing_quiz(path, force, problems)
            planned[path] = Planned(path, data, replaces)
        for name, data in imported.images.items():
            path = content / "images" / name
            if path in planned or existing_image(content, name) == data:
                continue
            planned[path] = Planned(path, data, None)
    for path in planned:
        problem = _outside(path, content)
        if problem:
            problems.append(problem)
    if problems:
        raise NothingWritten(problems)
    return list(planned.values())


def _yaml_bytes(quiz: QuizFile) -> bytes:
    return quiz_yaml(quiz.data, SCHEMA_LINE_PATH).encode()


def _existing_quiz(path: Path, force: bool, problems: list[str]) -> bytes | None:
    """The bytes a quiz file would replace; a problem when it exists and `force` is off."""
    for suffix in SUFFIXES:
        existing = path.with_suffix(suffix)
        if existing.exists() or existing.is_symlink():
            if not force:
                problems.append(f"{_shown(existing)} exists (--force replaces it)")
            elif existing != path:
                problems.append(f"{_shown(existing)} exists: rename or delete it first")
            elif existing.is_file() and not existing.is_symlink():
                return existing.read_bytes()
            else:
                problems.append(f"{_shown(existing)} is not a regular file")
    return None


def _outside(path: Path, content: Path) -> str | None:
    """Why a path must not be written: one of its folders is a link leading out of the
    content folder."""
    folder = path.parent
    while not folder.exists() and folder != content:
        folder = folder.parent
    if not folder.exists():
        return None  # a new content folder: nothing in it can be a link
    if not folder.resolve().is_relative_to(content.resolve()):
        return f"{_shown(path)} would be written outside {_shown(content)} (a symbolic link)"
    return None


def write(files: Sequence[Planned]) -> None:
    """Write every planned file, or none: on an error, undo what was done and raise."""
    done: list[Planned] = []
    made: list[Path] = []
    temporary: Path | None = None
    try:
        for file in files:
            for folder in reversed([file.path.parent, *file.path.parent.parents]):
                if not folder.exists():
                    folder.mkdir()
                    made.append(folder)
            descriptor, temporary = _new_temporary(file.path)
            with os.fdopen(descriptor, "wb") as stream:
                stream.write(file.data)
            if file.replaces is None and file.path.exists():
                raise QuizbankError(f"{_shown(file.path)} appeared while importing")
            os.replace(temporary, file.path)
            temporary = None
            done.append(file)
    except BaseException:
        if temporary is not None:
            temporary.unlink(missing_ok=True)
        for file in reversed(done):
            if file.replaces is None:
                file.path.unlink(missing_ok=True)
            else:
                file.path.write_bytes(file.replaces)
        for folder in reversed(made):
            with contextlib.suppress(OSError):
                folder.rmdir()
        raise


def _new_temporary(path: Path) -> tuple[int, Path]:
    """A file created beside `path` under a name of its own (`.<name>.<random>.importing`,
    with the mode a new file gets), open for writing: a file already there is never taken
    for it, so never deleted with it."""
    while True:
        temporary = path.with_name(f".{path.name}.{secrets.token_hex(4)}.importing")
        try:
            flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW
            return os.open(temporary, flags, 0o666), temporary
        except FileExistsError:
            continue


def _shown(path: Path) -> str:
    return printable(display_path(path))
