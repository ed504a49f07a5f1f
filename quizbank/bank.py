"""The bank as a whole: its title in each language, for exports that hold every quiz in one
file (a Moodle XML bank, each quiz in its own category under the bank's).

The title comes from `bank.yaml` in the content folder, if there is one:

    title:
      en: Checkpointing in practice
      ur: عملی طور پر چیک پوائنٹنگ

or else from the content folder's name (its parent's, when it is called `content`).
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Annotated

from pydantic import BaseModel, ConfigDict, StringConstraints, ValidationError

from quizbank.diagnostics import Diagnostic, Severity, display_path
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
    given: dict[str, str] = {}
    if (content / BANK_FILE).is_file():
        read = _read(content / BANK_FILE)
        if isinstance(read, Diagnostic):
            raise QuizbankError(read.format())
        given = read.title
    return {lang: given.get(lang) or given.get("en") or fallback for lang in languages}


def bank_file_problems(contents: Iterable[Path]) -> list[Diagnostic]:
    """What is wrong with the bank.yaml of each content folder, for `validate`."""
    found = (_read(folder / BANK_FILE) for folder in contents if (folder / BANK_FILE).is_file())
    return [problem for problem in found if isinstance(problem, Diagnostic)]


def _read(path: Path) -> BankFile | Diagnostic:
    """The bank file, or the first problem with it, at its line and column."""
    where = display_path(path)
    try:
        document = load_document(path)
    except YamlError as exc:
        return Diagnostic(where, exc.position, Severity.ERROR, exc.field, exc.message)
    try:
        return BankFile.model_validate(document.data)
    except ValidationError as exc:
        first = exc.errors(include_url=False)[0]
        field = ".".join(str(part) for part in first["loc"])
        message = (
            f"{first['msg']} (bank.yaml holds `title:` with a title per language, like "
            "`en: Checkpointing`)"
        )
        position = document.locate(first["loc"])
        return Diagnostic(where, position, Severity.ERROR, field, message)
