"""The gettext catalogs: every string the code and templates use is there and translated, the
placeholders match, the template is current, and the shipped .mo files match their .po."""

from __future__ import annotations

import gettext
import io
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import read_mo, write_mo
from babel.messages.pofile import read_po
from conftest import QUIZ, Run

from quizbank.i18n import (
    LOCALE_DIR,
    format_fraction_percent,
    format_number,
    gettext_for,
    level_name,
    ngettext_for,
    translations_for,
)
from quizbank.locales import option_label, option_letter, option_list
from quizbank.model import Level

ROOT = Path(__file__).resolve().parents[1]
LANGS = ["en", "ur"]
TRANSLATED = ["ur"]  # English is the source language: its catalog may leave msgstr empty
MessageId = str | tuple[str, ...]
PLACEHOLDER = re.compile(r"%\((\w+)\)s")


def extracted_ids() -> dict[MessageId, str]:
    """Every message the code and templates use, extracted as `pybabel extract` does."""
    with (ROOT / "babel.cfg").open(encoding="utf-8") as config:
        method_map, options_map = parse_mapping_cfg(config, "babel.cfg")
    found: dict[MessageId, str] = {}
    for filename, lineno, message, _comments, _context in extract_from_dir(
        str(ROOT), method_map, options_map
    ):
        key = message if isinstance(message, str) else tuple(message)
        found.setdefault(key, f"{filename}:{lineno}")
    return found


def catalog(lang: str) -> Catalog:
    with (LOCALE_DIR / lang / "LC_MESSAGES" / "quizbank.po").open("rb") as po:
        return read_po(po, locale=lang)


def strings(message_string: str | tuple[str, ...]) -> tuple[str, ...]:
    return (message_string,) if isinstance(message_string, str) else tuple(message_string)


def entries(messages: Catalog) -> dict[MessageId, tuple[str, ...]]:
    """A compiled catalog's messages, comparable (read_mo gives plurals as lists)."""
    return {
        m.id if isinstance(m.id, str) else tuple(m.id): strings(m.string) for m in messages if m.id
    }


def test_extraction_finds_the_interface_strings() -> None:
    ids = extracted_ids()
    for expected in ("Submit", "Correct", "Incorrect", "Explanation", "Try again", "True"):
        assert expected in ids
    assert ("%(number)s question", "%(number)s questions") in ids  # a plural, not two strings
    assert "Your score: %(score)s of %(total)s (%(percent)s)" in ids
    assert {"Answer key", "Answer", "Questions"} <= set(ids)  # for the other renderers


def test_template_is_up_to_date() -> None:
    with (LOCALE_DIR / "quizbank.pot").open("rb") as pot:
        template = {message.id for message in read_po(pot) if message.id}
    missing = {str(key): where for key, where in extracted_ids().items() if key not in template}
    assert not missing, f"run pybabel extract (see babel.cfg): {missing}"


@pytest.mark.parametrize("lang", LANGS)
def test_catalog_has_every_message(lang: str) -> None:
    messages = catalog(lang)
    absent = {str(key): where for key, where in extracted_ids().items() if key not in messages}
    assert not absent, f"run pybabel update -D quizbank -d quizbank/locale: {absent}"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_catalog_translates_every_message(lang: str) -> None:
    messages = catalog(lang)
    untranslated = []
    for key, where in extracted_ids().items():
        message = messages.get(key if isinstance(key, str) else key[0])
        translation = strings(message.string) if message else ()
        if not message or message.fuzzy or not translation or not all(translation):
            untranslated.append(f"{key!r} ({where})")
    assert not untranslated, f"untranslated in {lang}: {untranslated}"


def test_urdu_plural_forms() -> None:
    messages = catalog("ur")
    assert messages.num_plurals == 2
    assert messages.plural_expr.replace(" ", "") == "(n!=1)"
    assert translations_for("ur").ngettext("%(number)s question", "%(number)s questions", 1) == (
        "%(number)s سوال"
    )
    assert ngettext_for("ur")("%(number)s question", "%(number)s questions", 8) == (
        "%(number)s سوالات"
    )


@pytest.mark.parametrize("lang", LANGS)
def test_translations_keep_the_placeholders(lang: str) -> None:
    messages = catalog(lang)
    assert not [(message.id, errors) for message, errors in messages.check()]
    for message in messages:
        if not message.id:
            continue
        wanted = set(PLACEHOLDER.findall(strings(message.id)[0]))
        for translation in strings(message.string):
            if translation:
                assert set(PLACEHOLDER.findall(translation)) == wanted, message.id


@pytest.mark.parametrize("lang", LANGS)
def test_compiled_catalog_is_up_to_date(lang: str) -> None:
    source = catalog(lang)
    compiled = io.BytesIO()
    write_mo(compiled, source)
    compiled.seek(0)
    fresh = read_mo(compiled)
    with (LOCALE_DIR / lang / "LC_MESSAGES" / "quizbank.mo").open("rb") as mo:
        shipped = read_mo(mo)
    assert entries(shipped) == entries(fresh), "run pybabel compile -D quizbank -d quizbank/locale"
    assert shipped.plural_forms == source.plural_forms


