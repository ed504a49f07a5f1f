"""Reading untrusted YAML safely: YAML 1.2 core schema only, positions kept, bounded in size.

The file is composed into YAML nodes by PyYAML's C parser (pure-Python fallback), then turned into
plain Python values by our own constructor, which refuses tags, aliases, duplicate keys and deep
nesting. The nodes are kept so that any later error can be located at a line and column.
"""

from __future__ import annotations

import hashlib
import operator
import os
import re
import stat
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode
from yaml.resolver import BaseResolver

from quizbank.diagnostics import Position, printable
from quizbank.paths import Loc, format_loc
from quizbank.yamlvalues import COUNT_FROM, MAX_VALUES, values_at_most

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
MAX_DIGITS = 100  # of a whole number

_TAG = "tag:yaml.org,2002:"
_STR, _INT, _FLOAT, _BOOL, _NULL = (
    f"{_TAG}{name}" for name in ("str", "int", "float", "bool", "null")
)
_SEQ, _MAP, _MERGE = f"{_TAG}seq", f"{_TAG}map", f"{_TAG}merge"


class _CoreResolver(BaseResolver):
    """The YAML 1.2 core schema: `yes`, `no`, `on`, `off` and 1:30 stay strings."""


# The core schema's scalars, by tag: what a plain scalar must look like to be one.
_CORE_PATTERNS = {
    _NULL: re.compile(r"^(?:~|null|Null|NULL|)$"),
    _BOOL: re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"),
    _INT: re.compile(r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$"),
    _FLOAT: re.compile(
        r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?"
        r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$"
    ),
}
for _tag, _first in ((_NULL, "~nN"), (_BOOL, "tTfF"), (_INT, "-+0123456789")):
    _CoreResolver.add_implicit_resolver(_tag, _CORE_PATTERNS[_tag], list(_first))
_CoreResolver.add_implicit_resolver(_NULL, _CORE_PATTERNS[_NULL], [""])
_CoreResolver.add_implicit_resolver(_FLOAT, _CORE_PATTERNS[_FLOAT], list("-+0123456789."))


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
    digest: str = ""  # SHA-256 of the exact bytes parsed
    comments_in_text: list[tuple[Loc, Position]] = field(default_factory=list)
    text: str | None = None  # the source, until released

    def release(self) -> None:
        """Let go of the data and the node tree, most of the memory a big file takes; should a
        position be needed later, the file is read again (if it still holds the same text)."""
        self.data = None
        self.root = None
        self.text = None

    def locate_within(self, loc: Sequence[str | int], written: str) -> Position:
        """The position of `written` (part of a text, as the author typed it) inside the value
        at `loc`; the value's own position when the YAML writes it otherwise (escaped, folded)."""
        node = self._node(loc)
        start = self.locate(loc)
        if node is None or self.text is None or not written:
            return start
        source = self.text[node.start_mark.index : node.end_mark.index]
        at = source.find(written)
        if at < 0:
            return start
        line_start = source.rfind("\n", 0, at)
        if line_start < 0:
            return Position(start.line, start.column + at)
        return Position(start.line + source.count("\n", 0, at), at - line_start)

    def item_positions(self, loc: Sequence[str | int]) -> list[Position]:
        """The position of each item of the sequence at `loc` (none if it is not one)."""
        node = self._node(loc)
        if not isinstance(node, SequenceNode):
            return []
        return [_position(item) for item in node.value]

    def _node(self, loc: Sequence[str | int]) -> Node | None:
        node = self.root
        for part in loc:
            if node is None:
                return None
            child = child_node(node, part)
            if child is None:
                return None
            node = child[1]
        return node

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
            child = child_node(node, part)
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


def child_node(node: Node, part: str | int) -> tuple[Node | None, Node] | None:
    """A mapping's key and value for the key `part`, or (None, item) of a sequence's index `part`;
    None when there is none."""
    if isinstance(node, MappingNode):
        for key_node, value_node in node.value:
            if isinstance(key_node, ScalarNode) and key_node.value == str(part):
                return key_node, value_node
    elif isinstance(node, SequenceNode) and isinstance(part, int) and 0 <= part < len(node.value):
        return None, node.value[part]
    return None


def read_text(path: Path) -> str:
    """The file's text: size-bounded, strict UTF-8, a leading byte-order mark dropped."""
    return decode(read_bytes(path))


def read_bytes(path: Path) -> bytes:
    """The bytes of a quiz file, the one way every command reads one: a regular file only (a
    link to one followed), read at most `MAX_FILE_BYTES`. A named pipe, a device, a socket or a
    folder is refused without being opened (a pipe would be waited on, a device read without
    end), and a file larger than a quiz file may be, unread."""
    _refuse_unless_regular(os.stat(path).st_mode)
    # Not blocking: should a pipe replace the file since, opening it does not wait for a writer.
    descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
    with os.fdopen(descriptor, "rb") as file:
        info = os.fstat(descriptor)
        _refuse_unless_regular(info.st_mode)
        if info.st_size > MAX_FILE_BYTES:
            raise YamlError(
                f"the file is {info.st_size / 2**20:.1f} MiB; a quiz file may be at most "
                f"{MAX_FILE_BYTES // 2**20} MiB (split the quiz into several files)"
            )
        raw = file.read(MAX_FILE_BYTES + 1)
    if len(raw) > MAX_FILE_BYTES:  # it grew since
        raise YamlError(f"the file grew past {MAX_FILE_BYTES // 2**20} MiB while it was read")
    return raw


_KINDS = (
    (stat.S_ISFIFO, "a named pipe"),
    (stat.S_ISCHR, "a device"),
    (stat.S_ISBLK, "a device"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISDIR, "a folder"),
)


def _refuse_unless_regular(mode: int) -> None:
    if stat.S_ISREG(mode):
        return
    what = next((name for test, name in _KINDS if test(mode)), "a special file")
    raise YamlError(f"this is {what}, not an ordinary file; a quiz file must be an ordinary file")


def decode(raw: bytes) -> str:
    """Strict UTF-8 text; a YamlError, located, for a byte that is not. (The characters YAML does
    not allow are found by the parser, and located then: see _compose.)"""
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")) or (
        b"\x00" in raw and raw.count(0) * 4 >= len(raw)
    ):
        raise YamlError("the file is saved as UTF-16; save it as UTF-8 in your editor")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line_start = raw.rfind(b"\n", 0, exc.start) + 1
        before = raw[line_start : exc.start].decode("utf-8", errors="replace")
        raise YamlError(
            f"the file is not UTF-8 (byte 0x{raw[exc.start]:02x} cannot be decoded); "
            "save it as UTF-8 in your editor",
            Position(raw.count(b"\n", 0, exc.start) + 1, len(before) + 1),
        ) from None
    return text


