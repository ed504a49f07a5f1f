"""The GIFT renderer, read back by Moodle's GIFT grammar (question/format/gift/format.php, ported
line by line in quizbank/importer/gift_grammar.py, the GIFT import's reader): every question's
type, key, feedback and general feedback, the idnumber and tags, and hostile text intact.
scripts/gift-check imports the same files into the real Moodle 4.5 and checks what it stored
against `expected` below; what it found is tested here."""

# ruff: noqa: RUF001 - Urdu punctuation is meant

from __future__ import annotations

import re
import shutil
import time
from collections.abc import Callable
from itertools import product
from operator import attrgetter
from pathlib import Path
from typing import Any

import pytest
import quizbank_renderers.moodle_text as moodle
from asked import asked
from conftest import REPO
from hypothesis import given
from hypothesis import strategies as st
from quizbank_renderers.gift import (
    GiftOptions,
    GiftRenderer,
    _escaped,
    _escaped_plain,
    accepted_answers,
    html_text,
    question_losses,
)
from quizbank_renderers.moodle_types import plain_line

from quizbank.build import BuildRequest, build
from quizbank.errors import RendererError
from quizbank.grading import POSITIVE_GRADES, option_grades
from quizbank.importer.gift_grammar import (
    GiftCategory,
    GiftQuestion,
    escapedchar_post,
    escapedchar_pre,
    parse_gift,
)
from quizbank.importer.source import MalformedFile
from quizbank.loader import load_quiz
from quizbank.markup import find_formulas, to_plain
from quizbank.model import (
    Matching,
    MultipleChoice,
    Numerical,
    Question,
    Quiz,
    ShortAnswer,
    SingleChoice,
    TrueFalse,
)
from quizbank.registry import discover_renderers
from quizbank.renderer import QuizTranslations

FIXTURES = REPO / "tests" / "fixtures"
WJ = "\u2060"

# ------------------------------------------------------------------------ Moodle's GIFT grammar
# The core's port of qformat_gift::readquestions() and readquestion()
# (quizbank.importer.gift_grammar), each question as the dictionary of what Moodle stores; with
# what Moodle's importprocess() then checks (match_grade_options: a grade on Moodle's list), and
# what quizbank's renderer never writes (a description, a missing word, a numerical range or
# feedback for other answers) an error too. An import error is GiftError.


class GiftError(ValueError):
    """What qformat_gift reports with $this->error(): the import stops (stoponerror)."""


# question_bank::fraction_options_full(), as fractions.
_FRACTIONS = [0.0, *(round(g / 100, 7) for g in POSITIVE_GRADES)]
_FRACTIONS += [-f for f in _FRACTIONS[1:]]


def read_gift(content: str) -> list[dict[str, Any]]:
    """Every block of a GIFT file as Moodle reads it: a category or a question."""
    try:
        return [_stored(record) for record in parse_gift(Path("test.gift"), content)]
    except MalformedFile as exc:
        raise GiftError(str(exc)) from exc


def _stored(record: GiftCategory | GiftQuestion) -> dict[str, Any]:
    if isinstance(record, GiftCategory):
        return {"qtype": "category", "category": record.path}
    if record.qtype == "description":
        raise GiftError("a description: quizbank writes none")
    if record.missing_word:
        raise GiftError(f"missing-word format (text after the answers): {record.text.text!r}")
    question: dict[str, Any] = {
        "qtype": record.qtype,
        "name": record.name if record.named else None,
        "questiontext": record.text.text,
        "questiontextformat": record.text.format,
        "generalfeedback": record.general_feedback.text,
        "generalfeedbackformat": record.general_feedback.format,
        "idnumber": record.idnumber,
        "tags": record.tags,
        "defaultmark": 1.0,  # defaultquestion(): GIFT has no syntax for it
    }
    question |= _KINDS[record.qtype](record)
    for answer in question.get("answers", ()):  # importprocess(): match_grade_options()
        listed = [f for f in _FRACTIONS if abs(answer["fraction"] - f) < 0.00001]
        if not listed:
            raise GiftError(f"grade {answer['fraction']} is not on Moodle's list")
        answer["fraction"] = listed[0]
    return question


