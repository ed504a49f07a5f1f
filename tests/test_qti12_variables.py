"""Questions with variables and sections that draw, in Canvas's QTI 1.2: each as Canvas's own
export writes a question group (lib/cc/qti/qti_generator.rb `add_group`: a `<section>` whose
`selection_ordering` picks `selection_number` questions worth `points_per_item` each). A section
that draws is a group; a question with variables is a group of its variants' pre-generated
items that picks one. Canvas's groups do not nest (its importer, assessment_test_converter.rb,
makes an inner group a group of the quiz and the outer one loses it), so a question with
variables inside a section that draws is its first variant there, and that is reported.

With QUIZBANK_QTI_MIGRATION_TOOL set to a QTIMigrationTool checkout, the packages are converted
as Canvas converts them and the groups read as Canvas's importer reads them."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import pytest
from conftest import REPO
from lxml import etree
from quizbank_renderers.qti12 import Qti12Options, Qti12Renderer
from test_qti12 import NS, Package, _field, _labels, _score, _translations, _zips

from quizbank.build import BuildRequest, build
from quizbank.loader import load_quiz
from quizbank.model import Cloze, Numerical, NumericalGap, Quiz, Section
from quizbank.registry import discover_renderers
from quizbank.renderer import Loss
from quizbank.variables import expand

VARIABLES = REPO / "tests" / "fixtures" / "variables"
CANVAS = "{http://canvas.instructure.com/xsd/cccv1p0}"


def _quiz(lang: str = "en") -> Quiz:
    loaded = load_quiz(VARIABLES / lang / "calc.yaml").quiz
    assert loaded is not None
    return loaded


def _packages(*quizzes: Quiz) -> dict[str, Package]:
    renderer = Qti12Renderer(Qti12Options())
    return {
        str(out.path): Package(out.content)
        for out in renderer.render_quiz(_translations(list(quizzes)))
    }


def _group(section: etree._Element) -> tuple[str, str]:
    """A group's selection_number and points_per_item."""
    selection = section.find("q:selection_ordering/q:selection", NS)
    assert selection is not None
    return (
        selection.findtext("q:selection_number", namespaces=NS) or "",
        selection.findtext("q:selection_extension/q:points_per_item", namespaces=NS) or "",
    )


def _children(element: etree._Element) -> list[tuple[str, str]]:
    return [(etree.QName(child).localname, child.get("ident", "")) for child in element]


def test_a_drawing_section_and_each_question_with_variables_are_question_groups() -> None:
    package = _packages(_quiz("en"), _quiz("ur"))["en/calc.zip"]
    root = package.assessment.find(".//q:section[@ident='root_section']", NS)
    assert root is not None
    assert _children(root) == [
        ("section", "qb_calc_en_basics_section"),
        ("section", "qb_calc_en_adam-memory_variants"),
        ("section", "qb_calc_en_shards_variants"),
    ]
    basics, adam, shards = root
    assert basics.get("title") == "Basics"
    assert _group(basics) == ("1", "1")
    assert _children(basics)[1:] == [
        ("item", "qb_calc_en_why-shard"),
        ("item", "qb_calc_en_resume"),
    ]
    assert _group(adam) == _group(shards) == ("1", "1")
    assert len(adam.findall("q:item", NS)) == 12 and len(shards.findall("q:item", NS)) == 3
    # The quiz's points: one drawn of basics, and one variant of each question with variables.
    assert package.meta.findtext(f"{CANVAS}points_possible") == "3"


def test_each_variant_is_an_item_with_its_numbers_and_its_key() -> None:
    source = _quiz()
    package = _packages(source)["en/calc.zip"]
    for question in source.questions[:2]:
        assert isinstance(question, Numerical | Cloze)
        drawn = list(expand("calc", question))
        keys = []
        for number, (numbers, variant) in enumerate(drawn, 1):
            item = package.item(f"{question.id}_{number}")
            assert _field(item, "question_type") in {
                "numerical_question",
                "fill_in_multiple_blanks_question",
            }
            prompt = item.findtext("q:presentation/q:material/q:mattext", namespaces=NS) or ""
            assert "{" not in prompt
            if isinstance(variant, Numerical):
                assert f"{numbers['p']:g} billion" in prompt
                keys.append(variant.answer)
            else:
                assert f"{numbers['size']:g} GB" in prompt
                (gap,) = variant.gaps.values()
                assert isinstance(gap, NumericalGap)
                keys.append(gap.answer)
                assert [text for _, text in _labels(item, "response_count")] == [f"{gap.answer:g}"]
        if isinstance(question, Numerical):
            first, second = (package.item(f"{question.id}_{n}") for n in (1, 2))
            assert _score(first, {"response1": f"{keys[0]:g}"}) == 100
            assert _score(first, {"response1": f"{keys[1]:g}"}) == 0
            assert _score(second, {"response1": f"{keys[1]:g}"}) == 100
        assert len(set(keys)) > 1


