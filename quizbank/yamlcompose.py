"""Composing a quiz file's YAML into nodes, by the YAML 1.2 core schema and within limits.

PyYAML's C parser (pure-Python fallback) composes the text into nodes that remember their line
and column; the resolver is the core schema's (`yes`, `no`, `on`, `off` and 1:30 stay strings).
A file with too many values, nested too deeply, or empty, is refused; a syntax error is left to
the caller to put in words (yamlsyntax.py).
"""

from __future__ import annotations

import operator
import re

import yaml
from yaml.nodes import Node, ScalarNode, SequenceNode
from yaml.resolver import BaseResolver

from quizbank.diagnostics import Position
from quizbank.sourcefile import YamlError
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


# The parser and scanner of a text (yamlsyntax.py scans a text again with it, to find a quote).
PARSER = _Parser


MAX_DEPTH = 32

TAG = "tag:yaml.org,2002:"
STR, INT, FLOAT, BOOL, NULL = (f"{TAG}{name}" for name in ("str", "int", "float", "bool", "null"))
SEQ, MAP, MERGE = f"{TAG}seq", f"{TAG}map", f"{TAG}merge"


class _CoreResolver(BaseResolver):
    """The YAML 1.2 core schema: `yes`, `no`, `on`, `off` and 1:30 stay strings."""


# The core schema's scalars, by tag: what a plain scalar must look like to be one.
CORE_PATTERNS = {
    NULL: re.compile(r"^(?:~|null|Null|NULL|)$"),
    BOOL: re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"),
    INT: re.compile(r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$"),
    FLOAT: re.compile(
        r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?"
        r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$"
    ),
}
for _tag, _first in ((NULL, "~nN"), (BOOL, "tTfF"), (INT, "-+0123456789")):
    _CoreResolver.add_implicit_resolver(_tag, CORE_PATTERNS[_tag], list(_first))
_CoreResolver.add_implicit_resolver(NULL, CORE_PATTERNS[NULL], [""])
_CoreResolver.add_implicit_resolver(FLOAT, CORE_PATTERNS[FLOAT], list("-+0123456789."))


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
            return STR
        return SEQ if kind is SequenceNode else MAP

    # The composer calls these two around every node, for path resolvers, which quizbank does
    # not use: C functions that ignore their arguments (two, and none) instead of Python
    # methods save about a sixth of the time it takes to read a file.
    descend_resolver = staticmethod(operator.is_)  # type: ignore[assignment]
    ascend_resolver = staticmethod(tuple)  # type: ignore[assignment]


def position(node_or_mark: Node | yaml.Mark) -> Position:
    """Where a node (or a parser's mark) is, 1-based."""
    mark = node_or_mark.start_mark if isinstance(node_or_mark, Node) else node_or_mark
    return Position(mark.line + 1, mark.column + 1)


def compose(text: str) -> Node:
    """The root node of a file's text; a YamlError for a file too big, too deep or empty. A
    syntax error is PyYAML's, raised as it is (yamlsyntax.py says it in words)."""
    if len(text) > COUNT_FROM and (values := values_at_most(text)) > MAX_VALUES:
        raise YamlError(
            f"the file holds too many values (about {values:,}; a quiz file may hold about "
            f"{MAX_VALUES:,}): split the quiz into several files"
        )
    composer = _Composer(text)
    try:
        root = composer.get_single_node()
    except RecursionError:
        raise YamlError(f"the document is nested too deeply (at most {MAX_DEPTH} levels)") from None
    finally:
        composer.dispose()
    if root is None:
        raise YamlError("the file is empty; a quiz starts with `id:`, `lang:` and `title:`")
    return root
