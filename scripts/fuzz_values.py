"""Mutations within the types, for scripts/fuzz.py: a seed quiz read as YAML, a few of its values
set to the edges of what the schema allows (huge, tiny and negative numbers, the most options,
gaps and questions, the longest texts, formulas, hostile characters), and written back. Most such
mutants validate, so that `build` renders them: what validate accepts, every renderer renders.

Each mutation is a function of a random.Random and the quiz's data alone, so a mutant replays.
"""

from __future__ import annotations

import copy
import random
import re
from collections.abc import Callable
from typing import Any

import yaml
from fuzz_formulas import random_formula

Data = dict[str, Any]

NUMBERS = [
    1e25,
    -1e25,
    1.7976931348623157e308,
    -1.7976931348623157e308,
    5e-324,
    -5e-324,
    2.2250738585072014e-308,
    1e-300,
    1e-7,
    0.0,
    -0.0,
    1e16,
    9007199254740993,
    12345678901234567890,
    123456789.123456789,
    0.1,
    1 / 3,
    0.30000000000000004,
    -1,
    4.35,
    1e22,
]
POINTS = [1e-9, 5e-324, 1e-300, 1 / 3, 0.1, 2.5, 7, 999.9999999999, 1000, 0.001, 33.333333333]
WORDS = [1, 2, 99_999, 100_000]
# Texts that are hard for some format: its own syntax, markup, scripts, sizes.
HOSTILE_WORDS = [
    "@@PLUGINFILE@@/x.png",
    "]]>",
    "<![CDATA[x]]>",
    "{1:SHORTANSWER:=a}",
    "::q::{=a}",
    "~=#{}:\\",
    "&amp; &#0; &#x110000; &bsol;",
    "<script>alert(1)</script>",
    "[l](javascript:alert(1))",
    "<span lang='en' class='multilang'>x",
    "{mlang en}x",
    "\u2066x\u2069 \u200f",
    "سوال؟",
    "a\u0301\u0302\u0303",
    "🙂👩‍👩‍👧",
    "$5 and $7",
    "\\$",
    "`code`",
    "**b** _i_ ~~s~~",
    "- a\n- b\n\n1. c",
    "# H\n\n> q\n\n```\ncode\n```",
    "| a | b |\n|---|---|\n| 1 | 2 |",
    "line  \nbreak",
    "%",
    "\ufeff",
    "\u00ad\u200b",
    "x" * 255,
]
LONG_TEXTS: list[Callable[[random.Random], str]] = [
    lambda rng: "x" * rng.choice([300, 20_000]),
    lambda rng: "word " * rng.choice([60, 3999]),
    lambda rng: "*" * rng.choice([300, 20_000]),
    lambda rng: "[" * rng.choice([300, 20_000]),
    lambda rng: "`" * rng.choice([300, 20_000]),
    lambda rng: "\\" * rng.choice([300, 20_000]),
    lambda rng: "> " * rng.choice([100, 9_999]),
    lambda rng: "- " * rng.choice([100, 9_999]),
    lambda rng: "$x$ " * rng.choice([75, 4_999]),
    lambda rng: "_a" * rng.choice([150, 9_999]),
    lambda rng: "&amp;" * rng.choice([60, 3_999]),
    lambda rng: "@@" * rng.choice([150, 9_999]),
    lambda rng: "\n" * rng.choice([300, 19_990]) + "x",
    lambda rng: " ".join(rng.choice(HOSTILE_WORDS) for _ in range(rng.choice([10, 300]))),
]
URDU = "سوال "  # an Urdu text must hold Urdu letters
TEXT_MAX, LINE_MAX = 20_000, 300  # the longest text, and the longest title or one-line text


def _questions(data: Data) -> list[Data]:
    questions = data.get("questions")
    return [q for q in questions if isinstance(q, dict)] if isinstance(questions, list) else []


def _of_type(data: Data, *types: str) -> list[Data]:
    return [q for q in _questions(data) if q.get("type") in types]


def _numeric_places(data: Data) -> list[Data]:
    """Each mapping that holds a number and its tolerance: numerical questions and gaps."""
    places = _of_type(data, "numerical")
    for cloze in _of_type(data, "cloze"):
        gaps = cloze.get("gaps")
        if isinstance(gaps, dict):
            places += [
                g for g in gaps.values() if isinstance(g, dict) and g.get("type") == "numerical"
            ]
    return places


def _text(rng: random.Random, lang: str, *, line: bool = False) -> str:
    """A text at an edge: long, hostile or holding formulas; one line of 300 at most if `line`."""
    roll = rng.random()
    if roll < 0.35:
        text = rng.choice(LONG_TEXTS)(rng)
    elif roll < 0.7:
        text = " ".join(rng.choice(HOSTILE_WORDS) for _ in range(rng.randint(1, 6)))
    else:
        text = " ".join(
            f"${random_formula(rng, hostile=rng.random() < 0.2)}$"
            if rng.random() < 0.6
            else rng.choice(HOSTILE_WORDS)
            for _ in range(rng.randint(1, 5))
        )
    if lang != "en":
        text = URDU + text
    if line:
        return " ".join(text.split())[:LINE_MAX] or "x"
    return text[:TEXT_MAX]


