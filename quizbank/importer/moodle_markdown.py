"""Moodle's Markdown as quizbank's: its formulas, lone dollars and images of the question's
files rewritten, its code kept as it is."""

from __future__ import annotations

import re
from pathlib import PurePosixPath
from urllib.parse import unquote

from quizbank.importer.findings import Findings
from quizbank.importer.markdown_text import (
    BACKTICK_RUNS,
    CLEAN_CHARACTERS,
    destination,
    escape,
    split_lines,
    split_maths,
)

_FENCE = re.compile(r" {0,3}(`{3,}|~{3,})")
_DOUBLED = re.compile(r"\\\\([()\[\]])")
_LONE_DOLLAR = re.compile(r"(?<![\\$])\$(?!\$)")
_MARKDOWN_IMAGE = re.compile(r"!\[([^\]\n]*)\]\(\s*@@PLUGINFILE@@/([^)\s]+)\s*\)")
_RAW_TAG = re.compile(r"</?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?/?>|<!--")


def from_markdown(value: str, inline: bool, findings: Findings) -> str:
    """Moodle's Markdown as quizbank's: formulas `\\(…\\)` (or `\\\\(…\\\\)`, as Moodle's
    Markdown needs them), `\\[…\\]` and `$$…$$` as `$…$` and `$$…$$`, a lone `$` escaped (it is
    text in Moodle), images of the question's files at their path; code as it is."""
    text = "\n".join(split_lines(value.translate(CLEAN_CHARACTERS))).strip()
    out: list[str] = []
    last = 0
    raw = False
    for start, end in _markdown_code(text):
        prose = _markdown_prose(text[last:start], findings)
        raw = raw or _RAW_TAG.search(prose) is not None
        out += (prose, text[start:end])
        last = end
    prose = _markdown_prose(text[last:], findings)
    raw = raw or _RAW_TAG.search(prose) is not None
    out.append(prose)
    result = "".join(out)
    if raw:
        findings.lost("raw HTML (shown as text)")
    if inline and "\n" in result:
        findings.lost("a line break (made one line)")
        result = " ".join(line.strip() for line in result.split("\n") if line.strip())
    return result


def _markdown_code(text: str) -> list[tuple[int, int]]:
    """Where Markdown has code: fenced blocks, then code spans (a backtick run closed by the
    next run of its length), found in linear time."""
    ranges: list[tuple[int, int]] = []
    fence: str | None = None
    start = pos = 0
    prose: list[tuple[int, int]] = []
    for line in text.splitlines(keepends=True):
        found = _FENCE.match(line)
        if fence is None and found:
            fence, start = found[1], pos
        elif (
            fence is not None
            and found
            and found[1].startswith(fence)
            and not line[found.end() :].strip()
        ):
            ranges.append((start, pos + len(line)))
            fence = None
        elif fence is None:
            prose.append((pos, pos + len(line)))
        pos += len(line)
    if fence is not None:
        ranges.append((start, len(text)))
    for begin, end in _joined(prose):
        runs = [(m.start(), m.end()) for m in BACKTICK_RUNS.finditer(text, begin, end)]
        closer: list[int] = [-1] * len(runs)
        seen: dict[int, int] = {}
        for index in range(len(runs) - 1, -1, -1):
            size = runs[index][1] - runs[index][0]
            closer[index] = seen.get(size, -1)
            seen[size] = index
        index = 0
        while index < len(runs):
            if closer[index] < 0:
                index += 1
                continue
            ranges.append((runs[index][0], runs[closer[index]][1]))
            index = closer[index] + 1
    return sorted(ranges)


def _joined(ranges: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Adjacent ranges made one."""
    out: list[tuple[int, int]] = []
    for start, end in ranges:
        if out and out[-1][1] == start:
            out[-1] = (out[-1][0], end)
        else:
            out.append((start, end))
    return out


def _markdown_prose(text: str, findings: Findings) -> str:
    if not text:
        return text
    text = _DOUBLED.sub(r"\\\1", text)
    pieces = []
    for content, display in split_maths(text):
        if display is None:
            content = _LONE_DOLLAR.sub(r"\\$", content)
            content = _MARKDOWN_IMAGE.sub(lambda found: _markdown_image(found, findings), content)
            pieces.append(content)
        elif content:
            pieces.append(f"$${content}$$" if display else f"${content}$")
    return "".join(pieces)


def _markdown_image(found: re.Match[str], findings: Findings) -> str:
    """An image of the question's files in Moodle's Markdown, at its path."""
    name, alt = unquote(found[2]), found[1].strip()
    path = findings.image_path(name)
    if path is None:
        findings.lost(f"an image that is not in the file ({name})")
        return alt or escape(PurePosixPath(name).stem, "!", "\n")
    if not alt:
        alt = escape(PurePosixPath(name).stem or name, "[", "]", brackets=True)
        findings.lost(f"an image without alt text ({name})")
    findings.shown(name)
    return f"![{alt}]({destination(path)})"
