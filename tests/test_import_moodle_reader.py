"""Moodle XML read into questions (quizbank/importer/moodle_xml.py), Moodle's embedded answers
(cloze.py) and its multilang filters (languages.py): every type, every loss at its line, and
files that are not Moodle XML refused at their line and column."""

from __future__ import annotations

import base64
import time
from pathlib import Path
from typing import Any

import pytest

from quizbank.importer.cloze import read_cloze
from quizbank.importer.languages import languages_in, quizbank_code, seen_in
from quizbank.importer.moodle_xml import read_moodle_xml, split_category_path
from quizbank.importer.source import MalformedFile, SourceBank, SourceText

PNG = base64.b64encode(b"\x89PNG\r\n\x1a\n" + b"\x00" * 20).decode()


def bank(*questions: str, category: str = "$course$/top/Physics/Waves") -> SourceBank:
    xml = (
        '<?xml version="1.0" encoding="UTF-8"?>\n<quiz>\n'
        f'<question type="category"><category><text>{category}</text></category>'
        '<info format="html"><text>About waves</text></info>'
        "<idnumber>waves</idnumber></question>\n" + "\n".join(questions) + "\n</quiz>\n"
    )
    return read_moodle_xml(Path("bank.xml"), xml.encode())


def question(kind: str, body: str, extra: str = "", penalty: str = "0.3333333") -> str:
    return (
        f'<question type="{kind}"><name><text>Q {kind}</text></name>'
        '<questiontext format="html"><text><![CDATA[<p>Prompt</p>]]></text></questiontext>'
        '<generalfeedback format="html"><text>Because.</text></generalfeedback>'
        f"<defaultgrade>2</defaultgrade><penalty>{penalty}</penalty>"
        f"<idnumber>q-{kind}</idnumber>{extra}{body}</question>"
    )


def only(found: SourceBank) -> Any:
    [category] = found.categories
    [one] = category.questions
    return one


def test_a_category_becomes_a_quiz_with_its_path_info_and_idnumber() -> None:
    found = bank(question("truefalse", '<answer fraction="100"><text>true</text></answer>'))
    [category] = found.categories
    assert category.path == ["Physics", "Waves"]
    assert category.idnumber == "waves"
    assert category.info == SourceText("About waves")
    assert category.line == 3


def test_category_paths_split_as_moodle_does() -> None:
    assert split_category_path("top/A//B/C") == ["top", "A/B", "C"]
    found = bank(question("essay", ""), category="$course$/top/Units//Rates")
    assert found.categories[0].path == ["Units/Rates"]


def test_single_choice_with_feedback_points_and_shuffle() -> None:
    body = (
        "<single>true</single><shuffleanswers>false</shuffleanswers>"
        '<answer fraction="0" format="html"><text>Red</text>'
        '<feedback format="html"><text>No.</text></feedback></answer>'
        '<answer fraction="100" format="html"><text>Blue</text></answer>'
    )
    q = only(bank(question("multichoice", body)))
    assert q.fields["type"] == "single_choice"
    assert q.fields["answer"] == "b"
    assert q.fields["shuffle"] is False
    assert q.fields["points"] == 2.0
    assert q.fields["options"][0]["feedback"] == SourceText("No.")
    assert q.fields["explanation"] == SourceText("Because.")
    assert q.idnumber == "q-multichoice"
    assert q.losses == []


def test_multiple_choice_grades_quizbank_cannot_give_are_reported() -> None:
    body = (
        "<single>false</single>"
        '<answer fraction="50"><text>A</text></answer>'
        '<answer fraction="50"><text>B</text></answer>'
        '<answer fraction="-100"><text>C</text></answer>'
    )
    q = only(bank(question("multichoice", body)))
    assert q.fields["type"] == "multiple_choice"
    assert q.fields["answer"] == ["a", "b"]
    assert q.losses == []  # quizbank grades two right options of three so too
    quizbank_grades = bank(
        question(
            "multichoice",
            "<single>false</single>"
            '<answer fraction="50"><text>A</text></answer>'
            '<answer fraction="50"><text>B</text></answer>'
            '<answer fraction="-100"><text>C</text></answer>'
            '<answer fraction="-100"><text>D</text></answer>',
        )
    )
    assert only(quizbank_grades).losses == [
        "its grades (50%, 50%, -100%, -100%) become quizbank's (50%, 50%, -50%, -50%)"
    ]


def test_a_partly_right_option_of_a_single_choice_is_reported() -> None:
    body = (
        '<single>true</single><answer fraction="100"><text>A</text></answer>'
        '<answer fraction="50"><text>B</text></answer>'
    )
    assert only(bank(question("multichoice", body))).losses == [
        "its grades (100%, 50%): one option is right, the rest score 0"
    ]


