"""JSON export: the validated model with every text as Markdown source and safe HTML.

One file per quiz and language, `<lang>/<quiz-id>.json`, plus `schema.json` for the bank: the
JSON Schema (Draft 2020-12) that every export validates against, generated from the pydantic
model of the export below. Each export names it with `"$schema": "../schema.json"`, a reference
relative to the export file, so the schema travels with the files and needs no server.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from pathlib import PurePosixPath
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, HttpUrl, StringConstraints

import quizbank
from quizbank.markup import to_html
from quizbank.model import (
    LANG_PATTERN,
    Guide,
    Level,
    MultipleChoice,
    Option,
    OptionId,
    Quiz,
    SingleChoice,
    Slug,
    TrueFalse,
    text_fields,
)
from quizbank.renderer import (
    OutputFile,
    QuizSummary,
    QuizTranslations,
    Renderer,
    RendererOptions,
)

FORMAT_VERSION = 1
SCHEMA_FILE = "schema.json"
JSON_SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema"
# Titles are headings and labels: their HTML is inline (no `<p>`). Every other text is a block.
_INLINE_FIELDS = frozenset({"title"})


class JsonOptions(RendererOptions):
    indent: int = Field(
        0,
        ge=0,
        le=8,
        description="Spaces per nesting level, for reading by eye; 0 (the default, for other "
        "platforms) writes compact JSON on one line with the fast C encoder.",
    )


class _Export(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class RichText(_Export):
    """A text field: the author's Markdown and the HTML quizbank renders from it."""

    markdown: str = Field(description="The Markdown source, exactly as the author wrote it.")
    html: str = Field(
        description="Safe HTML of the source: raw HTML escaped, only http(s) and mailto links. "
        "Titles are inline HTML; every other text is block HTML (paragraphs, lists)."
    )


class ExportGuide(_Export):
    title: RichText
    url: HttpUrl


class ExportOption(_Export):
    id: OptionId
    text: RichText
    feedback: RichText | None = Field(description="Shown when a learner picks this option.")


class _ExportQuestion(_Export):
    id: Slug
    type: str  # narrowed to one literal by each question type; declared here to come second
    prompt: RichText
    explanation: RichText = Field(description="Why the right answer is right.")
    points: float = Field(gt=0, description="Marks for a fully right answer.")


class ExportSingleChoice(_ExportQuestion):
    type: Literal["single_choice"]
    options: list[ExportOption] = Field(min_length=2)
    answer: OptionId = Field(description="The id of the one right option.")


class ExportMultipleChoice(_ExportQuestion):
    type: Literal["multiple_choice"]
    options: list[ExportOption] = Field(min_length=2)
    answer: list[OptionId] = Field(min_length=1, description="The ids of every right option.")


class ExportTrueFalse(_ExportQuestion):
    type: Literal["true_false"]
    answer: bool
    feedback_true: RichText | None
    feedback_false: RichText | None


class QuizExport(_Export):
    """One quiz in one language, exported by quizbank's `json` renderer."""

    model_config = ConfigDict(title="quizbank JSON export")

    schema_ref: str = Field(alias="$schema", description="This schema, relative to the file.")
    format_version: Literal[1] = Field(description="Changes when the export's shape changes.")
    quizbank_version: str = Field(description="The quizbank that wrote the file.")
    id: Slug
    lang: Annotated[str, StringConstraints(pattern=LANG_PATTERN)] = Field(
        description="BCP 47 language code, e.g. `en` or `ur`."
    )
    title: RichText
    description: RichText
    level: Level
    guide: ExportGuide | None
    tags: list[Slug]
    questions: list[
        Annotated[
            ExportSingleChoice | ExportMultipleChoice | ExportTrueFalse,
            Field(discriminator="type"),
        ]
    ] = Field(min_length=1)


def export_schema() -> dict[str, Any]:
    """The JSON Schema of an export, as `schema.json` publishes it."""
    return {"$schema": JSON_SCHEMA_DIALECT, **QuizExport.model_json_schema(by_alias=True)}


