"""Every question type in Moodle XML, as the real Moodle 4.5 imported it (scripts/moodle-check):
the element names and values each qtype's import reads and its export writes back, Moodle's
embedded-answer syntax and its escapes, multilang per field."""

# ruff: noqa: RUF001 - Urdu text is meant

from __future__ import annotations

import re
from html import unescape
from pathlib import Path
from typing import Any

import pytest
from lxml import etree
from quizbank_renderers.moodle import MoodleOptions, MoodleRenderer
from quizbank_renderers.moodle_types import embedded_text

from quizbank.loader import load_quiz
from quizbank.model import Quiz
from quizbank.renderer import QuizTranslations

TYPES = Path(__file__).resolve().parent / "fixtures" / "types"
WJ = "\u2060"

# question/type/multianswer/questiontype.php, in Python's re (a lookbehind of one length each).
_FRACTION = r"=|%(-?[0-9]+(?:[.,][0-9]*)?)%"
_ANSWER = r".+?(?<!\\)(?<!&)(?<!&amp;)(?=[~#}]|$)"
_FEEDBACK = r".*?(?<!\\)(?=[~}]|$)"
_ALTERNATIVE = rf"({_FRACTION})?({_ANSWER})(#({_FEEDBACK}))?"
_TYPES = (
    r"(NUMERICAL|NM)|(MULTICHOICE|MC)|(MULTICHOICE_V|MCV)|(MULTICHOICE_H|MCH)|"
    r"(SHORTANSWER|SA|MW)|(SHORTANSWER_C|SAC|MWC)|"
    r"(MULTICHOICE_S|MCS)|(MULTICHOICE_VS|MCVS)|(MULTICHOICE_HS|MCHS)|"
    r"(MULTIRESPONSE|MR)|(MULTIRESPONSE_H|MRH)|(MULTIRESPONSE_S|MRS)|(MULTIRESPONSE_HS|MRHS)"
)
ANSWER_REGEX = re.compile(rf"\{{([0-9]*):({_TYPES}):({_ALTERNATIVE}(~{_ALTERNATIVE})*)\}}", re.S)
ALTERNATIVE = re.compile(rf"~?{_ALTERNATIVE}", re.S)


def moodle_gaps(text: str) -> list[tuple[str, str, list[tuple[str, str, str]]]]:
    """qtype_multianswer_extract_question(): each gap's weight, type and (fraction, answer,
    feedback) as Moodle stores them (html_entity_decode, then `\\}` and `\\#` unescaped)."""

    def decoded(value: str) -> str:
        return unescape(value).replace("\\}", "}").replace("\\#", "#")

    gaps = []
    while found := ANSWER_REGEX.search(text):
        alternatives, rest = [], found[16]
        while rest and (alt := ALTERNATIVE.match(rest)):
            feedback = decoded(alt[5]) if alt[5] is not None else ""
            alternatives.append((alt[1] or "", decoded(alt[3]), feedback))
            rest = rest[alt.end() :]
        gaps.append((found[1], found[2], alternatives))
        text = text.replace(found[0], f"{{#{len(gaps)}}}", 1)
    return gaps


def _files(**options: Any) -> dict[str, etree._Element]:
    quizzes = [load_quiz(TYPES / lang / "every-type.yaml").quiz for lang in ("en", "ur")]
    return _render([q for q in quizzes if q], **options)


def _render(quizzes: list[Quiz], **options: Any) -> dict[str, etree._Element]:
    translations = QuizTranslations(
        quizzes[0].id, {q.lang: q for q in quizzes}, [q.lang for q in quizzes]
    )
    renderer = MoodleRenderer(MoodleOptions(**options))
    return {
        str(out.path): etree.fromstring(out.content) for out in renderer.render_quiz(translations)
    }


def _question(root: etree._Element, question_id: str) -> etree._Element:
    (question,) = root.iterfind(f"question[idnumber='every-type/{question_id}']")
    return question


def _children(question: etree._Element) -> dict[str, str]:
    """Each leaf element after the idnumber with its text."""
    tags = [e.tag for e in question]
    after = question[tags.index("idnumber") + 1 :]
    return {e.tag: (e.text or "") for e in after if len(e) == 0}


