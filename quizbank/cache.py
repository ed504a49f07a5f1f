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
import stat
import sys
import time
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path, PurePosixPath
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, ValidationError

from quizbank import __version__
from quizbank.diagnostics import printable
from quizbank.model import LANG_PATTERN, Level
from quizbank.output import safe_relative, write_atomic
from quizbank.paths import format_loc
from quizbank.project import link_problem
from quizbank.yamlsource import YamlError, read_bytes

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
    images: list[str] = field(default_factory=list)  # the image files it uses, likewise
    # By renderer key: the warning of what that format could not carry of the quiz.
    losses: dict[str, list[dict[str, object]]] = field(default_factory=dict)


@dataclass
class BuildCache:
    """All cache entries of an output folder, with the size and time of every file written."""

    quizzes: dict[str, CachedQuiz] = field(default_factory=dict)
    stamps: dict[str, list[int]] = field(default_factory=dict)
    digests: dict[str, tuple[int, int, str]] = field(default_factory=dict)
    used_digests: dict[str, tuple[int, int, str]] = field(default_factory=dict)

    warning: str | None = None  # why the cache found was ignored, for the user

    @classmethod
    def load(cls, out_dir: Path, formats: Collection[str]) -> BuildCache:
        """The cache of a previous build, or an empty one when there is none or it is unusable.

        The cache is untrusted (an output folder may come from anywhere): it is validated
        whole, every path in it must lie inside the output folder under one of `formats`, and
        a cache that is not one quizbank wrote is ignored whole, with a warning.
        """
        path = out_dir / CACHE_FILE
        if not path.exists() and not path.is_symlink():
            return cls()
        try:
            if not path.is_file() or path.is_symlink() or path.stat().st_size > MAX_CACHE_BYTES:
                raise ValueError("it is not a plain file of a plausible size")
            document = _CacheDocument.model_validate_json(path.read_bytes())
            if document.format != CACHE_FORMAT or document.version != __version__:
                return cls()  # written by another version: simply out of date
            problem = _problem(document, formats)
            if problem:
                raise ValueError(problem)
        except (OSError, ValueError) as exc:
            reason = _reason(exc)
            return cls(
                warning=f"the build cache {path} is not one quizbank wrote ({reason}); it was "
                "ignored, and every quiz is built again"
            )
        quizzes = {
            quiz_id: CachedQuiz(
                entry.source,
                [w.model_dump() for w in entry.warnings],
                [s.model_dump() for s in entry.summaries],
                entry.outputs,
                entry.sources,
                entry.images,
                {key: [w.model_dump() for w in found] for key, found in entry.losses.items()},
            )
            for quiz_id, entry in document.quizzes.items()
        }
        stamps = {name: list(stamp) for name, stamp in document.stamps.items()}
        return cls(quizzes, stamps, dict(document.digests))

    def source_hash(
        self,
        files: Mapping[str, Path],
        images: Iterable[str],
        languages: Iterable[str],
        settings: str,
    ) -> str:
        """A hash of a quiz's files (by language), the image files it used when last built,
        and what its checks depend on (`settings`); raises OSError for a file that is gone or
        that checking refuses unread (a link out of the content folder, a named pipe)."""
        for path in files.values():
            if (problem := link_problem(path)) is not None:
                raise OSError(problem)
        digests = {lang: self.file_digest(path) for lang, path in files.items()}
        image_digests = {path: self.file_digest(Path(path)) for path in images}
        return self.source_hash_of(digests, image_digests, languages, settings)

    @staticmethod
    def source_hash_of(
        digests: Mapping[str, str],
        image_digests: Mapping[str, str],
        languages: Iterable[str],
        settings: str,
    ) -> str:
        """A hash of a quiz's file digests (by language), its images' (by absolute path), and
        what its checks depend on."""
        core = f"{__version__}|{code_fingerprint('quizbank')}"
        digest = hashlib.sha256(f"{core}|{','.join(languages)}|{settings}".encode())
        for lang in sorted(digests):
            digest.update(f"|{lang}|{digests[lang]}".encode())
        for path in sorted(image_digests):
            digest.update(f"|{path}|{image_digests[path]}".encode())
        return digest.hexdigest()

    def file_digest(self, path: Path) -> str:
        """The SHA-256 of a file's content, read again only if its size or time has changed;
        OSError for one that is not a regular file or is larger than a quiz file may be."""
        info = os.stat(path)
        name = str(path)
        known = self.digests.get(name)
        stamp = (info.st_size, info.st_mtime_ns)
        if known is not None and known[:2] == stamp and stat.S_ISREG(info.st_mode):
            self.used_digests[name] = known
            return known[2]
        try:
            data = read_bytes(path)  # a regular file, of a size a quiz file may have
        except YamlError as exc:
            raise OSError(exc.message) from None
        digest = hashlib.sha256(data).hexdigest()
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


