"""Which files a run reads: translations beside the given ones, never what links point outside."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import QUIZ, Run, edit


def test_one_file_is_checked_against_its_translations_beside_it(
    bank: Path, cli: Callable[..., Run]
) -> None:
    line = edit(bank / "ur" / f"{QUIZ}.yaml", "answer: d", "answer: c")
    for given in (f"content/ur/{QUIZ}.yaml", "content/ur"):
        run = cli("validate", given)
        assert run.code == 1, run.out
        assert len(run.errors) == 1, run.out
        assert run.errors[0].startswith(f"content/ur/{QUIZ}.yaml:{line}:")
        assert "the answer is 'c' here but 'd' in content/en/" in run.errors[0]
        assert run.lines[-1] == "1 error, 0 warnings in 2 files"


def test_the_english_file_alone_is_checked_against_the_urdu_one(
    bank: Path, cli: Callable[..., Run]
) -> None:
    edit(bank / "ur" / f"{QUIZ}.yaml", "answer: d", "answer: c")
    run = cli("validate", f"content/en/{QUIZ}.yaml")
    assert run.code == 1
    assert run.errors[0].startswith(f"content/ur/{QUIZ}.yaml:")


def test_a_link_leaving_the_content_folder_is_refused_unread(
    bank: Path, tmp_path: Path, cli: Callable[..., Run]
) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("root:$6$hash-of-the-password:19000:0:99999:7:::\n", encoding="utf-8")
    (bank / "en" / "passwd.yaml").symlink_to(secret)
    run = cli("validate")
    assert run.code == 1
    assert "hash-of-the-password" not in run.out + run.err
    assert run.errors == [
        "content/en/passwd.yaml:1:1: error: this is a symbolic link to a file outside the "
        "content folder; quiz files must be inside it (copy the file in instead of linking it)"
    ]


def test_a_link_inside_the_content_folder_is_followed(bank: Path, cli: Callable[..., Run]) -> None:
    shared = bank / "shared"
    shared.mkdir()
    (bank / "ur" / f"{QUIZ}.yaml").rename(shared / f"{QUIZ}.yaml")
    (bank / "ur" / f"{QUIZ}.yaml").symlink_to(Path("..") / "shared" / f"{QUIZ}.yaml")
    run = cli("validate", "content/en", "content/ur")
    assert run.code == 0, run.out
    assert run.lines[-1] == "0 errors, 0 warnings in 2 files"


@pytest.mark.parametrize("kind", ["dangling", "loop"])
def test_broken_links_are_reported_not_skipped(
    kind: str, bank: Path, cli: Callable[..., Run]
) -> None:
    link = bank / "en" / "broken.yaml"
    if kind == "dangling":
        link.symlink_to("gone.yaml")
        why = "a symbolic link to 'gone.yaml', which does not exist"
    else:
        link.symlink_to("broken.yaml")
        why = "a symbolic link that leads back to itself"
    run = cli("validate")
    assert run.code == 1
    assert run.errors == [f"content/en/broken.yaml:1:1: error: this is {why}"]


@pytest.mark.parametrize("command", ["validate", "build"])
def test_a_folder_with_no_quiz_is_an_error_that_touches_nothing(
    command: str, bank: Path, tmp_path: Path, cli: Callable[..., Run]
) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    out = tmp_path / "dist"
    assert cli("build", "-o", out).code == 0
    before = sorted(p for p in out.rglob("*"))
    extra = ["-o", str(out)] if command == "build" else []
    run = cli(command, empty, *extra)
    assert run.code == 1
    assert run.err.strip() == (
        f"quizbank: error: no quiz file found in {empty} "
        "(quiz files are content/<lang>/<quiz-id>.yaml)"
    )
    assert sorted(p for p in out.rglob("*")) == before


def test_a_file_outside_a_language_folder_does_not_count_as_a_language(
    bank: Path, cli: Callable[..., Run]
) -> None:
    (bank / "en" / f"{QUIZ}.yaml").rename(bank / "stray.yaml")
    os.chdir(bank.parent)
    run = cli("validate")
    assert run.code == 1
    assert not any("no 'content' version" in line for line in run.lines), run.out


def test_a_link_leading_nowhere_outside_is_refused_without_naming_where(
    bank: Path, tmp_path: Path, cli: Callable[..., Run]
) -> None:
    (bank / "en" / "gone.yaml").symlink_to(tmp_path / "private-name" / "gone.yaml")
    run = cli("validate")
    assert run.code == 1
    assert "private-name" not in run.out + run.err
    assert run.errors == [
        "content/en/gone.yaml:1:1: error: this is a symbolic link to a file outside the "
        "content folder; quiz files must be inside it (copy the file in instead of linking it)"
    ]
