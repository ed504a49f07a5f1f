"""Schema errors in an author's words: what is wrong with a value, and how to write it."""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel
from pydantic_core import ErrorDetails

from quizbank.model import (
    QUESTION_MODELS,
    ChoiceGap,
    Distractor,
    GapOption,
    Guide,
    NumericalGap,
    Option,
    OrderItem,
    Pair,
    Quiz,
    ShortAnswerGap,
)
from quizbank.paths import ITEM_NAMES, Loc

QUESTION_TYPES = tuple(QUESTION_MODELS)
_QUESTION_MODELS: dict[str, type[BaseModel]] = {**QUESTION_MODELS}
_GAP_MODELS: dict[str, type[BaseModel]] = {
    "short_answer": ShortAnswerGap,
    "numerical": NumericalGap,
    "single_choice": ChoiceGap,
}
GAP_TYPES = tuple(_GAP_MODELS)
_QUESTION_KEYS = {name for model in _QUESTION_MODELS.values() for name in model.model_fields}
_PLACES = {
    "quiz": set(Quiz.model_fields),
    "question": _QUESTION_KEYS,
    "option": {*Option.model_fields, *GapOption.model_fields},
    "pair": set(Pair.model_fields),
    "distractor": set(Distractor.model_fields),
    "item": set(OrderItem.model_fields),
    "gap": {name for model in _GAP_MODELS.values() for name in model.model_fields},
    "guide": set(Guide.model_fields),
}
# The kind of mapping at `questions[i].<list>[j]`.
_LISTED = {name: ITEM_NAMES[name] for name in ("options", "pairs", "distractors", "items")}
_ALL_KEYS = sorted(set().union(*_PLACES.values()))


def unknown_key_message(data: Any, loc: Loc) -> str:
    """An unknown key: where it belongs if it is valid elsewhere, else the key it is close to."""
    key, place = str(loc[-1]), _place(loc[:-1])
    shown = excerpt(key)
    if place == "question" and key == "shuffle" and _question_type(data, loc[:-1]) == "ordering":
        return (
            "an ordering question's items are always shuffled for learners (they are written "
            "in the right order): delete `shuffle`"
        )
    if place in ("question", "gap"):
        models = _QUESTION_MODELS if place == "question" else _GAP_MODELS
        kind = _question_type(data, loc[:-1])
        users = [name for name, model in models.items() if key in model.model_fields]
        if kind in models and users:
            only = (
                " or ".join(users) if len(users) < 3 else f"{', '.join(users[:-1])} or {users[-1]}"
            )
            return f"{shown} is not used by {kind} {place}s, only by {only} {place}s"
    homes = [name for name, keys in _PLACES.items() if key in keys and name != place]
    if homes:
        return f"{shown} belongs to the {homes[0]}, not to the {place}; check its indentation"
    return f"unknown key {shown}{did_you_mean(key, [k for k in _ALL_KEYS if k != key])}"


def did_you_mean(written: object, names: Sequence[str]) -> str:
    """` (did you mean 'name'?)` for the one of `names` that `written` is closest to, if any
    is close: spelt with other capitals, hyphens or spaces (`TrueFalse`, `multiple-choice`), or
    with a letter or two wrong."""
    if not isinstance(written, str) or len(written) > 100:
        return ""
    bare = {_bare(name): name for name in names}
    if (same := bare.get(_bare(written))) is not None:
        return f" (did you mean {same!r}?)"
    close = difflib.get_close_matches(written, names, n=1, cutoff=0.75)
    return f" (did you mean {close[0]!r}?)" if close else ""


def _bare(name: str) -> str:
    return "".join(char for char in name.lower() if char.isalnum())


def _place(loc: Loc) -> str:
    """What kind of mapping `loc` is: the quiz, a question, an option or the guide."""
    if not loc:
        return "quiz"
    if loc == ("guide",):
        return "guide"
    if len(loc) == 2 and loc[0] == "questions":
        return "question"
    if len(loc) == 4 and loc[0] == "questions" and loc[2] in _LISTED:
        return _LISTED[str(loc[2])]
    if len(loc) == 4 and loc[2] == "gaps":
        return "gap"
    if len(loc) == 6 and loc[2] == "gaps" and loc[4] == "options":
        return "option"
    return "mapping"


def _question_type(data: Any, loc: Loc) -> object:
    for part in loc:
        if isinstance(data, dict):
            data = data.get(part)
        elif isinstance(data, list) and isinstance(part, int) and 0 <= part < len(data):
            data = data[part]
        else:
            return None
    return data.get("type") if isinstance(data, dict) else None


