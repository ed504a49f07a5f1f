"""No word of pydantic's reaches an author: every constraint of the quiz model (as its JSON
Schema lists them: types, lengths, patterns, bounds, literals, unions, required and unknown keys),
broken in a quiz that has every kind of question, is reported in quizbank's own words."""

from __future__ import annotations

import copy
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import yaml
from pydantic_core._pydantic_core import list_all_errors

from quizbank.loader import load_quiz
from quizbank.model import Quiz

# A quiz with every question type, every optional key and each kind of variable, section and
# tolerance: each mutation below breaks one value of it.
BASE = yaml.safe_load(
    """
id: every-constraint
lang: en
title: Every constraint
description: One of each kind of question.
level: beginner
guide: {title: The guide, url: "https://example.org/guide"}
tags: [testing]
questions:
  - id: single
    type: single_choice
    prompt: Pick one.
    options:
      - {id: a, text: One, feedback: Right.}
      - {id: b, text: Two}
    answer: a
    shuffle: false
    explanation: Because.
    points: 2
    source: {prompt: 0a1b2c}
  - id: multiple
    type: multiple_choice
    prompt: Pick some.
    options: [{id: a, text: One}, {id: b, text: Two}, {id: c, text: Three}]
    answer: [a, b]
    explanation: Because.
  - id: truth
    type: true_false
    prompt: It is so.
    answer: true
    feedback_true: Right.
    feedback_false: Wrong.
    explanation: Because.
  - id: number
    type: numerical
    prompt: How much is 0.9?
    answer: 0.9
    tolerance: 0.01
    explanation: Because.
  - id: computed
    type: numerical
    prompt: What is {p} times {q}?
    variables:
      p: {from: 1, to: 5, step: 1}
      q: {choices: [2, 4]}
    variants: 4
    seed: 7
    decimals: 2
    answer: "{p} * {q}"
    tolerance: 1%
    explanation: Because.
  - id: listed
    type: numerical
    prompt: What is {p} plus one?
    variables:
      p: {from: 1, to: 3}
    variants: [{p: 1}, {p: 2}]
    answer: "{p} + 1"
    explanation: Because.
  - id: word
    type: short_answer
    prompt: Name it.
    answer: [safetensors, pickle]
    case_sensitive: true
    explanation: Because.
  - id: match
    type: matching
    prompt: Match them.
    pairs:
      - {id: a, item: One, match: Uno}
      - {id: b, item: Two, match: Dos}
    distractors: [{id: c, text: Tres}]
    shuffle: true
    explanation: Because.
  - id: order
    type: ordering
    prompt: Order them.
    items: [{id: a, text: First}, {id: b, text: Second}]
    explanation: Because.
  - id: gaps
    type: cloze
    prompt: Type [[word]], [[number]] and pick [[choice]]; {p} is [[sum]].
    variables:
      p: {from: 1, to: 2}
    variants: 2
    gaps:
      word: {type: short_answer, answer: save, case_sensitive: false}
      number: {type: numerical, answer: 2, tolerance: 0.5}
      choice:
        type: single_choice
        options: [{id: a, text: Sure, feedback: Right.}, {id: b, text: Never}]
        answer: a
      sum: {type: numerical, answer: "{p} + 1", tolerance: 2%}
    shuffle: false
    points: 4
    explanation: Because.
  - id: essay
    type: essay
    prompt: Write.
    grader_info: A full answer.
    min_words: 10
    max_words: 100
    explanation: Because.
sections:
  - {id: first, title: First part, pick: 1, questions: [single, multiple]}
  - {id: rest, questions: [truth, number, computed, listed, word, match, order, gaps, essay]}
"""
)

# What pydantic says, in every error it knows (the fixed start of each message), and the
# other phrasings of its reports: none may reach an author.
PYDANTIC_WORDS = sorted(
    {
        start
        for error in list_all_errors()
        if len(start := error["message_template_python"].split("{")[0].strip()) >= 10
    }
    | {
        "Input should",
        "String should",
        "List should",
        "Dictionary should",
        "Value error,",
        "Field required",
        "Extra inputs",
        "validation error",
        "type=",
        "pydantic",
        "unable to parse",
        "Tagged union",
        "Input tag",
        "discriminator",
        "relative URL",
    }
)
SCHEMA = Quiz.model_json_schema()
Path_ = tuple[str | int, ...]


