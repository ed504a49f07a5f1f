"""Checks where authors already look: GitHub Actions annotations and the pre-commit hook."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import yaml
from conftest import QUIZ, REPO, Run, edit, line_of

from quizbank.diagnostics import (
    Diagnostic,
    Position,
    Severity,
    escape_data,
    escape_property,
)


def test_escaping_follows_the_actions_toolkit() -> None:
    # @actions/core: escapeData replaces % \r \n; escapeProperty also : and ,
    assert escape_data("100% a\r\nb: c, d") == "100%25 a%0D%0Ab: c, d"
    assert escape_property("100% a\r\nb: c, d") == "100%25 a%0D%0Ab%3A c%2C d"


def test_an_error_and_a_warning_as_workflow_commands() -> None:
    error = Diagnostic(
        "content/en/odd,na:me.yaml",
        Position(12, 5),
        Severity.ERROR,
        "question 1 (why-shard), answer",
        "'e' is not one of the options a, b: 50% of them",
    )
    assert error.github() == (
        "::error file=content/en/odd%2Cna%3Ame.yaml,line=12,col=5,title=quizbank::"
        "question 1 (why-shard), answer: 'e' is not one of the options a, b: 50%25 of them"
    )
    # A line break from a file is escaped when the diagnostic is made (`\n` as two characters),
    # so it can neither end the command nor reach the log as a control character.
    warning = Diagnostic(
        "content/ur/x.yaml", Position(3, 1), Severity.WARNING, "", "a\nb\r\x1b[2J 100%"
    )
    assert warning.github() == (
        "::warning file=content/ur/x.yaml,line=3,col=1,title=quizbank::a\\nb\\r\\x1b[2J 100%25"
    )


def test_validate_prints_one_annotation_per_problem_then_a_plain_summary(
    bank: Path, cli: Callable[..., Run]
) -> None:
    _second_quiz(bank, "en")  # no Urdu: a warning
    line = edit(bank / "en" / f"{QUIZ}.yaml", "answer: d", "answer: e")
    key = edit(
        bank / "en" / f"{QUIZ}.yaml",
        "level: intermediate",
        'level: intermediate\n"50%, x: y\\nz": 1',
    )
    run = cli("validate", "--output-format", "github")
    assert run.code == 1
    assert run.lines == [
        f"::error file=content/en/{QUIZ}.yaml,line={key + 1},col=1,title=quizbank::"
        "50%25, x: y\\nz: unknown key '50%25, x: y\\nz'",
        f"::error file=content/en/{QUIZ}.yaml,line={line + 1},col=13,title=quizbank::"
        "question 1 (why-shard), answer: 'e' is not one of the options a, b, c, d",
        f"::warning file=content/en/second.yaml,line={_id_line()},col=1,title=quizbank::"
        "quiz 'second' has no 'ur' version (ur/second.yaml)",
        "2 errors, 1 warning in 3 files",
    ]
    assert not any(ord(c) < 0x20 and c != "\n" for c in run.out)


def _second_quiz(bank: Path, *langs: str) -> None:
    """A second quiz, the bundled one under the id `second`, in the languages given."""
    for lang in langs:
        text = (bank / lang / f"{QUIZ}.yaml").read_text(encoding="utf-8")
        (bank / lang / "second.yaml").write_text(
            text.replace(f"id: {QUIZ}", "id: second", 1), encoding="utf-8"
        )


def _id_line() -> int:
    """The line of `id:` in the second quiz."""
    return line_of(Path("content/en/second.yaml"), "id: second")


def test_the_exit_code_is_as_for_text(bank: Path, cli: Callable[..., Run]) -> None:
    _second_quiz(bank, "en")
    run = cli("validate", "--output-format", "github")
    assert run.code == 0
    assert run.lines[0].startswith(
        f"::warning file=content/en/second.yaml,line={_id_line()},col=1,"
    )
    assert run.lines[-1] == "0 errors, 1 warning in 3 files"
    old = cli("validate", "--format", "github")  # the old option name takes it too
    assert old.code == 0 and old.lines == run.lines


def test_a_file_name_with_a_colon_and_a_comma_is_escaped_in_the_property(
    bank: Path, cli: Callable[..., Run]
) -> None:
    (bank / "en" / "odd,na:me.yaml").write_text("id: x\n", encoding="utf-8")
    run = cli("validate", "--output-format", "github")
    assert run.code == 1
    ours = [line for line in run.lines if "odd" in line]
    assert ours and all(
        re.match(r"::(error|warning) file=content/en/odd%2Cna%3Ame\.yaml,line=\d+,", line)
        for line in ours
    )


def test_build_reports_in_the_same_form_and_writes_nothing(
    bank: Path, tmp_path: Path, cli: Callable[..., Run]
) -> None:
    line = edit(bank / "en" / f"{QUIZ}.yaml", "answer: d", "answer: e")
    run = cli("build", "-o", tmp_path / "out", "--output-format", "github")
    assert run.code == 1
    assert run.lines[0] == (
        f"::error file=content/en/{QUIZ}.yaml,line={line},col=13,title=quizbank::"
        "question 1 (why-shard), answer: 'e' is not one of the options a, b, c, d"
    )
    assert run.lines[1] == "1 error, 0 warnings in 2 files"
    assert not (tmp_path / "out").exists()


def test_a_failure_before_checking_is_an_annotation_too(
    tmp_path: Path, cli: Callable[..., Run]
) -> None:
    run = cli("validate", tmp_path / "nowhere", "--output-format", "github")
    assert run.code == 2
    assert run.lines == [
        f"::error title=quizbank::usage error: no such file or folder: {tmp_path / 'nowhere'}"
    ]


# -- the pre-commit hook ---------------------------------------------------------------------


def _hook() -> dict[str, object]:
    hooks = yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    assert isinstance(hooks, list) and len(hooks) == 1
    hook: dict[str, object] = hooks[0]
    return hook


def test_the_pre_commit_hook_has_what_pre_commit_requires() -> None:
    hook = _hook()
    assert {"id", "name", "entry", "language"} <= hook.keys()
    assert hook["id"] == "quizbank-validate"
    assert hook["entry"] == "quizbank validate"
    assert hook["language"] == "python"
    assert hook["pass_filenames"] is True
    files = re.compile(str(hook["files"]))
    for path in ("content/en/x.yaml", "content/ur/x.yml", "quizzes/content/ur-PK/x.yaml"):
        assert files.search(path), path
    for path in ("content/x.yaml", ".github/workflows/ci.yml", "content/en/x.json", "x.yaml"):
        assert not files.search(path), path


def _run_entry(*files: str) -> subprocess.CompletedProcess[str]:
    """The hook's entry as pre-commit runs it: the installed command, the staged files after."""
    command = shlex.split(str(_hook()["entry"]))
    script = Path(sys.executable).with_name(command[0])
    program = [str(script)] if script.is_file() else [sys.executable, "-m", "quizbank"]
    return subprocess.run(
        [*program, *command[1:], *files], capture_output=True, text=True, check=False
    )


