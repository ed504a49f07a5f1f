"""`quizbank serve`: a local preview of the HTML pages, rebuilt in memory as the files change.

Every quiz is checked and rendered with the `html` renderer, exactly as `build` renders it, and
kept in memory (nothing is written). A watcher (watchfiles) reports the files saved; only the
quizzes they belong to are checked and rendered again, and only when their files' contents
changed. Each served page carries a small script that listens to Server-Sent Events on
`/events` and reloads the page when its quiz changes. A quiz with errors is served as a page of
its problems, each at `file:line:column` with the line of YAML it concerns.

Only the pages the server rendered are served, by an exact match of the URL's path against
them: no URL path ever reaches the file system. Only requests naming this server in their
`Host` (127.0.0.1, localhost or the `--host` given) are answered, so that no other site can reach
it through a name of its own that leads here (DNS rebinding). Each connection has a thread, at
most MAX_CONNECTIONS at once, and a timeout; a client that goes away is let go quietly.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import html
import json
import os
import queue
import re
import socket
import sys
import threading
import webbrowser
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from watchfiles import Change, watch

from quizbank.diagnostics import Diagnostic, Report, Severity, display_path
from quizbank.errors import QuizbankError
from quizbank.images import MEDIA_TYPES
from quizbank.parallel import parallel_map
from quizbank.project import SUFFIXES, Bank, QuizFiles, check_quiz, discover, link_problem
from quizbank.registry import Registry
from quizbank.renderer import (
    QuizSummary,
    QuizTranslations,
    Renderer,
    RendererOptions,
    quiz_summaries,
    rendered_quiz,
)
from quizbank.yamlsource import YamlError, read_bytes

EVENTS_PATH = "/events"
SCRIPT_PATH = "/_quizbank/live.js"
KEEPALIVE_SECONDS = 15.0
SOCKET_TIMEOUT = 30.0  # a connection that sends or takes nothing for this long is closed
MAX_CONNECTIONS = 64  # served at once, each by its own thread; more are answered 503
REWATCH_SECONDS = 0.5  # how often a watched folder that is gone is looked for
LOCAL_NAMES = ("127.0.0.1", "localhost")
# The script every served page carries: reload when the page's quiz changes (the index, whose
# data-quiz is empty, on any change). It names the version of the page it is on, so that a
# change made while the page was loading (before its stream opened) is announced at once; and
# EventSource reconnects by itself after a restart, when the same check is made.
LIVE_SCRIPT = b"""\
(function () {
  var script = document.currentScript;
  var quiz = script.getAttribute("data-quiz") || "";
  var version = script.getAttribute("data-version") || "";
  var source = new EventSource("/events?quiz=" + encodeURIComponent(quiz) +
    "&version=" + encodeURIComponent(version));
  source.addEventListener("change", function (event) {
    var changed = JSON.parse(event.data).quizzes;
    if (quiz === "" || changed.indexOf(quiz) >= 0) { location.reload(); }
  });
})();
"""
_CSP_META = re.compile(r'(<meta http-equiv="Content-Security-Policy" content=")([^"]*)(")')
_OWN_CSP = (
    "default-src 'none'; style-src 'unsafe-inline'; script-src 'self'; connect-src 'self'; "
    "base-uri 'none'; form-action 'none'"
)
_PAGE_PATH = re.compile(r"/([A-Za-z0-9-]+)/([a-z0-9-]+)\.html")


def relax_csp(policy: str) -> str:
    """The page's policy, also allowing the served script (`script-src 'self'`) and its event
    stream (`connect-src 'self'`); nothing else is loosened."""
    directives = [d.strip() for d in policy.split(";") if d.strip()]
    names = [d.split()[0] for d in directives]
    for name in ("script-src", "connect-src"):
        if name in names:
            index = names.index(name)
            if "'self'" not in directives[index].split():
                directives[index] += " 'self'"
        else:
            directives.append(f"{name} 'self'")
    return "; ".join(directives)


def _script_tag(quiz_id: str, version: str) -> str:
    return (
        f'<script src="{SCRIPT_PATH}" data-quiz="{html.escape(quiz_id)}" '
        f'data-version="{html.escape(version)}"></script>\n'
    )


def live_page(page: str, quiz_id: str, version: str = "") -> str:
    """A rendered page as served: its policy relaxed for the live script, which is added at
    the end of its body. The build's own output never passes through here."""
    page = _CSP_META.sub(lambda m: m.group(1) + relax_csp(m.group(2)) + m.group(3), page, count=1)
    tag = _script_tag(quiz_id, version)
    at = page.rfind("</body>")
    return page[:at] + tag + page[at:] if at >= 0 else page + tag


