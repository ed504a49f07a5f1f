"""Writing systems: is a text in the language it claims to be, and with the agreed terms?"""

from __future__ import annotations

import re
from dataclasses import dataclass

# Spans that are never translated: inline code, formulas, links' targets and bare URLs, and
# images' alt texts (checked on their own).
_UNTRANSLATED_SPANS = re.compile(
    r"`[^`]*`|\$\$.+?\$\$|\$[^$\s][^$]*\$|!\[[^\]]*\]\([^)]*\)|\]\([^)]*\)|https?://\S+", re.DOTALL
)
_LATIN_WORD = re.compile(r"[A-Za-z]{2,}")
# What every one of those spans holds; nearly every text holds none of it.
_MAY_HOLD_SPAN = re.compile(r"[`$\]]|https?://")


@dataclass(frozen=True)
class Script:
    """A writing system, the letters that show a text is written in it, and terms to avoid."""

    name: str
    letters: re.Pattern[str]
    avoid: dict[str, str]


ARABIC = Script(
    name="Arabic-script (Urdu)",
    letters=re.compile("[\u0600-\u06ff\u0750-\u077f\u08a0-\u08ff\ufb50-\ufdff\ufe70-\ufeff]"),
    avoid={
        "چوکی": "چیک پوائنٹ",
        "اصلاح کار": "آپٹیمائزر",
        "طویل ملازمت": "دیر تک چلنے والی جاب",
    },
)

SCRIPTS: dict[str, Script] = {"ur": ARABIC, "ar": ARABIC, "fa": ARABIC, "ps": ARABIC, "sd": ARABIC}


def script_for(lang: str) -> Script | None:
    """The script a language is checked against, if any (`ur-PK` uses `ur`'s)."""
    return SCRIPTS.get(lang.split("-")[0].lower())


def looks_untranslated(text: str, script: Script) -> bool:
    """True when a text has words but no letter of the script; a lone name or code is fine."""
    prose = _UNTRANSLATED_SPANS.sub(" ", text) if _MAY_HOLD_SPAN.search(text) else text
    return not script.letters.search(prose) and len(_LATIN_WORD.findall(prose)) >= 2


def avoided_terms(text: str, script: Script) -> list[tuple[str, str]]:
    """The discouraged terms a text uses, each with the agreed term to use instead."""
    return [(bad, good) for bad, good in script.avoid.items() if bad in text]
