"""Writing exports safely: nothing outside the output folder, nothing half-written.

A build stages every file in a folder inside the output folder (so on its file system: a rename
never crosses devices), then moves them into place. Before the first move it writes a journal
of the moves; a build killed while moving leaves the journal, and the next build into the folder
finishes the moves before it starts. A lock keeps two builds out of one folder at a time, so a
staging folder found there by a build that holds the lock was left by a dead one, and goes.
"""

from __future__ import annotations

import fcntl
import json
import os
import re
import shutil
import signal
import tempfile
from collections.abc import Iterable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path, PurePosixPath

from quizbank.errors import QuizbankError
from quizbank.model import LANGUAGE_CODE

STAGING_PREFIX = ".quizbank-staging-"
JOURNAL = ".quizbank-journal.json"
LOCK = ".quizbank-lock"
_STAGING_NAME = re.compile(rf"^{re.escape(STAGING_PREFIX)}[A-Za-z0-9_]+$")
_MAX_JOURNAL_BYTES = 64 << 20


class OutputError(QuizbankError):
    """The output folder cannot be written as asked."""

    category = "error"


def safe_relative(text: object) -> PurePosixPath | None:
    """`text` as a relative path that stays inside a folder, or None when it is not one."""
    if not isinstance(text, str) or not text or "\\" in text or "\x00" in text:
        return None
    path = PurePosixPath(text)
    if path.is_absolute() or any(part in ("..", ".", "") for part in text.split("/")):
        return None
    return path


class OutputFolder:
    """The output folder of one build, locked for its time, with a staging folder inside."""

    def __init__(self, out_dir: Path) -> None:
        self.out_dir = out_dir
        self.created = False
        self.committed = False
        self._lock: int | None = None
        self.staging: Path | None = None

    def open(self) -> None:
        """Create the folder if need be, lock it, repair what a killed build left, stage."""
        if not self.out_dir.exists():
            self.out_dir.mkdir(parents=True)
            self.created = True
        self._lock = _locked(self.out_dir / LOCK)
        self._repair()
        self.staging = Path(tempfile.mkdtemp(prefix=STAGING_PREFIX, dir=self.out_dir))

    def write(self, relative: PurePosixPath, content: bytes) -> None:
        """Stage one file; `relative` is checked to stay inside the output folder."""
        assert self.staging is not None, "open() first"
        if safe_relative(str(relative)) is None:
            raise ValueError(f"a renderer may only write inside its folder, not to {relative}")
        target = self.staging / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(content)

    def staged(self, relative: PurePosixPath) -> Path:
        """Where a staged file is until the commit."""
        assert self.staging is not None
        return self.staging / relative

    def commit(self, relatives: list[PurePosixPath], removed: list[PurePosixPath]) -> None:
        """Move the staged files into place and delete the `removed` ones: journal first, then
        one rename each, with Ctrl-C and SIGTERM held back until the last one is done."""
        assert self.staging is not None
        self._check_targets(relatives)
        journal = {
            "staging": self.staging.name,
            "files": list(map(str, relatives)),
            "removed": list(map(str, removed)),
        }
        with _signals_held():
            write_atomic(self.out_dir / JOURNAL, json.dumps(journal).encode())
            _move_all(self.staging, self.out_dir, relatives)
            _remove_all(self.out_dir, removed)
            (self.out_dir / JOURNAL).unlink()
            self.committed = True
        shutil.rmtree(self.staging, ignore_errors=True)
        self.staging = None

    def close(self) -> None:
        """Drop the staging folder if it is still there, and the output folder too if this
        build created it and wrote nothing; release the lock."""
        if self.staging is not None:
            shutil.rmtree(self.staging, ignore_errors=True)
            self.staging = None
        if self._lock is not None:
            (self.out_dir / LOCK).unlink(missing_ok=True)  # while still holding it
            os.close(self._lock)
            self._lock = None
        if self.created and not self.committed:
            with suppress(OSError):  # not empty: something else was put there meanwhile
                self.out_dir.rmdir()

    def _check_targets(self, relatives: Iterable[PurePosixPath]) -> None:
        """Refuse before moving anything where a file's place is taken by a folder, or a folder
        on its way is a symbolic link (which could lead out of the output folder)."""
        root = str(self.out_dir)
        checked: set[str] = set()
        for relative in map(str, relatives):
            target = os.path.join(root, relative)
            if os.path.isdir(target) and not os.path.islink(target):
                raise OutputError(
                    f"{target} is a folder, where quizbank writes a file; move it away"
                )
            parent = os.path.dirname(relative)
            if parent not in checked:
                if _through_link(self.out_dir, PurePosixPath(relative)):
                    raise OutputError(
                        f"{os.path.join(root, parent)} is a symbolic link; quizbank writes "
                        "only inside the output folder: remove the link"
                    )
                checked.add(parent)

    def _repair(self) -> None:
        """Finish the moves of a build killed while it made them; drop dead builds' staging."""
        journal = self.out_dir / JOURNAL
        if journal.is_file() and journal.stat().st_size <= _MAX_JOURNAL_BYTES:
            for staging, relatives, removed in _read_journal(journal):
                _move_all(self.out_dir / staging, self.out_dir, relatives, missing_ok=True)
                _remove_all(self.out_dir, removed)
        journal.unlink(missing_ok=True)
        for entry in os.scandir(self.out_dir):
            if _STAGING_NAME.match(entry.name) and entry.is_dir(follow_symlinks=False):
                shutil.rmtree(entry.path, ignore_errors=True)


