"""What validate prints is safe for a terminal and for JSON readers, whatever the content holds."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import QUIZ, Run, edit

from quizbank.diagnostics import Diagnostic, Position, Severity

HOSTILE = ["\x1b[2J\x1b[H", "a\nb", "a\rb", "\x9b31m", "\x7f", "\u2028", "\u202e", "qu\udcc3"]


@pytest.mark.parametrize("text", HOSTILE)
def test_control_characters_in_a_diagnostic_are_shown_escaped(text: str) -> None:
    diagnostic = Diagnostic(f"content/en/{text}.yaml", Position(1, 1), Severity.ERROR, text, text)
    for shown in (diagnostic.format(), json.dumps(diagnostic.as_json(), ensure_ascii=False)):
        assert text not in shown
        assert not any(ord(c) < 0x20 or 0x7F <= ord(c) < 0xA0 for c in shown)
    assert repr(text)[1:-1] in diagnostic.format()


def test_a_key_holding_an_escape_sequence_cannot_clear_the_terminal(
    bank: Path, cli: Callable[..., Run]
) -> None:
    edit(
        bank / "en" / f"{QUIZ}.yaml", "level: intermediate", 'level: intermediate\n"\\e[2J\\e[H": 1'
    )
    run = cli("validate")
    assert run.code == 1
    assert "\x1b" not in run.out
    assert "unknown key '\\x1b[2J\\x1b[H'" in run.out


def test_a_key_holding_a_newline_cannot_forge_a_summary_line(
    bank: Path, cli: Callable[..., Run]
) -> None:
    edit(
        bank / "en" / f"{QUIZ}.yaml",
        "level: intermediate",
        'level: intermediate\n"x\\n0 errors, 0 warnings in 2 files": 1',
    )
    run = cli("validate")
    assert run.code == 1
    assert run.lines[-1].startswith("1 error")
    assert not any(line.startswith("0 errors") for line in run.lines)
    for form in ("--output-format", "json"), ():
        payload = cli("validate", *form).out
        assert "\n0 errors" not in payload


def test_a_file_name_that_is_not_utf8_is_printed_escaped(
    bank: Path, cli: Callable[..., Run]
) -> None:
    name = os.fsdecode(b"qu\xc3(iz.yaml")
    (bank / "en" / name).write_text("id: x\n", encoding="utf-8")
    text = cli("validate")
    assert text.code == 1
    assert "content/en/qu\\udcc3(iz.yaml:1:1: error: " in text.out
    report = cli("validate", "--output-format", "json")
    paths = {d["path"] for d in json.loads(report.out)["diagnostics"]}
    assert "content/en/qu\\udcc3(iz.yaml" in paths
