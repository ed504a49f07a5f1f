"""Reading untrusted YAML safely: YAML 1.2 core schema only, positions kept, bounded in size.

The file is composed into YAML nodes by PyYAML's C parser (pure-Python fallback), then turned into
plain Python values by our own constructor, which refuses tags, aliases, duplicate keys and deep
nesting. The nodes are kept so that any later error can be located at a line and column.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode
from yaml.resolver import BaseResolver

from quizbank.diagnostics import Position
from quizbank.paths import format_loc

try:
    from yaml.cyaml import CParser as _Parser  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - depends on how PyYAML was built
    from yaml.composer import Composer
    from yaml.parser import Parser
    from yaml.reader import Reader
    from yaml.scanner import Scanner

    class _Parser(Reader, Scanner, Parser, Composer):  # type: ignore[no-redef]
        def __init__(self, stream: str) -> None:
            Reader.__init__(self, stream)
            Scanner.__init__(self)
            Parser.__init__(self)
            Composer.__init__(self)


MAX_FILE_BYTES = 16 * 1024 * 1024
MAX_DEPTH = 32

_TAG = "tag:yaml.org,2002:"
_STR, _INT, _FLOAT, _BOOL, _NULL = (
    f"{_TAG}{name}" for name in ("str", "int", "float", "bool", "null")
)
_SEQ, _MAP, _MERGE = f"{_TAG}seq", f"{_TAG}map", f"{_TAG}merge"


class _CoreResolver(BaseResolver):
    """The YAML 1.2 core schema: `yes`, `no`, `on`, `off` and 1:30 stay strings."""


_CoreResolver.add_implicit_resolver(_NULL, re.compile(r"^(?:~|null|Null|NULL|)$"), list("~nN"))
_CoreResolver.add_implicit_resolver(_NULL, re.compile(r"^$"), [""])
_CoreResolver.add_implicit_resolver(
    _BOOL, re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF")
)
_CoreResolver.add_implicit_resolver(
    _INT, re.compile(r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$"), list("-+0123456789")
)
_CoreResolver.add_implicit_resolver(
    _FLOAT,
    re.compile(
        r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?"
        r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$"
    ),
    list("-+0123456789."),
)


# The implicit resolvers by the first character of a plain scalar.
_IMPLICIT: dict[str, tuple[tuple[str, re.Pattern[str]], ...]] = {
    first: tuple(resolvers)
    for first, resolvers in _CoreResolver.yaml_implicit_resolvers.items()
    if first is not None
}


class _Composer(_Parser, _CoreResolver):
    def __init__(self, text: str) -> None:
        _Parser.__init__(self, text)
        _CoreResolver.__init__(self)

    def resolve(self, kind: type[Node], value: str | None, implicit: tuple[bool, bool]) -> str:
        """The tag of an untagged node: `BaseResolver.resolve` for the core schema, without
        path resolvers (quizbank adds none). The composer calls it for every node."""
        if kind is ScalarNode:
            if implicit[0] and value is not None:
                for tag, regexp in _IMPLICIT.get(value[:1], ()):
                    if regexp.match(value):
                        return tag
            return _STR
        return _SEQ if kind is SequenceNode else _MAP

    # The composer calls these two around every node, for path resolvers, which quizbank does
    # not use: C functions that ignore their arguments (two, and none) instead of Python
    # methods save about a sixth of the time it takes to read a file.
    descend_resolver = staticmethod(operator.is_)  # type: ignore[assignment]
    ascend_resolver = staticmethod(tuple)  # type: ignore[assignment]


_START = Position()


class YamlError(Exception):
    """A file that cannot be read as a quiz document at all; carries where and why."""

    def __init__(self, message: str, position: Position = _START, field: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.position = position
        self.field = field


def _position(node_or_mark: Node | yaml.Mark) -> Position:
    mark = node_or_mark.start_mark if isinstance(node_or_mark, Node) else node_or_mark
    return Position(mark.line + 1, mark.column + 1)


@dataclass
class YamlDocument:
    """A parsed file: its plain data and the node tree that remembers positions."""

    path: Path
    data: Any
    root: Node | None
    text_hash: int = 0
    root_position: Position = _START

    def release(self) -> None:
        """Let go of the data and the node tree, most of the memory a big file takes; should a
        position be needed later, the file is read again (if it still holds the same text)."""
        self.data = None
        self.root = None

    def locate(self, loc: Sequence[str | int], *, key: bool = False) -> Position:
        """The position of the value at `loc` (or of its key), or of its closest existing parent.

        Path elements that name no key (such as pydantic's union tags) are skipped.
        """
        if not loc:
            return self.root_position
        node = self.root or self._read_again()
        if node is None:
            return self.root_position
        key_node: Node | None = None
        for part in loc:
            child = _child(node, part)
            if child is None:
                continue
            key_node, node = child
        if key and key_node is not None:
            return _position(key_node)
        return _position(node)

    def _read_again(self) -> Node | None:
        try:
            text = read_text(self.path)
            if hash(text) == self.text_hash:
                self.root = _compose(text)
        except (YamlError, OSError):
            pass
        return self.root


def _child(node: Node, part: str | int) -> tuple[Node | None, Node] | None:
    if isinstance(node, MappingNode):
        for key_node, value_node in node.value:
            if isinstance(key_node, ScalarNode) and key_node.value == str(part):
                return key_node, value_node
    elif isinstance(node, SequenceNode) and isinstance(part, int) and 0 <= part < len(node.value):
        return None, node.value[part]
    return None


def read_text(path: Path) -> str:
    """The file's text: size-bounded, strict UTF-8, a leading byte-order mark dropped."""
    size = path.stat().st_size
    if size > MAX_FILE_BYTES:
        raise YamlError(
            f"the file is {size / 2**20:.1f} MiB; a quiz file may be at most "
            f"{MAX_FILE_BYTES // 2**20} MiB (split the quiz into several files)"
        )
    raw = path.read_bytes()
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        column = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        raise YamlError(
            f"the file is not UTF-8 (byte 0x{raw[exc.start]:02x} cannot be decoded); "
            "save it as UTF-8 in your editor",
            Position(line, column),
        ) from None


def load_document(path: Path) -> YamlDocument:
    """Read, compose and construct one YAML file; raise YamlError for anything unusable."""
    text = read_text(path)
    root = _compose(text)
    data = _Constructor().construct_document(root)
    return YamlDocument(path, data, root, hash(text), _position(root))


def _compose(text: str) -> Node:
    composer = _Composer(text)
    try:
        root = composer.get_single_node()
    except yaml.MarkedYAMLError as exc:
        raise _syntax_error(exc) from None
    except RecursionError:
        raise YamlError(f"the document is nested too deeply (at most {MAX_DEPTH} levels)") from None
    finally:
        composer.dispose()
    if root is None:
        raise YamlError("the file is empty; a quiz starts with `id:`, `lang:` and `title:`")
    return root


def _syntax_error(exc: yaml.MarkedYAMLError) -> YamlError:
    mark = exc.problem_mark or exc.context_mark
    problem = exc.problem or "invalid YAML"
    if "maximum nesting depth" in problem:
        problem = f"the document is nested too deeply (at most {MAX_DEPTH} levels)"
    elif exc.context and "expected a single document" in exc.context:
        problem = "the file holds more than one YAML document (`---`); put one quiz in each file"
    else:
        problem = f"YAML syntax error: {problem}"
        if exc.context:
            problem += f" {exc.context}"
        start = exc.context_mark
        if start is not None and mark is not None and start.line != mark.line:
            problem += f" that starts on line {start.line + 1}"
    return YamlError(problem, _position(mark) if mark else Position())


class _NodeError(Exception):
    """A refused node, raised deep in construction; each level adds its part of the path."""

    def __init__(self, message: str, node: Node) -> None:
        super().__init__(message)
        self.message = message
        self.node = node
        self.reversed_loc: list[str | int] = []

    def to_yaml_error(self) -> YamlError:
        return YamlError(self.message, _position(self.node), format_loc(self.reversed_loc[::-1]))


class _Constructor:
    """Turns nodes into dicts, lists and scalars, refusing what a quiz never needs.

    This runs for every node of every file, so it is kept tight: the location of a node (for the
    message) is only assembled when a node is refused, while the error unwinds.
    """

    def __init__(self) -> None:
        self._seen: set[int] = set()

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
        seen = self._seen
        if id(node) in seen:
            raise _NodeError(
                "YAML anchors and aliases (`&name`, `*name`) are not allowed; write the value out",
                node,
            )
        seen.add(id(node))
        kind = node.__class__
        if kind is ScalarNode:
            return node.value if node.tag == _STR else _scalar(node)
        if kind is SequenceNode:
            if node.tag != _SEQ:
                raise _tag_error(node)
            return self._sequence(node.value, depth + 1)
        if kind is not MappingNode or node.tag != _MAP:
            raise _tag_error(node)
        return self._mapping(node.value, depth + 1)

    def _sequence(self, items: list[Node], depth: int) -> list[Any]:
        result: list[Any] = []
        append, construct = result.append, self._construct
        try:
            for item in items:
                append(construct(item, depth))
        except _NodeError as exc:
            exc.reversed_loc.append(len(result))  # the index of the item that failed
            raise
        return result

    def _mapping(self, pairs: list[tuple[Node, Node]], depth: int) -> dict[Any, Any]:
        result: dict[Any, Any] = {}
        construct = self._construct
        for key_node, value_node in pairs:
            key = _key(key_node)
            if key in result:
                earlier = next(k for k, _ in pairs if _key(k) == key)
                error = _NodeError(
                    f"duplicate key {key!r} (first given on line {earlier.start_mark.line + 1}); "
                    "YAML would silently keep only the last one",
                    key_node,
                )
                error.reversed_loc.append(key)
                raise error
            try:
                result[key] = construct(value_node, depth)
            except _NodeError as exc:
                exc.reversed_loc.append(key)
                raise
        return result


def _key(node: Node) -> str | int:
    """A mapping key: a plain scalar, a text or a whole number."""
    if node.__class__ is ScalarNode and node.tag == _STR:
        return node.value  # type: ignore[no-any-return]
    if node.__class__ is not ScalarNode or node.tag == _MERGE:
        raise _NodeError("a key must be a plain word such as `title`", node)
    key = _scalar(node)
    if not isinstance(key, str | int):
        raise _NodeError(f"{node.value!r} cannot be a key", node)
    return key


def _scalar(node: Node) -> Any:
    tag, value = node.tag, node.value
    if tag == _STR:
        return value
    if tag == _NULL:
        return None
    if tag == _BOOL:
        return value.lower() == "true"
    if tag == _INT:
        return _to_int(value)
    if tag == _FLOAT:
        return _to_float(value)
    raise _tag_error(node)


def _tag_error(node: Node) -> _NodeError:
    tag = node.tag.replace(_TAG, "!!")
    return _NodeError(
        f"the YAML tag {tag!r} is not allowed; "
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
