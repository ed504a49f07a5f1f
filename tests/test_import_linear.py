"""The importer's linear scans read what Moodle's own regular expressions read: embedded answers
(cloze.py) as qtype_multianswer's expression finds them, multilang spans and mlang blocks
(languages.py) as filter_multilang's and filter_multilang2's do. Each expression is kept here,
as Moodle writes it, and run on texts made of the pieces that matter to it."""

from __future__ import annotations

import re
from html import unescape

from hypothesis import given, settings
from hypothesis import strategies as st

from quizbank.importer import cloze
from quizbank.importer.cloze import Cloze, read_cloze
from quizbank.importer.languages import Seen, languages_in, quizbank_code, seen_in

# ------------------------------------------------------------------------- embedded answers

# qtype_multianswer's ANSWER_REGEX, as Python writes it: a gap, its alternatives, and the
# ends of an answer and of a feedback.
_MOODLE_ANSWER_END = re.compile(r"(?<!\\)(?<!&)(?<!&amp;)[~#}]")
_MOODLE_FEEDBACK_END = re.compile(r"(?<!\\)[~}]")
_GRADE = re.compile(r"=|%(-?[0-9]+(?:[.,][0-9]*)?)%")


def _moodle_alternatives(html: str, at: int) -> tuple[list[tuple[float, str, str]], int] | None:
    """A gap's alternatives searched for from each one's start, to the end of the text if
    need be, as Moodle's expression does."""
    found: list[tuple[float, str, str]] = []
    while True:
        grade_match = _GRADE.match(html, at)
        grade = 0.0
        if grade_match:
            grade = 1.0 if grade_match[0] == "=" else float(grade_match[1].replace(",", ".")) / 100
            at = grade_match.end()
        end = _MOODLE_ANSWER_END.search(html, at + 1)
        if end is None or at >= len(html):
            return None
        answer, at = html[at : end.start()], end.start()
        feedback = ""
        if html[at] == "#":
            stop = _MOODLE_FEEDBACK_END.search(html, at + 1)
            if stop is None:
                return None
            feedback, at = html[at + 1 : stop.start()], stop.start()
        found.append((grade, answer, feedback))
        if html[at] == "}":
            return found, at + 1
        at += 1


def _moodle_cloze(html: str) -> Cloze:
    """The gaps of a text found by searching again from every gap's start."""
    found = Cloze("")
    pieces: list[str] = []
    at = 0
    for start in cloze._START.finditer(html):
        if start.start() < at:
            continue
        read = _moodle_alternatives(html, start.end())
        if read is None:
            continue
        alternatives, end = read
        number = str(len(found.gaps) + 1)
        pieces += [html[at : start.start()], f"[[{number}]]"]
        at = end
        found.weights.append(float(start[1] or 1))
        decoded = [
            cloze._Alternative(grade, _decoded(answer), _decoded(feedback))
            for grade, answer, feedback in alternatives
        ]
        cloze._add_gap(found, number, start[2], decoded)
    pieces.append(html[at:])
    found.prompt = "".join(pieces)
    weights = set(found.weights)
    if len(weights) > 1:
        shown = ", ".join(cloze._number(w) for w in found.weights)
        found.losses.append(f"its gaps weigh differently ({shown}); each now scores the same share")
    return found


def _decoded(text: str) -> str:
    return unescape(text).replace("\\}", "}").replace("\\#", "#")


_CLOZE_PIECES = st.sampled_from(
    [
        "{1:SA:",
        "{2:MC:",
        "{:NM:",
        "{1:MR:",
        "~",
        "#",
        "}",
        "\\",
        "&",
        "&amp;",
        "=",
        "%50%",
        "a",
        "1",
    ]
)


@settings(max_examples=3000, deadline=None)
@given(st.lists(_CLOZE_PIECES, max_size=30).map("".join))
def test_the_gaps_are_those_moodles_expression_finds(text: str) -> None:
    assert read_cloze(text) == _moodle_cloze(text)


def test_a_gap_that_reaches_where_another_found_no_end_does_not_close() -> None:
    text = "{1:SA:=a~{1:SA:=b~c"  # the second gap is read as part of the first, then alone
    assert read_cloze(text) == _moodle_cloze(text)
    assert read_cloze(text).gaps == {}
    closed = "{1:SA:=a#{1:SA:=b~c}"
    assert read_cloze(closed) == _moodle_cloze(closed)
    assert len(read_cloze(closed).gaps) == 1


