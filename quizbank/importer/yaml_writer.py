"""One quiz as the YAML text of its file, in the style of the bundled content.

`quiz_yaml` takes a quiz in the authoring format as plain values (dictionaries, lists, texts,
numbers and booleans) and writes it as a person would: the `yaml-language-server` schema line,
the keys in the model's order, questions one after the other with a blank line between them,
`tags` and lists of answers as flow lists, the entries of pairs, distractors, items and simple
gaps on one line each (`- {id: a, text: …}`), and values equal to the model's default left out.

The writing is PyYAML's own emitter, told which style each value takes:

- a text is plain where both YAML 1.1 (PyYAML's `safe_load`) and the YAML 1.2 core schema
  (quizbank's loader) read it back as that very text, double-quoted otherwise, and a text of
  several lines is a literal block (`|`, `|-`) unless a block cannot hold it exactly (spaces at
  the end of a line, several line breaks at its end, characters YAML must escape);
- a text holding a gap (`[[id]]`) is quoted, as every cloze prompt of the bundled content, the
  README and the fixtures is;
- every script is written as itself (allow_unicode); only what YAML cannot carry raw is escaped,
  and a quoted text with a character beyond U+FFFF, which PyYAML's double-quoted writer would
  escape, is single-quoted instead;
- long lines are never folded.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

import yaml
from pydantic import BaseModel
from yaml.emitter import ScalarAnalysis
from yaml.events import ScalarEvent, SequenceEndEvent
from yaml.nodes import ScalarNode

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

__all__ = ["quiz_yaml"]

_STR = "tag:yaml.org,2002:str"
# Line breaks a literal block would not give back as they are: YAML reads a carriage return and
# NEL inside a block as a line feed (and an editor shows U+2028/U+2029 as line ends).
_ESCAPED_BREAKS = re.compile("[\r\x85\u2028\u2029]")
_ASTRAL = re.compile("[\U00010000-\U0010ffff]")
# A text of one line that PyYAML's analysis finds fit to be plain in a block: only characters
# written as they are (no line break, tab, control character, BOM or U+10FFFF), no indicator
# or space at its start, no `---` or `...` there, no `: ` nor ` #` inside, no space nor `:` at
# its end. The characters listed at its start may start a plain text too; such texts are
# left to PyYAML's analysis.
_ORDINARY = re.compile(
    r"(?![-?:#,\[\]{}&*!|>'\"%@` ]|\.\.\.)"
    r"(?!.*(?:: | #|[: ]\Z))"
    "[\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd\U00010000-\U0010fffe]+"
)
# What makes such a text unfit to be plain in a flow collection (`[a, b]`, `{id: a}`).
_FLOW_INDICATOR = re.compile(r"[,?\[\]{}:]")
_LINE_BREAK = re.compile("[\n\x85\u2028\u2029]")
_NUMBER = (int, float)


class _FlowList(list[Any]):
    """A list written on one line: `[a, b]`."""


class _FlowMap(dict[str, Any]):
    """A mapping written on one line: `{id: a, text: …}`."""


class _Digest(str):
    """A value of `source`, quoted in single quotes when it looks like a number, as
    `quizbank translated` writes it (`{prompt: '571390', explanation: c3426a}`)."""

    __slots__ = ()


# --- The order of keys and the defaults left out, from the model ---


_Layout = tuple[tuple[str, ...], dict[str, Any]]


def _layout(model: type[BaseModel]) -> _Layout:
    """A model's keys in field order, and the defaults of its optional fields."""
    defaults = {
        name: field.get_default(call_default_factory=True)
        for name, field in model.model_fields.items()
        if not field.is_required()
    }
    return tuple(model.model_fields), defaults


# The keys every question type has; each type's own keys go between `prompt` and `shuffle`.
_COMMON = set.intersection(*(set(model.model_fields) for model in QUESTION_MODELS.values()))
_HEAD = ("id", "type", "prompt")
_TAIL = ("shuffle", "points", "explanation", "source")


def _question_layout(model: type[BaseModel]) -> _Layout:
    fields, defaults = _layout(model)
    own = tuple(name for name in fields if name not in _COMMON and name not in _TAIL)
    return (*_HEAD, *own, *_TAIL), defaults


_QUIZ = _layout(Quiz)
_QUESTIONS = {kind: _question_layout(model) for kind, model in QUESTION_MODELS.items()}
_UNKNOWN_QUESTION: _Layout = ((*_HEAD, *_TAIL), {})
_NO_LAYOUT: _Layout = ((), {})
_GUIDE = _layout(Guide)
_OPTION = _layout(Option)
_GAP_OPTION = _layout(GapOption)
_GAPS = {
    "short_answer": _layout(ShortAnswerGap),
    "numerical": _layout(NumericalGap),
    "single_choice": _layout(ChoiceGap),
}
# Lists whose entries are written one a line when all their values are one-line scalars.
_ONE_LINE_ENTRIES = {"pairs": _layout(Pair), "distractors": _layout(Distractor)}
_ITEMS = _layout(OrderItem)