# What YAML 1.2 does not allow in a file (it allows tab, line feed, carriage return, NEL and the
# printable characters), and names for the ones an author may meet.
_NOT_YAML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x84\x86-\x9f\ud800-\udfff\ufffe\uffff]")
_CHARACTER_NAMES = {
    "\x00": "null",
    "\x07": "bell",
    "\x08": "backspace",
    "\x0b": "vertical tab",
    "\x0c": "form feed",
    "\x1b": "escape",
    "\x7f": "delete",
    "\ufffe": "a non-character",
    "\uffff": "a non-character",
}


def _character_error(text: str, index: int) -> YamlError:
    char = text[index]
    line_start = text.rfind("\n", 0, index) + 1
    name = _CHARACTER_NAMES.get(char, "a control character")
    return YamlError(
        f"the file contains the character U+{ord(char):04X} ({name}), which quiz files "
        "cannot hold; delete it",
        Position(text.count("\n", 0, index) + 1, index - line_start + 1),
    )


def load_document(path: Path) -> YamlDocument:
    """Read, compose and construct one YAML file; raise YamlError for anything unusable."""
    raw = read_bytes(path)
    text = decode(raw)
    root = _compose(text)
    data = _Constructor().construct_document(root)
    document = YamlDocument(path, data, root, hash(text), _position(root), text=text)
    document.digest = hashlib.sha256(raw).hexdigest()
    if _comment_after_value(text):
        document.comments_in_text = list(comments_in_text(root, text))
    return document


