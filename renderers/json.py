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
from pydantic_core import to_json

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


class JsonOptions(RendererOptions):
    indent: int = Field(
        0,
        ge=0,
        le=8,
        description="Spaces per nesting level, for reading by eye; 0 (the default, for other "
        "platforms) writes compact JSON on one line.",
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


def _text(text: str, lang: str) -> dict[str, str]:
    """A text as the export writes it: its Markdown, and its HTML (paragraphs, lists)."""
    return {"markdown": text, "html": to_html(text, lang)}


def _title(text: str, lang: str) -> dict[str, str]:
    """A title: headings and labels take its HTML, which is inline (no `<p>`)."""
    return {"markdown": text, "html": to_html(text, lang, inline=True)}


def _optional_text(text: str | None, lang: str) -> dict[str, str] | None:
    return None if text is None else _text(text, lang)


def _guide(guide: Guide, lang: str) -> dict[str, Any]:
    return {"title": _title(guide.title, lang), "url": str(guide.url)}


def _option(option: Option, lang: str) -> dict[str, Any]:
    return {
        "id": option.id,
        "text": _text(option.text, lang),
        "feedback": _optional_text(option.feedback, lang),
    }


def _question(question: SingleChoice | MultipleChoice | TrueFalse, lang: str) -> dict[str, Any]:
    """One question with the fields of its export model, in that model's order."""
    data: dict[str, Any] = {
        "id": question.id,
        "type": question.type,
        "prompt": _text(question.prompt, lang),
        "explanation": _text(question.explanation, lang),
        "points": float(question.points),  # a default of 1 is an int until it is dumped
    }
    if isinstance(question, TrueFalse):
        data["answer"] = question.answer
        data["feedback_true"] = _optional_text(question.feedback_true, lang)
        data["feedback_false"] = _optional_text(question.feedback_false, lang)
    else:
        data["options"] = [_option(option, lang) for option in question.options]
        data["answer"] = (
            question.answer if isinstance(question, SingleChoice) else [*question.answer]
        )
    return data


def export_data(quiz: Quiz) -> dict[str, Any]:
    """A quiz as its export: fields in the export model's order, each text as Markdown and HTML.

    Built straight from the validated model; the fields are those of the export model (checked
    when the module loads), and the tests validate exports against the published schema and
    against what the export model makes of them."""
    lang, guide = quiz.lang, quiz.guide
    return {
        "$schema": f"../{SCHEMA_FILE}",
        "format_version": FORMAT_VERSION,
        "quizbank_version": quizbank.__version__,
        "id": quiz.id,
        "lang": lang,
        "title": _title(quiz.title, lang),
        "description": _text(quiz.description, lang),
        "level": quiz.level.value,
        "guide": None if guide is None else _guide(guide, lang),
        "tags": [*quiz.tags],
        "questions": [_question(question, lang) for question in quiz.questions],
    }


# Below this, pydantic writes a float positionally (`0.00001`) where json.dumps has `1e-05`.
_POSITIONAL_FLOATS = 1e-4


def _dumps(data: object, indent: int, *, small_floats: bool = False) -> bytes:
    """UTF-8 JSON with a final newline, as `json.dumps(data, ensure_ascii=False)` writes it:
    compact on one line for indent 0, else indented.

    pydantic's serializer writes those very bytes (the same escapes, separators and indentation)
    several times faster, floats under 1e-4 aside: `small_floats` says data may hold one."""
    if small_floats:
        if indent == 0:
            text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
        else:
            text = json.dumps(data, ensure_ascii=False, indent=indent)
        return f"{text}\n".encode()
    return to_json(data, indent=indent or None) + b"\n"


def export_json(quiz: Quiz, indent: int) -> bytes:
    """The export file of a quiz: its export data as UTF-8 JSON."""
    small_floats = any(question.points < _POSITIONAL_FLOATS for question in quiz.questions)
    return _dumps(export_data(quiz), indent, small_floats=small_floats)


class JsonRenderer(Renderer[JsonOptions]):
    name = "json"
    description = "The validated quizzes as JSON, with a JSON Schema, for other platforms."
    extension = "json"
    Options = JsonOptions

    def render_quiz(self, quiz: QuizTranslations) -> Iterator[OutputFile]:
        """Every language's export, written as bytes straight away (no str in between)."""
        for lang in quiz.languages:
            content = export_json(quiz[lang], self.options.indent)
            yield OutputFile(self.output_path(lang, quiz.quiz_id), content)

    def render(self, quiz: QuizTranslations, lang: str) -> str:
        return export_json(quiz[lang], self.options.indent).decode("utf-8")

    def render_bank(self, summaries: Sequence[QuizSummary]) -> Iterator[OutputFile]:
        yield OutputFile(PurePosixPath(SCHEMA_FILE), _dumps(export_schema(), self.options.indent))
