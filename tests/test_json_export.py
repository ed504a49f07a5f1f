"""The `json` renderer: exports that validate against the schema it publishes, and round-trip."""

from __future__ import annotations

import json
import posixpath
import typing
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from pydantic import BaseModel
from quizbank_renderers.json import JsonOptions, JsonRenderer, _dumps, export_data
from quizbank_renderers.json_models import _EXPORTS, FORMAT_VERSION, QuizExport, unexported_fields

import quizbank
from quizbank.errors import UsageError
from quizbank.markup import to_html
from quizbank.model import Question, Quiz, text_fields
from quizbank.registry import configure, discover_renderers
from quizbank.renderer import QuizSummary, QuizTranslations

ROOT = Path(__file__).resolve().parents[1]
HOSTILE = "<script>alert('x')</script> ]]> \"quoted\" & AT&T &amp; <b>bold</b>"


@pytest.fixture(scope="module")
def hostile() -> Quiz:
    """Every kind of question and every text field, each carrying markup meant to break out."""
    return Quiz.model_validate(
        {
            "id": "hostile",
            "lang": "en",
            "title": f"Title {HOSTILE}",
            "description": f"Description {HOSTILE}\n\n- a list\n- `<code>`",
            "level": "advanced",
            "guide": {"title": f"Guide {HOSTILE}", "url": "https://example.org/guide?a=1&b=2"},
            "tags": ["security"],
            "questions": [
                {
                    "id": "single",
                    "type": "single_choice",
                    "prompt": f"Prompt {HOSTILE}",
                    "options": [
                        {"id": "a", "text": f"Option {HOSTILE}", "feedback": f"Feedback {HOSTILE}"},
                        {"id": "b", "text": "[link](javascript:alert(1))"},
                    ],
                    "answer": "a",
                    "explanation": f"Explanation {HOSTILE}",
                },
                {
                    "id": "multiple",
                    "type": "multiple_choice",
                    "prompt": "Pick <img src=x onerror=alert(1)>",
                    "options": [
                        {"id": "a", "text": "one"},
                        {"id": "b", "text": "two"},
                        {"id": "c", "text": "three"},
                    ],
                    "answer": ["a", "c"],
                    "explanation": "Both <iframe>.",
                    "points": 2.5,
                },
                {
                    "id": "statement",
                    "type": "true_false",
                    "prompt": "True & false?",
                    "answer": False,
                    "feedback_true": f"No: {HOSTILE}",
                    "feedback_false": "Yes.",
                    "explanation": "Because.",
                },
            ],
        }
    )


def _render(quiz: Quiz, **options: Any) -> str:
    renderer = JsonRenderer(JsonOptions(**options))
    return renderer.render(QuizTranslations(quiz.id, {quiz.lang: quiz}, [quiz.lang]), quiz.lang)


def _export(quiz: Quiz) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(_render(quiz))
    return data


@pytest.fixture(scope="module")
def schema() -> dict[str, Any]:
    files = list(JsonRenderer(JsonOptions()).render_bank([]))
    assert [str(f.path) for f in files] == ["schema.json"]
    data: dict[str, Any] = json.loads(files[0].content)
    return data


def _at(data: Any, loc: tuple[str | int, ...]) -> Any:
    for part in loc:
        data = data[part]
    return data


def _unwrap(node: Any) -> Any:
    """The export with each text object replaced by its Markdown source."""
    if isinstance(node, dict):
        if set(node) == {"markdown", "html"}:
            return node["markdown"]
        return {key: _unwrap(value) for key, value in node.items()}
    if isinstance(node, list):
        return [_unwrap(value) for value in node]
    return node


# --- the schema ------------------------------------------------------------------------------


def test_schema_is_a_valid_draft_2020_12_schema(schema: dict[str, Any]) -> None:
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["properties"]["format_version"]["const"] == FORMAT_VERSION
    assert schema["additionalProperties"] is False


def test_bank_schema_does_not_depend_on_the_quizzes(schema: dict[str, Any]) -> None:
    summary = QuizSummary("checkpoint-sharding", "en", "Title", "intermediate", 8)
    files = list(JsonRenderer(JsonOptions()).render_bank([summary]))
    assert json.loads(files[0].content) == schema
    assert files[0].content.endswith(b"}\n")


@pytest.mark.parametrize("quiz_name", ["english", "urdu", "hostile"])
@pytest.mark.parametrize("indent", [0, 2, 8])
def test_every_export_validates_against_the_schema(
    quiz_name: str, indent: int, schema: dict[str, Any], request: pytest.FixtureRequest
) -> None:
    quiz: Quiz = request.getfixturevalue(quiz_name)
    export = json.loads(_render(quiz, indent=indent))
    errors = list(jsonschema.Draft202012Validator(schema).iter_errors(export))
    assert errors == []


