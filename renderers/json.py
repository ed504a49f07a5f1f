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
from quizbank.model import LANG_PATTERN, Level, OptionId, Quiz, Slug, text_fields
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
        2, ge=0, le=8, description="Spaces per nesting level; 0 writes compact JSON on one line."
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


def export_data(quiz: Quiz) -> dict[str, Any]:
    """A quiz as its export: model fields in model order, each text as Markdown and HTML."""
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
    # Checking our own output against the export model catches a model field it does not know.
    return QuizExport.model_validate(data).model_dump(mode="json", by_alias=True)


def _dumps(data: object, indent: int) -> str:
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