def _same(value: Any, default: Any) -> bool:
    """Whether `value` is the default: `True` is not the number 1, nor 1 the boolean `True`."""
    if isinstance(value, bool) or isinstance(default, bool):
        return type(value) is type(default) and value == default
    if isinstance(value, _NUMBER) and isinstance(default, _NUMBER):
        return value == default
    return bool(value == default)


def _picked(
    data: Mapping[str, Any], order: Sequence[str], defaults: Mapping[str, Any]
) -> list[tuple[str, Any]]:
    """The keys of `data` in `order`, then the others as given; without the values that are
    None or equal the default."""
    keys = [key for key in order if key in data]
    keys += [key for key in data if key not in order]
    return [
        (key, data[key])
        for key in keys
        if data[key] is not None and not (key in defaults and _same(data[key], defaults[key]))
    ]


# --- The quiz as values tagged with their style ---


def _scalar(value: Any) -> Any:
    if isinstance(value, bool):
        return value
    if isinstance(value, str):
        return str.__str__(value)  # a StrEnum's value, not its subclass
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        # 2, not 2.0; a float as large as 2**53 stays one (1e300 is not 301 digits).
        return int(value) if value.is_integer() and abs(value) < 2**53 else value
    raise TypeError(f"a quiz holds texts, numbers, booleans, lists and mappings, not {value!r}")


def _is_scalar(value: Any) -> bool:
    return isinstance(value, str | int | float)  # bool is an int


def _one_line(value: Any) -> bool:
    """A scalar, or a list of scalars, that fits on a line of a flow collection."""
    if isinstance(value, list | tuple):
        return all(_is_scalar(item) and _one_line(item) for item in value)
    if isinstance(value, str):
        return "\n" not in value and _ESCAPED_BREAKS.search(value) is None
    return _is_scalar(value)


def _flat(entry: Mapping[str, Any]) -> bool:
    """Whether each value of a mapping fits on one line of a flow mapping."""
    return all(_one_line(value) for value in entry.values() if value is not None)


def _value(value: Any) -> Any:
    """Any value: a list of one-line scalars on one line, other collections as blocks."""
    if isinstance(value, Mapping):
        return {_scalar(key): _value(item) for key, item in value.items() if item is not None}
    if isinstance(value, list | tuple):
        items = [_value(item) for item in value]
        return _FlowList(items) if _one_line(value) else items
    return _scalar(value)


def _mapping(
    data: Mapping[str, Any],
    layout: _Layout,
    *,
    flow: bool = False,
) -> dict[str, Any]:
    written = {key: _value(value) for key, value in _picked(data, *layout)}
    return _FlowMap(written) if flow else written


def _entries(value: Any, layout: _Layout, *, one_line: bool) -> Any:
    """A list of options, pairs, items…: each entry in its model's order; with `one_line`, each
    on one line when every entry's values fit there (`- {id: a, text: …}`)."""
    if not isinstance(value, list | tuple) or not all(isinstance(e, Mapping) for e in value):
        return _value(value)
    flow = one_line and all(_flat(entry) for entry in value)
    return [_mapping(entry, layout, flow=flow) for entry in value]


def _gaps(value: Any) -> Any:
    """A cloze's gaps by id: a gap with options as a block, the others on one line each."""
    if not isinstance(value, Mapping):
        return _value(value)
    written: dict[Any, Any] = {}
    for gap_id, gap in value.items():
        if not isinstance(gap, Mapping):
            written[_scalar(gap_id)] = _value(gap)
            continue
        kind = gap.get("type")
        layout = _GAPS.get(kind, _NO_LAYOUT) if isinstance(kind, str) else _NO_LAYOUT
        entry = _mapping(gap, layout, flow=_flat(gap))
        if "options" in entry:
            entry["options"] = _entries(gap["options"], _GAP_OPTION, one_line=False)
        written[_scalar(gap_id)] = entry
    return written