@pytest.fixture(scope="module")
def spans() -> dict[str, etree._Element]:
    return _files(multilang=True)


@pytest.fixture(scope="module")
def mlang2() -> dict[str, etree._Element]:
    return _files(multilang="mlang2")


def test_each_type_is_its_moodle_qtype(spans: dict[str, etree._Element]) -> None:
    for root in spans.values():
        kinds = [q.get("type") for q in root.iterfind("question")][1:]
        assert kinds == [
            "multichoice", "multichoice", "truefalse", "numerical", "shortanswer",
            "match", "ordering", "multianswer", "essay",
        ]  # fmt: skip


def test_numerical_one_answer_with_its_tolerance_and_no_units(
    spans: dict[str, etree._Element],
) -> None:
    question = _question(spans["en/every-type.xml"], "adam-beta1")
    (answer,) = question.iterfind("answer")
    assert answer.attrib == {"fraction": "100"}
    assert (answer.findtext("text"), answer.findtext("tolerance")) == ("0.9", "0.005")
    # Moodle's export writes no <units> for a question without units: the import would differ.
    assert question.find("units") is None
    assert _children(question) | {} == {
        "unitgradingtype": "0", "unitpenalty": "0.1000000", "showunits": "3", "unitsleft": "0",
    }  # fmt: skip
    assert question.findtext("defaultgrade") == "2.0000000"


def test_short_answer_usecase_and_every_accepted_answer_at_100(
    spans: dict[str, etree._Element],
) -> None:
    def accepted(path: str) -> list[tuple[str | None, str | None]]:
        question = _question(spans[path], "format-name")
        assert question.findtext("usecase") == "0"
        return [(a.get("fraction"), a.findtext("text")) for a in question.iterfind("answer")]

    assert accepted("en/every-type.xml") == [("100", "safetensors"), ("100", "safe*tensors")]
    assert accepted("ur/every-type.xml") == [("100", "safetensors"), ("100", "سیف ٹینسرز")]
    # A multilang file accepts every language's answers, each once.
    assert accepted("multilang/every-type.xml") == [
        ("100", "safetensors"), ("100", "safe*tensors"), ("100", "سیف ٹینسرز"),
    ]  # fmt: skip


def test_matching_subquestions_distractor_without_text(spans: dict[str, etree._Element]) -> None:
    question = _question(spans["en/every-type.xml"], "state-parts")
    assert question.findtext("shuffleanswers") == "true"
    assert question.find("shownumcorrect") is not None
    subs = [
        (s.findtext("text"), s.findtext("answer/text")) for s in question.iterfind("subquestion")
    ]
    assert subs == [
        ("Optimizer state", "Adam's moment estimates"),
        ("RNG state", "The same dropout masks"),
        ("Scheduler state", "The learning rate at this step"),
        ("", "The model's accuracy"),
    ]
    # format_string() shows a match: no filter by default, tags stripped. Each language's text.
    both = _question(spans["multilang/every-type.xml"], "state-parts")
    assert both.findtext("subquestion[4]/answer/text") == (
        "The model's accuracy / \u2068ماڈل کی درستی\u2069"
    )


def test_ordering_absolute_position_every_item_in_the_right_order(
    spans: dict[str, etree._Element],
) -> None:
    question = _question(spans["en/every-type.xml"], "resume-order")
    assert _children(question) == {
        "layouttype": "VERTICAL", "selecttype": "ALL", "selectcount": "3",
        "gradingtype": "ABSOLUTE_POSITION", "showgrading": "SHOW", "numberingstyle": "none",
        "shownumcorrect": "1",
    }  # fmt: skip
    answers = question.findall("answer")
    assert [a.get("fraction") for a in answers] == ["1", "2", "3"]
    assert [a.findtext("text") for a in answers] == [
        "Load the latest complete checkpoint",
        "Restore optimizer, scheduler and RNG state",
        "Move the data loader to the saved position",
    ]
    assert all(a.find("feedback") is None for a in answers)  # Moodle writes none back


