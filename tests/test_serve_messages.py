"""What `quizbank serve` says: each problem of a quiz in the terminal, as `validate` prints it,
at start-up and after each save; warnings on the quiz's page too, not only errors; and a port
already taken said in a line, with what to do."""

from __future__ import annotations

import shutil
import socket
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import QUIZ, Run, edit

from quizbank.registry import discover_renderers
from quizbank.serve import Serving, start

ROOT = Path(__file__).resolve().parents[1]
RAW_HTML = "raw HTML is shown as text, tags and all"


def _problems(run: Run) -> list[str]:
    return [line for line in run.lines if ": error: " in line or ": warning: " in line]


@pytest.fixture
def with_problems(bank: Path) -> Path:
    """The bank with a warning in the English quiz, and a second quiz with an error."""
    edit(
        bank / "en" / f"{QUIZ}.yaml",
        "    prompt: Why are large",
        "    prompt: Why <b>are</b> large",
    )
    second = bank / "en" / "second.yaml"
    shutil.copy(bank / "en" / f"{QUIZ}.yaml", second)
    edit(second, f"id: {QUIZ}", "id: second")
    edit(second, "level: intermediate", "level: expert")
    return bank


def _stopping(monkeypatch: pytest.MonkeyPatch, then: Callable[[Serving], object] | None) -> None:
    """Serving's watch does `then` (a change) and reports it, then is stopped as by Ctrl-C."""

    def watch(self: Serving, on_update: Callable[[set[str]], None] | None = None) -> None:
        if then is not None and on_update is not None:
            on_update(set(then(self)))
        raise KeyboardInterrupt

    monkeypatch.setattr(Serving, "watch", watch)


def test_serve_prints_each_problem_as_validate_does(
    with_problems: Path, cli: Callable[..., Run], monkeypatch: pytest.MonkeyPatch
) -> None:
    expected = _problems(cli("validate", "content"))
    assert any(RAW_HTML in line for line in expected)
    assert any("level: 'expert' is not allowed here" in line for line in expected), expected
    _stopping(monkeypatch, None)
    run = cli("serve", "content", "--port", "0")
    assert run.code == 0, run.err
    assert run.lines[0].startswith("serving 2 quizzes (1 with errors) at http://127.0.0.1:")
    assert _problems(run) == expected
    assert run.lines[1:] == [*expected, "stopped"]


def test_serve_prints_the_problems_of_a_quiz_saved(
    bank: Path, cli: Callable[..., Run], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = bank / "en" / f"{QUIZ}.yaml"

    def save(serving: Serving) -> set[str]:
        edit(path, "    prompt: Why are large", "    prompt: Why <b>are</b> large")
        edit(path, "    answer: d\n", "    answer: z\n")
        return serving.preview.update([str(path)], modified_only=True)

    _stopping(monkeypatch, save)
    run = cli("serve", "content", "--port", "0")
    assert run.code == 0, run.err
    started, *after = run.lines
    assert started.startswith("serving 1 quiz at http://127.0.0.1:")
    problems = _problems(run)
    assert len(problems) == 2, run.out
    assert any(RAW_HTML in line and ": warning: " in line for line in problems)
    assert any(
        line.startswith(f"content/en/{QUIZ}.yaml:")
        and "answer: 'z'" in line
        and ": error: " in line
        for line in problems
    ), problems
    assert f"{QUIZ}: has errors (1 error, 1 warning)" in after
    assert after.index(f"{QUIZ}: has errors (1 error, 1 warning)") > after.index(problems[0])


def test_a_quiz_with_warnings_shows_them_on_its_page(with_problems: Path) -> None:
    running = start([with_problems], discover_renderers(), port=0)
    try:
        page = (running.preview.lookup(f"/en/{QUIZ}.html") or b"").decode()
        assert "<h1>Checkpoint sharding and resumable training</h1>" in page  # the quiz itself
        assert f"content/en/{QUIZ}.yaml:11:" in page
        assert f"<strong>warning</strong>: question 1 (why-shard), prompt: {RAW_HTML}" in page
        assert "&lt;b&gt;are&lt;/b&gt; large" in page  # its line, escaped
        assert "<b>are</b>" not in page.split("<main")[0]
    finally:
        running.close()


def test_a_port_in_use_is_said_with_what_to_do(bank: Path, cli: Callable[..., Run]) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        run = cli("serve", "content", "--port", str(port))
    assert run.code == 1
    assert run.err.splitlines()[-1] == (
        f"quizbank: error: port {port} is in use; choose another with --port"
    )
    assert run.out == ""