def schema_message(error: ErrorDetails, loc: Loc) -> str:
    """What pydantic found wrong with a value, said for an author: never pydantic's own words."""
    kind, value = error["type"], error.get("input")
    name = str(loc[-1]) if loc and isinstance(loc[-1], str) else ""
    ctx = error.get("ctx", {})
    if error["loc"][-1:] == ("[key]",):
        return _key_message(value, loc)
    if kind == "union_type":
        return _union_message(name, value, ctx.get("members", []))
    types = ", ".join(QUESTION_TYPES)
    in_gap = len(loc) >= 4 and loc[2] == "gaps"
    if kind == "union_tag_invalid":
        found = value.get("type") if isinstance(value, dict) else value
        if in_gap:
            hint = did_you_mean(found, GAP_TYPES)
            return f"unknown gap type {excerpt(found)}{hint}; use one of {', '.join(GAP_TYPES)}"
        hint = did_you_mean(found, QUESTION_TYPES)
        return f"unknown question type {excerpt(found)}{hint}; use one of {types}"
    if kind == "union_tag_not_found":
        if in_gap:
            return f"a gap needs a `type`: one of {', '.join(GAP_TYPES)}"
        return f"a question needs a `type`: one of {types}"
    if kind == "float_type" and isinstance(value, str):
        return (
            f"{excerpt(value)} is a text, not a number: write the number without quotes, "
            f"like this: {name or 'answer'}: {'0.005' if name == 'tolerance' else '0.9'}"
        )
    if kind == "finite_number":
        return "write a finite number here (not .inf or .nan)"
    if kind == "greater_than_equal" and name == "tolerance":
        return (
            f"a tolerance cannot be negative ({excerpt(value)}): it is how far either side of "
            "the answer a response may be"
        )
    if (bound := _BOUNDS.get(kind)) is not None:
        return _bound_message(name, value, bound, ctx)
    if kind == "string_pattern_mismatch" and name == "lang":
        return f"{excerpt(value)} is not a language code such as `en`, `ur` or `pt-BR`"
    if kind == "string_pattern_mismatch":
        return (
            f"{excerpt(value)} is not a valid id: use lowercase letters, digits and hyphens, "
            "such as `why-shard`"
        )
    if kind in ("enum", "literal_error"):
        hint = did_you_mean(value, _EXPECTED.findall(str(ctx.get("expected", ""))))
        return f"{excerpt(value)}{hint} is not allowed here; use {ctx.get('expected', '')}"
    if kind == "list_type" and name == "answer" and isinstance(value, str | int):
        return f"a multiple_choice answer is a list of option ids, like this: answer: [{value}]"
    if kind == "too_short" and name == "answer":
        return (
            "give at least one answer: the right options' ids (answer: [a]), or for a "
            "short_answer the texts accepted as right (answer: [safetensors])"
        )
    if kind == "too_short":
        least = ctx.get("min_length", 1)
        return f"give at least {least} {_noun(name, least)} here"
    if kind == "too_long":
        most = ctx.get("max_length")
        count = ctx.get("actual_length") or (len(value) if isinstance(value, dict | list) else "")
        return f"there are {count} {_noun(name, 2)}; at most {most} are allowed"
    if kind == "string_too_short":
        return "this text is empty: write the text, or delete the key if it is optional"
    if kind == "string_too_long":
        return (
            f"this text is {len(str(value)):,} characters long; at most {ctx.get('max_length'):,}"
        )
    if kind in ("model_type", "dict_type", "model_attributes_type"):
        return _mapping_expected(value, loc)
    if kind == "string_type" and isinstance(value, int | float) and not isinstance(value, bool):
        shown = excerpt(value, 30)
        if shown.startswith("a number of"):
            return f"this is read as {shown}; write it in quotes"
        how = f'{name}: "{shown}"' if name == "id" else f'"{shown}"'
        return f"{shown} is read as a number; write it in quotes, like this: {how}"
    if kind in ("bool_type", "bool_parsing"):
        return f"write true or false, not {_describe(value)}"
    if kind.startswith("url_"):
        return (
            f"{excerpt(value)} is not a web address: write it in full with https://, like this: "
            "https://example.org/guide"
        )
    if kind in ("value_error", "assertion_error"):  # quizbank's own words, from the model
        return error["msg"].removeprefix("Value error, ").removeprefix("Assertion failed, ")
    return _type_message(kind, name, value)


# The words of each kind of value: what to write instead of a value of another kind.
_KINDS = {
    "string": "a text",
    "list": "a list",
    "int": "a whole number",
    "float": "a number",
    "dict": "a mapping of keys",
}
_TYPE_KINDS = {
    "string_type": "string",
    "list_type": "list",
    "int_type": "int",
    "int_parsing": "int",
    "int_from_float": "int",
    "float_type": "float",
    "float_parsing": "float",
    "dict_type": "dict",
}
_MEMBER_KINDS = {"str": "string", "after": "string"}  # pydantic's names of a union's members
_EXAMPLES = {"list": " (like [a, b], or one item a line after `- `)", "int": " (like 3)"}


