"""Hostile bank files for `quizbank import`, each built at any size: the shapes that cost an
importer most per byte (a scan that starts again at every opening it meets). The import tests
run them in a child process under a CPU limit; scripts/fuzz.py can run them under a time bound.

    from import_hostile import HOSTILE_IMPORTS   # with tests/ on sys.path
    for name, build in HOSTILE_IMPORTS.items():
        file_name, data = build(1_000_000)       # about a megabyte; write it, then import it
"""

from __future__ import annotations

from collections.abc import Callable
from xml.sax.saxutils import escape

SPAN = '<span lang="en" class="multilang">'


def _repeated(piece: str, size: int) -> str:
    return piece * max(1, size // len(piece))


def moodle_question(kind: str, text: str) -> bytes:
    """A Moodle XML file of one question of `kind` whose question text is `text` (HTML)."""
    answers = {
        "cloze": "",
        "essay": "",
        "shortanswer": '<answer fraction="100" format="moodle_auto_format"><text>a</text></answer>',
    }[kind]
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n<quiz>\n'
        '<question type="category"><category><text>$course$/top/Hostile</text></category>'
        "</question>\n"
        f'<question type="{kind}"><name><text>q</text></name>\n'
        f'<questiontext format="html"><text>{escape(text)}</text></questiontext>\n'
        f"{answers}</question>\n</quiz>\n"
    ).encode()


def gift_question(text: str) -> bytes:
    """A GIFT file of one short-answer question whose text, in HTML, is `text` (which holds none
    of GIFT's special characters)."""
    return f"::q::[html]{text}{{=a}}\n".encode()


def cloze_never_closed(size: int) -> tuple[str, bytes]:
    """Embedded answers that open and never close: `{1:SA:` again and again."""
    return "cloze-open.xml", moodle_question("cloze", _repeated("{1:SA:", size))


def cloze_alternatives_never_closed(size: int) -> tuple[str, bytes]:
    """Gaps of one alternative after another, none closed: every gap reads to the end."""
    return "cloze-alternatives.xml", moodle_question("cloze", _repeated("{1:SA:=a#b~", size))


def cloze_feedback_never_closed(size: int) -> tuple[str, bytes]:
    """Gaps whose feedback never ends."""
    return "cloze-feedback.xml", moodle_question("cloze", _repeated("{1:MC:a#", size))


def multilang_never_closed(size: int) -> tuple[str, bytes]:
    """Multilang spans that open and never close."""
    return "multilang-open.xml", moodle_question("essay", _repeated(SPAN, size))


def multilang_closed_once(size: int) -> tuple[str, bytes]:
    """Multilang spans that open again and again, and one `</span>` at the very end."""
    return "multilang-once.xml", moodle_question("essay", _repeated(SPAN, size) + "</span>")


def multilang_unfinished_tags(size: int) -> tuple[str, bytes]:
    """A run of multilang spans whose first holds `<span ` after `<span ` with no `>`."""
    text = f"{SPAN}a</span>" + _repeated("<span ", size) + f"</span>{SPAN}b</span>"
    return "multilang-tags.xml", moodle_question("essay", text)


def mlang_never_closed(size: int) -> tuple[str, bytes]:
    """filter_multilang2's blocks that open and never close."""
    return "mlang-open.xml", moodle_question("essay", _repeated("{mlang en}", size))


def gift_multilang_never_closed(size: int) -> tuple[str, bytes]:
    """A GIFT question whose HTML text opens multilang spans and never closes them."""
    return "multilang-open.gift", gift_question(_repeated(SPAN, size))


def gift_mlang_never_closed(size: int) -> tuple[str, bytes]:
    """A GIFT question whose text opens `{mlang en}` blocks (escaped) and never closes them."""
    return "mlang-open.gift", gift_question(_repeated("\\{mlang en\\}", size))


HOSTILE_IMPORTS: dict[str, Callable[[int], tuple[str, bytes]]] = {
    "cloze never closed": cloze_never_closed,
    "cloze alternatives never closed": cloze_alternatives_never_closed,
    "cloze feedback never closed": cloze_feedback_never_closed,
    "multilang never closed": multilang_never_closed,
    "multilang closed once": multilang_closed_once,
    "multilang unfinished tags": multilang_unfinished_tags,
    "mlang never closed": mlang_never_closed,
    "gift multilang never closed": gift_multilang_never_closed,
    "gift mlang never closed": gift_mlang_never_closed,
}
