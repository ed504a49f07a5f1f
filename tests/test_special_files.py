"""A quiz file that is not an ordinary file (a named pipe, a link to a device) is refused unread
by every command, which neither waits on it nor reads without end: a regular file only, read
with a size cap, by the one function every command reads quiz files with."""

from __future__ import annotations

import http.client
import json
import os
import re
import resource
import select
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import QUIZ, REPO, as_from_a_terminal

from quizbank.yamlsource import MAX_FILE_BYTES, YamlError, read_bytes

ENGLISH = f"content/en/{QUIZ}.yaml"
URDU = f"content/ur/{QUIZ}.yaml"
PIPE = "this is a named pipe, not an ordinary file; a quiz file must be an ordinary file"
OUTSIDE = (
    "this is a symbolic link to a file outside the content folder; quiz files must be inside it "
    "(copy the file in instead of linking it)"
)
# Generous: a command that waits on a pipe fails here instead of hanging the suite, and one
# that reads a device without end is stopped by its memory limit.
TIMEOUT = 120
MEMORY = 3 << 30


def _limited() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))
    as_from_a_terminal()  # serve is stopped with SIGINT


def quizbank(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "quizbank", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        preexec_fn=_limited,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )


def make_hostile(bank: Path, kind: str) -> str:
    """The English file of the quiz replaced by a hostile one; what each command says of it."""
    english = bank / "en" / f"{QUIZ}.yaml"
    english.unlink()
    if kind == "pipe":
        os.mkfifo(english)
        return PIPE
    if kind == "link to a pipe inside":
        (bank / "pipes").mkdir()
        os.mkfifo(bank / "pipes" / "pipe")
        english.symlink_to(Path("..") / "pipes" / "pipe")
        return PIPE
    english.symlink_to("/dev/zero")
    return OUTSIDE


KINDS = ["pipe", "link to a pipe inside", "link to /dev/zero"]


@pytest.mark.parametrize("kind", KINDS)
def test_validate_refuses_it_at_the_file(bank: Path, kind: str) -> None:
    why = make_hostile(bank, kind)
    run = quizbank(bank.parent, "validate")
    assert run.returncode == 1, run.stdout + run.stderr
    assert f"{ENGLISH}:1:1: error: {why}" in run.stdout.splitlines()


@pytest.mark.parametrize("kind", KINDS)
def test_build_refuses_it_and_writes_nothing(bank: Path, kind: str) -> None:
    why = make_hostile(bank, kind)
    run = quizbank(bank.parent, "build", "-o", "dist")
    assert run.returncode == 1, run.stdout + run.stderr
    assert f"{ENGLISH}:1:1: error: {why}" in run.stdout.splitlines()


@pytest.mark.parametrize("kind", KINDS)
def test_status_counts_it_as_an_error(bank: Path, kind: str) -> None:
    make_hostile(bank, kind)
    run = quizbank(bank.parent, "status", "--format", "json")
    assert run.returncode == 0, run.stdout + run.stderr
    rows = {row["lang"]: row for row in json.loads(run.stdout)["quizzes"]}
    assert rows["en"]["errors"] == 1


@pytest.mark.parametrize("kind", KINDS)
def test_translated_refuses_to_mark_against_it(bank: Path, kind: str) -> None:
    why = make_hostile(bank, kind)
    before = (bank / "ur" / f"{QUIZ}.yaml").read_bytes()
    run = quizbank(bank.parent, "translated", URDU)
    assert run.returncode == 1, run.stdout + run.stderr
    assert f"{ENGLISH}:1:1: error: {why}" in run.stderr
    assert (bank / "ur" / f"{QUIZ}.yaml").read_bytes() == before


@pytest.mark.parametrize("kind", KINDS)
def test_serve_starts_and_shows_the_refusal_on_the_page(bank: Path, kind: str) -> None:
    why = make_hostile(bank, kind)
    server = subprocess.Popen(
        [sys.executable, "-m", "quizbank", "serve", "--port", "0"],
        cwd=bank.parent,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=_limited,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    try:
        assert server.stdout is not None
        assert select.select([server.stdout], [], [], TIMEOUT)[0], "serve never started"
        url = re.search(r"http://127\.0\.0\.1:(\d+)/", server.stdout.readline())
        assert url is not None
        connection = http.client.HTTPConnection("127.0.0.1", int(url.group(1)), timeout=TIMEOUT)
        connection.request("GET", f"/en/{QUIZ}.html")
        page = connection.getresponse().read().decode("utf-8")
        server.send_signal(signal.SIGINT)
        assert server.communicate(timeout=TIMEOUT)[1] == ""
    finally:
        server.kill()
    assert f"{QUIZ}.yaml:1:1</code>: <strong>error</strong>: {why}" in page


@pytest.mark.parametrize(
    ("make", "what"),
    [
        (os.mkfifo, "a named pipe"),
        (lambda path: path.symlink_to("/dev/zero"), "a device"),
        (lambda path: path.mkdir(), "a folder"),
    ],
)
def test_the_shared_reader_refuses_what_is_not_a_regular_file(
    tmp_path: Path, make: object, what: str
) -> None:
    path = tmp_path / "quiz.yaml"
    assert callable(make)
    make(path)
    with pytest.raises(YamlError) as refused:
        read_bytes(path)
    assert refused.value.message.startswith(f"this is {what}, not an ordinary file")


def test_the_shared_reader_reads_no_more_than_a_quiz_file_may_hold(tmp_path: Path) -> None:
    path = tmp_path / "quiz.yaml"
    path.write_bytes(b"#" * (MAX_FILE_BYTES + 1))
    with pytest.raises(YamlError, match="a quiz file may be at most 16 MiB"):
        read_bytes(path)
    path.write_bytes(b"id: x\n")
    assert read_bytes(path) == b"id: x\n"


def test_translated_refuses_to_mark_a_pipe(bank: Path) -> None:
    urdu = bank / "ur" / f"{QUIZ}.yaml"
    urdu.unlink()
    os.mkfifo(urdu)
    run = quizbank(bank.parent, "translated", URDU)
    assert run.returncode == 1, run.stdout + run.stderr
    assert f"{URDU}:1:1: error: {PIPE}" in run.stderr
    assert "no such file" not in run.stderr