def _resolve(node: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in node:
        node = SCHEMA["$defs"][node["$ref"].rsplit("/", 1)[1]]
    return node


def _member(node: dict[str, Any], value: Any) -> dict[str, Any] | None:
    """The member of a union that `value` belongs to (by its `type` tag, or its JSON type)."""
    for option in node.get("anyOf", []) + node.get("oneOf", []):
        option = _resolve(option)
        tag = option.get("properties", {}).get("type", {}).get("const")
        if tag is not None:
            if isinstance(value, dict) and value.get("type") == tag:
                return option
        elif _json_type(value) in _types(option) or (
            isinstance(value, dict)
            and "properties" in option
            and set(value) <= set(option["properties"]) | {"from"}
        ):
            return option
    return None


def _types(node: dict[str, Any]) -> set[str]:
    kind = node.get("type")
    found = set(kind if isinstance(kind, list) else [kind] if kind else [])
    if "properties" in node:
        found.add("object")
    if "integer" in found:
        found.add("number")
    return found


def _json_type(value: Any) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object" if isinstance(value, dict) else "null"


# A value of each JSON type other than the one a place takes, as an author may write it.
_WRONG = {
    "string": [5, True, ["a list"], {"a": "mapping"}, None],
    "number": ["0.9", "many", True, [1], {"a": 1}, None],
    "integer": [1.5, "3", True, [1], None],
    "boolean": ["yes", "true", 1, [True], None],
    "array": ["a text", 3, {"a": 1}, None],
    "object": ["a text", 3, ["a list"], None],
}


def _mutations(
    node: dict[str, Any], value: Any, path: Path_, allowed: frozenset[str] = frozenset()
) -> Iterator[tuple[Path_, Any, str]]:
    """(where, the value put there, what is broken) for each constraint of `node`; `allowed`,
    the JSON types a union around it takes too."""
    node = _resolve(node)
    if "anyOf" in node or "oneOf" in node:
        allowed = frozenset().union(
            *(_types(_resolve(o)) for o in node.get("anyOf", []) + node.get("oneOf", []))
        )
        for wrong in ["a text", 3, 2.5, True, ["a list"], None]:
            if _json_type(wrong) not in allowed | ({"integer"} if "number" in allowed else set()):
                yield path, wrong, f"not a member of the union ({_json_type(wrong)})"
        member = _member(node, value)
        if member is not None:
            yield from _mutations(member, value, path, allowed)
        tags = [
            _resolve(o).get("properties", {}).get("type", {}).get("const")
            for o in node.get("anyOf", []) + node.get("oneOf", [])
        ]
        if isinstance(value, dict) and any(tags):
            yield (*path, "type"), "no_such_type", "unknown type"
            yield path, {k: v for k, v in value.items() if k != "type"}, "no type"
        return
    kinds = _types(node) | allowed
    for kind in kinds:
        for wrong in _WRONG.get(kind, []):
            if _json_type(wrong) not in kinds and not (
                "number" in kinds and isinstance(wrong, int) and not isinstance(wrong, bool)
            ):
                yield path, wrong, f"{_json_type(wrong)} for {kind}"
    if "const" in node:
        yield path, "no_such_type", "const"
    if "enum" in node:
        yield path, "expert", "enum"
    if "minLength" in node:
        yield path, "a" * (node["minLength"] - 1), "minLength"
    if "maxLength" in node:
        yield path, "a" * (node["maxLength"] + 1), "maxLength"
    if "pattern" in node:
        yield path, "Not valid!", "pattern"
    if "format" in node:
        yield path, "example.org/guide", "format"
        yield path, "https://", "format"
    for bound, change in (("minimum", -1), ("maximum", 1), ("exclusiveMinimum", 0)):
        if bound in node:
            yield path, node[bound] + change, bound
    if isinstance(value, list):
        if "minItems" in node:
            yield path, value[: node["minItems"] - 1], "minItems"
        if "maxItems" in node and value:
            yield path, (value * (node["maxItems"] + 1))[: node["maxItems"] + 1], "maxItems"
        if "items" in node:  # each item of a list of unions (questions), else the first
            items = _resolve(node["items"])
            varied = "anyOf" in items or "oneOf" in items
            for index, item in enumerate(value if varied else value[:1]):
                yield from _mutations(node["items"], item, (*path, index))
    if isinstance(value, dict):
        yield from _mapping_mutations(node, value, path)


def _mapping_mutations(
    node: dict[str, Any], value: dict[str, Any], path: Path_
) -> Iterator[tuple[Path_, Any, str]]:
    properties = node.get("properties", {})
    for name in node.get("required", []):
        if name in value:
            yield path, {k: v for k, v in value.items() if k != name}, f"{name} missing"
    if node.get("additionalProperties") is False:
        yield path, {**value, "explanaton": "x"}, "extra key"
    patterns = node.get("patternProperties", {})
    if patterns or "propertyNames" in node:
        yield path, {**value, "9 bad name!" * 12: next(iter(value.values()), "x")}, "bad key"
    if "maxProperties" in node and value:
        many = {f"k{i}": next(iter(value.values())) for i in range(node["maxProperties"] + 1)}
        yield path, many, "maxProperties"
    if "minProperties" in node:
        yield path, {}, "minProperties"
    extra = node.get("additionalProperties")
    for key, item in value.items():
        if key in properties:
            child = properties[key]
        elif patterns:
            child = next(iter(patterns.values()))
        elif isinstance(extra, dict):
            child = extra
        else:
            continue
        yield from _mutations(child, item, (*path, key))


def _put(data: Any, path: Path_, new: Any) -> Any:
    if not path:
        return new
    data = copy.deepcopy(data)
    parent = data
    for part in path[:-1]:
        parent = parent[part]
    parent[path[-1]] = new
    return data


MUTATIONS = list(_mutations(SCHEMA, BASE, ()))
# Values the model takes on purpose: one accepted answer written as a text, not a list of one.
BY_DESIGN = {("answer", "a text")}
# Values the model would take in pydantic's lax mode where a strict number is meant
# (`points: true` as 1 point): none, every number is strict.
LAX: set[tuple[str, Any]] = set()


def _known(name: str | int, value: Any) -> bool:
    return any(
        name == known and type(value) is type(taken) and value == taken
        for known, taken in BY_DESIGN | LAX
    )


class _Written(yaml.SafeDumper):
    """Each value written out, as an author writes it (no `&anchor` for a repeated one)."""

    def ignore_aliases(self, data: Any) -> bool:
        return True


def _quiz_file(folder: Path, data: Any) -> Path:
    path = folder / "en" / "every-constraint.yaml"
    path.parent.mkdir(exist_ok=True)
    text = yaml.dump(data, Dumper=_Written, allow_unicode=True, sort_keys=False)
    path.write_text(text, encoding="utf-8")
    return path


def test_the_quiz_with_every_kind_of_value_is_valid(tmp_path: Path) -> None:
    loaded = load_quiz(_quiz_file(tmp_path, BASE))
    assert loaded.ok, [d.format() for d in loaded.diagnostics]


def test_every_constraint_is_walked() -> None:
    broken = {what for _, _, what in MUTATIONS}
    for constraint in ("minLength", "maxLength", "pattern", "minimum", "maximum", "enum"):
        assert constraint in broken
    assert {"exclusiveMinimum", "format", "minItems", "maxItems", "extra key", "bad key"} <= broken
    assert len(MUTATIONS) > 500


def test_no_constraint_is_reported_in_pydantic_words(tmp_path: Path) -> None:
    leaks: list[str] = []
    unreported: list[str] = []
    for path, value, what in MUTATIONS:
        loaded = load_quiz(_quiz_file(tmp_path, _put(BASE, path, value)))
        shown = f"{'.'.join(map(str, path)) or '(quiz)'} = {str(value)[:40]!r} ({what})"
        if loaded.ok and not _known(path[-1], value):
            unreported.append(shown)
        for diagnostic in loaded.diagnostics:
            text = f"{diagnostic.field}: {diagnostic.message}"
            if any(words in text for words in PYDANTIC_WORDS) or re.search(r"\bInput\b", text):
                leaks.append(f"{shown}\n    {text}")
    assert not leaks, f"{len(leaks)} messages in pydantic's words:\n" + "\n".join(leaks[:60])
    assert not unreported, "accepted:\n" + "\n".join(unreported)
