"""`quizbank import` at its edges: an output folder refused as `build` refuses one, input files
that are not regular files refused unread, a failed import that deletes nothing it did not
create, a category too big for one quiz file split into files that validate, and messages of
several lines printed as lines."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO

from quizbank.cli import main
from quizbank.importer import command, convert, files
from quizbank.importer.command import import_files
from quizbank.loader import load_quiz

CATEGORY = (
    '<?xml version="1.0" encoding="UTF-8"?>\n<quiz>\n<question type="category">'
    "<category><text>$course$/top/Waves basics</text></category></question>\n"
)
QUESTION = (
    '<question type="truefalse"><name><text>q{n}</text></name>'
    '<questiontext format="html"><text>Is {n} a number?</text></questiontext>'
    '<generalfeedback format="html"><text>It is.</text></generalfeedback>'
    '<answer fraction="100"><text>true</text></answer>'
    '<answer fraction="0"><text>false</text></answer></question>\n'
)


def bank_file(path: Path, questions: int = 1) -> Path:
    path.write_text(
        CATEGORY + "".join(QUESTION.format(n=n) for n in range(questions)) + "</quiz>\n",
        encoding="utf-8",
    )
    return path


def run(capsys: pytest.CaptureFixture[str], *args: str | Path) -> tuple[int, str, str]:
    code = main(["import", *map(str, args)])
    out, err = capsys.readouterr()
    return code, out, err


# ---------------------------------------------------------------------------- the output folder


def test_a_file_system_root_is_refused_before_anything_is_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    unread = tmp_path / "bank.csv"  # were it read, the import would stop at it
    unread.write_text("a,b\n")
    code, _, err = run(capsys, unread, "-o", "/")
    assert code == 1
    assert "/ is the root of a file system; choose a folder such as content/" in err


def test_a_home_folder_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    code, _, err = run(capsys, bank_file(tmp_path / "w.xml"), "-o", home)
    assert code == 1
    assert "is a home folder; choose a folder such as content/" in err
    assert list(home.iterdir()) == []


def test_a_file_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "notes.txt"
    target.write_text("mine\n")
    code, _, err = run(capsys, bank_file(tmp_path / "w.xml"), "-o", target)
    assert code == 1
    assert "notes.txt is not a folder; choose a folder such as content/" in err
    assert target.read_text() == "mine\n"


def test_the_project_holding_the_content_folder_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "content" / "en").mkdir(parents=True)
    monkeypatch.chdir(tmp_path)
    code, _, err = run(capsys, bank_file(tmp_path / "w.xml"), "-o", ".")
    assert code == 1
    assert ". holds the content folder content: import into it (-o content)" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["content", "w.xml"]
    code, _, _ = run(capsys, tmp_path / "w.xml", "-o", "content")
    assert code == 0
    assert (tmp_path / "content" / "en" / "waves-basics.yaml").is_file()


# ------------------------------------------------------------------------------- input files


def _import_in_a_child(folder: Path, name: str) -> subprocess.CompletedProcess[str]:
    """The command in a child process, so that a read that blocks cannot hang the tests (the
    timeout is a guard against that, not a measure)."""
    return subprocess.run(
        [sys.executable, "-m", "quizbank", "import", name, "-o", "content"],
        capture_output=True,
        text=True,
        cwd=folder,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        timeout=120,
    )


@pytest.mark.parametrize("kind", ["fifo", "device", "folder"])
def test_an_input_that_is_not_a_regular_file_is_refused_unread(tmp_path: Path, kind: str) -> None:
    name = "bank.gift"
    if kind == "fifo":
        os.mkfifo(tmp_path / name)
    elif kind == "device":
        (tmp_path / name).symlink_to("/dev/zero")
    else:
        (tmp_path / name).mkdir()
    done = _import_in_a_child(tmp_path, name)
    assert done.returncode == 2
    assert f"quizbank: usage error: {name} is not a regular file" in done.stderr
    assert not (tmp_path / "content").exists()


def test_an_input_is_read_no_further_than_the_limit(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(command, "MAX_FILE_BYTES", 64)
    # A regular file whose size says 0 but which reads on: /proc/self/status.
    (tmp_path / "bank.gift").symlink_to("/proc/self/status")
    code, _, err = run(capsys, tmp_path / "bank.gift", "-o", tmp_path / "content")
    assert code == 2
    assert "bank.gift holds more than 64 bytes: at most 64 bytes is read" in err


# ------------------------------------------------------------------------ what a failure leaves


def test_a_failed_import_deletes_no_file_it_did_not_create(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    content = tmp_path / "content"
    (content / "en").mkdir(parents=True)
    someone_elses = content / "en" / ".waves-basics.yaml.importing"
    someone_elses.write_text("not quizbank's\n")
    source = bank_file(tmp_path / "w.xml")

    def failing(src: str | Path, dst: str | Path) -> None:
        raise OSError(28, "No space left on device")

    with monkeypatch.context() as patched:
        patched.setattr(os, "replace", failing)
        with pytest.raises(OSError):
            import_files([source], content)
    assert someone_elses.read_text() == "not quizbank's\n"
    assert sorted(p.name for p in (content / "en").iterdir()) == [someone_elses.name]
    import_files([source], content)  # and it is no obstacle
    assert someone_elses.read_text() == "not quizbank's\n"
    assert (content / "en" / "waves-basics.yaml").is_file()


# ----------------------------------------------------------------------------- messages


def test_a_message_of_several_lines_prints_lines_and_escapes_what_files_hold(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    content = tmp_path / "con\x1b[31mtent"
    (content / "en").mkdir(parents=True)
    (content / "en" / "waves-basics.yaml").write_text("old\n")
    (content / "en" / "optics.yaml").write_text("old\n")
    first = bank_file(tmp_path / "w.xml")
    second = tmp_path / "o.xml"
    second.write_text(first.read_text().replace("Waves basics", "Optics"))
    code, _, err = run(capsys, first, second, "-o", content)
    assert code == 1
    lines = err.splitlines()
    assert lines[0] == "quizbank: error: nothing was written:"
    assert lines[1].startswith("  ") and lines[1].endswith(
        "waves-basics.yaml exists (--force replaces it)"
    )
    assert lines[2].endswith("optics.yaml exists (--force replaces it)")
    assert "\\n" not in err
    assert "\x1b" not in err and "con\\x1b[31mtent" in lines[1]


# ------------------------------------------------------------------------- too big for one file


def test_a_category_of_more_questions_than_a_quiz_holds_is_split(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(convert, "MAX_QUESTIONS", 3)
    content = tmp_path / "content"
    code, out, _ = run(capsys, bank_file(tmp_path / "w.xml", questions=7), "-o", content)
    assert code == 1, out  # reported
    assert "its 7 questions are more than a quiz holds (3): written as 3 quizzes" in out
    written = sorted(p.name for p in (content / "en").iterdir())
    assert written == ["waves-basics-1.yaml", "waves-basics-2.yaml", "waves-basics-3.yaml"]
    quizzes = [load_quiz(content / "en" / name) for name in written]
    assert all(loaded.quiz is not None for loaded in quizzes)
    assert [len(loaded.quiz.questions) for loaded in quizzes if loaded.quiz] == [3, 3, 1]
    assert next(loaded.quiz.title for loaded in quizzes if loaded.quiz) == "Waves basics (1/3)"
    assert "validation found" not in out


def test_a_quiz_file_bigger_than_validate_reads_is_refused_with_the_reason(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(files, "MAX_QUIZ_BYTES", 1024)
    content = tmp_path / "content"
    code, _, err = run(capsys, bank_file(tmp_path / "w.xml", questions=20), "-o", content)
    assert code == 1
    assert "waves-basics.yaml would be" in err
    assert "a quiz file may be at most 1 KiB: split category 'waves-basics' in Moodle" in err
    assert not content.exists()