def _question(question: Mapping[str, Any]) -> dict[str, Any]:
    kind = question.get("type")
    order, defaults = (
        _QUESTIONS.get(kind, _UNKNOWN_QUESTION) if isinstance(kind, str) else _UNKNOWN_QUESTION
    )
    gaps = question.get("gaps")
    if kind == "cloze" and isinstance(gaps, Mapping):
        # Without `points`, a cloze is worth one point per gap (the model's _one_point_per_gap).
        defaults = {**defaults, "points": max(len(gaps), 1)}
    written: dict[str, Any] = {}
    for key, value in _picked(question, order, defaults):
        if key == "options":
            written[key] = _entries(value, _OPTION, one_line=False)
        elif key in _ONE_LINE_ENTRIES:
            written[key] = _entries(value, _ONE_LINE_ENTRIES[key], one_line=True)
        elif key == "items":
            written[key] = _entries(value, _ITEMS, one_line=True)
        elif key == "gaps":
            written[key] = _gaps(value)
        elif key == "source" and isinstance(value, Mapping) and _flat(value):
            written[key] = _FlowMap(
                (name, _Digest(digest) if isinstance(digest, str) else _scalar(digest))
                for name, digest in value.items()
            )
        else:
            written[key] = _value(value)
    return written


def _quiz(quiz: Mapping[str, Any]) -> dict[str, Any]:
    written: dict[str, Any] = {}
    for key, value in _picked(quiz, *_QUIZ):
        if key == "questions" and isinstance(value, list | tuple):
            written[key] = [
                _question(question) if isinstance(question, Mapping) else _value(question)
                for question in value
            ]
        elif key == "guide" and isinstance(value, Mapping):
            written[key] = _mapping(value, _GUIDE)
        else:
            written[key] = _value(value)
    return written


# --- PyYAML, told the style ---

