"""The GIFT reader (quizbank/importer/gift.py and gift_grammar.py): Moodle's grammar made a
SourceBank. Every type and branch, line numbers, categories, comments, escapes and formats, each
loss and skip, malformed files at their line and column, hostile input, and quizbank's own GIFT
read back."""

from __future__ import annotations

import re
import time
from operator import attrgetter
from pathlib import Path
from typing import Any

import pytest
import quizbank_renderers.moodle_text as moodle
from asked import asked
from conftest import REPO
from hypothesis import given, settings
from hypothesis import strategies as st
from quizbank_renderers.gift import accepted_answers, html_text
from quizbank_renderers.moodle_types import plain_line as line_of

from quizbank.build import BuildRequest, build
from quizbank.grading import option_grades
from quizbank.importer import gift, gift_grammar
from quizbank.importer.command import read_bank
from quizbank.importer.gift import category_path, read_gift
from quizbank.importer.gift_grammar import parse_gift
from quizbank.importer.source import (
    MalformedFile,
    Skipped,
    SourceBank,
    SourceQuestion,
    SourceText,
)
from quizbank.loader import load_quiz
from quizbank.markup import to_plain
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

WJ = "\u2060"
GIFT_TYPES = {
    "single_choice",
    "multiple_choice",
    "true_false",
    "numerical",
    "short_answer",
    "matching",
    "essay",
}


def read(text: str, name: str = "bank.gift") -> SourceBank:
    return read_gift(Path(name), text)


def only(text: str) -> SourceQuestion:
    """The one question of a file."""
    [category] = read(text).categories
    [question] = category.questions
    return question


def fields(text: str) -> dict[str, Any]:
    """The one question's fields, without the losses check."""
    return only(text).fields


def malformed(text: str) -> tuple[int, int, str]:
    """Where the reader finds the file malformed, and why."""
    with pytest.raises(MalformedFile) as caught:
        read(text)
    error = caught.value
    assert str(error).startswith(f"bank.gift:{error.line}:{error.column}: ")
    return error.line, error.column, str(error).split(": ", 1)[1]


def moodle_text(value: str) -> SourceText:
    """A text in GIFT's default format."""
    return SourceText(value, "moodle")


def plain_line(value: str) -> SourceText:
    """A match or a distractor: plain text, one line."""
    return SourceText(value, plain=True, inline=True)


# ----------------------------------------------------------------------------------- each type


def test_single_choice() -> None:
    question = only("::Tomb::Who is buried in Grant's tomb? {~Grant#No. =no one#Right ~Jefferson}")
    assert question.name == "Tomb" and question.idnumber is None and question.losses == []
    assert question.fields == {
        "type": "single_choice",
        "prompt": moodle_text("Who is buried in Grant's tomb?"),
        "explanation": None,
        "points": 1.0,
        "_tags": [],
        "options": [
            {"id": "a", "text": moodle_text("Grant"), "feedback": moodle_text("No.")},
            {"id": "b", "text": moodle_text("no one"), "feedback": moodle_text("Right")},
            {"id": "c", "text": moodle_text("Jefferson"), "feedback": None},
        ],
        "answer": "b",
        "shuffle": True,
    }


def test_single_choice_with_grades_it_cannot_keep() -> None:
    partly = only("Q {=right ~%50%half ~wrong}")
    assert partly.fields["answer"] == "a"
    assert partly.losses == ["its grades (100%, 50%, 0%): one option is right, the rest score 0"]
    penalty = only("Q {~%-50%minus =right}")
    assert penalty.fields["answer"] == "b"
    assert penalty.losses == ["its grades (-50%, 100%): one option is right, the rest score 0"]
    two = only("Q {=one =two ~three}")
    assert two.fields["answer"] == "a"
    assert two.losses == ["its grades (100%, 100%, 0%): one option is right, the rest score 0"]


def test_multiple_choice_with_quizbank_grades_loses_nothing() -> None:
    question = only("Q {~%50%a ~%50%b ~%-100%c}")
    assert question.fields["type"] == "multiple_choice"
    assert question.fields["answer"] == ["a", "b"]
    assert [o["text"].value for o in question.fields["options"]] == ["a", "b", "c"]
    assert question.losses == []
    assert only("Q {~%33.33333%a ~%33.33333%b ~%33.33333%c ~%-100%d}").losses == []


def test_multiple_choice_grades_that_differ_are_a_loss() -> None:
    question = only("Q {~%50%a ~%50%b ~%-100%c ~%-100%d}")
    assert question.fields["answer"] == ["a", "b"]
    grades = option_grades(
        MultipleChoice.model_validate(
            {
                "id": "q",
                "type": "multiple_choice",
                "prompt": "Q",
                "explanation": "E",
                "options": [{"id": key, "text": key} for key in "abcd"],
                "answer": ["a", "b"],
            }
        )
    )
    assert list(grades.values()) == [0.5, 0.5, -0.5, -0.5]
    assert question.losses == [
        "its grades (50%, 50%, -100%, -100%) become quizbank's (50%, 50%, -50%, -50%)"
    ]
    unequal = only("Q {~%70%a ~%30%b ~c}")
    assert unequal.losses == ["its grades (70%, 30%, 0%) become quizbank's (50%, 50%, -100%)"]
    # No option right: the model refuses it later (an empty answer), nothing to compare.
    none = only("Q {~a ~b}")
    assert none.fields["answer"] == [] and none.losses == []


def test_more_than_26_options_keeps_the_first_26() -> None:
    options = " ".join(f"~o{n}" for n in range(30))
    question = only(f"Q {{=right {options}}}")
    assert len(question.fields["options"]) == 26
    assert question.fields["options"][-1]["id"] == "z"
    assert question.losses == ["its 5 options after the 26th"]


