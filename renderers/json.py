"""JSON export: the validated model with every text as Markdown source and safe HTML.

This module writes the exports and is the renderer. One file per quiz and language,
`<lang>/<quiz-id>.json`, plus `schema.json` for the bank: the JSON Schema (Draft 2020-12) that
every export validates against, generated from the pydantic models of the export (json_models).
Each export names it with `"$schema": "../schema.json"`, a reference relative to the export file,
so the schema travels with the files and needs no server.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import PurePosixPath
from typing import Any

from pydantic import BaseModel, Field
from pydantic_core import to_json

import quizbank
from quizbank.gaps import GAP_MARKS, gap_index, mark_gaps
from quizbank.images import Image
from quizbank.markup import to_html
from quizbank.model import (
    GAP,
    ChoiceGap,
    Cloze,
    Essay,
    Guide,
    Matching,
    MultipleChoice,
    Numerical,
    NumericalGap,
    Option,
    Ordering,
    Question,
    Quiz,
    Section,
    ShortAnswer,
    ShortAnswerGap,
    SingleChoice,
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

from .json_models import FORMAT_VERSION, export_schema

SCHEMA_FILE = "schema.json"


class JsonOptions(RendererOptions):
    indent: int = Field(
        0,
        ge=0,
        le=8,
        description="Spaces per nesting level, for reading by eye; 0 (the default, for other "
        "platforms) writes compact JSON on one line.",
    )


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
    when json_models loads), and the tests validate exports against the published schema and
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
