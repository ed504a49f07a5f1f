"""Finding quiz files, grouping them by quiz, and checking each group."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from quizbank.crosslang import check_coverage, check_translations, quizzes
from quizbank.diagnostics import Diagnostic, Report
from quizbank.errors import UsageError
from quizbank.loader import LoadedQuiz, load_quiz
from quizbank.model import Quiz
from quizbank.parallel import parallel_map

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
    """Every quiz file under the given files and folders, grouped by quiz id."""
    files: set[Path] = set()
    for path in paths:
        if path.is_dir():
            files.update(p for p in path.rglob("*") if p.suffix in SUFFIXES and p.is_file())
        elif path.is_file():
            files.add(path)
        else:
            raise UsageError(f"no such file or folder: {path}")
    groups: dict[str, QuizFiles] = {}
    for file in sorted(files):
        group = groups.setdefault(file.stem, QuizFiles(file.stem))
        lang = file.parent.name
        if lang in group.files:
            raise UsageError(
                f"{group.files[lang]} and {file} are both quiz {file.stem!r} in {lang!r}"
            )
        group.files[lang] = file
    languages = sorted({lang for g in groups.values() for lang in g.files})
    return Bank(sorted(groups.values(), key=lambda g: g.quiz_id), languages)


@dataclass
class CheckedQuiz:
    """A quiz in all its languages after every check, with what was found."""

    quiz_id: str
    translations: dict[str, Quiz]
    diagnostics: list[Diagnostic]

    @property
    def ok(self) -> bool:
        return not Report(self.diagnostics).has_errors


def check_quiz(
    group: QuizFiles, languages: list[str], *, strict: bool, workers: int = 0
) -> CheckedQuiz:
    """Load every language of a quiz and apply the single-file and cross-language rules.

    With `workers`, the language files are loaded by that many forked processes (side by side
    with two), which send back only the validated quiz and its problems: the node trees of a
    big quiz never enter this process, whose memory stays as compact as the models themselves.
    """
    paths = list(group.files.values())
    if workers:
        found = parallel_map(_load_one, paths, workers, isolated=True)
    else:
        found = map(_load_one, paths)
    loaded = dict(zip(group.files, found, strict=True))
    check_translations(loaded)
    check_coverage(group.quiz_id, loaded, languages, strict=strict)
    diagnostics = [d for item in loaded.values() for d in item.diagnostics]
    return CheckedQuiz(group.quiz_id, quizzes(loaded), diagnostics)


def _load_one(path: Path) -> LoadedQuiz:
    """One file's own checks; its node tree is let go before the next file is read, so a quiz
    of thousands of questions holds one language's tree at a time, not all of them."""
    loaded = load_quiz(path)
    if loaded.document:
        loaded.document.release()
    return loaded