def test_true_false_answer_and_both_feedbacks() -> None:
    body = (
        '<answer fraction="0"><text>true</text><feedback><text>Not so.</text></feedback></answer>'
        '<answer fraction="100"><text>false</text><feedback><text>Right.</text></feedback>'
        "</answer>"
    )
    q = only(bank(question("truefalse", body, penalty="1")))
    assert q.fields["answer"] is False
    assert q.fields["feedback_true"] == SourceText("Not so.")
    assert q.fields["feedback_false"] == SourceText("Right.")


def test_short_answer_keeps_right_answers_and_reports_the_rest() -> None:
    body = (
        "<usecase>1</usecase>"
        '<answer fraction="100"><text>Newton</text></answer>'
        '<answer fraction="100"><text>N*</text></answer>'
        '<answer fraction="50"><text>kg m</text><feedback><text>Close</text></feedback></answer>'
    )
    q = only(bank(question("shortanswer", body)))
    assert q.fields["answer"] == ["Newton", "N*"]
    assert q.fields["case_sensitive"] is True
    assert q.losses == [
        "its partly right answers score nothing: 'kg m' (50%)",
        "the feedback of its answers (quizbank has none for typed answers)",
    ]


def test_numerical_first_answer_and_tolerance_units_and_further_answers_reported() -> None:
    body = (
        '<answer fraction="100"><text>9.81</text><tolerance>0.01</tolerance></answer>'
        '<answer fraction="50"><text>10</text><tolerance>0</tolerance></answer>'
        "<units><unit><multiplier>1</multiplier><unit_name>m/s2</unit_name></unit></units>"
    )
    q = only(bank(question("numerical", body)))
    assert (q.fields["answer"], q.fields["tolerance"]) == (9.81, 0.01)
    assert q.losses == [
        "its 1 further answer (quizbank keeps one answer and its tolerance)",
        "its units (write the unit in the prompt)",
    ]


def test_matching_pairs_and_distractors_as_plain_text() -> None:
    body = (
        '<shuffleanswers>true</shuffleanswers><subquestion format="html"><text>H2O</text>'
        "<answer><text>Water &lt;l&gt;</text></answer></subquestion>"
        '<subquestion format="html"><text></text><answer><text>Salt</text></answer></subquestion>'
    )
    q = only(bank(question("match", body)))
    assert q.fields["pairs"] == [
        {
            "id": "a",
            "item": SourceText("H2O"),
            "match": SourceText("Water <l>", plain=True, inline=True, code=True),
        }
    ]
    assert q.fields["distractors"] == [
        {"id": "b", "text": SourceText("Salt", plain=True, inline=True, code=True)}
    ]


def test_ordering_items_in_the_right_order_and_other_grading_reported() -> None:
    body = (
        "<gradingtype>RELATIVE_NEXT_EXCLUDE_LAST</gradingtype>"
        '<answer fraction="2"><text>Second</text></answer>'
        '<answer fraction="1"><text>First</text></answer>'
    )
    q = only(bank(question("ordering", body)))
    assert [item["text"].value for item in q.fields["items"]] == ["First", "Second"]
    assert q.losses == [
        "its grading (RELATIVE_NEXT_EXCLUDE_LAST): quizbank gives each item in its right place "
        "its share"
    ]


def test_essay_grader_info_and_word_limits() -> None:
    body = (
        "<minwordlimit>10</minwordlimit><maxwordlimit>200</maxwordlimit>"
        "<attachments>1</attachments>"
        '<graderinfo format="html"><text>Mentions energy.</text></graderinfo>'
    )
    q = only(bank(question("essay", body, penalty="0")))
    assert q.fields["grader_info"] == SourceText("Mentions energy.")
    assert (q.fields["min_words"], q.fields["max_words"]) == (10, 200)
    assert q.losses == ["its attachments (quizbank asks for a written answer only)"]


def test_a_cloze_question_becomes_gaps_and_its_points_the_weights() -> None:
    text = (
        "<p>Water boils at {1:NUMERICAL:=100:0.5} degrees and is {1:MCS:=wet~dry#No.}, "
        "called {1:SA:=H2O~=water}.</p>"
    )
    xml = (
        '<question type="multianswer"><name><text>Cloze</text></name>'
        f'<questiontext format="html"><text><![CDATA[{text}]]></text></questiontext></question>'
    )
    q = only(bank(xml))
    assert (
        q.fields["prompt"].value
        == "<p>Water boils at [[1]] degrees and is [[2]], called [[3]].</p>"
    )
    assert q.fields["gaps"]["1"] == {"type": "numerical", "answer": 100.0, "tolerance": 0.5}
    assert q.fields["gaps"]["2"]["answer"] == "a"
    assert q.fields["gaps"]["2"]["options"][1]["feedback"] == SourceText("No.")
    assert q.fields["gaps"]["3"] == {
        "type": "short_answer",
        "answer": ["H2O", "water"],
        "case_sensitive": False,
    }
    assert q.fields["points"] == 3.0
    assert q.fields["shuffle"] is True


