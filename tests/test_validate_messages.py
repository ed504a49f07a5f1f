"""Every mistake an author makes is reported at its file, line and column, in the author's words,
with how to write it instead; nothing in a file hides another problem of it."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import QUIZ, Run, edit, line_of

EN = f"content/en/{QUIZ}.yaml"


def _one_error(cli: Callable[..., Run]) -> str:
    run = cli("validate")
    assert run.code == 1, run.out
    assert len(run.errors) == 1, run.out
    assert "Traceback" not in run.err
    return run.errors[0]


@pytest.mark.parametrize(
    ("old", "new", "column", "expected"),
    [
        (
            "    prompt: Why are large",
            "    prompt: Note: why are large",
            17,
            'error: a text that contains ": " must be in quotes, like this: prompt: "Note: why',
        ),
        (
            "        text: To hide the model weights from users",
            "        text: *everything is hidden",
            15,
            "error: a text that starts with * must be in quotes (*name is a YAML alias), "
            'like this: text: "*everything is hidden"',
        ),
        (
            "        text: To hide the model weights from users",
            "        text: `git stash` hides them",
            15,
            "error: a text that starts with a backtick (`) must be in quotes, like this: "
            'text: "`git stash` hides them"',
        ),
        (
            "      - id: b\n        text: To hide",
            "      - id: b\n       text: To hide",
            8,
            "error: the indentation of this line does not match the lines above it",
        ),
    ],
)
def test_yaml_mistakes_are_explained_with_the_fix(
    bank: Path, cli: Callable[..., Run], old: str, new: str, column: int, expected: str
) -> None:
    line = edit(bank / "en" / f"{QUIZ}.yaml", old, new) + new[: new.index(new.strip()[:4])].count(
        "\n"
    )
    if "\n" in new:
        line += 1
    found = _one_error(cli)
    assert found.startswith(f"{EN}:{line}:{column}: {expected}"), found


@pytest.mark.parametrize(
    ("old", "new", "at", "column", "expected"),
    [
        (
            "    type: single_choice\n    prompt: Why are large",
            "    type: multiple_choice\n    prompt: Why are large",
            "    answer: d",
            13,
            "question 1 (why-shard), answer: a multiple_choice answer is a list of option ids, "
            "like this: answer: [d]",
        ),
        (
            "    answer: d\n    explanation: A large",
            "    answer: []\n    explanation: A large",
            "    answer: []",
            13,
            "question 1 (why-shard), answer: a single_choice question has exactly one answer",
        ),
        (
            "    explanation: A large model's state can run",
            "    explanation: ''\n    # A large model's state can run",
            "    explanation: ''",
            18,
            "question 1 (why-shard), explanation: this text is empty: write the text, or delete "
            "the key if it is optional",
        ),
        (
            "    explanation: A large model's state can run",
            "    explanation: '   '\n    # A large model's state can run",
            "    explanation: '   '",
            18,
            "question 1 (why-shard), explanation: this text holds only spaces",
        ),
        (
            "      - id: b\n        text: To hide the model weights from users\n"
            "        feedback: Shards hold the same weights in several files; anyone who can "
            "read the files can still load them.\n",
            "      - To hide the model weights from users\n",
            "      - To hide the model",
            9,
            "question 1 (why-shard), option 2: an option is a mapping with an id and a text, "
            "not just a text; like this: - {id: b, text: To hide the model weights fro…}",
        ),
        (
            "  - id: resume-state",
            "  - id: 1",
            "  - id: 1",
            9,
            'question 2, id: 1 is read as a number; write it in quotes, like this: id: "1"',
        ),
        (
            "tags: [checkpointing",
            "guide:\n  title: The guide\n  url: example.org/guide\ntags: [checkpointing",
            "  url: example.org",
            8,
            "guide, url: 'example.org/guide' is not a web address: write it in full with "
            "https://, like this: https://example.org/guide",
        ),
        (
            "    explanation: A large",
            "    answer_text: x\n    explanation: A large",
            "    answer_text",
            5,
            "question 1 (why-shard), answer_text: unknown key 'answer_text'",
        ),
        (
            "        feedback: Right; shards keep",
            "        answer: d\n        feedback: Right; shards keep",
            "        answer: d",
            9,
            "question 1 (why-shard), option 4, answer: 'answer' belongs to the question, not to "
            "the option; check its indentation",
        ),
    ],
)
def test_schema_mistakes_are_explained_with_the_fix(
    bank: Path,
    cli: Callable[..., Run],
    old: str,
    new: str,
    at: str,
    column: int,
    expected: str,
) -> None:
    path = bank / "en" / f"{QUIZ}.yaml"
    edit(path, old, new)
    line = line_of(path, at)
    found = _one_error(cli)
    assert found.startswith(f"{EN}:{line}:{column}: error: {expected}"), found


MIXED = Path(__file__).parent / "fixtures" / "html" / "en" / "mixed-types.yaml"
TF = "content/en/mixed-types.yaml"


@pytest.fixture
def with_true_false(bank: Path) -> Path:
    """The bank with a quiz that has a true_false question (in English only)."""
    path = bank / "en" / "mixed-types.yaml"
    path.write_bytes(MIXED.read_bytes())
    return path


def _tf_errors(cli: Callable[..., Run]) -> list[str]:
    run = cli("validate", TF)
    assert run.code == 1 and "Traceback" not in run.err
    return run.errors


def test_options_on_true_false_say_which_types_use_them(
    with_true_false: Path, cli: Callable[..., Run]
) -> None:
    path = with_true_false
    line = line_of(path, "type: true_false")
    text = path.read_text(encoding="utf-8").splitlines()
    text.insert(line, "    options: [{id: a, text: x}, {id: b, text: y}]")
    path.write_text("\n".join(text) + "\n", encoding="utf-8")
    [found] = _tf_errors(cli)
    assert (
        f"{TF}:{line + 1}:5: error: question 2 (pickle-runs-code), " in found
        and "options: 'options' is not used by true_false questions, only by single_choice or "
        "multiple_choice questions"
        in found
    ), found


@pytest.mark.parametrize(
    ("char", "name"),
    [
        ("\x0b", "vertical tab"),
        ("\x00", "null"),
        ("\x07", "bell"),
        ("\x1b", "escape"),
        ("\x7f", "delete"),
        ("\ufffe", "a non-character"),
    ],
)
def test_a_control_character_is_located_in_characters(
    bank: Path, cli: Callable[..., Run], char: str, name: str
) -> None:
    path = bank / "ur" / f"{QUIZ}.yaml"
    text = path.read_text(encoding="utf-8")
    line = line_of(path, "prompt:")
    lines = text.split("\n")
    prefix = lines[line - 1]
    lines[line - 1] = prefix + char + "x"
    path.write_text("\n".join(lines), encoding="utf-8")
    run = cli("validate")
    assert run.code == 1 and "Traceback" not in run.err
    assert run.errors == [
        f"content/ur/{QUIZ}.yaml:{line}:{len(prefix) + 1}: error: the file contains the "
        f"character U+{ord(char):04X} ({name}), which quiz files cannot hold; delete it"
    ]
    json_run = cli("validate", "--output-format", "json")
    assert '"column": ' + str(len(prefix) + 1) in json_run.out


def test_a_file_saved_as_utf16_says_so(bank: Path, cli: Callable[..., Run]) -> None:
    path = bank / "en" / f"{QUIZ}.yaml"
    path.write_bytes(path.read_text(encoding="utf-8").encode("utf-16-le"))
    assert _one_error(cli) == (
        f"{EN}:1:1: error: the file is saved as UTF-16; save it as UTF-8 in your editor"
    )


def test_an_invalid_byte_after_urdu_is_located_by_characters(
    bank: Path, cli: Callable[..., Run]
) -> None:
    path = bank / "ur" / f"{QUIZ}.yaml"
    line = line_of(path, "title:")
    raw = path.read_bytes().split(b"\n")
    prefix = raw[line - 1].decode("utf-8")
    raw[line - 1] += b"\xff"
    path.write_bytes(b"\n".join(raw))
    run = cli("validate")
    assert run.errors[0].startswith(f"content/ur/{QUIZ}.yaml:{line}:{len(prefix) + 1}: error:")


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("!!float abc", "'abc' is not a number, as its tag `!!float` says"),
        ("!!int 0b11", "'0b11' is not a whole number, as its tag `!!int` says"),
        ("!!bool yes", "'yes' is not a true or false, as its tag `!!bool` says"),
        ("9" * 5000, "the number '99999999999999999999999999999…' has too many digits (5000)"),
        (
            "0x" + "f" * 20000,
            "the number '0xfffffffffffffffffffffffffff…' has too many digits (20002)",
        ),
    ],
)
def test_scalars_are_converted_safely(
    bank: Path, cli: Callable[..., Run], value: str, expected: str
) -> None:
    line = edit(bank / "en" / f"{QUIZ}.yaml", "  - id: resume-state", f"  - id: {value}")
    found = _one_error(cli)
    assert found.startswith(f"{EN}:{line}:9: error: questions[1].id: {expected}"), found


@pytest.mark.parametrize("key", ["true", "0x10", "1"])
def test_a_key_that_is_no_word_is_reported_at_its_own_line(
    bank: Path, cli: Callable[..., Run], key: str
) -> None:
    line = edit(
        bank / "en" / f"{QUIZ}.yaml", "level: intermediate", f"level: intermediate\n{key}: 1"
    )
    found = _one_error(cli)
    assert found == f"{EN}:{line + 1}:1: error: {key}: unknown key {key!r}", found


def test_every_problem_of_a_file_is_reported_in_one_run(
    bank: Path, cli: Callable[..., Run]
) -> None:
    path = bank / "en" / f"{QUIZ}.yaml"
    wrong = edit(path, "answer: d", "answer: z")  # question 1
    typo = line_of(path, "    explanation:", start=line_of(path, "- id: index-file"))
    edit(path, "    explanation:", "    explanaton:", count=-1)
    text = path.read_text(encoding="utf-8").replace("    explanaton:", "    explanation:")
    lines = text.split("\n")
    lines[typo - 1] = lines[typo - 1].replace("explanation:", "explanaton:")
    path.write_text("\n".join(lines), encoding="utf-8")
    run = cli("validate")
    assert any(
        f"{EN}:{wrong}:13: error: question 1 (why-shard), answer: 'z'" in e for e in run.errors
    )
    assert any("explanaton: unknown key 'explanaton'" in e for e in run.errors), run.out


def test_a_hash_after_an_unquoted_text_warns_at_the_hash(
    bank: Path, cli: Callable[..., Run]
) -> None:
    new = "    prompt: What does git stash do? #1 most used command"
    line = edit(
        bank / "en" / f"{QUIZ}.yaml",
        "    prompt: Why are large model checkpoints split into shards?",
        new,
    )
    run = cli("validate")
    assert (
        f"{EN}:{line}:37: warning: question 1 (why-shard), prompt: everything after this ` #` is a "
        "YAML comment, left out of the text; if it belongs to the text, put the whole text in "
        "quotes"
    ) in run.lines


def test_raw_html_warns_once_per_text_and_code_does_not(
    bank: Path, cli: Callable[..., Run]
) -> None:
    path = bank / "en" / f"{QUIZ}.yaml"
    line = edit(path, "    prompt: Why are large", "    prompt: Why <b>are</b> <i>large</i>")
    edit(path, "        text: To hide the model", "        text: Use `<br>` to hide the model")
    run = cli("validate")
    # (The Urdu question is now older than its English: that warning is on the Urdu file.)
    warnings = [w for w in run.lines if ": warning: " in w and w.startswith(EN)]
    assert warnings == [
        f"{EN}:{line}:13: warning: question 1 (why-shard), prompt: raw HTML is shown as text, "
        "tags and all; use Markdown (*emphasis*, `code`, lists, [links](https://…)) instead"
    ]


def test_two_options_with_the_same_text_are_an_error(bank: Path, cli: Callable[..., Run]) -> None:
    path = bank / "en" / f"{QUIZ}.yaml"
    line = edit(
        path,
        "        text: To hide the model weights from users",
        "        text: To make the model train faster on small inputs",
    )
    found = _one_error(cli)
    assert found == (
        f"{EN}:{line}:15: error: question 1 (why-shard), option 2, text: this option has the same "
        "text as option 1; a learner cannot tell them apart"
    )


@pytest.mark.parametrize("answer", ["yes", "1", "'true'"])
def test_true_false_takes_only_true_or_false(
    with_true_false: Path, cli: Callable[..., Run], answer: str
) -> None:
    path = with_true_false
    at = line_of(path, "type: true_false")
    answer_line = line_of(path, "    answer:", start=at)
    lines = path.read_text(encoding="utf-8").split("\n")
    lines[answer_line - 1] = f"    answer: {answer}"
    path.write_text("\n".join(lines), encoding="utf-8")
    [found] = _tf_errors(cli)
    assert found.startswith(
        f"{TF}:{answer_line}:13: error: question 2 (pickle-runs-code), answer: write true or false"
    ), found


def test_a_bidi_override_is_refused_and_isolates_are_not(
    bank: Path, cli: Callable[..., Run]
) -> None:
    path = bank / "en" / f"{QUIZ}.yaml"
    line = edit(
        path, "    prompt: Why are large", "    prompt: Open \u2066x\u2069 \u200f \u202egnp.exe"
    )
    found = _one_error(cli)
    assert found.startswith(
        f"{EN}:{line}:13: error: question 1 (why-shard), prompt: contains the bidirectional "
        "override U+202E"
    ), found


def test_a_title_is_one_line(bank: Path, cli: Callable[..., Run]) -> None:
    line = edit(bank / "en" / f"{QUIZ}.yaml", "title: Checkpoint", "title: |\n  ```\n  Checkpoint")
    found = _one_error(cli)
    assert found.startswith(f"{EN}:{line}:8: error: title: a title is one line of text"), found


def test_a_wrong_lang_is_one_error(bank: Path, cli: Callable[..., Run]) -> None:
    line = edit(bank / "en" / f"{QUIZ}.yaml", "lang: en", "lang: ur")
    assert _one_error(cli) == (
        f"{EN}:{line}:7: error: lang: the language 'ur' must equal the folder name 'en': move "
        "the file to content/ur/ or change `lang`"
    )


def test_a_file_directly_in_content_says_where_it_goes(bank: Path, cli: Callable[..., Run]) -> None:
    (bank / "en" / f"{QUIZ}.yaml").rename(bank / f"{QUIZ}.yaml")
    run = cli("validate", "content")
    assert (
        f"content/{QUIZ}.yaml:3:7: error: lang: quiz files go in a language folder: move this "
        f"file to content/en/{QUIZ}.yaml"
    ) in run.errors


def test_a_flood_of_problems_is_capped_and_fast(bank: Path, cli: Callable[..., Run]) -> None:
    tags = ", ".join(f"Bad{i}" for i in range(49))
    path = bank / "en" / f"{QUIZ}.yaml"
    edit(path, "tags: [checkpointing, distributed-training]", f"tags: [{tags}]")
    keys = "\n".join(f"extra{i}: 1" for i in range(100_000))
    path.write_text(path.read_text(encoding="utf-8") + keys + "\n", encoding="utf-8")
    started = time.monotonic()
    run = cli("validate", "content/en")
    assert time.monotonic() - started < 30  # a bound on a hang, not a benchmark
    located = [line for line in run.lines if line.startswith(EN)]
    assert len(located) == 101
    assert (
        located[-1].endswith(
            "error: and 100,000 more problems in this file (only the first 100 are listed)"
        )
        or "more problems in this file (only the first 100 are listed)" in located[-1]
    )


TAB_MESSAGE = "quiz files indent with spaces, not tabs: replace the tab"


@pytest.mark.parametrize(
    ("old", "new", "column"),
    [
        # A key indented by a tab alone, by spaces then a tab, a list item, a blank line.
        ("    prompt: Why are large", "\tprompt: Why are large", 1),
        ("    prompt: Why are large", "  \t  prompt: Why are large", 3),
        ("    options:\n      - id: a", "    options:\n\t- id: a", 1),
        ("    options:\n      - id: a\n", "    options:\n      - id: a\n \t\n", 2),
        ("    answer: d\n", "    answer: d\n\t\n", 1),
    ],
)
def test_a_tab_in_the_indentation_is_named_where_it_is(
    bank: Path, cli: Callable[..., Run], old: str, new: str, column: int
) -> None:
    path = bank / "en" / f"{QUIZ}.yaml"
    text = path.read_text(encoding="utf-8")
    at = text.index(old)
    tab = text[:at].count("\n") + new[: new.index("\t")].count("\n") + 1
    edit(path, old, new)
    found = _one_error(cli)
    assert found.startswith(f"{EN}:{tab}:{column}: error: {TAB_MESSAGE}"), found
    assert f"line {tab} has a tab at column {column}" in found, found


def test_a_tab_in_a_block_text_is_named_where_it_is(bank: Path, cli: Callable[..., Run]) -> None:
    path = bank / "en" / f"{QUIZ}.yaml"
    line = edit(
        path,
        "    prompt: Why are large model checkpoints split into shards?",
        "    prompt: |\n      Why are large\n\t  model checkpoints split into shards?",
    )
    found = _one_error(cli)
    assert found.startswith(f"{EN}:{line + 2}:1: error: {TAB_MESSAGE}"), found


@pytest.mark.parametrize("quote", ['"', "'"])
def test_a_quote_never_closed_is_reported_where_it_opens(
    bank: Path, cli: Callable[..., Run], quote: str
) -> None:
    """The quote runs on to the next quote of the file, many lines later, where YAML gives up."""
    path = bank / "en" / f"{QUIZ}.yaml"
    opened = edit(
        path,
        "    prompt: Why are large model checkpoints split into shards?",
        f"    prompt: {quote}Why are large model checkpoints split into shards?",
    )
    closes = edit(
        path,
        "    prompt: Which extra state",
        f"    prompt: {quote}Which extra state",
    )
    if quote == "'":  # the apostrophe of model's closes it first
        closes = line_of(path, "explanation: A large model's")
    assert closes - opened > 10
    found = _one_error(cli)
    assert found.startswith(
        f"{EN}:{opened}:13: error: prompt: this quote ({quote}) is never closed: end the text "
        f"with {quote} on this line; as written, the text runs on to the {quote} on line {closes}"
    ), found
    if quote == "'":
        assert found.endswith(
            "(an apostrophe ends a text in single quotes: write it twice, '', or put the text in "
            "double quotes)"
        ), found


def test_a_quote_left_open_at_the_end_of_the_file_is_reported_where_it_opens(
    bank: Path, cli: Callable[..., Run]
) -> None:
    path = bank / "en" / f"{QUIZ}.yaml"
    text = path.read_text(encoding="utf-8").replace('"', "")  # no other quote closes it
    path.write_text(text, encoding="utf-8")
    opened = edit(path, "title: Checkpoint sharding", 'title: "Checkpoint sharding')
    found = _one_error(cli)
    assert found.startswith(
        f'{EN}:{opened}:8: error: title: this quote (") is never closed: end the text with " '
        "on this line; as written, the text runs on to the end of the file"
    ), found


@pytest.mark.parametrize(
    ("written", "meant"),
    [
        ("single_choise", "single_choice"),
        ("multiple-choice", "multiple_choice"),
        ("TrueFalse", "true_false"),
    ],
)
def test_a_wrong_question_type_gets_a_did_you_mean(
    bank: Path, cli: Callable[..., Run], written: str, meant: str
) -> None:
    line = edit(bank / "en" / f"{QUIZ}.yaml", "    type: single_choice", f"    type: {written}")
    found = _one_error(cli)
    assert found.startswith(
        f"{EN}:{line}:11: error: question 1 (why-shard), type: unknown question type "
        f"{written!r} (did you mean {meant!r}?); use one of single_choice, multiple_choice"
    ), found


def test_a_wrong_gap_type_gets_a_did_you_mean(tmp_path: Path, cli: Callable[..., Run]) -> None:
    quiz = tmp_path / "en" / "gaps.yaml"
    quiz.parent.mkdir()
    quiz.write_text(
        "id: gaps\nlang: en\ntitle: Gaps\ndescription: A cloze.\nlevel: beginner\nquestions:\n"
        "  - id: fill\n    type: cloze\n    prompt: Save with [[fn]].\n"
        "    explanation: It saves.\n    gaps:\n      fn: {type: short_anser, answer: save}\n",
        encoding="utf-8",
    )
    run = cli("validate", quiz)
    assert run.code == 1
    assert any(
        "gap 'fn', type: unknown gap type 'short_anser' (did you mean 'short_answer'?); use one "
        "of short_answer, numerical, single_choice" in line
        for line in run.errors
    ), run.out


def test_points_of_zero_are_said_in_an_authors_words(bank: Path, cli: Callable[..., Run]) -> None:
    line = edit(bank / "en" / f"{QUIZ}.yaml", "    answer: d\n", "    answer: d\n    points: 0\n")
    assert _one_error(cli) == (
        f"{EN}:{line + 1}:13: error: question 1 (why-shard), points: a question is worth more "
        "than 0 points (0 is not): write points: 1 (the default), 0.5 or more"
    )