def _source_line(text: str | None, line: int) -> str | None:
    if text is None:
        return None
    lines = text.splitlines()
    return lines[line - 1] if 0 < line <= len(lines) else None


def _marked(line: str, column: int) -> str:
    """`line` escaped, the character at the 1-based `column` in `<mark>` (a space past its
    end): a caret line beneath would point at the wrong word once bidi reorders an Urdu line."""
    at = max(0, column - 1)
    before, char, after = line[:at], line[at : at + 1] or " ", line[at + 1 :]
    return f"{html.escape(before)}<mark>{html.escape(char)}</mark>{html.escape(after)}"


def error_page(
    quiz_id: str,
    diagnostics: Sequence[Diagnostic],
    sources: dict[str, str],
    version: str = "",
) -> str:
    """The page served instead of a quiz with errors: each problem at `file:line:column`, its
    message and the line of YAML it concerns (from `sources`, by displayed path), escaped."""
    errors = Report(list(diagnostics)).count(Severity.ERROR)
    title = f"{quiz_id}: {errors} error{'s' if errors != 1 else ''}"
    body = (
        '<p role="alert">This quiz has errors; the page comes back when they are fixed and the '
        f"file is saved.</p>\n{problem_list(diagnostics, sources)}"
    )
    return _problem_page(quiz_id, title, body, version)


def problem_list(diagnostics: Sequence[Diagnostic], sources: dict[str, str]) -> str:
    """Each problem at `file:line:column`, errors first, with its message and the line of YAML
    it concerns (from `sources`, by displayed path), escaped: an HTML list."""
    items = []
    for d in sorted(diagnostics, key=lambda d: (d.severity != Severity.ERROR, d.sort_key)):
        where = f"{d.path}:{d.position.line}:{d.position.column}"
        subject = f"{d.field}: " if d.field else ""
        line = _source_line(sources.get(d.path), d.position.line)
        code = ""
        if line is not None:
            code = f"<pre><code><bdi>{_marked(line, d.position.column)}</bdi></code></pre>"
        items.append(
            f'<li class="{d.severity}"><p><code class="where">{html.escape(where)}</code>: '
            f"<strong>{d.severity}</strong>: {html.escape(subject + d.message)}</p>{code}</li>"
        )
    return f'<ol class="problems">\n{"".join(items)}\n</ol>\n'


def with_warnings(page: str, diagnostics: Sequence[Diagnostic], sources: dict[str, str]) -> str:
    """A valid quiz's page with its warnings listed above it (as the error page lists errors),
    in English whatever the page's language; the page as it is when there are none."""
    if not diagnostics:
        return page
    count = len(diagnostics)
    block = (
        '<div role="status" lang="en" dir="ltr" class="quizbank-warnings" style="border:2px '
        'solid #8a5a00;padding:0 1rem;margin:1rem;font-family:sans-serif">\n'
        f"<p>quizbank serve: {count} warning{'s' if count != 1 else ''} (the quiz builds; "
        "the page follows each save)</p>\n"
        f"{problem_list(diagnostics, sources)}</div>\n"
    )
    body = _BODY.search(page)
    at = body.end() if body else 0
    return f"{page[:at]}\n{block}{page[at:]}"


_BODY = re.compile(r"<body\b[^>]*>")