def test_embedded_answers_decode_as_moodle_stores_them() -> None:
    cloze = read_cloze("{2:SAC:=a\\}b&#35;~%50%c#close} {:MR:=x~=y} {1:SA:=open")
    assert cloze.prompt == "[[1]] [[2]] {1:SA:=open"
    assert cloze.gaps["1"]["answer"] == ["a}b#"]
    assert cloze.gaps["1"]["case_sensitive"] is True
    assert cloze.weights == [2.0, 1.0]
    assert cloze.losses == [
        "gap 1's partly right answers score nothing: 'c' (50%)",
        "gap 1's feedback (quizbank has feedback for drop-down choices only)",
        "gap 2 takes several choices; only the first right one is right",
        "gap 2 shows its choices as buttons; quizbank shows a drop-down",
        "its gaps weigh differently (2, 1); each now scores the same share",
    ]


def test_a_hostile_cloze_text_is_read_in_linear_time() -> None:
    started = time.perf_counter()
    read_cloze("{1:SA:" + "a&amp;" * 200_000)
    read_cloze("{1:MC:=" + "x~" * 100_000)
    assert time.perf_counter() - started < 5  # a backtracking scan took minutes


def test_losses_of_every_type_penalty_hints_hidden_combined_feedback() -> None:
    extra = (
        "<hidden>1</hidden>"
        '<hint format="html"><text>Think.</text></hint><hint format="html"><text></text></hint>'
        '<correctfeedback format="html"><text>Well done</text></correctfeedback>'
    )
    body = (
        '<answer fraction="100"><text>A</text></answer><answer fraction="0"><text>B</text></answer>'
    )
    q = only(bank(question("multichoice", body, extra, penalty="0.1")))
    assert q.losses == [
        "its penalty for each wrong try (10%)",
        "its 1 hint",
        "it was hidden in Moodle",
        "its feedback for any right, partly right or wrong response",
    ]


def test_types_the_model_lacks_are_skipped_with_their_line() -> None:
    found = bank(
        question("calculatedmulti", ""),
        question("ddimageortext", ""),
        question("description", ""),
        question("someplugin", ""),
        question("essay", "", penalty="0"),
    )
    assert [(s.line, s.why) for s in found.skipped] == [
        (
            4,
            "calculated multichoice (choices computed by formulas) has no quizbank type: "
            "quizbank computes numbers, not choices",
        ),
        (5, "drag-and-drop onto an image has no quizbank type"),
        (6, "a description is not a question: quizbank has no type for it"),
        (7, "quizbank has no type for Moodle's 'someplugin' questions"),
    ]
    assert len(found.categories[0].questions) == 1


def test_a_calculated_question_without_dataset_items_is_skipped() -> None:
    """A calculated question is a numerical one with variables (test_import_calculated.py);
    without dataset items there is no variant to ask."""
    found = bank(question("calculated", ""))
    assert [(s.line, s.why) for s in found.skipped] == [
        (
            4,
            "calculated questions without dataset items (their wildcards' values) have nothing "
            "to ask",
        ),
    ]


def test_embedded_files_are_read_by_name() -> None:
    text = '<p><img src="@@PLUGINFILE@@/grid.png" alt="A grid"></p>'
    xml = (
        '<question type="essay"><name><text>E</text></name>'
        f'<questiontext format="html"><text><![CDATA[{text}]]></text>'
        f'<file name="grid.png" path="/" encoding="base64">{PNG}</file></questiontext>'
        '<generalfeedback format="html"><text>x</text>'
        '<file name="bad.png" path="/" encoding="base64">!!!</file></generalfeedback></question>'
    )
    q = only(bank(xml))
    assert q.files == {"grid.png": base64.b64decode(PNG)}
    assert q.losses == ["its file 'bad.png', which is not valid base64"]


def test_questions_before_any_category_go_to_one_named_after_the_file() -> None:
    xml = b"<quiz>\n" + question("essay", "").encode() + b"\n</quiz>"
    found = read_moodle_xml(Path("week-1.xml"), xml)
    assert found.categories[0].path == ["week-1"]


