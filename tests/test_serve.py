"""`quizbank serve`: what it serves and refuses, the live script and its policy, the error page,
the build output untouched by it, and in Chromium (as tests/test_html_browser.py drives it) a
page that follows its file through an edit, a mistake and the fix, without a reload by hand."""

from __future__ import annotations

import http.client
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import as_from_a_terminal
from playwright.sync_api import expect, sync_playwright

from quizbank.cli import _parser, main
from quizbank.diagnostics import Diagnostic, Position, Severity
from quizbank.registry import discover_renderers
from quizbank.serve import Serving, start
from quizbank.serve.live import LIVE_SCRIPT, SCRIPT_PATH, live_page, relax_csp
from quizbank.serve.problem_pages import error_page

ROOT = Path(__file__).resolve().parents[1]
QUIZ_ID = "checkpoint-sharding"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-sync"]
TITLE = "title: Checkpoint sharding and resumable training"


@pytest.fixture
def content(tmp_path: Path) -> Path:
    """A copy of the first bundled quiz, in English and Urdu, with the schema its files' schema
    line leads to (without it, each has a warning, which the preview shows)."""
    for lang in ("en", "ur"):
        (tmp_path / "content" / lang).mkdir(parents=True)
        shutil.copy(ROOT / "content" / lang / f"{QUIZ_ID}.yaml", tmp_path / "content" / lang)
    shutil.copytree(ROOT / "schema", tmp_path / "schema")
    return tmp_path / "content"


@pytest.fixture
def serving(content: Path) -> Iterator[Serving]:
    running = start([content], discover_renderers(), port=0)
    watcher = threading.Thread(target=running.watch, daemon=True)
    watcher.start()
    yield running
    running.close()
    watcher.join(timeout=5)
    assert not watcher.is_alive()


def get(serving: Serving, path: str) -> tuple[int, str]:
    """A GET of a raw request path (not normalised by any client)."""
    host, port = serving.server.server_address[:2]
    connection = http.client.HTTPConnection(str(host), port, timeout=5)
    try:
        connection.putrequest("GET", path, skip_accept_encoding=True)
        connection.endheaders()
        response = connection.getresponse()
        return response.status, response.read().decode("utf-8")
    finally:
        connection.close()


def wait_for_listener(serving: Serving) -> None:
    deadline = time.monotonic() + 5
    while not serving.preview.broker.clients:
        assert time.monotonic() < deadline, "the page never opened its event stream"
        time.sleep(0.02)


def test_relax_csp_adds_only_self_for_the_script_and_the_events() -> None:
    strict = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'"
    assert relax_csp(strict) == (
        "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline' 'self'; "
        "connect-src 'self'"
    )
    assert relax_csp("default-src 'none'") == (
        "default-src 'none'; script-src 'self'; connect-src 'self'"
    )


def test_served_pages_are_the_built_pages_plus_the_live_script(
    content: Path, tmp_path: Path
) -> None:
    assert main(["build", str(content), "-f", "html", "-o", str(tmp_path / "dist")]) == 0
    running = start([content], discover_renderers(), port=0)
    try:
        for lang in ("en", "ur"):
            built = (tmp_path / "dist" / "html" / lang / f"{QUIZ_ID}.html").read_text("utf-8")
            # The build output is as the renderer makes it: strict policy, no live script.
            assert "connect-src" not in built and SCRIPT_PATH not in built
            assert "default-src 'none';" in built
            status, served = get(running, f"/{lang}/{QUIZ_ID}.html")
            assert status == 200
            version = running.preview.version(QUIZ_ID)
            assert served == live_page(built, QUIZ_ID, version)
            assert "connect-src 'self'" in served
            tag = f'<script src="{SCRIPT_PATH}" data-quiz="{QUIZ_ID}" data-version="{version}"></script>'
            assert tag in served
            # Only the policy's meta and the script tag differ.
            undone = served.replace(f"{tag}\n", "")
            undone = re.sub(
                r"script-src 'unsafe-inline' 'self'", "script-src 'unsafe-inline'", undone
            )
            assert undone.replace("; connect-src 'self'", "") == built
        built_index = (tmp_path / "dist" / "html" / "index.html").read_text("utf-8")
        assert SCRIPT_PATH not in built_index
        index = live_page(built_index, "", running.preview.version(""))
        assert get(running, "/")[1] == get(running, "/index.html")[1] == index
    finally:
        running.close()


