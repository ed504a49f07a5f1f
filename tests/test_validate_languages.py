"""Rules across languages: same questions, order, types, option ids and answer key everywhere."""

from __future__ import annotations

import json
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


def _leave_out(path: Path, question_id: str) -> None:
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace(_question_block(path, question_id), ""), encoding="utf-8")


def test_a_question_not_translated_yet_is_a_warning(bank: Path, cli: Callable[..., Run]) -> None:
    _leave_out(bank / "ur" / f"{QUIZ}.yaml", "index-file")
    run = cli("validate")
    assert run.code == 0
    assert [line for line in run.lines if ": warning: " in line] == [
        f"{UR}:8:1: warning: questions: question 'index-file' is not translated yet: it is "
        f"question 5 in {EN}; the ur outputs leave it out until it is"
    ]


def test_strict_makes_a_question_not_translated_yet_an_error(
    bank: Path, cli: Callable[..., Run]
) -> None:
    _leave_out(bank / "ur" / f"{QUIZ}.yaml", "index-file")
    run = cli("validate", "--strict")
    assert run.code == 1
    assert run.errors == [
        f"{UR}:8:1: error: questions: question 'index-file' is not translated yet: it is "
        f"question 5 in {EN}; --strict asks for every question in every language"
    ]


def test_a_question_not_translated_yet_is_left_out_of_its_language_only(
    bank: Path, cli: Callable[..., Run]
) -> None:
    _leave_out(bank / "ur" / f"{QUIZ}.yaml", "index-file")
    only_english = cli("build", "-l", "en", "-f", "json", "-o", "english")
    assert only_english.code == 0, only_english.out
    assert "not translated yet, left out" not in only_english.out

    run = cli("build", "-f", "json", "-f", "html", "-o", "out")
    assert run.code == 0, run.out
    assert run.lines[-1] == (
        "ur: 1 question not translated yet, left out of the ur outputs (see the warnings)"
    )
    ids = {
        lang: [
            q["id"]
            for q in json.loads(Path("out/json", lang, f"{QUIZ}.json").read_text())["questions"]
        ]
        for lang in ("en", "ur")
    }
    assert "index-file" in ids["en"]
    assert ids["ur"] == [qid for qid in ids["en"] if qid != "index-file"]
    assert 'id="q-index-file"' not in Path("out/html/ur", f"{QUIZ}.html").read_text("utf-8")

    as_json = json.loads(cli("build", "-f", "json", "-o", "out", "--output-format", "json").out)
    assert as_json["untranslated"] == {"ur": 1}  # the same from the cache


def test_status_counts_a_question_not_translated_yet_as_missing(
    bank: Path, cli: Callable[..., Run]
) -> None:
    _leave_out(bank / "ur" / f"{QUIZ}.yaml", "index-file")
    rows = json.loads(cli("status", "--format", "json").out)["quizzes"]
    assert [(row["lang"], row["missing"]) for row in rows] == [("en", 0), ("ur", 1)]


def test_strict_on_one_file_checks_its_missing_translation_as_the_folder_run_does(
    bank: Path, cli: Callable[..., Run]
) -> None:
    (bank / "en" / "english-only.yaml").write_text(
        (bank / "en" / f"{QUIZ}.yaml")
        .read_text(encoding="utf-8")
        .replace(f"id: {QUIZ}", "id: english-only", 1),
        encoding="utf-8",
    )
    expected = (
        "content/en/english-only.yaml:2:1: error: quiz 'english-only' has no 'ur' version "
        "(ur/english-only.yaml)"
    )
    assert cli("validate", "--strict").errors == [expected]
    alone = cli("validate", "--strict", "content/en/english-only.yaml")
    assert (alone.code, alone.errors) == (1, [expected])


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