@pytest.mark.parametrize(
    ("block", "answer", "feedback_true", "feedback_false"),
    [
        ("{T}", True, None, None),
        ("{TRUE}", True, None, None),
        ("{F}", False, None, None),
        ("{FALSE}", False, None, None),
        # The first feedback is the one for a wrong response, the second for a right one.
        ("{T#wrong#right}", True, "right", "wrong"),
        ("{TRUE#wrong}", True, None, "wrong"),
        ("{FALSE#wrong#right}", False, "wrong", "right"),
        ("{F##right}", False, None, "right"),
        ("{FALSE#wrong#right#more}", False, "wrong", "right#more"),
    ],
)
def test_true_false_and_its_feedback(
    block: str, answer: bool, feedback_true: str | None, feedback_false: str | None
) -> None:
    question = only(f"Grant is buried in Grant's tomb. {block}")
    assert question.losses == []
    assert question.fields["type"] == "true_false"
    assert question.fields["answer"] is answer
    for key, meant in (("feedback_true", feedback_true), ("feedback_false", feedback_false)):
        assert question.fields[key] == (None if meant is None else moodle_text(meant))


def test_true_false_words_are_exact() -> None:
    assert fields("Q {true}")["type"] == "short_answer"
    assert fields("Q {=TRUE}")["type"] == "short_answer"
    assert fields("Q {TRUE #right}")["type"] == "true_false"


def test_short_answer() -> None:
    question = only("Who's buried in Grant's tomb?{=no one =nobody =no*one}")
    assert question.losses == []
    assert question.fields | {"prompt": None} == {
        "type": "short_answer",
        "prompt": None,
        "explanation": None,
        "points": 1.0,
        "_tags": [],
        "answer": ["no one", "nobody", "no*one"],
        "case_sensitive": False,
    }
    assert fields("Q {lone}")["answer"] == ["lone"]
    assert fields("Q {=same =b =same}")["answer"] == ["same", "b"]
    assert fields("Q {a->b}")["answer"] == ["a->b"]  # no `=`: not a matching question


def test_short_answer_losses() -> None:
    partly = only("Q {=right =%50%half}")
    assert partly.fields["answer"] == ["right"]
    assert partly.losses == ["its partly right answers score nothing: 'half' (50%)"]
    best = only("Q {=%50%half =%25%quarter}")
    assert best.fields["answer"] == ["half"]
    assert best.losses == [
        "no answer is fully right; the best (50%) are kept",
        "its partly right answers score nothing: 'quarter' (25%)",
    ]
    wrong = only("Q {=right =%0%wrong#Not that. =%-50%worse}")
    assert wrong.fields["answer"] == ["right"]
    assert wrong.losses == [
        "its wrong answers are left out: 'wrong' (0%), 'worse' (-50%)",
        "the feedback of its answers (quizbank has none for typed answers)",
    ]


@pytest.mark.parametrize(
    ("block", "answer", "tolerance"),
    [
        ("{#1822}", 1822.0, 0.0),
        ("{#1822:5}", 1822.0, 5.0),
        ("{# 3.1415 : 0.0005 }", 3.1415, 0.0005),
        ("{#1..5}", 3.0, 2.0),
        ("{#-2..-1}", -1.5, 0.5),
        ("{#-1e-3:5e-4}", -0.001, 0.0005),
        ("{#.5}", 0.5, 0.0),
        ("{#+2.:1}", 2.0, 1.0),
        ("{#5:-1}", 5.0, 1.0),  # a negative tolerance is its size
        ("{#=1822:0}", 1822.0, 0.0),
    ],
)
def test_numerical(block: str, answer: float, tolerance: float) -> None:
    question = only(f"When? {block}")
    assert question.losses == []
    assert question.fields["type"] == "numerical"
    assert question.fields["answer"] == pytest.approx(answer)
    assert question.fields["tolerance"] == pytest.approx(tolerance)
    assert isinstance(question.fields["answer"], float)


def test_numerical_losses() -> None:
    partial = only("When was Grant born? {#=1822:0 =%50%1822:2}")
    assert (partial.fields["answer"], partial.fields["tolerance"]) == (1822.0, 0.0)
    assert partial.losses == [
        "several numerical answers with partial credit (1822:0 (100%), 1822:2 (50%)): "
        "quizbank keeps 1822 ± 0"
    ]
    first_full = only("Q {#=%50%1..3 =2}")
    assert first_full.fields["answer"] == 2.0
    assert first_full.losses[0].startswith("several numerical answers with partial credit (")
    more = only("Q {#=1 =2 =3}")
    assert more.fields["answer"] == 1.0
    assert more.losses == [
        "its 2 further answers (quizbank keeps one answer and its tolerance, 1 ± 0)"
    ]
    half = only("Q {#%50%3:1}")
    assert half.fields["answer"] == 3.0
    assert half.losses == ["its answer is worth 50%: quizbank's 100%"]
    feedback = only("Q {#3#Right. ~#Wrong.}")
    assert feedback.fields["answer"] == 3.0
    assert feedback.losses == ["the feedback of its answers (quizbank has none for numbers)"]
    assert only("Q {#3 ~#Wrong.}").losses == [
        "the feedback of its answers (quizbank has none for numbers)"
    ]
    assert only("Q {#3 ~}").losses == []  # feedback for other answers, but none written


def test_matching_pairs_then_distractors() -> None:
    question = only(
        "Match the countries with their capitals. {\n"
        "  = -> Paris\n"
        "  =Canada -> Ottawa\n"
        "  =[html]<b>Italy</b> -> Rome\n"
        "  = -> Lisbon\n"
        "}"
    )
    assert question.losses == []
    assert question.fields | {"prompt": None} == {
        "type": "matching",
        "prompt": None,
        "explanation": None,
        "points": 1.0,
        "_tags": [],
        "pairs": [
            {"id": "a", "item": moodle_text("Canada"), "match": plain_line("Ottawa")},
            {"id": "b", "item": SourceText("<b>Italy</b>", "html"), "match": plain_line("Rome")},
        ],
        "distractors": [
            {"id": "c", "text": plain_line("Paris")},
            {"id": "d", "text": plain_line("Lisbon")},
        ],
        "shuffle": True,
    }  # fmt: skip


