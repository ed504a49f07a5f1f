"""Translation freshness: `source` in a translation, `quizbank translated`, the warnings of
`validate` when the English changes, and `quizbank status`."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

from conftest import QUIZ, REPO, Run, edit, line_of

from quizbank.freshness import source_digests
from quizbank.model import Cloze, Matching, question_texts
from quizbank.translated import with_sources
from quizbank.yamlsource import load_document

SOURCE_LINE = re.compile(r"^ *source: .*\n", re.MULTILINE)
PROMPT = "    prompt: Why are large model checkpoints split into shards?"


def _unmarked(text: str) -> str:
    return SOURCE_LINE.sub("", text)


def _ur(bank: Path) -> Path:
    return bank / "ur" / f"{QUIZ}.yaml"


def _en(bank: Path) -> Path:
    return bank / "en" / f"{QUIZ}.yaml"


def _warnings(run: Run) -> list[str]:
    return [line for line in run.lines if ": warning: " in line]


def test_the_bundled_content_is_fully_current(cli: Callable[..., Run]) -> None:
    run = cli("validate", REPO / "content")
    assert run.code == 0
    assert run.lines[-1].startswith("0 errors, 0 warnings")
    status = json.loads(cli("status", REPO / "content", "--format", "json").out)
    assert status["totals"]["stale"] == status["totals"]["unmarked"] == 0
    assert status["totals"]["missing"] == 0


def test_marking_keeps_every_other_byte_of_the_file(bank: Path, cli: Callable[..., Run]) -> None:
    path = _ur(bank)
    # A file as a translator left it: comments, quoting and blank lines of its own.
    original = _unmarked(path.read_text(encoding="utf-8"))
    original = original.replace("questions:\n", "questions:  # keep this comment\n", 1)
    original = original.replace("    answer: d\n", "    answer: 'd'   # quoted on purpose\n", 1)
    path.write_text(original, encoding="utf-8")
    run = cli("translated", path)
    assert run.code == 0, run.err
    assert run.lines == [
        f"marked content/ur/{QUIZ}.yaml: 8 questions translated from the current reference "
        "(why-shard, resume-state, resume-benefit, distributed-save and 4 more)"
    ]
    marked = path.read_text(encoding="utf-8")
    assert len(SOURCE_LINE.findall(marked)) == 8
    assert _unmarked(marked) == original
    # Each source line is the last line of its question, at the question's indentation.
    lines = marked.splitlines()
    first = line_of(path, "source:")
    assert lines[first - 2].startswith("    explanation:") and lines[first].strip() == ""
    assert cli("validate").lines == ["0 errors, 0 warnings in 2 files"]
    # Marking again changes nothing.
    cli("translated", path)
    assert path.read_text(encoding="utf-8") == marked


def test_a_changed_english_prompt_is_named_at_the_source_line(
    bank: Path, cli: Callable[..., Run]
) -> None:
    edit(_en(bank), PROMPT, PROMPT.replace("split", "usually split"))
    run = cli("validate")
    assert run.code == 0
    line = line_of(_ur(bank), "source:")
    assert _warnings(run) == [
        f"content/ur/{QUIZ}.yaml:{line}:5: warning: question 1 (why-shard): "
        "the English prompt changed since this was translated"
    ]


def test_a_changed_option_text_names_that_option(bank: Path, cli: Callable[..., Run]) -> None:
    edit(_en(bank), PROMPT, PROMPT.replace("split", "usually split"))
    edit(_en(bank), "text: To make the model train faster", "text: To make any model train faster")
    edit(_en(bank), "feedback: Sharding changes how", "feedback: Sharding only changes how")
    run = cli("validate")
    assert [w.split(": warning: ")[1] for w in _warnings(run)] == [
        "question 1 (why-shard): the English prompt and option a changed since this was translated"
    ]


def test_an_added_option_is_named(bank: Path, cli: Callable[..., Run]) -> None:
    path = _ur(bank)
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("option d: ", "option e: ", 1), encoding="utf-8")
    run = cli("validate")
    assert [w.split(": warning: ")[1] for w in _warnings(run)] == [
        "question 1 (why-shard): the English option d was added and option e was removed since "
        "this was translated"
    ]


def test_translated_question_marks_only_that_question(bank: Path, cli: Callable[..., Run]) -> None:
    edit(_en(bank), PROMPT, PROMPT.replace("split", "usually split"))
    edit(_en(bank), "prompt: Which extra state, beyond", "prompt: Which other state, beyond")
    assert len(_warnings(cli("validate"))) == 2
    before = _ur(bank).read_text(encoding="utf-8")
    run = cli("translated", _ur(bank), "--question", "why-shard")
    assert run.code == 0, run.err
    assert run.lines == [
        f"marked content/ur/{QUIZ}.yaml: 1 question translated from the current reference "
        "(why-shard)"
    ]
    after = _ur(bank).read_text(encoding="utf-8")
    changed = [
        (old, new)
        for old, new in zip(before.splitlines(), after.splitlines(), strict=True)
        if old != new
    ]
    assert len(changed) == 1 and changed[0][1].startswith("    source: {prompt: ")
    warnings = _warnings(cli("validate"))
    assert len(warnings) == 1 and "question 2 (resume-state)" in warnings[0]


def test_an_unmarked_question_is_reported_once_the_file_uses_source(
    bank: Path, cli: Callable[..., Run]
) -> None:
    path = _ur(bank)
    text = path.read_text(encoding="utf-8")
    first = SOURCE_LINE.search(text)
    assert first is not None
    path.write_text(text[: first.start()] + text[first.end() :], encoding="utf-8")
    run = cli("validate")
    assert [w.split(": warning: ")[1] for w in _warnings(run)] == [
        "question 1 (why-shard): not marked as translated from the current English: once the "
        f"translation is reviewed, run `quizbank translated content/ur/{QUIZ}.yaml "
        "--question why-shard`"
    ]
    # A file that never used `source` is not flooded with warnings.
    path.write_text(_unmarked(text), encoding="utf-8")
    assert _warnings(cli("validate")) == []


def test_translated_refuses_an_invalid_file_and_writes_nothing(
    bank: Path, cli: Callable[..., Run]
) -> None:
    edit(_en(bank), PROMPT, PROMPT.replace("split", "usually split"))
    edit(_ur(bank), "    answer: d\n", "    answer: z\n")
    before = _ur(bank).read_bytes()
    run = cli("translated", _ur(bank))
    assert run.code == 1
    assert "was not marked" in run.err and "error" in run.err
    assert _ur(bank).read_bytes() == before


def test_translated_refuses_the_reference_file_and_an_unknown_question(
    bank: Path, cli: Callable[..., Run]
) -> None:
    before = _en(bank).read_bytes()
    run = cli("translated", _en(bank))
    assert run.code == 1 and "is the reference ('en') version" in run.err
    assert _en(bank).read_bytes() == before
    run = cli("translated", _ur(bank), "--question", "no-such")
    assert run.code == 2 and "has no question 'no-such'" in run.err
    _en(bank).unlink()
    before = _ur(bank).read_bytes()
    run = cli("translated", _ur(bank))
    assert run.code == 1 and "has no other language beside it" in run.err
    assert _ur(bank).read_bytes() == before


def test_a_source_in_the_english_file_is_a_warning(bank: Path, cli: Callable[..., Run]) -> None:
    edit(_en(bank), "    answer: d\n", "    answer: d\n    source: {prompt: abcdef}\n")
    warnings = _warnings(cli("validate"))
    assert len(warnings) == 1
    assert f"content/en/{QUIZ}.yaml:" in warnings[0] and "needs none" in warnings[0]


def test_status_counts_in_text_and_json(bank: Path, cli: Callable[..., Run]) -> None:
    edit(_en(bank), PROMPT, PROMPT.replace("split", "usually split"))
    text = _ur(bank).read_text(encoding="utf-8")
    first = SOURCE_LINE.search(text)
    assert first is not None
    _ur(bank).write_text(text[: first.start()] + text[first.end() :], encoding="utf-8")
    edit(_en(bank), "prompt: Which extra state, beyond", "prompt: Which other state, beyond")
    run = cli("status", "--format", "json")
    assert run.code == 0
    data = json.loads(run.out)
    rows = {row["lang"]: row for row in data["quizzes"]}
    assert rows["ur"] | {"file": None} == {
        "quiz": QUIZ,
        "lang": "ur",
        "file": None,
        "reference": False,
        "questions": 8,
        "missing": 0,
        "stale": 1,
        "unmarked": 1,
        "untranslated": 0,
        "placeholders": 0,
        "errors": 0,
    }
    assert rows["en"]["reference"] and rows["en"]["questions"] == 8
    assert data["totals"] == {
        "questions": 16,
        "missing": 0,
        "stale": 1,
        "unmarked": 1,
        "untranslated": 0,
        "placeholders": 0,
        "errors": 0,
    }
    table = cli("status").lines
    assert table[0].split() == [
        "quiz",
        "lang",
        "questions",
        "missing",
        "stale",
        "unmarked",
        "untranslated",
        "placeholders",
        "errors",
    ]
    assert [QUIZ, "ur", "8", "0", "1", "1", "0", "0", "0"] in [line.split() for line in table]
    assert table[-1].split() == ["total", "16", "0", "1", "1", "0", "0", "0"]


def test_status_counts_missing_and_untranslated(bank: Path, cli: Callable[..., Run]) -> None:
    path = _ur(bank)
    text = path.read_text(encoding="utf-8")
    start = text.index("  - id: resume-state")
    end = text.index("  - id: resume-benefit")
    text = text[:start] + text[end:]  # one question missing
    urdu_prompt = next(line for line in text.splitlines() if line.startswith("    prompt: دیر تک"))
    text = text.replace(urdu_prompt, "    prompt: Still in English?", 1)
    path.write_text(text, encoding="utf-8")
    data = json.loads(cli("status", "--format", "json").out)
    row = next(row for row in data["quizzes"] if row["lang"] == "ur")
    assert (row["questions"], row["missing"], row["untranslated"]) == (7, 1, 1)
    assert row["errors"] == 1  # the untranslated prompt (the rules across languages wait for it)


def test_every_type_has_its_texts_named(bank: Path) -> None:
    from quizbank.loader import load_quiz

    loaded = load_quiz(REPO / "content" / "en" / "resuming-training-in-practice.yaml")
    assert loaded.quiz is not None
    names = {question.type: list(source_digests(question)) for question in loaded.quiz.questions}
    assert names["true_false"] == ["prompt", "feedback_true", "feedback_false", "explanation"]
    assert names["essay"] == ["prompt", "grader_info", "explanation"]
    matching = next(q for q in loaded.quiz.questions if isinstance(q, Matching))
    assert names["matching"][1] == f"pair {matching.pairs[0].id}"
    cloze = next(q for q in loaded.quiz.questions if isinstance(q, Cloze))
    assert any(name.startswith("gap ") and " option " in name for name in names["cloze"])
    assert len(question_texts(cloze)) >= 3


def test_a_source_replaces_the_old_one_where_it_stands(tmp_path: Path) -> None:
    path = tmp_path / "x.yaml"
    text = (
        "questions:\r\n"
        "  - id: a\r\n"
        "    source:\r\n"
        "      prompt: 'aaaaaa'\r\n"
        "    prompt: P  # a comment\r\n"
        "  - {id: b, prompt: Q}\r\n"
    )
    path.write_text(text, encoding="utf-8", newline="")
    root = load_document(path).root
    new = with_sources(text, root, {0: {"prompt": "123456"}, 1: {"prompt": "abcdef"}})
    assert new == (
        "questions:\r\n"
        "  - id: a\r\n"
        "    source: {prompt: '123456'}\r\n"
        "    prompt: P  # a comment\r\n"
        "  - {id: b, prompt: Q, source: {prompt: abcdef}}\r\n"
    )