def test_translations_for_a_language() -> None:
    assert gettext_for("ur")("Submit") == "جمع کرائیں"
    assert gettext_for("ur")("Answer key") == "درست جوابات"
    assert gettext_for("ur-PK")("Try again") == "دوبارہ کوشش کریں"  # falls back to ur
    assert gettext_for("en")("Submit") == "Submit"
    assert translations_for("en").ngettext("Show answer", "Show answers", 2) == "Show answers"


def test_a_language_without_a_catalog_gets_the_english_strings() -> None:
    translations = translations_for("fr")
    assert isinstance(translations, gettext.NullTranslations)
    assert translations.gettext("Submit") == "Submit"


def test_level_names_and_numbers() -> None:
    assert level_name(Level.INTERMEDIATE, "ur") == "درمیانی سطح"
    assert level_name(Level.BEGINNER, "en") == "Beginner"
    assert format_number(1234, "en") == "1,234"
    assert format_number(8, "ur") == "8"  # Babel's default numbering for ur is Latin digits
    assert format_fraction_percent(0.75, "ur") == "75%"


def test_urdu_interface_strings_follow_the_glossary() -> None:
    # ../shared/URDU.md: verdicts differ from the True/False options; "answer key" is not the
    # calque جوابی کلید; the three levels are parallel badges, and "advanced" names a level, not
    # "superior"; a model answer is نمونہ جواب, not "the sample's answer" (review 3, U2-U5).
    ur = gettext_for("ur")
    assert (ur("True"), ur("False")) == ("درست", "غلط")
    assert (ur("Correct"), ur("Incorrect")) == ("درست جواب", "غلط جواب")
    assert {ur("Correct"), ur("Incorrect")}.isdisjoint({ur("True"), ur("False")})
    assert ur("Answer key") == "درست جوابات"
    assert [level_name(level, "ur") for level in Level] == [
        "ابتدائی سطح",
        "درمیانی سطح",
        "اعلیٰ سطح",
    ]
    assert ur("Model answer") == "نمونہ جواب"
    assert ur("Write the letter of each item's match.") == (
        "ہر جزو کے سامنے اس کے درست جوڑ کا حرف لکھیں۔"  # noqa: RUF001 - Urdu full stop
    )
    # the star matches digits or nothing too, not only letters (حروف)
    star = ur("%(star)s stands for any run of characters.")
    assert "حروف ہو سکتے" not in star and "کچھ بھی" in star


@pytest.mark.parametrize("lang", ["en", "ur"])
@pytest.mark.parametrize(
    ("fraction", "shown"), [(1 / 8, "13%"), (3 / 8, "38%"), (5 / 8, "63%"), (1 / 3, "33%")]
)
def test_a_score_percent_rounds_half_up(lang: str, fraction: float, shown: str) -> None:
    # Babel rounds half to even (1/8 was 12%, 5/8 62%); a learner expects 12.5% to read 13%.
    assert format_fraction_percent(fraction, lang) == shown


def test_option_letters_follow_the_language() -> None:
    assert [option_label("en", n) for n in range(4)] == ["A.", "B.", "C.", "D."]
    assert [option_label("ur", n) for n in range(4)] == ["(الف)", "(ب)", "(ج)", "(د)"]
    assert len({option_letter("ur", n) for n in range(26)}) == 26  # a question has 26 at most
    assert option_list("ur", ["ب", "د"]) == "ب، د" and option_list("en", ["B", "D"]) == "B, D"


@pytest.mark.parametrize(
    ("number", "shown"), [(0.0005, "0.0005"), (1234.5678, "1,234.5678"), (0.9, "0.9"), (3, "3")]
)
def test_a_number_keeps_every_digit_it_has(number: float, shown: str) -> None:
    assert format_number(number, "en") == shown


def test_a_language_without_an_interface_catalog_builds_with_a_warning(
    bank: Path, cli: Callable[..., Run]
) -> None:
    (bank / "fr").mkdir()
    english = (bank / "en" / f"{QUIZ}.yaml").read_text(encoding="utf-8")
    (bank / "fr" / f"{QUIZ}.yaml").write_text(english.replace("lang: en", "lang: fr", 1), "utf-8")
    run = cli("build", "-f", "html", "-o", "out")
    assert run.code == 0, run.out + run.err
    assert (
        "quizbank: warning: quizbank has no interface catalog for fr "
        "(quizbank/locale/fr/LC_MESSAGES/quizbank.mo): its pages show the interface in English"
    ) in run.err
    assert Path("out/html/fr", f"{QUIZ}.html").is_file()
    assert "catalog" not in cli("build", "-f", "html", "-l", "ur", "-o", "out-ur").err