def test_matching_keeps_what_follows_the_arrow_as_text() -> None:
    question = only("Q {=a -> b -> c =d->e#not feedback}")
    pairs = question.fields["pairs"]
    assert [p["match"].value for p in pairs] == ["b -> c", "e#not feedback"]


def test_matching_of_more_than_26() -> None:
    pairs = " ".join(f"=i{n} -> m{n}" for n in range(28))
    question = only(f"Q {{{pairs} = -> d1 = -> d2}}")
    assert [p["id"] for p in question.fields["pairs"]][-2:] == ["y", "z"]
    assert [d["id"] for d in question.fields["distractors"]] == ["aa", "ab"]
    assert question.losses == ["its 2 pairs after the 26th"]


def test_essay() -> None:
    for block in ("{}", "{ }", "{\n}", "{####Any answer naming two states.}"):
        question = only(f"::e::Write about it. {block}")
        assert question.losses == []
        assert question.fields["type"] == "essay"
        assert question.fields["grader_info"] is None
        assert question.fields["min_words"] is None and question.fields["max_words"] is None
    assert only("Q {####Any.}").fields["explanation"] == moodle_text("Any.")


def test_a_description_is_skipped() -> None:
    bank = read("::Intro::This is only text.\n\n::q::A question {T}\n")
    assert bank.skipped == [
        Skipped(1, "Intro", "a description is not a question: quizbank has no type for it")
    ]
    [category] = bank.categories
    assert [q.name for q in category.questions] == ["q"]


def test_missing_word_is_a_blank_in_the_prompt() -> None:
    question = only("Moodle costs {~lots of money =nothing ~a small amount} to download.")
    assert question.fields["prompt"] == moodle_text("Moodle costs _____ to download.")
    assert question.fields["type"] == "single_choice" and question.fields["answer"] == "b"
    assert question.name == "Moodle costs _____ to download."
    blank_first = only("{=Grant ~Lincoln} is buried in Grant's tomb.")
    assert blank_first.fields["prompt"].value == "_____ is buried in Grant's tomb."
    assert only("Q {}\n").fields["prompt"].value == "Q"


def test_general_feedback_is_the_explanation() -> None:
    question = only("Q {=a ~b#fb ####[html]<p>Because.</p>}")
    assert question.fields["explanation"] == SourceText("<p>Because.</p>", "html")
    assert question.fields["options"][1]["feedback"] == moodle_text("fb")
    # The last `####` separates it; a feedback may hold `#`.
    assert fields("Q {=a ####one #### two}")["explanation"] == moodle_text("two")
    assert fields("Q {=a ####  }")["explanation"] is None


# What the real Moodle 4.5.6 stored of this hand-written file (../shared/moodle/moodle-import): the
# grammar reads it alike. An id holding `[`, an escaped `]` in a tag, a missing word, a `::` not
# closed, placeholders written as such, a line `0` as a blank line, a range, several numerical
# answers and feedback for others, a `#` in a match, formats, a description, the escapes,
# comment lines inside a question, a `//` in a category's name.
MOODLE_READ = r"""// [id:a[b] [tag:x] [tag:y\]z]
::Named \: one::Missing {=a ~b} word.

::Unclosed name Q {=x =%50%y}

Q with placeholders &&058; &&035; &&010 here {T#wrong#right}

0

::range::Q {#1..5}

::multi::Q {#=3:0.5 =%50%4:1 ~#other}

::mt::Q {=a -> b#c =d -> e = -> f}

::fmt::[markdown]**Q** {=[html]<b>a</b>#[plain]fb ~b ####[html]<p>gf</p>}

::desc::Just a description.

::w::Q {~%50%a ~%50%b ~%-100%c ~%-100%d}

::tf::Q {FALSE##only right}

::sa::Q {a->b}

$CATEGORY: $course$/top/In//out/Deeper

::esc::Q \\ \{x\} \n next {=a\=b =c\~d}

// before
   ::indented::Q
// between
	{=one
	=two}

::gfmt::Q {=a ~b ####[markdown]*gf*}

::num::Q {#-1e-3:5e-4}

::thirds::Q {~%33.33333%a ~%33.33333%b ~%33.33333%c ~%-100%d}"""
MOODLE_STORED: list[dict[str, Any]] = [
    {"qtype": "multichoice", "name": "Named : one", "idnumber": "a[b", "tags": ["x", "y]z"],
     "text": ("Missing _____ word.", "moodle"), "answers": [("a", 1.0, ""), ("b", 0.0, "")]},
    {"qtype": "shortanswer", "name": "Unclosed name Q", "text": ("Unclosed name Q", "moodle"),
     "answers": [("x", 1.0, ""), ("y", 0.5, "")]},
    {"qtype": "truefalse", "name": "Q with placeholders : # \n here",
     "text": ("Q with placeholders : # \n here", "moodle"), "correct": True,
     "feedback": ("right", "wrong")},
    {"qtype": "numerical", "name": "range", "answers": [("3", 1.0, "")]},
    {"qtype": "numerical", "name": "multi",
     "answers": [("3", 1.0, ""), ("4", 0.5, ""), ("*", 0.0, "other")]},
    {"qtype": "match", "name": "mt", "subquestions": [("a", "b#c"), ("d", "e"), ("", "f")]},
    {"qtype": "multichoice", "name": "fmt", "text": ("**Q**", "markdown"),
     "general_feedback": ("<p>gf</p>", "html"), "answers": [("<b>a</b>", 1.0, "fb"), ("b", 0.0, "")]},
    {"qtype": "description", "name": "desc", "text": ("Just a description.", "moodle")},
    {"qtype": "multichoice", "name": "w",
     "answers": [("a", 0.5, ""), ("b", 0.5, ""), ("c", -1.0, ""), ("d", -1.0, "")]},
    {"qtype": "truefalse", "name": "tf", "correct": False, "feedback": ("", "only right")},
    {"qtype": "shortanswer", "name": "sa", "answers": [("a->b", 1.0, "")]},
    {"qtype": "shortanswer", "name": "esc", "text": ("Q \\ {x} \n next", "moodle"),
     "answers": [("a=b", 1.0, ""), ("c~d", 1.0, "")]},
    {"qtype": "shortanswer", "name": "indented", "answers": [("one", 1.0, ""), ("two", 1.0, "")]},
    {"qtype": "multichoice", "name": "gfmt", "general_feedback": ("*gf*", "markdown"),
     "answers": [("a", 1.0, ""), ("b", 0.0, "")]},
    {"qtype": "numerical", "name": "num", "answers": [("-0.001", 1.0, "")]},
    {"qtype": "multichoice", "name": "thirds",
     "answers": [("a", 0.3333333, ""), ("b", 0.3333333, ""), ("c", 0.3333333, ""), ("d", -1.0, "")]},
]  # fmt: skip


