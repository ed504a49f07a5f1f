"""quiz_yaml (quizbank/importer/yaml_writer.py): the YAML file `quizbank import` writes for a quiz.

What it writes reads back as the very quiz, through PyYAML's safe_load and through quizbank's own
loader (YAML 1.2 core schema, libyaml), gives the same validated model as the file it came from,
and is written as the bundled content is written by hand: the bundled files come back as they
are but for the few differences listed below.
"""

from __future__ import annotations

import copy
import io
import shutil
import tempfile
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import TypeAdapter, ValidationError

from quizbank.importer import yaml_writer
from quizbank.importer.yaml_writer import quiz_yaml
from quizbank.loader import LoadedQuiz, load_quiz
from quizbank.model import Line, Quiz, Text
from quizbank.yamlsource import load_document

ROOT = Path(__file__).resolve().parent.parent
SCHEMA = "../../schema/quiz.schema.json"
BUNDLED = sorted((ROOT / "content").glob("*/*.yaml"))
FIXTURES = [
    *sorted((ROOT / "tests/fixtures/types").glob("*/every-type.yaml")),
    *sorted((ROOT / "tests/fixtures/media").glob("*/media.yaml")),
    *sorted((ROOT / "tests/fixtures/html").glob("*/mixed-types.yaml")),
    *sorted((ROOT / "tests/fixtures/golden").glob("*/golden.yaml")),
]


def _name(path: Path) -> str:
    return str(path.relative_to(ROOT))


def _schema_path(text: str) -> str:
    first = text.split("\n", 1)[0]
    marker = "# yaml-language-server: $schema="
    return first.removeprefix(marker) if first.startswith(marker) else SCHEMA


def _without_sources(data: dict[str, Any]) -> dict[str, Any]:
    data = copy.deepcopy(data)
    for question in data["questions"]:
        question.pop("source", None)
    return data


def _without_defaults(data: dict[str, Any]) -> dict[str, Any]:
    """The quiz as the writer is meant to write it: without the values equal to the model's
    defaults (written out here, apart from the writer's own code that finds them)."""
    data = copy.deepcopy(data)
    if data.get("tags") == []:
        del data["tags"]
    for question in data["questions"]:
        default_points = max(len(question["gaps"]), 1) if question["type"] == "cloze" else 1
        for key, default in (
            ("shuffle", True),
            ("points", default_points),
            ("tolerance", 0),
            ("case_sensitive", False),
            ("distractors", []),
        ):
            if key in question and question[key] == default:
                del question[key]
        for gap in question.get("gaps", {}).values():
            for key, default in (("tolerance", 0), ("case_sensitive", False)):
                if key in gap and gap[key] == default:
                    del gap[key]
    return data


def _write_file(folder: Path, text: str, lang: str, quiz_id: str, images: Path | None) -> Path:
    """The text as content/<lang>/<id>.yaml under `folder`, with the images beside it."""
    path = folder / "content" / lang / f"{quiz_id}.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    if images is not None and images.is_dir() and not (folder / "content/images").exists():
        shutil.copytree(images, folder / "content/images")
    return path


def _problems(loaded: LoadedQuiz) -> list[tuple[str, str]]:
    return [(str(d.severity), d.message) for d in loaded.diagnostics]


def _stripped_model(quiz: Quiz) -> Quiz:
    """The quiz without the questions' `source` (written by `quizbank translated`)."""
    questions = [question.model_copy(update={"source": None}) for question in quiz.questions]
    return quiz.model_copy(update={"questions": questions})


# --- Every bundled quiz and fixture, written again ---