def set_number(rng: random.Random, data: Data, lang: str) -> str | None:
    places = _numeric_places(data)
    if not places:
        return None
    place = rng.choice(places)
    answer = rng.choice(NUMBERS)
    place["answer"] = answer
    tolerance = abs(rng.choice(NUMBERS)) if rng.random() < 0.7 else 0
    place["tolerance"] = tolerance
    return f"a number: answer {answer!r}, tolerance {tolerance!r}"


def set_points(rng: random.Random, data: Data, lang: str) -> str | None:
    questions = _questions(data)
    if not questions:
        return None
    question = rng.choice(questions)
    question["points"] = rng.choice(POINTS)
    return f"question {question.get('id')!r}: points {question['points']!r}"


def set_words(rng: random.Random, data: Data, lang: str) -> str | None:
    essays = _of_type(data, "essay")
    if not essays:
        return None
    essay = rng.choice(essays)
    low, high = sorted((rng.choice(WORDS), rng.choice(WORDS)))
    essay["min_words"], essay["max_words"] = low, high
    for key in ("min_words", "max_words"):
        if rng.random() < 0.3:
            del essay[key]
    return f"essay words {essay.get('min_words')}..{essay.get('max_words')}"


def _options(rng: random.Random, count: int, lang: str, *, line: bool) -> list[Data]:
    options = []
    for index in range(count):
        text = f"{URDU if lang != 'en' else ''}option {index}"
        if rng.random() < 0.2:  # numbered first, so that the options stay distinct
            text = f"{index} {_text(rng, lang, line=line)}"[: LINE_MAX if line else TEXT_MAX]
        option: Data = {"id": f"o{index}", "text": text}
        if rng.random() < 0.3:
            option["feedback"] = _text(rng, lang)
        options.append(option)
    return options


def many_options(rng: random.Random, data: Data, lang: str) -> str | None:
    questions = _of_type(data, "single_choice", "multiple_choice")
    if not questions:
        return None
    question = rng.choice(questions)
    count = rng.choice([2, 3, 20, 21, 25, 26])
    question["options"] = _options(rng, count, lang, line=False)
    ids = [o["id"] for o in question["options"]]
    if question["type"] == "single_choice":
        question["answer"] = rng.choice(ids)
    else:
        question["answer"] = rng.sample(ids, rng.randint(1, min(count, 20)))
    question["shuffle"] = rng.random() < 0.5
    return f"question {question.get('id')!r}: {count} options, answer {question['answer']!r}"


def many_pairs(rng: random.Random, data: Data, lang: str) -> str | None:
    questions = _of_type(data, "matching")
    if not questions:
        return None
    question = rng.choice(questions)
    pairs, extra = rng.choice([2, 13, 26]), rng.choice([0, 1, 26])
    prefix = URDU if lang != "en" else ""
    question["pairs"] = [
        {"id": f"p{i}", "item": f"{prefix}item {i}", "match": f"{prefix}match {i}"}
        for i in range(pairs)
    ]
    question["distractors"] = [{"id": f"d{i}", "text": f"{prefix}wrong {i}"} for i in range(extra)]
    return f"question {question.get('id')!r}: {pairs} pairs, {extra} distractors"


def many_items(rng: random.Random, data: Data, lang: str) -> str | None:
    questions = _of_type(data, "ordering")
    if not questions:
        return None
    question = rng.choice(questions)
    count = rng.choice([2, 26])
    prefix = URDU if lang != "en" else ""
    question["items"] = [{"id": f"i{i}", "text": f"{prefix}step {i}"} for i in range(count)]
    return f"question {question.get('id')!r}: {count} items"


def many_gaps(rng: random.Random, data: Data, lang: str) -> str | None:
    questions = _of_type(data, "cloze")
    if not questions:
        return None
    question = rng.choice(questions)
    count = rng.choice([1, 7, 49, 50])
    gaps: Data = {}
    for index in range(count):
        kind = rng.choice(["short_answer", "numerical", "single_choice"])
        if kind == "short_answer":
            gaps[f"g{index}"] = {
                "type": kind,
                "answer": [f"a{index}", "b*"],
                "case_sensitive": True,
            }
        elif kind == "numerical":
            gaps[f"g{index}"] = {
                "type": kind,
                "answer": rng.choice(NUMBERS),
                "tolerance": abs(rng.choice(NUMBERS)),
            }
        else:
            options = _options(rng, rng.choice([2, 26]), lang, line=True)
            gaps[f"g{index}"] = {"type": kind, "options": options, "answer": options[-1]["id"]}
    prefix = URDU if lang != "en" else ""
    question["prompt"] = prefix + " ".join(f"w{i} [[g{i}]]" for i in range(count))
    question["gaps"] = gaps
    question.pop("points", None)
    return f"question {question.get('id')!r}: {count} gaps"


