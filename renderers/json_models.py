"""The JSON export's pydantic models: the shape of an export, from which `schema.json` (the JSON
Schema every export validates against) is generated.

Each model a quiz holds is paired with its export model in `_EXPORTS`; when this module loads it
checks that every model has one and that the two share every field, so that a field added to the
model is never silently dropped from the export.
"""

from __future__ import annotations

import typing
from collections.abc import Sequence
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, HttpUrl, StringConstraints

from quizbank.model import (
    LANG_PATTERN,
    AcceptedAnswer,
    ChoiceGap,
    ChoicesVariable,
    Cloze,
    Distractor,
    Essay,
    GapId,
    GapOption,
    Guide,
    Level,
    Matching,
    MultipleChoice,
    Numerical,
    NumericalGap,
    Option,
    OptionId,
    Ordering,
    OrderItem,
    Pair,
    Quiz,
    RangeVariable,
    Section,
    ShortAnswer,
    ShortAnswerGap,
    SingleChoice,
    Slug,
    TrueFalse,
)

# 2: six more question types, and `shuffle` on the choice types; 3: images and formulas;
# 4: variables and their variants, sections
FORMAT_VERSION = 4
JSON_SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema"


class _Export(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class RichText(_Export):
    """A text field: the author's Markdown and the HTML quizbank renders from it."""

    markdown: str = Field(
        description="The Markdown source, exactly as the author wrote it: images as "
        "`![alt](path)`, formulas as TeX between `$` (inline) or `$$` (displayed)."
    )
    html: str = Field(
        description="Safe HTML of the source: raw HTML escaped, only http(s) and mailto links, "
        "images as `<img>` whose `src` is one of `images` (relative to this file), formulas as "
        "MathML `<math>` with the TeX in `alttext`. Titles are inline HTML; every other text is "
        "block HTML (paragraphs, lists)."
    )


class ExportImage(_Export):
    """An image that a text shows, copied beside the export."""

    src: str = Field(
        description="The image as the texts give it (`![alt](src)`, `<img src>`): a path "
        "relative to this file."
    )
    path: str = Field(
        description="Where the copy is, relative to the export's folder (that of schema.json)."
    )
    media_type: Literal["image/png", "image/jpeg", "image/gif", "image/webp", "image/svg+xml"]
    size: int = Field(ge=1, description="Its size in bytes.")
    sha256: Annotated[str, StringConstraints(pattern="^[0-9a-f]{64}$")] = Field(
        description="The SHA-256 of its bytes, in hexadecimal."
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


SHUFFLE = Field(
    description='`false`: show the choices in the order given here ("all of the above" stays '
    "last); `true`: a platform may shuffle them."
)


class ExportSingleChoice(_ExportQuestion):
    type: Literal["single_choice"]
    options: list[ExportOption] = Field(min_length=2)
    answer: OptionId = Field(description="The id of the one right option.")
    shuffle: bool = SHUFFLE


class ExportMultipleChoice(_ExportQuestion):
    type: Literal["multiple_choice"]
    options: list[ExportOption] = Field(min_length=2)
    answer: list[OptionId] = Field(min_length=1, description="The ids of every right option.")
    shuffle: bool = SHUFFLE


class ExportTrueFalse(_ExportQuestion):
    type: Literal["true_false"]
    answer: bool
    feedback_true: RichText | None
    feedback_false: RichText | None


NUMBER = Field(
    allow_inf_nan=False,
    description="The right number; with variables, a formula over them (its value for each "
    "variant is in `variants`).",
)
TOLERANCE = Field(
    allow_inf_nan=False,
    description="Absolute: a response within `answer` ± `tolerance` is right (0: exactly); "
    "with variables it may be relative to the answer, as `1%`.",
)
ACCEPTED = Field(
    min_length=1,
    description="Every accepted answer, as plain text (not Markdown): `*` matches any run of "
    "characters, `\\*` is an asterisk; spaces around a response are ignored.",
)
CASE_SENSITIVE = Field(description="`true`: a response must match an answer's case.")


class ExportRangeVariable(_Export):
    """Values from `from` to `to` (both included) in steps of `step`."""

    start: float = Field(alias="from")
    to: float
    step: float = Field(gt=0)


class ExportChoicesVariable(_Export):
    """One of the values listed."""

    choices: list[float] = Field(min_length=1)


ExportVariable = ExportRangeVariable | ExportChoicesVariable


class ExportVariant(_Export):
    """One variant of a question with variables: the variables' values, and its answers."""

    values: dict[str, float] = Field(description="A value for each variable.")
    answer: float | None = Field(
        description="A numerical question's answer for these values (null in a cloze)."
    )
    tolerance: float | None = Field(
        description="Its absolute tolerance (null in a cloze); `gaps` gives a cloze's."
    )
    gaps: dict[GapId, ExportGapAnswer] = Field(
        description="A cloze's numerical gaps: each one's answer and tolerance for these values."
    )


VARIABLES = Field(
    description="The question's variables by name, shown in its texts as `{name}` (a computed "
    "value as `{=formula}`, as in Moodle); null without variables."
)
VARIANTS = Field(
    description="Every variant a learner may get, drawn the same in every language; empty "
    "without variables."
)
SEED = Field(description="What the variants were drawn with, when the question gives it.")
DECIMALS = Field(description="The decimals computed values are shown with (null: as computed).")


# Without variables, an answer is a number and a tolerance a number of at least 0.
_PLAIN_NUMBERS: dict[str, Any] = {
    "properties": {
        "answer": {"type": "number"},
        "tolerance": {"type": "number", "minimum": 0},
    }
}
_WITHOUT_VARIABLES: dict[str, Any] = {"properties": {"variables": {"type": "null"}}}


class ExportNumerical(_ExportQuestion):
    """A number, right within `answer` ± `tolerance`."""

    model_config = ConfigDict(json_schema_extra={"if": _WITHOUT_VARIABLES, "then": _PLAIN_NUMBERS})

    type: Literal["numerical"]
    answer: float | str = NUMBER
    tolerance: float | str = TOLERANCE
    variables: dict[str, ExportVariable] | None = VARIABLES
    variants: list[ExportVariant] = VARIANTS
    seed: int | None = SEED
    decimals: int | None = DECIMALS


class ExportShortAnswer(_ExportQuestion):
    """A word or phrase the learner types."""

    type: Literal["short_answer"]
    answer: list[AcceptedAnswer] = ACCEPTED
    case_sensitive: bool = CASE_SENSITIVE


class ExportPair(_Export):
    """An item and its right match."""

    id: OptionId
    item: RichText = Field(description="What the learner matches (block HTML).")
    match: RichText = Field(
        description="Its right match, one choice of every item's drop-down: one line (inline HTML)."
    )


class ExportDistractor(_Export):
    """A wrong match, a further choice of every item's drop-down."""

    id: OptionId
    text: RichText = Field(description="One line (inline HTML).")


class ExportMatching(_ExportQuestion):
    """Items, each matched with one of the matches (every pair's match and every distractor);
    each pair scores its share of the points."""

    type: Literal["matching"]
    pairs: list[ExportPair] = Field(min_length=2)
    distractors: list[ExportDistractor] = Field(
        description="Wrong matches, added to every item's choices (may be empty)."
    )
    shuffle: bool = Field(
        description="`false`: show the items in the order given here; `true`: a platform may "
        "shuffle them. The matches are shuffled either way (their order would give the "
        "answer away)."
    )


class ExportOrderItem(_Export):
    id: OptionId
    text: RichText


class ExportOrdering(_ExportQuestion):
    """Items to put in order; each item in its right position scores its share."""

    type: Literal["ordering"]
    items: list[ExportOrderItem] = Field(
        min_length=2, description="In the right order: show them to learners shuffled."
    )


class ExportGapOption(_Export):
    id: OptionId
    text: RichText = Field(description="One line (inline HTML), shown in a drop-down.")
    feedback: RichText | None = Field(description="Shown when a learner picks this option.")


class ExportShortAnswerGap(_Export):
    """A gap the learner types into."""

    type: Literal["short_answer"]
    answer: list[AcceptedAnswer] = ACCEPTED
    case_sensitive: bool = CASE_SENSITIVE


class ExportNumericalGap(_Export):
    """A gap for a number, right within `answer` ± `tolerance`."""

    type: Literal["numerical"]
    answer: float | str = NUMBER
    tolerance: float | str = TOLERANCE


class ExportGapAnswer(_Export):
    """A numerical gap's answer in one variant."""

    answer: float
    tolerance: float


class ExportChoiceGap(_Export):
    """A gap with a drop-down of options, one of them right."""

    type: Literal["single_choice"]
    options: list[ExportGapOption] = Field(min_length=2)
    answer: OptionId = Field(description="The id of the right option.")


ExportGap = Annotated[
    ExportShortAnswerGap | ExportNumericalGap | ExportChoiceGap, Field(discriminator="type")
]


class ExportCloze(_ExportQuestion):
    """A text with gaps, each `[[id]]` of the prompt a gap; each gap scores its share. The
    prompt's HTML holds each gap as `[[id]]` too, never split by markup (in a right-to-left
    language too), for a platform to replace with its field."""

    model_config = ConfigDict(
        json_schema_extra={
            "if": _WITHOUT_VARIABLES,
            "then": {
                "properties": {
                    "gaps": {
                        "additionalProperties": {
                            "if": {"properties": {"type": {"const": "numerical"}}},
                            "then": _PLAIN_NUMBERS,
                        }
                    }
                }
            },
        }
    )

    type: Literal["cloze"]
    gaps: dict[GapId, ExportGap] = Field(
        min_length=1,
        description="Each gap by its id, in the order of `gap_order`.",
        json_schema_extra={"additionalProperties": False},
    )
    shuffle: bool = Field(
        description="`false`: show each choice gap's options in the order given here; `true`: "
        "a platform may shuffle them."
    )
    gap_order: list[GapId] = Field(
        min_length=1,
        description="The gap ids in the order the prompt has them (every key of `gaps` once): "
        "what a platform numbers the gaps by, and what Moodle's cloze numbers them by. The "
        "order of `gaps` says the same, but many JSON readers do not keep an object's order, "
        "and JSON Schema cannot state it.",
    )
    variables: dict[str, ExportVariable] | None = VARIABLES
    variants: list[ExportVariant] = VARIANTS
    seed: int | None = SEED
    decimals: int | None = DECIMALS


class ExportEssay(_ExportQuestion):
    """A written answer, graded by a person; the explanation is a model answer."""

    type: Literal["essay"]
    grader_info: RichText | None = Field(
        description="For graders only: what a full-mark answer says. Never show it to learners."
    )
    min_words: int | None = Field(ge=1, description="The fewest words an answer may have.")
    max_words: int | None = Field(ge=1, description="The most words an answer may have.")


class ExportSection(_Export):
    """A group of questions, of which each attempt asks `pick` (all, when null)."""

    id: Slug
    title: RichText | None
    pick: int | None = Field(ge=1, description="How many of its questions an attempt draws.")
    questions: list[Slug] = Field(min_length=1, description="Its questions' ids.")


class QuizExport(_Export):
    """One quiz in one language, exported by quizbank's `json` renderer."""

    model_config = ConfigDict(title="quizbank JSON export")

    schema_ref: str = Field(alias="$schema", description="This schema, relative to the file.")
    format_version: Literal[4] = Field(description="Changes when the export's shape changes.")
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
            ExportSingleChoice
            | ExportMultipleChoice
            | ExportTrueFalse
            | ExportNumerical
            | ExportShortAnswer
            | ExportMatching
            | ExportOrdering
            | ExportCloze
            | ExportEssay,
            Field(discriminator="type"),
        ]
    ] = Field(min_length=1)
    sections: list[ExportSection] | None = Field(
        description="Groups of questions an attempt draws from; null: every question, in order."
    )
    images: list[ExportImage] = Field(
        description="Every image the texts show, each once, in the order they first appear."
    )


