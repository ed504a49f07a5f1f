"""The `json` renderer carries every question type: numerical, short answer, matching, ordering,
cloze and essay, with the choice types' `shuffle`; each validates against the published schema,
which refuses broken exports of each, and gives back the model it was made from."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from quizbank_renderers.json import _TYPES, JsonOptions, JsonRenderer, export_data
from quizbank_renderers.json_models import _EXPORTS, QuizExport, model_classes, unexported_models

from quizbank.loader import load_quiz
from quizbank.markup import to_html
from quizbank.model import QUESTION_MODELS, Pair, Quiz, text_fields
from quizbank.renderer import QuizTranslations

ROOT = Path(__file__).resolve().parents[1]
FIXTURE = ROOT / "tests" / "fixtures" / "types"
HOSTILE = "<script>alert('x')</script> ]]> & <b>bold</b> [[x]] [l](javascript:alert(1))"
# Texts that are one line, shown in a drop-down (with distractors' and gap options' texts):
# their HTML is inline, as a title's is.
INLINE = {"title", "match"}


def _load(lang: str) -> Quiz:
    loaded = load_quiz(FIXTURE / lang / "every-type.yaml")
    assert loaded.quiz is not None, [d.format() for d in loaded.diagnostics]
    return loaded.quiz


@pytest.fixture(scope="module", params=["en", "ur"])
def every_type(request: pytest.FixtureRequest) -> Quiz:
    return _load(request.param)


@pytest.fixture(scope="module")
def hostile_types() -> Quiz:
    """Every new type with every text carrying markup meant to break out."""
    h = HOSTILE
    return Quiz.model_validate(
        {
            "id": "hostile-types",
            "lang": "en",
            "title": "Hostile",
            "description": "Every new type.",
            "level": "advanced",
            "questions": [
                {
                    "id": "num",
                    "type": "numerical",
                    "prompt": f"N {h}",
                    "answer": -0.00002,
                    "tolerance": 0.00001,
                    "explanation": f"E {h}",
                },
                {
                    "id": "short",
                    "type": "short_answer",
                    "prompt": f"S {h}",
                    "answer": ["<b>x</b>", "a\\*b*", "| pipe"],
                    "case_sensitive": True,
                    "explanation": "E",
                },
                {
                    "id": "match",
                    "type": "matching",
                    "prompt": f"M {h}",
                    "pairs": [
                        {"id": "a", "item": f"I {h}\n\n- a list", "match": f"M1 {h}"},
                        {"id": "b", "item": "two", "match": "M2 | pipe"},
                    ],
                    "distractors": [{"id": "c", "text": f"D {h}"}],
                    "shuffle": False,
                    "explanation": "E",
                },
                {
                    "id": "order",
                    "type": "ordering",
                    "prompt": f"O {h}",
                    "items": [{"id": "a", "text": f"A {h}"}, {"id": "b", "text": "B"}],
                    "explanation": "E",
                },
                {
                    "id": "gaps",
                    "type": "cloze",
                    "prompt": "Gap [[one]] and `[[two]]`, [[x]]\n\n[x]: javascript:alert(1)",
                    "gaps": {
                        "x": {"type": "numerical", "answer": 1e-05},
                        "two": {"type": "short_answer", "answer": "t"},
                        "one": {
                            "type": "single_choice",
                            "options": [
                                {"id": "a", "text": f"O {h}", "feedback": f"F {h}"},
                                {"id": "b", "text": "b"},
                            ],
                            "answer": "a",
                        },
                    },
                    "shuffle": False,
                    "explanation": "E",
                },
                {
                    "id": "essay",
                    "type": "essay",
                    "prompt": "Write.",
                    "grader_info": f"G {h}",
                    "max_words": 3,
                    "explanation": "E",
                },
            ],
        }
    )


@pytest.fixture(scope="module")
def schema() -> dict[str, Any]:
    [file] = JsonRenderer(JsonOptions()).render_bank([])
    data: dict[str, Any] = json.loads(file.content)
    return data


def _export(quiz: Quiz, indent: int = 0) -> dict[str, Any]:
    renderer = JsonRenderer(JsonOptions(indent=indent))
    text = renderer.render(QuizTranslations(quiz.id, {quiz.lang: quiz}, [quiz.lang]), quiz.lang)
    data: dict[str, Any] = json.loads(text)
    return data


def _at(data: Any, loc: tuple[str | int, ...]) -> Any:
    for part in loc:
        data = data[part]
    return data


CALCULATED = ("variables", "variants", "seed", "decimals")


def _unwrap(node: Any) -> Any:
    """The export with each text object replaced by its Markdown, and what the export adds
    left out: `gap_order`, a question's empty variables (and their variants, seed and
    decimals), a quiz's null sections; each variant drawn as the values the model lists."""
    if isinstance(node, dict):
        if set(node) == {"markdown", "html"}:
            return node["markdown"]
        node = {key: value for key, value in node.items() if key != "gap_order"}
        if node.get("variables", True) is None:
            node = {key: value for key, value in node.items() if key not in CALCULATED}
        elif "variables" in node:
            node["variants"] = [variant["values"] for variant in node["variants"]]
            node = {key: value for key, value in node.items() if value is not None}
        if node.get("sections", True) is None:
            del node["sections"]
        return {key: _unwrap(value) for key, value in node.items()}
    if isinstance(node, list):
        return [_unwrap(value) for value in node]
    return node


