"""A Moodle calculated question imported: a numerical question with variables, its dataset
items as an explicit list of variants, its formula, tolerance type and decimals kept; a quiz's
sub-categories its sections (quizbank's Moodle XML export writes both)."""

from __future__ import annotations

from pathlib import Path

from conftest import REPO
from quizbank_renderers.moodle import MoodleOptions, MoodleRenderer

from quizbank.importer.convert import convert
from quizbank.importer.moodle_xml import read_moodle_xml
from quizbank.loader import load_quiz
from quizbank.model import Numerical
from quizbank.renderer import QuizTranslations
from quizbank.variables import variants

CALC = REPO / "tests" / "fixtures" / "variables" / "en" / "calc.yaml"

CALCULATED = """<?xml version="1.0" encoding="UTF-8"?>
<quiz>
  <question type="calculatedsimple">
    <name><text>Area</text></name>
    <questiontext format="html"><text><![CDATA[<p>A square of side {a} cm: its area is {=round({a} * {a}, 1)}?</p>]]></text></questiontext>
    <generalfeedback format="html"><text>{a} squared.</text></generalfeedback>
    <answer fraction="100">
      <text>{a} * {a}</text>
      <tolerance>0.05</tolerance>
      <tolerancetype>1</tolerancetype>
      <correctanswerformat>1</correctanswerformat>
      <correctanswerlength>1</correctanswerlength>
    </answer>
    <dataset_definitions>
      <dataset_definition>
        <status><text>shared</text></status>
        <name><text>a</text></name>
        <type>calculated</type>
        <distribution><text>uniform</text></distribution>
        <minimum><text>1</text></minimum>
        <maximum><text>9.9</text></maximum>
        <decimals><text>1</text></decimals>
        <itemcount>2</itemcount>
        <dataset_items>
          <dataset_item><number>2</number><value>7.5</value></dataset_item>
          <dataset_item><number>1</number><value>2.1</value></dataset_item>
        </dataset_items>
      </dataset_definition>
    </dataset_definitions>
  </question>
</quiz>
"""


def test_a_calculated_question_is_a_numerical_question_with_variables() -> None:
    bank = read_moodle_xml(Path("area.xml"), CALCULATED.encode())
    assert not bank.skipped
    imported = convert(bank, "en")
    (quiz,) = imported.quizzes
    (question,) = quiz.data["questions"]
    assert question["type"] == "numerical"
    assert question["answer"] == "{a} * {a}"
    assert question["tolerance"] == "5%"  # relative
    assert question["decimals"] == 1
    assert question["variables"] == {"a": {"from": 1.0, "to": 9.9, "step": 0.1}}
    assert question["variants"] == [{"a": 2.1}, {"a": 7.5}]  # by item number
    # quizbank's export's `{=round(formula, decimals)}` is the formula again.
    assert "{={a} * {a}}" in question["prompt"] and "{a}" in question["prompt"]


def test_quizbanks_calculated_question_comes_back_with_its_variants() -> None:
    source = load_quiz(CALC).quiz
    xml = MoodleRenderer(MoodleOptions()).render(
        QuizTranslations("calc", {"en": source}, ["en"]), "en"
    )
    (quiz,) = convert(read_moodle_xml(Path("calc.xml"), xml.encode()), "en").quizzes
    back = {q["id"]: q for q in quiz.data["questions"]}
    original = source.questions[0]
    assert isinstance(original, Numerical)
    mine = back["adam-memory"]
    assert mine["answer"] == original.answer and mine["decimals"] == original.decimals
    assert mine["variants"] == variants("calc", original)
    assert "{={p} * {bytes} * 3}" in mine["explanation"]
    # The cloze's variants come back as plain questions of its section.
    assert [s["id"] for s in quiz.data["sections"]] == ["basics", "practice"]
    assert quiz.data["sections"][1]["questions"] == [
        "adam-memory",
        "shards-1",
        "shards-2",
        "shards-3",
    ]