def _choices(record: GiftQuestion) -> dict[str, Any]:
    answers = [
        {"text": a.text.text, "fraction": a.fraction, "feedback": a.feedback.text}
        for a in record.answers
    ]
    if record.qtype == "multichoice":
        return {"single": record.single, "answers": answers}
    return {"answers": answers}


def _numbers(record: GiftQuestion) -> dict[str, Any]:
    if record.other_feedback is not None:
        raise GiftError("quizbank writes no wrong-answer feedback")
    if any(".." in a.text.text for a in record.answers):
        raise GiftError("quizbank writes answer:tolerance")
    return {
        "answers": [
            {"text": a.number, "tolerance": a.tolerance, "fraction": a.fraction}
            for a in record.answers
        ]
    }


_KINDS: dict[str, Callable[[GiftQuestion], dict[str, Any]]] = {
    "essay": lambda record: {},
    "multichoice": _choices,
    "shortanswer": _choices,
    "numerical": _numbers,
    "truefalse": lambda record: {
        "correctanswer": record.correct,
        "feedbacktrue": record.feedback_true.text,
        "feedbackfalse": record.feedback_false.text,
    },
    "match": lambda record: {
        "subquestions": [(item.text, match) for item, match in record.subquestions]
    },
}

# ------------------------------------------------------------------------------ what is meant

QTYPES = {
    "single_choice": "multichoice",
    "multiple_choice": "multichoice",
    "true_false": "truefalse",
    "numerical": "numerical",
    "short_answer": "shortanswer",
    "matching": "match",
    "essay": "essay",
}


def _inline(text: str | None, lang: str) -> str:
    return html_text(text, lang, inline=True) if text else ""


_MATCH = attrgetter("match")
_TEXT = attrgetter("text")


def _joined(plain: str) -> str:
    return re.sub("&(?=&)", "&" + WJ, plain)


def expected(quiz: Quiz, question: Question) -> dict[str, Any]:
    """What Moodle should store of a question of a GIFT file (names without word joiners)."""
    lang = quiz.lang
    meant: dict[str, Any] = {
        "qtype": QTYPES[question.type],
        "name": moodle.question_name(question).replace(WJ, ""),
        "idnumber": f"{quiz.id}/{question.id}",
        "tags": list(quiz.tags),
        "questiontext": html_text(question.prompt, lang),
        "generalfeedback": html_text(question.explanation, lang),
        "defaultmark": 1.0,
    }
    if isinstance(question, SingleChoice | MultipleChoice):
        grades = option_grades(question)
        meant["single"] = isinstance(question, SingleChoice)
        meant["answers"] = [
            {
                "text": _inline(option.text, lang),
                "fraction": grades[option.id],
                "feedback": _inline(option.feedback, lang),
            }
            for option in question.options
        ]
    elif isinstance(question, TrueFalse):
        meant["correctanswer"] = question.answer
        meant["feedbacktrue"] = _inline(question.feedback_true, lang)
        meant["feedbackfalse"] = _inline(question.feedback_false, lang)
    elif isinstance(question, Numerical):
        meant["answers"] = [
            {"text": question.answer, "tolerance": question.tolerance, "fraction": 1.0}
        ]
    elif isinstance(question, ShortAnswer):
        kept, _lost = accepted_answers(question)
        # Moodle trims an accepted answer (and a response) whatever the format.
        meant["answers"] = [{"text": a.strip(), "fraction": 1.0, "feedback": ""} for a in kept]
    elif isinstance(question, Matching):
        # A match as the Moodle XML export has it, a word joiner between two `&`.
        meant["subquestions"] = [
            (_inline(pair.item, lang), _joined(plain_line([(lang, pair)], _MATCH)))
            for pair in question.pairs
        ] + [("", _joined(plain_line([(lang, d)], _TEXT))) for d in question.distractors]
    return meant


def category(quiz: Quiz) -> str:
    """The category path Moodle should file a quiz's questions in, as the Moodle XML export
    names it (without word joiners)."""
    title = moodle.untagged(to_plain(quiz.title))
    return f"$course$/top/{moodle.category_name(f'{title} ({quiz.lang})')}"


# ---------------------------------------------------------------------------- hostile content
# Written to a content folder by `write_edge`; scripts/gift-check imports it into Moodle too.