# The YAML 1.2 core schema's scalars (quizbank's loader, quizbank/yamlsource.py): a plain scalar
# that either schema reads as something other than a text must be quoted. YAML 1.1, which the
# dumper knows, reads `yes` and `2024-01-01` otherwise; the core schema reads `1e3`, `0o17` and
# `+.5` as numbers.
_CORE_SCALARS = (
    ("tag:yaml.org,2002:null", r"^(?:~|null|Null|NULL|)$", "~nN"),
    ("tag:yaml.org,2002:bool", r"^(?:true|True|TRUE|false|False|FALSE)$", "tTfF"),
    ("tag:yaml.org,2002:int", r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$", "-+0123456789"),
    (
        "tag:yaml.org,2002:float",
        r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?"
        r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$",
        "-+0123456789.",
    ),
)


class _Dumper(yaml.SafeDumper):
    """PyYAML's safe dumper: lists indented under their key, a blank line between the items of
    a list at the top level (the questions), double quotes rather than single."""

    def increase_indent(self, flow: bool = False, indentless: bool = False) -> None:
        super().increase_indent(flow, False)  # `questions:` then `  - id: …`, never indentless

    def expect_block_sequence_item(self, first: bool = False) -> None:
        # indents holds the document's (None) and the top mapping's (0): this is a list that is
        # a value of the top mapping. The break goes between items, never inside a scalar; the
        # scalar before it ends with at most one line break (see _style), so a blank line after
        # it is no part of it.
        if not first and not isinstance(self.event, SequenceEndEvent) and len(self.indents) == 2:
            if self.column:
                self.write_line_break()
            self.write_line_break()
        super().expect_block_sequence_item(first)

    def analyze_scalar(self, scalar: str) -> ScalarAnalysis:
        """PyYAML's analysis, but a tab inside a text of several lines leaves it a literal
        block (code indented with tabs), as YAML allows; a tab still rules out plain and
        single-quoted scalars, and a tab at the end of a line rules out the block too."""
        if "\t" not in scalar:
            return self._analyze_scalar(scalar)
        analysis = super().analyze_scalar(scalar.replace("\t", " "))
        analysis.scalar = scalar
        analysis.allow_flow_plain = analysis.allow_block_plain = False
        analysis.allow_single_quoted = False
        analysis.allow_block = analysis.allow_block and "\n" in scalar
        return analysis

    def _analyze_scalar(self, scalar: str) -> ScalarAnalysis:
        """PyYAML's analysis, found at once for an ordinary text of one line (most texts of a
        quiz, and every key): PyYAML's own goes through the text a character at a time in
        Python, the greatest cost of writing a quiz."""
        if self.allow_unicode and _ORDINARY.fullmatch(scalar):
            return ScalarAnalysis(
                scalar=scalar,
                empty=False,
                multiline=False,
                allow_flow_plain=_FLOW_INDICATOR.search(scalar) is None,
                allow_block_plain=True,
                allow_single_quoted=True,
                allow_double_quoted=True,
                allow_block=True,
            )
        return super().analyze_scalar(scalar)

    def write_plain(self, text: str, split: bool = True) -> None:
        """PyYAML's writing of a plain scalar, at once for a text of one line that is not to be
        folded (never, as quiz_yaml writes): PyYAML's own goes a character at a time."""
        if (
            not text
            or _LINE_BREAK.search(text)
            or (split and self.column + len(text) > self.best_width)
        ):
            super().write_plain(text, split)
            return
        if self.root_context:
            self.open_ended = True
        if not self.whitespace:
            text = f" {text}"
        self.column += len(text)
        self.whitespace = self.indention = False
        self.stream.write(text.encode(self.encoding) if self.encoding else text)

    def determine_block_hints(self, text: str) -> str:
        """A block whose first line starts with a tab states its indentation (`|2`): without
        it, libyaml takes the tab for indentation and refuses the file."""
        hints: str = super().determine_block_hints(text)
        if text.startswith("\t"):
            return f"{self.best_indent}{hints}"
        return hints

    def choose_scalar_style(self) -> str:
        style: str = super().choose_scalar_style()
        assert isinstance(self.event, ScalarEvent) and self.analysis is not None
        text = self.event.value
        one_line = "\n" not in text and _ESCAPED_BREAKS.search(text) is None
        # PyYAML's double-quoted writer escapes every character beyond U+FFFF (`\U0001F600`):
        # a text of one line that holds one is single-quoted, which writes it as it is.
        astral = one_line and _ASTRAL.search(text) is not None and self.analysis.allow_single_quoted
        if style == "'" and self.event.style != "'" and not astral:
            return '"'
        if style == '"' and astral and not self.canonical:
            return "'"
        return style


def _represent_str(dumper: _Dumper, data: str) -> ScalarNode:
    return dumper.represent_scalar(_STR, data, style=_style(data))


def _style(text: str) -> str | None:
    """The style asked of the emitter, which falls back to double quotes where a literal block
    cannot hold the text, and chooses plain or quoted for a text of one line."""
    if _ESCAPED_BREAKS.search(text):
        return '"'
    if "\n" in text:
        # A text ending with several line breaks would be a block that keeps them (`|+`),
        # which would also keep the blank line that follows it.
        return '"' if text.endswith("\n\n") or text == "\n" else "|"
    if "[[" in text:
        return '"'
    return None


def _represent_digest(dumper: _Dumper, data: _Digest) -> ScalarNode:
    text = str.__str__(data)
    number_like = dumper.resolve(ScalarNode, text, (True, False)) != _STR  # type: ignore[no-untyped-call]
    return dumper.represent_scalar(_STR, text, style="'" if number_like else _style(text))


def _represent_flow_list(dumper: _Dumper, data: _FlowList) -> yaml.SequenceNode:
    return dumper.represent_sequence("tag:yaml.org,2002:seq", data, flow_style=True)


def _represent_flow_map(dumper: _Dumper, data: _FlowMap) -> yaml.MappingNode:
    return dumper.represent_mapping("tag:yaml.org,2002:map", data, flow_style=True)


def _represent_list(dumper: _Dumper, data: list[Any]) -> yaml.SequenceNode:
    return dumper.represent_sequence("tag:yaml.org,2002:seq", data, flow_style=False)


def _represent_dict(dumper: _Dumper, data: dict[str, Any]) -> yaml.MappingNode:
    return dumper.represent_mapping("tag:yaml.org,2002:map", data, flow_style=False)


for _tag, _pattern, _first in _CORE_SCALARS:
    _Dumper.add_implicit_resolver(_tag, re.compile(_pattern), list(_first))
_Dumper.add_representer(str, _represent_str)
_Dumper.add_representer(_Digest, _represent_digest)
_Dumper.add_representer(_FlowList, _represent_flow_list)
_Dumper.add_representer(_FlowMap, _represent_flow_map)
_Dumper.add_representer(list, _represent_list)
_Dumper.add_representer(dict, _represent_dict)


def quiz_yaml(quiz: Mapping[str, Any], schema_path: str) -> str:
    """The text of the YAML file of `quiz` (the authoring format as plain values), whose first
    line points the editor to the JSON schema at `schema_path` (relative to the file, e.g.
    `../../schema/quiz.schema.json`).

    Keys in the model's order (other keys after, as given), values that are None or equal the
    model's default left out (`shuffle: true`, `points: 1`, a cloze's one point per gap,
    `tolerance: 0`, `case_sensitive: false`, no distractors, no tags). Raises TypeError for a
    value that is not a text, a number, a boolean, a list or a mapping, and ValueError for a
    schema path of more than one line."""
    if _ESCAPED_BREAKS.search(schema_path) or "\n" in schema_path:
        raise ValueError(f"the schema path is one line: {schema_path!r}")
    body = yaml.dump(
        _quiz(quiz),
        Dumper=_Dumper,
        sort_keys=False,
        allow_unicode=True,
        width=float("inf"),
        default_flow_style=False,
    )
    return f"# yaml-language-server: $schema={schema_path}\n{body}"
