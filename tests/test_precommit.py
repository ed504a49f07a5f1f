"""The pre-commit hook as a repository of quizzes uses it: installed by pre-commit itself.

`pre-commit try-repo` clones this project (with any uncommitted change) and installs it into
pre-commit's own environment, as `repo: <quizbank's URL>` in a .pre-commit-config.yaml would, so
this is the install path that a missing package in the wheel breaks first.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import CONTENT, QUIZ, REPO

pytestmark = pytest.mark.skipif(
    not (REPO / ".git").exists(), reason="pre-commit try-repo needs the project as a git checkout"
)


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """pre-commit's cache, empty at first: the hook is installed from a clean clone."""
    return tmp_path_factory.mktemp("pre-commit-home")


@pytest.fixture
def quizzes(tmp_path: Path) -> Path:
    """A git repository of quizzes: the first bundled quiz in both languages, staged."""
    for lang in ("en", "ur"):
        (tmp_path / "content" / lang).mkdir(parents=True)
        shutil.copy(CONTENT / lang / f"{QUIZ}.yaml", tmp_path / "content" / lang)
    git(tmp_path, "init", "-q")
    git(tmp_path, "add", "content")
    return tmp_path


def git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True)


def try_repo(quizzes: Path, home: Path) -> subprocess.CompletedProcess[str]:
    """Run quizbank's hook on every staged quiz file, as a commit would."""
    env = {**os.environ, "PRE_COMMIT_HOME": str(home)}
    env.pop("PYTHONPATH", None)
    return subprocess.run(
        [sys.executable, "-m", "pre_commit", "try-repo", str(REPO), "quizbank-validate"],
        cwd=quizzes,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )


def test_a_good_quiz_passes_the_hook(quizzes: Path, home: Path) -> None:
    done = try_repo(quizzes, home)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "quizbank validate" in done.stdout and "Passed" in done.stdout


def test_a_broken_quiz_blocks_the_commit_and_says_where(quizzes: Path, home: Path) -> None:
    english = quizzes / "content" / "en" / f"{QUIZ}.yaml"
    english.write_text(english.read_text("utf-8").replace("answer: d", "answer: e", 1), "utf-8")
    git(quizzes, "add", "content")
    done = try_repo(quizzes, home)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "Failed" in done.stdout
    assert f"content/en/{QUIZ}.yaml:" in done.stdout
    assert "'e' is not one of the options" in done.stdout
