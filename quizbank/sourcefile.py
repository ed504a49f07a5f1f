"""Reading a quiz file safely: a regular file only, at most MAX_FILE_BYTES, strict UTF-8.

Every command reads a quiz file through `read_bytes`; a file that cannot be read as a quiz
document at all is a `YamlError`, which says where and why.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from quizbank.diagnostics import Position

MAX_FILE_BYTES = 16 * 1024 * 1024

_START = Position()


class YamlError(Exception):
    """A file that cannot be read as a quiz document at all; carries where and why."""

    def __init__(self, message: str, position: Position = _START, field: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.position = position
        self.field = field


def read_text(path: Path) -> str:
    """The file's text: size-bounded, strict UTF-8, a leading byte-order mark dropped."""
    return decode(read_bytes(path))


def read_bytes(path: Path) -> bytes:
    """The bytes of a quiz file, the one way every command reads one: a regular file only (a
    link to one followed), read at most `MAX_FILE_BYTES`. A named pipe, a device, a socket or a
    folder is refused without being opened (a pipe would be waited on, a device read without
    end), and a file larger than a quiz file may be, unread."""
    _refuse_unless_regular(os.stat(path).st_mode)
    # Not blocking: should a pipe replace the file since, opening it does not wait for a writer.
    descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
    with os.fdopen(descriptor, "rb") as file:
        info = os.fstat(descriptor)
        _refuse_unless_regular(info.st_mode)
        if info.st_size > MAX_FILE_BYTES:
            raise YamlError(
                f"the file is {info.st_size / 2**20:.1f} MiB; a quiz file may be at most "
                f"{MAX_FILE_BYTES // 2**20} MiB (split the quiz into several files)"
            )
        raw = file.read(MAX_FILE_BYTES + 1)
    if len(raw) > MAX_FILE_BYTES:  # it grew since
        raise YamlError(f"the file grew past {MAX_FILE_BYTES // 2**20} MiB while it was read")
    return raw


_KINDS = (
    (stat.S_ISFIFO, "a named pipe"),
    (stat.S_ISCHR, "a device"),
    (stat.S_ISBLK, "a device"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISDIR, "a folder"),
)


def _refuse_unless_regular(mode: int) -> None:
    if stat.S_ISREG(mode):
        return
    what = next((name for test, name in _KINDS if test(mode)), "a special file")
    raise YamlError(f"this is {what}, not an ordinary file; a quiz file must be an ordinary file")


def decode(raw: bytes) -> str:
    """Strict UTF-8 text; a YamlError, located, for a byte that is not. (The characters YAML does
    not allow are found by the parser, and located then: see yamlsyntax.character_error.)"""
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")) or (
        b"\x00" in raw and raw.count(0) * 4 >= len(raw)
    ):
        raise YamlError("the file is saved as UTF-16; save it as UTF-8 in your editor")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line_start = raw.rfind(b"\n", 0, exc.start) + 1
        before = raw[line_start : exc.start].decode("utf-8", errors="replace")
        raise YamlError(
            f"the file is not UTF-8 (byte 0x{raw[exc.start]:02x} cannot be decoded); "
            "save it as UTF-8 in your editor",
            Position(raw.count(b"\n", 0, exc.start) + 1, len(before) + 1),
        ) from None
    return text
