"""`quizbank serve`: a local preview of the HTML pages, rebuilt in memory as the files change.

Every quiz is checked and rendered with the `html` renderer, exactly as `build` renders it, and
kept in memory (nothing is written: preview.py). A watcher (watchfiles, watcher.py) reports the
files saved; only the quizzes they belong to are checked and rendered again, and only when their
files' contents changed. Each served page carries a small script (live.py) that listens to
Server-Sent Events on `/events` (events.py) and reloads the page when its quiz changes. A quiz
with errors is served as a page of its problems (problem_pages.py), each at `file:line:column`
with the line of YAML it concerns. The server (server.py) answers only for the pages the preview
rendered, and only requests naming it in their `Host`.

This module runs a preview: starts it, says what it serves and each change, and stops it.
"""

from __future__ import annotations

import threading
import webbrowser
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from quizbank.diagnostics import Report, Severity
from quizbank.registry import Registry
from quizbank.serve.preview import Preview, QuizPages
from quizbank.serve.server import PreviewServer, listen
from quizbank.serve.watcher import follow


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
        """Watch the files until `stop` is set (or Ctrl-C), updating the preview (watcher.py
        says how a watch follows folders moved away, back or replaced)."""
        follow(self.preview, self.stop, self.watching, on_update or (lambda updated: None))

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
    server = listen(host, port, preview)  # a port in use is said before every quiz is checked
    try:
        preview.load()
    except BaseException:
        server.server_close()
        raise
    thread = threading.Thread(target=server.serve_forever, name="quizbank-serve", daemon=True)
    thread.start()
    return Serving(preview, server, thread)


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