def _compose(text: str) -> Node:
    if len(text) > COUNT_FROM and (values := values_at_most(text)) > MAX_VALUES:
        raise YamlError(
            f"the file holds too many values (about {values:,}; a quiz file may hold about "
            f"{MAX_VALUES:,}): split the quiz into several files"
        )
    composer = _Composer(text)
    try:
        root = composer.get_single_node()
    except yaml.MarkedYAMLError as exc:
        raise _syntax_error(exc, text) from None
    except yaml.YAMLError as exc:  # a reader error: a character YAML does not allow
        if (found := _NOT_YAML.search(text)) is not None:
            raise _character_error(text, found.start()) from None
        raise YamlError(f"the file cannot be read as YAML: {printable(str(exc))}") from None
    except RecursionError:
        raise YamlError(f"the document is nested too deeply (at most {MAX_DEPTH} levels)") from None
    finally:
        composer.dispose()
    if root is None:
        raise YamlError("the file is empty; a quiz starts with `id:`, `lang:` and `title:`")
    return root


def _syntax_error(exc: yaml.MarkedYAMLError, text: str) -> YamlError:
    mark = exc.problem_mark or exc.context_mark
    position = _position(mark) if mark else Position()
    problem = exc.problem or "invalid YAML"
    lines = text.split("\n", position.line)
    line = lines[position.line - 1] if mark and position.line <= len(lines) else ""
    if "maximum nesting depth" in problem:
        return YamlError(
            f"the document is nested too deeply (at most {MAX_DEPTH} levels)", position
        )
    if exc.context and "expected a single document" in exc.context:
        return YamlError(
            "the file holds more than one YAML document (`---`); put one quiz in each file",
            position,
        )
    if (tab := _tab_error(problem, line, position)) is not None:
        return tab
    if (quote := _open_quote(exc, text, position)) is not None:
        return quote
    if (plain := _plain_words(problem, exc.context or "", line, position)) is not None:
        return YamlError(plain, position)
    problem = f"YAML syntax error: {problem}"
    if exc.context:
        problem += f" {exc.context}"
    start = exc.context_mark
    if start is not None and mark is not None and start.line != mark.line:
        problem += f" that starts on line {start.line + 1}"
    return YamlError(problem, position)


_INDENTATION_PROBLEMS = ("did not find expected key", "did not find expected '-' indicator")


def _tab_error(problem: str, line: str, position: Position) -> YamlError | None:
    """A tab where YAML wants spaces (in a line's indentation, or where a token must start):
    said so, at the tab."""
    indentation = line[: len(line) - len(line.lstrip(" \t"))]
    at_mark = line[position.column - 1 : position.column] == "\t"
    if "\t" in indentation and (
        "tab character" in problem or at_mark or problem.startswith(_INDENTATION_PROBLEMS)
    ):
        column = indentation.index("\t") + 1
    elif at_mark or "tab character" in problem:
        column = position.column
    else:
        return None
    return YamlError(
        "quiz files indent with spaces, not tabs: replace the tab with spaces "
        f"(line {position.line} has a tab at column {column})",
        Position(position.line, column),
    )


_QUOTES = {'"': "double", "'": "single"}