_HEADER = ("$schema", "format_version", "quizbank_version")
# Each model beside the export model of its data: the export writes every field of the model, in
# the export model's order. Checked below, when this module loads.
_EXPORTS: list[tuple[type[BaseModel], type[_Export], tuple[str, ...]]] = [
    (Quiz, QuizExport, _HEADER),
    (Guide, ExportGuide, ()),
    (Option, ExportOption, ()),
    (SingleChoice, ExportSingleChoice, ()),
    (MultipleChoice, ExportMultipleChoice, ()),
    (TrueFalse, ExportTrueFalse, ()),
]


def _export_keys(export: type[_Export]) -> tuple[str, ...]:
    """The keys of an export model's JSON, in order."""
    return tuple(field.alias or name for name, field in export.model_fields.items())


def unexported_fields(
    exports: Sequence[tuple[type[BaseModel], type[_Export], tuple[str, ...]]] = _EXPORTS,
) -> list[str]:
    """Fields that a model and its export model do not share (the export's header aside):
    a field added to the model but not to the export would otherwise be silently dropped."""
    found: list[str] = []
    for model, export, header in exports:
        dumped = {*model.model_fields, *model.model_computed_fields}
        keys = set(_export_keys(export)) - set(header)
        found += [f"{model.__name__}.{name} (not in {export.__name__})" for name in dumped - keys]
        found += [f"{export.__name__}.{name} (not in {model.__name__})" for name in keys - dumped]
    return sorted(found)


if _unexported := unexported_fields():
    raise TypeError(f"the JSON export does not match the model: {', '.join(_unexported)}")

_QUIZ_KEYS = _export_keys(QuizExport)
_GUIDE_KEYS = _export_keys(ExportGuide)
_OPTION_KEYS = _export_keys(ExportOption)
_QUESTION_KEYS = {
    "single_choice": _export_keys(ExportSingleChoice),
    "multiple_choice": _export_keys(ExportMultipleChoice),
    "true_false": _export_keys(ExportTrueFalse),
}


def _ordered(data: dict[str, Any], keys: tuple[str, ...]) -> dict[str, Any]:
    return {key: data[key] for key in keys}


def export_data(quiz: Quiz) -> dict[str, Any]:
    """A quiz as its export: fields in the export model's order, each text as Markdown and HTML.

    Built from the validated model in one pass; the fields are those of the export model (checked
    when the module loads), and the tests validate exports against the published schema."""
    data: dict[str, Any] = {
        "$schema": f"../{SCHEMA_FILE}",
        "format_version": FORMAT_VERSION,
        "quizbank_version": quizbank.__version__,
        **quiz.model_dump(mode="json"),
    }
    for loc, text in text_fields(quiz):
        *parents, name = loc
        node: Any = data
        for part in parents:
            node = node[part]
        inline = name in _INLINE_FIELDS
        node[name] = {"markdown": text, "html": to_html(text, quiz.lang, inline=inline)}
    data = _ordered(data, _QUIZ_KEYS)
    if data["guide"] is not None:
        data["guide"] = _ordered(data["guide"], _GUIDE_KEYS)
    questions = []
    for question in data["questions"]:
        question = _ordered(question, _QUESTION_KEYS[question["type"]])
        if "options" in question:
            question["options"] = [_ordered(o, _OPTION_KEYS) for o in question["options"]]
        questions.append(question)
    data["questions"] = questions
    return data


def _dumps(data: object, indent: int) -> str:
    """JSON text: compact on one line for indent 0, else indented; UTF-8 as it is."""
    if indent == 0:
        return json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n"
    return json.dumps(data, ensure_ascii=False, indent=indent) + "\n"


class JsonRenderer(Renderer[JsonOptions]):
    name = "json"
    description = "The validated quizzes as JSON, with a JSON Schema, for other platforms."
    extension = "json"
    Options = JsonOptions

    def render(self, quiz: QuizTranslations, lang: str) -> str:
        return _dumps(export_data(quiz[lang]), self.options.indent)

    def render_bank(self, summaries: Sequence[QuizSummary]) -> Iterator[OutputFile]:
        text = _dumps(export_schema(), self.options.indent)
        yield OutputFile(PurePosixPath(SCHEMA_FILE), text.encode("utf-8"))
