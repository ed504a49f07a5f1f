"""Finding quiz files, grouping them by quiz, and checking each group."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache, partial
from pathlib import Path

from quizbank.bank import BANK_FILE
from quizbank.crosslang import check_coverage, check_translations, quizzes
from quizbank.diagnostics import Diagnostic, Report
from quizbank.errors import QuizbankError, UsageError
from quizbank.freshness import check_freshness
from quizbank.images import MAX_IMAGE_BYTES, Image, content_folder
from quizbank.loader import LoadedQuiz, load_quiz
from quizbank.model import LANGUAGE_CODE, Quiz
from quizbank.parallel import parallel_map
from quizbank.placeholders import check_placeholders
from quizbank.schemaline import check_schema_line

SUFFIXES = (".yaml", ".yml")
DEFAULT_CONTENT = Path("content")
# A quiz whose files add up to this much is big (about 400 questions in two languages): worth
# spreading over the cores by itself when a bank has too few quizzes to spread.
BIG_QUIZ_BYTES = 1 << 20


@dataclass(frozen=True)
class QuizFiles:
    """The files of one quiz, one per language (the language being the file's folder)."""

    quiz_id: str
    files: dict[str, Path] = field(default_factory=dict)

    @property
    def source_bytes(self) -> int:
        """The size of its files together."""
        return sum(path.stat().st_size for path in self.files.values() if path.is_file())

    @property
    def is_big(self) -> bool:
        return self.source_bytes >= BIG_QUIZ_BYTES


@dataclass
class Bank:
    """The quiz files a run works on, and the languages they come in."""

    groups: list[QuizFiles]
    languages: list[str]

    @property
    def file_count(self) -> int:
        return sum(len(g.files) for g in self.groups)


def discover(paths: Iterable[Path]) -> Bank:
    """Every quiz file under the given files and folders, and the translations found beside
    each (`<lang-folder>/../<other-lang>/<same-name>.yaml`), grouped by quiz id.

    Symbolic links are listed, not followed here: where one leads is checked when it is read.
    """
    given = list(paths)
    files: set[Path] = set()
    for path in given:
        if path.is_dir():
            files.update(_quiz_files_under(path))
        elif is_entry(path):
            files.add(path)
        else:
            raise UsageError(f"no such file or folder: {path}")
    if not files:
        where = ", ".join(map(str, given))
        raise QuizbankError(
            f"no quiz file found in {where} (quiz files are content/<lang>/<quiz-id>.yaml)"
        )
    files.update(_translations_beside(files))
    groups: dict[str, QuizFiles] = {}
    for file in sorted(files):
        group = groups.setdefault(file.stem, QuizFiles(file.stem))
        lang = file.parent.name
        if lang in group.files:
            raise UsageError(
                f"{group.files[lang]} and {file} are both quiz {file.stem!r} in {lang!r}"
            )
        group.files[lang] = file
    languages = {lang for g in groups.values() for lang in g.files if LANGUAGE_CODE.match(lang)}
    languages.update(_languages_beside(files))
    return Bank(sorted(groups.values(), key=lambda g: g.quiz_id), sorted(languages))


def is_entry(path: Path) -> bool:
    """Whether something other than a folder is at `path`: a file, a link (even one leading
    nowhere), a named pipe. Such a quiz file is listed; reading it is refused later if need be,
    at the file, in words."""
    try:
        mode = os.lstat(path).st_mode
    except (OSError, ValueError):
        return False
    # One system call for nearly every path; a link is followed to see if it leads to a folder.
    return not path.is_dir() if stat.S_ISLNK(mode) else not stat.S_ISDIR(mode)


def content_folders(bank: Bank) -> list[Path]:
    """The content folders (each holding language folders) of a bank's quiz files."""
    found = {path.parent.parent for group in bank.groups for path in group.files.values()}
    return sorted(found)


def _quiz_files_under(folder: Path) -> Iterator[Path]:
    """The quiz files in a folder tree, links included (and not followed into folders); the
    bank's own file (bank.yaml outside the language folders) is not one."""
    for parent, _, names in os.walk(folder):
        for name in names:
            if name.endswith(SUFFIXES) and not (
                name == BANK_FILE and not LANGUAGE_CODE.match(Path(parent).name)
            ):
                yield Path(parent, name)


def _content_roots(files: Iterable[Path]) -> set[Path]:
    """The content folders (holding the language folders) of quiz files in language folders."""
    return {file.parent.parent for file in files if LANGUAGE_CODE.match(file.parent.name)}


def _language_folders(root: Path) -> list[Path]:
    """The language folders of a content folder."""
    return [
        entry
        for entry in (root.iterdir() if root.is_dir() else ())
        if LANGUAGE_CODE.match(entry.name) and entry.is_dir()
    ]


def _languages_beside(files: Iterable[Path]) -> set[str]:
    """The languages of the content folders of `files` that hold a quiz file: a file given
    alone is checked for the languages the whole folder would be (`--strict` then reports
    its missing translation as a folder-wide run does)."""
    return {
        folder.name
        for root in _content_roots(files)
        for folder in _language_folders(root)
        if any(name.endswith(SUFFIXES) for name in os.listdir(folder))
    }


def _translations_beside(files: Iterable[Path]) -> set[Path]:
    """The other languages' files of the same quizzes, in the language folders beside them."""
    found: set[Path] = set()
    folders: dict[Path, list[Path]] = {}
    for file in files:
        if not LANGUAGE_CODE.match(file.parent.name):
            continue
        root = file.parent.parent
        if root not in folders:
            folders[root] = _language_folders(root)
        for folder in folders[root]:
            for suffix in SUFFIXES:
                other = folder / f"{file.stem}{suffix}"
                if is_entry(other):
                    found.add(other)
    return found


@lru_cache(maxsize=256)
def _no_link_above(folder: str) -> bool:
    """Whether no part of a folder's path is a symbolic link (asked once per folder)."""
    return os.path.realpath(folder) == os.path.abspath(folder)


def link_problem(path: Path) -> str | None:
    """Why a quiz file that is (or lies under) a symbolic link must not be read; None if fine.

    A link may lead anywhere inside the content folder (the folder holding the language
    folders); one that leaves it, leads nowhere or loops is refused before anything is read,
    and where a link leads out of the content folder is not told (only the link's own path).
    """
    if _no_link_above(str(path.parent)) and not path.is_symlink():
        return None
    content = os.path.realpath(path.parent.parent)
    if not Path(os.path.realpath(path)).is_relative_to(content):
        return (
            "this is a symbolic link to a file outside the content folder; quiz files must be "
            "inside it (copy the file in instead of linking it)"
        )
    try:
        path.resolve(strict=True)
    except FileNotFoundError:
        return f"this is a symbolic link to {os.readlink(path)!r}, which does not exist"
    except (RuntimeError, OSError):
        return "this is a symbolic link that leads back to itself"
    return None


@dataclass
class CheckedQuiz:
    """A quiz in all its languages after every check, with what was found."""

    quiz_id: str
    translations: dict[str, Quiz]
    diagnostics: list[Diagnostic]
    digests: dict[str, str]  # by language: the SHA-256 of the bytes that were checked
    files: dict[str, LoadedQuiz] = field(default_factory=dict)  # by language, as loaded

    @property
    def ok(self) -> bool:
        return not Report(self.diagnostics).has_errors

    @property
    def images(self) -> dict[str, dict[str, Image]]:
        """By language: each image a text names, by its path as written."""
        return {lang: item.images for lang, item in self.files.items() if item.images}

    @property
    def image_files(self) -> dict[str, str]:
        """Every image file the quiz uses (its absolute path) with its SHA-256."""
        return {
            os.path.abspath(content_folder(item.path) / image.path): image.sha256
            for item in self.files.values()
            for image in item.images.values()
        }


def check_quiz(
    group: QuizFiles,
    languages: list[str],
    *,
    strict: bool,
    workers: int = 0,
    max_image_bytes: int = MAX_IMAGE_BYTES,
) -> CheckedQuiz:
    """Load every language of a quiz and apply the single-file and cross-language rules.

    With `workers`, the language files are loaded by that many forked processes (side by side
    with two), which send back only the validated quiz and its problems: the node trees of a
    big quiz never enter this process, whose memory stays as compact as the models themselves.
    """
    paths = list(group.files.values())
    load = partial(_load_one, max_image_bytes=max_image_bytes)
    found = parallel_map(load, paths, workers, isolated=True) if workers else map(load, paths)
    loaded = dict(zip(group.files, found, strict=True))
    check_translations(loaded, strict=strict)
    check_freshness(loaded)
    check_coverage(group.quiz_id, loaded, languages, strict=strict)
    for lang, item in loaded.items():
        check_placeholders(item, lang, strict=strict)
        check_schema_line(item)
    diagnostics = [d for item in loaded.values() for d in item.listed_diagnostics()]
    digests = {lang: item.digest for lang, item in loaded.items()}
    return CheckedQuiz(group.quiz_id, quizzes(loaded), diagnostics, digests, loaded)


def _load_one(path: Path, max_image_bytes: int = MAX_IMAGE_BYTES) -> LoadedQuiz:
    """One file's own checks; its node tree is let go before the next file is read, so a quiz
    of thousands of questions holds one language's tree at a time, not all of them."""
    refused = link_problem(path)
    if refused is not None:
        loaded = LoadedQuiz(path)
        loaded.report(refused)
        return loaded
    loaded = load_quiz(path, max_image_bytes)
    if loaded.document:
        loaded.document.release()
    return loaded
