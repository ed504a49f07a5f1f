"""The pages served in place of a quiz's: its errors, its renderer's failure, a page not found;
and a valid quiz's warnings, listed above its page. Every text in them is escaped.
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence

from quizbank.diagnostics import Diagnostic, Report, Severity
from quizbank.serve.live import SCRIPT_PATH, script_tag

_OWN_CSP = (
    "default-src 'none'; style-src 'unsafe-inline'; script-src 'self'; connect-src 'self'; "
    "base-uri 'none'; form-action 'none'"
)


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
        f"{script_tag(quiz_id, version)}"
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