def _open_quote(exc: yaml.MarkedYAMLError, text: str, position: Position) -> YamlError | None:
    """A quote left open, said at the quote: YAML reads on to the next quote of its kind (or to
    the end of the file) and gives up there, often many lines later."""
    start = exc.context_mark
    if "quoted scalar" in (exc.context or "") and start is not None:
        if not (exc.problem or "").startswith("found unexpected end of stream"):
            return None
        _, key = _quoted_before(text, _position(start))
        quote = text[start.index : start.index + 1]
        return _quote_error(quote, _position(start), key, "the end of the file")
    token, key = _quoted_before(text, position)
    if (
        token is None
        or token.start_mark.line == token.end_mark.line
        or token.end_mark.line + 1 != position.line
    ):  # not a text in quotes that swallowed the lines after it, up to the error
        return None
    closed = token.end_mark
    quote = text[token.start_mark.index]
    runs_to = f"the {quote} on line {closed.line + 1}"
    before, after = text[closed.index - 2 : closed.index - 1], text[closed.index : closed.index + 1]
    if quote == "'" and before.isalpha() and after.isalpha():
        runs_to += (
            " (an apostrophe ends a text in single quotes: write it twice, '', or put the text "
            "in double quotes)"
        )
    return _quote_error(quote, _position(token.start_mark), key, runs_to)


def _quote_error(quote: str, position: Position, key: str, runs_to: str) -> YamlError:
    return YamlError(
        f"this quote ({quote}) is never closed: end the text with {quote} on this line; as "
        f"written, the text runs on to {runs_to}",
        position,
        key,
    )


def _quoted_before(text: str, position: Position) -> tuple[Any, str]:
    """The last text in quotes that starts before `position` (a ScalarToken, or None), and the
    key of the last value that does (or ""). The file is scanned again up to there, on the way
    to an error only."""
    scanner = _Parser(text)
    quoted, key, last_scalar, value_key = None, "", "", ""
    try:
        while (token := scanner.get_token()) is not None:
            if _position(token.start_mark) >= position:
                break
            if isinstance(token, yaml.ValueToken):
                value_key = last_scalar
            elif isinstance(token, yaml.ScalarToken):
                last_scalar = token.value
                if token.style in _QUOTES:
                    quoted, key = token, value_key
    except yaml.YAMLError:  # where the file stops making sense: what came before is enough
        pass
    finally:
        scanner.dispose()
    return (quoted, key) if quoted is not None else (None, value_key)


_KEY_VALUE = re.compile(r"^(\s*(?:-\s+)?[\w-]+:\s+)(.*?)\s*$")


def _plain_words(problem: str, context: str, line: str, position: Position) -> str | None:
    """What a PyYAML syntax error means for an author, with the fix, where one is known."""
    quoted = _quoted_line(line)
    how = f", like this: {quoted}" if quoted else ""
    if problem.startswith("mapping values are not allowed"):
        return f'a text that contains ": " must be in quotes{how}'
    if problem.startswith(("found undefined alias", "found unknown alias")) or (
        "scanning an alias" in context
    ):
        return f"a text that starts with * must be in quotes (*name is a YAML alias){how}"
    if problem.startswith("found character that cannot start any token"):
        char = line[position.column - 1 : position.column]
        name = "a backtick (`)" if char == "`" else repr(char) if char else "this character"
        return f"a text that starts with {name} must be in quotes{how}"
    if problem.startswith(("did not find expected key", "did not find expected '-' indicator")):
        return (
            "the indentation of this line does not match the lines above it: indent each key "
            "of a mapping, and each `-` of a list, by the same number of spaces"
        )
    return None


def _quoted_line(line: str) -> str:
    """The line with its value in double quotes, or "" when it is not a `key: value` line."""
    match = _KEY_VALUE.match(line)
    if match is None or not match.group(2):
        return ""
    value = match.group(2).replace("\\", "\\\\").replace('"', '\\"')
    if len(value) > 60:
        value = value[:57] + "…"
    return f'{match.group(1).strip()} "{value}"'


def _comment_after_value(text: str) -> bool:
    """Whether a `#` follows a space after something on its line (a comment after a value, or
    text in quotes): found by `#`, which is rare, rather than by scanning for the pair."""
    at = text.find("#")
    for _ in range(1000):  # then a file full of `#`: one regex scan instead
        if at < 0:
            return False
        line_start = text.rfind("\n", 0, at) + 1
        if at and text[at - 1] in " \t" and text[line_start:at].strip():
            return True
        at = text.find("#", at + 1)
    return _COMMENT_AFTER_VALUE.search(text) is not None