def failure_page(quiz_id: str, renderer: str, failure: BaseException, version: str = "") -> str:
    """The page served instead of a valid quiz its renderer failed on: what it raised, escaped."""
    title = f"{quiz_id}: the {renderer} renderer failed"
    what = f"{type(failure).__name__}: {failure}"
    body = (
        f'<p role="alert">This quiz is valid, but the {html.escape(renderer)} renderer failed on '
        "it; the page comes back when the renderer works on the saved file.</p>\n"
        f'<pre class="failure"><code>{html.escape(what)}</code></pre>\n'
    )
    return _problem_page(quiz_id, title, body, version)


def _problem_page(quiz_id: str, title: str, body: str, version: str) -> str:
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en" dir="ltr">\n<head>\n<meta charset="utf-8">\n'
        f'<meta http-equiv="Content-Security-Policy" content="{_OWN_CSP}">\n'
        f"<title>{html.escape(title)}</title>\n"
        "<style>body{font-family:sans-serif;margin:2rem;max-width:60rem}"
        "pre{background:#f4f4f4;padding:.5rem;overflow:auto}"
        "li.error strong{color:#b00020}li.warning strong{color:#8a5a00}</style>\n"
        '</head>\n<body>\n<p><a href="../index.html">All quizzes</a></p>\n'
        f"<main>\n<h1>{html.escape(title)}</h1>\n{body}</main>\n"
        f"{_script_tag(quiz_id, version)}"
        "</body>\n</html>\n"
    )


NOT_FOUND_PAGE = (
    "<!DOCTYPE html>\n"
    '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
    f'<meta http-equiv="Content-Security-Policy" content="{_OWN_CSP}">\n'
    "<title>Not found</title>\n</head>\n<body>\n"
    '<h1>Not found</h1>\n<p>No quiz page here. <a href="/index.html">All quizzes</a></p>\n'
    f'<script src="{SCRIPT_PATH}" data-quiz=""></script>\n'
    "</body>\n</html>\n"
).encode()


@dataclass
class QuizPages:
    """One quiz as last checked: the key of its files' contents and what is served of it."""

    key: tuple[tuple[str, str, str], ...]
    pages: dict[str, bytes]  # URL path: page
    summaries: list[QuizSummary]
    errors: bool
    images: dict[str, str] = field(default_factory=dict)  # real path: SHA-256, of those shown
    diagnostics: list[Diagnostic] = field(default_factory=list)  # every problem found

    @property
    def version(self) -> str:
        """A short name of the contents its pages were made from."""
        made_from = (self.key, sorted(self.images.items()))
        return hashlib.sha256(repr(made_from).encode()).hexdigest()[:16]


@dataclass
class _Checked:
    """A quiz checked and rendered (in a worker at start-up)."""

    quiz_id: str
    entry: QuizPages


def _read(group: QuizFiles) -> tuple[tuple[tuple[str, str, str], ...], dict[str, str]]:
    """The key of a quiz's files' contents, and their texts by displayed path. A file checking
    refuses unread (a link out of the content folder, a named pipe, one too big) is read here
    neither: its key is why, and nothing of it is quoted."""
    key = []
    texts: dict[str, str] = {}
    for lang, path in sorted(group.files.items()):
        refused = link_problem(path)
        if refused is None:
            try:
                data = read_bytes(path)
            except YamlError as exc:
                refused = exc.message
            except OSError as exc:
                refused = str(exc.strerror or exc)
        if refused is not None:  # checking says why, at the file
            key.append((lang, str(path), refused))
            continue
        key.append((lang, str(path), hashlib.sha256(data).hexdigest()))
        texts[display_path(path)] = data.decode("utf-8", errors="replace")
    return tuple(key), texts