def _warnings(out: Path) -> list[str]:
    request = BuildRequest(paths=[VARIABLES], out_dir=out, formats=["qti12"])
    return [d.message for d in build(request, discover_renderers()).report.diagnostics]


def test_build_reports_only_what_canvas_cannot_carry(tmp_path: Path) -> None:
    warnings = _warnings(tmp_path)
    assert not [w for w in warnings if "draws no" in w or "variants" in w], warnings
    assert any("the sections practice" in w and "title" in w for w in warnings), warnings


def _nested() -> Quiz:
    """The fixture with adam-memory in the section that draws."""
    sections = [
        Section(
            id="basics", title="Basics", pick=2, questions=["why-shard", "resume", "adam-memory"]
        ),
        Section(id="practice", questions=["shards"]),
    ]
    return _quiz().model_copy(update={"sections": sections})


def test_a_question_with_variables_in_a_drawing_section_is_its_first_variant_and_said() -> None:
    quiz = _nested()
    package = _packages(quiz)["en/calc.zip"]
    basics = package.assessment.find(".//q:section[@ident='qb_calc_en_basics_section']", NS)
    assert basics is not None
    assert _group(basics) == ("2", "1")
    assert [i.get("ident") for i in basics.iterfind("q:item", NS)] == [
        "qb_calc_en_why-shard",
        "qb_calc_en_resume",
        "qb_calc_en_adam-memory_1",
    ]
    assert basics.find("q:section", NS) is None
    renderer = Qti12Renderer(Qti12Options())
    losses = list(renderer.losses(_translations([quiz]), "en"))
    assert (
        Loss(
            0,
            "shows only the first of its 12 variants in Canvas: its section basics draws "
            "questions, and a Canvas question group cannot hold the group of its variants",
        )
        in losses
    )


def test_a_drawing_section_of_unequal_points_gives_each_their_mean() -> None:
    quiz = _quiz()
    questions = [
        q.model_copy(update={"points": 2.0}) if q.id == "resume" else q for q in quiz.questions
    ]
    quiz = quiz.model_copy(update={"questions": questions})
    package = _packages(quiz)["en/calc.zip"]
    basics = package.assessment.find(".//q:section[@ident='qb_calc_en_basics_section']", NS)
    assert basics is not None and _group(basics) == ("1", "1.5")
    losses = list(Qti12Renderer(Qti12Options()).losses(_translations([quiz]), "en"))
    assert (
        Loss(
            None,
            "gives each question of the section basics 1.5 points: a Canvas question group gives "
            "all its questions the same points",
            kind="sections",
        )
        in losses
    )


TOOL = os.environ.get("QUIZBANK_QTI_MIGRATION_TOOL")


def _canvas_groups(section: etree._Element, found: list[dict[str, Any]]) -> None:
    """Canvas importer's process_section (assessment_test_converter.rb), on QTIMigrationTool's
    QTI 2.1: a section with a `selection` is a group of the quiz holding its own item refs; an
    inner section is processed on its own (a group of the quiz, never of its parent)."""
    selection = section.find("selection")
    group = None
    if selection is not None:
        points = section.findtext(".//points_per_item")
        group = {"pick": int(selection.get("select", "0")), "points": points, "items": []}
    for child in section:
        if child.tag == "assessmentSection":
            _canvas_groups(child, found)
        elif child.tag == "assessmentItemRef" and group is not None:
            group["items"].append(child.get("identifier"))
    if group is not None and group["items"]:
        found.append(group)


@pytest.mark.skipif(
    not TOOL, reason="set QUIZBANK_QTI_MIGRATION_TOOL to a QTIMigrationTool checkout"
)
def test_canvas_reads_the_groups(tmp_path: Path) -> None:
    data = zipfile.ZipFile(io.BytesIO(_zips(_translations([_quiz()]))["en/calc.zip"]))
    source, out = tmp_path / "calc", tmp_path / "calc-2.1"
    data.extractall(source)
    command = [
        sys.executable,
        "migrate.py",
        "--ucvars",
        "--nogui",
        "--overwrite",
        f"--cpout={out}",
        str(source),
    ]
    subprocess.run(command, cwd=TOOL, check=True, capture_output=True)
    (test,) = (out / "assessmentTests").glob("*.xml")
    root = etree.parse(str(test)).getroot()
    for element in root.iter():
        if isinstance(element.tag, str):
            element.tag = etree.QName(element).localname
    groups: list[dict[str, Any]] = []
    _canvas_groups(root.find(".//testPart"), groups)
    assert sorted((g["pick"], float(g["points"]), len(g["items"])) for g in groups) == [
        (1, 1.0, 2),
        (1, 1.0, 3),
        (1, 1.0, 12),
    ]
