"""The preview's HTTP server: only the pages the preview rendered, by an exact match of the URL's
path (no URL path ever reaches the file system), the live script and the event stream.

Only requests naming this server in their `Host` (127.0.0.1, localhost or the `--host` given)
are answered, so that no other site can reach it through a name of its own that leads here (DNS
rebinding). Each connection has a thread, at most MAX_CONNECTIONS at once, and a timeout; a
client that goes away is let go quietly.
"""

from __future__ import annotations

import contextlib
import errno
import json
import queue
import socket
import sys
import threading
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

from quizbank.errors import QuizbankError
from quizbank.serve.live import EVENTS_PATH, LIVE_SCRIPT, SCRIPT_PATH
from quizbank.serve.preview import Preview
from quizbank.serve.problem_pages import NOT_FOUND_PAGE

KEEPALIVE_SECONDS = 15.0
SOCKET_TIMEOUT = 30.0  # a connection that sends or takes nothing for this long is closed
MAX_CONNECTIONS = 64  # served at once, each by its own thread; more are answered 503
LOCAL_NAMES = ("127.0.0.1", "localhost")


def _plain(status: HTTPStatus, text: str) -> bytes:
    """A whole HTTP response of a line of text, closing the connection."""
    body = f"{text}\n".encode()
    head = (
        f"HTTP/1.1 {status.value} {status.phrase}\r\nContent-Type: text/plain; charset=utf-8\r\n"
        f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n"
    )
    return head.encode() + body


BUSY = _plain(HTTPStatus.SERVICE_UNAVAILABLE, "quizbank serve: too many connections at once")


class PreviewServer(ThreadingHTTPServer):
    """A thread per connection, at most MAX_CONNECTIONS at once (those beyond are answered 503
    at once, without a thread), each closed after SOCKET_TIMEOUT of silence; quiet about a
    client that goes away."""

    daemon_threads = True

    def __init__(self, address: tuple[str, int], preview: Preview) -> None:
        super().__init__(address, PreviewHandler)
        self.preview = preview
        self.stopping = threading.Event()
        # The names a request may give in its Host: this machine's, and the one served on.
        self.host_names = frozenset((*LOCAL_NAMES, address[0].lower()))
        self.connection_timeout = SOCKET_TIMEOUT
        self._slots = threading.BoundedSemaphore(MAX_CONNECTIONS)

    def process_request(self, request: Any, client_address: Any) -> None:
        if not self._slots.acquire(blocking=False):
            request.setblocking(False)
            with contextlib.suppress(OSError):  # said if it can be at once; closed anyway
                request.send(BUSY)
            self.shutdown_request(request)
            return
        try:
            super().process_request(request, client_address)
        except BaseException:  # no thread started to give the slot back
            self._slots.release()
            raise

    def process_request_thread(self, request: Any, client_address: Any) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            self._slots.release()

    def handle_error(self, request: Any, client_address: Any) -> None:
        if isinstance(sys.exc_info()[1], (ConnectionError, TimeoutError)):
            return  # the client went away, or went quiet: nothing to say
        super().handle_error(request, client_address)


class PreviewHandler(BaseHTTPRequestHandler):
    server: PreviewServer
    protocol_version = "HTTP/1.1"

    def setup(self) -> None:
        super().setup()
        self.connection.settimeout(self.server.connection_timeout)  # of every read and write

    def log_message(self, format: str, *args: object) -> None:
        pass  # quiet: the terminal shows the rebuilds, not every request

    def do_HEAD(self) -> None:
        self._respond(head=True)

    def do_GET(self) -> None:
        self._respond(head=False)

    def _respond(self, *, head: bool) -> None:
        if not self._for_this_server():
            names = " or ".join(sorted(self.server.host_names))
            text = f"quizbank serve answers only requests for {names}\n".encode()
            self._send(HTTPStatus.FORBIDDEN, "text/plain; charset=utf-8", text, head)
            return
        path = urlsplit(self.path).path
        if path == EVENTS_PATH and not head:
            self._events(parse_qs(urlsplit(self.path).query))
            return
        if path == SCRIPT_PATH:
            self._send(HTTPStatus.OK, "text/javascript; charset=utf-8", LIVE_SCRIPT, head)
            return
        page = self.server.preview.lookup(path)
        if page is None:
            self._send(HTTPStatus.NOT_FOUND, "text/html; charset=utf-8", NOT_FOUND_PAGE, head)
        else:
            self._send(HTTPStatus.OK, "text/html; charset=utf-8", page, head)

    def _for_this_server(self) -> bool:
        """Whether the request's Host names this server: not a name of another site's that
        leads here (DNS rebinding), which a page of that site could read the preview through."""
        host = self.headers.get("Host")
        if host is None:
            return False
        try:
            name = urlsplit(f"//{host}").hostname
        except ValueError:
            return False
        return name in self.server.host_names

    def _send(self, status: HTTPStatus, kind: str, body: bytes, head: bool) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.end_headers()
        if not head:
            self.wfile.write(body)

    def _events(self, query: dict[str, list[str]]) -> None:
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-store")
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True
        preview = self.server.preview
        client = preview.broker.connect()
        quiz = query.get("quiz", [""])[0]
        version = query.get("version", [""])[0]
        if version and preview.version(quiz) != version:  # changed while the page loaded
            client.put(json.dumps({"quizzes": [quiz] if quiz else []}))
        try:
            self.wfile.write(b": connected\n\n")
            self.wfile.flush()
            while not self.server.stopping.is_set():
                try:
                    data = client.get(timeout=KEEPALIVE_SECONDS)
                except queue.Empty:
                    self.wfile.write(b": keep-alive\n\n")
                else:
                    if data is None:
                        break
                    self.wfile.write(f"event: change\ndata: {data}\n\n".encode())
                self.wfile.flush()
        except OSError:
            pass  # the page went away, or stopped reading
        finally:
            self.server.preview.broker.disconnect(client)


def listen(host: str, port: int, preview: Preview) -> PreviewServer:
    """The server, listening (answered once it serves); a port taken or refused, or a host that
    is not this machine's, said in words, with what to do."""
    try:
        return PreviewServer((host, port), preview)
    except OSError as exc:
        if exc.errno == errno.EADDRINUSE:
            raise QuizbankError(f"port {port} is in use; choose another with --port") from None
        if exc.errno == errno.EACCES:
            raise QuizbankError(
                f"port {port} needs administrator rights; choose one above 1023 with --port"
            ) from None
        if exc.errno == errno.EADDRNOTAVAIL or isinstance(exc, socket.gaierror):
            raise QuizbankError(
                f"{host!r} is not an address of this machine; serve on 127.0.0.1 (the default) "
                "or on one of its own addresses with --host"
            ) from None
        raise
