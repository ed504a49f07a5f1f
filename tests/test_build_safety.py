"""What a build may touch: only its output folder, only what it was asked to rebuild, and
nothing at all when it fails, is refused or is killed."""

from __future__ import annotations

import errno
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path, PurePosixPath

import pytest
from conftest import QUIZ, REPO, Run, edit

import quizbank.build
from quizbank.output import JOURNAL, STAGING_PREFIX, OutputFolder

OTHER = "second-quiz"


@pytest.fixture
def two_quizzes(bank: Path) -> Path:
    """The bundled bank with a second quiz in both languages."""
    for lang in ("en", "ur"):
        text = (bank / lang / f"{QUIZ}.yaml").read_text(encoding="utf-8")
        (bank / lang / f"{OTHER}.yaml").write_text(
            text.replace(f"id: {QUIZ}", f"id: {OTHER}", 1), encoding="utf-8"
        )
    return bank


def _files(root: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()
    }


def _outputs(out: Path) -> set[str]:
    return {name for name in _files(out) if not name.startswith(".quizbank")}


def test_building_one_file_keeps_the_other_quizzes(
    two_quizzes: Path, cli: Callable[..., Run]
) -> None:
    assert cli("build", "content", "-o", "out").code == 0
    before = _outputs(Path("out"))
    assert f"html/en/{OTHER}.html" in before and f"html/ur/{QUIZ}.html" in before
    run = cli("build", f"content/en/{QUIZ}.yaml", "-o", "out")
    assert run.code == 0, run.err
    assert _outputs(Path("out")) == before
    index = Path("out/html/index.html").read_text(encoding="utf-8")
    assert f"{OTHER}.html" in index and f"{QUIZ}.html" in index


def test_building_one_language_keeps_the_others(two_quizzes: Path, cli: Callable[..., Run]) -> None:
    assert cli("build", "content", "-o", "out").code == 0
    before = _files(Path("out"))
    assert cli("build", "content", "-l", "ur", "-o", "out").code == 0
    after = _files(Path("out"))
    english = {name for name in before if "/en/" in name}
    assert english and all(after[name] == before[name] for name in english)


def test_a_deleted_quiz_is_pruned_only_by_a_build_of_its_sources(
    two_quizzes: Path, cli: Callable[..., Run]
) -> None:
    assert cli("build", "content", "-o", "out").code == 0
    for lang in ("en", "ur"):
        (two_quizzes / lang / f"{OTHER}.yaml").unlink()
    # A build of one file does not know the other quiz is gone: it keeps its outputs.
    assert cli("build", f"content/en/{QUIZ}.yaml", "-o", "out").code == 0
    assert f"html/en/{OTHER}.html" in _outputs(Path("out"))
    # A build of one language removes that language's outputs of the deleted quiz only.
    assert cli("build", "content", "-l", "ur", "-o", "out").code == 0
    outputs = _outputs(Path("out"))
    assert f"html/ur/{OTHER}.html" not in outputs and f"html/en/{OTHER}.html" in outputs
    # A build of the folder it came from removes the rest, and no longer lists it.
    assert cli("build", "content", "-o", "out").code == 0
    outputs = _outputs(Path("out"))
    assert not [name for name in outputs if OTHER in name]
    assert OTHER not in Path("out/html/index.html").read_text(encoding="utf-8")


def test_an_output_path_that_is_a_file_is_one_line_and_changes_nothing(
    bank: Path, cli: Callable[..., Run]
) -> None:
    Path("README.md").write_text("keep me\n")
    run = cli("build", "-o", "README.md")
    assert run.code == 1
    assert run.err.strip().splitlines() == [
        "quizbank: error: README.md is not a folder; choose a folder such as dist/"
    ]
    assert Path("README.md").read_text() == "keep me\n"
    assert "Traceback" not in run.err


