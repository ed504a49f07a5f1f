"""`quizbank build`: nothing written on error, atomic output, the cache and its invalidation."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Iterator
from pathlib import Path, PurePosixPath
from typing import Any

import pytest
from conftest import QUIZ, edit

from quizbank.build import BuildRequest, BuildResult, build
from quizbank.cache import code_fingerprint
from quizbank.errors import UsageError
from quizbank.registry import Registry, RendererEntry
from quizbank.renderer import OutputFile, QuizTranslations

sys.path.insert(0, str(Path(__file__).parent / "plugin"))
from quizbank_plaintext import PlainTextRenderer


def _registry(*classes: type[PlainTextRenderer]) -> Registry:
    return Registry(
        {c.name: RendererEntry(c.name, c, "quizbank-plaintext", "1.0.0") for c in classes}
    )


REGISTRY = _registry(PlainTextRenderer)


def _snapshot(root: Path) -> dict[str, tuple[bytes, int]]:
    return {
        str(p.relative_to(root)): (p.read_bytes(), p.stat().st_mtime_ns)
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


def _add_quiz(bank: Path, quiz_id: str) -> None:
    for lang in ("en", "ur"):
        text = (bank / lang / f"{QUIZ}.yaml").read_text(encoding="utf-8")
        (bank / lang / f"{quiz_id}.yaml").write_text(
            text.replace(f"id: {QUIZ}", f"id: {quiz_id}"), encoding="utf-8"
        )


def _build(bank: Path, out: Path, **kwargs: Any) -> BuildResult:
    return build(BuildRequest(paths=[bank], out_dir=out, **kwargs), REGISTRY)


def test_build_writes_format_language_quiz_layout(bank: Path, tmp_path: Path) -> None:
    out = tmp_path / "dist"
    result = _build(bank, out)
    assert not result.report.has_errors
    assert (
        (out / "plaintext" / "en" / f"{QUIZ}.txt")
        .read_text(encoding="utf-8")
        .startswith("Checkpoint sharding and resumable training\n")
    )
    assert "چیک پوائنٹ" in (out / "plaintext" / "ur" / f"{QUIZ}.txt").read_text(encoding="utf-8")
    assert result.written == 2 and result.quizzes == 1 and result.languages == 2


def test_invalid_bank_leaves_existing_output_exactly_as_it_was(bank: Path, tmp_path: Path) -> None:
    out = tmp_path / "dist"
    _build(bank, out)
    before = _snapshot(tmp_path)
    edit(bank / "en" / f"{QUIZ}.yaml", "answer: d", "answer: e")
    result = _build(bank, out)
    assert result.report.has_errors
    after = _snapshot(tmp_path)
    after.pop(f"content/en/{QUIZ}.yaml")
    before.pop(f"content/en/{QUIZ}.yaml")
    assert after == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["content", "dist", "schema"]


def test_invalid_bank_creates_no_output_folder(bank: Path, tmp_path: Path) -> None:
    edit(bank / "ur" / f"{QUIZ}.yaml", "answer: d", "answer: a")
    result = _build(bank, tmp_path / "dist")
    assert result.report.has_errors
    assert sorted(p.name for p in tmp_path.iterdir()) == ["content", "schema"]


class _Exploding(PlainTextRenderer):
    name = "exploding"

    def render_quiz(self, quiz: QuizTranslations) -> Iterator[OutputFile]:
        yield OutputFile(PurePosixPath("en", "first.txt"), b"half")
        raise RuntimeError("renderer crashed half way")


def test_a_crash_half_way_writes_nothing(bank: Path, tmp_path: Path) -> None:
    out = tmp_path / "dist"
    with pytest.raises(RuntimeError):
        build(BuildRequest(paths=[bank], out_dir=out), _registry(PlainTextRenderer, _Exploding))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["content", "schema"]


class _Escaping(PlainTextRenderer):
    name = "escaping"

    def render_quiz(self, quiz: QuizTranslations) -> Iterator[OutputFile]:
        yield OutputFile(PurePosixPath("..", "..", "evil.txt"), b"outside")


def test_a_renderer_cannot_write_outside_its_folder(bank: Path, tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="only write inside its folder"):
        build(BuildRequest(paths=[bank], out_dir=tmp_path / "dist"), _registry(_Escaping))
    assert not (tmp_path / "evil.txt").exists()


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"formats": ["pdf"]}, "unknown format 'pdf'; the formats are plaintext"),
        ({"languages": ["fr"]}, "no quiz is in 'fr'; the languages are en, ur"),
        (
            {"options": ["colour=red"]},
            "no chosen format has the option 'colour'; the options are plaintext.key",
        ),
        (
            {"options": ["key=maybe"]},
            "renderer 'plaintext' option 'key': Input should be a valid boolean",
        ),
        ({"options": ["key"]}, "-O takes KEY=VALUE, got 'key'"),
    ],
)
def test_usage_errors_list_the_valid_choices(
    bank: Path, tmp_path: Path, kwargs: dict[str, list[str]], message: str
) -> None:
    with pytest.raises(UsageError) as raised:
        _build(bank, tmp_path / "dist", **kwargs)
    assert str(raised.value).startswith(message)
    assert not (tmp_path / "dist").exists()


def test_options_reach_the_renderer(bank: Path, tmp_path: Path) -> None:
    out = tmp_path / "dist"
    _build(bank, out, options=["plaintext.key=false"], languages=["en"])
    assert "key:" not in (out / "plaintext" / "en" / f"{QUIZ}.txt").read_text(encoding="utf-8")
    assert not (out / "plaintext" / "ur").exists()


def test_rebuild_renders_only_the_changed_quiz(bank: Path, tmp_path: Path) -> None:
    for quiz_id in ("alpha", "beta", "gamma"):
        _add_quiz(bank, quiz_id)
    out = tmp_path / "dist"
    first = _build(bank, out)
    assert first.written == 8 and first.reused == 0
    unchanged = _build(bank, out)
    assert unchanged.written == 0 and unchanged.reused == 8
    edit(bank / "ur" / "beta.yaml", "title: چیک پوائنٹ", "title: نیا چیک پوائنٹ")
    changed = _build(bank, out)
    assert changed.written == 2 and changed.reused == 6
    assert "نیا چیک پوائنٹ" in (out / "plaintext" / "ur" / "beta.txt").read_text(encoding="utf-8")


def test_changed_option_or_no_cache_renders_again(bank: Path, tmp_path: Path) -> None:
    out = tmp_path / "dist"
    _build(bank, out)
    assert _build(bank, out, options=["key=false"]).written == 2
    assert _build(bank, out, options=["key=false"]).written == 0
    assert _build(bank, out, options=["key=false"], use_cache=False).written == 2


def test_deleted_or_edited_output_is_written_again(bank: Path, tmp_path: Path) -> None:
    out = tmp_path / "dist"
    _build(bank, out)
    target = out / "plaintext" / "en" / f"{QUIZ}.txt"
    target.unlink()
    assert _build(bank, out).written == 2
    assert target.is_file()


def test_a_removed_quiz_loses_its_outputs(bank: Path, tmp_path: Path) -> None:
    _add_quiz(bank, "alpha")
    out = tmp_path / "dist"
    _build(bank, out)
    assert (out / "plaintext" / "en" / "alpha.txt").is_file()
    for lang in ("en", "ur"):
        os.remove(bank / lang / "alpha.yaml")
    _build(bank, out)
    assert not (out / "plaintext" / "en" / "alpha.txt").exists()
    assert (out / "plaintext" / "en" / f"{QUIZ}.txt").is_file()


def test_large_bank_uses_worker_processes_with_the_same_result(bank: Path, tmp_path: Path) -> None:
    for index in range(10):
        _add_quiz(bank, f"quiz-{index}")
    serial, parallel = tmp_path / "serial", tmp_path / "parallel"
    _build(bank, serial, jobs=1)
    result = _build(bank, parallel, jobs=2)
    assert result.written == 22
    assert {k: v[0] for k, v in _snapshot(serial / "plaintext").items()} == {
        k: v[0] for k, v in _snapshot(parallel / "plaintext").items()
    }


def test_edited_renderer_code_misses_the_cache(
    bank: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A renderer being developed keeps its version number; its code's hash still changes."""
    module = tmp_path / "edited_renderer.py"
    module.write_text(
        "from quizbank_plaintext import PlainTextRenderer\n\n\n"
        "class Edited(PlainTextRenderer):\n    name = 'edited'\n",
        encoding="utf-8",
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    from edited_renderer import Edited  # type: ignore[import-not-found]

    out = tmp_path / "dist"
    registry = _registry(Edited)
    assert build(BuildRequest(paths=[bank], out_dir=out), registry).written == 2
    assert build(BuildRequest(paths=[bank], out_dir=out), registry).written == 0
    module.write_text(module.read_text(encoding="utf-8") + "# changed\n", encoding="utf-8")
    code_fingerprint.cache_clear()  # a new build is a new process
    assert build(BuildRequest(paths=[bank], out_dir=out), registry).written == 2


def test_switching_an_option_back_renders_again(bank: Path, tmp_path: Path) -> None:
    """Outputs of one option set are not taken for another's once overwritten."""
    out = tmp_path / "dist"
    target = out / "plaintext" / "en" / f"{QUIZ}.txt"
    _build(bank, out)
    _build(bank, out, options=["key=false"])
    assert "key:" not in target.read_text(encoding="utf-8")
    assert _build(bank, out).written == 2
    assert "key:" in target.read_text(encoding="utf-8")


def _edit_keeping_size_and_time(path: Path, old: str, new: str) -> None:
    """An edit a coarse file-system clock would not see: same size, same modification time."""
    assert len(old.encode()) == len(new.encode())
    before = path.stat()
    edit(path, old, new)
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))