def _as_moodle_stores(record: gift_grammar.GiftQuestion) -> dict[str, Any]:
    """A record in the shape above (numbers as Moodle writes them, `~` feedback its `*` answer)."""
    stored: dict[str, Any] = {
        "qtype": record.qtype,
        # Compared with spaces collapsed: Moodle's default name keeps a newline, the reader's not.
        "name": " ".join(record.name.split()),
        "idnumber": record.idnumber,
        "tags": record.tags,
        "text": (record.text.text, record.text.format),
        "general_feedback": (record.general_feedback.text, record.general_feedback.format),
    }
    if record.qtype == "numerical":
        stored["answers"] = [(f"{a.number:g}", a.fraction, a.feedback.text) for a in record.answers]
        if record.other_feedback is not None:
            stored["answers"].append(("*", 0.0, record.other_feedback.text))
    elif record.qtype in ("multichoice", "shortanswer"):
        stored["answers"] = [
            (a.text.text, round(a.fraction, 7), a.feedback.text) for a in record.answers
        ]
    elif record.qtype == "truefalse":
        stored["correct"] = record.correct
        stored["feedback"] = (record.feedback_true.text, record.feedback_false.text)
    elif record.qtype == "match":
        stored["subquestions"] = [(item.text, match) for item, match in record.subquestions]
    return stored


def test_the_grammar_reads_what_moodle_stored() -> None:
    records = list(parse_gift(Path("moodle.gift"), MOODLE_READ))
    categories = [r for r in records if isinstance(r, gift_grammar.GiftCategory)]
    assert categories == [gift_grammar.GiftCategory(26, "$course$/top/In//out/Deeper")]
    assert category_path(categories[0].path) == ["In/out", "Deeper"]  # Moodle: top/In/out/Deeper
    questions = [_as_moodle_stores(r) for r in records if isinstance(r, gift_grammar.GiftQuestion)]
    assert len(questions) == len(MOODLE_STORED)
    defaults = {
        "idnumber": "",
        "tags": [],
        "text": ("Q", "moodle"),
        "general_feedback": ("", "moodle"),
    }
    for read_back, stored in zip(questions, MOODLE_STORED, strict=True):
        meant = defaults | stored
        meant["name"] = " ".join(meant["name"].split())
        assert read_back == meant
    [category] = read(MOODLE_READ).categories[1:]
    assert category.path == ["In/out", "Deeper"] and len(category.questions) == 5
    [range_question] = [q for q in read(MOODLE_READ).categories[0].questions if q.name == "range"]
    assert (range_question.fields["answer"], range_question.fields["tolerance"]) == (3.0, 2.0)


# ------------------------------------------------------------------------ formats and escapes


def test_formats() -> None:
    question = only("[html]<p>Q</p>{=[plain]<b>a</b>#[markdown]*fb* ~b#c ####gf}")
    assert question.fields["prompt"] == SourceText("<p>Q</p>", "html")
    # A sub-text without a format has the question text's.
    assert question.fields["explanation"] == SourceText("gf", "html")
    [right, wrong] = question.fields["options"]
    assert right["text"] == SourceText("<b>a</b>", "plain")
    assert right["feedback"] == SourceText("*fb*", "markdown")
    assert wrong["text"] == SourceText("b", "html") and wrong["feedback"] == SourceText("c", "html")
    assert fields("[markdown]**Q** {}")["prompt"] == SourceText("**Q**", "markdown")
    assert fields("[moodle]Q {}")["prompt"] == moodle_text("Q")
    assert fields("Q {####[plain]gf}")["explanation"] == SourceText("gf", "plain")
    # Only the four names are formats; the rest is text.
    assert fields("[latex]Q {}")["prompt"] == moodle_text("[latex]Q")
    assert fields("[html Q {}")["prompt"] == moodle_text("[html Q")


def test_escapes_are_the_characters() -> None:
    question = only(
        r"::a\: b \{c\}::Q \: \# \= \{ \} \~ \\ line\nnext {=x\=y\~z#\#1 ~\{w\} ####\: done}"
    )
    assert question.name == "a: b {c}"
    assert question.fields["prompt"] == moodle_text("Q : # = { } ~ \\ line\nnext")
    [right, wrong] = question.fields["options"]
    assert right["text"].value == "x=y~z" and right["feedback"].value == "#1"
    assert wrong["text"].value == "{w}"
    assert question.fields["explanation"].value == ": done"
    # Moodle stands for an escape by a placeholder and reads any placeholder as one.
    assert fields("Q &&058; &&035;&&010x {}")["prompt"].value == "Q : #\nx"
    assert fields(r"Q \\n \\{}")["prompt"].value == "Q \\n \\"
    assert fields(r"Q {=a\\}")["answer"] == ["a\\"]


