"""One file to one validated quiz: YAML, then the schema, then the rules of a single file."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from pydantic import TypeAdapter, ValidationError
from pydantic_core import ErrorDetails

from quizbank.diagnostics import Diagnostic, Position, Severity, display_path
from quizbank.images import (
    MAX_IMAGE_BYTES,
    Image,
    ImageError,
    content_folder,
    image_path,
    read_image,
    readable_size,
)
from quizbank.markup import find_formulas, find_images, unlinked
from quizbank.maths import check_formula
from quizbank.messages import excerpt, schema_message, unknown_key_message
from quizbank.model import Question, Quiz, text_fields
from quizbank.paths import Loc, describe_loc
from quizbank.rules import has_raw_html, identity_rules, question_rules, question_warnings
from quizbank.scripts import Script, avoided_terms, looks_untranslated, script_for
from quizbank.section_rules import section_problems
from quizbank.variable_rules import variable_problems
from quizbank.yamlsource import YamlDocument, YamlError, load_document

MAX_DIAGNOSTICS = 100  # listed per file; the rest are counted
MAX_QUESTIONS = 10_000
QUESTION: TypeAdapter[Question] = TypeAdapter(Question)


@dataclass
class LoadedQuiz:
    """The outcome of loading one file: the quiz when it is valid, and every problem found."""

    path: Path
    quiz: Quiz | None = None
    document: YamlDocument | None = None
    diagnostics: list[Diagnostic] = field(default_factory=list)
    unlisted: int = 0  # problems past the first MAX_DIAGNOSTICS, counted only
    digest: str = ""  # SHA-256 of the bytes that were checked
    question_ids: list[str | None] | None = None
    images: dict[str, Image] = field(default_factory=dict)  # by path as written (`src`)
    has_media: bool = False  # whether a text may hold an image or a formula (`![`, `$`)
    # Where each question starts: kept when the node tree is let go, for what a build reports
    # of a question later (what a format cannot carry of it).
    question_positions: list[Position] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """Valid, and without an error from the rules beyond the schema."""
        return self.quiz is not None and all(
            d.severity is not Severity.ERROR for d in self.diagnostics
        )

    @property
    def head(self) -> bytes:
        """The first bytes of the file (yamlsource.HEAD_BYTES), as read; none if it was not."""
        return self.document.head if self.document else b""

    @cached_property
    def display(self) -> str:
        return display_path(self.path)

    @property
    def full(self) -> bool:
        """Whether as many problems as a file lists have been recorded."""
        return len(self.diagnostics) >= MAX_DIAGNOSTICS

    def report(
        self,
        message: str,
        loc: Loc = (),
        *,
        key: bool = False,
        severity: Severity = Severity.ERROR,
        position: Position | None = None,
    ) -> None:
        """Record a problem at the YAML position of `loc` (or at `position`); past the first
        MAX_DIAGNOSTICS, a problem is only counted."""
        if self.full:
            self.unlisted += 1
            return
        if position is None:
            position = self.document.locate(loc, key=key) if self.document else Position()
        where = describe_loc(loc, self._question_ids())
        self.diagnostics.append(Diagnostic(self.display, position, severity, where, message))

    def listed_diagnostics(self) -> list[Diagnostic]:
        """The problems listed, and a last line that counts those that were not."""
        if not self.unlisted:
            return self.diagnostics
        last = max(self.diagnostics, key=lambda d: d.position)
        more = Diagnostic(  # sorted after the ones listed: "…" comes after every letter
            self.display,
            last.position,
            Severity.ERROR if self.quiz is None else last.severity,
            "",
            f"…and {self.unlisted:,} more problems in this file (only the first "
            f"{MAX_DIAGNOSTICS} are listed)",
        )
        return [*self.diagnostics, more]

    def _question_ids(self) -> list[str | None]:
        if self.question_ids is None:
            if self.quiz is not None:
                self.question_ids = [q.id for q in self.quiz.questions]
            else:
                data = self.document.data if self.document else None
                raw = data.get("questions") if isinstance(data, dict) else None
                self.question_ids = [
                    q["id"][:40] if isinstance(q, dict) and isinstance(q.get("id"), str) else None
                    for q in (raw if isinstance(raw, list) else [])[:MAX_QUESTIONS]
                ]
        return self.question_ids


def load_quiz(path: Path, max_image_bytes: int = MAX_IMAGE_BYTES) -> LoadedQuiz:
    """Load and check one quiz file, and read the images it uses; never raises for a problem
    in the file."""
    loaded = LoadedQuiz(path)
    try:
        loaded.document = load_document(path)
        loaded.digest = loaded.document.digest
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
        kind = "a list" if isinstance(data, list) else f"the single value {excerpt(data)}"
        loaded.report(
            f"a quiz file is a mapping of keys (id, lang, title, ...), but this is {kind}"
        )
        return loaded
    _report_comments(loaded)
    try:
        loaded.quiz = Quiz.model_validate(data)
    except ValidationError as exc:
        _report_schema_errors(loaded, data, exc)
        return loaded
    for message, loc in identity_rules(loaded.quiz.id, loaded.quiz.lang, path):
        loaded.report(message, loc)
    for message, loc in question_rules(enumerate(loaded.quiz.questions)):
        loaded.report(message, loc)
    for message, loc in question_warnings(enumerate(loaded.quiz.questions)):
        loaded.report(message, loc, severity=Severity.WARNING)
    for message, loc in section_problems(loaded.quiz):
        loaded.report(message, loc)
    for message, loc, written, column in variable_problems(loaded.quiz):
        where = loaded.document.locate_within(loc, written) if written else None
        if where is not None:
            where = Position(where.line, where.column + column)
        loaded.report(message, loc, position=where, key=loc[-2:-1] == ("variables",))
    # With a wrong `lang`, every text would look untranslated: that one error is enough.
    _check_texts(
        loaded, loaded.quiz, script=loaded.quiz.lang == path.parent.name, limit=max_image_bytes
    )
    loaded.question_positions = loaded.document.item_positions(("questions",))
    return loaded


def _report_schema_errors(loaded: LoadedQuiz, data: dict[Any, Any], exc: ValidationError) -> None:
    """Every schema error, then the rules for the questions that did validate."""
    errors = _one_per_union(data, exc.errors(include_url=False))
    for index, error in enumerate(errors):
        if loaded.full:
            loaded.unlisted += len(errors) - index
            break
        _report_schema_error(loaded, data, error)
    for message, loc in identity_rules(data.get("id"), data.get("lang"), loaded.path):
        loaded.report(message, loc)
    questions = data.get("questions")
    if isinstance(questions, list) and len(questions) <= MAX_QUESTIONS:
        for message, loc in question_rules(_valid_questions(questions)):
            loaded.report(message, loc)


# What pydantic reports when a value is not of a type at all (rather than of it, but wrong).
_NOT_OF_TYPE = frozenset(
    {"string_type", "float_type", "float_parsing", "int_type", "int_parsing", "int_from_float"}
    | {"list_type", "dict_type", "model_type", "model_attributes_type", "bool_type"}
    | {"bool_parsing", "url_type"}
)


def _one_per_union(data: Any, errors: list[ErrorDetails]) -> list[ErrorDetails]:
    """Pydantic's errors with those of a union's members (`answer: number | formula`) made one:
    the errors of the members the value is of (a number too small, a text too long), or when it
    is of none, one error of type `union_type` at the union, whose `ctx` names the members."""
    points = [_union_steps(data, error) for error in errors]
    members: dict[tuple[int | str, ...], set[int | str]] = {}
    for steps in points:
        for prefix, member in steps:
            members.setdefault(prefix, set()).add(member)
    groups: dict[tuple[int | str, ...], list[tuple[int | str, ErrorDetails]]] = {}
    kept: list[ErrorDetails | tuple[int | str, ...]] = []
    for error, steps in zip(errors, points, strict=True):
        unions = [(prefix, member) for prefix, member in steps if len(members[prefix]) > 1]
        if not unions:
            kept.append(error)
            continue
        prefix, member = unions[-1]
        if prefix not in groups:
            groups[prefix] = []
            kept.append(prefix)  # the union's errors go where its first one was
        groups[prefix].append((member, error))
    result: list[ErrorDetails] = []
    for item in kept:
        if isinstance(item, tuple):
            result.extend(_union_errors(data, item, groups[item]))
        else:
            result.append(item)
    return result


def _union_steps(data: Any, error: ErrorDetails) -> list[tuple[tuple[int | str, ...], str]]:
    """Each place where an error's loc names a union's member (a part not in the data), as
    (the loc up to it, the member); a key missing or unknown is no member."""
    loc = error["loc"]
    last = len(loc) - 1 if error["type"] in ("missing", "extra_forbidden") else len(loc)
    steps = []
    for index, part in enumerate(loc[:last]):
        child = _child_value(data, part)
        if child is _ABSENT:
            if isinstance(part, str):
                steps.append((loc[:index], part))
            continue
        data = child
    return steps


def _union_errors(
    data: Any, prefix: tuple[int | str, ...], found: list[tuple[int | str, ErrorDetails]]
) -> list[ErrorDetails]:
    depth = len(prefix) + 1  # an error deeper than the member's own is inside a value of it
    of_type = {
        member
        for member, error in found
        if len(error["loc"]) > depth or error["type"] not in _NOT_OF_TYPE
    }
    if of_type:
        first = next(member for member, _ in found if member in of_type)
        return [error for member, error in found if member == first]
    value = found[0][1].get("input")
    names = list(dict.fromkeys(str(member) for member, _ in found))
    union: ErrorDetails = {
        "type": "union_type",
        "loc": prefix,
        "msg": "",
        "input": value,
        "ctx": {"members": names},
    }
    return [union]


def _valid_questions(questions: list[Any]) -> Iterator[tuple[int, Question]]:
    """The questions that validate on their own, with their indexes."""
    for index, raw in enumerate(questions):
        try:
            yield index, QUESTION.validate_python(raw)
        except ValidationError:
            continue


def _report_schema_error(loaded: LoadedQuiz, data: Any, error: ErrorDetails) -> None:
    loc = _present_loc(
        data, error["loc"], keep_last=error["type"] in ("missing", "extra_forbidden")
    )
    kind = error["type"]
    if kind == "union_tag_invalid":
        loc = (*loc, "type")
    if kind == "extra_forbidden":
        loaded.report(unknown_key_message(data, loc), loc, key=True)
    elif kind == "missing":
        loaded.report("this required field is missing", loc)
    else:
        loaded.report(schema_message(error, loc), loc)


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


def _check_texts(loaded: LoadedQuiz, quiz: Quiz, *, script: bool, limit: int) -> None:
    """Each text: raw HTML (shown as text), its formulas and images, and, with `script`,
    whether it is written in the language's script and with its preferred terms."""
    writing = script_for(quiz.lang) if script else None
    seen = _MediaSeen()
    for loc, text in text_fields(quiz):
        if "$" in text or "![" in text:
            loaded.has_media = True
            _check_media(loaded, loc, text, writing, limit, seen)
        if "<" in text and has_raw_html(text):
            loaded.report(
                "raw HTML is shown as text, tags and all; use Markdown (*emphasis*, `code`, "
                "lists, [links](https://…)) instead",
                loc,
                severity=Severity.WARNING,
            )
        for destination in unlinked(text):
            where = loaded.document.locate_within(loc, destination) if loaded.document else None
            loaded.report(
                f"the link to {destination} is shown as text: a link must go to an http://, "
                "https:// or mailto: address (write the full address, https://…)",
                loc,
                severity=Severity.WARNING,
                position=where,
            )
        if writing is None:
            continue
        if looks_untranslated(text, writing):
            loaded.report(
                f"looks untranslated: a {quiz.lang!r} text with no {writing.name} letters "
                f"({_excerpt(text)})",
                loc,
            )
        for bad, good in avoided_terms(text, writing):
            loaded.report(f"use {good} rather than {bad}", loc, severity=Severity.WARNING)