def export_schema() -> dict[str, Any]:
    """The JSON Schema of an export, as `schema.json` publishes it."""
    return {"$schema": JSON_SCHEMA_DIALECT, **QuizExport.model_json_schema(by_alias=True)}


_HEADER = ("$schema", "format_version", "quizbank_version")
_ADDED = (*_HEADER, "images")
# Each model beside the export model of its data, and the keys the export adds to the model's
# fields: the export writes every field of the model, in the export model's order. Checked below,
# when this module loads, for every model a quiz holds.
_EXPORTS: list[tuple[type[BaseModel], type[_Export], tuple[str, ...]]] = [
    (Quiz, QuizExport, _ADDED),
    (Guide, ExportGuide, ()),
    (Option, ExportOption, ()),
    (SingleChoice, ExportSingleChoice, ()),
    (MultipleChoice, ExportMultipleChoice, ()),
    (TrueFalse, ExportTrueFalse, ()),
    (Numerical, ExportNumerical, ()),
    (ShortAnswer, ExportShortAnswer, ()),
    (Pair, ExportPair, ()),
    (Distractor, ExportDistractor, ()),
    (Matching, ExportMatching, ()),
    (OrderItem, ExportOrderItem, ()),
    (Ordering, ExportOrdering, ()),
    (GapOption, ExportGapOption, ()),
    (ShortAnswerGap, ExportShortAnswerGap, ()),
    (NumericalGap, ExportNumericalGap, ()),
    (ChoiceGap, ExportChoiceGap, ()),
    (Cloze, ExportCloze, ("gap_order",)),
    (Essay, ExportEssay, ()),
    (RangeVariable, ExportRangeVariable, ()),
    (ChoicesVariable, ExportChoicesVariable, ()),
    (Section, ExportSection, ()),
]