HOSTILE = (
    r"<script>alert(1)</script> ]]> @@PLUGINFILE@@/q.png {mlang en}x{mlang} ~ = # { } : \ a::b"
)
EDGE = {
    "en": r"""
id: gift-edge
lang: en
title: "Edge \\ cases: {x} ~ = # :: &&058; &&092; <b> @@PLUGINFILE@@ // not a comment"
description: Every character GIFT reserves, where GIFT would read syntax.
level: beginner
tags: [gift-edge, reserved]
questions:
  - id: reserved
    type: single_choice
    prompt: "// not a comment. Which of `~ = # { } : \\` is @@HOSTILE@@ &&058; &&010?"
    options:
      - {id: a, text: "[markdown] not a format", feedback: "[html] not a format # = ~ either"}
      - {id: b, text: "%50% not a grade", feedback: "50% -> right"}
      - {id: c, text: "{", feedback: "}"}
      - {id: d, text: "=starts with equals ~ and \\n is not a newline"}
    answer: b
    explanation: |
      First paragraph: `a -> b` and https://example.com/a?b=c#d.

      ```
      line one {

      line three } \n
      ```

      - a list
      - and $$x = \{1, 2\}$$ shown
  - id: grades
    type: multiple_choice
    prompt: 'Pick the true ones: $\frac{a}{b} = c$, $x \sim y$ and $\#S : \{1\}$.'
    options:
      - {id: a, text: '$a \neq b$'}
      - {id: b, text: '$\sqrt[3]{8} = 2$', feedback: 'Yes: $2^3 = 8$.'}
      - {id: c, text: "#hash first"}
      - {id: d, text: "~tilde first"}
      - {id: e, text: "}"}
    answer: [a, b, c]
    shuffle: false
    explanation: '$$\left\{ x : x > 0 \right\}$$'
  - id: brace
    type: true_false
    prompt: "{"
    answer: true
    feedback_true: "Right {"
    explanation: "}"
  - id: wrong-only
    type: true_false
    prompt: "TRUE or FALSE?"
    answer: false
    feedback_true: "Wrong: it is false. #"
    explanation: "Hash: #"
  - id: tiny
    type: numerical
    prompt: 'How much, ± $5 \times 10^{-5}$?'
    answer: -0.0001
    tolerance: 0.00005
    points: 2
    explanation: "-0.0001"
  - id: typed
    type: short_answer
    prompt: "Type one."
    answer: ['%50%x', '[html]y', 'a\*b', 'a:b=c#d~e{f}g\h', 'TRUE', ' spaced']
    case_sensitive: true
    explanation: "Any."
  - id: arrow-only
    type: short_answer
    prompt: "An arrow."
    answer: 'a->b'
    explanation: "a->b"
  - id: arrow-among
    type: short_answer
    prompt: "An arrow among others."
    answer: ['x->y', 'plain']
    explanation: "plain"
  - id: true-word
    type: short_answer
    prompt: "The word."
    answer: 'TRUE'
    explanation: "TRUE"
  - id: pairs
    type: matching
    prompt: "Match."
    pairs:
      - {id: a, item: "[markdown] item -> with an arrow", match: "x -> y = z"}
      - {id: b, item: '$\frac{1}{2}$ {', match: "&&058; a:b # c ~ d {e}"}
    distractors:
      - {id: c, text: "%50% [html] @@PLUGINFILE@@"}
    explanation: "Pairs."
  - id: essay-edge
    type: essay
    prompt: |
      Write.



      After blank lines.
    grader_info: "Mentions {x}."
    explanation: "Any."
""",
    "ur": r"""
id: gift-edge
lang: ur
title: "کنارے \\ کے معاملات: {x} ~ = # :: &&058; <b> @@PLUGINFILE@@"
description: ہر وہ حرف جو GIFT محفوظ رکھتا ہے۔
level: beginner
tags: [gift-edge, reserved]
questions:
  - id: reserved
    type: single_choice
    prompt: "// تبصرہ نہیں۔ `~ = # { } : \\` میں سے کون @@HOSTILE@@ ہے؟"
    options:
      - {id: a, text: "[markdown] فارمیٹ نہیں", feedback: "[html] فارمیٹ نہیں # = ~"}
      - {id: b, text: "%50% گریڈ نہیں", feedback: "50% -> درست"}
      - {id: c, text: "{", feedback: "}"}
      - {id: d, text: "=برابر سے شروع ~"}
    answer: b
    explanation: |
      پہلا پیراگراف: `a -> b`۔

      ```
      line one {

      line three }
      ```

      - فہرست
      - اور $$x = \{1, 2\}$$
  - id: grades
    type: multiple_choice
    prompt: 'درست چنیں: $\frac{a}{b} = c$، $x \sim y$ اور $\#S : \{1\}$۔'
    options:
      - {id: a, text: '$a \neq b$'}
      - {id: b, text: '$\sqrt[3]{8} = 2$', feedback: 'ہاں: $2^3 = 8$۔'}
      - {id: c, text: "#ہیش پہلے"}
      - {id: d, text: "~ٹلڈا پہلے"}
      - {id: e, text: "}"}
    answer: [a, b, c]
    shuffle: false
    explanation: '$$\left\{ x : x > 0 \right\}$$'
  - id: brace
    type: true_false
    prompt: "{"
    answer: true
    feedback_true: "درست {"
    explanation: "}"
  - id: wrong-only
    type: true_false
    prompt: "درست یا غلط؟"
    answer: false
    feedback_true: "غلط: یہ غلط ہے۔ #"
    explanation: "Hash: #"
  - id: tiny
    type: numerical
    prompt: 'کتنا، ± $5 \times 10^{-5}$؟'
    answer: -0.0001
    tolerance: 0.00005
    points: 2
    explanation: "-0.0001"
  - id: typed
    type: short_answer
    prompt: "ایک لکھیں۔"
    answer: ['%50%x', '[html]y', 'a\*b', 'a:b=c#d~e{f}g\h', 'TRUE', 'سیف']
    case_sensitive: true
    explanation: "کوئی بھی۔"
  - id: arrow-only
    type: short_answer
    prompt: "ایک تیر۔"
    answer: 'a->b'
    explanation: "a->b"
  - id: arrow-among
    type: short_answer
    prompt: "دوسروں میں ایک تیر۔"
    answer: ['x->y', 'سادہ']
    explanation: "سادہ"
  - id: true-word
    type: short_answer
    prompt: "لفظ۔"
    answer: 'TRUE'
    explanation: "TRUE"
  - id: pairs
    type: matching
    prompt: "ملائیں۔"
    pairs:
      - {id: a, item: "[markdown] تیر -> کے ساتھ", match: "x -> y = z"}
      - {id: b, item: '$\frac{1}{2}$ {', match: "&&058; الف:ب # ج ~ د {ہ}"}
    distractors:
      - {id: c, text: "%50% [html] @@PLUGINFILE@@ کوئی نہیں"}
    explanation: "جوڑے۔"
  - id: essay-edge
    type: essay
    prompt: |
      لکھیں۔



      خالی سطروں کے بعد۔
    grader_info: "{x} کا ذکر۔"
    explanation: "کوئی بھی۔"
""",
}


