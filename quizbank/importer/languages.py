"""The languages of a Moodle text and the text each language sees, as Moodle's multilang filters
show it.

Moodle's standard multilang filter (filter/multilang) shows one of a run of adjacent
`<span lang="xx" class="multilang">` elements: the learner's language, else its parent (English
last), else the first. The multilang2 plugin (filter_multilang2) shows a `{mlang xx,yy}…{mlang}`
block to the languages it lists and an `{mlang other}` block to a language no block of the text
lists. The patterns are the filters' own, and what they match is found by linear scans: each
opening tag, `</span>` and `{mlang}` is found once in the whole text, and the end of an element is
the first close after its opening (the filters' lazy `.*?`, which reads to the end of the text
again from every opening that never closes).
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TypeVar

# filter_multilang's new syntax: two or more adjacent spans, each with exactly `lang` and `class`,
# `(?:OPEN.*?</span>)(?:\s*OPEN.*?</span>)+`, then each span of a run by
# `<span[^>]+lang="(code)"[^>]*>(.*?)</span>` (case-insensitive, `.` any character).
_SPAN_OPEN = re.compile(r'<span(?:\s+lang="[a-zA-Z0-9_-]+"|\s+class="multilang"){2}\s*>', re.I)
_SPAN_TAG = re.compile(r"<span", re.I)
_SPAN_CLOSE = re.compile(r"</span>", re.I)
_TAG_END = re.compile(">")
_LANG = re.compile(r'lang="([a-zA-Z0-9_-]+)"', re.I)
_SPACE = re.compile(r"\s*")
# filter_multilang2: `{mlang en,fr}…{mlang}`.
_MLANG_OPEN = re.compile(r"\{\s*mlang\s+([a-z0-9_-]+(?:\s*,\s*[a-z0-9_-]+)*)\s*\}", re.I)
_MLANG_CLOSE = re.compile(r"\{\s*mlang\s*\}", re.I)
_OTHER = "other"


def quizbank_code(moodle: str) -> str:
    """A Moodle language pack's name as a language code: `pt_br` is `pt-BR`, `ur` is `ur`."""
    base, _, region = moodle.strip().lower().replace("_", "-").partition("-")
    if not region:
        return base
    return f"{base}-{region.upper() if len(region) == 2 else region}"


def languages_in(text: str) -> list[str]:
    """The languages a text's multilang spans and mlang blocks name, in order, each once."""
    found: list[str] = []
    if "multilang" in text:
        for run in _runs(text):
            found += [quizbank_code(lang) for lang, _ in run.versions]
    if "mlang" in text:
        for block in _blocks(text):
            found += block.codes
    return [lang for lang in dict.fromkeys(found) if lang != _OTHER]


@dataclass(frozen=True, slots=True)
class Seen:
    """What a learner in one language sees of a text, and whether some part of it had no
    version in that language (the filter showed another's)."""

    text: str
    missing: bool


def seen_in(text: str, lang: str) -> Seen:
    """The text as the multilang filters show it to a learner in `lang`."""
    missing = False

    def one_of_run(run: _Run) -> str:
        nonlocal missing
        versions = {quizbank_code(code): inner for code, inner in run.versions}
        for candidate in (lang, lang.split("-")[0], "en"):
            if candidate in versions:
                missing = missing or candidate != lang
                return versions[candidate]
        missing = True
        return next(iter(versions.values()))

    if "multilang" in text:
        text = _replaced(text, _runs(text), one_of_run)
    if "mlang" in text:
        blocks = _blocks(text)
        if blocks:
            listed = any(_lists(block.codes, lang) for block in blocks)
            missing = missing or not listed

            def shown(block: _Block) -> str:
                mine = _lists(block.codes, lang)
                return block.inner if mine or (not listed and _OTHER in block.codes) else ""

            text = _replaced(text, blocks, shown)
    return Seen(text, missing)


def _lists(codes: list[str], lang: str) -> bool:
    """Whether a block for these languages is shown to a learner in `lang`."""
    return lang in codes or lang.split("-")[0] in codes


@dataclass(frozen=True, slots=True)
class _Run:
    """A run of adjacent multilang spans: where it starts and ends in the text, and each span's
    Moodle language and text, in order."""

    start: int
    end: int
    versions: list[tuple[str, str]]