def _settle(bank: Path) -> None:
    """Make every source look written an hour ago."""
    hour_ago = time.time_ns() - 3600 * 10**9
    for path in bank.rglob("*.yaml"):
        os.utime(path, ns=(hour_ago, hour_ago))


def test_a_just_written_file_is_read_again_even_if_its_stamp_is_unchanged(
    bank: Path, tmp_path: Path
) -> None:
    for path in bank.rglob("*.yaml"):
        os.utime(path)  # written just now
    out = tmp_path / "dist"
    _build(bank, out)
    _edit_keeping_size_and_time(
        bank / "en" / f"{QUIZ}.yaml", "resumable training", "resumable trainers"
    )
    rebuilt = _build(bank, out)
    assert rebuilt.written == 2
    assert "resumable trainers" in (out / "plaintext" / "en" / f"{QUIZ}.txt").read_text("utf-8")


def test_settled_unchanged_sources_are_not_read_again_and_edits_still_count(
    bank: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _settle(bank)
    out = tmp_path / "dist"
    _build(bank, out)
    with monkeypatch.context() as patched:
        read_bytes = Path.read_bytes

        def no_source_read(self: Path) -> bytes:
            if self.suffix == ".yaml":
                pytest.fail(f"{self} was read")
            return read_bytes(self)  # the cache itself is read, of course

        patched.setattr(Path, "read_bytes", no_source_read)
        assert _build(bank, out).reused == 2
    edit(bank / "en" / f"{QUIZ}.yaml", "resumable training", "resumable trainers")
    assert _build(bank, out).written == 2
    _settle(bank)  # same size, new time: the stamp differs from the one recorded
    edit(bank / "en" / f"{QUIZ}.yaml", "resumable trainers", "resumable training")
    assert _build(bank, out).written == 2