def model_classes(model: type[BaseModel]) -> list[type[BaseModel]]:
    """`model` and every model its fields hold, at any depth (in lists, mappings, unions)."""
    found: list[type[BaseModel]] = []

    def visit(annotation: Any) -> None:
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            if annotation not in found:
                found.append(annotation)
                for field in annotation.model_fields.values():
                    visit(field.annotation)
            return
        for argument in typing.get_args(annotation):
            visit(argument)

    visit(model)
    return found


def _export_keys(export: type[_Export]) -> tuple[str, ...]:
    """The keys of an export model's JSON, in order."""
    return tuple(field.alias or name for name, field in export.model_fields.items())


# Model fields the export leaves out on purpose. `source` (on every question): translation
# bookkeeping written by `quizbank translated`, what the English texts were when a question was
# translated; it says nothing about the question itself, and a platform has no use for it.
NOT_EXPORTED = frozenset({"source"})


def unexported_fields(
    exports: Sequence[tuple[type[BaseModel], type[_Export], tuple[str, ...]]] = _EXPORTS,
) -> list[str]:
    """Fields that a model and its export model do not share (the export's header aside):
    a field added to the model but not to the export would otherwise be silently dropped."""
    found: list[str] = []
    for model, export, header in exports:
        names = {field.alias or name for name, field in model.model_fields.items()}
        dumped = {*names, *model.model_computed_fields} - NOT_EXPORTED
        keys = set(_export_keys(export)) - set(header)
        found += [f"{model.__name__}.{name} (not in {export.__name__})" for name in dumped - keys]
        found += [f"{export.__name__}.{name} (not in {model.__name__})" for name in keys - dumped]
    return sorted(found)


def unexported_models(
    exports: Sequence[tuple[type[BaseModel], type[_Export], tuple[str, ...]]] = _EXPORTS,
) -> list[str]:
    """Models a quiz holds that have no export model: a new question type, or a new model
    inside one, would otherwise be exported unchecked (or not at all)."""
    exported = {model for model, _, _ in exports}
    return [
        f"{model.__name__} (no export model in _EXPORTS)"
        for model in model_classes(Quiz)
        if model not in exported
    ]


if _unexported := unexported_models() + unexported_fields():
    raise TypeError(f"the JSON export does not match the model: {', '.join(_unexported)}")