def test_escaped_syntax_is_not_syntax() -> None:
    assert fields(r"Q \{=a\} {T}")["prompt"].value == "Q {=a}"
    assert fields(r"Q {=a\~b}")["type"] == "short_answer"
    assert fields(r"Q {=a\~b}")["answer"] == ["a~b"]
    assert fields(r"Q {\#5}")["type"] == "short_answer"
    # `->` has no escape: beside `=` answers it makes a matching question.
    assert fields("Q {=a->b =c->d}")["type"] == "matching"


# ------------------------------------------------------------------------ names, ids and tags


def test_id_and_tags_comments() -> None:
    question = only(
        "// [id:quiz/q-1] a comment [tag:checkpoints] [tag: two words ] [tag:a\\]b]\n"
        "// [id:second] [tag:more]\n"
        "::q::Q {T}"
    )
    assert question.idnumber == "quiz/q-1"
    assert question.fields["_tags"] == ["checkpoints", "two words", "a]b", "more"]
    assert only("// [id:a\\]b]\nQ {T}").idnumber == "a]b"
    assert only("// [tag:]\nQ {T}").fields["_tags"] == []
    assert only("// no id here\nQ {T}").idnumber is None
    # Tags stop at what Moodle's expression refuses: `<`, `>`, a backquote, a control character.
    assert only("// [tag:a<b] [tag:`x] [tag:ok]\nQ {T}").fields["_tags"] == ["ok"]


def test_tags_as_moodles_expression_finds_them() -> None:
    found = gift_grammar.extract_idnumber_and_tags_from_comment
    assert found("[tag:a [tag:b]")[1] == ["a [tag:b"]
    # Back to the last escaped `]` when the run ends otherwise, its `\` kept.
    assert found("[tag:a\\]b\\] c<]")[1] == ["a]b\\"]
    assert found("[tag:a\\]b\\]<] [tag:c]")[1] == ["a]b\\", "c"]
    assert found("[tag:a<b]")[1] == []
    assert found("[tag:x] [tag:y]\n[tag:z]")[1] == ["x", "y", "z"]
    assert found("[tag:multi\nline]")[1] == []
    assert found("[id:]")[0] == "" and found("[id: x ]")[0] == "x"
    assert found("[id:a[b] [id:c]")[0] == "a[b"
    assert found("[id:] [id:\\]]")[0] == "]"


# Moodle's expressions, in Python: `[^][:cntrl:]]` is neither `]` nor a control character.
_MOODLE_ID = re.compile(r"\[id:((?:\\]|[^\]\x00-\x1f\x7f])+)]")
_MOODLE_TAG = re.compile(r"\[tag:((?:\\]|[^\]<>`\x00-\x1f\x7f]|)+)]")


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(["[tag:", "[id:", "]", "\\", "\\]", "a", " ", "<", "\n", "["])))
def test_id_and_tags_are_those_moodles_expressions_find(parts: list[str]) -> None:
    comment = "".join(parts)
    found = _MOODLE_ID.search(comment)
    moodle_id = found[1].strip().replace("\\]", "]") if found else ""
    moodle_tags = [tag.strip().replace("\\]", "]") for tag in _MOODLE_TAG.findall(comment)]
    assert gift_grammar.extract_idnumber_and_tags_from_comment(comment) == (moodle_id, moodle_tags)


def test_comment_lines_anywhere_in_a_block_are_not_text() -> None:
    question = only("// before\n::n::Q\n// between\n{=a\n// among the answers\n=b}")
    assert question.fields["prompt"].value == "Q"
    assert question.fields["answer"] == ["a", "b"]


def test_names() -> None:
    assert only("::Named::Q {}").name == "Named"
    assert only(":: spaced ::Q {}").name == "spaced"
    assert only("Q <b>bold</b> &amp; more {}").name == "Q bold & more"
    long = "word " * 40
    name = only(f"{long}{{}}").name
    assert len(name) <= 83 and name.endswith("...")
    assert only(f"::{'n' * 300}::Q {{}}").name == "n" * 255 + "..."
    # A `::` that is not closed is dropped, and the text names the question.
    assert only("::Q without a name end {}").name == "Q without a name end"
    assert only("::::Q {}").name == "Q"
    assert only("{}").name == "(no name)"


# -------------------------------------------------------------------------------- line numbers


def test_a_question_is_at_its_first_line_that_is_not_a_comment() -> None:
    text = (
        "// [id:first]\n"  # 1
        "::one::Q1 {T}\n"  # 2
        "   \t\n"  # 3: blank once trimmed
        "\n"  # 4
        "// comment\n"  # 5
        "// [id:second]\n"  # 6
        "  ::two::Q2\n"  # 7
        "{F}\n"  # 8
        "\n"  # 9
        "Q3 {}\n"  # 10
        "0\n"  # 11: PHP's empty("0"): a blank line too
        "Q4 {}"  # 12
    )
    [category] = read(text).categories
    assert [(q.line, q.name) for q in category.questions] == [
        (2, "one"),
        (7, "two"),
        (10, "Q3"),
        (12, "Q4"),
    ]


def test_line_ends_of_every_system() -> None:
    for text in ("Q1 {T}\r\n\r\nQ2 {F}\r\n", "Q1 {T}\r\rQ2 {F}\r", "\ufeffQ1 {T}\n\nQ2 {F}"):
        [category] = read(text).categories
        assert [(q.line, q.name) for q in category.questions] == [(1, "Q1"), (3, "Q2")]


def test_a_file_of_comments_has_no_question() -> None:
    bank = read("// one\n\n// two\n")
    assert bank.categories == [] and bank.skipped == []


# ---------------------------------------------------------------------------------- categories


