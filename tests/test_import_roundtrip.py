"""Round trip: every bundled quiz and the test banks of every type (with images and formulas),
exported by quizbank's own Moodle XML (per language, multilang spans, mlang2) and GIFT renderers,
then imported, give back the same validated quizzes.

"The same" is what an export can carry: texts equal after Markdown normalisation (rendered to
HTML by quizbank.markup); the ids of options, pairs, items and gaps by position (Moodle keeps no
id for them); a match's drop-down choice and a cloze's drop-down option as plain text (Moodle
keeps them so); the quiz's level is not in Moodle (`intermediate`), its guide neither. In a
multilang file the category's name carries every language's title, and each question every
language's accepted answers (each language gets back those in its own script).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from asked import asked
from conftest import REPO

from quizbank.build import BuildRequest, build
from quizbank.cli import main
from quizbank.importer.command import import_files
from quizbank.loader import load_quiz
from quizbank.markup import find_images, to_html, to_plain
from quizbank.model import (
    GAP,
    ChoiceGap,
    Cloze,
    Matching,
    MultipleChoice,
    Numerical,
    Ordering,
    Question,
    Quiz,
    SingleChoice,
    question_texts,
)
from quizbank.registry import discover_renderers
from quizbank.variables import variable_values, variant_question, variants

LETTERS = "abcdefghijklmnopqrstuvwxyz"
SOURCES = {
    "content": REPO / "content",
    "types": REPO / "tests" / "fixtures" / "types",
    "media": REPO / "tests" / "fixtures" / "media",
}
# What the real Moodle's exports hold: the bundled English quiz as it was when Moodle exported
# resuming-training-en.xml (the content has been edited since).
EXPORTED = {**SOURCES, "exported": REPO / "tests" / "fixtures" / "moodle-export" / "exported"}
TEXTS = {"prompt", "explanation", "text", "feedback", "feedback_true", "feedback_false"}
TEXTS |= {"item", "grader_info"}


def originals(source: Path, written_by: str | None = None) -> dict[tuple[str, str], Quiz]:
    """The quizzes of a source folder; with `written_by`, as that format's renderer is given
    them (`as_written`)."""
    found = {}
    for path in sorted(source.glob("*/*.yaml")):
        loaded = load_quiz(path)
        assert loaded.quiz is not None
        quiz = loaded.quiz if written_by is None else as_written(loaded.quiz, written_by)
        found[(quiz.lang, quiz.id)] = quiz
    return found


def as_written(quiz: Quiz, fmt: str) -> Quiz:
    """The quiz as the renderer of `fmt` is given it (quizbank.renderer.rendered_quiz): one
    that draws no variants writes each question with variables as its first variant (a loss
    that build reports), and that is what an import can give back; its `seed` and `decimals`
    shaped the variant and are gone with the variables. Moodle XML draws them (calculated)."""
    if discover_renderers().get(fmt).cls.handles_variables:
        return quiz
    questions = [
        variant_question(question, variants(quiz.id, question)[0]).model_copy(
            update={"seed": None, "decimals": None}
        )
        if isinstance(question, Numerical | Cloze) and question.variables
        else question
        for question in quiz.questions
    ]
    return quiz.model_copy(update={"questions": questions})


@pytest.fixture(scope="module")
def exports(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Each source built as Moodle XML (with both multilang syntaxes) and GIFT."""
    built = {}
    for name, source in SOURCES.items():
        for variant, options in (
            ("spans", ["moodle.multilang=true"]),
            ("mlang2", ["moodle.multilang=mlang2"]),
        ):
            out = tmp_path_factory.mktemp(f"{name}-{variant}")
            formats = ["moodle", "gift"] if variant == "spans" else ["moodle"]
            request = BuildRequest([source], out, formats, options=options, use_cache=False, jobs=1)
            assert not build(request, discover_renderers()).report.has_errors
            built[f"{name}-{variant}"] = out
    return built