Moves = tuple[str, list[PurePosixPath], list[PurePosixPath]]


def _read_journal(journal: Path) -> Iterator[Moves]:
    """The moves and removals a journal lists, if it is one a build wrote; nothing otherwise."""
    try:
        data = json.loads(journal.read_bytes())
    except (ValueError, RecursionError, OSError):
        return
    if not isinstance(data, dict):
        return
    staging = data.get("staging")
    relatives = _relatives(data.get("files"), depth=1)
    removed = _relatives(data.get("removed"), depth=2)
    usable = relatives is not None and removed is not None
    if usable and isinstance(staging, str) and _STAGING_NAME.match(staging):
        assert relatives is not None and removed is not None
        yield staging, relatives, removed


def _relatives(items: object, depth: int) -> list[PurePosixPath] | None:
    """A list of paths inside a folder, at least `depth` parts deep; None if any is not."""
    if not isinstance(items, list):
        return None
    paths = [safe_relative(item) for item in items]
    if any(path is None or len(path.parts) < depth for path in paths):
        return None
    return [path for path in paths if path is not None]


def _remove_all(out_dir: Path, relatives: Iterable[PurePosixPath]) -> None:
    for relative in relatives:
        if not _through_link(out_dir, relative):
            (out_dir / relative).unlink(missing_ok=True)


def _through_link(out_dir: Path, relative: PurePosixPath) -> bool:
    """Whether a folder on the way from `out_dir` to `relative` is a symbolic link, which
    could lead out of the output folder."""
    folder = out_dir
    for part in relative.parts[:-1]:
        folder = folder / part
        if folder.is_symlink():
            return True
    return False


def _move_all(
    staging: Path, out_dir: Path, relatives: Iterable[PurePosixPath], *, missing_ok: bool = False
) -> None:
    """Move the staged files into place. A folder the output folder does not have yet (every
    format's, in a first build) is moved whole, with one rename, when it holds just the files
    listed; the others file by file."""
    by_folder: dict[str, list[PurePosixPath]] = {}
    for relative in relatives:
        by_folder.setdefault(relative.parts[0], []).append(relative)
    for folder, files in by_folder.items():
        if len(files) > 1 and _moved_whole(staging, out_dir, folder, files):
            continue
        for relative in files:
            source = staging / relative
            if missing_ok and not source.is_file():
                continue
            target = out_dir / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            os.replace(source, target)


