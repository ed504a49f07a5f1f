"""JSON export: the validated model with every text as Markdown source and safe HTML.

One file per quiz and language, `<lang>/<quiz-id>.json`, plus `schema.json` for the bank: the
JSON Schema (Draft 2020-12) that every export validates against, generated from the pydantic
model of the export below. Each export names it with `"$schema": "../schema.json"`, a reference
relative to the export file, so the schema travels with the files and needs no server.
"""

from __future__ import annotations

import json
import typing
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import PurePosixPath
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, HttpUrl, StringConstraints
from pydantic_core import to_json

import quizbank
from quizbank.gaps import GAP_MARKS, gap_index, mark_gaps
from quizbank.images import Image
from quizbank.markup import to_html
from quizbank.model import (
    GAP,
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
    Question,
    Quiz,
    RangeVariable,
    Section,
    ShortAnswer,
    ShortAnswerGap,
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
    image_files,
)
from quizbank.variables import expand

# 2: six more question types, and `shuffle` on the choice types; 3: images and formulas;
# 4: variables and their variants, sections
FORMAT_VERSION = 4
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


def _number(value: float) -> float:
    """A number as the export model types it: a float (`3`, given as an int, is `3.0`)."""
    return float(value)


def _choice(question: SingleChoice | MultipleChoice, lang: str) -> dict[str, Any]:
    answer = question.answer if isinstance(question, SingleChoice) else [*question.answer]
    return {
        "options": [_option(option, lang) for option in question.options],
        "answer": answer,
        "shuffle": question.shuffle,
    }


def _true_false(question: TrueFalse, lang: str) -> dict[str, Any]:
    return {
        "answer": question.answer,
        "feedback_true": _optional_text(question.feedback_true, lang),
        "feedback_false": _optional_text(question.feedback_false, lang),
    }


def _numerical(question: Numerical | NumericalGap, lang: str) -> dict[str, Any]:
    return {"answer": _number_or_formula(question.answer), "tolerance": _tolerance(question)}


def _number_or_formula(value: float | str) -> float | str:
    return value if isinstance(value, str) else _number(value)


def _tolerance(question: Numerical | NumericalGap) -> float | str:
    return _number_or_formula(question.tolerance)


def _calculated(quiz_id: str, question: Numerical | Cloze) -> dict[str, Any]:
    """The variables, every variant's values and answers, the seed and the decimals."""
    if not question.variables:
        return {"variables": None, "variants": [], "seed": None, "decimals": None}
    return {
        "variables": {
            name: variable.model_dump(by_alias=True)
            for name, variable in question.variables.items()
        },
        "variants": [_variant(values, one) for values, one in expand(quiz_id, question)],
        "seed": question.seed,
        "decimals": question.decimals,
    }


def _variant(values: Mapping[str, float], question: Numerical | Cloze) -> dict[str, Any]:
    if isinstance(question, Numerical):
        answer, tolerance = question.answer_value, question.tolerance_value
        return {"values": dict(values), "answer": answer, "tolerance": tolerance, "gaps": {}}
    gaps = {
        gap_id: {"answer": gap.answer_value, "tolerance": gap.tolerance_value}
        for gap_id in question.gap_order
        for gap in (question.gaps[gap_id],)
        if isinstance(gap, NumericalGap)
    }
    return {"values": dict(values), "answer": None, "tolerance": None, "gaps": gaps}


def _short_answer(question: ShortAnswer | ShortAnswerGap, lang: str) -> dict[str, Any]:
    return {"answer": [*question.answer], "case_sensitive": question.case_sensitive}


def _matching(question: Matching, lang: str) -> dict[str, Any]:
    pairs = [
        {"id": pair.id, "item": _text(pair.item, lang), "match": _title(pair.match, lang)}
        for pair in question.pairs
    ]
    distractors = [{"id": d.id, "text": _title(d.text, lang)} for d in question.distractors]
    return {"pairs": pairs, "distractors": distractors, "shuffle": question.shuffle}


def _ordering(question: Ordering, lang: str) -> dict[str, Any]:
    return {"items": [{"id": item.id, "text": _text(item.text, lang)} for item in question.items]}


def _choice_gap(gap: ChoiceGap, lang: str) -> dict[str, Any]:
    options = [
        {
            "id": option.id,
            "text": _title(option.text, lang),
            "feedback": _optional_text(option.feedback, lang),
        }
        for option in gap.options
    ]
    return {"options": options, "answer": gap.answer}


_GAPS: dict[type[BaseModel], Callable[[Any, str], dict[str, Any]]] = {
    ShortAnswerGap: _short_answer,
    NumericalGap: _numerical,
    ChoiceGap: _choice_gap,
}


def _cloze_prompt(prompt: str, lang: str) -> dict[str, str]:
    """A cloze prompt whose HTML holds each gap as `[[id]]`, as its Markdown does."""
    ids = GAP.findall(prompt)
    html = GAP_MARKS.sub(
        lambda mark: f"[[{ids[gap_index(mark[0])]}]]", to_html(mark_gaps(prompt), lang)
    )
    return {"markdown": prompt, "html": html}


