"""The build cache: which outputs of which quiz are still current.

An entry is keyed by a hash of the quiz's source files, the run's languages, the renderer, its
options, the versions of quizbank and of the renderer's distribution, and a hash of their code
(so that an edited renderer misses the cache during development too). It lives in the output
folder (`.quizbank-cache.json`); a changed file, renderer, option or code misses it.

So that a rebuild need not read the whole bank again, the digest of each source file is kept with
its size and modification time and reused while they are unchanged (as make and git do).
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path, PurePosixPath

from quizbank import __version__
from quizbank.output import write_atomic

CACHE_FILE = ".quizbank-cache.json"
CACHE_FORMAT = 2
# A source file's recorded digest is trusted while its size and modification time are unchanged,
# and only if the file had not been written for this long when the digest was taken: a file
# edited again within the same tick of the file system's clock would keep its stamp.
SETTLED_NS = 2_000_000_000


@lru_cache(maxsize=64)
def code_fingerprint(module_name: str) -> str:
    """A hash of a module's code: the files of its package folder, or its one file."""
    module_file = getattr(sys.modules[module_name], "__file__", None)
    if module_file is None:
        return "?"
    path = Path(module_file)
    files = sorted(
        p for p in path.parent.rglob("*") if p.is_file() and "__pycache__" not in p.parts
    )
    digest = hashlib.sha256()
    for file in files if path.name == "__init__.py" else [path]:
        digest.update(file.as_posix().encode())
        digest.update(file.read_bytes())
    return digest.hexdigest()[:16]


def renderer_key(
    name: str, version: str, module: str, options_json: str, languages: Iterable[str]
) -> str:
    """What a renderer's output depends on besides the sources: its identity, code and options."""
    return f"{name}|{version}|{code_fingerprint(module)}|{options_json}|{','.join(languages)}"


@dataclass
class CachedQuiz:
    """One quiz's cached outcome: its warnings, summaries and outputs per renderer."""

    source: str
    warnings: list[dict[str, object]] = field(default_factory=list)
    summaries: list[dict[str, object]] = field(default_factory=list)
    outputs: dict[str, list[str]] = field(default_factory=dict)
    sources: list[str] = field(default_factory=list)  # its files, as absolute paths


@dataclass
class BuildCache:
    """All cache entries of an output folder, with the size and time of every file written."""

    quizzes: dict[str, CachedQuiz] = field(default_factory=dict)
    stamps: dict[str, list[int]] = field(default_factory=dict)
    digests: dict[str, tuple[int, int, str]] = field(default_factory=dict)
    used_digests: dict[str, tuple[int, int, str]] = field(default_factory=dict)

    @classmethod
    def load(cls, out_dir: Path) -> BuildCache:
        """The cache of a previous build, or an empty one when there is none or it is unusable."""
        try:
            data = json.loads((out_dir / CACHE_FILE).read_text(encoding="utf-8"))
            if data.get("format") != CACHE_FORMAT or data.get("version") != __version__:
                return cls()
            quizzes = {qid: CachedQuiz(**entry) for qid, entry in data["quizzes"].items()}
            stamps = {k: list(v) for k, v in data["stamps"].items()}
            digests = {
                k: (size, mtime, digest) for k, (size, mtime, digest) in data["digests"].items()
            }
            return cls(quizzes, stamps, digests)
        except (OSError, ValueError, TypeError, KeyError, AttributeError):
            return cls()

    def source_hash(self, files: Mapping[str, Path], languages: Iterable[str], strict: bool) -> str:
        """A hash of a quiz's files (by language) and of what its checks depend on."""
        digests = {lang: self.file_digest(path) for lang, path in files.items()}
        return self.source_hash_of(digests, languages, strict)

    @staticmethod
    def source_hash_of(digests: Mapping[str, str], languages: Iterable[str], strict: bool) -> str:
        """A hash of a quiz's file digests (by language) and of what its checks depend on."""
        core = f"{__version__}|{code_fingerprint('quizbank')}"
        digest = hashlib.sha256(f"{core}|{','.join(languages)}|{strict}".encode())
        for lang in sorted(digests):
            digest.update(f"|{lang}|{digests[lang]}".encode())
        return digest.hexdigest()

    def file_digest(self, path: Path) -> str:
        """The SHA-256 of a file's content, read again only if its size or time has changed."""
        info = os.stat(path)
        name = str(path)
        known = self.digests.get(name)
        if known is not None and known[:2] == (info.st_size, info.st_mtime_ns):
            self.used_digests[name] = known
            return known[2]
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
        if info.st_mtime_ns < time.time_ns() - SETTLED_NS:
            self.used_digests[name] = (info.st_size, info.st_mtime_ns, digest)
        return digest

    def current_outputs(
        self, out_dir: Path, quiz_id: str, source: str, key: str
    ) -> list[str] | None:
        """The outputs recorded for this quiz and renderer key, if they are all still as written."""
        entry = self.quizzes.get(quiz_id)
        if entry is None or entry.source != source or key not in entry.outputs:
            return None
        recorded = entry.outputs[key]
        for path in recorded:
            if self.stamps.get(path) != file_stamp(os.path.join(out_dir, path)):
                return None
        return recorded

    def save(self, out_dir: Path) -> None:
        data = {
            "format": CACHE_FORMAT,
            "version": __version__,
            "quizzes": {qid: vars(entry) for qid, entry in sorted(self.quizzes.items())},
            "stamps": self.stamps,
            "digests": self.used_digests,
        }
        write_atomic(out_dir / CACHE_FILE, json.dumps(data, ensure_ascii=False).encode("utf-8"))

    def stamp(self, out_dir: Path, paths: Iterable[PurePosixPath]) -> None:
        """Remember the size and modification time of files just written."""
        for path in paths:
            stamp = file_stamp(out_dir / path)
            if stamp is not None:
                self.stamps[str(path)] = stamp


def file_stamp(path: str | Path) -> list[int] | None:
    """A file's size and modification time, or None when it is gone."""
    try:
        info = os.stat(path)
    except OSError:
        return None
    return [info.st_size, info.st_mtime_ns]
