"""The Moodle XML renderer: what Moodle's importer (question/format/xml/format.php) relies on."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from lxml import etree, html
from pydantic import ValidationError
from quizbank_renderers.moodle import (
    MoodleOptions,
    MoodleRenderer,
    _cdata,
    _encoded,
    _text,
    right_grades,
    wrong_grade,
)

from quizbank.errors import RendererError
from quizbank.loader import load_quiz
from quizbank.model import Quiz
from quizbank.registry import discover_renderers
from quizbank.renderer import QuizTranslations

CONTENT = Path(__file__).resolve().parents[1] / "content"
# Copied from question_bank::fraction_options_full() (question/engine/bank.php), in percent.
MOODLE_LIST = [100, 90, 83.33333, 80, 75, 70, 66.66667, 60, 50, 40, 33.33333, 30, 25, 20,
               16.66667, 14.28571, 12.5, 11.11111, 10, 5]  # fmt: skip
ALLOWED = [*MOODLE_LIST, 0, *(-grade for grade in MOODLE_LIST)]
NUMBERING = {"abc", "ABCD", "123", "iii", "IIII", "none"}
# filter/multilang/classes/text_filter.php, the "new syntax" search.
_SPAN = r'<span(\s+lang="[a-zA-Z0-9_-]+"|\s+class="multilang"){2}\s*>.*?</span>'
MULTILANG = re.compile(rf"({_SPAN})(\s*{_SPAN})+", re.S | re.I)
HOSTILE = '<script>alert(1)</script> ]]> & "quotes"'


def _quiz(lang: str, **changes: Any) -> Quiz:
    """A small quiz with one question of each type; `changes` replace top-level fields."""
    data: dict[str, Any] = {
        "id": "mixed",
        "lang": lang,
        "title": f"Mixed {lang}",
        "description": f"Every question type ({lang}).",
        "level": "beginner",
        "questions": [
            {
                "id": "pick-two",
                "type": "multiple_choice",
                "prompt": f"Pick the even numbers ({lang})",
                "options": [
                    {"id": "a", "text": "1", "feedback": f"odd ({lang})"},
                    {"id": "b", "text": "2"},
                    {"id": "c", "text": "3"},
                    {"id": "d", "text": "4"},
                ],
                "answer": ["b", "d"],
                "explanation": f"2 and 4 ({lang})",
                "points": 2,
            },
            {
                "id": "sky",
                "type": "true_false",
                "prompt": f"The sky is green ({lang})",
                "answer": False,
                "feedback_true": f"No ({lang})",
                "feedback_false": f"Right ({lang})",
                "explanation": f"It is blue ({lang})",
            },
        ],
    }
    return Quiz.model_validate(data | changes)


def _render(quizzes: list[Quiz], **options: Any) -> dict[str, etree._Element]:
    """Render through `render_quiz`, parse every file with lxml, key them by path."""
    translations = QuizTranslations(
        quizzes[0].id, {q.lang: q for q in quizzes}, [q.lang for q in quizzes]
    )
    renderer = MoodleRenderer(MoodleOptions(**options))
    return {
        str(out.path): etree.fromstring(out.content) for out in renderer.render_quiz(translations)
    }


@pytest.fixture(scope="module")
def content() -> dict[str, etree._Element]:
    quizzes = []
    for lang in ("en", "ur"):
        quiz = load_quiz(CONTENT / lang / "checkpoint-sharding.yaml").quiz
        assert quiz is not None
        quizzes.append(quiz)
    return _render(quizzes, multilang=True)


@pytest.fixture(scope="module")
def mixed() -> dict[str, etree._Element]:
    return _render([_quiz("en"), _quiz("ur")], multilang=True)


@pytest.fixture(scope="module")
def exports(
    content: dict[str, etree._Element], mixed: dict[str, etree._Element]
) -> list[tuple[str, etree._Element]]:
    return [(f"content:{p}", r) for p, r in content.items()] + [
        (f"mixed:{p}", r) for p, r in mixed.items()
    ]


def _questions(root: etree._Element, kind: str) -> list[etree._Element]:
    return root.findall(f"question[@type='{kind}']")


def _html_texts(root: etree._Element) -> list[str]:
    """Every non-empty HTML text of an export."""
    return [
        text.text
        for text in root.iterfind(".//*[@format='html']/text")
        if text.text and text.text.strip()
    ]


def _fragment(source: str) -> Any:
    """The HTML inside a `<div>` wrapper: its `.text` is any loose text, its children the rest."""
    return html.fragment_fromstring(source, create_parent="div")


def test_found_through_the_entry_point() -> None:
    assert discover_renderers().get("moodle").cls is MoodleRenderer


def test_writes_each_language_and_the_multilang_file(content: dict[str, etree._Element]) -> None:
    assert set(content) == {
        "en/checkpoint-sharding.xml",
        "ur/checkpoint-sharding.xml",
        "multilang/checkpoint-sharding.xml",
    }
    assert set(_render([_quiz("en"), _quiz("ur")])) == {"en/mixed.xml", "ur/mixed.xml"}
    assert set(_render([_quiz("en")], multilang=True)) == {"en/mixed.xml"}


def test_file_is_utf8_xml_with_html_in_cdata() -> None:
    translations = QuizTranslations("mixed", {"en": _quiz("en")}, ["en"])
    raw = next(iter(MoodleRenderer(MoodleOptions()).render_quiz(translations))).content
    assert raw.startswith(b"<?xml version='1.0' encoding='UTF-8'?>")
    assert b'<questiontext format="html">\n      <text><![CDATA[<p>Pick the even' in raw


def test_first_question_is_the_category(exports: list[tuple[str, etree._Element]]) -> None:
    for path, root in exports:
        assert root.tag == "quiz", path
        first = root[0]
        assert first.get("type") == "category", path
        assert first.findtext("category/text", "").startswith("$course$/top/"), path
        assert first.find("info").get("format") == "html", path
        assert first.find("idnumber") is None, path  # a renamed quiz must not clash on import
        assert len(_questions(root, "category")) == 1, path


def test_names_survive_moodles_tag_stripping() -> None:
    """Moodle cleans names with PARAM_TEXT (strip_tags): `List<String>` would lose `<String>`."""
    quiz = Quiz.model_validate(
        {
            "id": "names",
            "lang": "en",
            "title": "Generics <T>",
            "description": "d",
            "level": "beginner",
            "questions": [
                {
                    "id": "q",
                    "type": "true_false",
                    "prompt": "What does List<String> mean?",
                    "answer": True,
                    "explanation": "e",
                }
            ],
        }
    )
    renderer = MoodleRenderer(MoodleOptions())
    root = etree.fromstring(
        renderer.render(QuizTranslations("names", {"en": quiz}, ["en"]), "en").encode()
    )
    assert root.findtext("question[2]/name/text") == "What does List\u2039String\u203a mean?"
    assert root.findtext("question[1]/category/text") == "$course$/top/Generics \u2039T\u203a (en)"


def test_every_multichoice_is_complete(exports: list[tuple[str, etree._Element]]) -> None:
    for path, root in exports:
        for question in _questions(root, "multichoice"):
            where = f"{path} {question.findtext('idnumber')}"
            assert question.findtext("name/text", "").strip(), where
            assert question.find("questiontext").get("format") == "html", where
            assert question.findtext("questiontext/text", "").strip(), where
            assert question.findtext("single") in ("true", "false"), where
            assert question.findtext("shuffleanswers") in ("true", "false"), where
            assert question.findtext("answernumbering") in NUMBERING, where
            assert question.findtext("penalty") == "0.3333333", where
            for tag in ("correctfeedback", "partiallycorrectfeedback", "incorrectfeedback"):
                assert question.find(tag).get("format") == "html", where
            answers = question.findall("answer")
            assert len(answers) >= 2, where
            assert all(a.get("format") == "html" and a.findtext("text") for a in answers), where
            fractions = [float(a.get("fraction")) for a in answers]
            if question.findtext("single") == "true":
                assert fractions.count(100) == 1, where
                assert all(f in (0, 100) for f in fractions), where
            else:
                assert sum(f for f in fractions if f > 0) == pytest.approx(100, abs=0.001), where


def test_every_fraction_is_on_moodles_list(exports: list[tuple[str, etree._Element]]) -> None:
    for path, root in exports:
        for answer in root.iter("answer"):
            fraction = float(answer.get("fraction"))
            assert min(abs(fraction - a) for a in ALLOWED) < 0.001, (path, fraction)


def test_multiple_choice_grades(mixed: dict[str, etree._Element]) -> None:
    question = mixed["en/mixed.xml"].find("question[idnumber='mixed/pick-two']")
    assert question.findtext("single") == "false"
    assert question.find("shownumcorrect") is not None
    assert question.findtext("defaultgrade") == "2.0000000"
    fractions = [a.get("fraction") for a in question.findall("answer")]
    assert fractions == ["-50", "50", "-50", "50"]


@pytest.mark.parametrize("count", range(1, 21))
def test_right_grades_add_up_to_100(count: int) -> None:
    grades = right_grades(count)
    assert len(grades) == count
    assert all(grade in MOODLE_LIST for grade in grades)
    assert sum(grades) == pytest.approx(100, abs=0.001)
    assert max(grades) - min(grades) <= 5


@pytest.mark.parametrize("count", range(1, 26))
def test_wrong_grades_cancel_choosing_everything(count: int) -> None:
    grade = wrong_grade(count)
    assert -grade in MOODLE_LIST
    assert 100 + count * grade <= 0.001


def test_more_than_20_right_options_is_a_clear_error() -> None:
    options = [{"id": f"o{i}", "text": f"option {i}"} for i in range(22)]
    question = {
        "id": "many",
        "type": "multiple_choice",
        "prompt": "Pick",
        "options": options,
        "answer": [o["id"] for o in options[:21]],
        "explanation": "All but one",
    }
    with pytest.raises(RendererError, match=r"quiz 'mixed' question 'many'.*at most 20"):
        _render([_quiz("en", questions=[question])])


def test_true_false_follows_import_truefalse(exports: list[tuple[str, etree._Element]]) -> None:
    for path, root in exports:
        for question in _questions(root, "truefalse"):
            answers = question.findall("answer")
            assert [a.findtext("text") for a in answers] == ["true", "false"], path
            assert sorted(a.get("fraction") for a in answers) == ["0", "100"], path
            assert question.findtext("penalty") == "1", path


def test_true_false_answer_and_feedback(mixed: dict[str, etree._Element]) -> None:
    question = _questions(mixed["en/mixed.xml"], "truefalse")[0]
    true, false = question.findall("answer")
    assert (true.get("fraction"), false.get("fraction")) == ("0", "100")
    assert true.findtext("feedback/text") == "No (en)"
    assert false.findtext("feedback/text") == "Right (en)"


def test_idnumbers_are_unique_and_fit(exports: list[tuple[str, etree._Element]]) -> None:
    for path, root in exports:
        ids = [q.findtext("idnumber") for q in root.iter("question")][1:]  # after the category
        assert all(ids) and len(set(ids)) == len(ids), path
        assert all(len(i) <= 100 for i in ids), path


def test_long_idnumbers_are_shortened_and_stay_distinct() -> None:
    quiz_id = "q" * 64
    base = _quiz("en").model_dump(mode="json")["questions"]
    questions = [dict(base[1], id=f"{'x' * 60}-{n}") for n in range(3)]
    root = _render([_quiz("en", id=quiz_id, questions=questions)])[f"en/{quiz_id}.xml"]
    ids = [q.findtext("idnumber") for q in _questions(root, "truefalse")]
    assert len(set(ids)) == 3
    assert all(len(i) <= 100 and i.startswith(f"{quiz_id}/") for i in ids)


def test_urdu_text_is_right_to_left(exports: list[tuple[str, etree._Element]]) -> None:
    urdu = [(path, root) for path, root in exports if ":ur/" in path]
    assert [path for path, _ in urdu] == [
        "content:ur/checkpoint-sharding.xml",
        "mixed:ur/mixed.xml",
    ]
    for path, root in urdu:
        texts = _html_texts(root)
        assert len(texts) > 10, path
        for text in texts:
            wrapper = _fragment(text)
            assert not (wrapper.text or "").strip(), text
            (div,) = wrapper
            assert (div.tag, div.get("dir"), div.get("lang")) == ("div", "rtl", "ur"), text


_PHRASING = {"span", "code", "em", "strong", "a", "bdi", "br", "img", "s", "sub", "sup"}


def test_multilang_spans_follow_the_filter_inside_every_block(
    exports: list[tuple[str, etree._Element]],
) -> None:
    # Moodle's HTML cleaner moves a block out of a span, and then every language shows: each
    # span holds only phrasing content, and each block holds one span per language.
    bilingual = [(path, root) for path, root in exports if ":multilang/" in path]
    assert len(bilingual) == 2
    for _, root in bilingual:
        for text in _html_texts(root):
            assert MULTILANG.search(text), text
            wrapper = _fragment(text)
            assert not (wrapper.text or "").strip(), text
            holders = [e for e in wrapper.iter() if any(c.tag == "span" for c in e)]
            for holder in holders:
                spans = [c for c in holder if c.tag == "span"]
                assert [dict(c.attrib) for c in spans] == [
                    {"lang": "en", "class": "multilang"},
                    {"lang": "ur", "class": "multilang"},
                ], text
                for span in spans:
                    assert {e.tag for e in span.iter()} - {"span"} <= _PHRASING, text
                    assert len(list(span.iter("span"))) == 1, text


# ruff: noqa: RUF001 - Urdu full stops and Moodle's angle quotes are meant
def test_multilang_blocks_that_differ_become_one_paragraph_of_spans() -> None:
    english = _quiz("en", description="One paragraph.\n\n- and\n- a list")
    urdu = _quiz("ur", description="صرف ایک پیراگراف۔")
    (info,) = _render([english, urdu], multilang=True)["multilang/mixed.xml"].iterfind(
        "question[@type='category']/info/text"
    )
    assert info.text == (
        '<p><span lang="en" class="multilang">One paragraph.\n\n- and\n- a list</span>'
        '<span lang="ur" class="multilang">صرف ایک پیراگراف۔</span></p>'
    )


def test_multilang_paragraphs_and_items_are_matched_one_to_one() -> None:
    english = _quiz("en", description="First.\n\n- one\n- two")
    urdu = _quiz("ur", description="پہلا۔\n\n- ایک\n- دو")
    (info,) = _render([english, urdu], multilang=True)["multilang/mixed.xml"].iterfind(
        "question[@type='category']/info/text"
    )
    en, ur = '<span lang="en" class="multilang">', '<span lang="ur" class="multilang">'
    assert info.text == (
        f"<p>{en}First.</span>{ur}پہلا۔</span></p>"
        f"<ul><li>{en}one</span>{ur}ایک</span></li><li>{en}two</span>{ur}دو</span></li></ul>"
    )


def test_names_and_categories_are_cdata_so_moodle_keeps_the_space_after_an_ampersand() -> None:
    urdu = _quiz("ur", title="چیک پوائنٹ & شارڈ")
    urdu = urdu.model_copy(
        update={"questions": [urdu.questions[0].model_copy(update={"prompt": "A & بی < سی"})]}
    )
    translations = QuizTranslations("mixed", {"ur": urdu}, ["ur"])
    (output,) = MoodleRenderer(MoodleOptions()).render_quiz(translations)
    xml = output.content.decode()
    assert "<text><![CDATA[$course$/top/چیک پوائنٹ & شارڈ (ur)]]></text>" in xml
    assert "<name>\n      <text><![CDATA[A & بی ‹ سی]]></text>" in xml


def test_a_literal_pluginfile_in_any_text_is_never_a_moodle_file_url() -> None:
    marker = "@@PLUGINFILE@@/secret.png"
    quizzes = [
        _quiz(lang, description=f"See {marker} and `{marker}`").model_copy(
            update={
                "questions": [
                    q.model_copy(update={"prompt": f"{marker} ({lang})", "explanation": marker})
                    for q in _quiz(lang).questions
                ]
            }
        )
        for lang in ("en", "ur")
    ]
    translations = QuizTranslations("mixed", {q.lang: q for q in quizzes}, ["en", "ur"])
    outputs = list(MoodleRenderer(MoodleOptions(multilang=True)).render_quiz(translations))
    assert len(outputs) == 3
    for output in outputs:
        # Moodle rewrites the HTML fields (question text, feedback, answers), not names.
        texts = _html_texts(etree.fromstring(output.content))
        assert not [text for text in texts if "@@PLUGINFILE@@" in text], output.path
        assert sum("&#64;&#64;" in text and "PLUGINFILE" in text for text in texts) >= 3


def test_multilang_has_one_question_per_id(mixed: dict[str, etree._Element]) -> None:
    root = mixed["multilang/mixed.xml"]
    assert [q.findtext("idnumber") for q in root.iter("question")] == [
        None,
        "mixed/pick-two",
        "mixed/sky",
    ]
    assert root[0].findtext("category/text") == "$course$/top/Mixed en (en, ur)"
    # Option b has no feedback in either language: no lone span.
    assert root.findtext("question[2]/answer[2]/feedback/text") == ""


def test_hostile_text_is_escaped_and_intact() -> None:
    questions = [dict(_quiz("en").model_dump(mode="json")["questions"][1], prompt=HOSTILE)]
    quizzes = [
        _quiz("en", title="Input/Output & <b>", questions=questions),
        _quiz("ur", title="/ان پٹ/", questions=questions),
    ]
    roots = _render(quizzes, multilang=True)
    question = roots["en/mixed.xml"][1]
    source = question.findtext("questiontext/text")
    assert "&lt;script&gt;" in source and "<script" not in source
    assert html.fragment_fromstring(source).text_content() == HOSTILE
    assert question.findtext("name/text") == HOSTILE.replace("<", "\u2039").replace(">", "\u203a")
    assert "<script" not in roots["ur/mixed.xml"][1].findtext("questiontext/text")
    for root in roots.values():
        for text in _html_texts(root):
            assert not list(_fragment(text).iter("script")), text


def test_category_path_escapes_slashes() -> None:
    roots = _render([_quiz("en", title="Input/Output"), _quiz("ur", title="/ان پٹ/")])
    en = roots["en/mixed.xml"][0].findtext("category/text")
    ur = roots["ur/mixed.xml"][0].findtext("category/text")
    assert en == "$course$/top/Input//Output (en)"
    assert ur == "$course$/top/ //ان پٹ// (ur)"

    # qformat_default::split_category_path()
    def split(path: str) -> list[str]:
        return [p.replace("//", "/").strip() for p in re.split(r"(?<!/)/(?!/)", path)]

    assert split(en) == ["$course$", "top", "Input/Output (en)"]
    assert split(ur) == ["$course$", "top", "/ان پٹ/ (ur)"]


@pytest.mark.parametrize("source", ["<p>a]]>b</p>", "<p>plain &amp; simple</p>", ""])
def test_html_survives_cdata_and_its_end_marker(source: str) -> None:
    parsed = etree.fromstring(f"<text>{_cdata(source)}</text>")
    assert (parsed.text or "") == source


@pytest.mark.parametrize("text", [HOSTILE, "a\r\nb\tc", "x > y && 'z' <", "/ان پٹ/ 😀"])
def test_text_is_escaped_as_lxml_escapes_it(text: str) -> None:
    """The renderer writes text itself; the bytes are those lxml's serialiser wrote."""
    element = etree.Element("text")
    element.text = text
    assert f"<text>{_text(text)}</text>" == etree.tostring(element, encoding="unicode")