def _type_message(kind: str, name: str, value: object) -> str:
    """A value of the wrong kind (or of a kind not foreseen): what to write instead."""
    wanted = _TYPE_KINDS.get(kind)
    if wanted is None:
        return f"{_describe(value)} is not allowed here"
    if value is None:
        return f"this is empty: write {_KINDS[wanted]} here, or delete the key if it is optional"
    example = _EXAMPLES.get(wanted, " (like 0.9)" if wanted == "float" else "")
    return f"write {_KINDS[wanted]} here{example}, not {_describe(value)}"


def _union_message(name: str, value: object, members: Sequence[str]) -> str:
    """A value of none of the kinds a key takes (`variants`: a whole number or a list)."""
    if name == "tolerance":
        return (
            "write the tolerance as a number, like this: tolerance: 0.005 (or, for a question "
            f"with variables, a percentage such as 1%); not {_describe(value)}"
        )
    if name == "variants":
        return (
            f"write how many variants to draw, a whole number such as variants: 10, or the list "
            f"of them, such as variants: [{{p: 1}}, {{p: 2}}]; not {_describe(value)}"
        )
    kinds = []
    for member in members:
        base = member.split("[", 1)[0].removeprefix("constrained-").removeprefix("function-")
        words = _KINDS.get(_MEMBER_KINDS.get(base, base), "a mapping of keys")
        if words not in kinds:
            kinds.append(words)
    return f"write {' or '.join(kinds)} here, not {_describe(value)}"


_BOUNDS = {
    "greater_than": ("gt", "more than"),
    "greater_than_equal": ("ge", "at least"),
    "less_than": ("lt", "less than"),
    "less_than_equal": ("le", "at most"),
}


def _bound_message(name: str, value: object, bound: tuple[str, str], ctx: dict[str, Any]) -> str:
    """A number out of its range, said with the range."""
    limit = ctx.get(bound[0])
    shown = f"{limit:,g}" if isinstance(limit, int | float) else str(limit)
    if name == "points" and bound[0] == "gt":
        return (
            f"a question is worth more than 0 points ({excerpt(value)} is not): write points: 1 "
            "(the default), 0.5 or more"
        )
    what = f"`{name}`" if name else "this number"
    return f"{what} must be {bound[1]} {shown}, not {excerpt(value)}"


_EXPECTED = re.compile(r"'([^']*)'")


def _key_message(key: object, loc: Loc) -> str:
    """A key of a mapping of names (variables, a variant's values, source) not fit to be one."""
    parent = loc[-2] if len(loc) >= 2 else ""
    if parent in ("variables",) or (len(loc) >= 3 and loc[-3] == "variants"):
        return (
            f"{excerpt(key)} is not a variable name: use letters, digits and _ (not a digit "
            "first, at most 32), such as p or batch_size"
        )
    return f"{excerpt(key)} is not allowed as a key here"


def _mapping_expected(value: object, loc: Loc) -> str:
    place = "an option" if len(loc) >= 2 and loc[-2] == "options" else "this"
    if place == "an option" and isinstance(value, str):
        return (
            "an option is a mapping with an id and a text, not just a text; like this: "
            f"- {{id: b, text: {excerpt(value, 30)[1:-1]}}}"
        )
    if len(loc) >= 2 and loc[-2] == "variables":
        return (
            "a variable is a range, like this: {from: 1, to: 5}, or values to choose from, "
            f"like this: {{choices: [2, 4]}}; not {_describe(value)}"
        )
    if place == "an option":
        return f"an option is a mapping of keys (id, text), not {_describe(value)}"
    return f"write a mapping of keys here (`key: value`, one a line), not {_describe(value)}"


def _noun(name: str, count: int) -> str:
    noun = ITEM_NAMES.get(name, "item")
    return noun if count == 1 else f"{noun}s"


def excerpt(value: object, width: int = 40) -> str:
    """A value quoted for a message: a text in quotes and cut short, a number as written
    (or by its size, when it has more digits than Python prints)."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 128:
        return f"a number of about {int(value.bit_length() * 0.30103) + 1:,} digits"
    text = value if isinstance(value, str) else repr(value)
    cut = text if len(text) <= width else text[: width - 1] + "…"
    return repr(cut) if isinstance(value, str) else cut


def _describe(value: object) -> str:
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if value is None:
        return "an empty value"
    return excerpt(value)
