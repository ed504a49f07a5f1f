"""Moodle's texts that are not HTML: plain text as Markdown that shows every character, and
Moodle's auto-format as the HTML Moodle makes of it."""

from __future__ import annotations

import re

from quizbank.importer.findings import Findings
from quizbank.importer.markdown_text import (
    BACKTICK_RUNS,
    CLEAN_CHARACTERS,
    escape,
    split_lines,
)


def from_plain(value: str, inline: bool, findings: Findings, code: bool = False) -> str:
    """Plain text, every character shown: lines are line breaks, blank lines paragraphs."""
    lines = [line.strip() for line in split_lines(value.translate(CLEAN_CHARACTERS))]
    if inline:
        words = [line for line in lines if line]
        if len(words) > 1:
            findings.lost("a line break (made one line)")
        return _code_kept(" ".join(words)) if code else escape(" ".join(words))
    paragraphs: list[list[str]] = [[]]
    for line in lines:
        if line:
            paragraphs[-1].append(line)
        elif paragraphs[-1]:
            paragraphs.append([])
    return "\n\n".join(
        "\\\n".join(escape(line, pipes=len(lines) > 1) for line in paragraph)
        for paragraph in paragraphs
        if paragraph
    )


def _code_kept(line: str) -> str:
    """A line of plain text escaped, but for its code spans (text between two runs of as many
    backticks, as a reader of plain text writes code, and as quizbank's Moodle export writes a
    match's code), kept as code: each run closes at the next run of its length, if any."""
    if "`" not in line:
        return escape(line)
    runs = list(BACKTICK_RUNS.finditer(line))
    following: list[int | None] = [None] * len(runs)  # the next run of the same length
    last: dict[int, int] = {}
    for index in range(len(runs) - 1, -1, -1):
        size = len(runs[index][0])
        following[index] = last.get(size)
        last[size] = index
    out: list[str] = []
    at = index = 0
    while index < len(runs):
        close = following[index]
        if close is None:
            index += 1
            continue
        start, end = runs[index].start(), runs[close].end()
        out += [_escaped_between(line, at, start), line[start:end]]
        at, index = end, close + 1
    return "".join(out) + _escaped_between(line, at, len(line))


def _escaped_between(line: str, start: int, end: int) -> str:
    before = line[start - 1] if start else "\n"
    after = line[end] if end < len(line) else "\n"
    return escape(line[start:end], before, after)


def moodle_html(text: str) -> str:
    """FORMAT_MOODLE as HTML, as Moodle's text_to_html() makes it: no whitespace between tags,
    a line break beside a tag a space; then blank lines are paragraphs, other newlines line
    breaks."""
    text = "\n".join(split_lines(text))
    text = re.sub(r">\s+<", "><", text)
    text = re.sub(r"\n<", " <", text)
    text = re.sub(r">\n", "> ", text)
    paragraphs = re.split(r"\n[ \t]*\n\s*", text.strip())
    return "".join(f"<p>{p.replace(chr(10), '<br>')}</p>" for p in paragraphs if p.strip())
