"""`quizbank serve` against what can go wrong around it: a quiz file linked out of the content
folder, a page of another site reaching it by a name of its own (DNS rebinding), clients that
go away, go quiet or come too many at once, folders renamed or moved away and back, and a
renderer that fails on a valid quiz. Servers start as in tests/test_serve.py (port 0, a thread);
the only waits are generous deadlines that keep a failure from hanging the suite."""

from __future__ import annotations

import http.client
import os
import shutil
import socket
import struct
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from conftest import CONTENT, QUIZ
from quizbank_renderers.html import HtmlRenderer

from quizbank.registry import discover_renderers
from quizbank.serve import Serving, server, start
from quizbank.serve.live import EVENTS_PATH, SCRIPT_PATH

DEADLINE = 30.0  # seconds: far beyond what any step takes; only keeps a failure from hanging
PAGE = f"/en/{QUIZ}.html"
TITLE = "title: Checkpoint sharding and resumable training"
SECRET = "root:$6$hash-of-the-password:19000:0:99999:7:::"
OUTSIDE = (
    "this is a symbolic link to a file outside the content folder; quiz files must be inside it "
    "(copy the file in instead of linking it)"
)


@pytest.fixture
def content(tmp_path: Path) -> Path:
    """A copy of the first bundled quiz, in English and Urdu."""
    for lang in ("en", "ur"):
        (tmp_path / "content" / lang).mkdir(parents=True)
        shutil.copy(CONTENT / lang / f"{QUIZ}.yaml", tmp_path / "content" / lang)
    return tmp_path / "content"


def serving_with_watcher(content: Path, **options: str) -> Iterator[Serving]:
    running = start([content], discover_renderers(), port=0, **options)
    watcher = threading.Thread(target=running.watch, daemon=True)
    watcher.start()
    assert running.watching.wait(DEADLINE), "the files were never watched"
    yield running
    assert watcher.is_alive(), "the watcher died"
    running.close()
    watcher.join(timeout=DEADLINE)
    assert not watcher.is_alive()


@pytest.fixture
def serving(content: Path) -> Iterator[Serving]:
    yield from serving_with_watcher(content)


def address(serving: Serving) -> tuple[str, int]:
    host, port = serving.server.server_address[:2]
    return str(host), int(port)


def get(serving: Serving, path: str, host: str | None = "127.0.0.1") -> tuple[int, str]:
    """A GET naming `host` (with the port) in its Host header; none when None."""
    name, port = address(serving)
    connection = http.client.HTTPConnection(name, port, timeout=DEADLINE)
    try:
        connection.putrequest("GET", path, skip_host=True, skip_accept_encoding=True)
        if host is not None:
            connection.putheader("Host", f"{host}:{port}" if ":" not in host else host)
        connection.endheaders()
        response = connection.getresponse()
        return response.status, response.read().decode("utf-8")
    finally:
        connection.close()