@pytest.mark.parametrize("path", [*BUNDLED, *FIXTURES], ids=_name)
def test_a_quiz_written_again_reads_back_as_the_same_quiz(path: Path, tmp_path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    data = _without_sources(yaml.safe_load(text))
    written = quiz_yaml(data, _schema_path(text))

    assert written.startswith(f"# yaml-language-server: $schema={_schema_path(text)}\n")
    assert yaml.safe_load(written) == _without_defaults(data)
    target = _write_file(tmp_path, written, data["lang"], data["id"], path.parent.parent / "images")
    assert load_document(target).data == _without_defaults(data)  # quizbank's own reader

    original = load_quiz(path)
    loaded = load_quiz(target)
    assert original.quiz is not None and loaded.quiz is not None
    assert loaded.quiz == _stripped_model(original.quiz)
    assert loaded.ok and original.ok
    assert _problems(loaded) == _problems(original)  # the same warnings, if any; no error
    assert loaded.images.keys() == original.images.keys()


# How the writer's text differs from the bundled files, and why.
#
# UNQUOTED: texts that a bundled file puts in double quotes though nothing in them needs quotes
# (no `: `, ` #`, leading indicator, or, in a flow collection, `,[]{}`); the writer quotes only
# where YAML needs it, which is what the same files do everywhere else (`match: The CPU random
# number generator's state` in the same list, `{id: lr, text: The model's accuracy}`, `answer:
# [safetensors, safe*tensors]` in the README and the fixtures). No rule that quotes these would
# leave the rest of the bundled content as it is.
#
# DROPPED: a value equal to the model's default (`tolerance: 0`), which the writer leaves out as
# it does every default; the model reads the question the same.
UNQUOTED = {
    "content/en/resuming-training-in-practice.yaml": [
        'state*dict"',
        'state*dict()"',
        "The method `module.state_dict()` returns",
        "Per-parameter state (such as",
        "The position in the schedule (such as",
        "The position of a plain `DataLoader`",
        "Build the optimizer over",
        "Gradients that are still accumulating",
    ],
    "content/ur/resuming-training-in-practice.yaml": [
        'state*dict"',
        'state*dict()"',
        'اسٹیٹ*ڈکٹ"',
        "چیک پوائنٹ لوڈ کریں اور ہر",
        "جو گریڈیئنٹس ابھی جمع",
    ],
}
DROPPED = {
    "content/en/resuming-training-in-practice.yaml": ["    tolerance: 0\n"],
    "content/ur/resuming-training-in-practice.yaml": ["    tolerance: 0\n"],
}


def _unquote(text: str, start: str) -> str:
    """`text` with the double quotes taken off the one value that begins `"` + `start`."""
    assert text.count(f'"{start}') == 1, start
    at = text.index(f'"{start}')
    end = text.index('"', at + 1)
    return text[:at] + text[at + 1 : end] + text[end + 1 :]


def _as_the_writer_writes(path: Path, text: str) -> str:
    for start in UNQUOTED.get(_name(path), []):
        text = _unquote(text, start)
    for line in DROPPED.get(_name(path), []):
        assert text.count(line) == 1, line
        text = text.replace(line, "")
    return text


@pytest.mark.parametrize("path", BUNDLED, ids=_name)
def test_a_bundled_quiz_is_written_as_it_was_written_by_hand(path: Path) -> None:
    """Every bundled file, `source` (as `quizbank translated` writes it) included, comes back
    character for character, but for the differences listed and justified above."""
    text = path.read_text(encoding="utf-8")
    written = quiz_yaml(yaml.safe_load(text), _schema_path(text))
    assert written == _as_the_writer_writes(path, text)


def test_every_english_bundled_quiz_but_one_is_written_exactly() -> None:
    english = [path for path in BUNDLED if path.parent.name == "en"]
    exact = [path for path in english if _name(path) not in UNQUOTED | DROPPED]
    assert exact, "at least one bundled English quiz comes back as it is"
    for path in exact:
        text = path.read_text(encoding="utf-8")
        assert quiz_yaml(yaml.safe_load(text), _schema_path(text)) == text


# --- Key order, style, defaults ---

EVERY_TYPE: dict[str, Any] = {
    "questions": [
        {
            "explanation": "Right.",
            "answer": "b",
            "shuffle": True,
            "points": 1,
            "options": [
                {"feedback": "No.", "text": "One", "id": "a"},
                {"id": "b", "text": "Two", "feedback": None},
            ],
            "prompt": "Pick: one?",
            "type": "single_choice",
            "id": "pick",
        },
        {
            "id": "pick-all",
            "type": "multiple_choice",
            "prompt": "Pick all.",
            "options": [
                {"id": "a", "text": "A"},
                {"id": "b", "text": "B"},
                {"id": "c", "text": "All of the above"},
            ],
            "answer": ["a", "b"],
            "points": 2.0,
            "shuffle": False,
            "explanation": "Both.",
        },
        {
            "id": "statement",
            "type": "true_false",
            "prompt": "True?",
            "answer": False,
            "feedback_false": "Right.",
            "feedback_true": None,
            "explanation": "It is not.",
            "points": 1.0,
        },
        {
            "id": "number",
            "type": "numerical",
            "prompt": "How many?",
            "tolerance": 0,
            "answer": 3.0,
            "explanation": "Three.",
        },
        {
            "id": "beta",
            "type": "numerical",
            "prompt": "Beta?",
            "tolerance": 0.005,
            "answer": 0.9,
            "explanation": "0.9",
        },
        {
            "id": "word",
            "type": "short_answer",
            "prompt": "Which?",
            "case_sensitive": False,
            "answer": ["yes"],
            "explanation": "Yes.",
        },
        {
            "id": "words",
            "type": "short_answer",
            "prompt": "Which?",
            "case_sensitive": True,
            "answer": ["Safe*tensors", "*seed"],
            "explanation": "Both.",
        },
        {
            "id": "pairs",
            "type": "matching",
            "prompt": "Match.",
            "shuffle": True,
            "distractors": [],
            "pairs": [
                {"match": "One", "item": "1", "id": "a"},
                {"id": "b", "item": "2, two", "match": "Two"},
            ],
            "explanation": "So.",
        },
        {
            "id": "long-pairs",
            "type": "matching",
            "prompt": "Match.",
            "pairs": [
                {"id": "a", "item": "Code:\n\n    x = 1\n", "match": "One"},
                {"id": "b", "item": "Two", "match": "2"},
            ],
            "distractors": [{"text": "Three", "id": "c"}],
            "explanation": "So.",
        },
        {
            "id": "order",
            "type": "ordering",
            "prompt": "Order.",
            "items": [{"text": "First", "id": "a"}, {"id": "b", "text": "Second"}],
            "explanation": "So.",
        },
        {
            "id": "gaps",
            "type": "cloze",
            "prompt": "A [[x]], [[y]] and [[z]].",
            "points": 3,
            "shuffle": True,
            "gaps": {
                "x": {"answer": ["a", "b"], "type": "short_answer", "case_sensitive": False},
                "y": {"type": "numerical", "answer": 2.0, "tolerance": 0},
                "z": {
                    "type": "single_choice",
                    "answer": "a",
                    "options": [
                        {"id": "a", "text": "yes"},
                        {"id": "b", "text": "no", "feedback": "Not so."},
                    ],
                },
            },
            "explanation": "So.",
        },
        {
            "id": "gaps-one-point",
            "type": "cloze",
            "prompt": "[[1]] and [[2]].",
            "points": 1,
            "gaps": {
                "1": {"type": "numerical", "answer": 1, "tolerance": 0.5},
                "2": {"type": "short_answer", "answer": ["two"], "case_sensitive": True},
            },
            "explanation": "So.",
        },
        {
            "id": "essay",
            "type": "essay",
            "prompt": "Write.",
            "max_words": 200,
            "min_words": 5,
            "grader_info": None,
            "explanation": "A model answer.",
        },
    ],
    "tags": ["b-tag", "a-tag"],
    "guide": {"url": "https://example.org/guide", "title": "The guide"},
    "level": "beginner",
    "description": "Every type:\n\n- one\n- two\n",
    "title": "Every type",
    "lang": "en",
    "id": "every-type",
}

EVERY_TYPE_YAML = """\
# yaml-language-server: $schema=../../schema/quiz.schema.json
id: every-type
lang: en
title: Every type
description: |
  Every type:

  - one
  - two
level: beginner
guide:
  title: The guide
  url: https://example.org/guide
tags: [b-tag, a-tag]
questions:
  - id: pick
    type: single_choice
    prompt: "Pick: one?"
    options:
      - id: a
        text: One
        feedback: No.
      - id: b
        text: Two
    answer: b
    explanation: Right.

  - id: pick-all
    type: multiple_choice
    prompt: Pick all.
    options:
      - id: a
        text: A
      - id: b
        text: B
      - id: c
        text: All of the above
    answer: [a, b]
    shuffle: false
    points: 2
    explanation: Both.

  - id: statement
    type: true_false
    prompt: True?
    answer: false
    feedback_false: Right.
    explanation: It is not.

  - id: number
    type: numerical
    prompt: How many?
    answer: 3
    explanation: Three.

  - id: beta
    type: numerical
    prompt: Beta?
    answer: 0.9
    tolerance: 0.005
    explanation: "0.9"

  - id: word
    type: short_answer
    prompt: Which?
    answer: ["yes"]
    explanation: Yes.

  - id: words
    type: short_answer
    prompt: Which?
    answer: [Safe*tensors, "*seed"]
    case_sensitive: true
    explanation: Both.

  - id: pairs
    type: matching
    prompt: Match.
    pairs:
      - {id: a, item: "1", match: One}
      - {id: b, item: "2, two", match: Two}
    explanation: So.

  - id: long-pairs
    type: matching
    prompt: Match.
    pairs:
      - id: a
        item: |
          Code:

              x = 1
        match: One
      - id: b
        item: Two
        match: "2"
    distractors:
      - {id: c, text: Three}
    explanation: So.

  - id: order
    type: ordering
    prompt: Order.
    items:
      - {id: a, text: First}
      - {id: b, text: Second}
    explanation: So.

  - id: gaps
    type: cloze
    prompt: "A [[x]], [[y]] and [[z]]."
    gaps:
      x: {type: short_answer, answer: [a, b]}
      y: {type: numerical, answer: 2}
      z:
        type: single_choice
        options:
          - id: a
            text: "yes"
          - id: b
            text: "no"
            feedback: Not so.
        answer: a
    explanation: So.

  - id: gaps-one-point
    type: cloze
    prompt: "[[1]] and [[2]]."
    gaps:
      "1": {type: numerical, answer: 1, tolerance: 0.5}
      "2": {type: short_answer, answer: [two], case_sensitive: true}
    points: 1
    explanation: So.

  - id: essay
    type: essay
    prompt: Write.
    min_words: 5
    max_words: 200
    explanation: A model answer.
"""


def test_keys_in_the_model_order_blank_lines_between_questions_defaults_left_out() -> None:
    """Quiz keys id…questions; question keys id, type, prompt, the type's own, shuffle, points,
    explanation; options as blocks, pairs, distractors, items and gaps without options one a
    line; `[a, b]` lists; `shuffle: true`, `points: 1` (a cloze's one per gap), `tolerance: 0`,
    `case_sensitive: false`, no distractors and None left out; 2.0 written 2."""
    assert quiz_yaml(EVERY_TYPE, SCHEMA) == EVERY_TYPE_YAML


def test_the_written_every_type_quiz_validates_to_the_same_model(tmp_path: Path) -> None:
    target = _write_file(tmp_path, quiz_yaml(EVERY_TYPE, SCHEMA), "en", "every-type", None)
    loaded = load_quiz(target)
    assert loaded.quiz == Quiz.model_validate(EVERY_TYPE)
    assert [d for d in loaded.diagnostics if str(d.severity) == "error"] == []


def test_the_input_is_left_as_it_was() -> None:
    before = copy.deepcopy(EVERY_TYPE)
    quiz_yaml(EVERY_TYPE, SCHEMA)
    assert before == EVERY_TYPE


def _quiz(*questions: dict[str, Any], **keys: Any) -> dict[str, Any]:
    return {
        "id": "q",
        "lang": "en",
        "title": "T",
        "description": "D",
        "level": "beginner",
        **keys,
        "questions": list(questions),
    }


def _essay(question_id: str = "e", **keys: Any) -> dict[str, Any]:
    return {"id": question_id, "type": "essay", "prompt": "P", "explanation": "E", **keys}


def test_other_keys_come_after_the_known_ones_in_the_order_given() -> None:
    quiz = _quiz(_essay(zeta=1, alpha="a", explanation="E", prompt="P"), extra=[1, 2])
    quiz = {"later": "x", **quiz}
    written = quiz_yaml(quiz, SCHEMA)
    assert written.endswith(
        "questions:\n"
        "  - id: e\n"
        "    type: essay\n"
        "    prompt: P\n"
        "    explanation: E\n"
        "    zeta: 1\n"
        "    alpha: a\n"
        "later: x\n"
        "extra: [1, 2]\n"
    )
    assert yaml.safe_load(written) == quiz


def test_a_question_of_an_unknown_type_keeps_its_keys() -> None:
    question = {"b": 1, "type": "hotspot", "id": "h", "explanation": "E", "prompt": "P", "a": 2}
    written = quiz_yaml(_quiz(question), SCHEMA)
    assert written.split("questions:\n")[1] == (
        "  - id: h\n    type: hotspot\n    prompt: P\n    explanation: E\n    b: 1\n    a: 2\n"
    )


def test_a_cloze_keeps_its_points_when_they_differ_from_one_per_gap() -> None:
    gaps = {"a": {"type": "numerical", "answer": 1}, "b": {"type": "numerical", "answer": 2}}
    cloze = {"id": "c", "type": "cloze", "prompt": "[[a]] [[b]]", "gaps": gaps, "explanation": "E"}
    assert "points" not in quiz_yaml(_quiz({**cloze, "points": 2}), SCHEMA)
    assert "    points: 1\n" in quiz_yaml(_quiz({**cloze, "points": 1}), SCHEMA)
    assert "    points: 4\n" in quiz_yaml(_quiz({**cloze, "points": 4.0}), SCHEMA)
    one_gap = {**cloze, "prompt": "[[a]]", "gaps": {"a": gaps["a"]}}
    assert "points" not in quiz_yaml(_quiz({**one_gap, "points": 1}), SCHEMA)


def test_a_default_is_told_from_a_value_of_another_type() -> None:
    """`shuffle: 1` is not the default `true`, nor `points: true` the default 1: both stay, for
    the validation to report."""
    choice = {
        "id": "c",
        "type": "single_choice",
        "prompt": "P",
        "options": [{"id": "a", "text": "A"}, {"id": "b", "text": "B"}],
        "answer": "a",
        "explanation": "E",
    }
    written = quiz_yaml(_quiz({**choice, "shuffle": 1, "points": True}), SCHEMA)
    assert "    shuffle: 1\n    points: true\n" in written


@pytest.mark.parametrize(
    ("number", "text"),
    [
        (2.0, "2"),
        (0.9, "0.9"),
        (0.1 + 0.2, "0.30000000000000004"),
        (3, "3"),
        (-0.0, "0"),
        (1e-05, "1.0e-05"),
        (1e300, "1.0e+300"),
        (2.0**60, "1.152921504606847e+18"),
    ],
)
def test_numbers_are_written_as_a_person_writes_them(number: float, text: str) -> None:
    numerical = {"id": "n", "type": "numerical", "prompt": "P", "answer": number}
    written = quiz_yaml(_quiz({**numerical, "explanation": "E"}), SCHEMA)
    assert f"    answer: {text}\n" in written
    assert yaml.safe_load(written)["questions"][0]["answer"] == number


def test_a_schema_path_of_several_lines_or_a_value_of_another_kind_is_refused() -> None:
    with pytest.raises(ValueError, match="one line"):
        quiz_yaml(_quiz(_essay()), "a\nid: injected")
    with pytest.raises(TypeError, match="not"):
        quiz_yaml(_quiz(_essay(prompt=object())), SCHEMA)


# --- Blank lines and block scalars ---

TRICKY_BLOCK = (
    "Before\n  - id: x\n    type: essay\n\n  - id: y\n\n---\n...\n# not a comment\nafter\n"
)


def test_a_block_that_looks_like_questions_is_written_as_it_is() -> None:
    """The blank line between questions comes from the emitter, between the items of the list;
    a text whose lines look like questions, at the questions' indentation, is left alone."""
    quiz = _quiz(
        _essay("a", explanation=TRICKY_BLOCK),
        _essay("b", prompt=TRICKY_BLOCK.rstrip("\n")),
        _essay("c"),
        description=TRICKY_BLOCK,
    )
    written = quiz_yaml(quiz, SCHEMA)
    assert yaml.safe_load(written) == quiz
    assert "description: |\n  Before\n    - id: x\n      type: essay\n\n    - id: y\n" in written
    assert "    explanation: |\n      Before\n        - id: x\n" in written
    assert "    prompt: |-\n      Before\n" in written
    # One blank line before each question but the first, and the blank lines of the texts.
    assert written.count("\n\n  - id: ") == 2
    assert written.count("\n\n") == 2 + 3 * TRICKY_BLOCK.count("\n\n")


def test_a_text_ending_with_a_line_break_before_the_next_question() -> None:
    """A block that ends in one line break is `|`, in none `|-`; one that ends in several is
    double-quoted: as a block (`|+`) it would take the blank line after it as its own."""
    texts = ["one\ntwo\n", "one\ntwo", "one\ntwo\n\n", "one\n\n\n", "\n\nlead\n"]
    quiz = _quiz(*(_essay(f"q{i}", explanation=text) for i, text in enumerate(texts)))
    written = quiz_yaml(quiz, SCHEMA)
    assert yaml.safe_load(written) == quiz
    assert "    explanation: |\n      one\n      two\n\n  - id: q1\n" in written
    assert "    explanation: |-\n      one\n      two\n\n  - id: q2\n" in written
    assert '    explanation: "one\\ntwo\\n\\n"\n\n  - id: q3\n' in written
    assert '    explanation: "one\\n\\n\\n"\n\n  - id: q4\n' in written
    assert "    explanation: |2\n\n\n      lead\n" in written


@pytest.mark.parametrize(
    ("text", "written"),
    [
        ("a line  \nwith trailing spaces", '"a line  \\nwith trailing spaces"\n'),
        ("a\r\nb", '"a\\r\\nb"\n'),
        ("a\x85b", '"a\\Nb"\n'),
        ("a\u2028b", '"a\\Lb"\n'),
        ("a\u2029b", '"a\\Pb"\n'),
        ("tab\tinside", '"tab\\tinside"\n'),
        ("code:\n\tindented\n", "|\n      code:\n      \tindented\n"),
        ("\tfirst\n\tsecond\n", "|2\n      \tfirst\n      \tsecond\n"),
        ("tab at the end\t\nof a line", '"tab at the end\\t\\nof a line"\n'),
    ],
)
def test_a_text_a_literal_block_cannot_hold_exactly_is_double_quoted(
    text: str, written: str, tmp_path: Path
) -> None:
    """And tabs, which YAML allows in a block, leave code a block, with its indentation stated
    when the first line starts with one (libyaml would take the tab for indentation)."""
    quiz = _quiz(_essay(explanation=text))
    output = quiz_yaml(quiz, SCHEMA)
    assert f"    explanation: {written}" in output
    assert yaml.safe_load(output) == quiz
    assert load_document(_write_file(tmp_path, output, "en", "q", None)).data == quiz


# --- Hostile texts ---

HOSTILE = [
    " leading space",
    "trailing space ",
    "a: b",
    "a:b",
    "ends with a colon:",
    "a #b",
    "#hash",
    "- dash",
    "-",
    "? question",
    ": colon",
    "*star",
    "&amp",
    "!bang",
    "%percent",
    "@at",
    "`code`",
    "'single",
    '"double',
    "back\\slash",
    "\\",
    "it's",
    'say "hi"',
    "yes",
    "no",
    "on",
    "off",
    "Yes",
    "null",
    "Null",
    "~",
    "true",
    "False",
    "1e3",
    "1E3",
    "0x10",
    "0o17",
    "0b101",
    "+.5",
    ".5",
    "1_000",
    "1:30",
    ".inf",
    ".NaN",
    "-1",
    "2024-01-01",
    "2024-01-01 10:00:00",
    "=",
    "<<",
    "[x]",
    "{x}",
    "x, y",
    "|",
    ">",
    "tab\there",
    "carriage\rreturn",
    "next\x85line",
    "line\u2028separator",
    "\ufeffbom first",
    "bom\ufeffinside",
    "empty\n\nlines inside",
    "---",
    "...",
    "a\n---\nb",
    "a\n...\nb",
    "final newline\n",
    "final newlines\n\n",
    "final newlines\n\n\n",
    "\nleading newline",
    "  indented\nblock",
    "کوئز میں خوش آمدید",
    "\u2067\u202bnot this\u2069",
    "\u2066LTR\u2069 \u2067RTL\u2069 \u2068FSI\u2069 \u200fRLM \u200eLRM",
    "Adam کا \u200fbetas=(0.9, 0.999)",
    "non\u00a0breaking",
    "emoji 😀 in plain text",
    "emoji: 😀 needs quotes",
    "math \U0001d465 with a tab\t",
    "a [[gap]] b",
]


def _every_place(text: str) -> dict[str, Any]:
    """A quiz (not necessarily valid) with `text` in every kind of place: block values, flow
    lists, entries on one line, entries as blocks, gaps, a key."""
    return _quiz(
        {
            "id": "m",
            "type": "matching",
            "prompt": text,
            "pairs": [{"id": "a", "item": text, "match": text}, {"id": "b", "item": "x"}],
            "distractors": [{"id": "c", "text": text}],
            "explanation": text,
        },
        {
            "id": "s",
            "type": "short_answer",
            "prompt": "P",
            "answer": [text, "x"],
            "explanation": "E",
        },
        {
            "id": "c",
            "type": "cloze",
            "prompt": text,
            "gaps": {
                text: {"type": "short_answer", "answer": [text]},
                "g": {"type": "single_choice", "options": [{"id": "a", "text": text}]},
            },
            "explanation": "E",
        },
        title=text,
        tags=[text],
        guide={"title": text, "url": text},
    )


def _reads_back(quiz: dict[str, Any]) -> None:
    written = quiz_yaml(quiz, SCHEMA)
    assert yaml.safe_load(written) == quiz
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "quiz.yaml"
        path.write_text(written, encoding="utf-8")
        assert load_document(path).data == quiz


@pytest.mark.parametrize("text", HOSTILE)
def test_a_hostile_text_reads_back_the_same_in_every_place(text: str) -> None:
    _reads_back(_every_place(text))


def _valid_quiz(text: str, line: str) -> dict[str, Any]:
    """A valid quiz with `text` in the texts of several lines, `line` in the one-line ones."""
    return _quiz(
        {
            "id": "pick",
            "type": "single_choice",
            "prompt": text,
            "options": [{"id": "a", "text": text, "feedback": text}, {"id": "b", "text": "B"}],
            "answer": "a",
            "explanation": text,
        },
        {
            "id": "match",
            "type": "matching",
            "prompt": "P",
            "pairs": [
                {"id": "a", "item": text, "match": line},
                {"id": "b", "item": "I", "match": "M"},
            ],
            "explanation": "E",
        },
        {
            "id": "order",
            "type": "ordering",
            "prompt": "P",
            "items": [{"id": "a", "text": text}, {"id": "b", "text": "B"}],
            "explanation": "E",
        },
        {"id": "word", "type": "short_answer", "prompt": "P", "answer": [line], "explanation": "E"},
        title=line,
        description=text,
    )


TEXT: TypeAdapter[str] = TypeAdapter(Text)
LINE: TypeAdapter[str] = TypeAdapter(Line)


def _is_valid(adapter: TypeAdapter[str], text: str) -> bool:
    try:
        adapter.validate_python(text)
    except ValidationError:
        return False
    return True


def _same_model(text: str, line: str) -> None:
    quiz = _valid_quiz(text, line)
    expected = Quiz.model_validate(quiz)
    written = quiz_yaml(quiz, SCHEMA)
    with tempfile.TemporaryDirectory() as folder:
        loaded = load_quiz(_write_file(Path(folder), written, "en", "q", None))
    assert loaded.quiz == expected


def _as_line(text: str) -> str:
    """`text` where a one-line text, an accepted answer too, may hold it; else "L"."""
    accepted = text.replace("*", "").strip() and len(text) <= 255
    return text if accepted and _is_valid(LINE, text) else "L"


@pytest.mark.parametrize("text", [t for t in HOSTILE if _is_valid(TEXT, t)])
def test_a_hostile_text_the_model_accepts_loads_as_the_same_model(text: str) -> None:
    _same_model(text, _as_line(text))


def test_the_hostile_texts_cover_what_the_model_refuses_too() -> None:
    assert any(not _is_valid(TEXT, text) for text in HOSTILE)  # the override U+202B, CR
    assert sum(_is_valid(TEXT, text) for text in HOSTILE) > 60


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("کوئز میں خوش آمدید", "description: کوئز میں خوش آمدید"),
        (
            "\u2066a\u2069 \u2067ب\u2069 \u200fc \u200ed",
            "description: \u2066a\u2069 \u2067ب\u2069 \u200fc \u200ed",
        ),
        ("Adam کا \u200fbetas=(0.9, 0.999)", "description: Adam کا \u200fbetas=(0.9, 0.999)"),
        ("emoji: 😀", "description: 'emoji: 😀'"),
        ("\U0001d465: 1", "description: '\U0001d465: 1'"),
        ("it's: 😀", "description: 'it''s: 😀'"),
        ("non\u00a0breaking", "description: non\u00a0breaking"),
        ("zero\u200bwidth: space", 'description: "zero\u200bwidth: space"'),
        ("bom\ufeff", 'description: "bom\\uFEFF"'),
        ("delete\x7f", 'description: "delete\\x7F"'),
    ],
)
def test_every_script_is_written_as_itself(text: str, line: str) -> None:
    """Urdu, the isolates U+2066-U+2069 and the marks U+200E/U+200F raw, never `\\u`; a text
    that needs quotes and holds a character beyond U+FFFF, which PyYAML's double quotes would
    escape, in single quotes; only what YAML cannot carry raw escaped."""
    quiz = _quiz(_essay(), description=text)
    written = quiz_yaml(quiz, SCHEMA)
    assert f"\n{line}\n" in written
    assert yaml.safe_load(written) == quiz


