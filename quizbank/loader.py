"""One file to one validated quiz: YAML, then the schema, then the rules of a single file."""

from __future__ import annotations

import difflib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError
from pydantic_core import ErrorDetails

from quizbank.diagnostics import Diagnostic, Position, Severity, display_path
from quizbank.model import (
    Loc,
    MultipleChoice,
    Option,
    Quiz,
    SingleChoice,
    TrueFalse,
    text_fields,
)
from quizbank.paths import format_loc
from quizbank.scripts import avoided_terms, looks_untranslated, script_for
from quizbank.yamlsource import YamlDocument, YamlError, load_document

QUESTION_TYPES = ("single_choice", "multiple_choice", "true_false")
_KNOWN_KEYS = sorted(
    {
        name
        for model in (Quiz, SingleChoice, MultipleChoice, TrueFalse, Option)
        for name in model.model_fields
    }
    | {"url"}
)


@dataclass
class LoadedQuiz:
    """The outcome of loading one file: the quiz when it is valid, and every problem found."""

    path: Path
    quiz: Quiz | None = None
    document: YamlDocument | None = None
    diagnostics: list[Diagnostic] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """Valid, and without an error from the rules beyond the schema."""
        return self.quiz is not None and all(
            d.severity is not Severity.ERROR for d in self.diagnostics
        )

    @property
    def display(self) -> str:
        return display_path(self.path)

    def report(
        self, message: str, loc: Loc = (), *, key: bool = False, severity: Severity = Severity.ERROR
    ) -> None:
        """Record a problem at the YAML position of `loc`."""
        position = self.document.locate(loc, key=key) if self.document else Position()
        self.diagnostics.append(
            Diagnostic(self.display, position, severity, format_loc(loc), message)
        )


def load_quiz(path: Path) -> LoadedQuiz:
    """Load and check one quiz file; never raises for a problem in the file."""
    loaded = LoadedQuiz(path)
    try:
        loaded.document = load_document(path)
    except YamlError as exc:
        loaded.diagnostics.append(
            Diagnostic(loaded.display, exc.position, Severity.ERROR, exc.field, exc.message)
        )
        return loaded
    except OSError as exc:
        loaded.report(f"cannot read the file: {exc.strerror or exc}")
        return loaded
    data = loaded.document.data
    if not isinstance(data, dict):
        kind = "a list" if isinstance(data, list) else f"the single value {data!r}"
        loaded.report(
            f"a quiz file is a mapping of keys (id, lang, title, ...), but this is {kind}"
        )
        return loaded
    try:
        loaded.quiz = Quiz.model_validate(data)
    except ValidationError as exc:
        for error in exc.errors(include_url=False):
            _report_schema_error(loaded, data, error)
        return loaded
    for message, loc in _file_rules(loaded.quiz, path):
        loaded.report(message, loc)
    _check_script(loaded, loaded.quiz)
    return loaded


def _report_schema_error(loaded: LoadedQuiz, data: Any, error: ErrorDetails) -> None:
    loc = _present_loc(
        data, error["loc"], keep_last=error["type"] in ("missing", "extra_forbidden")
    )
    kind = error["type"]
    if kind == "union_tag_invalid":
        loc = (*loc, "type")
    if kind == "extra_forbidden":
        loaded.report(_unknown_key_message(str(loc[-1])), loc, key=True)
    elif kind == "missing":
        loaded.report("this required field is missing", loc)
    else:
        loaded.report(_schema_message(error, loc), loc)


def _present_loc(data: Any, loc: tuple[int | str, ...], *, keep_last: bool) -> Loc:
    """Drop from pydantic's loc the parts that are not in the data (a union's tag, say)."""
    kept: list[str | int] = []
    for index, part in enumerate(loc):
        child = _child_value(data, part)
        if child is not _ABSENT:
            data = child
        elif not (keep_last and index == len(loc) - 1):
            continue
        kept.append(part)
    return tuple(kept)


_ABSENT = object()


def _child_value(data: Any, part: int | str) -> Any:
    if isinstance(data, dict):
        return data.get(part, _ABSENT)
    if isinstance(data, list) and isinstance(part, int) and 0 <= part < len(data):
        return data[part]
    return _ABSENT


