"""Facts about languages: direction and display name, from Babel's locale data."""

from __future__ import annotations

from functools import lru_cache

from babel import Locale, UnknownLocaleError


@lru_cache(maxsize=64)
def locale_for(lang: str) -> Locale:
    """The Babel locale of a BCP 47 code, falling back to English for unknown ones."""
    try:
        return Locale.parse(lang.replace("-", "_"))
    except (UnknownLocaleError, ValueError):
        return Locale.parse("en")


@lru_cache(maxsize=64)
def is_rtl(lang: str) -> bool:
    """True for right-to-left languages such as Urdu."""
    return locale_for(lang).text_direction == "rtl"


def direction(lang: str) -> str:
    """`rtl` or `ltr`, as the HTML `dir` attribute takes it."""
    return "rtl" if is_rtl(lang) else "ltr"


def language_name(lang: str) -> str:
    """The language's own name for itself, e.g. `اردو` for `ur`."""
    return locale_for(lang).get_display_name(locale_for(lang)) or lang