def _question(export: dict[str, Any], question_id: str) -> dict[str, Any]:
    found: dict[str, Any] = next(q for q in export["questions"] if q["id"] == question_id)
    return found


# --- every type, valid and round-tripped ----------------------------------------------------


def test_the_fixture_has_every_type(every_type: Quiz) -> None:
    assert {q.type for q in every_type.questions} == set(QUESTION_MODELS)


@pytest.mark.parametrize("indent", [0, 2])
def test_every_export_validates_against_the_schema(
    every_type: Quiz, hostile_types: Quiz, indent: int, schema: dict[str, Any]
) -> None:
    validator = jsonschema.Draft202012Validator(schema)
    for quiz in (every_type, hostile_types):
        assert list(validator.iter_errors(_export(quiz, indent))) == []


def test_round_trip_gives_back_the_model(every_type: Quiz, hostile_types: Quiz) -> None:
    for quiz in (every_type, hostile_types):
        export = _export(quiz)
        for loc, text in text_fields(quiz):
            assert _at(export, loc)["markdown"] == text, loc
        body = _unwrap(export)
        for key in ("$schema", "format_version", "quizbank_version"):
            body.pop(key)
        assert body.pop("images") == []  # none in these quizzes
        assert Quiz.model_validate(body) == quiz


def test_values_of_each_type(every_type: Quiz) -> None:
    export = _export(every_type)
    assert _question(export, "pick-one")["shuffle"] is True
    assert _question(export, "pick-all")["shuffle"] is False
    numerical = _question(export, "adam-beta1")
    assert (numerical["answer"], numerical["tolerance"], numerical["points"]) == (0.9, 0.005, 2.0)
    short = _question(export, "format-name")
    assert short["case_sensitive"] is False
    assert short["answer"][0] == "safetensors" and len(short["answer"]) == 2
    matching = _question(export, "state-parts")
    assert [p["id"] for p in matching["pairs"]] == ["opt", "rng", "sched"]
    assert [d["id"] for d in matching["distractors"]] == ["lr"]
    assert matching["shuffle"] is True and matching["points"] == 3.0
    ordering = _question(export, "resume-order")
    assert [item["id"] for item in ordering["items"]] == ["load", "restore", "seek"]
    cloze = _question(export, "index-gaps")
    assert cloze["gap_order"] == ["what", "where", "count"] == list(cloze["gaps"])
    assert cloze["gaps"]["count"] == {"type": "numerical", "answer": 3.0, "tolerance": 0.0}
    assert cloze["gaps"]["where"]["answer"] == "a"
    assert [o["id"] for o in cloze["gaps"]["where"]["options"]] == ["a", "b"]
    essay = _question(export, "why-weights-only")
    assert (essay["min_words"], essay["max_words"]) == (5, 200)
    assert essay["grader_info"]["markdown"].startswith(
        ("A full-mark answer", "پورے نمبر والا جواب")
    )


