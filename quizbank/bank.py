"""The bank as a whole, as `bank.yaml` in the content folder describes it, if there is one:
its title in each language, for exports that hold every quiz in one file (a Moodle XML bank,
each quiz in its own category under the bank's), and the losses of each format that its
authors accept, which `build` then stops reporting:

    title:
      en: Checkpointing in practice
      ur: عملی طور پر چیک پوائنٹنگ
    accept_losses:
      gift: [ordering, cloze]      # question types, every loss of which is accepted
      qti12: [essay, shuffle]      # or a loss of the quiz itself, by its kind

Without a title, the bank is named after the content folder (its parent, when it is called
`content`).
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


Kind = Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9_]{0,39}$")]


class BankFile(BaseModel):
    """What `bank.yaml` may say."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    title: dict[Lang, Title] = {}
    accept_losses: dict[Kind, list[Kind]] = {}  # by format: question types, quiz-level kinds


def read_bank(content: Path) -> BankFile:
    """The content folder's `bank.yaml` (empty when there is none). Raises QuizbankError, at
    the file's line and column, for a bad one."""
    if not (content / BANK_FILE).is_file():
        return BankFile()
    read = _read(content / BANK_FILE)
    if isinstance(read, Diagnostic):
        raise QuizbankError(read.format())
    return read


def bank_titles(content: Path, languages: list[str]) -> dict[str, str]:
    """The bank's title in each language: from `bank.yaml` where it gives one, else the
    folder's name."""
    fallback = content.resolve().name
    if fallback == "content":
        fallback = content.resolve().parent.name
    given = read_bank(content).title
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
            "`en: Checkpointing`, and `accept_losses:` with a list per format, like "
            "`gift: [ordering, cloze]`)"
        )
        position = document.locate(first["loc"])
        return Diagnostic(where, position, Severity.ERROR, field, message)
