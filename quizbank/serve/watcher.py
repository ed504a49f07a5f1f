"""Following a preview's files as they are saved: the folders to watch, watched again where they
are after being moved away, back or replaced, and each change handed to the preview."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Sequence
from pathlib import Path

from watchfiles import Change, watch

from quizbank.serve.preview import Preview

REWATCH_SECONDS = 0.5  # how often a watched folder that is gone is looked for


def watched_folders(paths: Sequence[Path]) -> list[Path]:
    """The folders to watch: each given folder, and for a file the content folder holding its
    language folder (where its translations are)."""
    folders: set[Path] = set()
    for path in paths:
        if path.is_dir():
            folders.add(path.resolve())
        else:
            folders.add(path.resolve().parent.parent)
    # A folder inside another watched one is watched with it.
    return sorted(f for f in folders if not any(o != f and f.is_relative_to(o) for o in folders))


def _identities(folders: Sequence[Path]) -> tuple[tuple[int, int] | None, ...]:
    """Which folder each path now names (device and inode), None for one that is gone."""
    marks: list[tuple[int, int] | None] = []
    for folder in folders:
        try:
            info = os.stat(folder)
        except OSError:
            marks.append(None)
        else:
            marks.append((info.st_dev, info.st_ino))
    return tuple(marks)


def follow(
    preview: Preview,
    stop: threading.Event,
    watching: threading.Event,
    report: Callable[[set[str]], None],
) -> None:
    """Watch the preview's files until `stop` is set (or Ctrl-C), updating the preview and
    reporting the quizzes each update changed; `watching` is set once a watch has begun.

    Once a watch has begun, the whole bank is looked through again, for what changed before
    it did. A watched folder moved away, back, or replaced is watched again where it then is
    (a watch follows the folder it began on)."""
    roots = watched_folders(preview.paths)
    while not stop.is_set():
        marks = _identities(roots)
        present = [root for root, mark in zip(roots, marks, strict=True) if mark]
        if not present:  # all gone: served so, until one is back
            report(preview.rescan())
            while _identities(roots) == marks and not stop.wait(REWATCH_SECONDS):
                pass
            continue
        began = False
        for changes in watch(
            *present,
            watch_filter=preview.watches,
            stop_event=stop,
            step=20,
            debounce=400,
            rust_timeout=int(REWATCH_SECONDS * 1000),
            yield_on_timeout=True,
        ):
            if not began:
                began = True
                report(preview.rescan())
                watching.set()
            if changes:
                modified_only = all(change == Change.modified for change, _ in changes)
                paths = [path for _, path in changes]
                report(preview.update(paths, modified_only=modified_only))
            if _identities(roots) != marks:
                break