def test_categories() -> None:
    bank = read(
        "Before any {T}\n\n"  # 1
        "$CATEGORY: $course$/top/Checkpointing/Sharding (en)\n\n"  # 3
        "::a::A {T}\n\n"  # 5
        "$CATEGORY: $system$/top/Other\n\n"  # 7
        "::b::B {T}\n\n"  # 9
        "// a comment first\n$CATEGORY: $course$/top/Checkpointing/Sharding (en)\n\n"  # 11, 12
        "::c::C {T}\n",  # 14
        name="my-bank.gift",
    )
    assert [(c.line, c.path, [q.name for q in c.questions]) for c in bank.categories] == [
        (1, ["my-bank"], ["Before any"]),
        (3, ["Checkpointing", "Sharding (en)"], ["a", "c"]),  # one category per path
        (7, ["Other"], ["b"]),
    ]


@pytest.mark.parametrize(
    ("written", "path"),
    [
        ("$course$/top/A/B", ["A", "B"]),
        ("$system$/top/A", ["A"]),
        ("$module$/top/A", ["A"]),
        ("$coursecategory$/top/A", ["A"]),
        ("top/A/B", ["A", "B"]),
        ("A/B", ["A", "B"]),
        ("$course$/A", ["A"]),
        ("$course$/top/Input//output/x", ["Input/output", "x"]),
        ("$course$/top/ A / B ", ["A", "B"]),
        ("$course$/top/a////b", ["a//b"]),
        ("$course$/top/a///b", ["a//b"]),  # Moodle's split: a `/` beside another is no separator
        ("$course$/top", []),
        ("$course$/top/top", ["top"]),
    ],
)
def test_category_paths(written: str, path: list[str]) -> None:
    assert category_path(written) == path


def test_a_category_of_no_names_is_the_files() -> None:
    [category] = read("$CATEGORY: $course$/top\n\nQ {T}", name="x/bank-a.txt").categories
    assert category.path == ["bank-a"]


def test_the_category_line_keeps_its_characters_as_moodle_does() -> None:
    [record] = parse_gift(Path("b.gift"), "$CATEGORY: $course$/top/A \\\\ b: {x} \\: c")
    assert record == gift_grammar.GiftCategory(1, "$course$/top/A \\ b: {x} &&058; c")


# ----------------------------------------------------------------------------- malformed files


@pytest.mark.parametrize(
    ("text", "line", "column", "message"),
    [
        ("Q {=a ~b", 1, 3, "this answer block is not closed: end it with }"),
        ("::n::Q\n  {=a\n  ~b\n\nNext {T}", 2, 3, "this answer block is not closed"),
        ("Q =a ~b}", 1, 8, "a } with no { before it"),
        ("Q } then {T}", 1, 3, "a } with no { before it"),
        ("Q {=a {~b}}", 1, 7, "a { inside an answer block"),
        ("Q " + "{" * 50 + "}" * 50, 1, 4, "a { inside an answer block"),
        ("Q {T} and {F}", 1, 11, "a brace after the answer block"),
        ("Q {T} tail }", 1, 12, "a brace after the answer block"),
        ("$CATEGORY: A\n::q::Q {T}", 2, 1, "a question right after a $CATEGORY line"),
        ("Q {~only}", 1, 3, "this answer block needs at least two choices"),
        ("Q {=a -> b}", 1, 3, "this answer block needs at least two pairs"),
        ("Q {0}", 1, 3, "this answer block needs at least an answer"),
        ("Q {=a ~b ~}", 1, 10, "an empty answer"),
        ("Q {=a ~~b}", 1, 7, "an empty answer"),
        ("Q {= ~b}", 1, 4, "an empty answer"),
        ("Q {=a =}", 1, 7, "an empty answer"),
        ("Q {=%50% =b}", 1, 5, "an answer with no text (only a weight or a #feedback): write its text"),
        ("Q {=a ~#fb}", 1, 8, "an answer with no text"),
        ("Q {=a ~%50%}", 1, 8, "an answer with no text"),
        ("Q {=a -> b =c -> d =e}", 1, 21, "a matching answer is =item -> match: this one has no ->"),
        ("Q {#}", 1, 3, "this answer block needs at least a number after its #"),
        ("Q {#abc}", 1, 5, "'abc' is not a number"),
        ("Q {#1,5}", 1, 5, "'1,5' is not a number"),
        ("Q {#3:x}", 1, 5, "'x' is not a number"),
        ("Q {#3:}", 1, 5, "a number is missing here"),
        ("Q {#a..5}", 1, 5, "'a' is not a number"),
        ("Q {#=1 =%50%nan}", 1, 9, "'nan' is not a number"),
        ("Q {#inf}", 1, 5, "'inf' is not a number"),
        ("Q {#1e999}", 1, 5, "'1e999' is too large a number"),
        ("Q {~%--50%a =b}", 1, 5, "the weight %--50% is not a number, such as %50%"),
    ],
)  # fmt: skip
def test_malformed_files_at_their_line_and_column(
    text: str, line: int, column: int, message: str
) -> None:
    assert malformed(text)[:2] == (line, column)
    assert message in malformed(text)[2]


def test_columns_count_the_file_as_written() -> None:
    # Indentation, escapes (two characters each) and Urdu letters before the problem.
    assert malformed("\t  Q \\{ \\\\ {~only}")[:2] == (1, 12)
    assert malformed("سوال \\: {~صرف}")[:2] == (1, 9)
    assert malformed("// [id:x]\n\n// c\n  ::n::Q {\n\t=a\n\t~\n}")[:2] == (6, 2)
    assert malformed("Q {=a\r\n ~~b}\r\n")[:2] == (2, 2)
    assert malformed("Q1 {T}\r\rQ2 {#x}")[:2] == (3, 6)