def write_edge(content: Path) -> Path:
    """The hostile quiz in English and Urdu, as content/<lang>/gift-edge.yaml under `content`."""
    for lang, text in EDGE.items():
        (content / lang).mkdir(parents=True, exist_ok=True)
        escaped = HOSTILE.replace("\\", "\\\\").replace('"', '\\"')
        (content / lang / "gift-edge.yaml").write_text(
            text.replace("@@HOSTILE@@", escaped).lstrip(), "utf-8"
        )
    return content


# ------------------------------------------------------------------------------------- helpers


def _quizzes(folder: Path, quiz_id: str) -> QuizTranslations:
    quizzes = {}
    for lang in ("en", "ur"):
        loaded = load_quiz(folder / lang / f"{quiz_id}.yaml")
        assert loaded.quiz is not None, [d.format() for d in loaded.diagnostics]
        quizzes[lang] = loaded.quiz
    return QuizTranslations(quiz_id, quizzes, list(quizzes))


@pytest.fixture(scope="module")
def edge(tmp_path_factory: pytest.TempPathFactory) -> QuizTranslations:
    return _quizzes(write_edge(tmp_path_factory.mktemp("edge")), "gift-edge")


def _render(quiz: QuizTranslations, lang: str) -> str:
    return GiftRenderer(GiftOptions()).render(quiz, lang)


