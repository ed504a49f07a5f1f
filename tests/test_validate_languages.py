"""Rules across languages: same questions, order, types, option ids and answer key everywhere."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import QUIZ, Run, edit, line_of

from quizbank.project import check_quiz, discover

UR = f"content/ur/{QUIZ}.yaml"
EN = f"content/en/{QUIZ}.yaml"


def _question_block(path: Path, question_id: str) -> str:
    text = path.read_text(encoding="utf-8")
    match = re.search(rf"  - id: {question_id}\n(?:(?!  - id: ).*\n)*", text)
    assert match, question_id
    return match.group()


def test_answer_keys_differ(bank: Path, cli: Callable[..., Run]) -> None:
    line = edit(bank / "ur" / f"{QUIZ}.yaml", "answer: d", "answer: a")
    run = cli("validate")
    assert run.errors == [
        f"{UR}:{line}:13: error: question 1 (why-shard), answer: the answer is 'a' here but 'd' in {EN}"
    ]


def test_question_missing_in_one_language(bank: Path, cli: Callable[..., Run]) -> None:
    path = bank / "ur" / f"{QUIZ}.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace(_question_block(path, "index-file"), ""), encoding="utf-8")
    run = cli("validate")
    assert run.errors == [
        f"{UR}:8:1: error: questions: question 'index-file' is missing: it is question 5 in {EN}"
    ]


def test_extra_question_in_one_language(bank: Path, cli: Callable[..., Run]) -> None:
    path = bank / "ur" / f"{QUIZ}.yaml"
    block = _question_block(path, "why-shard")
    path.write_text(
        path.read_text(encoding="utf-8") + "\n" + block.replace("id: why-shard", "id: bonus"),
        encoding="utf-8",
    )
    run = cli("validate")
    line = line_of(path, "- id: bonus")
    assert run.errors == [
        f"{UR}:{line}:9: error: question 9 (bonus), id: question 'bonus' is not in {EN}: "
        "every language asks the same questions"
    ]


def test_reordered_questions(bank: Path, cli: Callable[..., Run]) -> None:
    path = bank / "ur" / f"{QUIZ}.yaml"
    first, second = _question_block(path, "why-shard"), _question_block(path, "resume-state")
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace(first + second, second + first), encoding="utf-8")
    run = cli("validate")
    assert run.errors == [
        f"{UR}:9:9: error: question 1 (resume-state), id: questions are in another order than in {EN}: "
        "expected 'why-shard' here, found 'resume-state'"
    ]


def test_option_ids_differ(bank: Path, cli: Callable[..., Run]) -> None:
    path = bank / "ur" / f"{QUIZ}.yaml"
    edit(path, "      - id: c\n", "      - id: e\n")
    run = cli("validate")
    assert run.errors == [
        f"{UR}:12:5: error: question 1 (why-shard), options: the option ids are a, b, e, d here but "
        f"a, b, c, d in {EN}: keep the same options in the same order"
    ]


def test_question_type_differs(bank: Path, cli: Callable[..., Run]) -> None:
    path = bank / "ur" / f"{QUIZ}.yaml"
    line = edit(path, "type: single_choice\n", "type: multiple_choice\n")
    edit(path, "answer: d\n", "answer: [d]\n")
    run = cli("validate")
    assert run.errors == [
        f"{UR}:{line}:11: error: question 1 (why-shard), type: the type is 'multiple_choice' here but "
        f"'single_choice' in {EN}"
    ]


def test_quiz_missing_in_a_language_warns_and_strict_fails(
    bank: Path, cli: Callable[..., Run]
) -> None:
    (bank / "ur" / "extra.yaml").write_text(
        (bank / "ur" / f"{QUIZ}.yaml")
        .read_text(encoding="utf-8")
        .replace(f"id: {QUIZ}", "id: extra"),
        encoding="utf-8",
    )
    run = cli("validate")
    assert run.code == 0
    warning = "content/ur/extra.yaml:2:1: warning: quiz 'extra' has no 'en' version (en/extra.yaml)"
    assert warning in run.lines
    assert run.lines[-1] == "0 errors, 1 warning in 3 files"
    strict = cli("validate", "--strict")
    assert strict.code == 1
    assert warning.replace("warning", "error", 1) in strict.lines


@pytest.mark.parametrize("workers", [1, 2])
def test_files_checked_by_workers_find_the_same(bank: Path, workers: int) -> None:
    """A big quiz's language files are loaded by forked workers (one after the other, or side by
    side): same models, same problems, placed at the same lines (the parent reads a file again
    to place a cross-language one)."""
    group = discover([bank]).groups[0]
    languages = ["en", "ur"]
    serial = check_quiz(group, languages, strict=False, workers=0)
    in_workers = check_quiz(group, languages, strict=False, workers=workers)
    assert serial.ok and len(serial.translations) == 2
    assert in_workers.translations == serial.translations
    edit(bank / "ur" / f"{QUIZ}.yaml", "answer: d", "answer: a")
    edit(bank / "ur" / f"{QUIZ}.yaml", "کے چیک پوائنٹس کو شارڈز", "کی چوکی کو شارڈز")
    serial = check_quiz(group, languages, strict=False, workers=0)
    in_workers = check_quiz(group, languages, strict=False, workers=workers)
    assert [d.field for d in serial.diagnostics] == [
        "question 1 (why-shard), prompt",
        "question 1 (why-shard), answer",
    ]
    assert in_workers.diagnostics == serial.diagnostics