def eventually(check: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + DEADLINE
    while not check():
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


def handler_threads() -> int:
    """The threads now serving a connection (as socketserver names them)."""
    return sum("process_request_thread" in t.name for t in threading.enumerate())


# A link out of the content folder ------------------------------------------------------------


def test_a_link_out_of_the_content_folder_is_refused_and_nothing_of_it_shown(
    content: Path, tmp_path: Path
) -> None:
    secret = tmp_path / "secret-target.txt"
    secret.write_text(f"{SECRET}\n", encoding="utf-8")
    (content / "en" / "passwd.yaml").symlink_to(secret)
    (content / "en" / "gone.yaml").symlink_to(tmp_path / "missing-secret-name.yaml")
    running = start([content], discover_renderers(), port=0)
    try:
        for quiz in ("passwd", "gone"):
            status, page = get(running, f"/en/{quiz}.html")
            assert status == 200
            assert f"{quiz}.yaml:1:1</code>: <strong>error</strong>: {OUTSIDE}" in page
            assert "hash-of-the-password" not in page and "<pre>" not in page
            assert "secret-target" not in page and "missing-secret-name" not in page
        # A link made while serving is refused just the same.
        (content / "en" / "later.yaml").symlink_to(secret)
        assert running.preview.update([str(content / "en" / "later.yaml")]) >= {"later"}
        status, page = get(running, "/en/later.html")
        assert OUTSIDE in page and "hash-of-the-password" not in page
    finally:
        running.close()


# The Host header ------------------------------------------------------------------------------


def test_only_requests_naming_this_server_are_answered(serving: Serving) -> None:
    port = address(serving)[1]
    for host in ("127.0.0.1", "localhost", "LOCALHOST", f"127.0.0.1:{port}"):
        assert get(serving, PAGE, host)[0] == 200, host
    for host in ("attacker.example", "127.0.0.1.attacker.example", "localhost.", "[::1]", "", None):
        for path in (PAGE, "/", SCRIPT_PATH, EVENTS_PATH):
            status, body = get(serving, path, host)
            assert status == 403, (host, path)
            assert "answers only requests for 127.0.0.1 or localhost" in body
            assert "sharding" not in body.lower()


def test_the_host_it_is_served_on_is_answered_too(content: Path) -> None:
    running = start([content], discover_renderers(), host="127.0.0.2", port=0)
    try:
        assert get(running, PAGE, "127.0.0.2")[0] == 200
        assert get(running, PAGE, "localhost")[0] == 200
        assert get(running, PAGE, "rebound.example")[0] == 403
    finally:
        running.close()


# Connections ----------------------------------------------------------------------------------


def test_a_client_that_goes_away_prints_no_traceback(
    serving: Serving, capsys: pytest.CaptureFixture[str]
) -> None:
    for path in (PAGE, "/", SCRIPT_PATH):
        for _ in range(3):
            with socket.create_connection(address(serving), timeout=DEADLINE) as client:
                client.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
                # Closed at once, unread: a reset, as when a tab is closed mid-load.
                client.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        eventually(lambda: handler_threads() == 0, "a connection was never let go")
    assert get(serving, PAGE)[0] == 200
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err and "Exception" not in captured.err, captured.err


def test_a_connection_that_sends_nothing_is_closed(
    content: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(server, "SOCKET_TIMEOUT", 0.5)
    running = start([content], discover_renderers(), port=0)
    try:
        with socket.create_connection(address(running), timeout=DEADLINE) as idle:
            assert idle.recv(1) == b""  # closed by the server, not by this deadline
        eventually(lambda: handler_threads() == 0, "the quiet connection kept its thread")
    finally:
        running.close()


def test_connections_beyond_the_cap_are_turned_away_without_a_thread(
    content: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(server, "MAX_CONNECTIONS", 2)
    running = start([content], discover_renderers(), port=0)
    try:
        held = [socket.create_connection(address(running), timeout=DEADLINE) for _ in range(2)]
        eventually(lambda: handler_threads() == 2, "the two connections were not served")
        with socket.create_connection(address(running), timeout=DEADLINE) as third:
            reply = b""
            while chunk := third.recv(4096):
                reply += chunk
        assert reply.startswith(b"HTTP/1.1 503 Service Unavailable\r\n"), reply
        assert b"too many connections at once" in reply
        assert handler_threads() == 2
        for connection in held:
            connection.close()
        eventually(lambda: handler_threads() == 0, "the held connections were not let go")
        assert get(running, PAGE)[0] == 200
    finally:
        running.close()


# Folders renamed, moved away and back --------------------------------------------------------


def served(serving: Serving, path: str) -> bool:
    return serving.preview.lookup(path) is not None


def test_a_renamed_language_folder_is_picked_up(serving: Serving, content: Path) -> None:
    urdu = f"/ur/{QUIZ}.html"
    assert served(serving, urdu)
    (content / "ur").rename(content / "ur.old")
    eventually(lambda: not served(serving, urdu), "the renamed folder was still served")
    (content / "ur.old").rename(content / "ur")
    eventually(lambda: served(serving, urdu), "the folder renamed back was not served")


def test_the_content_folder_moved_away_and_back_is_picked_up(
    serving: Serving, content: Path, tmp_path: Path
) -> None:
    english = content / "en" / f"{QUIZ}.yaml"
    content.rename(tmp_path / "away")
    eventually(lambda: not served(serving, PAGE), "the quiz moved away was still served")
    assert "no such file or folder" in serving.preview.index().decode()
    (tmp_path / "away").rename(content)
    eventually(lambda: served(serving, PAGE), "the folder moved back was not served")
    # Watched again where it is: an edit is followed.
    english.write_text(english.read_text("utf-8").replace(TITLE, "title: Back again"), "utf-8")
    eventually(lambda: "Back again" in get(serving, PAGE)[1], "an edit after the move was missed")


def test_the_content_folder_replaced_by_a_copy_is_watched_again(
    serving: Serving, content: Path, tmp_path: Path
) -> None:
    english = content / "en" / f"{QUIZ}.yaml"
    shutil.move(content, tmp_path / "old")
    eventually(lambda: not served(serving, PAGE), "the quiz moved away was still served")
    shutil.copytree(tmp_path / "old", content)
    eventually(lambda: served(serving, PAGE), "the copy was not served")
    english.write_text(english.read_text("utf-8").replace(TITLE, "title: In the copy"), "utf-8")
    eventually(lambda: "In the copy" in get(serving, PAGE)[1], "an edit in the copy was missed")


# A renderer that fails ------------------------------------------------------------------------


@pytest.fixture
def failing_renderer(monkeypatch: pytest.MonkeyPatch) -> None:
    """The html renderer fails on a quiz whose title says BOOM, as some renderers fail today on a
    valid quiz (21 right answers, `answer: 1e25`)."""
    render = HtmlRenderer.render

    def failing(self: HtmlRenderer, quiz: object, lang: str) -> str:
        if "BOOM" in repr(quiz):
            raise OverflowError("<b>int too large</b> & more")
        return render(self, quiz, lang)  # type: ignore[arg-type]

    monkeypatch.setattr(HtmlRenderer, "render", failing)


@pytest.mark.usefixtures("failing_renderer")
def test_a_renderer_failure_is_shown_escaped_and_the_next_good_save_recovers(
    serving: Serving, content: Path
) -> None:
    english = content / "en" / f"{QUIZ}.yaml"
    original = english.read_text("utf-8")
    english.write_text(original.replace(TITLE, "title: BOOM"), "utf-8")
    eventually(lambda: "renderer failed" in get(serving, PAGE)[1], "the failure was not shown")
    status, page = get(serving, PAGE)
    assert status == 200
    assert f"<title>{QUIZ}: the html renderer failed</title>" in page
    assert "OverflowError: &lt;b&gt;int too large&lt;/b&gt; &amp; more" in page
    assert "<b>int" not in page
    assert serving.preview.quizzes[QUIZ].errors
    assert "Quizzes with errors" in get(serving, "/")[1]
    english.write_text(original.replace(TITLE, "title: Mended"), "utf-8")
    eventually(lambda: "<h1>Mended</h1>" in get(serving, PAGE)[1], "the good save was missed")


@pytest.mark.usefixtures("failing_renderer")
def test_a_renderer_failure_at_start_does_not_stop_the_server(content: Path) -> None:
    english = content / "en" / f"{QUIZ}.yaml"
    english.write_text(english.read_text("utf-8").replace(TITLE, "title: BOOM"), "utf-8")
    running = start([content], discover_renderers(), port=0)
    try:
        assert "the html renderer failed" in get(running, PAGE)[1]
    finally:
        running.close()


def test_a_renderer_failure_on_the_index_is_shown_on_it(
    content: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def failing(self: HtmlRenderer, summaries: object) -> Iterator[object]:
        raise RuntimeError("<i>no index</i>")

    monkeypatch.setattr(HtmlRenderer, "render_bank", failing)
    running = start([content], discover_renderers(), port=0)
    try:
        status, index = get(running, "/")
        assert status == 200
        assert "The html renderer failed on the index: " in index
        assert "RuntimeError: &lt;i&gt;no index&lt;/i&gt;" in index and "<i>" not in index
        assert get(running, PAGE)[0] == 200
    finally:
        running.close()


def test_a_quiz_file_turned_into_a_pipe_while_serving_is_refused(content: Path) -> None:
    english = content / "en" / f"{QUIZ}.yaml"
    running = start([content], discover_renderers(), port=0)
    try:
        english.unlink()
        os.mkfifo(english)
        assert running.preview.update([str(english)]) == {QUIZ}
        page = get(running, PAGE)[1]
        assert "this is a named pipe, not an ordinary file" in page
    finally:
        running.close()