@pytest.mark.parametrize(
    ("xml", "line", "column", "message"),
    [
        (b"<quiz>\n<question type='essay'>\n</quiz>", 3, 8, "not well-formed XML"),
        (b"<?xml version='1.0'?>\n<questions/>", 2, 1, "root element is <quiz>, not <questions>"),
        (b"\n\n<quiz><a b='1' b='2'/></quiz>", 3, 21, "not well-formed XML"),
        (b'<?xml version="1.0"?>\n<!DOCTYPE quiz [<!ENTITY x "y">]>\n<quiz/>', 1, 1, "no DOCTYPE"),
    ],
)
def test_a_malformed_file_is_an_error_at_its_line_and_column(
    xml: bytes, line: int, column: int, message: str
) -> None:
    with pytest.raises(MalformedFile) as caught:
        read_moodle_xml(Path("bad.xml"), xml)
    assert (caught.value.line, caught.value.column) == (line, column)
    assert message in str(caught.value)
    assert str(caught.value).startswith(f"bad.xml:{line}:{column}: ")


def test_external_entities_are_never_read(tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP SECRET")
    xml = (
        f'<?xml version="1.0"?><!DOCTYPE quiz [<!ENTITY s SYSTEM "file://{secret}">]>'
        "<quiz><question type='category'><category><text>&s;</text></category></question></quiz>"
    )
    with pytest.raises(MalformedFile):
        read_moodle_xml(Path("x.xml"), xml.encode())


def test_multilang_spans_as_moodle_filters_them() -> None:
    text = (
        '<p><span lang="en" class="multilang">Hello</span> '
        '<span class="multilang" lang="ur">سلام</span></p>'
    )
    assert languages_in(text) == ["en", "ur"]
    assert seen_in(text, "ur").text == "<p>سلام</p>"
    assert seen_in(text, "en").text == "<p>Hello</p>"
    fallback = seen_in(text, "fr")
    assert (fallback.text, fallback.missing) == ("<p>Hello</p>", True)
    one_span = '<span lang="en" class="multilang">Alone</span>'
    assert languages_in(one_span) == []  # the filter needs two adjacent spans


def test_mlang2_blocks_and_other() -> None:
    text = "{mlang en,other}<p>Hi</p>{mlang}{mlang ur}<p>سلام</p>{mlang} <p>2</p>"
    assert languages_in(text) == ["en", "ur"]
    assert seen_in(text, "ur").text == "<p>سلام</p> <p>2</p>"
    assert seen_in(text, "de").text == "<p>Hi</p> <p>2</p>"
    assert seen_in(text, "de").missing


def test_moodle_language_packs_as_language_codes() -> None:
    assert [quizbank_code(c) for c in ("en", "pt_br", "UR", "zh_hans")] == [
        "en",
        "pt-BR",
        "ur",
        "zh-hans",
    ]


def test_a_category_met_again_is_the_same_quiz() -> None:
    essay = question("essay", "", penalty="0")
    again = '<question type="category"><category><text>$course$/top/Physics/Waves</text></category></question>'
    other = (
        '<question type="category"><category><text>$course$/top/Optics</text></category></question>'
    )
    found = bank(essay, other, essay, again, essay)
    assert [(c.path, len(c.questions)) for c in found.categories] == [
        (["Physics", "Waves"], 2),
        (["Optics"], 1),
    ]


def test_select_missing_words_and_drag_and_drop_into_text_become_cloze_questions() -> None:
    """As the real Moodle 4.5 exported them (tests/fixtures/moodle-export): a gap `[[n]]` is
    right with the n-th choice and lists the choices of its group."""
    path = Path(__file__).parent / "fixtures" / "moodle-export" / "gapselect-ddwtos.xml"
    found = read_moodle_xml(path, path.read_bytes())
    by_id = {q.idnumber: q for category in found.categories for q in category.questions}
    words, dragged = by_id["shard-words"], by_id["drag-words"]
    assert words.fields["type"] == dragged.fields["type"] == "cloze"
    assert words.fields["shuffle"] is False and words.fields["points"] == 3.0
    gaps = words.fields["gaps"]
    assert [[o["text"].value for o in gaps[n]["options"]] for n in "123"] == [
        ["shards", "tensor", "pages"],
        ["index", "optimizer"],
        ["shards", "tensor", "pages"],
    ]
    assert [gaps[n]["answer"] for n in "123"] == ["a", "a", "b"]
    assert words.losses == []
    assert dragged.losses == ["its words were dragged into the gaps: each gap is a drop-down now"]
    assert not found.skipped


def test_a_gap_naming_no_choice_is_reported() -> None:
    xml = (
        '<question type="gapselect"><name><text>G</text></name>'
        '<questiontext format="html"><text>[[1]] and [[7]]</text></questiontext>'
        "<selectoption><text>a</text><group>1</group></selectoption>"
        "<selectoption><text>b</text><group>1</group></selectoption></question>"
    )
    q = only(bank(xml))
    assert list(q.fields["gaps"]) == ["1"]
    assert q.losses == ["its gap [[7]] names no choice"]
