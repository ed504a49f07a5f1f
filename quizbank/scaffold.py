"""`quizbank new`: a starting file per language, one example question of each type, that
validates as it is written."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from quizbank.diagnostics import display_path, printable
from quizbank.errors import QuizbankError, UsageError
from quizbank.model import LANGUAGE_CODE, SLUG_PATTERN
from quizbank.placeholders import NEW_TITLES, filled_template, template_for
from quizbank.project import SUFFIXES
from quizbank.scripts import looks_untranslated, script_for

DEFAULT_LANGUAGES = ("en", "ur")
MAX_ID = 64  # as the model's slugs
MAX_TITLE = 300  # as the model's titles
_CODE_FENCE = re.compile(r"^ {0,3}(?:```|~~~)")


@dataclass(frozen=True)
class NewFile:
    """One file written, and what its author still has to do in it ("" when nothing)."""

    path: Path
    lang: str
    note: str = ""


def default_languages(content: Path) -> list[str]:
    """The language folders already under the content folder, else English and Urdu."""
    found = sorted(
        entry.name
        for entry in (content.iterdir() if content.is_dir() else ())
        if entry.is_dir() and LANGUAGE_CODE.match(entry.name)
    )
    return found or list(DEFAULT_LANGUAGES)


def new_quiz(
    quiz_id: str, content: Path, languages: list[str], title: str | None = None
) -> list[NewFile]:
    """Write `content/<lang>/<quiz_id>.yaml` for each language, or nothing at all.

    Every target is checked before the first is written: an existing file (`.yaml` or `.yml`)
    is never replaced.
    """
    _check_id(quiz_id)
    for lang in languages:
        if not LANGUAGE_CODE.match(lang):
            raise UsageError(
                f"{printable(lang)!r} is not a language code: use a folder name such as "
                "en, ur or pt-BR"
            )
    if title is not None:
        _check_title(title)
    targets = {lang: content / lang / f"{quiz_id}.yaml" for lang in dict.fromkeys(languages)}
    for target in targets.values():
        for suffix in SUFFIXES:
            existing = target.with_suffix(suffix)
            if existing.exists() or existing.is_symlink():
                raise QuizbankError(
                    f"{printable(display_path(existing))} already exists; nothing was written "
                    "(edit that file, or choose another quiz id)"
                )
    written: list[NewFile] = []
    try:
        for lang, target in targets.items():
            own = template_for(lang)
            template = own or "en"
            script = script_for(lang)
            # A title not in this language's script would fail as untranslated: the file keeps
            # its placeholder, so that it validates as it is.
            foreign = bool(title and script and looks_untranslated(title, script))
            if not own:
                note = f"its texts are English: translate them into {lang}"
            elif foreign:
                note = f"its title is a placeholder: write the {lang} of the title given"
            else:
                note = ""
            chosen = title if title and not foreign else _default_title(quiz_id, template)
            text = filled_template(template, quiz_id, lang, chosen)
            target.parent.mkdir(parents=True, exist_ok=True)
            with target.open("x", encoding="utf-8", newline="\n") as file:  # never replaces
                file.write(text)
            written.append(NewFile(target, lang, note))
    except BaseException:
        for done in written:  # all or nothing, even when something appeared meanwhile
            done.path.unlink(missing_ok=True)
        raise
    return written


def _check_id(quiz_id: str) -> None:
    if not re.match(SLUG_PATTERN, quiz_id) or len(quiz_id) > MAX_ID:
        raise UsageError(
            f"{printable(quiz_id)!r} cannot be a quiz id: use lowercase letters, digits and "
            f"single hyphens between them, at most {MAX_ID} characters (like checkpoint-basics)"
        )


def _check_title(title: str) -> None:
    if not title.strip():
        raise UsageError("--title is empty: give the quiz's title, or leave --title out")
    if printable(title) != title or _CODE_FENCE.match(title):
        raise UsageError(
            f"--title {printable(title)!r}: a title is one line of text, without control "
            "characters or line breaks"
        )
    if len(title) > MAX_TITLE:
        raise UsageError(f"--title is {len(title)} characters long; a title has at most 300")


def _default_title(quiz_id: str, template: str) -> str:
    """`checkpoint-basics` becomes "Checkpoint basics" (in Urdu, a placeholder in Urdu)."""
    return NEW_TITLES.get(template) or quiz_id.replace("-", " ").capitalize()
