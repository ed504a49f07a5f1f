"""The Jinja2 environment of the HTML pages: templates, catalogs, filters and inlined assets."""

from __future__ import annotations

from functools import lru_cache
from importlib.resources import files

from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape
from jinja2.bccache import Bucket, BytecodeCache
from markupsafe import Markup, escape

from quizbank.i18n import format_number, level_name, ngettext_for, translations_for
from quizbank.locales import direction, language_name
from quizbank.model import Level


@lru_cache(maxsize=4096, typed=True)  # a page numbers its questions 1, 2, 3... in one language
def number_html(number: int | float, lang: str) -> Markup:
    """A number formatted by Babel for `lang`, isolated so that it keeps its place in RTL text.
    (Typed: 1 and 1.0 are kept apart, as Babel may format them apart.)"""
    return Markup(f"<bdi>{escape(format_number(number, lang))}</bdi>")


@lru_cache(maxsize=256)
def question_count(count: int, lang: str) -> Markup:
    """ "8 questions" in `lang`, the number formatted by Babel and isolated."""
    ngettext = ngettext_for(lang)
    # Translators: the number comes formatted; Urdu: "%(number)s سوال" / "%(number)s سوالات".
    message = ngettext("%(number)s question", "%(number)s questions", count)
    return escape(message) % {"number": number_html(count, lang)}


@lru_cache(maxsize=64)
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


class SharedBytecode(BytecodeCache):
    """Each template compiled once per process, shared by the environments of every language.

    Their settings are all the same (only the catalog and globals differ, which a template
    looks up as it renders), so the compiled code of one serves them all.
    """

    def __init__(self) -> None:
        self.compiled: dict[str, bytes] = {}

    def load_bytecode(self, bucket: Bucket) -> None:
        if (code := self.compiled.get(bucket.key)) is not None:
            bucket.bytecode_from_string(code)

    def dump_bytecode(self, bucket: Bucket) -> None:
        self.compiled[bucket.key] = bucket.bytecode_to_string()


SHARED_BYTECODE = SharedBytecode()


@lru_cache(maxsize=16)
def environment(lang: str) -> Environment:
    """Templates with autoescaping on and the gettext catalog of `lang` installed."""
    env = Environment(
        loader=PackageLoader("quizbank_renderers.html", "templates"),
        autoescape=select_autoescape(default=True, default_for_string=True),
        extensions=["jinja2.ext.i18n"],
        undefined=StrictUndefined,
        auto_reload=False,  # the templates ship with the package: no stat() per page
        bytecode_cache=SHARED_BYTECODE,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    # Added by jinja2.ext.i18n at run time, so type checkers do not know it.
    env.install_gettext_translations(translations_for(lang), newstyle=True)  # type: ignore[attr-defined]
    env.globals.update(
        lang=lang,
        dir=direction(lang),
        level_label=lambda level: level_label(level, lang),
        question_count=lambda count: question_count(count, lang),
        language_name=language_name,
        direction=direction,
    )
    return env
