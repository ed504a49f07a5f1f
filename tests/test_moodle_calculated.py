"""Questions with variables and sections in Moodle XML: a numerical question with variables is
Moodle's own `calculated` question (its variables private datasets, its variants their items),
a cloze with variables its variants in a sub-category of its own, a section a sub-category;
what Moodle's question XML cannot say (a section's pick) is reported. What the real Moodle 4.5
taught (scripts/moodle-check) is asserted here: the import stores every dataset item as written
and `qtype_calculated` computes each variant's answer and texts as quizbank does."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import REPO
from lxml import etree
from quizbank_renderers.moodle import MoodleOptions, MoodleRenderer
from quizbank_renderers.moodle_calculated import moodle_value, php_float

from quizbank.loader import load_quiz
from quizbank.model import Cloze, Numerical, Quiz
from quizbank.renderer import QuizTranslations
from quizbank.variables import fill, variants

VARIABLES = REPO / "tests" / "fixtures" / "variables"


def _quiz(lang: str) -> Quiz:
    return load_quiz(VARIABLES / lang / "calc.yaml").quiz


def _translations() -> QuizTranslations:
    return QuizTranslations("calc", {"en": _quiz("en"), "ur": _quiz("ur")}, ["en", "ur"])


def _xml(lang: str = "en", **options: object) -> etree._Element:
    renderer = MoodleRenderer(MoodleOptions(**options))  # type: ignore[arg-type]
    return etree.fromstring(renderer.render(_translations(), lang).encode())


def _question(root: etree._Element, idnumber: str) -> etree._Element:
    (found,) = [q for q in root.iter("question") if q.findtext("idnumber") == idnumber]
    return found


def test_a_numerical_question_with_variables_is_a_calculated_question() -> None:
    root = _xml()
    question = _question(root, "calc/adam-memory")
    source = _quiz("en").questions[0]
    assert isinstance(source, Numerical)
    assert question.get("type") == "calculated"
    answer = question.find("answer")
    assert answer is not None and answer.get("fraction") == "100"
    assert answer.findtext("text") == "{p} * {bytes} * 3"  # the formula as written
    assert answer.findtext("tolerance") == "0.01"
    assert answer.findtext("tolerancetype") == "2"  # nominal: absolute
    assert answer.findtext("correctanswerformat") == "1"  # decimal places
    assert answer.findtext("correctanswerlength") == "2"  # `decimals: 2`
    assert question.findtext("synchronize") == "0"
    drawn = variants("calc", source)
    definitions = question.findall("dataset_definitions/dataset_definition")
    assert [d.findtext("name/text") for d in definitions] == ["bytes", "p"]
    for definition in definitions:
        name = definition.findtext("name/text")
        assert definition.findtext("status/text") == "private"
        assert definition.findtext("type") == "calculated"
        assert definition.findtext("itemcount") == str(len(drawn)) == "12"
        items = definition.findall("dataset_items/dataset_item")
        assert [item.findtext("number") for item in items] == [str(n) for n in range(1, 13)]
        assert [float(item.findtext("value") or "") for item in items] == [
            values[name] for values in drawn
        ]
    (p,) = [d for d in definitions if d.findtext("name/text") == "p"]
    assert (p.findtext("minimum/text"), p.findtext("maximum/text")) == ("1", "20")
    assert p.findtext("decimals/text") == "0"


def test_a_relative_tolerance_is_moodles_relative_type(tmp_path: Path) -> None:
    quiz = _quiz("en")
    question = quiz.questions[0]
    relative = question.model_copy(update={"tolerance": "1.5%", "decimals": None})
    changed = quiz.model_copy(update={"questions": [relative, *quiz.questions[1:]]})
    xml = MoodleRenderer(MoodleOptions()).render(
        QuizTranslations("calc", {"en": changed}, ["en"]), "en"
    )
    answer = _question(etree.fromstring(xml.encode()), "calc/adam-memory").find("answer")
    assert answer is not None
    assert (answer.findtext("tolerance"), answer.findtext("tolerancetype")) == ("0.015", "1")
    # No decimals: the right answer in significant figures, as many as Moodle's form offers.
    assert (answer.findtext("correctanswerformat"), answer.findtext("correctanswerlength")) == (
        "2",
        "9",
    )


@pytest.mark.parametrize("lang", ["en", "ur"])
def test_texts_keep_their_placeholders_for_moodle_to_fill_in(lang: str) -> None:
    question = _question(_xml(lang), "calc/adam-memory")
    text = question.findtext("questiontext/text") or ""
    feedback = question.findtext("generalfeedback/text") or ""
    assert "{p}" in text and "{bytes}" in text
    # `decimals: 2`: the computed value rounded as quizbank shows it (Moodle drops the zeros).
    assert "{=round({p} * {bytes} * 3, 2)}" in feedback
    assert "\U000f0100" not in text + feedback


def test_moodle_shows_each_variant_with_quizbanks_numbers() -> None:
    """What qtype_calculated_variable_substituter writes for a text, as the real Moodle showed
    it for each dataset item (scripts/moodle-check): the same numbers as quizbank's HTML."""
    source = _quiz("en").questions[0]
    assert isinstance(source, Numerical)
    for values in variants("calc", source):
        ours = fill("{={p} * {bytes} * 3}", values, 2)
        assert float(moodle_value("{p} * {bytes} * 3", values, 2)) == float(ours)
    assert php_float(90.0) == "90"
    assert php_float(1 / 3) == "0.33333333333333"
    assert php_float(1e25) == "1.0E+25"
    assert php_float(1.5e-7) == "1.5E-7"


