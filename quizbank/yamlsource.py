"""Reading untrusted YAML safely into a located document: YAML 1.2 core schema only, positions
kept, bounded in size.

`load_document` reads the file (sourcefile.py), composes it into nodes (yamlcompose.py), turns
them into plain Python values (yamlconstruct.py, which refuses tags, aliases, duplicate keys and
deep nesting) and puts a syntax error in an author's words (yamlsyntax.py). The nodes are kept
so that any later error can be located at a line and column.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from quizbank.diagnostics import Position
from quizbank.paths import Loc
from quizbank.sourcefile import MAX_FILE_BYTES, YamlError, decode, read_bytes, read_text
from quizbank.yamlcompose import compose, position
from quizbank.yamlconstruct import construct
from quizbank.yamlsyntax import reader_error, syntax_error

# The way every command reads a quiz file, from here with the document.
__all__ = [
    "HEAD_BYTES",
    "MAX_FILE_BYTES",
    "TEXT_KEYS",
    "YamlDocument",
    "YamlError",
    "child_node",
    "comments_in_text",
    "decode",
    "load_document",
    "read_bytes",
]

_START = Position()
# The bytes a document keeps of the start of its file: what the checks of the first lines read
# (the mark `quizbank new` leaves, the editor's schema line) without opening the file again.
HEAD_BYTES = 4096


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
    head: bytes = b""  # the first HEAD_BYTES bytes of the file

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
        return [position(item) for item in node.value]

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
            return position(key_node)
        return position(node)

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


def load_document(path: Path) -> YamlDocument:
    """Read, compose and construct one YAML file; raise YamlError for anything unusable."""
    raw = read_bytes(path)
    text = decode(raw)
    root = _compose(text)
    data = construct(root, anchors=_ANCHOR.search(text) is not None)
    document = YamlDocument(
        path, data, root, hash(text), position(root), text=text, head=raw[:HEAD_BYTES]
    )
    document.digest = hashlib.sha256(raw).hexdigest()
    if _comment_after_value(text):
        document.comments_in_text = list(comments_in_text(root, text))
    return document


# Where a text may hold an anchor (`&name`: the name follows at once), hence aliases of it.
_ANCHOR = re.compile(r"&\S")


def _compose(text: str) -> Node:
    """The root node of `text`; a YamlError in an author's words for anything unusable."""
    try:
        return compose(text)
    except yaml.MarkedYAMLError as exc:
        raise syntax_error(exc, text) from None
    except yaml.YAMLError as exc:  # a reader error: a character YAML does not allow
        raise reader_error(exc, text) from None


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