def test_refuses_what_lxml_refuses() -> None:
    """Every character XML cannot carry is refused, and only those: as lxml does."""
    element = etree.Element("text")
    for code in [*range(0x10000), 0x10000, 0x1F600, 0x10FFFF]:
        text = f"a{chr(code)}"
        try:
            element.text = text
            carried = True
        except ValueError:
            carried = False
        try:
            _encoded(text)
            written = True
        except ValueError:
            written = False
        assert written == carried, hex(code)


def test_a_character_xml_cannot_carry_is_a_clear_error() -> None:
    """The model refuses such characters; a quiz that skipped its validation still fails."""
    quiz = _quiz("en")
    bell = quiz.questions[1].model_copy(update={"prompt": "Ring \x07"})
    with pytest.raises(RendererError, match=r"quiz 'mixed' question 'sky'.*control character"):
        _render([quiz.model_copy(update={"questions": [quiz.questions[0], bell]})])
    with pytest.raises(RendererError, match=r"quiz 'mixed':.*control character"):
        _render([quiz.model_copy(update={"title": "Ring \x07"})])


def test_options_are_typed() -> None:
    assert MoodleOptions.model_validate({"shuffle": "false"}).shuffle is False
    with pytest.raises(ValidationError):
        MoodleOptions.model_validate({"numbering": "xyz"})
    with pytest.raises(ValidationError):
        MoodleOptions.model_validate({"shufle": "true"})


def test_numbering_and_shuffle_are_written() -> None:
    roots = _render([_quiz("en")], numbering="IIII", shuffle=False)
    question = _questions(roots["en/mixed.xml"], "multichoice")[0]
    assert question.findtext("answernumbering") == "IIII"
    assert question.findtext("shuffleanswers") == "false"


def test_urdu_options_are_not_numbered_in_latin_letters_unless_asked() -> None:
    # Moodle numbers options abc, ABCD, 123, iii or IIII: none of them Urdu's own (الف، ب).
    def numbering(**options: Any) -> dict[str, set[str | None]]:
        roots = _render([_quiz("en"), _quiz("ur")], multilang=True, **options)
        return {
            path: {e.text for e in root.iterfind("question/answernumbering")}
            for path, root in roots.items()
        }

    assert numbering() == {
        "en/mixed.xml": {"abc"},
        "ur/mixed.xml": {"none"},
        "multilang/mixed.xml": {"abc"},
    }
    assert numbering(numbering="123")["ur/mixed.xml"] == {"123"}