def test_long_lines_are_not_folded() -> None:
    text = " ".join(["word"] * 200) + ": and a colon"
    written = quiz_yaml(_quiz(_essay(explanation=text), description=" ".join(["w"] * 300)), SCHEMA)
    assert f'    explanation: "{text}"\n' in written
    assert "description: " + " ".join(["w"] * 300) + "\n" in written


# --- Property tests ---

# Pieces YAML treats specially, to be put together with any other characters.
PIECES = st.sampled_from(
    [
        ": ",
        " #",
        "- ",
        "  - id: x",
        "*",
        "&",
        "!",
        "%",
        "@",
        "`",
        "'",
        '"',
        "\\",
        "yes",
        "null",
        "~",
        "1e3",
        "0x10",
        "2024-01-01",
        "\t",
        "\r",
        "\n",
        "\n\n",
        " ",
        "\x85",
        "\u2028",
        "\ufeff",
        "---",
        "...",
        "[[g]]",
        "{",
        "]",
        ",",
        "?",
        "|",
        ">",
        "اردو",
        "\u200f",
        "\u2067",
        "\u2069",
        "😀",
    ]
)
ANY_CHARACTERS = st.text(st.characters(exclude_categories=("Cs",)), max_size=12)
ANY_TEXT = st.lists(PIECES | ANY_CHARACTERS, max_size=8).map("".join)