@dataclass
class _MediaSeen:
    """What a file's texts have shown so far: formulas checked, images read (by file)."""

    formulas: set[str] = field(default_factory=set)
    images: dict[Path, Image | str] = field(default_factory=dict)  # or why it was refused
    image_bytes: int = 0


# A file of hostile texts could name a million formulas or the same images by a thousand
# spellings: past these, a file is too big to check (and to render) in reasonable time.
MAX_FORMULAS = 20_000
MAX_IMAGES_BYTES = 64 << 20


def _check_media(
    loaded: LoadedQuiz, loc: Loc, text: str, writing: Script | None, limit: int, seen: _MediaSeen
) -> None:
    """Each formula draws, and each image is a readable file with alt text in the language."""
    document = loaded.document
    assert document is not None
    for tex, _display in find_formulas(text):
        if tex in seen.formulas:
            continue
        if len(seen.formulas) == MAX_FORMULAS:
            loaded.report(f"this file holds more than {MAX_FORMULAS:,} formulas: split the quiz")
            seen.formulas.add(tex)
            continue
        seen.formulas.add(tex)
        if (reason := check_formula(tex)) is not None:
            where = document.locate_within(loc, tex.split("\n", 1)[0])
            message = f"the formula ${_shortened(tex)}$ cannot be drawn: {reason}"
            loaded.report(message, loc, position=where)
    for image in find_images(text):
        where = document.locate_within(loc, f"![{image.alt}")
        if not image.alt.strip():
            loaded.report(
                "this image has no alt text: say in the brackets what it shows, for those who "
                "cannot see it, like ![Shards on three GPUs](…)",
                loc,
                position=where,
            )
        elif writing is not None and looks_untranslated(image.alt, writing):
            loaded.report(
                f"looks untranslated: the image's alt text {_excerpt(image.alt)} has no "
                f"{writing.name} letters",
                loc,
                position=where,
            )
        if image.src not in loaded.images:
            try:
                _load_image(loaded, image.src, limit, seen)
            except ImageError as exc:
                loaded.report(str(exc), loc, position=where)


