"""Mistakes within one quiz file: each reported at its file, line and field, in plain words."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from conftest import QUIZ, Run, edit, line_of

EN = f"content/en/{QUIZ}.yaml"
UR = f"content/ur/{QUIZ}.yaml"


def test_bundled_content_is_valid(bank: Path, cli: Callable[..., Run]) -> None:
    run = cli("validate")
    assert run.code == 0, run.out
    assert run.lines == ["0 errors, 0 warnings in 2 files"]


def test_unknown_key_is_named_with_a_suggestion(bank: Path, cli: Callable[..., Run]) -> None:
    line = line_of(bank / "en" / f"{QUIZ}.yaml", "explanation:")
    edit(bank / "en" / f"{QUIZ}.yaml", "    explanation:", "    explanaton:")
    run = cli("validate")
    assert run.code == 1
    assert (
        f"{EN}:{line}:5: error: question 1 (why-shard), explanaton: unknown key 'explanaton' "
        "(did you mean 'explanation'?)"
    ) in run.lines
    assert (
        f"{EN}:9:5: error: question 1 (why-shard), explanation: this required field is missing"
        in run.lines
    )


def test_duplicate_key_names_both_lines(bank: Path, cli: Callable[..., Run]) -> None:
    edit(
        bank / "en" / f"{QUIZ}.yaml",
        "level: intermediate\n",
        "level: intermediate\nlevel: advanced\n",
    )
    run = cli("validate")
    assert run.errors == [
        f"{EN}:7:1: error: level: duplicate key 'level' (first given on line 6); "
        "YAML would silently keep only the last one"
    ]


def test_missing_required_field(bank: Path, cli: Callable[..., Run]) -> None:
    edit(bank / "en" / f"{QUIZ}.yaml", "level: intermediate\n", "")
    run = cli("validate")
    assert f"{EN}:2:1: error: level: this required field is missing" in run.errors


def test_wrong_type(bank: Path, cli: Callable[..., Run]) -> None:
    path = bank / "en" / f"{QUIZ}.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text[: text.index("questions:")] + "questions: 5\n", encoding="utf-8")
    run = cli("validate")
    assert run.errors == [
        f"{EN}:8:12: error: questions: write a list here (like [a, b], or one item a line after "
        "`- `), not 5"
    ]


def test_answer_that_names_no_option(bank: Path, cli: Callable[..., Run]) -> None:
    line = edit(bank / "en" / f"{QUIZ}.yaml", "answer: d", "answer: e")
    run = cli("validate")
    assert run.errors == [
        f"{EN}:{line}:13: error: question 1 (why-shard), answer: 'e' is not one of the options a, b, c, d"
    ]


def test_list_answer_on_single_choice(bank: Path, cli: Callable[..., Run]) -> None:
    line = edit(bank / "en" / f"{QUIZ}.yaml", "answer: d", "answer: [c, d]")
    run = cli("validate")
    assert run.errors == [
        f"{EN}:{line}:13: error: question 1 (why-shard), answer: a single_choice question has exactly one "
        "answer: give one option id, not a list (or make it a multiple_choice question)"
    ]


def test_duplicate_question_id(bank: Path, cli: Callable[..., Run]) -> None:
    path = bank / "en" / f"{QUIZ}.yaml"
    line = edit(path, "- id: resume-state", "- id: why-shard")
    run = cli("validate")
    assert (
        f"{EN}:{line}:9: error: question 2 (why-shard), id: duplicate question id 'why-shard' (also question 1)"
        in run.errors
    )


def test_duplicate_option_id(bank: Path, cli: Callable[..., Run]) -> None:
    line = edit(bank / "en" / f"{QUIZ}.yaml", "      - id: b\n", "      - id: a\n")
    run = cli("validate")
    assert run.errors[0] == (
        f"{EN}:{line}:13: error: question 1 (why-shard), option 2, id: duplicate option id 'a' (also option 1)"
    )


def test_id_must_equal_file_name(bank: Path, cli: Callable[..., Run]) -> None:
    edit(bank / "en" / f"{QUIZ}.yaml", f"id: {QUIZ}", "id: checkpoints")
    run = cli("validate", "content/en")
    assert run.errors == [
        f"{EN}:2:5: error: id: the quiz id 'checkpoints' must equal the file name '{QUIZ}': "
        "rename the file or change the id"
    ]


def test_lang_must_equal_folder(bank: Path, cli: Callable[..., Run]) -> None:
    edit(bank / "ur" / f"{QUIZ}.yaml", "lang: ur", "lang: en")
    run = cli("validate")
    assert (
        f"{UR}:3:7: error: lang: the language 'en' must equal the folder name 'ur': move the file to content/en/ or change `lang`"
        in run.errors
    )


def test_urdu_left_in_english(bank: Path, cli: Callable[..., Run]) -> None:
    path = bank / "ur" / f"{QUIZ}.yaml"
    line = line_of(path, "prompt:")
    text = path.read_text(encoding="utf-8").splitlines()
    text[line - 1] = "    prompt: Why are large model checkpoints split into shards?"
    path.write_text("\n".join(text) + "\n", encoding="utf-8")
    run = cli("validate")
    assert run.errors == [
        f"{UR}:{line}:13: error: question 1 (why-shard), prompt: looks untranslated: a 'ur' text with no "
        "Arabic-script (Urdu) letters ('Why are large model checkpoints split i…')"
    ]


def test_a_name_alone_in_urdu_is_not_untranslated(bank: Path, cli: Callable[..., Run]) -> None:
    edit(
        bank / "ur" / f"{QUIZ}.yaml",
        "text: چھوٹے ان پٹ پر ماڈل کی تربیت تیز کرنے کے لیے",
        "text: '`torch.save()`'",
    )
    assert cli("validate").code == 0


def test_discouraged_urdu_term_is_a_warning(bank: Path, cli: Callable[..., Run]) -> None:
    line = edit(bank / "ur" / f"{QUIZ}.yaml", "title: چیک پوائنٹ", "title: چوکی")
    run = cli("validate")
    assert run.code == 0
    assert f"{UR}:{line}:8: warning: title: use چیک پوائنٹ rather than چوکی" in run.lines


def test_control_character_that_xml_cannot_carry(bank: Path, cli: Callable[..., Run]) -> None:
    line = edit(bank / "en" / f"{QUIZ}.yaml", "prompt: Why are", 'prompt: "\\x07Why are')
    edit(bank / "en" / f"{QUIZ}.yaml", "split into shards?", 'split into shards?"')
    run = cli("validate")
    assert run.errors == [
        f"{EN}:{line}:13: error: question 1 (why-shard), prompt: contains the control character U+0007, "
        "which exports cannot carry; delete it"
    ]


def test_unknown_question_type(bank: Path, cli: Callable[..., Run]) -> None:
    line = edit(bank / "en" / f"{QUIZ}.yaml", "type: single_choice", "type: hotspot")
    run = cli("validate")
    assert run.errors == [
        f"{EN}:{line}:11: error: question 1 (why-shard), type: unknown question type 'hotspot'; "
        "use one of single_choice, multiple_choice, true_false, numerical, short_answer, "
        "matching, ordering, cloze, essay"
    ]


def test_yes_and_no_stay_text_in_the_core_schema(bank: Path, cli: Callable[..., Run]) -> None:
    line = edit(bank / "en" / f"{QUIZ}.yaml", "answer: d", "answer: no")
    run = cli("validate")
    assert run.errors == [
        f"{EN}:{line}:13: error: question 1 (why-shard), answer: 'no' is not one of the options a, b, c, d"
    ]


def test_all_problems_are_reported_sorted_with_a_summary(
    bank: Path, cli: Callable[..., Run]
) -> None:
    edit(bank / "ur" / f"{QUIZ}.yaml", "answer: d", "answer: x")
    edit(bank / "en" / f"{QUIZ}.yaml", "answer: b", "answer: y")
    edit(bank / "en" / f"{QUIZ}.yaml", "answer: d", "answer: z")
    run = cli("validate")
    found = run.errors
    assert len(found) == 3
    assert found == sorted(found, key=lambda line: (line.split(":")[0], int(line.split(":")[1])))
    assert run.lines[-1] == "3 errors, 0 warnings in 2 files"