@settings(max_examples=300, deadline=None)
@given(ANY_TEXT)
def test_any_text_reads_back_the_same_in_every_place(text: str) -> None:
    _reads_back(_every_place(text))


# What the model refuses in a text, left out so that most examples are texts it accepts.
MODEL_CHARACTERS = st.characters(
    exclude_categories=("Cs",),
    exclude_characters="".join(map(chr, [*range(0x09), 0x0B, 0x0C, *range(0x0E, 0x20)]))
    + "\x7f\ufffe\uffff\u202a\u202b\u202c\u202d\u202e\r",
)
MODEL_TEXT = st.lists(
    PIECES.filter(lambda piece: "\r" not in piece) | st.text(MODEL_CHARACTERS, max_size=12),
    min_size=1,
    max_size=8,
).map("".join)


@settings(max_examples=150, deadline=None)
@given(MODEL_TEXT, MODEL_TEXT)
def test_any_text_the_model_accepts_loads_as_the_same_model(text: str, line: str) -> None:
    _same_model(text if _is_valid(TEXT, text) else "T", _as_line(line))


class _PyYAMLDumper(yaml_writer._Dumper):
    """quiz_yaml's dumper without its fast paths: PyYAML's own analysis and plain writer."""

    _analyze_scalar = yaml.SafeDumper.analyze_scalar
    write_plain = yaml.SafeDumper.write_plain


# Texts of ordinary characters (which the fast paths take) and the pieces YAML treats specially.
ORDINARY_TEXT = st.lists(
    PIECES
    | st.sampled_from([":", "#", "-", "?", ".", "\U0010ffff"])
    | st.text(st.characters(categories=("L", "N", "P", "S", "Zs")), max_size=6),
    max_size=4,
).map("".join)


@settings(max_examples=2000, deadline=None)
@given(ORDINARY_TEXT)
def test_the_fast_analysis_of_a_text_is_pyyaml_s(text: str) -> None:
    fast = yaml_writer._Dumper(io.StringIO(), allow_unicode=True).analyze_scalar(text)
    assert vars(fast) == vars(_PyYAMLDumper(io.StringIO(), allow_unicode=True).analyze_scalar(text))


@settings(max_examples=300, deadline=None)
@given(ORDINARY_TEXT | ANY_TEXT)
def test_the_fast_paths_write_what_pyyaml_writes(text: str) -> None:
    quiz = _every_place(text)
    written = quiz_yaml(quiz, SCHEMA)
    with mock.patch.object(yaml_writer, "_Dumper", _PyYAMLDumper):
        assert quiz_yaml(quiz, SCHEMA) == written
