"""Issue 32, items 1 and 2 in a real browser (Debian's Chromium through Playwright), with a
logging server on 127.0.0.1 that records every request: the hostile SVGs, opened as they are,
run their scripts and reach the network; imported with ordinary drawings and exported in every
format, none of them is exported, and no exported SVG runs a script or makes a request.

Every hostile SVG requests `<server>/<its name>` when it acts (tests/hostile_svgs.py).
"""

from __future__ import annotations

import base64
import io
import re
import threading
import zipfile
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from hostile_svgs import hostile_svgs, ordinary_svgs
from playwright.sync_api import Browser
from test_svg_hardening import _moodle_file

from quizbank.cli import main

# What Chromium does with these when they are opened: a script runs (an entity's, an event
# attribute's) or a request leaves (CSS, escaped or not; a link's animation; an HTML <img>).
# Left out: UTF-32 (Chromium does not read it), <use> of another site, javascript: (a click).
ACTING = {
    "entity-utf16le-bom.svg",
    "entity-utf16le-no-bom.svg",
    "entity-utf16be-bom.svg",
    "entity-utf8-bom.svg",
    "stylesheet-utf16.svg",
    "style-url-escaped.svg",
    "style-import-escaped.svg",
    "style-image-set.svg",
    "style-image-set-escaped.svg",
    "inline-url-escaped.svg",
    "inline-image-set-escaped.svg",
    "attribute-url-escaped.svg",
    "smil-set-href.svg",
    "smil-animate-xlink-href.svg",
    "onload.svg",
    "script.svg",
    "xhtml-img.svg",
}


class _Log(BaseHTTPRequestHandler):
    requests: list[str]

    def do_GET(self) -> None:
        self.requests.append(self.path)
        self.send_response(404)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, format: str, *args: object) -> None:
        pass  # recorded in `requests`, not printed


@pytest.fixture(scope="module")
def server() -> Iterator[tuple[str, list[str]]]:
    """A server on a free port of 127.0.0.1 recording the path of every request: its base URL
    and the list of paths, in order."""
    requests: list[str] = []
    handler = type("Log", (_Log,), {"requests": requests})
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_port}/", requests
    httpd.shutdown()
    httpd.server_close()


def _open_each(browser: Browser, files: list[Path], requests: list[str], wanted: set[str]) -> None:
    """Open each file as a page of its own, as a reader opening the exported image does, and
    give the pages time to act: until every request in `wanted` came, or 5 seconds."""
    context = browser.new_context()
    for path in files:
        page = context.new_page()
        page.goto(path.as_uri())
    for _ in range(50):
        if wanted <= {request.lstrip("/") for request in requests}:
            break
        page.wait_for_timeout(100)
    page.wait_for_timeout(1000 if not wanted else 0)  # nothing wanted: let animations play
    context.close()


def test_opened_unchecked_the_hostile_svgs_run_scripts_and_reach_the_network(
    browser: Browser, server: tuple[str, list[str]], tmp_path: Path
) -> None:
    base, requests = server
    requests.clear()
    files = []
    for svg in hostile_svgs(base):
        files.append(tmp_path / svg.name)
        files[-1].write_bytes(svg.data)
    _open_each(browser, files, requests, ACTING)
    acted = {request.lstrip("/") for request in requests}
    assert acted >= ACTING, sorted(ACTING - acted)


def _exported_svgs(out: Path) -> dict[str, bytes]:
    """Every SVG an export holds, by where: a file, a zip's entry, a data: URI, a Moodle
    <file> in base64."""
    found: dict[str, bytes] = {}
    data_uri = re.compile(rb"data:image/svg\+xml;base64,([A-Za-z0-9+/=]+)")
    moodle_file = re.compile(rb'<file name="[^"]*\.svg"[^>]*>([A-Za-z0-9+/=\s]+)</file>')
    for path in sorted(p for p in out.rglob("*") if p.is_file()):
        where = str(path.relative_to(out))
        data = path.read_bytes()
        if path.suffix == ".svg":
            found[where] = data
        elif path.suffix == ".zip":
            with zipfile.ZipFile(io.BytesIO(data)) as archive:
                for name in archive.namelist():
                    if name.endswith(".svg"):
                        found[f"{where}:{name}"] = archive.read(name)
        for number, match in enumerate([*data_uri.finditer(data), *moodle_file.finditer(data)]):
            found[f"{where}#{number}"] = base64.b64decode(match[1])
    return found


def test_no_exported_svg_runs_a_script_or_makes_a_request(
    browser: Browser, server: tuple[str, list[str]], tmp_path: Path
) -> None:
    base, requests = server
    hostile = {svg.name: svg.data for svg in hostile_svgs(base)}
    ordinary = ordinary_svgs()
    source = _moodle_file(tmp_path / "mixed.xml", {**hostile, **ordinary})
    content, out = tmp_path / "content", tmp_path / "out"
    assert main(["import", str(source), "-o", str(content), "--lang", "en"]) == 1
    assert main(["build", str(content), "-o", str(out), "-j", "1"]) == 0
    exported = _exported_svgs(out)
    files = []
    for number, data in enumerate(exported.values()):
        files.append(tmp_path / "opened" / f"{number}.svg")
        files[-1].parent.mkdir(exist_ok=True)
        files[-1].write_bytes(data)
    requests.clear()
    _open_each(browser, files, requests, set())
    assert requests == []
    assert set(exported.values()) == set(ordinary.values())
    formats = {where.split("/")[0] for where in exported}
    assert formats >= {"html", "json", "markdown", "moodle", "qti12", "qti3"}
