"""Writing exports safely: everything goes to a staging folder first, then each file is renamed
into place, so a failed or interrupted build never leaves a half-written export."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path, PurePosixPath


class Staging:
    """A temporary folder beside the output folder, on the same file system."""

    def __init__(self, out_dir: Path) -> None:
        self.out_dir = out_dir
        out_dir.parent.mkdir(parents=True, exist_ok=True)
        self.root = Path(tempfile.mkdtemp(prefix=f".{out_dir.name}-staging-", dir=out_dir.parent))

    def write(self, relative: PurePosixPath, content: bytes) -> None:
        """Stage one file; `relative` is checked to stay inside the output folder."""
        if relative.is_absolute() or ".." in relative.parts:
            raise ValueError(f"a renderer may only write inside its folder, not to {relative}")
        target = self.root / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(content)

    def commit(self, relatives: list[PurePosixPath]) -> None:
        """Move the staged files into the output folder, each with one atomic rename."""
        for relative in relatives:
            target = self.out_dir / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            os.replace(self.root / relative, target)
        self.discard()

    def discard(self) -> None:
        shutil.rmtree(self.root, ignore_errors=True)


def write_atomic(path: Path, content: bytes) -> None:
    """Write one file through a temporary file in the same folder and a rename."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(content)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