_TOKENS = [
    "\\{",
    "\\}",
    "\\\\",
    "\\:",
    "\\n",
    "\\~",
    "&&058;",
    "&&092;",
    "&&",
    "a",
    " ",
    "\t",
    "ب",
    "::",
]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_TOKENS)), st.lists(st.sampled_from(_TOKENS)))
def test_a_column_is_where_the_problem_is_whatever_precedes_it(
    before: list[str], among: list[str]
) -> None:
    """Escapes and placeholders change the text's length as Moodle reads it: the column counts
    the characters as written."""
    prompt = "Q " + "".join(before) + "a "
    answer = "".join(among) + "a"
    line, column, _ = malformed(f"{prompt}{{={answer} ~}}")
    assert (line, column) == (1, len(prompt) + 1 + 1 + len(answer) + 2)
    line, column, _ = malformed(f"x\n\n  {prompt}{{~{answer}}}")
    assert (line, column) == (3, 2 + len(prompt) + 1)


def test_a_malformed_file_names_the_file() -> None:
    with pytest.raises(MalformedFile) as caught:
        read_gift(Path("some/where.gift"), "Q {")
    assert str(caught.value) == (
        "some/where.gift:1:3: this answer block is not closed: end it with } "
        "(a { in a text is written \\{)"
    )
    assert (caught.value.path, caught.value.line, caught.value.column) == ("some/where.gift", 1, 3)


def test_read_bank_reads_gift_files(tmp_path: Path) -> None:
    for name in ("bank.gift", "bank.txt"):
        (tmp_path / name).write_text("\ufeff::q::Q {T}\n", "utf-8")
        [category] = read_bank(tmp_path / name).categories
        assert category.path == ["bank"] and category.questions[0].name == "q"
    (tmp_path / "broken.gift").write_text("x\n\nQ {=a ~", "utf-8")
    with pytest.raises(MalformedFile, match=r"broken\.gift:3:3: this answer block is not closed"):
        read_bank(tmp_path / "broken.gift")


# ------------------------------------------------------------------------------- hostile input


def _quick(text: str, seconds: float = 3.0) -> SourceBank | MalformedFile:
    start = time.perf_counter()
    try:
        result: SourceBank | MalformedFile = read(text)
    except MalformedFile as exc:
        result = exc
    assert time.perf_counter() - start < seconds
    return result


def test_a_line_of_ten_million_characters() -> None:
    bank = _quick("::q::" + "a" * 10_000_000 + " {=a ~b}")
    assert isinstance(bank, SourceBank)
    question = bank.categories[0].questions[0]
    assert len(question.fields["prompt"].value) == 10_000_000
    named = _quick("a" * 10_000_000 + " {}")
    assert isinstance(named, SourceBank)
    assert named.categories[0].questions[0].name == "a" * 80 + "..."


def test_deeply_nested_braces() -> None:
    error = _quick("Q " + "{" * 5_000_000 + "}" * 5_000_000)
    assert isinstance(error, MalformedFile) and (error.line, error.column) == (1, 4)
    escaped = _quick("Q " + "\\{" * 2_000_000 + " {}")
    assert isinstance(escaped, SourceBank)
    assert escaped.categories[0].questions[0].fields["prompt"].value == "Q " + "{" * 2_000_000


def test_comments_that_would_make_moodles_expressions_backtrack() -> None:
    for comment in ("[tag:" * 2_000_000, "[tag:a\\]" * 1_000_000, "[id:" * 2_000_000):
        bank = _quick(f"// {comment}\nQ {{}}")
        assert isinstance(bank, SourceBank)
    tagged = _quick("// " + "[tag:a]" * 1_000_000 + "\nQ {}")
    assert isinstance(tagged, SourceBank)
    assert len(tagged.categories[0].questions[0].fields["_tags"]) == 1_000_000


def test_answer_blocks_of_millions_of_answers() -> None:
    many = _quick("Q {=a" + "~b" * 5_000_000 + "}")
    assert isinstance(many, MalformedFile)
    assert "more than 1000 answers in one answer block: is a } missing?" in str(many)
    assert (many.line, many.column) == (1, 4 + 2 + 2 * 999 + 1)
    empty = _quick("Q {=a" + "~" * 10_000_000 + "}")
    assert isinstance(empty, MalformedFile) and "an empty answer" in str(empty)
    pairs = _quick("Q {" + "=a->b" * 2_000_000 + "}")
    assert isinstance(pairs, MalformedFile) and "more than 1000 answers" in str(pairs)


def test_other_long_runs() -> None:
    for text in (
        "Q {~%" + "-" * 5_000_000 + "1%a =b}",  # the weight's expression
        "Q {#" + "1" * 5_000_000 + "}",
        "Q {#" + "." * 5_000_000 + "}",
        "Q {" + "#" * 5_000_000 + "}",
        "::" * 5_000_000,
        "<" * 5_000_000 + "{}",
        "a\n" * 2_000_000,  # one block of two million lines
        "$CATEGORY: " + "/" * 5_000_000,
    ):
        _quick(text, seconds=6.0)


def test_a_big_file_reads_in_linear_time() -> None:
    question = "// [id:x] [tag:t]\n::q::[html]<p>" + "text " * 100 + "</p>{=a ~b ~c ####gf}\n\n"
    small, big = question * 2_000, question * 20_000  # 1 MB and 11 MB
    start = time.perf_counter()
    read(small)
    one = time.perf_counter() - start
    start = time.perf_counter()
    [category] = read(big).categories
    ten = time.perf_counter() - start
    assert len(category.questions) == 20_000
    assert ten < 20 * one + 1.0


def test_a_fifty_megabyte_file_of_few_questions() -> None:
    text = ("::q::" + "long text " * 100_000 + "{=a ~b}\n\n") * 50
    assert len(text) > 50_000_000
    bank = _quick(text, seconds=10.0)
    assert isinstance(bank, SourceBank) and len(bank.categories[0].questions) == 50


