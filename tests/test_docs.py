"""The documentation site (docs/, built by scripts/docs-build): it builds strictly, every page
passes the Nu HTML Checker, its home page and search work in Chromium, and every command example
on its pages prints what the page shows (see docs/developing.md for the placeholders).
"""

from __future__ import annotations

import argparse
import functools
import http.server
import os
import re
import shlex
import shutil
import subprocess
import sys
import textwrap
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from chromium import CHROMIUM, CHROMIUM_ARGS
from playwright.sync_api import expect, sync_playwright
from test_html import ROOT, VNU

from quizbank.cli import _parser
from quizbank.scripts import ARABIC

DOCS = ROOT / "docs"
PAGES = sorted(DOCS.rglob("*.md"))
FENCE = re.compile(r"^( *)```(console|sh)\n(.*?)^\1```", re.S | re.M)
TIMING = re.compile(r"\bin \d+(?:\.\d+)? s\b")
ANY_LINES = "..."


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site, built once by the contract CI runs."""
    out = tmp_path_factory.mktemp("site") / "html"
    result = subprocess.run(
        [str(ROOT / "scripts" / "docs-build"), str(out)],
        env={**os.environ, "PYTHON": sys.executable},
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    return out


def blocks(kind: str) -> list[tuple[str, str]]:
    """(where, text) of every fenced block of a kind on the pages, `page.md:line` first."""
    found = []
    for page in PAGES:
        text = page.read_text("utf-8")
        for match in FENCE.finditer(text):
            if match[2] == kind:
                line = text.count("\n", 0, match.start()) + 1
                found.append((f"{page.relative_to(DOCS)}:{line}", textwrap.dedent(match[3])))
    return found


def examples(text: str) -> list[tuple[str, list[str]]]:
    """The commands of a console block, each with the lines shown as its output."""
    runs: list[tuple[str, list[str]]] = []
    for line in text.splitlines():
        if line.startswith("$ "):
            runs.append((line[2:], []))
        else:
            assert runs, f"output before any command: {line!r}"
            runs[-1][1].append(line)
    return runs


def matches(shown: list[str], printed: list[str]) -> bool:
    """Whether the printed lines are the shown ones, a line `...` standing for any lines."""
    if not shown:
        return not printed
    if shown[0] == ANY_LINES:
        return any(matches(shown[1:], printed[skip:]) for skip in range(len(printed) + 1))
    return bool(printed) and shown[0] == printed[0] and matches(shown[1:], printed[1:])


def normalised(lines: list[str]) -> list[str]:
    return [TIMING.sub("in <time> s", line.rstrip()) for line in lines]


CONSOLE = blocks("console")


def test_the_pages_have_runnable_examples() -> None:
    assert len(CONSOLE) >= 6
    for where, text in CONSOLE:
        for command, _ in examples(text):
            assert command.startswith("quizbank "), f"{where}: only quizbank commands are run"


@pytest.mark.parametrize(("where", "text"), CONSOLE, ids=[where for where, _ in CONSOLE])
def test_a_console_example_prints_what_the_page_shows(
    where: str, text: str, tmp_path: Path
) -> None:
    for folder in ("content", "schema"):
        shutil.copytree(ROOT / folder, tmp_path / folder)
    env = {**os.environ, "COLUMNS": "100", "NO_COLOR": "1"}
    for command, shown in examples(text):
        argv = [sys.executable, "-m", "quizbank", *shlex.split(command)[1:]]
        result = subprocess.run(
            argv, cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
        )
        printed = normalised(result.stdout.splitlines())
        assert matches(normalised(shown), printed), f"{where}: `{command}` printed:\n" + "\n".join(
            printed
        )


def test_every_quizbank_line_of_a_sh_block_is_accepted_by_the_parser() -> None:
    parser = _parser()
    checked = 0
    for where, text in blocks("sh"):
        for line in text.splitlines():
            words = shlex.split(line, comments=True)
            if words[:1] != ["quizbank"]:
                continue
            try:
                parser.parse_args(words[1:])
            except SystemExit:
                pytest.fail(f"{where}: the parser refuses `{line}`")
            checked += 1
    assert checked >= 5


def test_the_urdu_rules_list_every_discouraged_term() -> None:
    page = (DOCS / "translating.md").read_text("utf-8")
    for bad, good in ARABIC.avoid.items():
        assert f"| {bad} | {good} |" in page


def test_the_command_reference_has_every_command(site: Path) -> None:
    page = (site / "reference.html").read_text("utf-8")
    subcommands = next(
        action for action in _parser()._actions if isinstance(action, argparse._SubParsersAction)
    )
    for name in subcommands.choices:
        assert f"usage: quizbank {name}" in page


def test_the_build_fails_on_a_broken_link(tmp_path: Path) -> None:
    docs = tmp_path / "repo" / "docs"
    shutil.copytree(DOCS, docs)
    shutil.copy(ROOT / "CHANGELOG.md", docs.parent / "CHANGELOG.md")
    shutil.copytree(ROOT / "scripts", docs.parent / "scripts")
    with (docs / "ci.md").open("a", encoding="utf-8") as page:
        page.write("\nSee [the missing page](no-such-page.md).\n")
    result = subprocess.run(
        [str(docs.parent / "scripts" / "docs-build"), str(tmp_path / "out")],
        env={**os.environ, "PYTHON": sys.executable},
        capture_output=True,
        text=True,
    )
    assert result.returncode == 1
    assert "ci.md:" in result.stderr and "no-such-page" in result.stderr


def test_every_page_passes_the_nu_html_checker(site: Path) -> None:
    assert VNU.is_file(), "the Nu HTML Checker is not installed: run `npm ci`"
    pages = sorted(str(page) for page in site.rglob("*.html"))
    assert len(pages) >= 15
    result = subprocess.run(
        ["java", "-jar", str(VNU), "--errors-only", "--format", "gnu", "--", *pages],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr + result.stdout


@pytest.fixture(scope="module")
def served(site: Path) -> Iterator[str]:
    """The site over HTTP on a free port of this machine, as a reader's browser gets it."""
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()


def test_the_home_page_and_the_search_work_in_a_browser(served: str) -> None:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page()
        failed: list[str] = []
        page.on("requestfailed", lambda request: failed.append(request.url))
        page.on("pageerror", lambda error: failed.append(str(error)))
        page.goto(served)
        expect(page).to_have_title(re.compile("quizbank"))
        picture = page.locator("img[src*='quiz-en-ur']")
        expect(picture).to_be_visible()
        assert picture.evaluate("image => image.naturalWidth") > 0
        page.get_by_role("link", name="Get started").first.click()
        expect(page.locator("h1")).to_have_text(re.compile("Get started"))
        search = page.locator("input[name=q]").first
        search.fill("multilang")
        search.press("Enter")
        expect(page).to_have_url(re.compile(r"search\.html\?q=multilang"))
        results = page.locator("#search-results ul.search li a")
        expect(results.first).to_be_visible(timeout=15000)
        titles = results.all_inner_texts()
        assert any("Moodle" in title for title in titles), titles
        assert not failed, failed
        browser.close()


def test_the_build_names_its_one_argument() -> None:
    result = subprocess.run(
        [str(ROOT / "scripts" / "docs-build")], capture_output=True, text=True, check=False
    )
    assert result.returncode == 2
    assert result.stderr == "usage: scripts/docs-build OUT\n"
