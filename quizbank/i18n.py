"""Interface strings and number formatting for the pages quizbank generates.

The strings live in gettext catalogs managed with Babel (domain `quizbank`, in
`quizbank/locale/<lang>/LC_MESSAGES/`); see babel.cfg for extraction. The content itself is never
translated here: each language has its own YAML file.
"""

from __future__ import annotations

import gettext
from collections.abc import Callable, Mapping
from decimal import ROUND_HALF_UP, Decimal, localcontext
from functools import lru_cache
from pathlib import Path

from babel.numbers import format_decimal, format_percent
from babel.support import Translations

from quizbank.locales import locale_for
from quizbank.model import Level

DOMAIN = "quizbank"
LOCALE_DIR = Path(__file__).with_name("locale")


def N_(message: str) -> str:
    """Mark a string for extraction without translating it yet (gettext's `N_` convention)."""
    return message


LEVEL_NAMES: Mapping[Level, str] = {
    Level.BEGINNER: N_("Beginner"),
    Level.INTERMEDIATE: N_("Intermediate"),
    Level.ADVANCED: N_("Advanced"),
}

# Headings other renderers share (the Markdown export's answer-key section, say): declared here
# so that every catalog carries them even before a renderer uses them.
ANSWER_KEY = N_("Answer key")
ANSWER = N_("Answer")
QUESTIONS = N_("Questions")


def _gettext_locale(lang: str) -> str:
    """`ur-PK` (BCP 47) to `ur_PK` (gettext); gettext falls back from `ur_PK` to `ur` itself."""
    return lang.replace("-", "_")


@lru_cache(maxsize=32)
def translations_for(lang: str) -> gettext.NullTranslations:
    """The catalog of `lang`; without one, a pass-through catalog (the English strings)."""
    return Translations.load(dirname=LOCALE_DIR, locales=[_gettext_locale(lang)], domain=DOMAIN)


def has_catalog(lang: str) -> bool:
    """Whether quizbank's interface is translated into `lang` (English is its own source)."""
    return lang.split("-")[0] == "en" or isinstance(translations_for(lang), Translations)


def gettext_for(lang: str) -> Callable[[str], str]:
    """A `gettext` function for `lang`, for renderers that need a few interface strings."""
    return translations_for(lang).gettext


def ngettext_for(lang: str) -> Callable[[str, str, int], str]:
    """An `ngettext` function for `lang`: `ngettext("%(n)s question", "%(n)s questions", n)`."""
    return translations_for(lang).ngettext


def level_name(level: Level, lang: str) -> str:
    """The name of a level in `lang`, e.g. `درمیانی` for intermediate in Urdu."""
    return gettext_for(lang)(LEVEL_NAMES[level])


# Every page formats the same few numbers (question numbers, every possible score): Babel takes
# tens of microseconds per call, a cache well under one.
@lru_cache(maxsize=4096, typed=True)
def format_number(number: int | float, lang: str) -> str:
    """A number as `lang` writes it (grouping, decimal sign, digits), through Babel, with every
    digit it has (Babel's default pattern keeps three decimals: 0.0005 would read 0)."""
    if isinstance(number, int):
        return format_decimal(number, locale=locale_for(lang))
    exact = Decimal(repr(number))
    # Babel rounds in the current context, whose 28 digits cannot hold 1e25 and a decimal
    # place: as many digits as the number has, before and after the point, and some to spare.
    with localcontext() as context:
        context.prec = max(context.prec, abs(exact.adjusted()) + len(exact.as_tuple().digits) + 10)
        return format_decimal(exact, locale=locale_for(lang), decimal_quantization=False)


@lru_cache(maxsize=4096, typed=True)
def format_fraction_percent(fraction: float, lang: str) -> str:
    """A fraction as a whole percentage in `lang`'s format, e.g. 0.75 to `75%`, rounded half up
    (Babel alone rounds half to even: 1/8 would read 12%)."""
    whole = Decimal(repr(fraction * 100)).quantize(Decimal(1), rounding=ROUND_HALF_UP)
    return format_percent(whole / 100, locale=locale_for(lang))


def word_limits_message(low: int | None, high: int | None, lang: str) -> str:
    """An essay's word limits in `lang`, with `%(min)s` and `%(max)s` for each renderer to fill
    with its numbers ("%(min)s to %(max)s words"); "" when the essay has none."""
    ngettext = ngettext_for(lang)
    if low and high:
        return ngettext("%(min)s to %(max)s word", "%(min)s to %(max)s words", high)
    if low:
        return ngettext("At least %(min)s word", "At least %(min)s words", low)
    if high:
        return ngettext("At most %(max)s word", "At most %(max)s words", high)
    return ""