@pytest.mark.parametrize(
    "breakage",
    [
        lambda e: e.update(format_version=1),
        lambda e: e.update(title="a plain string"),
        lambda e: e["questions"][0].pop("answer"),
        lambda e: e["questions"][0].update(type="essay"),
        lambda e: e["questions"][0]["options"][0]["text"].pop("html"),
        lambda e: e.update(unknown=1),
    ],
    ids=["version", "text-not-object", "no-answer", "bad-type", "no-html", "unknown-key"],
)
def test_schema_rejects_a_broken_export(
    breakage: Any, english: Quiz, schema: dict[str, Any]
) -> None:
    export = _export(english)
    breakage(export)
    assert not jsonschema.Draft202012Validator(schema).is_valid(export)


def test_schema_reference_points_at_the_published_schema(english: Quiz) -> None:
    renderer = JsonRenderer(JsonOptions())
    [output] = renderer.render_quiz(QuizTranslations(english.id, {"en": english}, ["en"]))
    assert str(output.path) == "en/checkpoint-sharding.json"
    reference = json.loads(output.content)["$schema"]
    bank = [str(f.path) for f in renderer.render_bank([])]
    assert posixpath.normpath(posixpath.join(str(output.path.parent), reference)) in bank


# --- the content -----------------------------------------------------------------------------


def test_header_fields_and_stable_order(english: Quiz) -> None:
    export = _export(english)
    assert list(export)[:7] == [
        "$schema",
        "format_version",
        "quizbank_version",
        "id",
        "lang",
        "title",
        "description",
    ]
    assert export["format_version"] == FORMAT_VERSION
    assert export["quizbank_version"] == quizbank.__version__
    assert list(export["questions"][0])[:3] == ["id", "type", "prompt"]


def test_keyed_answers_are_exported(english: Quiz, urdu: Quiz, hostile: Quiz) -> None:
    for quiz in (english, urdu, hostile):
        export = _export(quiz)
        assert len(export["questions"]) == len(quiz.questions)
        for question, exported in zip(quiz.questions, export["questions"], strict=True):
            assert exported["id"] == question.id
            assert exported["type"] == question.type
            assert exported["answer"] == question.answer
            if question.type != "true_false":
                option_ids = [option["id"] for option in exported["options"]]
                assert set(question.answer_ids) <= set(option_ids)
    assert _export(english)["questions"][0]["answer"] == "d"
    assert _export(hostile)["questions"][1]["answer"] == ["a", "c"]
    assert _export(hostile)["questions"][2]["answer"] is False


@pytest.mark.parametrize("quiz_name", ["english", "urdu", "hostile"])
def test_round_trip_gives_back_the_model(quiz_name: str, request: pytest.FixtureRequest) -> None:
    quiz: Quiz = request.getfixturevalue(quiz_name)
    export = _export(quiz)
    for loc, text in text_fields(quiz):
        assert _at(export, loc)["markdown"] == text
    body = {k: v for k, v in _unwrap(export).items() if k not in ("$schema",)}
    assert body.pop("format_version") == FORMAT_VERSION
    assert body.pop("quizbank_version") == quizbank.__version__
    assert body.pop("images") == []  # none in this quiz; tests/test_json_media.py has some
    # `source` (translation bookkeeping) is the one field an export leaves out.
    questions = [q.model_copy(update={"source": None}) for q in quiz.questions]
    assert Quiz.model_validate(body) == quiz.model_copy(update={"questions": questions})


@pytest.mark.parametrize("quiz_name", ["english", "urdu", "hostile"])
def test_html_is_the_shared_markup_rendering(
    quiz_name: str, request: pytest.FixtureRequest
) -> None:
    quiz: Quiz = request.getfixturevalue(quiz_name)
    export = _export(quiz)
    for loc, text in text_fields(quiz):
        inline = loc[-1] == "title"
        assert _at(export, loc)["html"] == to_html(text, quiz.lang, inline=inline), loc


def test_hostile_text_escaped_in_html_and_intact_in_markdown(hostile: Quiz) -> None:
    raw = _render(hostile)
    export = json.loads(raw)
    texts = [_at(export, loc) for loc, _ in text_fields(hostile)]
    carriers = [t for t in texts if HOSTILE in t["markdown"]]
    assert len(carriers) == 8  # title, description, guide, prompt, option, feedbacks, explanation
    for text in carriers:
        assert "<script>alert('x')</script>" in text["markdown"]
        assert "]]>" in text["markdown"]
        assert '"quoted"' in text["markdown"] and "AT&T &amp;" in text["markdown"]
        html = text["html"]
        assert "<script" not in html and "<b>" not in html
        assert "&lt;script&gt;" in html and "&lt;b&gt;bold&lt;/b&gt;" in html
        assert "AT&amp;T" in html
    every_html = " ".join(t["html"] for t in texts)
    for dangerous in ("<script", "<img", "<iframe", "<b>", 'href="javascript'):
        assert dangerous not in every_html
    assert json.loads(raw) == export  # quotes and backslashes survive JSON


def test_default_output_is_compact_json_on_one_line(urdu: Quiz) -> None:
    text = _render(urdu)
    assert text.count("\n") == 1 and text.endswith("}\n")
    assert json.loads(text) == json.loads(_render(urdu, indent=2))


