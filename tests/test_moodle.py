"""The Moodle XML renderer: what Moodle's importer (question/format/xml/format.php) relies on."""

from __future__ import annotations

import re
from collections.abc import Callable
from html import unescape
from pathlib import Path
from typing import Any

import pytest
import quizbank_renderers.moodle_text as moodle_text
from lxml import etree, html
from pydantic import ValidationError
from quizbank_renderers.moodle import MoodleOptions, MoodleRenderer
from quizbank_renderers.moodle_text import _cdata, _encoded, _text

from quizbank.errors import RendererError
from quizbank.grading import right_grades, wrong_grade
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
    # Lines of text ran together in one line: each block and line is a line of its own.
    assert info.text == (
        '<p><span lang="en" class="multilang">One paragraph.<br>\n<br>\n- and<br>\n- a list</span>'
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
    # Every language's title, in multilang spans (a `/` doubled in a category path).
    assert root[0].findtext("category/text") == (
        '$course$/top/<span lang="en" class="multilang">Mixed en<//span>'
        '<span lang="ur" class="multilang">Mixed ur<//span> (en, ur)'
    )
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


# --- What the real Moodle 4.5 taught (scripts/moodle-check runs it; CI cannot). ---------------

WORD_JOINER = "\u2060"
# filter_multilang2's classes/text_filter.php (version 2.0.5.5): its pattern, and what it shows.
_MLANG2 = re.compile(
    r"\{\s*mlang\s+((?:[a-z0-9_-]+)(?:\s*,\s*[a-z0-9_-]+\s*)*)\s*\}(.*?)\{\s*mlang\s*\}",
    re.I | re.S,
)
# filter/multilang/classes/text_filter.php: how one span's language and content are read.
_SPAN_PARTS = re.compile(
    r'<(?:lang|span)[^>]+lang="([a-zA-Z0-9_-]+)"[^>]*>(.*?)</(?:lang|span)>', re.S
)


def mlang2_shows(text: str, lang: str) -> str:
    """What the multilang2 filter shows in `lang` (no parent language): the blocks of `lang`;
    when the text has none, the blocks of `other`; nothing of any other block."""
    shown = text
    for target in (lang, "other"):
        found = False

        def pick(match: re.Match[str], target: str = target) -> str:
            nonlocal found
            langs = match[1].lower().replace("-", "_").replace(" ", "").split(",")
            found = found or target in langs
            return match[2] if target in langs else ""

        shown = _MLANG2.sub(pick, text)
        if found:
            return shown
    return shown


def multilang_shows(text: str, lang: str) -> str:
    """What Moodle's multilang filter shows in `lang`: of adjacent spans, that of `lang`, else
    the first."""

    def pick(match: re.Match[str]) -> str:
        found = {
            code.lower().replace("-", "_"): html for code, html in _SPAN_PARTS.findall(match[0])
        }
        return found.get(lang, next(iter(found.values())))

    return MULTILANG.sub(pick, text)


def _seen(html_text: str) -> str:
    """What a reader sees of HTML (or of a plain text): tags gone, references decoded, as after
    Moodle's HTML cleaning, its editor or a copy and paste."""
    return unescape(re.sub(r"<[^<>]*>", "", html_text))


def _with(quiz: Quiz, **fields: Any) -> Quiz:
    """`quiz` with top-level fields replaced without validation, as a plug-in might pass it."""
    return quiz.model_copy(update=fields)


def _each_question(quiz: Quiz, **fields: Any) -> Quiz:
    return _with(quiz, questions=[q.model_copy(update=fields) for q in quiz.questions])


def _outputs(quizzes: list[Quiz], **options: Any) -> dict[str, str]:
    """Every file of the quizzes, as text, keyed by path."""
    translations = QuizTranslations(
        quizzes[0].id, {q.lang: q for q in quizzes}, [q.lang for q in quizzes]
    )
    renderer = MoodleRenderer(MoodleOptions(**options))
    return {str(out.path): out.content.decode() for out in renderer.render_quiz(translations)}


def _every_export(quizzes: list[Quiz]) -> dict[str, str]:
    """The files of each language, and the multilang file in each syntax."""
    files = _outputs(quizzes, multilang="spans")
    files["mlang2/" + "multilang"] = _outputs(quizzes, multilang="mlang2")["multilang/mixed.xml"]
    return files


_CDATA_ONLY = re.compile(r"(?:<!\[CDATA\[.*?\]\]>)+", re.S)


def test_every_text_is_in_cdata_where_moodles_reader_keeps_its_spaces() -> None:
    """Outside CDATA, Moodle's XML reader (lib/xmlize.php) gets `A &amp; بی` as the chunks `A `,
    `&`, ` ` and `بی` and drops the chunk that is only white space: it stored `A &بی`. Names,
    the category, HTML, tags and the idnumber are all in CDATA."""
    quizzes = [
        _with(_quiz(lang, title="چیک پوائنٹ & شارڈ < ٹی"), tags=["a & بی", "x < ی"])
        for lang in ("en", "ur")
    ]
    quizzes = [_each_question(quiz, prompt="لوڈ & محفوظ < ابھی") for quiz in quizzes]
    for path, xml in _every_export(quizzes).items():
        contents = re.findall(r"<(text|idnumber)>(.*?)</\1>", xml, re.S)
        assert len(contents) > 20, path
        for tag, content in contents:
            assert content in ("", "true", "false") or _CDATA_ONLY.fullmatch(content), (path, tag)
        root = etree.fromstring(xml.encode())
        assert [t.text for t in root.iterfind("question/tags/tag/text")][:2] == ["a & بی", "x < ی"]
        assert root.findtext("question[2]/name/text") == "لوڈ & محفوظ \u2039 ابھی", path


@pytest.mark.parametrize("text", ["a ]]> & بی", "]]>", "x]]]>y ]]>]]>", " ]]> ", "]]"])
def test_cdata_splits_its_end_marker_between_the_brackets_and_the_angle(text: str) -> None:
    written = _cdata(text)
    assert _CDATA_ONLY.fullmatch(written), written  # never escaped text outside CDATA
    parts = re.findall(r"<!\[CDATA\[(.*?)\]\]>", written, re.S)
    assert "".join(parts) == text
    assert all(part.strip() for part in parts)  # Moodle's reader drops a part of white space
    assert etree.fromstring(f"<t>{written}</t>").text == text


def test_pluginfile_written_by_an_author_is_never_a_moodle_file_in_any_field() -> None:
    """Moodle rewrites `@@PLUGINFILE@@/x` into a file's URL in HTML; its cleaning, its editor
    and a copy and paste decode `&#64;&#64;`; names, tags and idnumbers are plain text (a tag
    shows `&#64;` as written). Every field holds a word joiner before `PLUGINFILE`, and shows
    the marker as the author wrote it."""
    marker = "@@PLUGINFILE@@"
    quizzes = []
    for lang in ("en", "ur"):
        quiz = _quiz(lang, title=f"T {marker}/t.png", description=f"See {marker}/d.png")
        quiz = _each_question(
            quiz,
            prompt=f"Q {marker}/q.png ({lang})",
            explanation=f"- {marker}/e.png\n- `{marker}`",
            feedback_true=f"{marker}/f.png",
        )
        first = quiz.questions[0].model_copy(
            update={
                "id": f"id-{marker}",
                "options": [
                    o.model_copy(
                        update={"text": f"{marker}/{o.id}", "feedback": f"{marker} {lang}"}
                    )
                    for o in quiz.questions[0].options  # type: ignore[union-attr]
                ],
            }
        )
        quizzes.append(_with(quiz, questions=[first, quiz.questions[1]], tags=[marker]))
    for path, xml in _every_export(quizzes).items():
        root = etree.fromstring(xml.encode())
        seen = "\n".join(_seen(e.text) for e in root.iter() if e.text and e.text.strip())
        assert marker not in seen, path
        assert seen.replace(WORD_JOINER, "").count(marker) >= 10, path
        literal = {
            "category": root.findtext("question/category/text"),
            "name": root.findtext("question[2]/name/text"),
            "idnumber": root.findtext("question[2]/idnumber"),
            "tag": root.findtext("question[2]/tags/tag/text"),
        }
        for field, text in literal.items():
            assert text and f"@@{WORD_JOINER}PLUGINFILE@@" in text, (path, field, text)


def test_pluginfile_is_inert_even_if_the_core_did_not_escape_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The core's to_html writes `@@` as `&#64;&#64;`; the Moodle export does not rely on it."""
    monkeypatch.setattr(moodle_text, "to_html", lambda text, lang="en", *, inline=False: text)
    xml = _outputs([_each_question(_quiz("en"), prompt="@@PLUGINFILE@@/a.png")])["en/mixed.xml"]
    assert "@@PLUGINFILE@@" not in _seen(xml)
    assert f"@@{WORD_JOINER}PLUGINFILE@@/a.png" in xml


@pytest.mark.parametrize(
    ("value", "multilang"),
    [
        ("true", True),
        ("True", True),
        ("false", False),
        (False, False),
        ("spans", "spans"),
        ("mlang2", "mlang2"),
    ],
)
def test_multilang_option_takes_a_boolean_or_a_syntax(value: object, multilang: object) -> None:
    assert MoodleOptions.model_validate({"multilang": value}).multilang == multilang


@pytest.mark.parametrize("value", ["mlang", "span", "2", ""])
def test_multilang_option_refuses_anything_else(value: str) -> None:
    with pytest.raises(ValidationError):
        MoodleOptions.model_validate({"multilang": value})


def test_multilang_true_is_the_spans() -> None:
    quizzes = [_quiz("en"), _quiz("ur")]
    assert _outputs(quizzes, multilang=True) == _outputs(quizzes, multilang="spans")


def test_formats_lists_the_multilang_syntaxes(cli: Callable[..., Any]) -> None:
    run = cli("formats")
    (line,) = [line for line in run.lines if line.strip().startswith("multilang ")]
    assert line.strip().startswith("multilang (default false): ")
    assert "true or spans" in line and "mlang2" in line


def _html_fields(xml: str) -> list[str]:
    """Every HTML text of a file, empty ones too, in file order."""
    root = etree.fromstring(xml.encode())
    return [text.text or "" for text in root.iterfind(".//*[@format='html']/text")]


@pytest.mark.parametrize("source", ["content", "mixed"])
def test_mlang2_shows_each_language_exactly_as_its_own_file(source: str) -> None:
    """multilang2's `{mlang xx}` tags are text: Moodle's cleaner and editor leave them alone, so
    each language's HTML is whole (Urdu in its right-to-left `<div>`), whatever the other
    languages' blocks; the first language is also `other`, shown in a language the file lacks."""
    if source == "content":
        quizzes = [
            load_quiz(CONTENT / lang / "checkpoint-sharding.yaml").quiz for lang in ("en", "ur")
        ]
    else:
        english = _quiz("en", description="One paragraph.\n\n- and\n- a list")
        quizzes = [english, _quiz("ur", description="صرف ایک پیراگراف۔")]
    files = _outputs([q for q in quizzes if q], multilang="mlang2")
    (multilang,) = [xml for path, xml in files.items() if path.startswith("multilang/")]
    fields = _html_fields(multilang)
    assert len(fields) > 10
    for lang, shown_as in (("en", "en"), ("ur", "ur"), ("fr", "en")):
        own = _html_fields(
            next(xml for path, xml in files.items() if path.startswith(f"{shown_as}/"))
        )
        assert [mlang2_shows(field, lang) for field in fields] == own, lang
    assert all("multilang" not in field for field in fields)  # no span syntax mixed in


def test_mlang2_tags_around_each_language() -> None:
    files = _outputs([_quiz("en"), _quiz("ur")], multilang="mlang2")
    root = etree.fromstring(files["multilang/mixed.xml"].encode())
    assert root.findtext("question[2]/questiontext/text") == (
        "{mlang en,other}<p>Pick the even numbers (en)</p>{mlang}"
        '{mlang ur}<div lang="ur" dir="rtl"><p><bdi lang="en">Pick the even numbers</bdi> (<bdi lang="en">ur</bdi>)</p>'
        "</div>{mlang}"
    )
    assert root.findtext("question[2]/answer[1]/feedback/text") == (
        "{mlang en,other}odd (en){mlang}"
        '{mlang ur}<div lang="ur" dir="rtl"><bdi lang="en">odd</bdi> (<bdi lang="en">ur</bdi>)</div>{mlang}'
    )
    # A text in one language only is for every language: no tags.
    one = _outputs(
        [_quiz("en"), _each_question(_quiz("ur"), explanation=None)], multilang="mlang2"
    )["multilang/mixed.xml"]
    assert etree.fromstring(one.encode()).findtext("question[2]/generalfeedback/text") == (
        "<p>2 and 4 (en)</p>"
    )


def test_an_authors_mlang_tags_are_shown_not_filtered() -> None:
    """A quiz about Moodle may show `{mlang en}`: neither filter takes it for its own, in any
    file, name or HTML; what it shows is what the author wrote (with an invisible word joiner)."""
    quizzes = [
        _each_question(
            _quiz(lang, title="Use {mlang en}"), prompt=f"Write {{mlang {lang}}}Hi{{mlang}}"
        )
        for lang in ("en", "ur")
    ]
    for path, xml in _every_export(quizzes).items():
        root = etree.fromstring(xml.encode())
        texts = [e.text for e in root.iter("text") if e.text and re.search("Write|Use", e.text)]
        assert len(texts) >= 4, path  # category, two names, a question text
        for text in texts:
            for lang in ("en", "ur"):
                shown = _seen(multilang_shows(mlang2_shows(text, lang), lang))
                assert "mlang" in shown, (path, lang, text)
                assert not _MLANG2.search(shown), (path, lang, text)
                assert not re.search(r"\{mlang", shown), (path, lang, text)
        written = [_seen(text).replace(WORD_JOINER, "") for text in texts]
        assert any(re.search(r"Write \{mlang (en|ur)\}Hi\{mlang\}", text) for text in written), path
        assert any("Use {mlang en}" in text for text in written), path
