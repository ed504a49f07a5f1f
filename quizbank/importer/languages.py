"""The languages of a Moodle text and the text each language sees, as Moodle's multilang filters
show it.

Moodle's standard multilang filter (filter/multilang) shows one of a run of adjacent
`<span lang="xx" class="multilang">` elements: the learner's language, else its parent (English
last), else the first. The multilang2 plugin (filter_multilang2) shows a `{mlang xx,yy}…{mlang}`
block to the languages it lists and an `{mlang other}` block to a language no block of the text
lists. The patterns are the filters' own.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# filter_multilang's new syntax: two or more adjacent spans, each with exactly `lang` and `class`.
_SPAN_OPEN = r'<span(?:\s+lang="[a-zA-Z0-9_-]+"|\s+class="multilang"){2}\s*>'
_SPAN_RUN = re.compile(rf"(?:{_SPAN_OPEN}.*?</span>)(?:\s*{_SPAN_OPEN}.*?</span>)+", re.I | re.S)
_SPAN = re.compile(r'<span[^>]+lang="([a-zA-Z0-9_-]+)"[^>]*>(.*?)</span>', re.I | re.S)
# filter_multilang2: `{mlang en,fr}…{mlang}`.
_MLANG = re.compile(
    r"\{\s*mlang\s+([a-z0-9_-]+(?:\s*,\s*[a-z0-9_-]+)*)\s*\}(.*?)\{\s*mlang\s*\}", re.I | re.S
)
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
        for run in _SPAN_RUN.finditer(text):
            found += [quizbank_code(lang) for lang, _ in _SPAN.findall(run[0])]
    if "mlang" in text:
        for block in _MLANG.finditer(text):
            found += [quizbank_code(lang) for lang in block[1].split(",")]
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

    def one_of_run(run: re.Match[str]) -> str:
        nonlocal missing
        versions: dict[str, str] = {
            quizbank_code(code): inner for code, inner in _SPAN.findall(run[0])
        }
        for candidate in (lang, lang.split("-")[0], "en"):
            if candidate in versions:
                missing = missing or candidate != lang
                return versions[candidate]
        missing = True
        return next(iter(versions.values()))

    if "multilang" in text:
        text = _SPAN_RUN.sub(one_of_run, text)
    if "mlang" in text:
        blocks = [[quizbank_code(code) for code in m[1].split(",")] for m in _MLANG.finditer(text)]
        if blocks:
            listed = any(lang in codes or lang.split("-")[0] in codes for codes in blocks)
            missing = missing or not listed

            def shown(block: re.Match[str]) -> str:
                codes = [quizbank_code(code) for code in block[1].split(",")]
                mine = lang in codes or lang.split("-")[0] in codes
                return block[2] if mine or (not listed and _OTHER in codes) else ""

            text = _MLANG.sub(shown, text)
    return Seen(text, missing)
