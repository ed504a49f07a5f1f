"""`quizbank new`: a starting quiz in each language that validates as it is written."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
import yaml
from conftest import QUIZ, Run, edit, line_of

SCHEMA_LINE = "# yaml-language-server: $schema=../../schema/quiz.schema.json"
NINE_TYPES = {
    "single_choice",
    "multiple_choice",
    "true_false",
    "numerical",
    "short_answer",
    "matching",
    "ordering",
    "cloze",
    "essay",
}


@pytest.fixture
def empty(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A working folder without a content folder yet."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _loaded(path: Path) -> dict[str, object]:
    text = path.read_text(encoding="utf-8")
    assert text.splitlines()[0] == SCHEMA_LINE
    data = yaml.safe_load(text)
    assert isinstance(data, dict)
    return data


def test_a_new_pair_validates_at_once_with_every_type(empty: Path, cli: Callable[..., Run]) -> None:
    run = cli("new", "checkpoint-basics")
    assert run.code == 0, run.err
    assert run.lines == [
        "wrote content/en/checkpoint-basics.yaml",
        "wrote content/ur/checkpoint-basics.yaml",
        "wrote schema/quiz.schema.json (an editor checks the quiz files against it as you type)",
        "next: replace the example questions, then run: "
        "quizbank validate content/en/checkpoint-basics.yaml",
    ]
    for lang in ("en", "ur"):
        quiz = _loaded(empty / "content" / lang / "checkpoint-basics.yaml")
        assert quiz["id"] == "checkpoint-basics" and quiz["lang"] == lang
        questions = quiz["questions"]
        assert isinstance(questions, list)
        assert {q["type"] for q in questions} == NINE_TYPES and len(questions) == 9
    checked = cli("validate", "content/en/checkpoint-basics.yaml")
    assert checked.code == 0
    assert checked.lines[-1] == "0 errors, 21 warnings in 2 files"  # its placeholders


def test_every_placeholder_of_a_new_quiz_is_a_warning_at_its_line_and_strict_refuses_it(
    empty: Path, cli: Callable[..., Run]
) -> None:
    assert cli("new", "checkpoint-basics").code == 0
    urdu = empty / "content" / "ur" / "checkpoint-basics.yaml"
    title_line = line_of(urdu, "title: ")
    run = cli("validate", "--strict", "content/en/checkpoint-basics.yaml")
    assert run.code == 1
    assert (
        f"content/ur/checkpoint-basics.yaml:{title_line}:8: error: title: placeholder text from "
        "`quizbank new`: write the title"
    ) in run.errors
    english = empty / "content" / "en" / "checkpoint-basics.yaml"
    first = line_of(english, "- id: pick-one")
    assert (
        f"content/en/checkpoint-basics.yaml:{first}:5: error: question 1 (pick-one): an example "
        "question from `quizbank new`: replace it with your own question, or delete it"
    ) in run.errors
    assert len(run.errors) == 21
    rows = yaml.safe_load(cli("status", "--output-format", "json").out)["quizzes"]
    assert [(row["lang"], row["placeholders"]) for row in rows] == [("en", 10), ("ur", 11)]


def test_an_example_question_rewritten_in_part_warns_of_what_is_left(
    empty: Path, cli: Callable[..., Run]
) -> None:
    assert cli("new", "solo", "--lang", "en", "--title", "Solo").code == 0
    english = empty / "content" / "en" / "solo.yaml"
    edit(english, "prompt: Which file holds the shard index?", "prompt: Where is the index?")
    line = line_of(english, "explanation: The index file maps")
    run = cli("validate")
    assert (
        f"content/en/solo.yaml:{line}:18: warning: question 1 (pick-one), explanation: "
        "placeholder text from `quizbank new`: write the explanation"
    ) in run.lines
    assert not [w for w in run.lines if "question 1 (pick-one): an example" in w]


def test_it_writes_every_language_folder_there_is(bank: Path, cli: Callable[..., Run]) -> None:
    (bank / "fr").mkdir()
    run = cli("new", "second")
    assert run.code == 0, run.err
    assert run.lines[:3] == [
        "wrote content/en/second.yaml",
        "wrote content/fr/second.yaml (its texts are English: translate them into fr)",
        "wrote content/ur/second.yaml",
    ]
    assert cli("validate", "content/en/second.yaml").code == 0


def test_lang_en_only(empty: Path, cli: Callable[..., Run]) -> None:
    run = cli("new", "solo", "--lang", "en")
    assert run.code == 0, run.err
    assert [p.relative_to(empty).as_posix() for p in empty.rglob("*.yaml")] == [
        "content/en/solo.yaml"
    ]
    assert _loaded(empty / "content" / "en" / "solo.yaml")["title"] == "Solo"
    assert cli("validate").lines[-1] == "0 errors, 10 warnings in 1 file"


def test_it_writes_into_the_content_folder_given(tmp_path: Path, cli: Callable[..., Run]) -> None:
    run = cli("new", "elsewhere", tmp_path / "quizzes", "-l", "ur")
    assert run.code == 0, run.err
    assert (tmp_path / "quizzes" / "ur" / "elsewhere.yaml").is_file()
    assert cli("validate", tmp_path / "quizzes").code == 0


@pytest.mark.parametrize(
    "title",
    [
        "a: b # c",
        "*Checkpoints*, [links] & {braces}",
        '# "quoted" \\ back\\slash',
        "- 50% off: yes",
        "چیک پوائنٹ کی بنیادی باتیں",
    ],
)
def test_the_title_goes_in_as_given(empty: Path, cli: Callable[..., Run], title: str) -> None:
    run = cli("new", "titled", "--lang", "en", "--title", title)
    assert run.code == 0, run.err
    assert _loaded(empty / "content" / "en" / "titled.yaml")["title"] == title
    assert cli("validate").code == 0


def test_an_english_title_leaves_the_urdu_placeholder_and_says_so(
    empty: Path, cli: Callable[..., Run]
) -> None:
    run = cli("new", "titled", "--title", "Checkpoint basics")
    assert run.code == 0
    assert run.lines[:2] == [
        "wrote content/en/titled.yaml",
        "wrote content/ur/titled.yaml (its title is a placeholder: write the ur of the title "
        "given)",
    ]
    assert _loaded(empty / "content" / "en" / "titled.yaml")["title"] == "Checkpoint basics"
    assert _loaded(empty / "content" / "ur" / "titled.yaml")["title"] == "نیا کوئز"
    warnings = [line for line in cli("validate").lines if "title: placeholder" in line]
    title = line_of(empty / "content" / "ur" / "titled.yaml", "title: ")
    assert warnings == [
        f"content/ur/titled.yaml:{title}:8: warning: title: placeholder text from "
        "`quizbank new`: write the title"
    ]
    urdu = cli("new", "urdu-title", "--title", "چیک پوائنٹ کی بنیادی باتیں")
    assert urdu.code == 0 and "placeholder" not in urdu.out
    for lang in ("en", "ur"):
        title = _loaded(empty / "content" / lang / "urdu-title.yaml")["title"]
        assert title == "چیک پوائنٹ کی بنیادی باتیں"


@pytest.mark.parametrize("title", ["two\nlines", "\x1b[2J", "   ", "```", "x" * 301])
def test_a_title_that_cannot_be_a_title_is_a_usage_error(
    empty: Path, cli: Callable[..., Run], title: str
) -> None:
    run = cli("new", "titled", "--title", title)
    assert run.code == 2
    assert run.err.startswith("quizbank: usage error: --title ")
    assert "\x1b" not in run.err
    assert not (empty / "content").exists()


def test_it_never_overwrites_and_writes_nothing_when_one_file_exists(
    bank: Path, cli: Callable[..., Run]
) -> None:
    before = (bank / "ur" / f"{QUIZ}.yaml").read_bytes()
    (bank / "en" / f"{QUIZ}.yaml").unlink()
    run = cli("new", QUIZ)
    assert run.code == 1
    assert run.err.strip() == (
        f"quizbank: error: content/ur/{QUIZ}.yaml already exists; nothing was written "
        "(edit that file, or choose another quiz id)"
    )
    assert not (bank / "en" / f"{QUIZ}.yaml").exists()
    assert (bank / "ur" / f"{QUIZ}.yaml").read_bytes() == before


def test_a_yml_file_of_the_same_quiz_counts_as_existing(
    bank: Path, cli: Callable[..., Run]
) -> None:
    (bank / "en" / "other.yml").write_text("id: other\n", encoding="utf-8")
    run = cli("new", "other")
    assert run.code == 1
    assert "content/en/other.yml already exists" in run.err
    assert not (bank / "ur" / "other.yaml").exists()


@pytest.mark.parametrize("quiz_id", ["Bad", "a_b", "-a", "a--b", "a-", "x" * 65, "../up", ""])
def test_a_bad_quiz_id_is_a_usage_error(empty: Path, cli: Callable[..., Run], quiz_id: str) -> None:
    run = cli("new", "--", quiz_id)  # `--`: "-a" is a quiz id here, not an option
    assert run.code == 2
    assert run.err.strip() == (
        f"quizbank: usage error: {quiz_id!r} cannot be a quiz id: use lowercase letters, digits "
        "and single hyphens between them, at most 64 characters (like checkpoint-basics)"
    )
    assert not (empty / "content").exists()


def test_a_bad_language_is_a_usage_error(empty: Path, cli: Callable[..., Run]) -> None:
    run = cli("new", "fine", "--lang", "English")
    assert run.code == 2
    assert "'English' is not a language code" in run.err
    assert not (empty / "content").exists()


def test_the_schema_line_of_a_new_quiz_leads_to_the_schema(
    empty: Path, cli: Callable[..., Run]
) -> None:
    assert cli("new", "first").code == 0
    for lang in ("en", "ur"):
        quiz = empty / "content" / lang / "first.yaml"
        target = quiz.read_text(encoding="utf-8").splitlines()[0].split("$schema=")[1]
        assert (quiz.parent / target).resolve() == (empty / "schema" / "quiz.schema.json")
    assert (empty / "schema" / "quiz.schema.json").read_text("utf-8") == cli("schema").out
    (empty / "schema" / "quiz.schema.json").write_text("{}")  # the author's own: kept
    again = cli("new", "second")
    assert "schema" not in again.out
    assert (empty / "schema" / "quiz.schema.json").read_text() == "{}"


def test_a_schema_line_that_leads_nowhere_is_a_warning(bank: Path, cli: Callable[..., Run]) -> None:
    run = cli("validate")
    assert not [line for line in run.lines if "schema line" in line]
    english = bank / "en" / f"{QUIZ}.yaml"
    text = english.read_text(encoding="utf-8")
    first, rest = text.split("\n", 1)
    english.write_text("# yaml-language-server: $schema=../schema.json\n" + rest, "utf-8")
    assert first.startswith("# yaml-language-server: $schema=")
    run = cli("validate")
    assert run.code == 0
    assert [line for line in run.lines if "schema line" in line] == [
        f"content/en/{QUIZ}.yaml:1:33: warning: the editor's schema line points at "
        "'../schema.json', which does not exist, so the editor checks nothing as you type: "
        "write it with `quizbank schema > content/schema.json`"
    ]
    english.write_text("# yaml-language-server: $schema=https://example.org/s.json\n" + rest)
    assert not [line for line in cli("validate").lines if "schema line" in line]