def _cloze(question: Cloze, lang: str) -> dict[str, Any]:
    """The gaps in the prompt's order, and that order as a list too (see `ExportCloze`)."""
    order = question.gap_order
    gaps = {
        gap_id: {"type": gap.type, **_GAPS[type(gap)](gap, lang)}
        for gap_id in order
        for gap in (question.gaps[gap_id],)
    }
    return {
        "prompt": _cloze_prompt(question.prompt, lang),
        "gaps": gaps,
        "shuffle": question.shuffle,
        "gap_order": order,
    }


def _essay(question: Essay, lang: str) -> dict[str, Any]:
    return {
        "grader_info": _optional_text(question.grader_info, lang),
        "min_words": question.min_words,
        "max_words": question.max_words,
    }


# Each question type's own fields, in its export model's order, after the shared ones.
_TYPES: dict[type[BaseModel], Callable[[Any, str], dict[str, Any]]] = {
    SingleChoice: _choice,
    MultipleChoice: _choice,
    TrueFalse: _true_false,
    Numerical: _numerical,
    ShortAnswer: _short_answer,
    Matching: _matching,
    Ordering: _ordering,
    Cloze: _cloze,
    Essay: _essay,
}


def _question(quiz_id: str, question: Question, lang: str) -> dict[str, Any]:
    """One question with the fields of its export model, in that model's order."""
    exported = {
        "id": question.id,
        "type": question.type,
        "prompt": _text(question.prompt, lang),
        "explanation": _text(question.explanation, lang),
        "points": float(question.points),  # a default of 1 is an int until it is dumped
        **_TYPES[type(question)](question, lang),
    }
    if isinstance(question, Numerical | Cloze):
        exported.update(_calculated(quiz_id, question))
    return exported


def _section(section: Section, lang: str) -> dict[str, Any]:
    return {
        "id": section.id,
        "title": None if section.title is None else _title(section.title, lang),
        "pick": section.pick,
        "questions": [*section.questions],
    }


def export_data(quiz: Quiz, images: Mapping[str, Image] | None = None) -> dict[str, Any]:
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
        "questions": [_question(quiz.id, question, lang) for question in quiz.questions],
        "sections": None
        if quiz.sections is None
        else [_section(section, lang) for section in quiz.sections],
        "images": [_image(src, image) for src, image in (images or {}).items()],
    }


def _image(src: str, image: Image) -> dict[str, Any]:
    return {
        "src": src,
        "path": str(image.path),
        "media_type": image.media_type,
        "size": image.size,
        "sha256": image.sha256,
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


def _numbers(quiz: Quiz) -> Iterator[float]:
    """Every number the export writes as a float: points, answers and tolerances."""
    for question in quiz.questions:
        yield question.points
        if isinstance(question, Numerical | Cloze) and question.variables:
            for values, variant in expand(quiz.id, question):
                yield from values.values()
                yield from _plain_numbers(variant)
        else:
            yield from _plain_numbers(question)


def _plain_numbers(question: Question) -> Iterator[float]:
    """The answers and tolerances of a question without variables."""
    if isinstance(question, Numerical):
        yield from (question.answer_value, question.tolerance_value)
    elif isinstance(question, Cloze):
        for gap in question.gaps.values():
            if isinstance(gap, NumericalGap):
                yield from (gap.answer_value, gap.tolerance_value)


def export_json(quiz: Quiz, indent: int, images: Mapping[str, Image] | None = None) -> bytes:
    """The export file of a quiz: its export data as UTF-8 JSON."""
    small_floats = any(0 < abs(number) < _POSITIONAL_FLOATS for number in _numbers(quiz))
    return _dumps(export_data(quiz, images), indent, small_floats=small_floats)


class JsonRenderer(Renderer[JsonOptions]):
    name = "json"
    description = "The validated quizzes as JSON, with a JSON Schema, for other platforms."
    extension = "json"
    handles_variables = True  # every variant's values and answers, and the sections, exported
    handles_sections = True
    Options = JsonOptions

    def render_quiz(self, quiz: QuizTranslations) -> Iterator[OutputFile]:
        """Every language's export, written as bytes straight away (no str in between), and
        the images they list beside them."""
        for lang in quiz.languages:
            content = export_json(quiz[lang], self.options.indent, quiz.images_of(lang))
            yield OutputFile(self.output_path(lang, quiz.quiz_id), content)
        yield from image_files(quiz)

    def render(self, quiz: QuizTranslations, lang: str) -> str:
        return export_json(quiz[lang], self.options.indent, quiz.images_of(lang)).decode()

    def render_bank(self, summaries: Sequence[QuizSummary]) -> Iterator[OutputFile]:
        yield OutputFile(PurePosixPath(SCHEMA_FILE), _dumps(export_schema(), self.options.indent))