def test_cloze_gaps_follow_the_prompt_not_the_file(hostile_types: Quiz) -> None:
    """The file defines the gaps x, two, one; the prompt has them one, two, x."""
    cloze = _question(_export(hostile_types), "gaps")
    assert cloze["gap_order"] == ["one", "two", "x"] == list(cloze["gaps"])
    assert cloze["shuffle"] is False


def test_cloze_prompt_html_keeps_each_gap_as_written(every_type: Quiz) -> None:
    cloze = _question(_export(every_type), "index-gaps")
    html = cloze["prompt"]["html"]
    assert [html.count(f"[[{gap}]]") for gap in ("what", "where", "count")] == [1, 1, 1]
    assert "<bdi>" not in html  # an Urdu page isolates Latin runs; not inside a gap
    if every_type.lang == "en":
        assert html == to_html(every_type.questions[7].prompt, "en")


def test_a_gap_never_becomes_a_link(hostile_types: Quiz) -> None:
    html = _question(_export(hostile_types), "gaps")["prompt"]["html"]
    assert "[[one]]" in html and "<code>[[two]]</code>" in html and "[[x]]" in html
    assert "<a" not in html and "[x]: javascript:alert(1)" in html  # text, not a link


def test_html_is_the_shared_markup_rendering(every_type: Quiz, hostile_types: Quiz) -> None:
    for quiz in (every_type, hostile_types):
        export = _export(quiz)
        for loc, text in text_fields(quiz):
            if loc[-1] == "prompt" and quiz.questions[int(loc[1])].type == "cloze":
                continue  # its gaps kept as written: above
            inline = loc[-1] in INLINE or (
                loc[-1] == "text" and ("distractors" in loc or "gaps" in loc)
            )
            assert _at(export, loc)["html"] == to_html(text, quiz.lang, inline=inline), loc


def test_hostile_text_is_escaped_in_every_new_field(hostile_types: Quiz) -> None:
    export = _export(hostile_types)
    texts = [_at(export, loc) for loc, _ in text_fields(hostile_types)]
    assert sum(HOSTILE in text["markdown"] for text in texts) == 12
    every_html = " ".join(text["html"] for text in texts)
    for dangerous in ("<script", "<b>", 'href="javascript'):
        assert dangerous not in every_html
    assert _question(export, "short")["answer"] == ["<b>x</b>", "a\\*b*", "| pipe"]


def test_grader_info_is_exported_and_marked_for_graders_only(
    every_type: Quiz, schema: dict[str, Any]
) -> None:
    essay = _question(_export(every_type), "why-weights-only")
    assert essay["grader_info"]["html"].startswith("<p>")
    description = schema["$defs"]["ExportEssay"]["properties"]["grader_info"]["description"]
    assert "Never show it to learners" in description


def test_every_new_field_is_described(schema: dict[str, Any]) -> None:
    for name in ("ExportNumerical", "ExportShortAnswer", "ExportMatching", "ExportCloze"):
        definition = schema["$defs"][name]
        assert definition["description"]
        for field, spec in definition["properties"].items():
            if field not in ("id", "type", "prompt", "explanation", "points", "pairs"):
                assert spec.get("description"), (name, field)
    assert "gap_order" in schema["$defs"]["ExportCloze"]["required"]


def test_export_is_what_the_export_model_makes_of_it(every_type: Quiz, hostile_types: Quiz) -> None:
    for quiz in (every_type, hostile_types):
        data = export_data(quiz)
        again = QuizExport.model_validate(data).model_dump(mode="json", by_alias=True)
        assert json.dumps(data) == json.dumps(again)


def test_small_numbers_are_written_as_json_dumps_writes_them(hostile_types: Quiz) -> None:
    text = json.dumps(export_data(hostile_types), ensure_ascii=False, separators=(",", ":"))
    renderer = JsonRenderer(JsonOptions())
    translations = QuizTranslations(hostile_types.id, {"en": hostile_types}, ["en"])
    assert renderer.render(translations, "en") == text + "\n"
    assert '"tolerance":1e-05' in text and '"answer":-2e-05' in text


# --- the schema refuses broken exports of each type -----------------------------------------

Breakage = Callable[[dict[str, Any]], None]


