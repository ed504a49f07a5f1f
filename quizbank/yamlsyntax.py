"""What a YAML syntax error in a quiz file means, in an author's words, at the place to fix.

PyYAML says where it gave up, in its own terms; these messages say what went wrong (a tab, a
quote left open, a text that needed quotes, an indentation that does not match, a character
YAML does not allow) and how to write it, at the line and column where the mistake is.
"""

from __future__ import annotations

import re
from typing import Any

import yaml

from quizbank.diagnostics import Position, printable
from quizbank.sourcefile import YamlError
from quizbank.yamlcompose import MAX_DEPTH, PARSER, position

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


def reader_error(exc: yaml.YAMLError, text: str) -> YamlError:
    """PyYAML's reader refused the text: a character YAML does not allow, named and located."""
    if (found := _NOT_YAML.search(text)) is not None:
        return _character_error(text, found.start())
    return YamlError(f"the file cannot be read as YAML: {printable(str(exc))}")


def _character_error(text: str, index: int) -> YamlError:
    char = text[index]
    line_start = text.rfind("\n", 0, index) + 1
    name = _CHARACTER_NAMES.get(char, "a control character")
    return YamlError(
        f"the file contains the character U+{ord(char):04X} ({name}), which quiz files "
        "cannot hold; delete it",
        Position(text.count("\n", 0, index) + 1, index - line_start + 1),
    )


def syntax_error(exc: yaml.MarkedYAMLError, text: str) -> YamlError:
    """A syntax error PyYAML found in `text`, said for an author, with the fix where known."""
    mark = exc.problem_mark or exc.context_mark
    where = position(mark) if mark else Position()
    problem = exc.problem or "invalid YAML"
    lines = text.split("\n", where.line)
    line = lines[where.line - 1] if mark and where.line <= len(lines) else ""
    if "maximum nesting depth" in problem:
        return YamlError(f"the document is nested too deeply (at most {MAX_DEPTH} levels)", where)
    if exc.context and "expected a single document" in exc.context:
        return YamlError(
            "the file holds more than one YAML document (`---`); put one quiz in each file",
            where,
        )
    if (tab := _tab_error(problem, line, where)) is not None:
        return tab
    if (quote := _open_quote(exc, text, where)) is not None:
        return quote
    if (plain := _plain_words(problem, exc.context or "", line, where)) is not None:
        return YamlError(plain, where)
    problem = f"YAML syntax error: {problem}"
    if exc.context:
        problem += f" {exc.context}"
    start = exc.context_mark
    if start is not None and mark is not None and start.line != mark.line:
        problem += f" that starts on line {start.line + 1}"
    return YamlError(problem, where)


_INDENTATION_PROBLEMS = ("did not find expected key", "did not find expected '-' indicator")


def _tab_error(problem: str, line: str, where: Position) -> YamlError | None:
    """A tab where YAML wants spaces (in a line's indentation, or where a token must start):
    said so, at the tab."""
    indentation = line[: len(line) - len(line.lstrip(" \t"))]
    at_mark = line[where.column - 1 : where.column] == "\t"
    if "\t" in indentation and (
        "tab character" in problem or at_mark or problem.startswith(_INDENTATION_PROBLEMS)
    ):
        column = indentation.index("\t") + 1
    elif at_mark or "tab character" in problem:
        column = where.column
    else:
        return None
    return YamlError(
        "quiz files indent with spaces, not tabs: replace the tab with spaces "
        f"(line {where.line} has a tab at column {column})",
        Position(where.line, column),
    )


_QUOTES = {'"': "double", "'": "single"}


def _open_quote(exc: yaml.MarkedYAMLError, text: str, where: Position) -> YamlError | None:
    """A quote left open, said at the quote: YAML reads on to the next quote of its kind (or to
    the end of the file) and gives up there, often many lines later."""
    start = exc.context_mark
    if "quoted scalar" in (exc.context or "") and start is not None:
        if not (exc.problem or "").startswith("found unexpected end of stream"):
            return None
        _, key = _quoted_before(text, position(start))
        quote = text[start.index : start.index + 1]
        return _quote_error(quote, position(start), key, "the end of the file")
    token, key = _quoted_before(text, where)
    if (
        token is None
        or token.start_mark.line == token.end_mark.line
        or token.end_mark.line + 1 != where.line
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
    return _quote_error(quote, position(token.start_mark), key, runs_to)


def _quote_error(quote: str, where: Position, key: str, runs_to: str) -> YamlError:
    return YamlError(
        f"this quote ({quote}) is never closed: end the text with {quote} on this line; as "
        f"written, the text runs on to {runs_to}",
        where,
        key,
    )


def _quoted_before(text: str, where: Position) -> tuple[Any, str]:
    """The last text in quotes that starts before `where` (a ScalarToken, or None), and the
    key of the last value that does (or ""). The file is scanned again up to there, on the way
    to an error only."""
    scanner = PARSER(text)
    quoted, key, last_scalar, value_key = None, "", "", ""
    try:
        while (token := scanner.get_token()) is not None:
            if position(token.start_mark) >= where:
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


def _plain_words(problem: str, context: str, line: str, where: Position) -> str | None:
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
        char = line[where.column - 1 : where.column]
        name = "a backtick (`)" if char == "`" else repr(char) if char else "this character"
        return f"a text that starts with {name} must be in quotes{how}"
    if problem.startswith(_INDENTATION_PROBLEMS):
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