def test_essay_elements(spans: dict[str, etree._Element]) -> None:
    question = _question(spans["en/every-type.xml"], "why-weights-only")
    assert _children(question) == {
        "responseformat": "editor", "responserequired": "1", "responsefieldlines": "15",
        "minwordlimit": "5", "maxwordlimit": "200", "attachments": "0",
        "attachmentsrequired": "0",
    }  # fmt: skip
    assert question.findtext("graderinfo/text") == (
        "<p>A full-mark answer mentions the optimizer state and the RNG state.</p>"
    )
    assert question.find("responsetemplate").get("format") == "html"
    assert question.findtext("responsetemplate/text") == ""


def test_cloze_embedded_answers_in_english(spans: dict[str, etree._Element]) -> None:
    question = _question(spans["en/every-type.xml"], "index-gaps")
    assert question.find("defaultgrade") is None  # a multianswer's mark: its gaps' weights
    assert question.findtext("questiontext/text") == (
        "<p>The index file maps each {1:SHORTANSWER:=parameter~=tensor} name to the "
        "{1:MULTICHOICE_S:=shard file~optimizer#The optimizer holds no weights.} that holds it, "
        "in {1:NUMERICAL:=3} files here.</p>"
    )
    assert question.findtext("name/text") == (
        "The index file maps each ___ name to the ___ that holds it, in ___ files here."
    )


def test_cloze_in_urdu_as_moodle_reads_it(spans: dict[str, etree._Element]) -> None:
    question = _question(spans["ur/every-type.xml"], "index-gaps")
    assert moodle_gaps(question.findtext("questiontext/text")) == [
        ("1", "SHORTANSWER", [("=", "پیرامیٹر", ""), ("=", "ٹینسر", ""), ("=", "parameter", "")]),
        ("1", "MULTICHOICE_S", [
            ("=", "شارڈ فائل", ""),
            ("", "آپٹیمائزر", '<div lang="ur" dir="rtl">آپٹیمائزر میں کوئی وزن نہیں ہوتے۔</div>'),
        ]),
        ("1", "NUMERICAL", [("=", "3", "")]),
    ]  # fmt: skip


@pytest.mark.parametrize(
    "text", ['a}b#c~d/e"f\\g&h<i{j=k%l', "=right", "%50%x", "ends in &", "ends in \\", "&amp;"]
)
def test_embedded_text_gives_back_exactly_the_text(text: str) -> None:
    written = embedded_text(text)
    assert not set(written) & set('\\{}~=%"/<>') and "#" not in written.replace("&#", "")
    (gap,) = moodle_gaps(f"{{1:SHORTANSWER:={written}~={written}#{written}}}")
    assert gap[2] == [("=", text, ""), ("=", text, text)]


def test_every_reserved_character_survives_in_every_gap() -> None:
    quiz = Quiz.model_validate(
        {
            "id": "reserved",
            "lang": "en",
            "title": "t",
            "description": "d",
            "level": "beginner",
            "questions": [
                {
                    "id": "c",
                    "type": "cloze",
                    "shuffle": False,
                    "points": 6,
                    "explanation": "e",
                    "prompt": "Literal {1:SHORTANSWER:=x} and {#1}, **bold [[a]] text**, [[b]], [[n]].",
                    "gaps": {
                        "a": {
                            "type": "short_answer",
                            "case_sensitive": True,
                            "answer": ['a}b#c~d/e"f\\g&h<i{j=k%l', "x\\*y"],
                        },
                        "b": {
                            "type": "single_choice",
                            "answer": "r",
                            "options": [
                                {"id": "r", "text": 'a < b & "c" ~ d}', "feedback": "why } # ~ \\"},
                                {"id": "w", "text": "=starts"},
                            ],
                        },
                        "n": {"type": "numerical", "answer": -0.0001, "tolerance": 0.00005},
                    },
                }
            ],
        }
    )
    question = _render([quiz])["en/reserved.xml"].find("question[2]")
    text = question.findtext("questiontext/text")
    assert moodle_gaps(text) == [
        ("2", "SHORTANSWER_C", [("=", 'a}b#c~d/e"f\\g&h<i{j=k%l', ""), ("=", "x\\*y", "")]),
        ("2", "MULTICHOICE", [
            ("=", 'a &lt; b &amp; "c" ~ d}', "why } # ~ \\"), ("", "=starts", ""),
        ]),
        ("2", "NUMERICAL", [("=", "-0.0001:5e-05", "")]),
    ]  # fmt: skip
    # The author's braces stay text: a word joiner after each, in the text and the name.
    assert f"Literal {{{WJ}1:SHORTANSWER:=x}} and {{{WJ}#1}}" in text
    assert f"{{{WJ}#1}}" in question.findtext("name/text")
    # The gap inside bold: the bold closes before the embedded answer and opens after it.
    assert "<strong>bold {2:SHORTANSWER_C:" in text


