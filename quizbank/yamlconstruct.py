"""Turning a quiz file's YAML nodes into plain Python values, refusing what a quiz never needs.

Tags other than the core schema's, anchors and aliases, duplicate keys, keys that are not plain
words, nesting past MAX_DEPTH and whole numbers past MAX_DIGITS are refused, each at its node
and with the path of keys that leads to it.
"""

from __future__ import annotations

from typing import Any

from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from quizbank.paths import format_loc
from quizbank.sourcefile import YamlError
from quizbank.yamlcompose import (
    BOOL,
    CORE_PATTERNS,
    FLOAT,
    INT,
    MAP,
    MAX_DEPTH,
    MERGE,
    NULL,
    SEQ,
    STR,
    TAG,
    position,
)

MAX_DIGITS = 100  # of a whole number


def construct(root: Node, *, anchors: bool = True) -> Any:
    """The plain data of a document's root node; a YamlError, located, for a refused node.

    Without `anchors` (a text with no `&` followed by a name, as every anchor is written, can
    hold no alias), no node can be met twice, and a text value is taken where it is met,
    without a call of its own.
    """
    return _Constructor(anchors).construct_document(root)


class _NodeError(Exception):
    """A refused node, raised deep in construction; each level adds its part of the path."""

    def __init__(self, message: str, node: Node) -> None:
        super().__init__(message)
        self.message = message
        self.node = node
        self.reversed_loc: list[str | int] = []

    def to_yaml_error(self) -> YamlError:
        return YamlError(self.message, position(self.node), format_loc(self.reversed_loc[::-1]))


class _Constructor:
    """Turns nodes into dicts, lists and scalars, refusing what a quiz never needs.

    This runs for every node of every file, so it is kept tight: the location of a node (for the
    message) is only assembled when a node is refused, while the error unwinds.
    """

    def __init__(self, anchors: bool = True) -> None:
        self._seen: set[int] = set()
        self._anchors = anchors

    def construct_document(self, root: Node) -> Any:
        try:
            return self._construct(root, 0)
        except _NodeError as exc:
            raise exc.to_yaml_error() from None

    def _construct(self, node: Node, depth: int) -> Any:
        if depth > MAX_DEPTH:
            raise _NodeError(
                f"the document is nested too deeply (at most {MAX_DEPTH} levels)", node
            )
        if self._anchors:
            self._see(node)
        kind = node.__class__
        if kind is ScalarNode:
            return node.value if node.tag == STR else _scalar(node)
        if kind is SequenceNode:
            if node.tag != SEQ:
                raise _tag_error(node)
            return self._sequence(node.value, depth + 1)
        if kind is not MappingNode or node.tag != MAP:
            raise _tag_error(node)
        return self._mapping(node.value, depth + 1)

    def _see(self, node: Node) -> None:
        """Refuse a node met before: an alias of it."""
        if id(node) in self._seen:
            raise _NodeError(
                "YAML anchors and aliases (`&name`, `*name`) are not allowed; write the value out",
                node,
            )
        self._seen.add(id(node))

    def _sequence(self, items: list[Node], depth: int) -> list[Any]:
        result: list[Any] = []
        append, construct = result.append, self._construct
        direct = not self._anchors and depth <= MAX_DEPTH  # a text value taken where it is met
        try:
            for item in items:
                if direct and item.__class__ is ScalarNode and item.tag == STR:
                    append(item.value)
                else:
                    append(construct(item, depth))
        except _NodeError as exc:
            exc.reversed_loc.append(len(result))  # the index of the item that failed
            raise
        return result

    def _mapping(self, pairs: list[tuple[Node, Node]], depth: int) -> dict[Any, Any]:
        result: dict[Any, Any] = {}
        construct = self._construct
        direct = not self._anchors and depth <= MAX_DEPTH  # a text value taken where it is met
        for key_node, value_node in pairs:
            key = (
                key_node.value
                if key_node.__class__ is ScalarNode and key_node.tag == STR
                else _key(key_node)
            )
            if key in result:
                earlier = next(k for k, _ in pairs if _key(k) == key).start_mark.line + 1
                error = _NodeError(
                    f"duplicate key {_excerpt(key)} (first given on line {earlier}); "
                    "YAML would silently keep only the last one",
                    key_node,
                )
                error.reversed_loc.append(key)
                raise error
            if direct and value_node.__class__ is ScalarNode and value_node.tag == STR:
                result[key] = value_node.value
                continue
            try:
                result[key] = construct(value_node, depth)
            except _NodeError as exc:
                exc.reversed_loc.append(key)
                raise
        return result


def _key(node: Node) -> str:
    """A mapping key: a scalar, taken as the text it is written as (`0x10` stays `0x10`)."""
    if node.__class__ is not ScalarNode or node.tag == MERGE:
        raise _NodeError("a key must be a plain word such as `title`", node)
    if node.tag != STR:
        _scalar(node)  # an explicit tag that does not fit is refused here too
    return node.value  # type: ignore[no-any-return]


def _scalar(node: Node) -> Any:
    """A scalar's value by its tag; a value its (explicit) tag does not describe is refused."""
    tag, value = node.tag, node.value
    if tag == STR:
        return value
    pattern = CORE_PATTERNS.get(tag)
    if pattern is None:
        raise _tag_error(node)
    if not pattern.match(value):
        name = tag.replace(TAG, "!!")
        raise _NodeError(
            f"{_excerpt(value)} is not a {_TAG_NAMES[tag]}, as its tag `{name}` says; "
            "remove the tag or correct the value",
            node,
        )
    if tag == NULL:
        return None
    if tag == BOOL:
        return value.lower() == "true"
    if tag == INT and len(value) > MAX_DIGITS:  # no quiz counts that far; Python could not
        raise _NodeError(  # even print it (a hexadecimal one converts, then fails in messages)
            f"the number {_excerpt(value)} has too many digits ({len(value)}); "
            "write it in quotes if it is text",
            node,
        )
    try:
        return _to_int(value) if tag == INT else _to_float(value)
    except ValueError:  # more digits than Python converts
        raise _NodeError(
            f"the number {_excerpt(value)} has too many digits ({len(value)}); "
            "write it in quotes if it is text",
            node,
        ) from None


_TAG_NAMES = {NULL: "null", BOOL: "true or false", INT: "whole number", FLOAT: "number"}


def _excerpt(value: str, width: int = 30) -> str:
    """A value quoted for a message, cut short."""
    return repr(value if len(value) <= width else value[: width - 1] + "…")


def _tag_error(node: Node) -> _NodeError:
    tag = node.tag.replace(TAG, "!!")
    return _NodeError(
        f"the YAML tag {_excerpt(tag, 60)} is not allowed; "
        "quiz files use plain text, numbers, lists and mappings",
        node,
    )


def _to_int(value: str) -> int:
    if value.startswith("0o"):
        return int(value[2:], 8)
    if value.startswith("0x"):
        return int(value[2:], 16)
    return int(value)


def _to_float(value: str) -> float:
    lowered = value.lower()
    if lowered.endswith("inf"):
        return float("-inf") if lowered.startswith("-") else float("inf")
    if lowered == ".nan":
        return float("nan")
    return float(value)