def _reason(exc: OSError | ValueError) -> str:
    """Why a cache was refused, in one short line."""
    if isinstance(exc, ValidationError):
        first = exc.errors(include_url=False)[0]
        where = format_loc(first["loc"])
        return printable(f"{where + ': ' if where else ''}{first['msg']}"[:200])
    if isinstance(exc, OSError):
        return exc.strerror or type(exc).__name__
    return printable(str(exc).splitlines()[0][:200])


MAX_CACHE_BYTES = 256 << 20
_QUIZ_ID = r"^[a-z0-9]+(?:-[a-z0-9]+)*$"


class _Strict(BaseModel):
    # Built when a cache is first read: a build without one does not pay for it.
    model_config = ConfigDict(extra="forbid", strict=True, defer_build=True)


class _Warning(_Strict):
    path: Annotated[str, StringConstraints(max_length=4096)]
    line: Annotated[int, Field(ge=1)]
    column: Annotated[int, Field(ge=1)]
    severity: Literal["warning"]
    field: Annotated[str, StringConstraints(max_length=1000)]
    message: Annotated[str, StringConstraints(max_length=10_000)]


class _Summary(_Strict):
    quiz_id: Annotated[str, StringConstraints(pattern=_QUIZ_ID, max_length=64)]
    lang: Annotated[str, StringConstraints(pattern=LANG_PATTERN, max_length=35)]
    title: Annotated[str, StringConstraints(min_length=1, max_length=300)]
    level: Level
    question_count: Annotated[int, Field(ge=1, le=10_000)]
    untranslated: Annotated[int, Field(ge=0, le=10_000)] = 0


class _Entry(_Strict):
    source: Annotated[str, StringConstraints(max_length=64)]
    warnings: list[_Warning]
    summaries: list[_Summary]
    outputs: dict[str, list[str]]
    sources: list[Annotated[str, StringConstraints(max_length=4096)]] = []  # absent in older caches
    images: list[Annotated[str, StringConstraints(max_length=4096)]] = []
    losses: dict[str, list[_Warning]] = {}


class _CacheDocument(BaseModel):
    model_config = ConfigDict(extra="forbid", defer_build=True)

    format: int
    version: str
    quizzes: dict[Annotated[str, StringConstraints(pattern=_QUIZ_ID, max_length=64)], _Entry]
    stamps: dict[str, tuple[int, int]]
    digests: dict[str, tuple[int, int, Annotated[str, StringConstraints(max_length=64)]]]


def _problem(document: _CacheDocument, formats: Collection[str]) -> str:
    """What makes a well-formed cache unusable: a path outside the output folder or its
    formats, or a summary of another quiz; "" when there is none."""
    paths = [*document.stamps]
    for quiz_id, entry in document.quizzes.items():
        paths.extend(path for outputs in entry.outputs.values() for path in outputs)
        if any(summary.quiz_id != quiz_id for summary in entry.summaries):
            return f"the entry of {quiz_id!r} holds another quiz's summary"
    for path in paths:
        relative = safe_relative(path)
        if relative is None or len(relative.parts) < 2 or relative.parts[0] not in formats:
            return f"the path {path[:80]!r} is not inside a format's folder"
    return ""


def file_stamp(path: str | Path) -> list[int] | None:
    """A file's size and modification time, or None when it is gone."""
    try:
        info = os.stat(path)
    except OSError:
        return None
    return [info.st_size, info.st_mtime_ns]
