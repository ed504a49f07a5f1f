"""Renderers are plug-ins: found through entry points, broken ones and clashes reported."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from conftest import QUIZ, REPO, Run

from quizbank.errors import UsageError
from quizbank.registry import discover_renderers

PLUGIN = Path(__file__).parent / "plugin"


@dataclass
class _Dist:
    name: str
    version: str = "1.0"


@dataclass
class _EntryPoint:
    """Stands in for importlib.metadata.EntryPoint, so no package needs installing."""

    name: str
    value: str
    dist: _Dist

    def load(self) -> Any:
        module, _, attr = self.value.partition(":")
        return getattr(__import__(module, fromlist=[attr]), attr)


def test_builtin_renderers_are_registered_through_entry_points() -> None:
    registry = discover_renderers()
    for name in ("html", "markdown", "moodle", "json"):
        entry = registry.get(name)
        assert entry.distribution == "quizbank"
        assert entry.cls.__module__.startswith("quizbank_renderers.")


def test_a_plugin_that_fails_to_import_is_a_warning_not_a_crash() -> None:
    points = [
        _EntryPoint("broken", "quizbank_no_such_module:Renderer", _Dist("quizbank-broken")),
        _EntryPoint("notarenderer", "json:dumps", _Dist("quizbank-odd")),
    ]
    registry = discover_renderers(points)  # type: ignore[arg-type]
    assert dict(registry.renderers) == {}
    assert registry.warnings == (
        "renderer 'broken' from quizbank-broken could not be loaded: ModuleNotFoundError: "
        "No module named 'quizbank_no_such_module'",
        "renderer 'notarenderer' from quizbank-odd is not a quizbank Renderer (json:dumps)",
    )


def test_a_plugin_claiming_a_builtin_name_is_ignored_and_the_rest_keep_working() -> None:
    value = "quizbank_renderers.json:JsonRenderer"
    points = [
        _EntryPoint("json", value, _Dist("quizbank")),
        _EntryPoint("json", "quizbank_renderers.markdown:MarkdownRenderer", _Dist("rival")),
        _EntryPoint("markdown", "quizbank_renderers.markdown:MarkdownRenderer", _Dist("quizbank")),
    ]
    registry = discover_renderers(points)  # type: ignore[arg-type]
    assert registry.get("json").distribution == "quizbank"
    assert registry.get("markdown").distribution == "quizbank"
    assert dict(registry.errors) == {
        "json": "the renderer name 'json' is taken twice: by quizbank and by rival; the "
        "built-in 'json' is used and rival's is ignored (rename its entry point)"
    }


def test_a_name_two_plugins_claim_is_refused_for_that_name_only() -> None:
    points = [
        _EntryPoint("txt", "quizbank_renderers.json:JsonRenderer", _Dist("one")),
        _EntryPoint("txt", "quizbank_renderers.markdown:MarkdownRenderer", _Dist("two")),
        _EntryPoint("json", "quizbank_renderers.json:JsonRenderer", _Dist("quizbank")),
    ]
    registry = discover_renderers(points)  # type: ignore[arg-type]
    assert list(registry.renderers) == ["json"]
    message = (
        "the renderer name 'txt' is taken twice: by one and by two; neither is used until one "
        "of them is renamed or uninstalled"
    )
    assert registry.errors == {"txt": message}
    with pytest.raises(UsageError) as raised:
        registry.get("txt")
    assert str(raised.value) == message


def test_only_the_formats_asked_for_are_imported() -> None:
    points = [
        _EntryPoint("json", "quizbank_renderers.json:JsonRenderer", _Dist("quizbank")),
        _EntryPoint("broken", "quizbank_no_such_module:Renderer", _Dist("quizbank-broken")),
        _EntryPoint("qti3", "quizbank_no_such_module:Qti3", _Dist("quizbank")),
    ]
    registry = discover_renderers(points, ["json"])  # type: ignore[arg-type]
    assert list(registry.renderers) == ["json"]
    assert registry.warnings == ()  # the broken plug-in was never imported
    assert registry.names == ["broken", "json", "qti3"]
    with pytest.raises(UsageError, match="unknown format 'pdf'; the formats are broken, json"):
        registry.get("pdf")
    everything = discover_renderers(points)  # type: ignore[arg-type]
    assert list(everything.renderers) == ["json"]
    assert len(everything.warnings) == 2


def test_a_one_format_build_does_not_hear_of_a_broken_plugin_it_does_not_use(
    bank: Path, tmp_path: Path, cli: Callable[..., Run], monkeypatch: pytest.MonkeyPatch
) -> None:
    points = [
        _EntryPoint("json", "quizbank_renderers.json:JsonRenderer", _Dist("quizbank")),
        _EntryPoint("broken", "quizbank_no_such_module:Renderer", _Dist("quizbank-broken")),
    ]
    real = discover_renderers
    monkeypatch.setattr(
        "quizbank.commands.printing.discover_renderers",
        lambda wanted=(): real(points, wanted),  # type: ignore[arg-type]
    )
    one = cli("build", "-f", "json", "-o", tmp_path / "one")
    assert one.code == 0, one.out + one.err
    assert "broken" not in one.err
    every = cli("build", "-o", tmp_path / "every")
    assert every.code == 0, every.out + every.err
    assert "quizbank: warning: renderer 'broken' from quizbank-broken could not be" in every.err
    asked = cli("build", "-f", "broken", "-o", tmp_path / "asked")
    assert asked.code == 2
    assert "unknown format 'broken'" in asked.err
    assert "renderer 'broken' from quizbank-broken could not be loaded" in asked.err
    assert not (tmp_path / "asked").exists()


def test_a_one_format_build_keeps_what_the_others_recorded_in_the_cache(
    bank: Path, tmp_path: Path, cli: Callable[..., Run]
) -> None:
    out = tmp_path / "out"
    assert cli("build", "-o", out).code == 0
    rebuilt = cli("build", "-o", out).out.split(" for ")[0]
    assert "unchanged" in rebuilt
    one = cli("build", "-f", "json", "-o", out)
    assert one.code == 0, one.out + one.err
    assert "(2 unchanged)" in one.out  # the quiz's JSON, in both languages
    again = cli("build", "-o", out)
    assert again.code == 0, again.out + again.err
    assert again.out.split(" for ")[0] == rebuilt  # every other format's record was kept


def test_formats_and_build_still_work_beside_a_clash(
    bank: Path, tmp_path: Path, cli: Callable[..., Run], monkeypatch: pytest.MonkeyPatch
) -> None:
    points = [
        *(
            _EntryPoint(name, f"quizbank_renderers.{module}", _Dist("quizbank"))
            for name, module in (
                ("json", "json:JsonRenderer"),
                ("markdown", "markdown:MarkdownRenderer"),
            )
        ),
        _EntryPoint("json", "quizbank_renderers.markdown:MarkdownRenderer", _Dist("rival")),
    ]
    real = discover_renderers
    monkeypatch.setattr(
        "quizbank.commands.printing.discover_renderers",
        lambda wanted=(): real(points, wanted),  # type: ignore[arg-type]
    )
    listed = cli("formats")
    assert listed.code == 0
    assert "quizbank: error: the renderer name 'json' is taken twice" in listed.err
    assert {
        line.split()[0]
        for line in listed.lines
        if line[:1].isalnum() and not line.startswith("set an option")
    } == {
        "json",
        "markdown",
    }
    built = cli("build", "-o", tmp_path / "out")
    assert built.code == 0, built.out + built.err
    assert (tmp_path / "out" / "json" / "en" / f"{QUIZ}.json").is_file()
    assert (tmp_path / "out" / "markdown" / "ur" / f"{QUIZ}.md").is_file()


@pytest.fixture(scope="module")
def installed_plugin(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """Install the test plug-in package for real (pip, entry points and all) into a folder."""
    target = tmp_path_factory.mktemp("site")
    source = tmp_path_factory.mktemp("source") / "plugin"
    shutil.copytree(PLUGIN, source)  # building in place would leave metadata in the repository
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--quiet",
            "--no-deps",
            "--no-build-isolation",
            "--target",
            str(target),
            str(source),
        ],
        check=True,
    )
    return {**os.environ, "PYTHONPATH": str(target)}


def test_installed_plugin_is_listed_by_formats(installed_plugin: dict[str, str]) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "quizbank", "formats"],
        capture_output=True,
        text=True,
        env=installed_plugin,
        check=True,
    )
    assert (
        "plaintext  Quizzes as plain text (a test plug-in)  (quizbank-plaintext 1.0.0)"
        in done.stdout
    )
    assert "    key (default true): append the answer key" in done.stdout
    for name in ("html", "markdown", "moodle", "json"):
        assert f"{name}  " in done.stdout


def test_installed_plugin_builds(installed_plugin: dict[str, str], tmp_path: Path) -> None:
    out = tmp_path / "dist"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "quizbank",
            "build",
            str(REPO / "content"),
            "-f",
            "plaintext",
            "-O",
            "key=false",
            "-o",
            str(out),
        ],
        capture_output=True,
        text=True,
        env=installed_plugin,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    quizzes = len(list((REPO / "content" / "en").glob("*.yaml")))
    assert quizzes >= 2
    # The second bundled quiz draws a section's questions and two questions' variants, which a
    # plug-in that draws nothing cannot: each is reported as a loss, then the summary.
    *losses, wrote, _ = done.stdout.splitlines()
    assert len(losses) == 3 and all(
        ": warning: plaintext: " in line and " draws no" in line for line in losses
    ), losses
    assert wrote.startswith(f"wrote {2 * quizzes} files for {quizzes} quizzes in 2 languages in ")
    text = (out / "plaintext" / "en" / f"{QUIZ}.txt").read_text(encoding="utf-8")
    assert text.startswith("Checkpoint sharding and resumable training\n\n1. Why are large")
    assert "key:" not in text


def test_the_readme_plugin_example_and_its_test_work(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The plug-in guide's renderer and its test are run as written, so the documentation stays
    true (docs/plugins.md)."""
    section = (REPO / "docs" / "plugins.md").read_text(encoding="utf-8")
    blocks = [block.split("```", 1)[0] for block in section.split("```python\n")[1:]]
    assert len(blocks) == 2
    namespace: dict[str, Any] = {}
    for block in blocks:
        exec(compile(block, "docs/plugins.md", "exec"), namespace)
    monkeypatch.chdir(REPO)
    namespace["test_plaintext_lists_every_question"](tmp_path)
    renderer = namespace["PlainTextRenderer"]
    points = [_EntryPoint("plaintext", "builtins:object", _Dist("quizbank-plaintext"))]
    monkeypatch.setattr(points[0], "load", lambda: renderer)
    monkeypatch.setitem(
        namespace,
        "discover_renderers",
        lambda: discover_renderers(points),  # type: ignore[arg-type]
    )
    namespace["test_plaintext_is_registered"]()