def render_quiz(
    group: QuizFiles, languages: list[str], renderer: Renderer[RendererOptions]
) -> QuizPages:
    """Check one quiz and render its pages, or its error page in each of its languages."""
    key, texts = _read(group)
    checked = check_quiz(group, languages, strict=False)
    pages: dict[str, bytes] = {}
    if not checked.ok:
        version = QuizPages(key, {}, [], True).version
        page = error_page(group.quiz_id, checked.diagnostics, texts, version).encode("utf-8")
        for lang in group.files:
            pages[f"/{lang}/{group.quiz_id}.html"] = page
        return QuizPages(key, pages, [], True, diagnostics=checked.diagnostics)
    images = {os.path.realpath(path): sha for path, sha in checked.image_files.items()}
    version = QuizPages(key, {}, [], False, images).version
    present = [lang for lang in languages if lang in checked.translations]
    translations = QuizTranslations(group.quiz_id, checked.translations, present, checked.images)
    try:
        outputs = list(renderer.render_quiz(rendered_quiz(translations, renderer)))
    except Exception as exc:  # a defect of the renderer: the preview survives it, and says so
        page = failure_page(group.quiz_id, renderer.name, exc, version).encode("utf-8")
        pages = {f"/{lang}/{group.quiz_id}.html": page for lang in group.files}
        return QuizPages(key, pages, [], True, images, checked.diagnostics)
    for output in outputs:
        text = live_page(output.content.decode("utf-8"), group.quiz_id, version)
        text = with_warnings(text, checked.diagnostics, texts)
        pages[f"/{output.path.as_posix()}"] = text.encode("utf-8")
    summaries = quiz_summaries(translations)
    return QuizPages(key, pages, summaries, False, images, checked.diagnostics)


