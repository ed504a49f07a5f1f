"""What ships: the sdist and the wheel, built once per test session, and fresh venvs holding each.

CI builds both with `python -m build` and names the folder in QUIZBANK_DIST, so that the tests
check the very files it checked with twine; run anywhere else, they are built here. Each artefact
is installed (never editable) into a venv of its own, outside the checkout.
"""

from __future__ import annotations

import os
import subprocess
import sys
import venv
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Dist:
    """The two artefacts of one build."""

    wheel: Path
    sdist: Path

    @property
    def version(self) -> str:
        """The version in the wheel's name (quizbank-<version>-py3-none-any.whl)."""
        return self.wheel.name.split("-")[1]


def built(folder: Path) -> Dist:
    """The artefacts in `folder`, built there first unless QUIZBANK_DIST names a built folder."""
    given = os.environ.get("QUIZBANK_DIST")
    if given:
        folder = Path(given)
    else:
        subprocess.run(
            [sys.executable, "-m", "build", "--outdir", str(folder), str(REPO)],
            check=True,
            capture_output=True,
        )
    wheels, sdists = sorted(folder.glob("*.whl")), sorted(folder.glob("*.tar.gz"))
    assert len(wheels) == 1 and len(sdists) == 1, f"one wheel and one sdist in {folder}"
    return Dist(wheels[0], sdists[0])


@dataclass(frozen=True)
class Installed:
    """A venv with one artefact installed, and the environment to run its commands in."""

    root: Path

    @property
    def quizbank(self) -> Path:
        return self.root / "bin" / "quizbank"

    @property
    def python(self) -> Path:
        return self.root / "bin" / "python"

    @property
    def env(self) -> dict[str, str]:
        """The caller's environment without anything that would put a checkout on sys.path."""
        env = {k: v for k, v in os.environ.items() if k not in {"PYTHONPATH", "VIRTUAL_ENV"}}
        env["PATH"] = f"{self.root / 'bin'}{os.pathsep}{env.get('PATH', '')}"
        env["PYTHONSAFEPATH"] = "1"  # `python -m` adds no current folder either
        return env


def install(artefact: Path, root: Path) -> Installed:
    """A fresh venv at `root` with `artefact` (a wheel or an sdist) installed, not editable."""
    venv.create(root, with_pip=True)
    installed = Installed(root)
    subprocess.run(
        [installed.python, "-m", "pip", "install", "-q", "--no-input", str(artefact)],
        check=True,
        capture_output=True,
        env=installed.env,
    )
    return installed