def test_output_is_deterministic_utf8_and_ends_with_newline(urdu: Quiz) -> None:
    first, second = _render(urdu, indent=2), _render(urdu, indent=2)
    assert first == second
    assert first.endswith("}\n") and not first.endswith("\n\n")
    assert "چیک پوائنٹ" in first and "\\u" not in first
    assert first.splitlines()[1] == '  "$schema": "../schema.json",'


def test_indent_option(english: Quiz) -> None:
    compact = _render(english, indent=0)
    assert compact.count("\n") == 1
    assert json.loads(compact) == json.loads(_render(english, indent=4))
    assert _render(english, indent=4).splitlines()[1].startswith('    "$schema"')


# --- built in one pass -----------------------------------------------------------------------


@pytest.mark.parametrize("quiz_name", ["english", "urdu", "hostile"])
def test_export_is_what_the_export_model_makes_of_it(
    quiz_name: str, request: pytest.FixtureRequest
) -> None:
    """The export, built directly, is what validating it against the export model and dumping
    that gives: the same values in the same order."""
    quiz: Quiz = request.getfixturevalue(quiz_name)
    data = export_data(quiz)
    again = QuizExport.model_validate(data).model_dump(mode="json", by_alias=True)
    assert json.dumps(data) == json.dumps(again)


def test_every_model_field_is_exported() -> None:
    assert unexported_fields() == []


def test_every_question_type_is_exported() -> None:
    (union, *_) = typing.get_args(Question)
    assert set(typing.get_args(union)) <= {model for model, _, _ in _EXPORTS}


def test_a_model_field_missing_from_the_export_is_caught() -> None:
    quiz_model, quiz_export, header = _EXPORTS[0]

    class Extended(quiz_model):  # type: ignore[valid-type,misc]
        difficulty: int = 1

    class Narrowed(BaseModel):
        id: str

    assert unexported_fields([(Extended, quiz_export, header)]) == [
        "Extended.difficulty (not in QuizExport)"
    ]
    assert "QuizExport.title (not in Narrowed)" in unexported_fields(
        [(Narrowed, quiz_export, header)]
    )


# --- written as json.dumps writes it --------------------------------------------------------


def _json_dumps(data: object, indent: int) -> str:
    """What the export used to be written with, and must stay byte for byte."""
    if indent == 0:
        return json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n"
    return json.dumps(data, ensure_ascii=False, indent=indent) + "\n"


TRICKY_VALUES: list[Any] = [
    "".join(map(chr, range(0x800))),  # every control character, quotes, backslash, DEL, Latin
    "\u2028\u2029\ufeff\uffef \U0001f600 چیک پوائنٹ </script> ]]>",
    [1.0, 2.5, 0.1 + 0.2, 1e-4, 999.9999999999, 1000.0, 7, -3, 0],
    {"": None, "nested": {"empty": {}, "list": [], "flags": [True, False]}},
]


@pytest.mark.parametrize("indent", [0, 1, 2, 8])
@pytest.mark.parametrize("small_floats", [False, True])
def test_written_as_json_dumps_writes_it(indent: int, small_floats: bool) -> None:
    data = {"$schema": "../schema.json", "values": TRICKY_VALUES}
    written = _dumps(data, indent, small_floats=small_floats)
    assert written == _json_dumps(data, indent).encode("utf-8")


@pytest.mark.parametrize("indent", [0, 2])
def test_points_under_1e_4_are_written_as_json_dumps_writes_them(
    english: Quiz, indent: int
) -> None:
    questions = [q.model_copy(update={"points": 1e-05}) for q in english.questions]
    quiz = english.model_copy(update={"questions": questions})
    text = _render(quiz, indent=indent)
    assert text == _json_dumps(export_data(quiz), indent)
    assert '"points":1e-05' in text.replace(" ", "")


@pytest.mark.parametrize("quiz_name", ["english", "urdu", "hostile"])
@pytest.mark.parametrize("indent", [0, 4])
def test_files_are_the_rendered_text_in_utf8(
    quiz_name: str, indent: int, request: pytest.FixtureRequest
) -> None:
    quiz: Quiz = request.getfixturevalue(quiz_name)
    renderer = JsonRenderer(JsonOptions(indent=indent))
    translations = QuizTranslations(quiz.id, {quiz.lang: quiz}, [quiz.lang])
    [output] = renderer.render_quiz(translations)
    assert output.content == renderer.render(translations, quiz.lang).encode("utf-8")
    assert output.content.decode("utf-8") == _json_dumps(export_data(quiz), indent)


# --- the plug-in -----------------------------------------------------------------------------


def test_found_through_its_entry_point() -> None:
    entry = discover_renderers().get("json")
    assert entry.cls is JsonRenderer
    assert entry.distribution == "quizbank"
    assert entry.cls.extension == "json"


@pytest.mark.parametrize("value", ["9", "-1", "two"])
def test_bad_indent_is_a_usage_error_naming_the_option(value: str) -> None:
    entry = discover_renderers().get("json")
    with pytest.raises(UsageError, match="renderer 'json' option 'indent'"):
        configure(entry, {"indent": value})


def test_indent_from_the_command_line() -> None:
    renderer = configure(discover_renderers().get("json"), {"indent": "4"})
    assert isinstance(renderer.options, JsonOptions) and renderer.options.indent == 4