def _check_every_question(quiz: QuizTranslations, lang: str) -> list[dict[str, Any]]:
    """Each question Moodle's grammar reads from the file, checked against what is meant."""
    current = quiz[lang]
    first, *read = read_gift(_render(quiz, lang))
    assert first["category"].replace(WJ, "") == category(current)
    stored = [q for q in read if q["qtype"] != "category"]  # sections', variants' categories
    carried = asked(current, QTYPES)  # a question with variables as its variants (id …/n)
    assert len(stored) == len(carried)
    for (question, variant), read in zip(carried, stored, strict=True):
        read["name"] = read["name"].replace(WJ, "")
        meant = expected(current, question)
        meant["idnumber"] += f"/{variant}" if variant else ""
        assert read["questiontextformat"] == read["generalfeedbackformat"] == "html"
        assert {key: read[key] for key in meant} == meant, question.id
    return stored


# --------------------------------------------------------------------------------------- tests


def test_found_through_the_entry_point() -> None:
    assert discover_renderers().get("gift").cls is GiftRenderer


@pytest.mark.parametrize("lang", ["en", "ur"])
def test_every_type_is_read_back_with_its_key_and_feedback(lang: str) -> None:
    stored = _check_every_question(_quizzes(FIXTURES / "types", "every-type"), lang)
    assert [q["qtype"] for q in stored] == [
        "multichoice", "multichoice", "truefalse", "numerical", "shortanswer", "match", "essay",
    ]  # fmt: skip
    pick_all = stored[1]
    assert not pick_all["single"]
    assert [a["fraction"] for a in pick_all["answers"]] == [0.5, 0.5, -0.5, -0.5]


@pytest.mark.parametrize("lang", ["en", "ur"])
def test_hostile_text_is_read_back_intact(edge: QuizTranslations, lang: str) -> None:
    stored = {q["idnumber"]: q for q in _check_every_question(edge, lang)}
    reserved = stored["gift-edge/reserved"]
    text = reserved["questiontext"]
    assert "<script" not in text and "alert(1)" in text and "]]&gt;" in text
    assert "PLUGINFILE" in text and "@@" not in text and "mlang" in text
    assert "~ = # { } : \\" in text and "a::b" in text
    assert [a["fraction"] for a in reserved["answers"]] == [0, 1, 0, 0]
    # A code block keeps its blank line and its braces.
    code = re.search(r"<pre><code>(.*?)</code></pre>", reserved["generalfeedback"], re.S)
    assert code is not None
    assert code[1].startswith("line one {\n\nline three }")
    if lang == "en":
        assert "&lt;script&gt;alert(1)&lt;/script&gt; ]]&gt;" in text
        assert "&#64;&#64;" + WJ + "PLUGINFILE&#64;&#64;/q.png" in text
        assert "{" + WJ + "mlang en}x{" + WJ + "mlang}" in text
        assert "<code>~ = # { } : \\</code>" in text
        # What looks like a format or a grade stays text; `\n` written by the author stays.
        assert [a["text"] for a in reserved["answers"]][:2] == [
            "[markdown] not a format",
            "%50% not a grade",
        ]
        assert reserved["answers"][0]["feedback"] == "[html] not a format # = ~ either"
        assert "&amp;&amp;058; &amp;&amp;010?" in text
        assert code[1] == "line one {\n\nline three } \\n\n"
    brace = stored["gift-edge/brace"]
    assert brace["questiontext"].endswith(("<p>&#123;</p>", "<p>&#123;</p></div>"))
    assert brace["correctanswer"] is True and brace["feedbackfalse"] == ""
    essay = stored["gift-edge/essay-edge"]
    assert essay["questiontext"].count("<p>") == 2  # the blank lines are the paragraphs' break
    if lang == "ur":
        assert all(
            q["questiontext"].startswith('<div lang="ur" dir="rtl">') for q in stored.values()
        )


