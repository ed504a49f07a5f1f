"""`quizbank import` as its user meets it: files written per quiz and language that validate at
once, losses one line per question at its line, the exit code, existing files never replaced
without --force, every file or none, nothing outside the content folder."""

# ruff: noqa: RUF001 - Urdu punctuation is meant

from __future__ import annotations

import base64
import os
from pathlib import Path

import pytest
import yaml
from conftest import REPO

from quizbank.cli import main
from quizbank.importer.command import import_files
from quizbank.loader import load_quiz
from quizbank.status import bank_status

PNG = (REPO / "tests" / "fixtures" / "media" / "images" / "grid.png").read_bytes()


def moodle_file(path: Path, *questions: str, category: str = "Physics/Waves basics") -> Path:
    path.write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n<quiz>\n'
        '<question type="category">\n'
        f"<category><text>$course$/top/{category}</text></category>\n"
        '<info format="html"><text>Waves and how they move.</text></info>\n'
        "</question>\n" + "\n".join(questions) + "\n</quiz>\n",
        encoding="utf-8",
    )
    return path


def choice(name: str, prompt: str = "Which is a wave?", extra: str = "") -> str:
    return (
        '<question type="multichoice">\n'
        f"<name><text>{name}</text></name>\n"
        f'<questiontext format="html"><text><![CDATA[<p>{prompt}</p>]]></text></questiontext>\n'
        '<generalfeedback format="html"><text>Sound moves as a wave.</text></generalfeedback>\n'
        f"<idnumber>{name}</idnumber>{extra}\n"
        "<single>true</single>\n"
        '<answer fraction="100" format="html"><text>Sound</text></answer>\n'
        '<answer fraction="0" format="html"><text>A rock</text></answer>\n'
        "</question>"
    )


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["import", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_a_file_becomes_one_valid_quiz_per_category(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = moodle_file(tmp_path / "waves.xml", choice("what-wave"), choice("second", "Is light?"))
    content = tmp_path / "content"
    code, out, _ = run(capsys, str(source), "-o", str(content))
    target = content / "en" / "waves-basics.yaml"
    assert code == 0, out
    text = target.read_text(encoding="utf-8")
    assert text.startswith("# yaml-language-server: $schema=../../schema/quiz.schema.json\n")
    data = yaml.safe_load(text)
    assert data["id"] == "waves-basics"
    assert data["title"] == "Waves basics"
    assert data["description"] == "Waves and how they move."
    assert [q["id"] for q in data["questions"]] == ["what-wave", "second"]
    assert data["questions"][0]["options"][0] == {"id": "a", "text": "Sound"}
    assert data["questions"][0]["answer"] == "a"
    loaded = load_quiz(target)
    assert not loaded.diagnostics and loaded.quiz is not None
    assert f"wrote {target}" in out.replace(str(tmp_path) + "/", str(tmp_path) + "/")
    assert "imported 1 quiz file" in out


def test_losses_are_one_line_per_question_at_its_line_and_the_exit_code_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hinted = choice(
        "hinted",
        extra='<penalty>0.5</penalty><hint format="html"><text>Think</text></hint>',
    )
    calculated = '<question type="calculated"><name><text>Speed</text></name></question>'
    source = moodle_file(tmp_path / "waves.xml", choice("fine"), hinted, calculated)
    code, out, _ = run(capsys, str(source), "-o", str(tmp_path / "content"))
    assert code == 1
    lines = out.splitlines()
    starts = [
        n for n, line in enumerate(source.read_text().splitlines(), 1) if "multichoice" in line
    ]
    hinted_line = starts[1]
    assert any(
        line.endswith(
            f"waves.xml:{hinted_line}: question 'hinted': its penalty for each wrong "
            "try (50%); its 1 hint"
        )
        for line in lines
    ), out
    assert any("question 'Speed': left out: calculated questions" in line for line in lines)
    data = yaml.safe_load((tmp_path / "content" / "en" / "waves-basics.yaml").read_text())
    assert [q["id"] for q in data["questions"]] == ["fine", "hinted"]


def test_the_same_file_imported_twice_gives_the_same_ids(tmp_path: Path) -> None:
    questions = [choice("Which wave?"), choice("Which wave?"), choice("x y")]
    source = moodle_file(tmp_path / "w.xml", *questions)
    first = import_files([source], tmp_path / "a")
    second = import_files([source], tmp_path / "b")
    ids = [q["id"] for q in first.imports[0].quizzes[0].data["questions"]]
    assert ids == ["which-wave", "which-wave-2", "x-y"]
    assert ids == [q["id"] for q in second.imports[0].quizzes[0].data["questions"]]


def test_existing_files_are_not_replaced_without_force_and_nothing_is_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    content = tmp_path / "content"
    (content / "en").mkdir(parents=True)
    existing = content / "en" / "waves-basics.yml"
    existing.write_text("mine\n")
    one = moodle_file(tmp_path / "one.xml", choice("a1"), category="Other quiz")
    two = moodle_file(tmp_path / "two.xml", choice("a2"))
    code, _, err = run(capsys, str(one), str(two), "-o", str(content))
    assert code == 1
    assert "nothing was written" in err and "waves-basics.yml exists (--force replaces it)" in err
    assert existing.read_text() == "mine\n"
    assert not (content / "en" / "other-quiz.yaml").exists()


def test_force_replaces_a_quiz_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    content = tmp_path / "content"
    (content / "en").mkdir(parents=True)
    (content / "en" / "waves-basics.yaml").write_text("old\n")
    source = moodle_file(tmp_path / "w.xml", choice("q1"))
    code, out, _ = run(capsys, str(source), "-o", str(content), "--force")
    assert code == 0, out
    assert (
        yaml.safe_load((content / "en" / "waves-basics.yaml").read_text())["id"] == "waves-basics"
    )


def test_a_failure_while_writing_leaves_nothing_behind(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    content = tmp_path / "content"
    (content / "en").mkdir(parents=True)
    (content / "en" / "waves-basics.yaml").write_text("old\n")
    source = moodle_file(tmp_path / "w.xml", choice("q1"))
    other = moodle_file(tmp_path / "o.xml", choice("q2"), category="Optics")
    real_replace = os.replace
    calls = []

    def failing(src: str | Path, dst: str | Path) -> None:
        calls.append(dst)
        if len(calls) == 2:
            raise OSError(28, "No space left on device")
        real_replace(src, dst)

    monkeypatch.setattr(os, "replace", failing)
    with pytest.raises(OSError):
        import_files([source, other], content, force=True)
    assert (content / "en" / "waves-basics.yaml").read_text() == "old\n"
    assert sorted(p.name for p in (content / "en").iterdir()) == ["waves-basics.yaml"]


def test_a_malformed_file_is_an_error_at_its_line_and_column_and_nothing_is_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = moodle_file(tmp_path / "good.xml", choice("q1"))
    bad = tmp_path / "bad.xml"
    bad.write_text("<?xml version='1.0'?>\n<quiz>\n<question type='essay'>\n</quiz>\n")
    code, _, err = run(capsys, str(good), str(bad), "-o", str(tmp_path / "content"))
    assert code == 1
    assert f"{bad}:4:8: not well-formed XML" in err
    assert not (tmp_path / "content").exists()


def test_a_file_of_neither_format_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    odd = tmp_path / "bank.csv"
    odd.write_text("a,b\n")
    code, _, err = run(capsys, str(odd), "-o", str(tmp_path / "content"))
    assert code == 2
    assert "neither Moodle XML" in err


def test_nothing_is_written_through_a_link_leading_out_of_the_content_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    content = tmp_path / "content"
    content.mkdir()
    (content / "en").symlink_to(outside)
    source = moodle_file(tmp_path / "w.xml", choice("q1"))
    code, _, err = run(capsys, str(source), "-o", str(content))
    assert code == 1
    assert "outside" in err and "nothing was written" in err
    assert list(outside.iterdir()) == []


def test_hostile_text_reaches_the_terminal_escaped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hinted = choice("evil\x1b[31m", extra='<hint format="html"><text>x</text></hint>').replace(
        "<idnumber>evil\x1b[31m</idnumber>", ""
    )
    source = moodle_file(tmp_path / "w.xml", hinted.replace("\x1b", "&#27;"))
    _, out, err = run(capsys, str(source), "-o", str(tmp_path / "content"))
    assert "\x1b" not in out + err


def test_an_image_is_written_once_with_its_alt_text(tmp_path: Path) -> None:
    encoded = base64.b64encode(PNG).decode()
    question = (
        '<question type="truefalse"><name><text>grid</text></name>'
        '<questiontext format="html"><text><![CDATA[<p>Is this a grid?</p>'
        '<p><img src="@@PLUGINFILE@@/my%20grid.png" alt="A 3 by 3 grid"></p>]]></text>'
        f'<file name="my grid.png" path="/" encoding="base64">{encoded}</file></questiontext>'
        '<generalfeedback format="html"><text>It is.</text></generalfeedback>'
        '<answer fraction="100"><text>true</text></answer>'
        '<answer fraction="0"><text>false</text></answer></question>'
    )
    source = moodle_file(tmp_path / "w.xml", question, question.replace(">grid<", ">grid2<"))
    content = tmp_path / "content"
    report = import_files([source], content)
    assert (content / "images" / "my-grid.png").read_bytes() == PNG
    data = yaml.safe_load((content / "en" / "waves-basics.yaml").read_text())
    assert "![A 3 by 3 grid](../images/my-grid.png)" in data["questions"][0]["prompt"]
    assert not report.diagnostics
    assert [p.path.name for p in report.written].count("my-grid.png") == 1


BILINGUAL = REPO / "tests" / "fixtures" / "moodle-import" / "waves-bilingual.xml"


def test_a_bilingual_bank_with_a_cloze_and_an_image_becomes_a_file_per_language(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    content = tmp_path / "content"
    code, out, _ = run(capsys, str(BILINGUAL), "-o", str(content))
    assert code == 1  # a calculated question left out, a hint, a placeholder
    english = yaml.safe_load((content / "en" / "waves.yaml").read_text(encoding="utf-8"))
    urdu = yaml.safe_load((content / "ur" / "waves.yaml").read_text(encoding="utf-8"))
    cloze, picture, vacuum = english["questions"]
    assert cloze["prompt"] == (
        "A wave's speed is its frequency times its [[1]]: $v = f\\lambda$. "
        "Sound in air travels at about [[2]] m/s."
    )
    assert cloze["gaps"]["2"] == {"type": "numerical", "answer": 343, "tolerance": 5}
    assert (
        urdu["questions"][0]["gaps"]["1"]["options"][1]["feedback"]
        == "حیطہ اونچائی ہے، لمبائی نہیں۔"
    )
    assert "![A wave with three crests](../images/three-crests.png)" in picture["prompt"]
    assert "![تین چوٹیوں والی لہر](../images/three-crests.png)" in urdu["questions"][1]["prompt"]
    assert (picture["id"], picture["points"], picture["answer"]) == ("read-the-wave", 2, "b")
    assert vacuum["feedback_false"] == "Right: sound needs a medium."
    assert urdu["questions"][2]["feedback_false"] == "درست: آواز کو کسی واسطے کی ضرورت ہوتی ہے۔"
    assert (content / "images" / "three-crests.png").read_bytes() == PNG
    assert main(["validate", str(content)]) == 0
    # Translated together: each Urdu question is marked current, as `quizbank translated` marks.
    assert all("source" in question for question in urdu["questions"])
    assert not any("source" in question for question in english["questions"])
    [_, translation] = bank_status([content])
    assert (translation.lang, translation.unmarked, translation.stale) == ("ur", 0, 0)
    assert f"{BILINGUAL.name}:86: question 'Wavelength from frequency': left out: calculated" in out
    assert f"{BILINGUAL.name}:27: question 'Read the wave': its 1 hint" in out
    assert (
        "imported 2 quiz files and 1 image; 1 question left out; 2 with something lost, 2 with "
        "something to write (above)" in out
    )


def test_a_text_a_language_lacks_is_reported_and_validation_names_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spans = (
        '<span lang="en" class="multilang">Which is a wave?</span>'
        '<span lang="ur" class="multilang">لہر کون سی ہے؟</span>'
    )
    english_only = (
        '<span lang="en" class="multilang">Sound</span><span lang="fr" class="multilang">Son</span>'
    )
    question = choice("q1", prompt=spans).replace(
        "<text>Sound</text>", f"<text>{english_only}</text>"
    )
    source = moodle_file(
        tmp_path / "w.xml", question.replace("<![CDATA[", "<![CDATA[").replace("]]>", "]]>")
    )
    code, out, _ = run(capsys, str(source), "-o", str(tmp_path / "content"))
    assert code == 1, out  # what validation says of the text to translate
    assert "a text with no ur version: another language's is used" in out
    assert "2 with something to write (above); validation found 2 errors" in out
    assert "looks untranslated" in out
    urdu = yaml.safe_load((tmp_path / "content" / "ur" / "waves-basics.yaml").read_text())
    assert "source" not in urdu["questions"][0]  # not translated along: not marked current


def test_a_gift_file_imports_with_its_losses_at_their_lines(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "week.gift"
    source.write_text(
        "$CATEGORY: $course$/top/Physics/Week one\n\n"
        "::Speed:: What is the speed of sound in air, in m/s? "
        "{#343:5 =%50%340:10 ####Near 343 m/s at 20 °C.}\n\n"
        "::Intro:: Welcome to week one.\n\n"
        "// [id:vacuum]\n"
        "::Vacuum:: Sound travels through a vacuum. {F#No.#Right.####It needs a medium.}\n",
        encoding="utf-8",
    )
    content = tmp_path / "content"
    code, out, _ = run(capsys, str(source), "-o", str(content), "--lang", "ur")
    assert code == 1
    assert "week.gift:5: question 'Intro': left out: a description is not a question" in out
    assert "week.gift:3: question 'Speed': several numerical answers with partial credit" in out
    data = yaml.safe_load((content / "ur" / "week-one.yaml").read_text(encoding="utf-8"))
    assert data["lang"] == "ur"
    speed, vacuum = data["questions"]
    assert (speed["answer"], speed["tolerance"]) == (343, 5)
    assert (vacuum["id"], vacuum["answer"], vacuum["feedback_false"]) == ("vacuum", False, "Right.")


def test_moodles_own_export_of_the_bilingual_bank_gives_the_same_files(tmp_path: Path) -> None:
    """The real Moodle 4.5 imported waves-bilingual.xml and exported it again
    (tests/fixtures/moodle-export): its export, with Moodle's own type names, order and
    elements, imports into the same YAML as the file it imported."""
    exported = REPO / "tests" / "fixtures" / "moodle-export" / "waves-bilingual.xml"
    import_files([BILINGUAL], tmp_path / "direct")
    import_files([exported], tmp_path / "through-moodle")
    for lang in ("en", "ur"):
        direct = (tmp_path / "direct" / lang / "waves.yaml").read_text(encoding="utf-8")
        through = (tmp_path / "through-moodle" / lang / "waves.yaml").read_text(encoding="utf-8")
        assert through == direct


def test_a_category_named_in_multilang_spans_titles_each_language(tmp_path: Path) -> None:
    spans = (
        '<span lang="en" class="multilang">Which is a wave?</span>'
        '<span lang="ur" class="multilang">لہر کون سی ہے؟</span>'
    )
    # Moodle's export doubles a `/` inside a category's name: `<//span>`.
    name = (
        '&lt;span lang="en" class="multilang"&gt;Sound &amp; light&lt;//span&gt;'
        '&lt;span lang="ur" class="multilang"&gt;آواز اور روشنی&lt;//span&gt;'
    )
    source = moodle_file(tmp_path / "w.xml", choice("q1", prompt=spans), category=name)
    report = import_files([source], tmp_path / "content")
    titles = {quiz.lang: (quiz.quiz_id, quiz.data["title"]) for quiz in report.imports[0].quizzes}
    assert titles == {
        "en": ("sound-light", "Sound & light"),
        "ur": ("sound-light", "آواز اور روشنی"),
    }
    assert not [loss for _, loss in report.losses if "placeholder" in loss.what]


def image_question(name: str, data: bytes, alt: str = "A 3 by 3 grid") -> str:
    encoded = base64.b64encode(data).decode()
    return (
        f'<question type="truefalse"><name><text>{name}</text></name>'
        '<questiontext format="html"><text><![CDATA[<p>Is this a grid?</p>'
        f'<p><img src="@@PLUGINFILE@@/{name}" alt="{alt}"></p>]]></text>'
        f'<file name="{name}" path="/" encoding="base64">{encoded}</file></questiontext>'
        '<generalfeedback format="html"><text>It is.</text></generalfeedback>'
        '<answer fraction="100"><text>true</text></answer>'
        '<answer fraction="0"><text>false</text></answer></question>'
    )


def test_an_image_quizbank_would_refuse_is_its_alt_text_and_reported(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    svg = b'<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'
    source = moodle_file(
        tmp_path / "w.xml", image_question("evil.svg", svg), image_question("fake.png", b"MZ\x90")
    )
    content = tmp_path / "content"
    code, out, _ = run(capsys, str(source), "-o", str(content))
    assert code == 1
    assert "an image left out, its alt text kept: evil.svg" in out and "script" in out
    assert "an image left out, its alt text kept: fake.png holds no image data" in out
    assert "not in the file" not in out
    assert not (content / "images").exists()
    assert main(["validate", str(content)]) == 0


def test_an_image_name_is_made_safe_and_never_replaces_another_image(tmp_path: Path) -> None:
    content = tmp_path / "content"
    (content / "images").mkdir(parents=True)
    (content / "images" / "evil.png").write_bytes(b"not this one")
    source = moodle_file(tmp_path / "w.xml", image_question("../../evil.png", PNG))
    import_files([source], content)
    assert (content / "images" / "evil.png").read_bytes() == b"not this one"
    [written] = [p for p in (content / "images").iterdir() if p.name != "evil.png"]
    assert written.name.startswith("evil-") and written.read_bytes() == PNG
    assert f"../images/{written.name}" in (content / "en" / "waves-basics.yaml").read_text()
    assert not (tmp_path / "evil.png").exists()


def test_the_schema_line_of_an_imported_quiz_leads_to_the_schema(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """As `quizbank new` does: schema/quiz.schema.json beside the content folder, written on
    first use, so that the editor checks the files as the author types; an author's own file
    there is kept."""
    content = tmp_path / "content"
    source = moodle_file(tmp_path / "w.xml", choice("q1"))
    code, out, _ = run(capsys, str(source), "-o", str(content))
    assert code == 0, out
    quiz = content / "en" / "waves-basics.yaml"
    target = quiz.read_text(encoding="utf-8").splitlines()[0].split("$schema=")[1]
    schema = tmp_path / "schema" / "quiz.schema.json"
    assert (quiz.parent / target).resolve() == schema
    assert main(["schema"]) == 0
    assert schema.read_text(encoding="utf-8") == capsys.readouterr().out
    assert f"wrote {schema} (an editor checks the quiz files against it as you type)" in out
    assert "schema line" not in out
    schema.write_text("{}")  # the author's own: kept
    other = moodle_file(tmp_path / "o.xml", choice("q2"), category="Optics")
    code, out, _ = run(capsys, str(other), "-o", str(content))
    assert code == 0, out
    assert f"wrote {schema}" not in out
    assert schema.read_text() == "{}"


def test_a_missing_explanation_is_a_placeholder_to_write_and_exit_0(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Nothing the file held is lost: the placeholder is named, by import at the question's line
    and by validation at its own, and the author writes it (`validate --strict` refuses it)."""
    unexplained = choice("q2").replace(
        '<generalfeedback format="html"><text>Sound moves as a wave.</text></generalfeedback>', ""
    )
    source = moodle_file(tmp_path / "w.xml", choice("q1"), unexplained)
    content = tmp_path / "content"
    code, out, _ = run(capsys, str(source), "-o", str(content))
    assert code == 0, out
    line = source.read_text().splitlines().index('<question type="multichoice">', 7) + 1
    assert (
        f"w.xml:{line}: question 'q2': it had no general feedback: its explanation is a "
        "placeholder to write" in out
    )
    assert "warning: question 2 (q2), explanation: placeholder text from `quizbank import`" in out
    assert "imported 1 quiz file; 1 with something to write (above)" in out
    code, out, _ = run(capsys, str(moodle_file(tmp_path / "w.xml", unexplained, CALCULATED)),
                       "-o", str(content), "--force")  # fmt: skip
    assert code == 1, out  # a question left out
    assert "1 question left out; 1 with something to write (above)" in out


CALCULATED = '<question type="calculated"><name><text>Speed</text></name></question>'


def test_a_refusal_of_several_files_prints_one_a_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each existing file on a line of its own: real line breaks, never a printed `\\n`."""
    content = tmp_path / "content"
    (content / "en").mkdir(parents=True)
    for name in ("waves-basics.yaml", "optics.yaml"):
        (content / "en" / name).write_text("mine\n")
    one = moodle_file(tmp_path / "one.xml", choice("a1"))
    two = moodle_file(tmp_path / "two.xml", choice("a2"), category="Optics")
    code, out, err = run(capsys, str(one), str(two), "-o", str(content))
    assert code == 1, out
    assert "\\n" not in err
    assert err.splitlines() == [
        "quizbank: error: nothing was written:",
        f"  {content / 'en' / 'waves-basics.yaml'} exists (--force replaces it)",
        f"  {content / 'en' / 'optics.yaml'} exists (--force replaces it)",
    ]


def test_a_blank_comes_in_as_underscores_without_backslashes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """GIFT's missing word is a blank of underscores; a prompt may show one too: Markdown shows
    them as written, so they are written without escapes."""
    source = tmp_path / "week.gift"
    source.write_text(
        "::Cost:: Moodle costs {~lots =nothing####Free software.} to download.\n\n"
        "::Fill::[html]<p>Fill in: ___ saves a file, and it resumes from the ___.</p>"
        "{=torch.save####It writes the file.}\n",
        encoding="utf-8",
    )
    code, out, _ = run(capsys, str(source), "-o", str(tmp_path / "content"), "--lang", "en")
    assert code == 0, out
    data = yaml.safe_load((tmp_path / "content" / "en" / "week.yaml").read_text(encoding="utf-8"))
    assert [q["prompt"] for q in data["questions"]] == [
        "Moodle costs _____ to download.",
        "Fill in: ___ saves a file, and it resumes from the ___.",
    ]