def _moved_whole(staging: Path, out_dir: Path, folder: str, files: list[PurePosixPath]) -> bool:
    """Rename the staged `folder` into the output folder if nothing is there at its name yet
    and it holds exactly the `files` listed to move; whether it was."""
    source, target = staging / folder, out_dir / folder
    if os.path.lexists(target) or source.is_symlink() or not source.is_dir():
        return False
    held = {
        PurePosixPath(os.path.relpath(os.path.join(parent, name), staging))
        for parent, _, names in os.walk(source)
        for name in names
    }
    if held != set(files):
        return False
    os.rename(source, target)
    return True


@contextmanager
def _signals_held() -> Iterator[None]:
    """Ctrl-C and SIGTERM wait until the block is done (then they are delivered)."""
    held = {signal.SIGINT, signal.SIGTERM}
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, held)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def write_atomic(path: Path, content: bytes) -> None:
    """Write one file through a temporary file in the same folder, flushed to disk, and a
    rename: a reader finds the old file or the new one. A file replaced keeps its mode."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(content)
            handle.flush()
            os.fsync(handle.fileno())
        if path.is_file():
            os.chmod(tmp, path.stat().st_mode & 0o777)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _content_folder(source: Path) -> Path:
    """The content folder (which holds the language folders) of a path given to build."""
    if LANGUAGE_CODE.match(source.name if source.is_dir() else source.parent.name):
        return source.parent if source.is_dir() else source.parent.parent
    return source if source.is_dir() else source.parent


def _locked(path: Path) -> int:
    """The lock file at `path`, created and locked for this build alone.

    The file is removed when the build ends; a build that opened it just before then would
    hold a lock on a removed file, so the lock counts only while the path is still that file.
    """
    while True:
        descriptor = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o644)
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(descriptor)
            raise OutputError(
                f"another quizbank build is writing into {path.parent}; wait for it to finish"
            ) from None
        with suppress(FileNotFoundError):
            if os.stat(path, follow_symlinks=False).st_ino == os.fstat(descriptor).st_ino:
                return descriptor
        os.close(descriptor)  # removed by the build that just ended: lock the new one


def check_folder_to_write(out_dir: Path, example: str) -> None:
    """Refuse a folder no command writes into: a file-system root, a home folder, or a file
    (`example` names a folder to choose instead, such as dist/)."""
    resolved = out_dir.resolve()
    shown = str(out_dir) or "."
    if resolved == Path(resolved.anchor):
        raise OutputError(
            f"{shown} is the root of a file system; choose a folder such as {example}"
        )
    home = Path.home().resolve()
    if resolved == home or resolved.parent == Path("/home") or resolved == Path("/root"):
        raise OutputError(f"{shown} is a home folder; choose a folder such as {example}")
    if out_dir.exists() and not out_dir.is_dir():
        raise OutputError(f"{shown} is not a folder; choose a folder such as {example}")


def check_output_folder(
    out_dir: Path, inputs: Iterable[Path], *, marker: str, force: bool = False
) -> None:
    """Refuse an output folder a build must not write into: a file-system root, a home folder,
    a file, one that holds the content, or a non-empty folder quizbank did not make (whose
    `marker` file is missing) unless `force`."""
    check_folder_to_write(out_dir, "dist/")
    resolved = out_dir.resolve()
    shown = str(out_dir) or "."
    for source in inputs:
        if source.resolve().is_relative_to(resolved):
            raise OutputError(
                f"{shown} holds the content being built ({source}); choose an output folder "
                "of its own, such as dist/"
            )
        content = _content_folder(source)
        if resolved.is_relative_to(content.resolve()):
            raise OutputError(
                f"{shown} is inside the content folder {content}: the next build would read it "
                "as content; choose an output folder beside it, such as dist/"
            )
    if out_dir.is_dir() and not force and not (out_dir / marker).is_file():
        with os.scandir(out_dir) as entries:
            if any(not entry.name.startswith(".quizbank-") for entry in entries):
                raise OutputError(
                    f"{shown} is not empty and was not made by quizbank; choose an empty or new "
                    "folder, or pass --force to write into it anyway"
                )