@pytest.mark.parametrize(
    ("target", "says"),
    [
        ("/", "is the root of a file system"),
        ("", "holds the content being built"),
        (".", "holds the content being built"),
        ("content", "holds the content being built"),
        ("~", "is a home folder"),
        ("..", "holds the content being built"),
        ("/dev/null", "is not a folder"),
        ("/proc", "is not empty and was not made by quizbank"),
    ],
)
def test_careless_output_folders_are_refused(
    bank: Path, cli: Callable[..., Run], target: str, says: str
) -> None:
    before = _files(bank.parent)
    run = cli("build", "-o", os.path.expanduser(target))
    assert run.code == 1
    assert says in run.err and "Traceback" not in run.err
    assert _files(bank.parent) == before


@pytest.mark.parametrize("target", ["content/exports", "content/en/out", "content/../content/x"])
def test_an_output_folder_inside_the_content_folder_is_refused(
    bank: Path, cli: Callable[..., Run], target: str
) -> None:
    before = _files(bank.parent)
    run = cli("build", "-o", target)
    assert run.code == 1
    assert f"{target} is inside the content folder content" in run.err
    assert "the next build would read it as content" in run.err
    assert _files(bank.parent) == before
    alone = cli("build", "content/en", "-o", target)  # a language folder given: the same
    assert alone.code == 1 and "is inside the content folder" in alone.err


def test_no_lock_file_is_left_after_a_build(bank: Path, cli: Callable[..., Run]) -> None:
    assert cli("build", "-f", "json", "-o", "out").code == 0
    assert sorted(p.name for p in Path("out").iterdir()) == [".quizbank-cache.json", "json"]
    assert cli("build", "-f", "json", "-o", "out").code == 0  # and the next build still locks


def test_a_folder_quizbank_did_not_make_is_refused_unless_forced(
    bank: Path, cli: Callable[..., Run]
) -> None:
    Path("mine").mkdir()
    Path("mine/notes.txt").write_text("mine")
    run = cli("build", "-o", "mine")
    assert run.code == 1
    assert "is not empty and was not made by quizbank" in run.err and "--force" in run.err
    assert _files(Path("mine")) == {"notes.txt": b"mine"}
    assert cli("build", "-o", "mine", "--force").code == 0
    assert Path("mine/notes.txt").read_text() == "mine"
    assert Path(f"mine/html/en/{QUIZ}.html").is_file()
    # Made by quizbank now: no --force needed again.
    assert cli("build", "-o", "mine").code == 0


def test_a_build_that_finds_no_quiz_touches_nothing(bank: Path, cli: Callable[..., Run]) -> None:
    assert cli("build", "-o", "out").code == 0
    before = _files(Path("out"))
    Path("empty").mkdir()
    run = cli("build", "empty", "-o", "out")
    assert run.code == 1 and "no quiz file found" in run.err
    assert _files(Path("out")) == before