def _unknown_key_message(key: str) -> str:
    message = f"unknown key {key!r}"
    close = difflib.get_close_matches(key, _KNOWN_KEYS, n=1, cutoff=0.75)
    return f"{message} (did you mean {close[0]!r}?)" if close else message


def _schema_message(error: ErrorDetails, loc: Loc) -> str:
    kind, value = error["type"], error.get("input")
    types = ", ".join(QUESTION_TYPES)
    if kind == "union_tag_invalid":
        found = value.get("type") if isinstance(value, dict) else value
        return f"unknown question type {found!r}; use one of {types}"
    if kind == "union_tag_not_found":
        return f"a question needs a `type`: one of {types}"
    if kind == "string_pattern_mismatch" and loc and loc[-1] == "lang":
        return f"{value!r} is not a language code such as `en`, `ur` or `pt-BR`"
    if kind == "string_pattern_mismatch":
        return (
            f"{value!r} is not a valid id: use lowercase letters, digits and hyphens, "
            "such as `why-shard`"
        )
    if kind == "enum":
        expected = error.get("ctx", {}).get("expected", "")
        return f"{value!r} is not allowed here; use one of {expected}"
    message = error["msg"].removeprefix("Value error, ")
    if kind in ("string_type", "list_type", "dict_type", "model_type", "int_type", "bool_type"):
        message += f", not {_describe(value)}"
    return message


def _describe(value: object) -> str:
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if value is None:
        return "an empty value"
    return repr(value)


def _file_rules(quiz: Quiz, path: Path) -> Iterator[tuple[str, Loc]]:
    """The rules one file must keep beyond its schema: identity, unique ids, a valid key."""
    if quiz.id != path.stem:
        yield (
            f"the quiz id {quiz.id!r} must equal the file name {path.stem!r}: "
            "rename the file or change the id",
            ("id",),
        )
    if quiz.lang != path.parent.name:
        yield (
            f"the language {quiz.lang!r} must equal the folder name {path.parent.name!r}: "
            f"move the file to content/{quiz.lang}/ or change `lang`",
            ("lang",),
        )
    first_index: dict[str, int] = {}
    for q_index, question in enumerate(quiz.questions):
        base: Loc = ("questions", q_index)
        if question.id in first_index:
            yield (
                f"duplicate question id {question.id!r} "
                f"(also questions[{first_index[question.id]}])",
                (*base, "id"),
            )
        first_index.setdefault(question.id, q_index)
        if not isinstance(question, TrueFalse):
            yield from _choice_rules(question, base)


def _choice_rules(question: SingleChoice | MultipleChoice, base: Loc) -> Iterator[tuple[str, Loc]]:
    option_index: dict[str, int] = {}
    for o_index, option in enumerate(question.options):
        if option.id in option_index:
            yield (
                f"duplicate option id {option.id!r} (also options[{option_index[option.id]}])",
                (*base, "options", o_index, "id"),
            )
        option_index.setdefault(option.id, o_index)
    ids = ", ".join(option_index)
    answers: list[tuple[str, Loc]] = (
        [(question.answer, (*base, "answer"))]
        if isinstance(question, SingleChoice)
        else [(a, (*base, "answer", i)) for i, a in enumerate(question.answer)]
    )
    seen: set[str] = set()
    for answer, loc in answers:
        if answer not in option_index:
            yield f"{answer!r} is not one of the options {ids}", loc
        elif answer in seen:
            yield f"{answer!r} is listed twice in the answer", loc
        seen.add(answer)


def _check_script(loaded: LoadedQuiz, quiz: Quiz) -> None:
    script = script_for(quiz.lang)
    if script is None:
        return
    for loc, text in text_fields(quiz):
        if looks_untranslated(text, script):
            loaded.report(
                f"looks untranslated: a {quiz.lang!r} text with no {script.name} letters "
                f"({_excerpt(text)})",
                loc,
            )
        for bad, good in avoided_terms(text, script):
            loaded.report(f"use {good} rather than {bad}", loc, severity=Severity.WARNING)


def _excerpt(text: str, width: int = 40) -> str:
    flat = " ".join(text.split())
    return repr(flat if len(flat) <= width else flat[: width - 1] + "…")