def many_questions(rng: random.Random, data: Data, lang: str) -> str | None:
    questions = _questions(data)
    if not questions:
        return None
    count = rng.choice([30, 200, 1000])
    data["questions"] = [
        {**copy.deepcopy(questions[i % len(questions)]), "id": f"q{i}"} for i in range(count)
    ]
    return f"{count} questions"


def accepted_answers(rng: random.Random, data: Data, lang: str) -> str | None:
    questions = _of_type(data, "short_answer")
    if not questions:
        return None
    question = rng.choice(questions)
    count = rng.choice([1, 50])
    pieces = ["a", "*", "\\*", "{", "}", "=", "~", "#", "<b>", "]]>", "سوال", "%", "|"]
    question["answer"] = [
        (f"w{i}" + "".join(rng.choice(pieces) for _ in range(rng.randint(0, 60))))[:255]
        for i in range(count)
    ]
    question["case_sensitive"] = rng.random() < 0.5
    return f"question {question.get('id')!r}: {count} accepted answers"


def set_text(rng: random.Random, data: Data, lang: str) -> str | None:
    """A text field (the title, a prompt, an option's feedback...) at an edge."""
    places: list[tuple[Data, str, bool]] = [(data, "title", True), (data, "description", False)]
    for question in _questions(data):
        if question.get("type") != "cloze":
            places.append((question, "prompt", False))
        places.append((question, "explanation", False))
        for key in ("feedback_true", "feedback_false", "grader_info"):
            if key in question:
                places.append((question, key, False))
        for option in question.get("options") or []:
            if isinstance(option, dict):
                places.append((option, "text", False))
    holder, key, line = rng.choice(places)
    holder[key] = _text(rng, lang, line=line)
    return f"{key} = {holder[key][:40]!r}...({len(holder[key])} chars)"


def many_tags(rng: random.Random, data: Data, lang: str) -> str | None:
    data["tags"] = [f"t{i}" for i in range(rng.choice([0, 50]))]
    if rng.random() < 0.5:
        data["guide"] = {
            "title": _text(rng, lang, line=True),
            "url": "https://example.org/" + "a" * 1000,
        }
    return f"{len(data['tags'])} tags, a guide"


MUTATIONS: list[tuple[float, Callable[[random.Random, Data, str], str | None]]] = [
    (4, set_number),
    (3, set_points),
    (1.5, set_words),
    (3, many_options),
    (1.5, many_pairs),
    (1, many_items),
    (2, many_gaps),
    (1, many_questions),
    (1.5, accepted_answers),
    (5, set_text),
    (0.5, many_tags),
]


def typed_mutant(rng: random.Random, data: bytes, lang: str) -> tuple[bytes, list[str]]:
    """The seed file `data` with one to four values set at the edges of their types."""
    try:
        quiz = yaml.safe_load(data)
    except yaml.YAMLError:
        quiz = None
    if not isinstance(quiz, dict):
        return data, ["typed: the seed is not a mapping PyYAML reads, left as it is"]
    ops = []
    weights = [w for w, _ in MUTATIONS]
    functions = [f for _, f in MUTATIONS]
    for _ in range(rng.choice([1, 1, 2, 3, 4])):
        for _attempt in range(5):
            done = rng.choices(functions, weights)[0](rng, quiz, lang)
            if done:
                ops.append(f"typed: {done}")
                break
    dumped = yaml.dump(quiz, Dumper=_Dumper, allow_unicode=True, sort_keys=False, width=120)
    return dumped.encode("utf-8"), ops


# What YAML 1.2 reads as a number, a boolean or null, which PyYAML (YAML 1.1) writes unquoted.
_AMBIGUOUS = re.compile(
    r"[-+]?(?:\.?inf|\.?nan|[0-9][0-9_.]*(?:[eE][-+]?[0-9]+)?|0x[0-9a-fA-F_]+|0o[0-7_]+"
    r"|\.[0-9]+(?:[eE][-+]?[0-9]+)?)|true|false|yes|no|on|off|null|~|y|n",
    re.IGNORECASE,
)


class _Dumper(yaml.SafeDumper):
    """PyYAML's safe dumper, quoting the texts that YAML 1.2 would read as something else."""


def _text_representer(dumper: yaml.SafeDumper, value: str) -> yaml.Node:
    style = '"' if _AMBIGUOUS.fullmatch(value) else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_Dumper.add_representer(str, _text_representer)