def test_a_full_disk_changes_nothing(
    bank: Path, cli: Callable[..., Run], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert cli("build", "-o", "out").code == 0
    edit(bank / "en" / f"{QUIZ}.yaml", "Why are large", "Why are big")
    before = _files(Path("out"))

    def full(self: OutputFolder, relative: PurePosixPath, content: bytes) -> None:
        raise OSError(errno.ENOSPC, "No space left on device", str(relative))

    monkeypatch.setattr(OutputFolder, "write", full)
    run = cli("build", "-o", "out")
    assert run.code == 1
    assert run.err.strip().splitlines()[-1].endswith("No space left on device")
    assert "Traceback" not in run.err
    assert _files(Path("out")) == before


def test_a_new_output_folder_is_removed_again_when_the_build_fails(
    bank: Path, cli: Callable[..., Run]
) -> None:
    edit(bank / "en" / f"{QUIZ}.yaml", "answer: d", "answer: z")
    assert cli("build", "-o", "out/deeper").code == 1
    assert not Path("out/deeper").exists()


def test_a_cache_path_that_is_a_folder_is_refused_before_anything_is_written(
    bank: Path, cli: Callable[..., Run]
) -> None:
    assert cli("build", "-o", "out").code == 0
    edit(bank / "en" / f"{QUIZ}.yaml", "Why are large", "Why are big")
    cache = Path("out/.quizbank-cache.json")
    cache.unlink()
    cache.mkdir()
    before = _files(Path("out"))
    run = cli("build", "-o", "out", "--force")
    assert run.code == 1 and "is a folder, where quizbank writes a file" in run.err
    assert _files(Path("out")) == before


def test_staging_is_inside_the_output_folder_and_a_dead_builds_is_removed(
    bank: Path, cli: Callable[..., Run]
) -> None:
    assert cli("build", "-o", "out").code == 0
    dead = Path("out") / f"{STAGING_PREFIX}dead1"
    (dead / "html").mkdir(parents=True)
    (dead / "html" / "half.html").write_text("half")
    assert cli("build", "-o", "out").code == 0
    assert not dead.exists()
    assert not [p for p in Path().iterdir() if p.name.startswith(".")]  # nothing beside it


def test_a_commit_cut_short_is_finished_by_the_next_build(bank: Path) -> None:
    out = Path("out")
    folder = OutputFolder(out)
    folder.open()
    files = [PurePosixPath("html/en/a.html"), PurePosixPath("html/en/b.html")]
    for relative in files:
        folder.write(relative, relative.name.encode())
    assert folder.staging is not None
    # As if killed after the journal and the first rename.
    journal = {"staging": folder.staging.name, "files": [str(f) for f in files], "removed": []}
    (out / JOURNAL).write_text(json.dumps(journal))
    (out / "html/en").mkdir(parents=True)
    os.replace(folder.staging / files[0], out / files[0])
    folder._lock and os.close(folder._lock)
    folder._lock = None
    folder.staging = None
    again = OutputFolder(out)
    again.open()
    again.close()
    assert (out / "html/en/a.html").read_text() == "a.html"
    assert (out / "html/en/b.html").read_text() == "b.html"
    assert not (out / JOURNAL).exists()
    assert not [p for p in out.iterdir() if p.name.startswith(STAGING_PREFIX)]


def test_a_journal_naming_paths_outside_is_ignored(bank: Path, tmp_path: Path) -> None:
    out = Path("out")
    out.mkdir()
    victim = tmp_path / "victim.txt"
    victim.write_text("safe")
    staging = out / f"{STAGING_PREFIX}x"
    (staging / "html").mkdir(parents=True)
    (staging / "html" / "x").write_text("evil")
    for files in (["../victim.txt"], ["/etc/passwd"], [str(victim)]):
        (out / JOURNAL).write_text(json.dumps({"staging": staging.name, "files": files}))
        folder = OutputFolder(out)
        folder.open()
        folder.close()
    (out / JOURNAL).write_text(json.dumps({"staging": "../..", "files": ["victim.txt"]}))
    folder = OutputFolder(out)
    folder.open()
    folder.close()
    assert victim.read_text() == "safe"


def test_a_source_changed_while_it_is_built_is_not_taken_for_its_old_self(
    bank: Path, cli: Callable[..., Run], monkeypatch: pytest.MonkeyPatch
) -> None:
    source = bank / "en" / f"{QUIZ}.yaml"
    original = source.read_bytes()
    edited = original.replace(b"Why are large", b"Why are huge")
    check_quiz = quizbank.build.check_quiz

    def edited_meanwhile(*args: object, **kwargs: object) -> object:
        source.write_bytes(edited)  # the author saves while the build runs
        return check_quiz(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(quizbank.build, "check_quiz", edited_meanwhile)
    assert cli("build", "-o", "out").code == 0
    monkeypatch.setattr(quizbank.build, "check_quiz", check_quiz)
    page = Path(f"out/html/en/{QUIZ}.html")
    assert "Why are huge" in page.read_text(encoding="utf-8")
    source.write_bytes(original)  # and then restores the file byte for byte
    assert cli("build", "-o", "out").code == 0
    assert "Why are large" in page.read_text(encoding="utf-8")


def test_a_symbolic_link_problem_is_located_and_nothing_is_written(
    bank: Path, cli: Callable[..., Run]
) -> None:
    (bank / "en" / "broken.yaml").symlink_to("gone.yaml")
    run = cli("build", "-o", "out")
    assert run.code == 1
    assert (
        "content/en/broken.yaml:1:1: error: this is a symbolic link to 'gone.yaml', "
        "which does not exist"
    ) in run.out
    assert not Path("out").exists()


def test_too_many_jobs_are_capped_with_a_warning(bank: Path, cli: Callable[..., Run]) -> None:
    run = cli("build", "-o", "out", "-j", "1000")
    assert run.code == 0
    cores = os.cpu_count() or 1
    assert f"-j 1000 is more than twice the {cores} cores; using {2 * cores}" in run.err


def _big_bank(root: Path) -> Path:
    subprocess.run(
        [sys.executable, str(REPO / "benchmarks" / "generate.py"), str(root), "--quizzes", "60"],
        check=True,
        capture_output=True,
    )
    return root


def _session_processes(session: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[3]) == session and fields[0] != "Z":  # the session id
                found.append(int(entry.name))
    return found


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL])
def test_a_killed_build_leaves_no_worker_and_writes_nothing(
    tmp_path: Path, sig: signal.Signals
) -> None:
    content = _big_bank(tmp_path / "content")
    out = tmp_path / "out"
    build = subprocess.Popen(
        [sys.executable, "-m", "quizbank", "build", str(content), "-o", str(out), "-j", "2"],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    deadline = time.monotonic() + 60
    while not any((out).glob(f"{STAGING_PREFIX}*/html/*/*")) and time.monotonic() < deadline:
        time.sleep(0.05)
    build.send_signal(sig)
    _, err = build.communicate(timeout=30)
    if sig == signal.SIGTERM:
        assert build.returncode == 130
        assert "interrupted; nothing was written" in err and "Traceback" not in err
    deadline = time.monotonic() + 10
    while _session_processes(build.pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert _session_processes(build.pid) == []
    assert not out.exists() or not [
        p for p in out.rglob("*") if p.is_file() and ".quizbank" not in str(p)
    ]
    if out.exists():  # after kill -9, the staging folder of the dead build is left, until:
        rebuilt = subprocess.run(
            [sys.executable, "-m", "quizbank", "build", str(content), "-o", str(out)],
            cwd=REPO,
            capture_output=True,
            check=False,
        )
        assert rebuilt.returncode == 0, rebuilt.stderr
        assert not list(out.glob(f"{STAGING_PREFIX}*"))


def test_a_new_folder_is_moved_whole_with_only_the_files_listed(bank: Path) -> None:
    """A first build moves each format's staged folder with one rename; a staged folder that
    holds a file not listed, or whose place is taken, is moved file by file, and what is not
    listed stays out of the output folder."""
    out = Path("out")
    (out / "markdown").mkdir(parents=True)
    (out / "markdown" / "kept.md").write_text("kept")
    folder = OutputFolder(out)
    folder.open()
    names = (
        "html/en/a.html html/ur/b.html json/en/a.json json/x.json markdown/en/a.md markdown/b.md"
    )
    listed = [PurePosixPath(name) for name in names.split()]
    for relative in listed:
        folder.write(relative, relative.name.encode())
    folder.write(PurePosixPath("json/stray.json"), b"not listed")
    html_folder = folder.staged(PurePosixPath("html")).stat().st_ino
    folder.commit(listed, removed=[])
    assert (out / "html").stat().st_ino == html_folder  # one rename
    folder.close()
    assert set(_files(out)) == {*(str(p) for p in listed), "markdown/kept.md"}
    assert (out / "html/ur/b.html").read_text() == "b.html"