def relabelled(question: Question) -> dict[str, Any]:
    """The question as an import gives it back: ids by position, gaps numbered in order."""
    data = question.model_dump(exclude={"source"}, exclude_defaults=False)
    if isinstance(question, SingleChoice | MultipleChoice):
        ids = {o.id: LETTERS[n] for n, o in enumerate(question.options)}
        for option in data["options"]:
            option["id"] = ids[option["id"]]
        data["answer"] = (
            ids[data["answer"]]
            if isinstance(question, SingleChoice)
            else [ids[a] for a in data["answer"]]
        )
    elif isinstance(question, Matching):
        for n, entry in enumerate([*data["pairs"], *data["distractors"]]):
            entry["id"] = LETTERS[n]
    elif isinstance(question, Ordering):
        for n, item in enumerate(data["items"]):
            item["id"] = LETTERS[n]
    elif isinstance(question, Cloze):
        numbers = {gap_id: str(n + 1) for n, gap_id in enumerate(question.gap_order)}
        data["prompt"] = GAP.sub(lambda m: f"[[{numbers[m[1]]}]]", question.prompt)
        gaps = {}
        for gap_id, gap in question.gaps.items():
            dumped = data["gaps"][gap_id]
            if isinstance(gap, ChoiceGap):
                ids = {o.id: LETTERS[n] for n, o in enumerate(gap.options)}
                for option in dumped["options"]:
                    option["id"] = ids[option["id"]]
                dumped["answer"] = ids[dumped["answer"]]
            gaps[numbers[gap_id]] = dumped
        data["gaps"] = dict(sorted(gaps.items()))
    return data


def normalised(value: Any, lang: str, key: str = "", plain: bool = False) -> Any:
    """Texts as the HTML they show (a plain field as its plain text); numbers as floats."""
    if isinstance(value, dict):
        return {
            k: normalised(
                v, lang, k, plain or k in ("distractors",) or (k == "options" and key == "gap")
            )
            for k, v in value.items()
            if v is not None
        }
    if isinstance(value, list):
        return [normalised(item, lang, key, plain) for item in value]
    if isinstance(value, str) and (key == "match" or (plain and key == "text")):
        return " ".join(to_plain(value).split())
    if isinstance(value, str) and key in TEXTS:
        return " ".join(to_html(value, lang).split())
    if isinstance(value, int | float) and not isinstance(value, bool):
        return float(value)
    return value


def comparable(question: Question, lang: str, quiz_id: str = "") -> Any:
    """What the round trip keeps of a question. Of one with variables: the formula, the
    variables' names and bounds, and every variant's values (Moodle's dataset items: drawn
    variants come back listed, and a range's step as its decimals)."""
    data = relabelled(question)
    if isinstance(question, Numerical | Cloze) and question.variables:
        data["variants"] = variants(quiz_id, question)
        data["variables"] = {
            name: (min(values), max(values))
            for name in question.variables
            for values in (variable_values(question.variables[name]),)
        }
        data["seed"] = None
    if isinstance(question, Cloze):
        data["gaps"] = {k: normalised(g, lang, "gap") for k, g in data["gaps"].items()}
    return normalised(data, lang)


def imported(
    files: list[Path], tmp_path: Path, lang: str | None = None
) -> dict[tuple[str, str], Quiz]:
    content = tmp_path / "content"
    report = import_files(files, content, lang)
    assert not [d.format() for d in report.diagnostics if d.severity.name == "ERROR"]
    return originals(content)


def assert_same(
    original: Quiz,
    back: Quiz,
    *,
    multilang_reference: str | None = None,
    any_order: bool = False,
    every_title: bool = True,
) -> None:
    assert back.id == original.id
    assert back.lang == original.lang
    if every_title or back.lang == multilang_reference:
        assert to_plain(back.title) == to_plain(original.title)
    assert to_html(back.description, back.lang) == to_html(original.description, original.lang)
    assert back.tags == original.tags
    # Sections are sub-categories: their ids (from the reference language's titles), titles
    # and questions come back; Moodle's question XML keeps no pick.
    assert [(s.title, s.questions) for s in back.sections or ()] == [
        (s.title, s.questions) for s in original.sections or ()
    ]
    theirs_by_id = {q.id: q for q in original.questions}
    if any_order:  # Moodle's own export lists a category's questions by type
        assert sorted(q.id for q in back.questions) == sorted(theirs_by_id)
    else:
        assert [q.id for q in back.questions] == [q.id for q in original.questions]
    for mine in back.questions:
        theirs = theirs_by_id[mine.id]
        left = comparable(mine, back.lang, back.id)
        right = comparable(theirs, original.lang, original.id)
        if multilang_reference:  # each language's answers, and the others' in its script
            for got, wanted in zip(accepted(left), accepted(right), strict=True):
                assert set(wanted) <= set(got), mine.id
        assert left == right, mine.id