class EventBroker:
    """Hands each change to every connected event stream."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._clients: list[queue.Queue[str | None]] = []

    @property
    def clients(self) -> int:
        """How many event streams are open."""
        with self._lock:
            return len(self._clients)

    def connect(self) -> queue.Queue[str | None]:
        client: queue.Queue[str | None] = queue.Queue()
        with self._lock:
            self._clients.append(client)
        return client

    def disconnect(self, client: queue.Queue[str | None]) -> None:
        with self._lock:
            if client in self._clients:
                self._clients.remove(client)

    def publish(self, quiz_ids: Iterable[str]) -> None:
        data = json.dumps({"quizzes": sorted(quiz_ids)})
        with self._lock:
            for client in self._clients:
                client.put(data)

    def close(self) -> None:
        with self._lock:
            for client in self._clients:
                client.put(None)
            self._clients.clear()


_RENDERER: Renderer[RendererOptions] | None = None
_LANGUAGES: list[str] = []


def _check_in_worker(group: QuizFiles) -> _Checked:
    assert _RENDERER is not None
    return _Checked(group.quiz_id, render_quiz(group, _LANGUAGES, _RENDERER))


class Preview:
    """The served site: every quiz's pages and the index, kept current by `update`."""

    def __init__(self, paths: Sequence[Path], renderer: Renderer[RendererOptions]) -> None:
        self.paths = list(paths)
        self.renderer = renderer
        self.broker = EventBroker()
        self.languages: list[str] = []
        self.quizzes: dict[str, QuizPages] = {}
        self.groups: dict[str, QuizFiles] = {}
        self._owners: dict[str, str] = {}  # by the real path of each file: its quiz's id
        self._folders: set[str] = set()  # the real paths of their language and content folders
        self.problem = ""  # why nothing is served (no quiz file found), if so
        self._index: bytes | None = None
        self._generation = 0  # of the index: one more at each change of what it shows
        self._lock = threading.Lock()

    def _discover(self) -> Bank:
        try:
            bank = discover(self.paths)
        except QuizbankError as exc:
            self.problem = str(exc)
            return Bank([], [])
        self.problem = ""
        return bank

    def load(self) -> None:
        """Check and render every quiz (on every core when there are many)."""
        global _RENDERER, _LANGUAGES
        bank = self._discover()
        _RENDERER, _LANGUAGES = self.renderer, bank.languages
        try:
            checked = list(parallel_map(_check_in_worker, bank.groups))
        finally:
            _RENDERER = None
        with self._lock:
            self._set_groups(bank)
            self.quizzes = {item.quiz_id: item.entry for item in checked}
            self._index = None
            self._generation += 1

    def _set_groups(self, bank: Bank) -> None:
        self.languages = bank.languages
        self.groups = {group.quiz_id: group for group in bank.groups}
        self._owners = {
            os.path.realpath(path): group.quiz_id
            for group in bank.groups
            for path in group.files.values()
        }
        self._folders = {
            os.path.realpath(folder)
            for group in bank.groups
            for path in group.files.values()
            for folder in (path.parent, path.parent.parent)
        }

    def watches(self, change: object, path: str) -> bool:
        """Whether a change matters: to a quiz file, an image (which quizzes show), or a
        folder (one added, or one of the bank's renamed or gone)."""
        return (
            path.endswith(SUFFIXES)
            or _is_image(path)
            or path in self._folders
            or os.path.isdir(path)
        )

    def update(self, changed: Iterable[str], *, modified_only: bool = False) -> set[str]:
        """After files changed: check and render again the quizzes whose files changed, drop
        those gone; tell the browsers. Returns the ids of the quizzes whose pages changed.

        When every change is to the contents of a file already known (`modified_only`), the
        bank is not looked through again: only those quizzes are read. A folder changed (added,
        renamed, gone) has every quiz looked through again."""
        changed = list(changed)
        if any(not path.endswith(SUFFIXES) and not _is_image(path) for path in changed):
            return self.rescan()
        paths = [path for path in changed if path.endswith(SUFFIXES)]
        stems = {Path(path).stem for path in paths} | self._showing(changed)
        owners = [self._owners.get(os.path.realpath(path)) for path in paths]
        if modified_only and paths and all(owners):
            with self._lock:
                groups = [self.groups[quiz_id] for quiz_id in dict.fromkeys(owners) if quiz_id]
            bank = Bank(groups, self.languages)
            return self._refresh(bank, stems, set())
        if not paths:  # only images: the quizzes that show them, or that missed one
            with self._lock:
                groups = [self.groups[quiz_id] for quiz_id in stems if quiz_id in self.groups]
            return self._refresh(Bank(groups, self.languages), stems, set(), images=True)
        bank = self._discover()
        present = {group.quiz_id for group in bank.groups}
        return self._refresh(bank, stems, set(self.quizzes) - present, whole=True)

    def rescan(self) -> set[str]:
        """Look through the bank again, and check again every quiz whose files' contents
        changed (after folders were renamed, moved away or back, replaced)."""
        bank = self._discover()
        present = {group.quiz_id for group in bank.groups}
        return self._refresh(bank, present, set(self.quizzes) - present, whole=True)

    def _showing(self, changed: Iterable[str]) -> set[str]:
        """The quizzes that show one of the changed images, or that have errors (a missing image
        may just have been added)."""
        images = {os.path.realpath(path) for path in changed if _is_image(path)}
        if not images:
            return set()
        with self._lock:
            return {
                quiz_id
                for quiz_id, entry in self.quizzes.items()
                if entry.errors or not images.isdisjoint(entry.images)
            }

    def _refresh(
        self,
        bank: Bank,
        stems: set[str],
        gone: set[str],
        *,
        whole: bool = False,
        images: bool = False,
    ) -> set[str]:
        """Check and render again the quizzes of `bank` that changed (with `images`, all of
        them: an image they show changed); with `whole`, `bank` is every quiz now served."""
        everything = bank.languages != self.languages
        done: dict[str, QuizPages] = {}
        for group in bank.groups:
            previous = self.quizzes.get(group.quiz_id)
            if (
                everything
                or previous is None
                or group.quiz_id in stems
                or self.groups.get(group.quiz_id) != group
            ):
                key, _ = _read(group)
                if previous is not None and previous.key == key and not (everything or images):
                    continue  # saved without a change
                done[group.quiz_id] = render_quiz(group, bank.languages, self.renderer)
        with self._lock:
            if whole:
                self._set_groups(bank)
            for quiz_id in gone:
                del self.quizzes[quiz_id]
            self.quizzes.update(done)
            if done or gone:
                self._index = None
                self._generation += 1
        affected = set(done) | gone
        if affected:
            self.broker.publish(affected)
        return affected

    def index(self) -> bytes:
        with self._lock:
            if self._index is None:
                self._index = self._render_index()
            return self._index

    def _render_index(self) -> bytes:
        summaries = sorted(
            (s for entry in self.quizzes.values() for s in entry.summaries),
            key=lambda s: (s.quiz_id, s.lang),
        )
        notes = []
        try:
            page = "".join(
                output.content.decode("utf-8") for output in self.renderer.render_bank(summaries)
            )
        except Exception as exc:  # a defect of the renderer: the preview survives it
            page = ""
            what = f"{type(exc).__name__}: {exc}"
            notes.append(
                f"<p>The {html.escape(self.renderer.name)} renderer failed on the index: "
                f"<code>{html.escape(what)}</code></p>"
            )
        if not page:
            page = "<!DOCTYPE html>\n<html><head></head><body></body></html>\n"
        broken = sorted(quiz_id for quiz_id, entry in self.quizzes.items() if entry.errors)
        if self.problem:
            notes.append(f"<p>{html.escape(self.problem)}</p>")
        if broken:
            links = ", ".join(
                f'<a href="{html.escape(next(iter(self.quizzes[q].pages))[1:])}">'
                f"{html.escape(q)}</a>"
                for q in broken
            )
            notes.append(f"<p>Quizzes with errors: {links}</p>")
        if notes:
            banner = (
                '<div role="alert" style="border:2px solid #b00020;padding:0 1rem;margin:1rem">'
                + "".join(notes)
                + "</div>\n"
            )
            at = page.find("<body>")
            if at >= 0:
                page = page[: at + 6] + "\n" + banner + page[at + 6 :]
        return live_page(page, "", str(self._generation)).encode("utf-8")

    def version(self, quiz_id: str) -> str:
        """The version of a quiz's pages now served ("" for the index); "gone" if none."""
        with self._lock:
            if not quiz_id:
                return str(self._generation)
            entry = self.quizzes.get(quiz_id)
            return entry.version if entry else "gone"

    def lookup(self, path: str) -> bytes | None:
        """The page at a URL path, if the server rendered one there; None otherwise."""
        if path in ("/", "/index.html"):
            return self.index()
        match = _PAGE_PATH.fullmatch(path)
        if match is None:
            return None
        with self._lock:
            entry = self.quizzes.get(match.group(2))
            return entry.pages.get(path) if entry else None


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


