"""The shortcuts validation takes for the common case give what the full way gives."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest
from conftest import CONTENT
from pydantic import ValidationError

from quizbank import model
from quizbank.loader import QUESTION, load_quiz
from quizbank.markup import mathjax_opener
from quizbank.project import is_entry
from quizbank.rules import question_rules
from quizbank.yamlcompose import compose
from quizbank.yamlconstruct import construct
from quizbank.yamlsource import HEAD_BYTES, YamlError, load_document

FIXTURES = Path(__file__).parent / "fixtures"
YAML_FILES = sorted([*CONTENT.rglob("*.yaml"), *FIXTURES.rglob("*.yaml")])


def _constructed(text: str, *, anchors: bool) -> object:
    try:
        return construct(compose(text), anchors=anchors)
    except YamlError as exc:
        return ("error", exc.message, exc.position, exc.field)


@pytest.mark.parametrize("path", YAML_FILES, ids=lambda path: path.name)
def test_construction_without_anchors_gives_the_same_data_or_error(path: Path) -> None:
    text = path.read_text(encoding="utf-8", errors="replace")
    try:
        compose(text)
    except Exception:  # a syntax error is no construction's business
        pytest.skip("does not compose")
    if "&" in text and "*" in text:
        pytest.skip("may hold aliases, which only the full way finds")
    assert _constructed(text, anchors=False) == _constructed(text, anchors=True)


@pytest.mark.parametrize(
    "text",
    [
        "a: 1\nb: [x, 'y', {c: d}]\n",
        "a: {b: {c: !!str 1}}\n",
        "a: !!int x\n",
        "a: 1\na: 2\n",
        "? [a]\n: b\n",
        "a: " + "[" * 40 + "x" + "]" * 40 + "\n",
        "a: " + "[" * 31 + "x" + "]" * 31 + "\n",
        "a: " + "{b: " * 32 + "x" + "}" * 32 + "\n",
        "a: " + "{b: " * 33 + "x" + "}" * 33 + "\n",
        "- " * 33 + "x\n",
        "questions:\n  - id: a\n    text: !!python/name:os.system\n",
    ],
)
def test_refused_shapes_are_refused_alike(text: str) -> None:
    assert _constructed(text, anchors=False) == _constructed(text, anchors=True)


def test_an_alias_is_still_refused(tmp_path: Path) -> None:
    path = tmp_path / "a.yaml"
    path.write_text("id: &x a\nlang: *x\n", encoding="utf-8")
    with pytest.raises(YamlError, match="anchors and aliases"):
        load_document(path)


_PIECES = ["a", " ", "\n", "$", "$$", "\\(", "\\[", "\\", "&", "&#36;", "&bsol;", "`", "x`$$`"]
_PIECES += ["\x00", "\x1f", "\u202e", "\u2066", "\ufffe", "```", "\t", "*", "[l](u)", "<b>"]


def _outcome(check: object, text: str) -> str:
    try:
        return str(check(text))  # type: ignore[operator]
    except ValueError as exc:
        return f"error: {exc}"


def _slow_text(text: str) -> str:
    return model._no_formula_opener(model._safe_text(text))


def _slow_line(text: str) -> str:
    return model._no_formula_opener(model._one_line(model._safe_text(text)))


def test_a_texts_checks_in_one_call_are_the_three_in_turn() -> None:
    rng = random.Random(30)
    texts = ["".join(rng.choices(_PIECES, k=rng.randint(1, 8))) for _ in range(5000)]
    for text in texts:
        assert _outcome(model._text, text) == _outcome(_slow_text, text), text
        assert _outcome(model._line, text) == _outcome(_slow_line, text), text
    assert sum(mathjax_opener(text) is not None for text in texts) > 100


def test_a_text_that_fails_says_so_through_the_model() -> None:
    with pytest.raises(ValidationError, match="U\\+202E"):
        model.Option.model_validate({"id": "a", "text": "a\u202eb"})
    with pytest.raises(ValidationError, match="typesets formulas"):
        model.Option.model_validate({"id": "a", "text": "costs $$5"})


def test_the_head_of_a_file_is_its_first_bytes() -> None:
    path = CONTENT / "en" / "checkpoint-sharding.yaml"
    loaded = load_quiz(path)
    assert loaded.head == path.read_bytes()[:HEAD_BYTES]


def test_an_entry_is_what_it_was_with_two_system_calls(tmp_path: Path) -> None:
    (tmp_path / "file.yaml").write_text("a", encoding="utf-8")
    (tmp_path / "folder.yaml").mkdir()
    (tmp_path / "to-file.yaml").symlink_to(tmp_path / "file.yaml")
    (tmp_path / "to-folder.yaml").symlink_to(tmp_path / "folder.yaml")
    (tmp_path / "nowhere.yaml").symlink_to(tmp_path / "missing.yaml")
    (tmp_path / "loop.yaml").symlink_to(tmp_path / "loop.yaml")
    os.mkfifo(tmp_path / "pipe.yaml")
    names = [entry.name for entry in tmp_path.iterdir()] + ["missing.yaml", "file.yaml/x"]
    for name in names:
        path = tmp_path / name
        assert is_entry(path) == (os.path.lexists(path) and not path.is_dir()), name


_QUESTION = {"id": "q", "prompt": "Which?", "explanation": "Because."}


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        (
            {
                "type": "single_choice",
                "options": [{"id": "a", "text": "Same"}, {"id": "b", "text": "Same"}],
                "answer": "c",
            },
            [
                (
                    "this option has the same text as option 1; a learner cannot tell them apart",
                    ("questions", 0, "options", 1, "text"),
                ),
                ("'c' is not one of the options a, b", ("questions", 0, "answer")),
            ],
        ),
        (
            {
                "type": "ordering",
                "items": [{"id": "a", "text": "One"}, {"id": "b", "text": "One"}],
            },
            [
                (
                    "this item has the same text as item 1; a learner cannot tell them apart",
                    ("questions", 0, "items", 1, "text"),
                )
            ],
        ),
        (
            {
                "type": "matching",
                "pairs": [
                    {"id": "a", "item": "X", "match": "1"},
                    {"id": "b", "item": "X", "match": "2"},
                ],
                "distractors": [{"id": "c", "text": "2"}],
            },
            [
                (
                    "this item has the same text as pair 1's item; a learner cannot tell them "
                    "apart",
                    ("questions", 0, "pairs", 1, "item"),
                ),
                (
                    "this match has the same text as pair 2's match; a learner cannot tell them "
                    "apart",
                    ("questions", 0, "distractors", 0, "text"),
                ),
            ],
        ),
    ],
)
def test_repeated_texts_are_located_and_named(
    question: dict[str, object], expected: list[tuple[str, tuple[object, ...]]]
) -> None:
    validated = QUESTION.validate_python({**_QUESTION, **question})
    assert list(question_rules([(0, validated)])) == expected