_COMMENT_AFTER_VALUE = re.compile(r"\S[ \t]+#")


def comments_in_text(root: Node, text: str) -> Iterator[tuple[Loc, Position]]:
    """Where an unquoted text of a text field is followed by a ` #` comment on its last line,
    which YAML drops: the text's location and the comment's position."""
    lines = text.split("\n")
    stack: list[tuple[Node, Loc]] = [(root, ())]
    while stack:
        node, loc = stack.pop()
        if isinstance(node, SequenceNode):
            stack.extend((item, (*loc, index)) for index, item in enumerate(node.value))
        elif isinstance(node, MappingNode):
            for key_node, value_node in node.value:
                if not isinstance(key_node, ScalarNode):
                    continue
                key: str = key_node.value
                if not isinstance(value_node, ScalarNode):
                    stack.append((value_node, (*loc, key)))
                elif key in TEXT_KEYS and not value_node.style:  # plain: None, or "" (libyaml)
                    where = _comment_after(value_node, lines)
                    if where is not None:
                        yield (*loc, key), where


# The keys whose values are prose, where a ` #` is far likelier meant as text than as a comment.
TEXT_KEYS = frozenset(
    {"title", "description", "prompt", "text", "explanation", "feedback"}
    | {"feedback_true", "feedback_false"}
)


def _comment_after(node: ScalarNode, lines: list[str]) -> Position | None:
    mark = node.end_mark
    # A short look past the text: a line of a flow list may be megabytes long.
    rest = lines[mark.line][mark.column : mark.column + 80] if mark.line < len(lines) else ""
    stripped = rest.lstrip(" \t")
    if not stripped.startswith("#"):
        return None
    return Position(mark.line + 1, mark.column + len(rest) - len(stripped) + 1)


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
                earlier = next(k for k, _ in pairs if _key(k) == key).start_mark.line + 1
                error = _NodeError(
                    f"duplicate key {_excerpt(key)} (first given on line {earlier}); "
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


def _key(node: Node) -> str:
    """A mapping key: a scalar, taken as the text it is written as (`0x10` stays `0x10`)."""
    if node.__class__ is not ScalarNode or node.tag == _MERGE:
        raise _NodeError("a key must be a plain word such as `title`", node)
    if node.tag != _STR:
        _scalar(node)  # an explicit tag that does not fit is refused here too
    return node.value  # type: ignore[no-any-return]


def _scalar(node: Node) -> Any:
    """A scalar's value by its tag; a value its (explicit) tag does not describe is refused."""
    tag, value = node.tag, node.value
    if tag == _STR:
        return value
    pattern = _CORE_PATTERNS.get(tag)
    if pattern is None:
        raise _tag_error(node)
    if not pattern.match(value):
        name = tag.replace(_TAG, "!!")
        raise _NodeError(
            f"{_excerpt(value)} is not a {_TAG_NAMES[tag]}, as its tag `{name}` says; "
            "remove the tag or correct the value",
            node,
        )
    if tag == _NULL:
        return None
    if tag == _BOOL:
        return value.lower() == "true"
    if tag == _INT and len(value) > MAX_DIGITS:  # no quiz counts that far; Python could not
        raise _NodeError(  # even print it (a hexadecimal one converts, then fails in messages)
            f"the number {_excerpt(value)} has too many digits ({len(value)}); "
            "write it in quotes if it is text",
            node,
        )
    try:
        return _to_int(value) if tag == _INT else _to_float(value)
    except ValueError:  # more digits than Python converts
        raise _NodeError(
            f"the number {_excerpt(value)} has too many digits ({len(value)}); "
            "write it in quotes if it is text",
            node,
        ) from None


_TAG_NAMES = {_NULL: "null", _BOOL: "true or false", _INT: "whole number", _FLOAT: "number"}


def _excerpt(value: str, width: int = 30) -> str:
    """A value quoted for a message, cut short."""
    return repr(value if len(value) <= width else value[: width - 1] + "…")


def _tag_error(node: Node) -> _NodeError:
    tag = node.tag.replace(_TAG, "!!")
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