def accepted(question: dict[str, Any]) -> list[list[str]]:
    """The accepted answers of a question and its gaps, taken out of it."""
    parts = [question, *question.get("gaps", {}).values()]
    return [part.pop("answer") for part in parts if part.get("type") == "short_answer"]


@pytest.mark.parametrize("source", list(SOURCES))
def test_each_language_file_gives_back_its_quizzes(
    source: str, exports: dict[str, Path], tmp_path: Path
) -> None:
    wanted = originals(SOURCES[source], "moodle")
    for lang in sorted({lang for lang, _ in wanted}):
        files = sorted((exports[f"{source}-spans"] / "moodle" / lang).glob("*.xml"))
        back = imported(files, tmp_path / lang)
        assert set(back) == {key for key in wanted if key[0] == lang}
        for key, quiz in back.items():
            assert_same(wanted[key], quiz)


@pytest.mark.parametrize("variant", ["spans", "mlang2"])
@pytest.mark.parametrize("source", list(SOURCES))
def test_a_multilang_file_gives_back_every_language(
    source: str, variant: str, exports: dict[str, Path], tmp_path: Path
) -> None:
    wanted = originals(SOURCES[source], "moodle")
    files = sorted((exports[f"{source}-{variant}"] / "moodle" / "multilang").glob("*.xml"))
    assert files
    back = imported(files, tmp_path)
    assert set(back) == set(wanted)
    for key, quiz in back.items():
        assert_same(wanted[key], quiz, multilang_reference="en")


def test_a_multilang_file_imports_one_language_when_asked(
    exports: dict[str, Path], tmp_path: Path
) -> None:
    files = sorted((exports["content-spans"] / "moodle" / "multilang").glob("*.xml"))
    back = imported(files, tmp_path, lang="ur")
    assert {lang for lang, _ in back} == {"ur"}