def test_nothing_of_a_calculated_question_is_reported_lost() -> None:
    renderer = MoodleRenderer(MoodleOptions())
    assert renderer.handles_variables and renderer.handles_sections
    losses = [loss.what for loss in renderer.losses(_translations(), "en")]
    assert not [what for what in losses if "variant" in what and "adam" in what]
    assert all(loss.question != 0 for loss in renderer.losses(_translations(), "en"))


def test_a_value_moodle_would_show_otherwise_is_reported() -> None:
    quiz = _quiz("en")
    question = quiz.questions[0]
    assert isinstance(question, Numerical)
    thirds = question.model_copy(update={"explanation": "A third: {={p} / 3}.", "decimals": None})
    changed = quiz.model_copy(update={"questions": [thirds, *quiz.questions[1:]]})
    translations = QuizTranslations("calc", {"en": changed}, ["en"])
    losses = [
        loss
        for loss in MoodleRenderer(MoodleOptions()).losses(translations, "en")
        if loss.question == 0
    ]
    # PHP writes 14 significant digits, quizbank 15: some third differs in its last digit.
    assert losses and "{={p} / 3}" in losses[0].what and "in Moodle" in losses[0].what


def test_sections_are_sub_categories_and_a_pick_is_reported() -> None:
    root = _xml()
    order = [
        (q.get("type"), q.findtext("category/text") or q.findtext("idnumber"))
        for q in root.iter("question")
    ]
    top = "$course$/top/Checkpoint arithmetic (en)"
    assert order[:4] == [
        ("category", top),
        ("category", f"{top}/Basics"),
        ("truefalse", "calc/why-shard"),
        ("truefalse", "calc/resume"),
    ]
    assert order[4:6] == [("category", f"{top}/Practice"), ("calculated", "calc/adam-memory")]
    losses = list(MoodleRenderer(MoodleOptions()).losses(_translations(), "en"))
    (pick,) = [loss for loss in losses if loss.kind == "sections"]
    assert pick.question is None
    assert "1 of the 2 questions of its section basics" in pick.what
    assert "random question" in pick.what


def test_a_cloze_with_variables_is_its_variants_in_a_sub_category() -> None:
    root = _xml()
    source = _quiz("en").questions[1]
    assert isinstance(source, Cloze)
    questions = list(root.iter("question"))
    at = next(
        n
        for n, q in enumerate(questions)
        if (q.findtext("idnumber") or "").startswith("calc/shards")
    )
    category = questions[at - 1].findtext("category/text") or ""
    assert category.startswith("$course$/top/Checkpoint arithmetic (en)/Practice/A checkpoint of")
    drawn = variants("calc", source)
    written = questions[at : at + len(drawn)]
    assert [q.findtext("idnumber") for q in written] == [
        "calc/shards/1",
        "calc/shards/2",
        "calc/shards/3",
    ]
    for question, values in zip(written, drawn, strict=True):
        assert question.get("type") == "multianswer"
        text = question.findtext("questiontext/text") or ""
        size = int(values["size"])
        assert f"A checkpoint of {size} GB" in text
        assert f"{{1:NUMERICAL:={-(-size // 5)}}}" in text
    losses = [
        loss
        for loss in MoodleRenderer(MoodleOptions()).losses(_translations(), "en")
        if loss.question == 1
    ]
    assert losses and "3 variants" in losses[0].what and "sub-category" in losses[0].what
    # The questions after it are back in their own category.
    assert questions[-1].get("type") != "category"


def test_the_multilang_file_keeps_the_placeholders_in_every_language() -> None:
    renderer = MoodleRenderer(MoodleOptions(multilang=True))
    files = {str(f.path): f.content for f in renderer.render_quiz(_translations())}
    root = etree.fromstring(files["multilang/calc.xml"])
    question = _question(root, "calc/adam-memory")
    text = question.findtext("questiontext/text") or ""
    assert text.count("{p}") == 2 and 'lang="ur"' in text


def test_the_combined_feedback_has_no_format_as_moodles_export_writes_it() -> None:
    """The real Moodle reported `correctfeedback@format: file "html", Moodle ""`: it keeps no
    combined feedback of a calculated question and exports it without a format."""
    question = _question(_xml(), "calc/adam-memory")
    for tag in ("correctfeedback", "partiallycorrectfeedback", "incorrectfeedback"):
        element = question.find(tag)
        assert element is not None and element.get("format") is None
        assert element.findtext("text") == ""