def _load_image(loaded: LoadedQuiz, src: str, limit: int, seen: _MediaSeen) -> None:
    """Read the image `src` names, once per file however it is spelt; raises ImageError."""
    target = image_path(src, loaded.path)
    if target not in seen.images:
        seen.images[target] = _read_within(target, loaded.path, limit, seen)
    known = seen.images[target]
    if isinstance(known, str):
        raise ImageError(known)
    loaded.images[src] = known


def _read_within(target: Path, quiz_file: Path, limit: int, seen: _MediaSeen) -> Image | str:
    """The image, or why it is refused (its own fault, or the file's images being too many)."""
    if seen.image_bytes > MAX_IMAGES_BYTES:
        return (
            f"this file's images add up to more than {readable_size(MAX_IMAGES_BYTES)}: "
            "split the quiz, or make the images smaller"
        )
    try:
        image = read_image(target, content_folder(quiz_file), limit)
    except ImageError as exc:
        return str(exc)
    seen.image_bytes += image.size
    return image


def _shortened(text: str, width: int = 40) -> str:
    """A text on one line, cut to `width` characters with an ellipsis."""
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[: width - 1] + "…"


def _excerpt(text: str, width: int = 40) -> str:
    return repr(_shortened(text, width))


def _report_comments(loaded: LoadedQuiz) -> None:
    """Warn where a ` #` after an unquoted text made the rest of its line a YAML comment."""
    assert loaded.document is not None
    for loc, position in loaded.document.comments_in_text:
        loaded.report(
            "everything after this ` #` is a YAML comment, left out of the text; if it belongs "
            "to the text, put the whole text in quotes",
            loc,
            severity=Severity.WARNING,
            position=position,
        )
