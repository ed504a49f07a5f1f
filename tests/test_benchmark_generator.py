"""The benchmark's synthetic bank: valid, the size asked for, the same for a seed, in each of
its kinds (with every type, images and formulas; with variables and sections) building in every
default format; and the build cache it measures re-renders only what changed."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from quizbank.build import BuildRequest, BuildResult, build
from quizbank.cli import main
from quizbank.loader import load_quiz
from quizbank.model import MultipleChoice, SingleChoice
from quizbank.registry import Registry, discover_renderers

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
from generate import (
    FORMULAS,
    IMAGES,
    LANGUAGES,
    TYPES,
    VARIABLE_TYPES,
    edit_one_file,
    generate_bank,
    quiz_id,
)

QUIZZES, QUESTIONS = 4, 6
FORMATS = ["json", "markdown"]  # two renderers that load; the bank-wide schema.json comes too


@pytest.fixture(scope="module")
def registry() -> Registry:
    registry = discover_renderers()
    assert set(FORMATS) <= set(registry.renderers), registry.warnings
    return registry


@pytest.fixture
def generated(tmp_path: Path) -> Path:
    root = tmp_path / "content"
    generate_bank(root, QUIZZES, QUESTIONS, seed=7)
    return root


def _tree(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*.yaml"))}


def test_generated_bank_validates_without_a_problem(
    generated: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["validate", str(generated)]) == 0
    out = capsys.readouterr().out
    assert out.strip().endswith(f"0 errors, 0 warnings in {QUIZZES * len(LANGUAGES)} files")


def test_generated_bank_has_every_question_in_every_language(generated: Path) -> None:
    for lang in LANGUAGES:
        files = sorted((generated / lang).glob("*.yaml"))
        assert [f.stem for f in files] == [quiz_id(i) for i in range(QUIZZES)]
        quizzes = [load_quiz(f).quiz for f in files]
        assert all(quiz is not None for quiz in quizzes)
        assert sum(len(q.questions) for q in quizzes if q) == QUIZZES * QUESTIONS
        for quiz in quizzes:
            assert quiz is not None
            choices = [q for q in quiz.questions if isinstance(q, SingleChoice | MultipleChoice)]
            assert len(choices) == len(quiz.questions)
            assert all(len(q.options) == 4 for q in choices)


def test_generated_text_has_markdown_and_urdu(generated: Path) -> None:
    english = "".join(p.read_text(encoding="utf-8") for p in (generated / "en").glob("*.yaml"))
    urdu = "".join(p.read_text(encoding="utf-8") for p in (generated / "ur").glob("*.yaml"))
    assert "`" in english and "**" in english and "\n      - " in english
    assert "چیک" in urdu and "`" in urdu


def test_same_seed_same_bytes_other_seed_other_bytes(tmp_path: Path) -> None:
    generate_bank(tmp_path / "one", 2, 3, seed=11)
    generate_bank(tmp_path / "two", 2, 3, seed=11)
    generate_bank(tmp_path / "three", 2, 3, seed=12)
    assert _tree(tmp_path / "one") == _tree(tmp_path / "two")
    assert _tree(tmp_path / "one") != _tree(tmp_path / "three")


def _build(
    root: Path, out: Path, registry: Registry, options: list[str] | None = None, cache: bool = True
) -> BuildResult:
    request = BuildRequest([root], out, FORMATS, options=options or [], use_cache=cache)
    result = build(request, registry)
    assert not result.report.has_errors, [d.format() for d in result.report]
    return result


def test_rebuild_after_one_edit_renders_only_that_quiz(
    generated: Path, tmp_path: Path, registry: Registry
) -> None:
    out = tmp_path / "dist"
    per_quiz = len(FORMATS) * len(LANGUAGES)
    first = _build(generated, out, registry)
    assert (first.written, first.reused) == (QUIZZES * per_quiz + 1, 0)  # + json/schema.json
    before = {p: p.stat().st_mtime_ns for p in out.rglob("*") if p.is_file()}

    edited = edit_one_file(generated, 2, 1)
    again = _build(generated, out, registry)
    assert (again.written, again.reused) == (per_quiz + 1, (QUIZZES - 1) * per_quiz)
    changed = {p for p in out.rglob("*") if p.is_file() and before.get(p) != p.stat().st_mtime_ns}
    assert {p.relative_to(out).as_posix() for p in changed} == {
        ".quizbank-cache.json",
        "json/schema.json",
        *(
            f"{fmt}/{lang}/{edited.stem}.{ext}"
            for fmt, ext in (("json", "json"), ("markdown", "md"))
            for lang in LANGUAGES
        ),
    }
    assert "(edit 1)" in (out / "markdown" / "en" / f"{edited.stem}.md").read_text("utf-8")

    unchanged = _build(generated, out, registry)
    assert (unchanged.written, unchanged.reused) == (1, QUIZZES * per_quiz)


def test_changed_option_or_no_cache_renders_everything_again(
    generated: Path, tmp_path: Path, registry: Registry
) -> None:
    out = tmp_path / "dist"
    _build(generated, out, registry)
    per_format = QUIZZES * len(LANGUAGES)
    compact = _build(generated, out, registry, ["json.indent=2"])
    assert (compact.written, compact.reused) == (per_format + 1, per_format)  # json only
    assert _build(generated, out, registry, ["json.indent=2"]).written == 1
    everything = _build(generated, out, registry, ["json.indent=0"], cache=False)
    assert (everything.written, everything.reused) == (2 * per_format + 1, 0)


@pytest.mark.parametrize("split_max", [1 << 30, 0], ids=["formats-side-by-side", "too-big"])
def test_big_quizzes_built_on_both_cores_give_the_same_files(
    generated: Path,
    tmp_path: Path,
    registry: Registry,
    monkeypatch: pytest.MonkeyPatch,
    split_max: int,
) -> None:
    """A bank of few, big quizzes has each quiz's files checked by forked workers and, up to a
    size, its formats rendered by forked workers; beyond it, a format at a time."""
    import quizbank.build
    import quizbank.project

    serial = build(BuildRequest([generated], tmp_path / "serial", FORMATS, jobs=1), registry)
    monkeypatch.setattr(quizbank.project, "BIG_QUIZ_BYTES", 0)  # every quiz counts as big
    monkeypatch.setattr(quizbank.build, "SPLIT_MAX_BYTES", split_max)
    split = build(BuildRequest([generated], tmp_path / "split", FORMATS, jobs=2), registry)
    assert (split.written, split.reused) == (serial.written, 0)

    def files(root: Path) -> dict[str, bytes]:
        return {
            p.relative_to(root).as_posix(): p.read_bytes()
            for p in sorted(root.rglob("*"))
            if p.is_file() and p.name != ".quizbank-cache.json"
        }

    assert files(tmp_path / "split") == files(tmp_path / "serial")
    again = build(BuildRequest([generated], tmp_path / "split", FORMATS, jobs=2), registry)
    assert (again.written, again.reused) == (1, serial.written - 1)


def test_the_all_types_bank_has_every_type_and_validates(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = tmp_path / "content"
    generate_bank(root, 2, 9, seed=3, all_types=True)
    assert main(["validate", str(root)]) == 0, capsys.readouterr().out
    for lang in LANGUAGES:
        quiz = load_quiz(root / lang / f"{quiz_id(0)}.yaml").quiz
        assert quiz is not None
        assert sorted(q.type for q in quiz.questions) == sorted(TYPES)


KINDS = {
    "choices": {},
    "all-types": {"all_types": True},
    "variables-sections": {"variables_sections": True},
    "both": {"all_types": True, "variables_sections": True},
}


@pytest.mark.parametrize("kind", KINDS)
def test_every_kind_of_bank_validates_and_builds_in_every_default_format(
    kind: str, tmp_path: Path, registry: Registry, capsys: pytest.CaptureFixture[str]
) -> None:
    root = tmp_path / "content"
    generate_bank(root, 3, 10, seed=5, **KINDS[kind])
    assert main(["validate", str(root)]) == 0
    assert capsys.readouterr().out.strip().endswith("0 errors, 0 warnings in 6 files")
    defaults = [name for name, entry in registry.renderers.items() if entry.cls.builds_by_default]
    assert {"html", "json", "markdown", "moodle", "gift", "qti12", "qti3"} <= set(defaults)
    result = build(BuildRequest([root], tmp_path / "out", defaults, jobs=1), registry)
    assert not result.report.has_errors, [d.format() for d in result.report]
    for name in defaults:
        written = [p for p in (tmp_path / "out" / name).rglob("*") if p.is_file()]
        assert len(written) >= 6, name  # each quiz in each language, at least


def test_the_all_types_bank_shows_images_and_formulas_in_both_languages(tmp_path: Path) -> None:
    root = tmp_path / "content"
    generate_bank(root, 2, 9, seed=3, all_types=True)
    assert (root / "images" / IMAGES[0]).read_bytes().startswith(b"\x89PNG\r\n")
    assert (root / "images" / IMAGES[1]).read_text("utf-8").startswith("<svg ")
    for lang in LANGUAGES:
        text = (root / lang / f"{quiz_id(0)}.yaml").read_text("utf-8")
        assert all(f"](../images/{image})" in text for image in IMAGES)
        assert all(formula in text for formula in FORMULAS)
        assert f"${FORMULAS[0]}$" in text  # displayed in an explanation too


def test_the_variables_sections_bank_has_variables_and_sections_that_draw(tmp_path: Path) -> None:
    root = tmp_path / "content"
    generate_bank(root, 2, 12, seed=3, variables_sections=True)
    for lang in LANGUAGES:
        plain, sectioned = (load_quiz(root / lang / f"{quiz_id(i)}.yaml").quiz for i in (0, 1))
        assert plain is not None and sectioned is not None
        with_variables = [q for q in plain.questions if getattr(q, "variables", None)]
        assert {q.type for q in with_variables} == set(VARIABLE_TYPES)
        assert all(q.type not in VARIABLE_TYPES for q in plain.questions if q not in with_variables)
        assert not plain.sections
        assert sectioned.sections is not None and len(sectioned.sections) == 3
        first = sectioned.sections[0]
        assert first.pick is not None and first.pick < len(first.questions)
        drawn = [question for section in sectioned.sections for question in section.questions]
        assert drawn == [q.id for q in sectioned.questions]


def test_lower_bounds_times_every_part_of_each_format(generated: Path) -> None:
    """benchmarks/lower_bounds.py: a row per part, each a number beside its ratio to the floor;
    the deflating of zips only for a format that writes zips."""
    script = Path(__file__).resolve().parent.parent / "benchmarks" / "lower_bounds.py"
    done = subprocess.run(
        [sys.executable, str(script), str(generated), "--formats", "json", "qti3"],
        capture_output=True,
        text=True,
        check=True,
    )
    rows = {
        line[:48].strip(): line[48:].split()
        for line in done.stdout.splitlines()[2:]  # after the count and the header
    }
    assert list(rows) == [
        "floor (CSafeLoader)",
        "compose (YAML nodes with positions)",
        "check every quiz",
        "json: the texts' Markdown",
        "json: the writer, texts at hand",
        "qti3: the texts' Markdown",
        "qti3: the writer, texts at hand",
        "qti3: deflating its zips (in the writer's)",
    ]
    assert all(len(figures) == 2 for figures in rows.values())
    floor = float(rows["floor (CSafeLoader)"][0])
    assert floor > 0 and rows["floor (CSafeLoader)"][1] == "1.00"
    assert all(float(seconds) >= 0 and float(ratio) >= 0 for seconds, ratio in rows.values())
    assert done.stdout.startswith(f"{2 * QUIZZES} files, {QUIZZES} quizzes")
