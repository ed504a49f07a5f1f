"""Facts about languages: direction and display name, from Babel's locale data; option letters."""

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


# Option letters by language: Urdu lists in the abjad order (الف، ب، ج، د …), which also keeps
# a Markdown host from reading "A." items as left-to-right text.
_LETTERS: dict[str, list[str]] = {"ur": ["الف", *"بجدہوزحطیکلمنسعفصقرشتثخذضظغ"]}
_LATIN = [chr(code) for code in range(ord("A"), ord("Z") + 1)]


def option_letter(lang: str, number: int) -> str:
    """The letter of the option at 0-based `number`: `B`, or `ب` in Urdu."""
    return _LETTERS.get(lang.split("-")[0], _LATIN)[number]


def option_label(lang: str, number: int) -> str:
    """An option's label before its text: `B.`, or `(ب)` in Urdu."""
    letter = option_letter(lang, number)
    return f"({letter})" if lang.split("-")[0] in _LETTERS else f"{letter}."


def option_list(lang: str, letters: list[str]) -> str:
    """Letters joined as the language lists them: `B, D`, or `ب، د` in Urdu."""
    return ("، " if is_rtl(lang) else ", ").join(letters)
