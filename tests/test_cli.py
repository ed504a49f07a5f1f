"""The command line's contract: exit codes, output forms, the schema, `python -m quizbank`."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import jsonschema
import pytest
import yaml
from conftest import CONTENT, QUIZ, REPO, Run, edit

from quizbank.cli import main
from quizbank.schema import authoring_schema_text


def test_json_diagnostics_for_editors_and_ci(bank: Path, cli: Callable[..., Run]) -> None:
    line = edit(bank / "en" / f"{QUIZ}.yaml", "answer: d", "answer: e")
    run = cli("validate", "--output-format", "json")
    assert run.code == 1
    payload = json.loads(run.out)
    assert payload["errors"] == 1 and payload["warnings"] == 0 and payload["files"] == 2
    assert payload["diagnostics"] == [
        {
            "path": f"content/en/{QUIZ}.yaml",
            "line": line,
            "column": 13,
            "severity": "error",
            "field": "question 1 (why-shard), answer",
            "message": "'e' is not one of the options a, b, c, d",
        }
    ]


def test_missing_path_is_a_usage_error(bank: Path, cli: Callable[..., Run]) -> None:
    run = cli("validate", "nowhere")
    assert run.code == 2
    assert run.err.strip() == "quizbank: usage error: no such file or folder: nowhere"


def test_unknown_command_is_a_usage_error(cli: Callable[..., Run]) -> None:
    try:
        cli("frobnicate")
    except SystemExit as exc:
        assert exc.code == 2
    else:
        raise AssertionError("argparse should exit with 2")


def test_python_dash_m_works_and_prints_no_colour_into_a_pipe(bank: Path) -> None:
    edit(bank / "en" / f"{QUIZ}.yaml", "answer: d", "answer: e")
    done = subprocess.run(
        [sys.executable, "-m", "quizbank", "validate"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 1
    assert "\x1b[" not in done.stdout
    assert done.stdout.splitlines()[-1] == "1 error, 0 warnings in 2 files"


def test_build_on_a_terminal_shows_progress_then_the_summary(bank: Path, tmp_path: Path) -> None:
    out = tmp_path / "site"
    done = subprocess.run(
        [sys.executable, "-m", "quizbank", "build", "-o", str(out), "-f", "json"],
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "TTY_COMPATIBLE": "1", "COLUMNS": "80"},  # rich: stdout is a terminal
    )
    assert done.returncode == 0, done.stderr
    assert "building" in done.stdout  # the transient bar, drawn then erased
    assert "1/1" in done.stdout and "/?" not in done.stdout  # it knows its total
    assert "wrote 3 files for 1 quiz in 2 languages" in done.stdout
    assert f"into {out}{os.sep}" in done.stdout
    assert json.loads((out / "json" / "ur" / f"{QUIZ}.json").read_text(encoding="utf-8"))


def test_schema_command_matches_the_committed_schema(cli: Callable[..., Run]) -> None:
    run = cli("schema")
    assert run.code == 0
    committed = (REPO / "schema" / "quiz.schema.json").read_text(encoding="utf-8")
    assert run.out == committed == authoring_schema_text()
    assert json.loads(run.out)["$schema"] == "https://json-schema.org/draft/2020-12/schema"


def test_every_content_file_points_editors_at_the_schema_and_passes_it() -> None:
    schema = json.loads((REPO / "schema" / "quiz.schema.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    files = sorted(CONTENT.glob("*/*.yaml"))
    assert files
    for path in files:
        first = path.read_text(encoding="utf-8").splitlines()[0]
        assert first == "# yaml-language-server: $schema=../../schema/quiz.schema.json"
        assert (path.parent / "../../schema/quiz.schema.json").resolve().is_file()
        validator.validate(yaml.safe_load(path.read_text(encoding="utf-8")))


def test_schema_rejects_what_the_validator_rejects() -> None:
    schema = json.loads((REPO / "schema" / "quiz.schema.json").read_text(encoding="utf-8"))
    quiz = yaml.safe_load((CONTENT / "en" / f"{QUIZ}.yaml").read_text(encoding="utf-8"))
    quiz["questions"][0]["explanaton"] = quiz["questions"][0].pop("explanation")
    errors = list(jsonschema.Draft202012Validator(schema).iter_errors(quiz))
    assert errors, "an editor must flag a misspelt key too"


def test_the_report_option_has_one_name_in_every_command(
    bank: Path, tmp_path: Path, cli: Callable[..., Run]
) -> None:
    edit(bank / "en" / f"{QUIZ}.yaml", "answer: d", "answer: e")
    for command in (["validate"], ["build", "-o", str(tmp_path / "out")]):
        run = cli(*command, "--output-format", "json")
        assert run.code == 1
        payload = json.loads(run.out)
        assert payload["errors"] == 1
        assert payload["diagnostics"][0]["message"] == "'e' is not one of the options a, b, c, d"
    assert not (tmp_path / "out").exists()


def test_the_old_report_option_still_works_and_says_its_new_name(
    bank: Path, cli: Callable[..., Run]
) -> None:
    run = cli("validate", "--format", "json")
    assert run.code == 0
    assert json.loads(run.out)["errors"] == 0
    assert run.err.strip() == "quizbank: warning: --format is now --output-format for reports"


def test_build_json_report_names_what_was_written(
    bank: Path, tmp_path: Path, cli: Callable[..., Run]
) -> None:
    run = cli("build", "-o", tmp_path / "out", "--output-format", "json")
    assert run.code == 0, run.err
    payload = json.loads(run.out)
    assert payload["errors"] == 0 and payload["quizzes"] == 1 and payload["written"] > 0
    assert payload["open"] == str(tmp_path / "out" / "html" / "index.html")


def test_build_summary_names_the_output_folder_and_the_page_to_open(
    bank: Path, tmp_path: Path, cli: Callable[..., Run]
) -> None:
    out = tmp_path / "site"
    run = cli("build", "-o", out)
    assert run.code == 0, run.err
    index = out / "html" / "index.html"
    assert run.lines[-1].endswith(f"into {out}{os.sep}; open {index}")
    assert index.is_file()
    only_json = cli("build", "-o", out, "-f", "json")
    assert only_json.lines[-1].endswith(f"into {out}{os.sep}")


def test_a_bare_option_several_chosen_formats_have_is_a_usage_error(
    bank: Path, tmp_path: Path, cli: Callable[..., Run]
) -> None:
    run = cli("build", "-o", tmp_path / "out", "-O", "shuffle=true")
    assert run.code == 2
    assert run.err.strip() == (
        "quizbank: usage error: -O shuffle=true: html and moodle both have the option 'shuffle'; "
        "say which one with -O html.shuffle=true or -O moodle.shuffle=true"
    )
    assert not (tmp_path / "out").exists()
    one = cli("build", "-o", tmp_path / "out", "-f", "html", "-O", "shuffle=true")
    assert one.code == 0, one.err


@pytest.mark.parametrize("command", ["validate", "build", "new", "formats", "schema"])
def test_every_command_help_has_a_description_and_an_example(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exited:
        main([command, "--help"])
    assert exited.value.code == 0
    shown = capsys.readouterr().out
    description = shown.split("\n\n")[1]
    assert len(description.split()) > 5, shown
    assert "example" in shown
    assert f"  quizbank {command}" in shown


def test_the_json_report_is_json_even_when_the_run_fails_before_checking(
    tmp_path: Path, cli: Callable[..., Run]
) -> None:
    for args in (["validate", tmp_path], ["validate", tmp_path / "nowhere"]):
        run = cli(*args, "--output-format", "json")
        assert run.code in (1, 2)
        payload = json.loads(run.out)
        assert payload["diagnostics"] == [] and payload["files"] == 0
        assert payload["failure"]["message"] in run.err


def test_formats_lists_an_option_s_choices_as_they_are_typed(cli: Callable[..., Run]) -> None:
    run = cli("formats")
    (line,) = [line for line in run.lines if line.strip().startswith("multilang ")]
    assert line.endswith("(one of: false, true, spans, mlang2)")


def test_formats_shows_each_option_with_its_default_as_a_default(cli: Callable[..., Run]) -> None:
    run = cli("formats")
    assert "    shuffle (default false): Shuffle the options of every question" in run.out
    assert "    numbering (default abc): How Moodle numbers the options" in run.out
    assert "-O html.shuffle=true" in run.out  # how an option is set, once, with a real one
    assert not [line for line in run.lines if line.strip().startswith("-O ") and "=" in line]


def test_status_takes_output_format_like_validate_and_build(
    bank: Path, cli: Callable[..., Run]
) -> None:
    new = cli("status", "--output-format", "json")
    assert new.code == 0 and json.loads(new.out)["quizzes"]
    old = cli("status", "--format", "json")
    assert json.loads(old.out) == json.loads(new.out)
    assert old.err.strip() == "quizbank: warning: --format is now --output-format for reports"


def test_strict_help_says_everything_it_refuses(cli: Callable[..., Run]) -> None:
    for command, extra in (("validate", ()), ("build", ("a loss of a format",))):
        shown = " ".join(_help(command).split())
        for refused in ("a quiz or a question missing in a language", "placeholder", *extra):
            assert refused in shown, (command, refused)


def _help(command: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "quizbank", command, "--help"],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "COLUMNS": "200"},
    )
    return done.stdout


def test_a_plain_build_leaves_out_the_formats_built_only_when_asked(
    bank: Path, tmp_path: Path, cli: Callable[..., Run]
) -> None:
    listed = [line for line in cli("formats").lines if line.startswith("pdf ")]
    assert listed and listed[0].endswith("[only when asked: -f pdf]")
    assert cli("build", "-o", tmp_path / "all").code == 0
    assert not (tmp_path / "all" / "pdf").exists()
    assert (tmp_path / "all" / "html").is_dir()


def test_a_build_says_once_per_format_how_many_losses_it_warned_of(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cli: Callable[..., Run]
) -> None:
    shutil.copytree(REPO / "tests" / "fixtures" / "types", tmp_path / "content")
    monkeypatch.chdir(tmp_path)
    run = cli("build", "-f", "gift", "-f", "html", "-o", "out")
    assert run.code == 0
    assert len([line for line in run.lines if ": warning: gift: question " in line]) == 6
    assert (
        "gift: 6 warnings of what it cannot carry; accept a known loss in bank.yaml "
        "(accept_losses: {gift: [...]}, see quizbank formats)"
    ) in run.lines
    assert not [line for line in run.lines if line.startswith("html: ")]
    formats = cli("formats").out
    assert (
        "    accept_losses in bank.yaml (gift: [...]): a question type (ordering, cloze: "
        in formats
    )
    assert "(qti12: [...]): a question type (ordering: left out), or shuffle" in formats