# ------------------------------------------------------------------------- multilang filters

# filter_multilang's expressions (filter/multilang/filter.php) and filter_multilang2's.
_MOODLE_SPAN_OPEN = r'<span(?:\s+lang="[a-zA-Z0-9_-]+"|\s+class="multilang"){2}\s*>'
_MOODLE_SPAN_RUN = re.compile(
    rf"(?:{_MOODLE_SPAN_OPEN}.*?</span>)(?:\s*{_MOODLE_SPAN_OPEN}.*?</span>)+", re.I | re.S
)
_MOODLE_SPAN = re.compile(r'<span[^>]+lang="([a-zA-Z0-9_-]+)"[^>]*>(.*?)</span>', re.I | re.S)
_MOODLE_MLANG = re.compile(
    r"\{\s*mlang\s+([a-z0-9_-]+(?:\s*,\s*[a-z0-9_-]+)*)\s*\}(.*?)\{\s*mlang\s*\}", re.I | re.S
)


def _moodle_languages(text: str) -> list[str]:
    found: list[str] = []
    if "multilang" in text:
        for run in _MOODLE_SPAN_RUN.finditer(text):
            found += [quizbank_code(lang) for lang, _ in _MOODLE_SPAN.findall(run[0])]
    if "mlang" in text:
        for block in _MOODLE_MLANG.finditer(text):
            found += [quizbank_code(lang) for lang in block[1].split(",")]
    return [lang for lang in dict.fromkeys(found) if lang != "other"]


def _moodle_seen(text: str, lang: str) -> Seen:
    missing = False

    def one_of_run(run: re.Match[str]) -> str:
        nonlocal missing
        versions = {quizbank_code(code): inner for code, inner in _MOODLE_SPAN.findall(run[0])}
        for candidate in (lang, lang.split("-")[0], "en"):
            if candidate in versions:
                missing = missing or candidate != lang
                return versions[candidate]
        missing = True
        return next(iter(versions.values()))

    if "multilang" in text:
        text = _MOODLE_SPAN_RUN.sub(one_of_run, text)
    if "mlang" in text:
        blocks = [
            [quizbank_code(code) for code in m[1].split(",")] for m in _MOODLE_MLANG.finditer(text)
        ]
        if blocks:
            listed = any(lang in codes or lang.split("-")[0] in codes for codes in blocks)
            missing = missing or not listed

            def shown(block: re.Match[str]) -> str:
                codes = [quizbank_code(code) for code in block[1].split(",")]
                mine = lang in codes or lang.split("-")[0] in codes
                return block[2] if mine or (not listed and "other" in codes) else ""

            text = _MOODLE_MLANG.sub(shown, text)
    return Seen(text, missing)


_SPAN_PIECES = st.sampled_from(
    [
        '<span lang="en" class="multilang">',
        '<span class="multilang" lang="ur">',
        '<SPAN LANG="pt_br" CLASS="MULTILANG">',
        '<span lang="fr" class="other">',
        '<span x lang="de">',
        "<span ",
        "<span",
        "</span>",
        "</SPAN>",
        'lang="ur"',
        ">",
        " ",
        "\n",
        "a",
    ]
)
_MLANG_PIECES = st.sampled_from(
    [
        "{mlang en}",
        "{mlang ur, other}",
        "{ MLANG Pt_BR }",
        "{mlang}",
        "{ mlang }",
        "{mlang",
        "}",
        "a",
        " ",
    ]
)
_LANGS = ("en", "ur", "pt-BR", "fr", "de")


@settings(max_examples=3000, deadline=None)
@given(st.lists(_SPAN_PIECES | _MLANG_PIECES, max_size=24).map("".join))
def test_the_texts_seen_are_those_moodles_filters_show(text: str) -> None:
    assert languages_in(text) == _moodle_languages(text)
    for lang in _LANGS:
        assert seen_in(text, lang) == _moodle_seen(text, lang)


@settings(max_examples=1000, deadline=None)
@given(st.lists(_SPAN_PIECES, max_size=40).map("".join))
def test_multilang_runs_are_those_moodles_filter_finds(text: str) -> None:
    text = "multilang " + text
    assert languages_in(text) == _moodle_languages(text)
    for lang in _LANGS:
        assert seen_in(text, lang) == _moodle_seen(text, lang)