def test_only_rendered_pages_are_served(serving: Serving, content: Path) -> None:
    assert get(serving, f"/ur/{QUIZ_ID}.html")[0] == 200
    assert get(serving, f"/en/{QUIZ_ID}.html?x=1")[0] == 200
    status, script = get(serving, SCRIPT_PATH)
    assert status == 200 and script == LIVE_SCRIPT.decode()
    for path in (
        f"/en/{QUIZ_ID}.yaml",
        f"/content/en/{QUIZ_ID}.yaml",
        f"/en/../en/{QUIZ_ID}.html",
        f"/en/%2e%2e/en/{QUIZ_ID}.html",
        "/../../../etc/passwd",
        "/..%2f..%2fetc%2fpasswd",
        f"/fr/{QUIZ_ID}.html",
        "/en/",
        str(content / "en" / f"{QUIZ_ID}.yaml"),
    ):
        status, body = get(serving, path)
        assert status == 404, path
        assert "Not found" in body and "sharding" not in body


def first_event(serving: Serving, query: str) -> bytes:
    """What the event stream sends first (within half a second) to a page of this query."""
    host, port = serving.server.server_address[:2]
    with socket.create_connection((str(host), port), timeout=0.5) as connection:
        connection.sendall(f"GET /events?{query} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
        received = b""
        try:
            while b"event:" not in received:
                chunk = connection.recv(4096)
                if not chunk:
                    break
                received += chunk
        except TimeoutError:
            pass
    return received


def test_a_page_loaded_before_a_change_hears_of_it_at_once(serving: Serving) -> None:
    current = serving.preview.version(QUIZ_ID)
    stale = first_event(serving, f"quiz={QUIZ_ID}&version=0123")
    assert b'event: change\ndata: {"quizzes": ["checkpoint-sharding"]}' in stale
    assert b"event:" not in first_event(serving, f"quiz={QUIZ_ID}&version={current}")
    index = serving.preview.version("")
    assert b"event:" not in first_event(serving, f"quiz=&version={index}")
    assert b"event: change" in first_event(serving, "quiz=&version=-1")


def test_binds_to_this_machine_only_by_default() -> None:
    args = _parser().parse_args(["serve"])
    assert (args.host, args.port, args.open) == ("127.0.0.1", 8000, False)


def test_error_page_shows_each_problem_at_its_line_escaped() -> None:
    diagnostic = Diagnostic(
        "content/en/x.yaml",
        Position(2, 8),
        Severity.ERROR,
        "title",
        "bad <b>title</b> & more",
    )
    page = error_page(
        "x", [diagnostic], {"content/en/x.yaml": 'id: x\ntitle: <img src=a onerror="alert(1)">\n'}
    )
    assert "content/en/x.yaml:2:8" in page
    assert "title: bad &lt;b&gt;title&lt;/b&gt; &amp; more" in page
    assert "title: <mark>&lt;</mark>img src=a onerror=&quot;alert(1)&quot;&gt;</bdi>" in page
    assert "<img" not in page and "<b>" not in page
    assert f'<script src="{SCRIPT_PATH}" data-quiz="x" data-version=""></script>' in page
    assert "default-src 'none'" in page


def test_update_renders_only_what_changed(content: Path) -> None:
    running = start([content], discover_renderers(), port=0)
    try:
        preview = running.preview
        english = content / "en" / f"{QUIZ_ID}.yaml"
        page = f"/en/{QUIZ_ID}.html"
        assert preview.update([str(english)]) == set()  # saved without a change
        events = preview.broker.connect()
        english.write_text(english.read_text("utf-8").replace(TITLE, "title: Renamed"), "utf-8")
        assert preview.update([str(english)], modified_only=True) == {QUIZ_ID}
        assert events.get(timeout=1) == '{"quizzes": ["checkpoint-sharding"]}'
        assert "<h1>Renamed</h1>" in (preview.lookup(page) or b"").decode()
        assert "Renamed" in preview.index().decode()
        english.write_text(
            english.read_text("utf-8").replace("title: Renamed", "title: Renamed: <oops>"), "utf-8"
        )
        assert preview.update([str(english)]) == {QUIZ_ID}
        broken = (preview.lookup(page) or b"").decode()
        assert f"{QUIZ_ID}.yaml:4:15</code>: <strong>error</strong>" in broken
        assert "title: Renamed<mark>:</mark> &lt;oops&gt;" in broken
        assert preview.lookup(f"/ur/{QUIZ_ID}.html") == preview.lookup(page)
        assert "Quizzes with errors" in preview.index().decode()
        english.unlink()
        (content / "ur" / f"{QUIZ_ID}.yaml").unlink()
        assert preview.update([str(english)]) == {QUIZ_ID}
        assert preview.lookup(page) is None
        assert "no quiz file found" in preview.index().decode()
    finally:
        running.close()


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_ctrl_c_stops_the_command_cleanly(content: Path, sig: signal.Signals) -> None:
    server = subprocess.Popen(
        [sys.executable, "-m", "quizbank", "serve", str(content), "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        preexec_fn=as_from_a_terminal,
    )
    try:
        assert server.stdout is not None
        line = server.stdout.readline()
        url = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        assert url, line
        events = http.client.HTTPConnection("127.0.0.1", int(url.group(1)), timeout=5)
        events.request("GET", "/events")  # a page listening does not keep it running
        assert events.getresponse().readline() == b": connected\n"
        server.send_signal(sig)
        out, err = server.communicate(timeout=10)
    finally:
        server.kill()
    # (what it serves may be said once more first, as the quizzes' check ends before the signal)
    assert (server.returncode, out.splitlines()[-1:], err) == (0, ["stopped"], "")
    assert all(line.startswith("serving ") for line in out.splitlines()[:-1]), out


def test_ctrl_c_stops_cleanly(content: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def interrupted(self: Serving, on_update: object = None) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(Serving, "watch", interrupted)
    assert main(["serve", str(content), "--port", "0"]) == 0


def test_the_page_follows_its_file_in_the_browser(serving: Serving, content: Path) -> None:
    english = content / "en" / f"{QUIZ_ID}.yaml"
    original = english.read_text("utf-8")
    violations: list[str] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page()
            page.on(
                "console",
                lambda message: (
                    violations.append(message.text)
                    if "Content Security Policy" in message.text
                    else None
                ),
            )
            page.goto(f"{serving.url}en/{QUIZ_ID}.html")
            heading = page.locator("h1")
            expect(heading).to_have_text("Checkpoint sharding and resumable training")
            wait_for_listener(serving)  # the page's event stream is open before the edit

            english.write_text(original.replace(TITLE, "title: Sharding, live"), "utf-8")
            expect(heading).to_have_text("Sharding, live", timeout=5000)

            english.write_text(original.replace(TITLE, f"{TITLE}: broken"), "utf-8")
            expect(page.locator(".problems")).to_contain_text(f"{QUIZ_ID}.yaml:4:50", timeout=5000)
            expect(page.locator(".problems")).to_contain_text(f"{TITLE}: broken")

            english.write_text(original, "utf-8")
            expect(heading).to_have_text("Checkpoint sharding and resumable training", timeout=5000)
            expect(page.locator(".problems")).to_have_count(0)
        finally:
            browser.close()
    assert violations == []
