"""The Jinja2 environment of the HTML pages: templates, catalogs, filters and inlined assets."""

from __future__ import annotations

from functools import lru_cache
from importlib.resources import files

from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape
from markupsafe import Markup, escape

from quizbank.i18n import format_number, level_name, translations_for
from quizbank.locales import direction, language_name
from quizbank.model import Level


def number_html(number: int | float, lang: str) -> Markup:
    """A number formatted by Babel for `lang`, isolated so that it keeps its place in RTL text."""
    return Markup(f"<bdi>{escape(format_number(number, lang))}</bdi>")


def level_label(level: str, lang: str) -> str:
    """The level's name in `lang`; an unknown level is shown as it is."""
    try:
        return level_name(Level(level), lang)
    except ValueError:
        return level


@lru_cache(maxsize=8)
def asset(name: str) -> Markup:
    """A file of `assets/` as it is inlined into every page (our own CSS or JavaScript)."""
    text = files(__package__).joinpath("assets", name).read_text("utf-8")
    closing = "</" + ("style" if name.endswith(".css") else "script")
    if closing in text.lower():
        raise ValueError(f"{name} must not contain {closing!r}: it is inlined into the page")
    return Markup(text.strip())  # our own asset, checked above not to close its element


@lru_cache(maxsize=16)
def environment(lang: str) -> Environment:
    """Templates with autoescaping on and the gettext catalog of `lang` installed."""
    env = Environment(
        loader=PackageLoader("quizbank_renderers.html", "templates"),
        autoescape=select_autoescape(default=True, default_for_string=True),
        extensions=["jinja2.ext.i18n"],
        undefined=StrictUndefined,
        auto_reload=False,  # the templates ship with the package: no stat() per page
        trim_blocks=True,
        lstrip_blocks=True,
    )
    # Added by jinja2.ext.i18n at run time, so type checkers do not know it.
    env.install_gettext_translations(translations_for(lang), newstyle=True)  # type: ignore[attr-defined]
    env.filters["number"] = lambda number: number_html(number, lang)
    env.globals.update(
        lang=lang,
        dir=direction(lang),
        level_label=lambda level: level_label(level, lang),
        language_name=language_name,
        direction=direction,
    )
    return env