@pytest.mark.parametrize("fixture", ["spans", "mlang2"])
def test_multilang_cloze_writes_each_gap_once(fixture: str, request: Any) -> None:
    root = request.getfixturevalue(fixture)["multilang/every-type.xml"]
    text = _question(root, "index-gaps").findtext("questiontext/text")
    gaps = moodle_gaps(text)
    assert [(weight, kind) for weight, kind, _ in gaps] == [
        ("1", "SHORTANSWER"), ("1", "MULTICHOICE_S"), ("1", "NUMERICAL"),
    ]  # fmt: skip
    assert [a for _, a, _ in gaps[0][2]] == ["parameter", "tensor", "پیرامیٹر", "ٹینسر"]
    if fixture == "spans":
        assert text.startswith(
            '<p><span lang="en" class="multilang">The index file maps each </span>'
            '<span lang="ur" class="multilang">انڈیکس فائل ہر </span>{1:SHORTANSWER:'
        )
        assert gaps[1][2][0][1] == (
            '<span lang="en" class="multilang">shard file</span>'
            '<span lang="ur" class="multilang">شارڈ فائل</span>'
        )
    else:
        assert text.startswith(
            "{mlang en,other}<p>The index file maps each {mlang}"
            '{mlang ur}<div lang="ur" dir="rtl"><p>انڈیکس فائل ہر {mlang}{1:SHORTANSWER:'
        )
        assert text.endswith(
            "{mlang en,other} files here.</p>{mlang}{mlang ur} فائلوں میں۔</p></div>{mlang}"
        )
        assert gaps[1][2][0][1] == "{mlang en,other}shard file{mlang}{mlang ur}شارڈ فائل{mlang}"


def test_shuffle_false_is_honoured_per_question_and_by_the_option() -> None:
    def shuffles(**options: Any) -> tuple[list[str | None], str | None, str]:
        root = _files(**options)["en/every-type.xml"]
        kinds = [_question(root, q).findtext("shuffleanswers") for q in ("pick-one", "pick-all")]
        match = _question(root, "state-parts").findtext("shuffleanswers")
        (_, kind, _), *_ = moodle_gaps(_question(root, "index-gaps").findtext("questiontext/text"))[
            1:
        ]
        return kinds, match, kind

    assert shuffles() == (["true", "false"], "true", "MULTICHOICE_S")
    assert shuffles(shuffle=False) == (["false", "false"], "false", "MULTICHOICE")
    quizzes = [load_quiz(TYPES / lang / "every-type.yaml").quiz for lang in ("en",)]
    assert quizzes[0] is not None
    quiz = quizzes[0]
    questions = [
        q.model_copy(update={"shuffle": False}) if q.type in ("matching", "cloze") else q
        for q in quiz.questions
    ]
    root = _render([quiz.model_copy(update={"questions": questions})])["en/every-type.xml"]
    assert _question(root, "state-parts").findtext("shuffleanswers") == "false"
    assert "{1:MULTICHOICE:" in _question(root, "index-gaps").findtext("questiontext/text")


def test_cloze_weights_share_the_points() -> None:
    quiz = load_quiz(TYPES / "en" / "every-type.yaml").quiz
    assert quiz is not None
    questions = [
        q.model_copy(update={"points": 6}) if q.type == "cloze" else q for q in quiz.questions
    ]
    root = _render([quiz.model_copy(update={"questions": questions})])["en/every-type.xml"]
    gaps = moodle_gaps(_question(root, "index-gaps").findtext("questiontext/text"))
    assert [weight for weight, _, _ in gaps] == ["2", "2", "2"]