def test_too_many_questions_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(gift, "MAX_RECORDS", 100)
    assert len(read("Q {T}\n\n" * 100).categories[0].questions) == 100
    line, column, message = malformed("Q {T}\n\n" * 101)
    assert (line, column) == (201, 1)
    assert message == "more than 100 questions and categories in one file: split it"


# ---------------------------------------------------------------------- quizbank's own GIFT back


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("gift")
    sources = [REPO / "content", REPO / "tests" / "fixtures" / "types"]
    request = BuildRequest(sources, out, ["gift"], use_cache=False, jobs=1)
    assert not build(request, discover_renderers()).report.has_errors
    return out / "gift"


def _quizzes() -> list[tuple[str, Quiz]]:
    """Each quiz, as its files say (the GIFT renderer writes variants and sections itself)."""
    found = []
    for folder in (REPO / "content", REPO / "tests" / "fixtures" / "types"):
        for path in sorted(folder.glob("*/*.yaml")):
            loaded = load_quiz(path)
            if loaded.quiz is not None:
                found.append((path.parent.name, loaded.quiz))
    return found


def _html(text: str | None, lang: str, *, inline: bool = False) -> SourceText | None:
    return SourceText(html_text(text, lang, inline=inline), "html") if text else None


def _letters(count: int) -> list[str]:
    return [chr(97 + n) for n in range(count)]


def _meant(quiz: Quiz, question: Question) -> dict[str, Any]:
    """The fields the reader should give for a question quizbank wrote to GIFT."""
    lang = quiz.lang
    meant: dict[str, Any] = {
        "type": question.type,
        "prompt": _html(question.prompt, lang),
        "explanation": _html(question.explanation, lang),
        "points": 1.0,
        "_tags": list(quiz.tags),
    }
    if isinstance(question, SingleChoice | MultipleChoice):
        ids = [option.id for option in question.options]
        letters = dict(zip(ids, _letters(len(ids)), strict=True))
        meant["options"] = [
            {
                "id": letters[option.id],
                "text": _html(option.text, lang, inline=True),
                "feedback": _html(option.feedback, lang, inline=True),
            }
            for option in question.options
        ]
        meant["answer"] = (
            letters[question.answer]
            if isinstance(question, SingleChoice)
            else [letters[key] for key in ids if key in question.answer]
        )
        meant["shuffle"] = True
    elif isinstance(question, TrueFalse):
        meant["answer"] = question.answer
        meant["feedback_true"] = _html(question.feedback_true, lang, inline=True)
        meant["feedback_false"] = _html(question.feedback_false, lang, inline=True)
    elif isinstance(question, Numerical):
        meant["answer"], meant["tolerance"] = question.answer, question.tolerance
    elif isinstance(question, ShortAnswer):
        meant["answer"] = [answer.strip() for answer in accepted_answers(question)[0]]
        meant["case_sensitive"] = False
    elif isinstance(question, Matching):
        each = iter(_letters(len(question.pairs) + len(question.distractors)))
        meant["pairs"] = [
            {
                "id": next(each),
                "item": _html(pair.item, lang, inline=True),
                "match": plain_line(line_of([(lang, pair)], attrgetter("match"))),
            }
            for pair in question.pairs
        ]
        meant["distractors"] = [
            {"id": next(each), "text": plain_line(line_of([(lang, d)], attrgetter("text")))}
            for d in question.distractors
        ]
        meant["shuffle"] = True
    else:
        meant |= {"grader_info": None, "min_words": None, "max_words": None}
    return meant


def test_quizbank_gift_reads_back_as_the_quizzes(built: Path) -> None:
    quizzes = _quizzes()
    assert len(quizzes) == 6
    for lang, quiz in quizzes:
        path = built / lang / f"{quiz.id}.gift"
        bank = read_gift(path, path.read_text("utf-8"))
        assert bank.skipped == []
        title = moodle.inert_text(f"{moodle.untagged(to_plain(quiz.title))} ({lang})")
        assert (bank.categories[0].line, bank.categories[0].path) == (1, [title])
        assert all(category.path[0] == title for category in bank.categories)  # and below it
        read = [question for category in bank.categories for question in category.questions]
        carried = asked(quiz, GIFT_TYPES)  # a question with variables as its variants
        assert len(read) == len(carried)
        for (question, variant), read_back in zip(carried, read, strict=True):
            number = f"/{variant}" if variant else ""
            assert read_back.idnumber == f"{quiz.id}/{question.id}{number}"
            assert read_back.name.replace(WJ, "") == moodle.question_name(question).replace(WJ, "")
            assert read_back.losses == [], question.id
            assert read_back.files == {}
            assert read_back.fields == _meant(quiz, question), (lang, question.id)


def test_question_lines_point_at_their_names(built: Path) -> None:
    path = built / "en" / "every-type.gift"
    text = path.read_text("utf-8")
    lines = text.split("\n")
    [category] = read_gift(path, text).categories
    for question in category.questions:
        assert lines[question.line - 1].startswith(f"::{question.name}::")
        assert lines[question.line - 2] == f"// [id:{question.idnumber}]"


def test_a_bank_file_gives_a_category_per_quiz(tmp_path: Path) -> None:
    request = BuildRequest(
        [REPO / "content"], tmp_path, ["gift"], options=["gift.bank=true"], use_cache=False, jobs=1
    )
    assert not build(request, discover_renderers()).report.has_errors
    for lang in ("en", "ur"):
        path = tmp_path / "gift" / "bank" / f"{lang}.gift"
        bank = read_gift(path, path.read_text("utf-8"))
        assert len({category.path[0] for category in bank.categories}) == 1  # the bank's
        assert len({category.path[1] for category in bank.categories}) == 2  # a quiz each
        assert all(len(category.path) >= 2 for category in bank.categories)  # sections below