def watched_folders(paths: Sequence[Path]) -> list[Path]:
    """The folders to watch: each given folder, and for a file the content folder holding its
    language folder (where its translations are)."""
    folders: set[Path] = set()
    for path in paths:
        if path.is_dir():
            folders.add(path.resolve())
        else:
            folders.add(path.resolve().parent.parent)
    # A folder inside another watched one is watched with it.
    return sorted(f for f in folders if not any(o != f and f.is_relative_to(o) for o in folders))


def _identities(folders: Sequence[Path]) -> tuple[tuple[int, int] | None, ...]:
    """Which folder each path now names (device and inode), None for one that is gone."""
    marks: list[tuple[int, int] | None] = []
    for folder in folders:
        try:
            info = os.stat(folder)
        except OSError:
            marks.append(None)
        else:
            marks.append((info.st_dev, info.st_ino))
    return tuple(marks)


def _is_image(path: str) -> bool:
    return os.path.splitext(path)[1].lower() in MEDIA_TYPES


@dataclass
class Serving:
    """A running preview: its server (serving in a thread) and the address it answers on."""

    preview: Preview
    server: PreviewServer
    thread: threading.Thread
    stop: threading.Event = field(default_factory=threading.Event)
    watching: threading.Event = field(default_factory=threading.Event)  # set once it watches

    @property
    def url(self) -> str:
        host, port = self.server.server_address[:2]
        name = host.decode() if isinstance(host, bytes) else str(host)
        shown = f"[{name}]" if ":" in name else name
        return f"http://{shown}:{port}/"

    def watch(self, on_update: Callable[[set[str]], None] | None = None) -> None:
        """Watch the files until `stop` is set (or Ctrl-C), updating the preview.

        Once a watch has begun, the whole bank is looked through again, for what changed before
        it did. A watched folder moved away, back, or replaced is watched again where it then is
        (a watch follows the folder it began on)."""
        report = on_update or (lambda updated: None)
        roots = watched_folders(self.preview.paths)
        while not self.stop.is_set():
            watching = _identities(roots)
            present = [root for root, mark in zip(roots, watching, strict=True) if mark]
            if not present:  # all gone: served so, until one is back
                report(self.preview.rescan())
                while _identities(roots) == watching and not self.stop.wait(REWATCH_SECONDS):
                    pass
                continue
            began = False
            for changes in watch(
                *present,
                watch_filter=self.preview.watches,
                stop_event=self.stop,
                step=20,
                debounce=400,
                rust_timeout=int(REWATCH_SECONDS * 1000),
                yield_on_timeout=True,
            ):
                if not began:
                    began = True
                    report(self.preview.rescan())
                    self.watching.set()
                if changes:
                    modified_only = all(change == Change.modified for change, _ in changes)
                    paths = [path for _, path in changes]
                    report(self.preview.update(paths, modified_only=modified_only))
                if _identities(roots) != watching:
                    break

    def close(self) -> None:
        self.stop.set()
        self.server.stopping.set()
        self.preview.broker.close()
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(timeout=5)