@pytest.mark.parametrize(
    ("variant", "folder", "options"),
    [
        ("spans", "moodle/multilang", []),
        ("mlang2", "moodle/multilang", []),
        ("spans", "moodle/en", []),
        ("spans", "moodle/ur", []),
        ("spans", "gift/en", ["--lang", "en"]),
        ("spans", "gift/ur", ["--lang", "ur"]),
    ],
)
def test_the_bundled_content_imports_back_with_nothing_to_act_on(
    variant: str,
    folder: str,
    options: list[str],
    exports: dict[str, Path],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """quizbank's own exports of the bundled quizzes import back with exit 0: nothing left out,
    no placeholder title (the multilang file's category names every language)."""
    files = sorted(str(path) for path in (exports[f"content-{variant}"] / folder).iterdir())
    assert files
    code = main(["import", *files, *options, "-o", str(tmp_path / "content")])
    out = capsys.readouterr().out
    assert code == 0, out
    source = str(exports[f"content-{variant}"])
    assert not [line for line in out.splitlines() if line.startswith(source)], out  # no loss
    assert "warning" not in out and "placeholder text" not in out, out
    summary = next(line for line in out.splitlines() if line.startswith("imported "))
    assert ";" not in summary, out


def test_images_come_back_as_the_same_files(exports: dict[str, Path], tmp_path: Path) -> None:
    files = sorted((exports["media-spans"] / "moodle" / "en").glob("*.xml"))
    content = tmp_path / "content"
    import_files(files, content)
    for image in (SOURCES["media"] / "images").iterdir():
        assert (content / "images" / image.name).read_bytes() == image.read_bytes()


GIFT_TYPES = {"single_choice", "multiple_choice", "true_false", "numerical", "short_answer"}
GIFT_TYPES |= {"matching", "essay"}
# What GIFT cannot say (its renderer reports each as a loss).
GIFT_LOSES = ("shuffle", "points", "case_sensitive", "grader_info", "min_words", "max_words")
# A variant is a plain numerical question in GIFT: what drew it stays behind.
GIFT_LOSES += ("variables", "variants", "seed", "decimals")


@pytest.mark.parametrize("source", ["content", "types"])
def test_gift_gives_back_the_types_gift_has(
    source: str, exports: dict[str, Path], tmp_path: Path
) -> None:
    wanted = originals(SOURCES[source], "gift")
    for lang in ("en", "ur"):
        files = sorted((exports[f"{source}-spans"] / "gift" / lang).glob("*.gift"))
        import_files(files, tmp_path / lang / "content", lang)
        back = originals(tmp_path / lang / "content")
        assert set(back) == {key for key in wanted if key[0] == lang}
        for key, quiz in back.items():
            kept = {  # what GIFT writes: a question with variables as a question per variant
                (q.id if n == 0 else f"{q.id}-{n}"): (
                    q if n == 0 else q.model_copy(update={"id": f"{q.id}-{n}"})
                )
                for q, n in asked(wanted[key], GIFT_TYPES)
            }
            assert sorted(q.id for q in quiz.questions) == sorted(kept)  # the rest left out
            for question in quiz.questions:
                original = kept[question.id]
                if any(find_images(text) for _, text in question_texts(original)):
                    continue  # GIFT carries no file: an image is its alt text, a reported loss
                mine, theirs = comparable(question, lang), comparable(original, lang)
                for lost in GIFT_LOSES:
                    mine.pop(lost, None)
                    theirs.pop(lost, None)
                assert mine == theirs, question.id


def test_the_imported_files_build_again(exports: dict[str, Path], tmp_path: Path) -> None:
    files = sorted((exports["types-spans"] / "moodle" / "multilang").glob("*.xml"))
    content = tmp_path / "content"
    import_files(files, content)
    request = BuildRequest([content], tmp_path / "dist", ["moodle"], use_cache=False, jobs=1)
    assert not build(request, discover_renderers()).report.has_errors


@pytest.mark.parametrize(
    ("fixture", "source", "reference"),
    [
        ("every-type-multilang.xml", "types", "en"),
        ("media-ur.xml", "media", None),
        ("resuming-training-en.xml", "exported", None),
    ],
)
def test_moodles_own_export_imports_as_the_quizzes_it_holds(
    fixture: str, source: str, reference: str | None, tmp_path: Path
) -> None:
    """Files the real Moodle 4.5 exported (scripts/moodle-roundtrip): its own type names
    (`matching`, `cloze`), its questions listed by type, an empty parent category, its
    comments."""
    wanted = originals(EXPORTED[source])
    back = imported([REPO / "tests" / "fixtures" / "moodle-export" / fixture], tmp_path)
    assert back
    for key, quiz in back.items():
        # every-type-multilang.xml was made before the category named every language
        multilang = reference is not None
        assert_same(
            wanted[key],
            quiz,
            multilang_reference=reference,
            any_order=True,
            every_title=not multilang,
        )


def test_code_in_a_match_survives_the_moodle_round_trip(tmp_path: Path) -> None:
    """A match is plain text in Moodle (a drop-down): its code keeps its backticks there, as a
    reader of plain text writes code, and comes back as code."""
    source = tmp_path / "source"
    (source / "en").mkdir(parents=True)
    (source / "en" / "calls.yaml").write_text(
        "id: calls\nlang: en\ntitle: Calls\ndescription: Which call does what.\n"
        "level: beginner\nquestions:\n"
        "  - id: match-code\n    type: matching\n    prompt: Match each step to its call.\n"
        "    pairs:\n"
        '      - {id: a, item: Saving, match: "`torch.save`"}\n'
        '      - {id: b, item: Loading, match: "`torch.load` then ``a`b``"}\n'
        '    distractors:\n      - {id: c, text: "`print`"}\n'
        "    explanation: They are a pair.\n",
        encoding="utf-8",
    )
    out = tmp_path / "dist"
    request = BuildRequest([source], out, ["moodle"], use_cache=False, jobs=1)
    assert not build(request, discover_renderers()).report.has_errors
    back = imported(sorted((out / "moodle" / "en").glob("*.xml")), tmp_path)
    [question] = back[("en", "calls")].questions
    assert isinstance(question, Matching)
    assert [pair.match for pair in question.pairs] == ["`torch.load` then ``a`b``", "`torch.save`"][
        ::-1
    ]
    assert [d.text for d in question.distractors] == ["`print`"]