def test_what_looks_like_gift_syntax_is_text(edge: QuizTranslations) -> None:
    stored = {q["idnumber"]: q for q in _check_every_question(edge, "en")}
    typed = stored["gift-edge/typed"]["answers"]
    assert [a["text"] for a in typed] == ["%50%x", "[html]y", "a\\*b", "a:b=c#d~e{f}g\\h",
                                          "TRUE", "spaced"]  # fmt: skip
    assert stored["gift-edge/true-word"]["qtype"] == "shortanswer"
    assert stored["gift-edge/arrow-only"]["answers"][0]["text"] == "a->b"
    assert [a["text"] for a in stored["gift-edge/arrow-among"]["answers"]] == ["plain"]
    pairs = stored["gift-edge/pairs"]["subquestions"]
    assert pairs[0] == ("[markdown] item -&gt; with an arrow", "x -› y = z")  # as in XML
    assert pairs[1][1] == f"&{WJ}&058; a:b # c ~ d {{e}}"
    assert pairs[2] == ("", f"%50% [html] @@{WJ}PLUGINFILE@@")
    assert stored["gift-edge/reserved"]["name"].startswith("// not a comment. Which of")


def test_formulas_reach_moodle_as_tex_for_mathjax(edge: QuizTranslations) -> None:
    for lang in ("en", "ur"):
        read = "\n".join(str(question) for question in read_gift(_render(edge, lang)))
        for question in (q for q in edge[lang].questions if q.type in QTYPES):
            for tex, display in find_formulas(f"{question.prompt}\n\n{question.explanation}"):
                escaped = tex.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
                written = f"\\[{escaped}\\]" if display else f"\\({escaped}\\)"
                assert repr(written)[1:-1] in read
    stored = {q.get("idnumber"): q for q in read_gift(_render(edge, "en"))}
    assert "\\(\\#S : \\{1\\}\\)" in stored["gift-edge/grades"]["questiontext"]
    assert stored["gift-edge/grades"]["answers"][1]["text"] == "\\(\\sqrt[3]{8} = 2\\)"
    # A `{` no `}` closes is `&#123;` (Moodle's MathJax filter would show tags up to a `}`).
    assert stored["gift-edge/pairs"]["subquestions"][1][0] == "\\(\\frac{1}{2}\\) &#123;"


def test_media_images_are_alt_text_and_formulas_tex() -> None:
    quiz = _quizzes(FIXTURES / "media", "media")
    for lang in ("en", "ur"):
        _check_every_question(quiz, lang)
        text = _render(quiz, lang)
        assert "<img" not in text and "PLUGINFILE" not in text
    diagram = read_gift(_render(quiz, "en"))[1]
    assert diagram["questiontext"].startswith("<p>Three shard files listed by one index file</p>")
    assert diagram["answers"][1]["text"] == "\\(\\frac{3}{2}\\) shards"
    assert diagram["generalfeedback"].endswith(
        "\\[n = \\left\\lceil \\frac{S}{B} \\right\\rceil\\]</p>"
    )


def test_each_question_is_one_block_of_lines_gift_reads_as_syntax(edge: QuizTranslations) -> None:
    for lang in ("en", "ur"):
        blocks = _render(edge, lang).split("\n\n")
        assert blocks[0].startswith("$CATEGORY: ") and "\n" not in blocks[0]
        for block in blocks[1:]:
            lines = block.rstrip("\n").split("\n")
            assert all(line.strip() for line in lines)
            assert lines[0].startswith("// [id:gift-edge/") and lines[1].startswith("::")
            assert all(line.startswith("\t") for line in lines[2:-1]) and lines[-1] == "}"
            assert not any(line.lstrip().startswith("//") for line in lines[1:])


def test_category_line_is_written_raw_with_backslashes_doubled(edge: QuizTranslations) -> None:
    line = _render(edge, "en").split("\n", 1)[0]
    assert line == (
        "$CATEGORY: $course$/top/Edge \\\\ cases: {x} ~ = # :: "
        f"&{WJ}&058; &{WJ}&092; ‹b› @@{WJ}PLUGINFILE@@ //// not a comment (en)"
    )  # `/` is `//` in a category path
    assert read_gift(line)[0]["category"] == (
        f"$course$/top/Edge \\ cases: {{x}} ~ = # :: &{WJ}&058; &{WJ}&092; ‹b› "
        f"@@{WJ}PLUGINFILE@@ //// not a comment (en)"
    )