def test_the_hook_s_entry_checks_several_files_and_their_translations(
    bank: Path, cli: Callable[..., Run]
) -> None:
    _second_quiz(bank, "en", "ur")
    done = _run_entry(f"content/en/{QUIZ}.yaml", "content/ur/second.yaml")
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.splitlines()[-1] == "0 errors, 0 warnings in 4 files"
    # A broken translation is found from its English file alone.
    edit(bank / "ur" / f"{QUIZ}.yaml", "answer: d", "answer: e")
    done = _run_entry(f"content/en/{QUIZ}.yaml", "content/en/second.yaml")
    assert done.returncode == 1
    assert f"content/ur/{QUIZ}.yaml:" in done.stdout


def _readme_yaml(containing: str) -> object:
    readme = (REPO / "docs" / "ci.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```yaml\n(.*?)```", readme, re.DOTALL)
    (block,) = [block for block in blocks if containing in block]
    return yaml.safe_load(block)


def test_the_readme_s_workflow_and_pre_commit_config_are_valid_yaml() -> None:
    workflow = _readme_yaml("quizbank validate --output-format github")
    assert isinstance(workflow, dict)
    steps = workflow["jobs"]["quizbank"]["steps"]
    assert [step.get("uses", "").split("@")[0] for step in steps[:2]] == [
        "actions/checkout",
        "actions/setup-python",
    ]
    assert steps[-1]["run"] == "quizbank validate --output-format github"
    config = _readme_yaml("id: quizbank-validate")
    assert isinstance(config, dict)
    assert config["repos"][0]["hooks"] == [{"id": "quizbank-validate"}]