def _in(question_id: str, change: Callable[[dict[str, Any]], object]) -> Breakage:
    def broken(export: dict[str, Any]) -> None:
        change(_question(export, question_id))

    return broken


BREAKAGES: dict[str, Breakage] = {
    "shuffle-not-bool": _in("pick-one", lambda q: q.update(shuffle="no")),
    "shuffle-missing": _in("pick-all", lambda q: q.pop("shuffle")),
    "numerical-text": _in("adam-beta1", lambda q: q.update(answer="0.9")),
    "tolerance-negative": _in("adam-beta1", lambda q: q.update(tolerance=-0.1)),
    "numerical-with-options": _in("adam-beta1", lambda q: q.update(options=[])),
    "short-no-answer": _in("format-name", lambda q: q.update(answer=[])),
    "short-empty-answer": _in("format-name", lambda q: q.update(answer=[""])),
    "short-answer-text": _in("format-name", lambda q: q.update(answer="safetensors")),
    "case-not-bool": _in("format-name", lambda q: q.update(case_sensitive=None)),
    "one-pair": _in("state-parts", lambda q: q.update(pairs=q["pairs"][:1])),
    "pair-no-match": _in("state-parts", lambda q: q["pairs"][0].pop("match")),
    "match-plain-text": _in("state-parts", lambda q: q["pairs"][0].update(match="x")),
    "distractor-no-html": _in("state-parts", lambda q: q["distractors"][0]["text"].pop("html")),
    "matching-no-shuffle": _in("state-parts", lambda q: q.pop("shuffle")),
    "one-item": _in("resume-order", lambda q: q.update(items=q["items"][:1])),
    "item-bad-id": _in("resume-order", lambda q: q["items"][0].update(id="Not An Id")),
    "no-gaps": _in("index-gaps", lambda q: q.update(gaps={})),
    "gap-bad-type": _in("index-gaps", lambda q: q["gaps"]["what"].update(type="essay")),
    "gap-bad-id": _in("index-gaps", lambda q: q["gaps"].update({"Bad Id": q["gaps"]["what"]})),
    "gap-option-no-html": _in(
        "index-gaps", lambda q: q["gaps"]["where"]["options"][0]["text"].pop("html")
    ),
    "gap-numerical-text": _in("index-gaps", lambda q: q["gaps"]["count"].update(answer="3")),
    "gap-unknown-key": _in("index-gaps", lambda q: q["gaps"]["count"].update(options=[])),
    "no-gap-order": _in("index-gaps", lambda q: q.pop("gap_order")),
    "gap-order-bad-id": _in("index-gaps", lambda q: q["gap_order"].append("Bad Id")),
    "essay-zero-words": _in("why-weights-only", lambda q: q.update(min_words=0)),
    "essay-words-text": _in("why-weights-only", lambda q: q.update(max_words="200")),
    "grader-info-plain": _in("why-weights-only", lambda q: q.update(grader_info="x")),
    "essay-no-grader-info": _in("why-weights-only", lambda q: q.pop("grader_info")),
}


@pytest.mark.parametrize("breakage", BREAKAGES.values(), ids=BREAKAGES.keys())
def test_schema_rejects_a_broken_export(
    breakage: Breakage, every_type: Quiz, schema: dict[str, Any]
) -> None:
    export = _export(every_type)
    broken = copy.deepcopy(export)
    breakage(broken)
    assert broken != export
    assert not jsonschema.Draft202012Validator(schema).is_valid(broken)


# --- the export covers the model -------------------------------------------------------------


def test_every_model_of_a_quiz_has_an_export_model() -> None:
    assert unexported_models() == []
    names = {model.__name__ for model in model_classes(Quiz)}
    assert {"Pair", "Distractor", "OrderItem", "GapOption", "ChoiceGap", "NumericalGap"} <= names
    assert "ShortAnswerGap" in names


def test_a_model_missing_from_the_table_is_caught() -> None:
    table = [entry for entry in _EXPORTS if entry[0] is not Pair]
    assert unexported_models(table) == ["Pair (no export model in _EXPORTS)"]


def test_every_question_type_is_written() -> None:
    assert set(_TYPES) == set(QUESTION_MODELS.values())