def test_idnumber_and_tags_are_in_the_comment_moodle_reads(edge: QuizTranslations) -> None:
    stored = read_gift(_render(edge, "en"))[1:]
    assert [q["idnumber"] for q in stored][:2] == ["gift-edge/reserved", "gift-edge/grades"]
    assert all(q["tags"] == ["gift-edge", "reserved"] for q in stored)


def test_what_gift_loses_is_reported(edge: QuizTranslations) -> None:
    every = _quizzes(FIXTURES / "types", "every-type")
    losses = {loss.question: loss.what for loss in GiftRenderer(GiftOptions()).losses(every, "en")}
    assert losses == {  # the description, which GIFT has no place for, is not reported
        1: "is shuffled as the Moodle site says (gift cannot say shuffle: false)",
        3: "is worth 1 mark, not 2 (gift has no marks)",
        5: "is worth 1 mark, not 3 (gift has no marks)",
        6: "is left out: gift has no ordering questions",
        7: "is left out: gift has no cloze questions",
        8: "loses its grader information (gift has none), and loses its word limits (gift has none)",
    }
    edges = {q.id: question_losses(q) for q in edge["en"].questions}
    assert edges["typed"] == ["ignores case (gift cannot say case_sensitive: true)"]
    assert edges["arrow-among"] == [
        "loses its accepted answers 'x->y' (gift cannot write -> beside other answers)"
    ]
    assert edges["arrow-only"] == edges["true-word"] == []
    media = _quizzes(FIXTURES / "media", "media")
    assert question_losses(media["ur"].questions[0]) == [
        "shows its images ../images/shards.svg, ../images/grid.png as their alt text "
        "(gift carries no files)"
    ]


def test_a_build_warns_of_the_losses_and_fails_with_strict(tmp_path: Path) -> None:
    shutil.copytree(FIXTURES / "types", tmp_path / "content")
    registry = discover_renderers()
    request = BuildRequest(
        paths=[tmp_path / "content"], out_dir=tmp_path / "dist", formats=["gift"]
    )
    result = build(request, registry)
    warnings = [d.format() for d in result.report.diagnostics]
    assert len(warnings) == 6  # one per question that loses something; none for the description
    assert not [w for w in warnings if "description" in w]
    assert any(": warning: gift: question 2 (pick-all) is shuffled" in w for w in warnings)
    assert any(
        "gift: question 7 (resume-order) is left out: gift has no ordering questions" in w
        for w in warnings
    )
    assert (tmp_path / "dist" / "gift" / "ur" / "every-type.gift").is_file()
    strict = BuildRequest(
        paths=[tmp_path / "content"], out_dir=tmp_path / "strict", formats=["gift"], strict=True
    )
    assert build(strict, registry).report.has_errors
    assert not (tmp_path / "strict" / "gift").exists()


def test_an_accepted_answer_holding_a_placeholder_is_a_clear_error(edge: QuizTranslations) -> None:
    typed = edge["en"].questions[5]
    broken = typed.model_copy(update={"answer": ["a&&035;b"]})
    quiz = edge["en"].model_copy(update={"questions": [broken]})
    with pytest.raises(RendererError, match=r"question 'typed': its accepted answer 'a&&035;b'"):
        _render(QuizTranslations("gift-edge", {"en": quiz}, ["en"]), "en")
    fine = quiz.model_copy(update={"questions": [typed.model_copy(update={"answer": ["a&&b"]})]})
    [_, read] = read_gift(_render(QuizTranslations("gift-edge", {"en": fine}, ["en"]), "en"))
    assert read["answers"][0]["text"] == "a&&b"


def test_the_bundled_content_is_read_back(tmp_path: Path) -> None:
    for quiz_id in ("checkpoint-sharding", "resuming-training-in-practice"):
        quiz = _quizzes(REPO / "content", quiz_id)  # variants and sections: GIFT writes both
        for lang in ("en", "ur"):
            _check_every_question(quiz, lang)


def test_a_big_quiz_renders_quickly() -> None:
    every = _quizzes(FIXTURES / "types", "every-type")
    carried = [q for q in every["en"].questions if q.type in QTYPES]
    many = [q.model_copy(update={"id": f"{q.id}-{n}"}) for n in range(700) for q in carried]
    quiz = every["en"].model_copy(update={"questions": many})
    start = time.perf_counter()
    text = _render(QuizTranslations("every-type", {"en": quiz}, ["en"]), "en")
    assert time.perf_counter() - start < 2.0  # about 0.1 s; 20,000 questions a few times that
    assert text.count("\n// [id:") == len(many)


