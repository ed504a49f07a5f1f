"""The live script every served page carries, and the page made to carry it.

The script listens to Server-Sent Events on EVENTS_PATH and reloads the page when its quiz
changes; the page's Content-Security-Policy is relaxed just enough to let it run and connect.
"""

from __future__ import annotations

import html
import re

EVENTS_PATH = "/events"
SCRIPT_PATH = "/_quizbank/live.js"
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


def script_tag(quiz_id: str, version: str) -> str:
    """The tag of the live script, for a page of `quiz_id` (the index: "") at `version`."""
    return (
        f'<script src="{SCRIPT_PATH}" data-quiz="{html.escape(quiz_id)}" '
        f'data-version="{html.escape(version)}"></script>\n'
    )


def live_page(page: str, quiz_id: str, version: str = "") -> str:
    """A rendered page as served: its policy relaxed for the live script, which is added at
    the end of its body. The build's own output never passes through here."""
    page = _CSP_META.sub(lambda m: m.group(1) + relax_csp(m.group(2)) + m.group(3), page, count=1)
    tag = script_tag(quiz_id, version)
    at = page.rfind("</body>")
    return page[:at] + tag + page[at:] if at >= 0 else page + tag
