"""The bank as a whole: its title in each language, for exports that hold every quiz in one
file (a Moodle XML bank, each quiz in its own category under the bank's).

The title comes from `bank.yaml` in the content folder, if there is one:

    title:
      en: Checkpointing in practice
      ur: عملی طور پر چیک پوائنٹنگ

or else from the content folder's name (its parent's, when it is called `content`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

from pydantic import BaseModel, ConfigDict, StringConstraints, ValidationError

from quizbank.diagnostics import display_path
from quizbank.errors import QuizbankError
from quizbank.model import LANG_PATTERN
from quizbank.yamlsource import YamlError, load_document

BANK_FILE = "bank.yaml"

Lang = Annotated[str, StringConstraints(pattern=LANG_PATTERN)]
Title = Annotated[str, StringConstraints(min_length=1, max_length=200, strip_whitespace=True)]


class BankFile(BaseModel):
    """What `bank.yaml` may say."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    title: dict[Lang, Title]


def bank_titles(content: Path, languages: list[str]) -> dict[str, str]:
    """The bank's title in each language: from `bank.yaml` where it gives one, else the
    folder's name. Raises QuizbankError, at the file's line and column, for a bad bank.yaml."""
    fallback = content.resolve().name
    if fallback == "content":
        fallback = content.resolve().parent.name
    path = content / BANK_FILE
    given: dict[str, str] = {}
    if path.is_file():
        given = _read(path).title
    return {lang: given.get(lang) or given.get("en") or fallback for lang in languages}


def _read(path: Path) -> BankFile:
    where = display_path(path)
    try:
        document = load_document(path)
        return BankFile.model_validate(document.data)
    except YamlError as exc:
        position = exc.position
        raise QuizbankError(f"{where}:{position.line}:{position.column}: {exc.message}") from None
    except ValidationError as exc:
        first = exc.errors(include_url=False)[0]
        loc = [str(part) for part in first["loc"]]
        position = document.locate(first["loc"])
        raise QuizbankError(
            f"{where}:{position.line}:{position.column}: {'.'.join(loc) or 'bank.yaml'}: "
            f"{first['msg']} (bank.yaml holds `title:` with a title per language, like "
            "`en: Checkpointing`)"
        ) from None