def start(
    paths: Sequence[Path], registry: Registry, host: str = "127.0.0.1", port: int = 8000
) -> Serving:
    """Check and render every quiz, then serve them from a thread (port 0: any free port)."""
    from quizbank.build import plan_renderers

    renderer = plan_renderers(registry, ["html"], [], [])[0].renderer
    preview = Preview(paths, renderer)
    server = _listen(host, port, preview)  # a port in use is said before every quiz is checked
    try:
        preview.load()
    except BaseException:
        server.server_close()
        raise
    thread = threading.Thread(target=server.serve_forever, name="quizbank-serve", daemon=True)
    thread.start()
    return Serving(preview, server, thread)


def _listen(host: str, port: int, preview: Preview) -> PreviewServer:
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


def _problem_lines(entries: Iterable[QuizPages]) -> list[str]:
    """Every problem of these quizzes, one a line, in the order `validate` prints them."""
    return [d.format() for d in Report([d for entry in entries for d in entry.diagnostics])]


def _counts(entry: QuizPages | None) -> str:
    """` (1 error, 2 warnings)`: what a quiz has, if anything."""
    if entry is None or not entry.diagnostics:
        return ""
    report = Report(entry.diagnostics)
    counts = [
        f"{count} {noun}{'s' if count != 1 else ''}"
        for noun, count in (
            ("error", report.count(Severity.ERROR)),
            ("warning", report.count(Severity.WARNING)),
        )
        if count
    ]
    return f" ({', '.join(counts)})"


def serve(
    paths: Sequence[Path],
    registry: Registry,
    *,
    host: str,
    port: int,
    open_browser: bool,
    say: Callable[[str], None],
) -> int:
    """`quizbank serve`: serve until Ctrl-C; 0 when stopped so."""
    serving = start(paths, registry, host, port)
    try:
        quizzes = serving.preview.quizzes
        broken = sum(entry.errors for entry in quizzes.values())
        note = f" ({broken} with errors)" if broken else ""
        count = len(serving.preview.quizzes)
        say(
            f"serving {count} {'quiz' if count == 1 else 'quizzes'}{note} at {serving.url} "
            "(Ctrl-C stops)"
        )
        # Then each problem as `validate` prints it (as mkdocs serve does): a terminal, an
        # editor reading the output, a log, all read the same lines; the address stays first.
        for line in _problem_lines(quizzes.values()):
            say(line)
        if open_browser:
            webbrowser.open(serving.url)

        def report(updated: set[str]) -> None:
            for quiz_id in sorted(updated):
                entry = serving.preview.quizzes.get(quiz_id)
                for line in _problem_lines([entry] if entry else []):
                    say(line)
                state = "gone" if entry is None else "has errors" if entry.errors else "updated"
                say(f"{quiz_id}: {state}{_counts(entry)}")

        serving.watch(report)
    except KeyboardInterrupt:
        say("stopped")
    finally:
        serving.close()
    return 0