@dataclass(frozen=True, slots=True)
class _Block:
    """An mlang block: where it starts and ends, the languages it lists (as codes), its text."""

    start: int
    end: int
    codes: list[str]
    inner: str


_Part = TypeVar("_Part", "_Run", "_Block")


def _replaced(text: str, parts: list[_Part], by: Callable[[_Part], str]) -> str:
    """The text with each part (in order, apart) replaced by what `by` makes of it."""
    pieces: list[str] = []
    at = 0
    for part in parts:
        pieces += [text[at : part.start], by(part)]
        at = part.end
    pieces.append(text[at:])
    return "".join(pieces)


def _starts(pattern: re.Pattern[str], text: str) -> list[int]:
    return [match.start() for match in pattern.finditer(text)]


def _first(places: list[int], at: int, before: int | None = None) -> int | None:
    """The first of the sorted `places` at or after `at` (and before `before`)."""
    index = bisect_left(places, at)
    if index == len(places) or (before is not None and places[index] >= before):
        return None
    return places[index]


def _runs(text: str) -> list[_Run]:
    """The runs of multilang spans, as filter_multilang's expression finds them."""
    opens = {match.start(): match.end() for match in _SPAN_OPEN.finditer(text)}
    if not opens:
        return []
    closes = _starts(_SPAN_CLOSE, text)

    def next_span(at: int) -> int | None:
        """The end of a span opening at `at` after spaces, if one does."""
        spaces = _SPACE.match(text, at)
        opened = opens.get(spaces.end() if spaces else at)
        close = None if opened is None else _first(closes, opened)
        return None if close is None else close + len("</span>")

    # A first span ends at the first `</span>` followed by another span.
    followed = [close for close in closes if next_span(close + len("</span>")) is not None]
    spans = _Spans(text, closes)
    runs: list[_Run] = []
    at = 0
    for start, opened in opens.items():
        if start < at:
            continue
        close = _first(followed, opened)
        if close is None:
            break  # no span after this one is followed by another either
        end: int | None = close + len("</span>")
        while end is not None:
            at, end = end, next_span(end)
        runs.append(_Run(start, at, list(spans.within(start, at))))
    return runs


class _Spans:
    """Each span of a run as filter_multilang reads it: `<span`, the last `lang="…"` before the
    tag's first `>`, and the text up to the first `</span>`."""

    def __init__(self, text: str, closes: list[int]) -> None:
        self.text = text
        self.closes = closes
        self.tags = _starts(_SPAN_TAG, text)
        self.ends = _starts(_TAG_END, text)
        langs = list(_LANG.finditer(text))
        self.lang_starts = [match.start() for match in langs]
        self.langs = [match[1] for match in langs]

    def within(self, start: int, end: int) -> Iterator[tuple[str, str]]:
        """(Moodle's code, text) of each span from `start` to `end`."""
        index = bisect_left(self.tags, start)
        at = start
        while index < len(self.tags) and self.tags[index] < end:
            tag = self.tags[index]
            index += 1
            if tag < at:
                continue
            found = self._span(tag, end)
            if found is not None:
                lang, opened, close = found
                yield lang, self.text[opened:close]
                at = close + len("</span>")

    def _span(self, tag: int, end: int) -> tuple[str, int, int] | None:
        """The span whose tag starts at `tag`: its language, where its text starts and ends."""
        first = tag + len("<span")
        closing = _first(self.ends, first, end)
        if closing is None or closing == first:
            return None  # `[^>]+`: at least one character before the `>`
        index = bisect_left(self.lang_starts, closing) - 1
        if index < 0 or self.lang_starts[index] < first + 1:
            return None
        close = _first(self.closes, closing + 1, end)
        if close is None or close + len("</span>") > end:
            return None
        return self.langs[index], closing + 1, close


def _blocks(text: str) -> list[_Block]:
    """The mlang blocks, as filter_multilang2's expression finds them."""
    closes = [(match.start(), match.end()) for match in _MLANG_CLOSE.finditer(text)]
    starts = [start for start, _ in closes]
    blocks: list[_Block] = []
    at = 0
    for match in _MLANG_OPEN.finditer(text):
        if match.start() < at:
            continue
        index = bisect_left(starts, match.end())
        if index == len(closes):
            break  # no block after this one closes either
        close, at = closes[index]
        codes = [quizbank_code(code) for code in match[1].split(",")]
        blocks.append(_Block(match.start(), at, codes, text[match.end() : close]))
    return blocks