# What the real Moodle 4.5 stored of this hand-written file (moodle-import --strict), which the
# port must read alike: escapes in the name and text, `\n` a newline, a feedback with TeX, a
# distractor without text, true/false's feedback order, `{####…}` an essay, a lone `a->b`.
HAND_WRITTEN = r"""$CATEGORY: $course$/top/Try \\ it: {x} (en)

// [id:try/one] [tag:a-tag]
::one \: name::[html]<p>Q \{ \} \= \~ \# \: text\n\nline</p>{
    =[html]right#fb \\(\\frac\{1\}\{2\}\\)
    ~wrong
    ####[html]<p>general</p>
}

::match::[html]<p>Match</p>{
    =A -> a
    = -> c
}

::tf::[html]<p>TF</p>{FALSE##right fb####gf}

::ess::[html]<p>Essay</p>{####gf}

::num::[html]<p>n</p>{#-0.0001:5e-05####gf}

::sa::[html]<p>sa</p>{a->b}
"""


def test_the_grammar_reads_what_moodle_stored() -> None:
    cat, choice, match, tf, essay, num, short = read_gift(HAND_WRITTEN)
    assert cat["category"] == "$course$/top/Try \\ it: {x} (en)"
    assert (choice["name"], choice["idnumber"]) == ("one : name", "try/one")
    assert choice["tags"] == ["a-tag"]
    assert choice["questiontext"] == "<p>Q { } = ~ # : text\n\nline</p>"
    assert choice["generalfeedback"] == "<p>general</p>" and choice["single"]
    assert choice["answers"] == [
        {"text": "right", "fraction": 1.0, "feedback": "fb \\(\\frac{1}{2}\\)"},
        {"text": "wrong", "fraction": 0.0, "feedback": ""},
    ]
    assert match["subquestions"] == [("A", "a"), ("", "c")]
    assert (tf["correctanswer"], tf["feedbacktrue"], tf["feedbackfalse"]) == (False, "", "right fb")
    assert essay["qtype"] == "essay" and essay["generalfeedback"] == "gf"
    assert num["answers"] == [{"text": -0.0001, "tolerance": 5e-05, "fraction": 1.0}]
    assert short["qtype"] == "shortanswer" and short["answers"][0]["text"] == "a->b"


ESCAPE_CASES = ["\\", "\\n", "\\\\:", "a\\", "~=#{}:\n\n", "\\{\\}", "&", "&&", "&:", "&\\", "::",
                "####", "&&0", "\\&&"]  # fmt: skip


# Moodle's escapes (qformat_gift::repchar) as one pass over the text, character by character:
# what `_escaped`, a `replace` per character, must give.
_ONE_PASS = {"\\": "\\\\", "~": "\\~", "=": "\\=", "#": "\\#", "{": "\\{", "}": "\\}", ":": "\\:"}
_ONE_PASS |= {"\n": "\\n", "\r": ""}


def _escaped_one_pass(text: str) -> str:
    return "".join(_ONE_PASS.get(char, char) for char in text)


def test_escaping_is_one_pass_over_every_short_text() -> None:
    alphabet = [*_ONE_PASS, "n", "a", "&", "\u0645"]
    for size in range(4):
        for chars in product(alphabet, repeat=size):
            text = "".join(chars)
            assert _escaped(text) == _escaped_one_pass(text), repr(text)


@given(st.text(alphabet=st.sampled_from([*_ONE_PASS, "n", "a", "<", "\u0645"]) | st.characters()))
def test_escaping_is_one_pass_over_any_text(text: str) -> None:
    assert _escaped(text) == _escaped_one_pass(text)


@pytest.mark.parametrize("text", ESCAPE_CASES)
def test_every_escape_reads_back_as_written(text: str) -> None:
    written = _escaped_plain(text)
    assert "\n" not in written and "{" not in written.replace("\\{", "")
    assert escapedchar_post(escapedchar_pre(written)).replace(WJ, "") == text
