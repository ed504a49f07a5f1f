"""`quizbank import FILE...`: read each bank file, convert it, write every file or none, and
check what was written as `quizbank validate` would."""

from __future__ import annotations

import os
import stat
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from quizbank.diagnostics import Diagnostic, display_path, printable
from quizbank.errors import UsageError
from quizbank.images import readable_size
from quizbank.importer.convert import Imported, Loss, convert
from quizbank.importer.files import Planned, existing_image, plan, write
from quizbank.importer.moodle_xml import read_moodle_xml
from quizbank.importer.source import MalformedFile, SourceBank
from quizbank.model import LANGUAGE_CODE
from quizbank.output import OutputError, check_folder_to_write
from quizbank.parallel import parallel_map
from quizbank.project import DEFAULT_CONTENT, QuizFiles, check_quiz, discover
from quizbank.schemaline import write_schema

MAX_FILE_BYTES = 256 * 1024 * 1024  # a bank of thousands of questions with images
GIFT_SUFFIXES = (".gift", ".txt")


@dataclass(slots=True)
class ImportReport:
    """What an import did: the files written (and the schema their schema line leads to, when
    this import wrote it), each file's losses, and what validating the written quizzes
    reports."""

    written: list[Planned] = field(default_factory=list)
    schema: Path | None = None
    imports: list[Imported] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)

    @property
    def losses(self) -> list[tuple[Path, Loss]]:
        return [(imported.source, loss) for imported in self.imports for loss in imported.losses]


def read_bank(path: Path) -> SourceBank:
    """A bank file read by the reader of its format: Moodle XML, or GIFT (`.gift`, `.txt`)."""
    data = _read_regular_file(path)
    head = data[:200].lstrip(b"\xef\xbb\xbf \t\r\n")
    if head.startswith((b"<?xml", b"<quiz")):
        return read_moodle_xml(path, data)
    if path.suffix.lower() in GIFT_SUFFIXES:
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            line = data[: exc.start].count(b"\n") + 1
            column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
            raise MalformedFile(path, line, column, "not UTF-8: save the file as UTF-8") from None
        from quizbank.importer.gift import read_gift  # only a GIFT import needs it

        return read_gift(path, text)
    raise UsageError(
        f"{_shown(path)} is neither Moodle XML (it would start with <?xml or <quiz>) nor GIFT "
        "(a .gift or .txt file)"
    )


def _read_regular_file(path: Path) -> bytes:
    """The bytes of a regular file, at most MAX_FILE_BYTES of them: a FIFO, a device or a
    folder is refused unread (the check is of the file opened, not of its name)."""
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY)
    except OSError as exc:
        raise UsageError(f"{_shown(path)} cannot be read: {exc.strerror}") from None
    status = os.fstat(descriptor)
    limit = readable_size(MAX_FILE_BYTES)
    if not stat.S_ISREG(status.st_mode) or status.st_size > MAX_FILE_BYTES:
        os.close(descriptor)
        if stat.S_ISREG(status.st_mode):
            size = readable_size(status.st_size)
            raise UsageError(f"{_shown(path)} is {size}: at most {limit} is read")
        what = "a folder" if stat.S_ISDIR(status.st_mode) else "a pipe, a device or a socket"
        raise UsageError(f"{_shown(path)} is not a regular file but {what}")
    with os.fdopen(descriptor, "rb") as stream:
        try:
            data = stream.read(MAX_FILE_BYTES + 1)
        except OSError as exc:
            raise UsageError(f"{_shown(path)} cannot be read: {exc.strerror}") from None
    if len(data) > MAX_FILE_BYTES:
        raise UsageError(f"{_shown(path)} holds more than {limit}: at most {limit} is read")
    return data


def check_content_folder(content: Path) -> None:
    """Refuse a content folder import must not write into: what `build` refuses as its output
    folder (a file-system root, a home folder, a file), and a project holding its content
    folder (`-o .` where `-o content` was meant)."""
    check_folder_to_write(content, f"{DEFAULT_CONTENT}/")
    resolved = content.resolve()
    for inner in (DEFAULT_CONTENT, content / DEFAULT_CONTENT):
        if inner.is_dir() and resolved in inner.resolve().parents:
            shown, meant = _shown(content) or ".", _shown(inner)
            raise OutputError(
                f"{shown} holds the content folder {meant}: import into it (-o {meant})"
            )


def import_files(
    paths: Sequence[Path], content: Path, lang: str | None = None, force: bool = False
) -> ImportReport:
    """Import every file into `content`, all or nothing."""
    if lang is not None and not LANGUAGE_CODE.match(lang):
        raise UsageError(f"--lang {printable(lang)!r} is not a language code, such as en or ur")
    check_content_folder(content)
    report = ImportReport()
    for path in paths:
        bank = read_bank(path)
        report.imports.append(convert(bank, lang, lambda name: existing_image(content, name)))
    report.written = plan(content, report.imports, force)
    write(report.written)
    if any(file.path.suffix == ".yaml" for file in report.written):
        report.schema = write_schema(content)  # as `quizbank new` does, on first use
    report.diagnostics = _validated(content, report.written)
    return report


def _validated(content: Path, written: Sequence[Planned]) -> list[Diagnostic]:
    """What `quizbank validate` reports of the quizzes written (with their translations)."""
    quiz_files = [file.path for file in written if file.path.suffix == ".yaml"]
    if not quiz_files:
        return []
    bank = discover(quiz_files)
    check = partial(_problems, languages=bank.languages)
    return [diagnostic for found in parallel_map(check, bank.groups) for diagnostic in found]


def _problems(group: QuizFiles, languages: list[str]) -> list[Diagnostic]:
    return check_quiz(group, languages, strict=False).diagnostics


def _shown(path: Path) -> str:
    return printable(display_path(path))
