"""Shared fixtures: a copy of the bundled content to break, and the command line run in-process."""

from __future__ import annotations

import shutil
import signal
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from chromium import CHROMIUM, CHROMIUM_ARGS

from quizbank.cli import main
from quizbank.loader import load_quiz
from quizbank.model import Quiz

if TYPE_CHECKING:
    from playwright.sync_api import Browser

REPO = Path(__file__).resolve().parent.parent
CONTENT = REPO / "content"
QUIZ = "checkpoint-sharding"


@dataclass
class Run:
    """The outcome of one command: exit code and what it printed."""

    code: int
    out: str
    err: str

    @property
    def lines(self) -> list[str]:
        return self.out.splitlines()

    @property
    def errors(self) -> list[str]:
        """The printed lines that report an error."""
        return [line for line in self.lines if ": error: " in line]


def as_from_a_terminal() -> None:
    """`preexec_fn` of a command a test stops with SIGINT as Ctrl-C would: its SIGINT is the
    default one even when this test run's is ignored (as a shell ignores it for a run started in
    the background with `&`), so the command hears it as it would in a terminal."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def bundled_quiz(lang: str) -> Quiz:
    """The bundled quiz in one language, validated."""
    loaded = load_quiz(CONTENT / lang / f"{QUIZ}.yaml")
    assert loaded.quiz is not None, [d.format() for d in loaded.diagnostics]
    return loaded.quiz


@pytest.fixture(scope="session")
def english() -> Quiz:
    return bundled_quiz("en")


@pytest.fixture(scope="session")
def urdu() -> Quiz:
    return bundled_quiz("ur")


@pytest.fixture
def bank(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the first bundled quiz (checkpoint-sharding, in both languages) as content/ in a
    temporary working folder, with the schema beside it, so that counts stay put as content
    grows; paths print relative to it."""
    for lang in ("en", "ur"):
        (tmp_path / "content" / lang).mkdir(parents=True)
        shutil.copy(CONTENT / lang / f"{QUIZ}.yaml", tmp_path / "content" / lang)
    shutil.copytree(REPO / "schema", tmp_path / "schema")  # where their schema line leads
    monkeypatch.chdir(tmp_path)
    return tmp_path / "content"


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str]) -> Callable[..., Run]:
    """Run `quizbank ARGS...` in this process and capture its output."""

    def run(*args: str) -> Run:
        code = main([str(a) for a in args])
        captured = capsys.readouterr()
        return Run(code, captured.out, captured.err)

    return run


def edit(path: Path, old: str, new: str, count: int = 1) -> int:
    """Replace text in a file and return the 1-based line where the first change starts."""
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} is not in {path}"
    line = text[: text.index(old)].count("\n") + 1
    path.write_text(text.replace(old, new, count), encoding="utf-8")
    return line


def line_of(path: Path, needle: str, start: int = 1) -> int:
    """The 1-based number of the first line at or after `start` that contains `needle`."""
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if number >= start and needle in line:
            return number
    raise AssertionError(f"{needle!r} not in {path}")


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """Debian's Chromium driven by Playwright, started once for each test module that asks."""
    from playwright.sync_api import sync_playwright  # only the browser tests need it

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()
