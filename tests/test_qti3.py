"""QTI 3.0 content packages, read as their consumers read them: the zip and its manifest, every
file parsed by lxml (and by the official IMS XSDs when QTI3_XSD_DIR names a folder of them, as
scripts/qti3-validate does), each question's key, mapping, points, response processing and
feedback, hostile and Urdu text escaped and intact, images beside the items."""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import io
import os
import re
import zipfile
from pathlib import Path
from typing import Any

import pytest
from conftest import REPO
from lxml import etree, html
from quizbank_renderers.packages import write_zip
from quizbank_renderers.qti3 import Qti3Options, Qti3Renderer, Qti21Renderer, item_identifier
from quizbank_renderers.qti3_types import answer_pattern, xhtml

from quizbank.build import BuildRequest, build
from quizbank.grading import option_grades
from quizbank.loader import load_quiz
from quizbank.markup import to_html
from quizbank.model import Quiz, question_texts
from quizbank.registry import discover_renderers
from quizbank.renderer import QuizTranslations

TYPES = REPO / "tests" / "fixtures" / "types"
MEDIA = REPO / "tests" / "fixtures" / "media"
ASI = "{http://www.imsglobal.org/xsd/imsqtiasi_v3p0}"
CP = "{http://www.imsglobal.org/xsd/qti/qtiv3p0/imscp_v1p1}"
LOM = "{http://ltsc.ieee.org/xsd/LOM}"
XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
NS = {"q": ASI[1:-1], "cp": CP[1:-1], "lom": LOM[1:-1]}
HOSTILE = '<script>alert(1)</script> ]]> & "quotes" @@PLUGINFILE@@/x.png اردو'
Package = dict[str, bytes]


def built(folder: Path, out: Path, *options: str, fmt: str = "qti3") -> dict[str, Package]:
    """Every package `quizbank build -f qti3 [-O OPTION]...` (or `-f qti21`) writes for a
    content folder, unzipped by path under qti3/ (`en/every-type.zip`, `bank/en.zip`)."""
    request = BuildRequest(paths=[folder], out_dir=out, formats=[fmt], options=options)
    result = build(request, discover_renderers())
    assert not result.report.has_errors, [d.format() for d in result.report.diagnostics]
    packages = {}
    for path in sorted((out / fmt).glob("*/*.zip")):
        with zipfile.ZipFile(path) as archive:
            packages[f"{path.parent.name}/{path.name}"] = {
                name: archive.read(name) for name in archive.namelist()
            }
    return packages


@pytest.fixture(scope="module")
def types(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Package]:
    return built(TYPES, tmp_path_factory.mktemp("types"))


@pytest.fixture(scope="module")
def media(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Package]:
    return built(MEDIA, tmp_path_factory.mktemp("media"))


@pytest.fixture(scope="module")
def bundled(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Package]:
    return built(REPO / "content", tmp_path_factory.mktemp("content"))


def quiz(folder: Path, lang: str, quiz_id: str) -> Quiz:
    loaded = load_quiz(folder / lang / f"{quiz_id}.yaml").quiz
    assert loaded is not None
    return loaded


def parse(data: bytes) -> etree._Element:
    """A file as a strict XML parser reads it (no entities of HTML, no recovery)."""
    return etree.fromstring(data, etree.XMLParser(resolve_entities=False, no_network=True))


def item(package: Package, question_id: str) -> etree._Element:
    return parse(package[f"items/{question_id}.xml"])


def values(element: etree._Element, path: str) -> list[str]:
    return [value.text or "" for value in element.iterfind(path, NS)]


def response(root: etree._Element, name: str = "RESPONSE") -> etree._Element:
    found = root.find(f"q:qti-response-declaration[@identifier='{name}']", NS)
    assert found is not None, name
    return found


def mapped(declaration: etree._Element) -> dict[str, float]:
    return {
        entry.get("map-key", ""): float(entry.get("mapped-value", ""))
        for entry in declaration.iterfind("q:qti-mapping/q:qti-map-entry", NS)
    }


def score_declaration(root: etree._Element, name: str) -> etree._Element:
    found = root.find(f"q:qti-outcome-declaration[@identifier='{name}']", NS)
    assert found is not None, name
    return found


def default(root: etree._Element, name: str) -> str:
    return values(score_declaration(root, name), "q:qti-default-value/q:qti-value")[0]


def renderer() -> Qti3Renderer:
    return Qti3Renderer(Qti3Options())


def render(*quizzes: Quiz) -> dict[str, Package]:
    """Quizzes (one per language, no images) through `render_quiz`, unzipped by path."""
    translations = QuizTranslations(
        quizzes[0].id, {q.lang: q for q in quizzes}, [q.lang for q in quizzes]
    )
    return {
        str(out.path): {
            name: zipfile.ZipFile(io.BytesIO(out.content)).read(name)
            for name in zipfile.ZipFile(io.BytesIO(out.content)).namelist()
        }
        for out in renderer().render_quiz(translations)
    }


# ---------------------------------------------------------------------------- the package


def test_found_through_the_entry_point() -> None:
    entry = discover_renderers().get("qti3")
    assert entry is not None and entry.cls is Qti3Renderer
    assert Qti3Renderer.supported_types is None  # every quizbank type has its interaction


def test_one_zip_per_language_with_a_manifest_a_test_and_an_item_per_question(
    types: dict[str, Package],
) -> None:
    assert list(types) == ["en/every-type.zip", "ur/every-type.zip"]
    for lang in ("en", "ur"):
        ids = [q.id for q in quiz(TYPES, lang, "every-type").questions]
        assert sorted(types[f"{lang}/every-type.zip"]) == sorted(
            ["imsmanifest.xml", "assessment.xml", *(f"items/{i}.xml" for i in ids)]
        )


def test_the_manifest_lists_every_file_and_what_each_depends_on(
    media: dict[str, Package],
) -> None:
    for package in media.values():
        manifest = parse(package["imsmanifest.xml"])
        assert manifest.tag == f"{CP}manifest"
        assert values(manifest, "cp:metadata/cp:schemaversion") == ["3.0.0"]
        resources = {r.get("identifier"): r for r in manifest.iterfind(".//cp:resource", NS)}
        listed = {f.get("href") for f in manifest.iterfind(".//cp:file", NS)}
        assert listed == set(package) - {"imsmanifest.xml"}
        test = resources["quiz.media"]
        assert test.get("type") == "imsqti_test_xmlv3p0" and test.get("href") == "assessment.xml"
        needs = [d.get("identifierref") for d in test.iterfind("cp:dependency", NS)]
        assert needs == [
            item_identifier("media", q) for q in ("diagram", "adam-bytes", "pick-image")
        ]
        for ref in needs:  # every dependency is a resource
            assert ref in resources
        diagram = resources[item_identifier("media", "diagram")]
        assert diagram.get("type") == "imsqti_item_xmlv3p0"
        images = [resources[d.get("identifierref")] for d in diagram.iterfind("cp:dependency", NS)]
        assert [i.get("type") for i in images] == ["webcontent", "webcontent"]
        assert [Path(i.get("href", "")).stem.rsplit("-", 1)[0] for i in images] == [
            "shards",
            "grid",
        ]


def test_the_manifest_carries_the_quizs_metadata(bundled: dict[str, Package]) -> None:
    for path, package in bundled.items():
        lang, quiz_id = path.split("/")[0], path.split("/")[1][: -len(".zip")]
        source = quiz(REPO / "content", lang, quiz_id)
        lom = parse(package["imsmanifest.xml"]).find("cp:metadata/lom:lom", NS)
        assert lom is not None
        assert values(lom, "lom:general/lom:identifier/lom:entry") == [quiz_id]
        assert values(lom, "lom:general/lom:language") == [lang]
        keywords = values(lom, "lom:general/lom:keyword/lom:string")
        assert keywords == list(source.tags)
        assert values(lom, "lom:educational/lom:difficulty/lom:value") == [
            {"beginner": "easy", "intermediate": "medium", "advanced": "difficult"}[
                source.level.value
            ]
        ]


def test_zips_are_the_same_bytes_each_time() -> None:
    every = QuizTranslations("every-type", {"en": quiz(TYPES, "en", "every-type")}, ["en"])
    first, again = (next(iter(renderer().render_quiz(every))) for _ in range(2))
    assert str(first.path) == "en/every-type.zip" and first.content == again.content
    with zipfile.ZipFile(io.BytesIO(first.content)) as archive:
        names = archive.namelist()
        assert names == sorted(names)
        assert {info.date_time for info in archive.infolist()} == {(1980, 1, 1, 0, 0, 0)}


def test_render_refuses_one_text_for_a_package() -> None:
    with pytest.raises(NotImplementedError):
        renderer().render(QuizTranslations("x", {}, []), "en")


def test_the_test_references_every_item_and_sums_their_scores(types: dict[str, Package]) -> None:
    for path, package in types.items():
        test = parse(package["assessment.xml"])
        assert test.tag == f"{ASI}qti-assessment-test"
        refs = test.findall(".//q:qti-assessment-item-ref", NS)
        source = quiz(TYPES, path[:2], "every-type")
        assert [r.get("href") for r in refs] == [f"items/{q.id}.xml" for q in source.questions]
        for ref in refs:  # the href is the item whose identifier the ref names
            assert parse(package[ref.get("href", "")]).get("identifier") == ref.get("identifier")
        sums = test.findall(".//q:qti-outcome-processing/q:qti-set-outcome-value", NS)
        assert [s.get("identifier") for s in sums] == ["SCORE", "MAXSCORE"]
        assert test.find(".//q:qti-rubric-block[@view='candidate']", NS) is not None


# --------------------------------------------------------------------------------- the items


def test_every_item_has_its_points_and_an_explanation(types: dict[str, Package]) -> None:
    for path, package in types.items():
        source = quiz(TYPES, path[:2], "every-type")
        for question in source.questions:
            root = item(package, question.id)
            assert root.get("identifier") == f"quiz.every-type.{question.id}"
            assert root.get(XML_LANG) == source.lang
            assert float(default(root, "MAXSCORE")) == question.points
            score = score_declaration(root, "SCORE")
            assert float(score.get("normal-maximum", "")) == question.points
            assert default(root, "SCORE") == "0"
            human = question.type == "essay"
            assert (score.get("external-scored") == "human") is human
            feedback = root.find("q:qti-modal-feedback", NS)
            assert feedback is not None and feedback.get("outcome-identifier") == "EXPLANATION"
            explanation = "".join(feedback.itertext())
            assert (
                explanation.split()
                == html.fromstring(to_html(question.explanation, source.lang))
                .text_content()
                .split()
            )


def test_choice_keys_map_each_option_to_its_grade_times_the_points(
    types: dict[str, Package],
) -> None:
    source = quiz(TYPES, "en", "every-type")
    package = types["en/every-type.zip"]
    for question in source.questions[:2]:
        declaration = response(item(package, question.id))
        assert values(declaration, "q:qti-correct-response/q:qti-value") == [
            f"choice-{key}" for key in question.answer_ids
        ]
        assert mapped(declaration) == {
            f"choice-{key}": grade * question.points
            for key, grade in option_grades(question).items()  # type: ignore[arg-type]
        }
        mapping = declaration.find("q:qti-mapping", NS)
        assert mapping is not None and mapping.get("lower-bound") == "0"
        assert float(mapping.get("upper-bound", "")) == question.points
    pick_all = item(package, "pick-all")
    interaction = pick_all.find(".//q:qti-choice-interaction", NS)
    assert interaction is not None
    assert interaction.get("max-choices") == "0" and interaction.get("shuffle") == "false"
    assert response(pick_all).get("cardinality") == "multiple"


def test_option_feedback_shows_for_the_option_chosen(types: dict[str, Package]) -> None:
    root = item(types["en/every-type.zip"], "pick-one")
    feedback = {
        f.get("identifier"): "".join(f.itertext())
        for f in root.iterfind(".//q:qti-simple-choice/q:qti-feedback-inline", NS)
    }
    assert feedback == {
        "choice-a": "Right; it maps each tensor to its shard.",
        "choice-b": "That holds moment estimates, not the index.",
    }
    rule = root.find(
        "q:qti-response-processing/q:qti-set-outcome-value[@identifier='FEEDBACK']", NS
    )
    assert rule is not None and rule[0].get("identifier") == "RESPONSE"


def test_true_false_choices_are_named_in_the_language(types: dict[str, Package]) -> None:
    for lang, words in (("en", ["True", "False"]), ("ur", ["درست", "غلط"])):
        root = item(types[f"{lang}/every-type.zip"], "statement")
        choices = root.findall(".//q:qti-simple-choice", NS)
        assert [c.get("identifier") for c in choices] == ["true", "false"]
        assert [(c.text or "").strip() for c in choices] == words
        assert values(response(root), "q:qti-correct-response/q:qti-value") == ["false"]
        assert [f.get("identifier") for f in root.iterfind(".//q:qti-feedback-inline", NS)] == [
            "false"
        ]


def _bounds(root: etree._Element, name: str = "RESPONSE") -> tuple[float, float]:
    found = {}
    for tag in ("gte", "lte"):
        for test in root.iterfind(f".//q:qti-{tag}", NS):
            if test[0].get("identifier") == name:
                found[tag] = float(test[1].text or "")
    return found["gte"], found["lte"]


def test_a_number_is_right_within_its_tolerance(types: dict[str, Package]) -> None:
    root = item(types["en/every-type.zip"], "adam-beta1")
    assert values(response(root), "q:qti-correct-response/q:qti-value") == ["0.9"]
    assert response(root).get("base-type") == "float"
    low, high = _bounds(root)
    assert low <= 0.895 and high >= 0.905 and low > 0.8949 and high < 0.9051


# What a response must be to match an accepted answer: XML Schema's pattern-match is the whole
# response, as Python's fullmatch; the patterns use only syntax the two read alike.
@pytest.mark.parametrize(
    ("answer", "case_sensitive", "right", "wrong"),
    [
        (
            "safetensors",
            False,
            ["safetensors", " SafeTensors ", "SAFETENSORS"],
            ["safe", "xsafetensors"],
        ),
        ("safe*tensors", False, ["safetensors", "safe-tensors", "Safe tensors"], ["safe\ntensors"]),
        ("Adam", True, ["Adam", "Adam "], ["adam", "ADAM"]),
        ("a\\*b", False, ["a*b", "A*B"], ["ab", "axb"]),
        (
            "$5.00 (USD) [a|b] {1} ^x? +",
            False,
            ["$5.00 (usd) [A|B] {1} ^X? +"],
            ["$5x00 (usd) [A|B] {1} ^X? +"],
        ),
        ("پیرامیٹر", False, ["پیرامیٹر", " پیرامیٹر"], ["ٹینسر"]),
    ],
)
def test_accepted_answers_as_patterns(
    answer: str, case_sensitive: bool, right: list[str], wrong: list[str]
) -> None:
    pattern = re.compile(answer_pattern(answer, case_sensitive))
    for text in right:
        assert pattern.fullmatch(text), (pattern.pattern, text)
    for text in wrong:
        assert not pattern.fullmatch(text), (pattern.pattern, text)


def test_short_answer_key(types: dict[str, Package]) -> None:
    root = item(types["en/every-type.zip"], "format-name")
    declaration = response(root)
    assert values(declaration, "q:qti-correct-response/q:qti-value") == ["safetensors"]
    assert mapped(declaration) == {"safetensors": 1.0}  # the wildcard is in the processing
    patterns = [p.get("pattern") for p in root.iterfind(".//q:qti-pattern-match", NS)]
    assert patterns == [answer_pattern(a, False) for a in ("safetensors", "safe*tensors")]


def test_matching_maps_each_right_pair_to_its_share(types: dict[str, Package]) -> None:
    root = item(types["en/every-type.zip"], "state-parts")
    declaration = response(root)
    assert declaration.get("base-type") == "directedPair"
    pairs = ["item-opt match-opt", "item-rng match-rng", "item-sched match-sched"]
    assert values(declaration, "q:qti-correct-response/q:qti-value") == pairs
    assert mapped(declaration) == dict.fromkeys(pairs, 1.0)  # 3 points, 3 pairs
    sets = root.findall(".//q:qti-simple-match-set", NS)
    targets = [c.get("identifier") for c in sets[1]]
    assert sorted(targets) == sorted(["match-opt", "match-rng", "match-sched", "distractor-lr"])
    assert all(targets[i] != f"match-{p}" for i, p in enumerate(["opt", "rng", "sched"]))


def test_ordering_items_are_scrambled_and_counted_by_place(types: dict[str, Package]) -> None:
    root = item(types["en/every-type.zip"], "resume-order")
    key = ["item-load", "item-restore", "item-seek"]
    assert response(root).get("cardinality") == "ordered"
    assert values(response(root), "q:qti-correct-response/q:qti-value") == key
    shown = [c.get("identifier") for c in root.iterfind(".//q:qti-simple-choice", NS)]
    assert sorted(shown) == sorted(key) and all(a != b for a, b in zip(shown, key, strict=True))
    places = [
        (index.get("n"), index.getparent()[1].text)  # type: ignore[index,union-attr]
        for index in root.iterfind(".//q:qti-index", NS)
    ]
    assert places == [("1", "item-load"), ("2", "item-restore"), ("3", "item-seek")]


def test_cloze_gaps_are_inline_interactions_in_the_prompt(types: dict[str, Package]) -> None:
    root = item(types["ur/every-type.zip"], "index-gaps")
    paragraph = root.find("q:qti-item-body/q:div/q:p", NS)
    assert paragraph is not None
    gaps = [child.get("response-identifier") for child in paragraph if "interaction" in child.tag]
    assert gaps == ["RESPONSE-what", "RESPONSE-where", "RESPONSE-count"]
    assert values(response(root, "RESPONSE-where"), ".//q:qti-value") == ["choice-a"]
    assert values(response(root, "RESPONSE-count"), ".//q:qti-value") == ["3"]
    assert _bounds(root, "RESPONSE-count") == pytest.approx((3, 3))
    assert set(mapped(response(root, "RESPONSE-what"))) == {"پیرامیٹر", "ٹینسر", "parameter"}
    choices = [c.text for c in root.iterfind(".//q:qti-inline-choice", NS)]
    assert choices == ["شارڈ فائل", "آپٹیمائزر"]
    feedback = root.find(".//q:qti-feedback-inline", NS)
    assert feedback is not None and feedback.get("outcome-identifier") == "FEEDBACK-RESPONSE-where"
    assert default(root, "PARTS_RIGHT") == "0"


def test_essay_is_scored_by_a_person_with_the_graders_information(
    types: dict[str, Package],
) -> None:
    root = item(types["en/every-type.zip"], "why-weights-only")
    rubric = root.find(".//q:qti-rubric-block", NS)
    assert rubric is not None and rubric.get("view") == "scorer"
    assert "optimizer state and the RNG state" in "".join(rubric.itertext())
    interaction = root.find(".//q:qti-extended-text-interaction", NS)
    assert interaction is not None
    mask = re.compile(interaction.get("pattern-mask", ""))
    assert mask.fullmatch("one two three four five") and not mask.fullmatch("one two three four")
    assert mask.fullmatch(" ".join(["w"] * 200)) and not mask.fullmatch(" ".join(["w"] * 201))
    assert "5 to 200 words" in "".join(root.itertext())
    rules = root.find("q:qti-response-processing", NS)
    assert rules is not None and rules.find(".//*[@identifier='SCORE']", NS) is None


def test_urdu_items_are_right_to_left(types: dict[str, Package]) -> None:
    package = types["ur/every-type.zip"]
    for name, data in package.items():
        if name.startswith("items/"):
            body = parse(data).find("q:qti-item-body", NS)
            assert body is not None
            assert body.get(XML_LANG) == "ur" and body.get("dir") == "rtl"
    explanation = item(package, "pick-one").find(
        "q:qti-modal-feedback/q:qti-content-body/q:div", NS
    )
    assert explanation is not None and explanation.get("dir") == "rtl"
    rubric = parse(package["assessment.xml"]).find(".//q:qti-rubric-block//q:div", NS)
    assert rubric is not None and rubric.get("dir") == "rtl"
    english = item(types["en/every-type.zip"], "pick-one").find("q:qti-item-body", NS)
    assert english is not None and english.get("dir") is None


# ------------------------------------------------------------------------ images and XHTML


def test_images_are_files_of_the_package_beside_the_items(media: dict[str, Package]) -> None:
    for package in media.values():
        diagram = item(package, "diagram")
        sources = [img.get("src", "") for img in diagram.iter(f"{ASI}img")]
        assert len(sources) == 2 and all(s.startswith("../images/") for s in sources)
        for source in sources:
            name = source.removeprefix("../")
            original = name.split("/")[1].rsplit("-", 1)[0] + Path(name).suffix
            assert package[name] == (MEDIA / "images" / original).read_bytes()
        maths = list(diagram.iter("{http://www.w3.org/1998/Math/MathML}math"))
        assert maths and all(m.get("alttext") for m in maths)


def test_every_text_is_well_formed_xhtml_that_says_what_the_html_says(
    bundled: dict[str, Package], media: dict[str, Package]
) -> None:
    """Each text of the content and the media fixture, as to_html writes it and as the package
    has it: the XHTML parses as XML and has the same text."""
    for folder in (REPO / "content", MEDIA):
        for path in sorted(folder.glob("*/*.yaml")):
            source = load_quiz(path).quiz
            assert source is not None
            for question in source.questions:
                for _, value in question_texts(question):
                    written = to_html(value, source.lang)
                    converted = etree.fromstring(f"<div>{xhtml(written)}</div>")
                    assert (
                        "".join(converted.itertext())
                        == html.fragment_fromstring(written, create_parent="div").text_content()
                    )


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("a\\\nb", "<p>a<br />\nb</p>"),
        ("![x](a.png)", '<p><img src="a.png" alt="x"/></p>'),
        ('![x](a.png "tip")', '<p><img src="a.png" alt="x"/></p>'),
        ("[l](https://x.org)", '<p><a href="https://x.org">l</a></p>'),
        ("~~no~~", '<p><span class="qti-text-decoration-line-through">no</span></p>'),
        ("3. three", "<ol>\n<li>three</li>\n</ol>"),
        ("| a |\n|--:|\n| 1 |", '<th class="qti-align-right">a</th>'),
        ("$x$", 'alttext="x" dir="ltr"><mrow><mi>x</mi></mrow></math>'),
    ],
)
def test_html_becomes_what_qtis_xhtml_allows(source: str, expected: str) -> None:
    converted = xhtml(to_html(source))
    assert expected in converted
    assert "aria-label" not in converted and " rel=" not in converted
    etree.fromstring(f"<div>{converted}</div>")


def test_hostile_text_survives_escaped_and_intact() -> None:
    base = quiz(TYPES, "en", "every-type").model_dump(mode="json")
    questions = base["questions"]
    questions[0]["prompt"] = HOSTILE
    questions[0]["options"][1]["feedback"] = HOSTILE
    questions[2]["feedback_false"] = HOSTILE
    questions[4]["answer"] = [HOSTILE]
    questions[5]["pairs"][0]["match"] = HOSTILE
    questions[6]["items"][0]["text"] = HOSTILE
    questions[7]["gaps"]["where"]["options"][1]["text"] = HOSTILE
    questions[8]["grader_info"] = HOSTILE
    for question in questions:
        question["explanation"] = HOSTILE
    hostile = Quiz.model_validate(base | {"title": HOSTILE, "description": HOSTILE})
    package = render(hostile)["en/every-type.zip"]
    for name, data in package.items():
        root = parse(data)  # well-formed, every `<` and `&` escaped
        assert not list(root.iter("{*}script")), name
    pick_one = item(package, "pick-one")
    prompt = pick_one.find("q:qti-item-body/q:div", NS)
    assert prompt is not None
    hostile_html = html.fragment_fromstring(to_html(HOSTILE), create_parent="div").text_content()
    assert "".join(prompt.itertext()) == hostile_html
    assert "".join(pick_one.find(".//q:qti-modal-feedback", NS).itertext()) == hostile_html  # type: ignore[union-attr]
    assert pick_one.get("title") == HOSTILE
    assert parse(package["assessment.xml"]).get("title") == HOSTILE
    lom = parse(package["imsmanifest.xml"])
    assert values(lom, ".//lom:title/lom:string") == [HOSTILE]
    short = item(package, "format-name")
    assert values(response(short), ".//q:qti-value") == [HOSTILE]
    assert re.fullmatch(
        short.find(".//q:qti-pattern-match", NS).get("pattern", ""),  # type: ignore[union-attr]
        HOSTILE,
    )
    gap = item(package, "index-gaps")
    assert [c.text for c in gap.iterfind(".//q:qti-inline-choice", NS)][1] == HOSTILE


def test_formulas_and_images_in_a_drop_down_are_reported_as_lost() -> None:
    base = quiz(TYPES, "en", "every-type").model_dump(mode="json")
    options = base["questions"][7]["gaps"]["where"]["options"]
    options[0]["text"] = "$\\frac{1}{2}$ file"
    options[1]["text"] = "![a box](../images/box.png)"
    base["questions"][0]["prompt"] = '![x](../images/x.png "tip") ~~old~~\n\n3. third'
    changed = Quiz.model_validate(base)
    losses = list(renderer().losses(QuizTranslations(changed.id, {"en": changed}, ["en"]), "en"))
    assert [(loss.question, loss.what) for loss in losses] == [
        (0, "loses an image's title (its tooltip) in qti3: QTI's XHTML has no place for it"),
        (
            0,
            "loses strikethrough (the text shows, not struck through) in qti3: QTI's XHTML has no place for it",
        ),
        (
            0,
            "loses the number a list starts at (it starts at 1) in qti3: QTI's XHTML has no place for it",
        ),
        (
            7,
            "shows the TeX of the formula in option 'a' of gap 'where': a QTI drop-down holds plain text",
        ),
        (
            7,
            "shows the alt text of the image in option 'b' of gap 'where': a QTI drop-down holds plain text",
        ),
    ]
    every = quiz(TYPES, "ur", "every-type")
    assert not list(renderer().losses(QuizTranslations(every.id, {"ur": every}, ["ur"]), "ur"))


def test_the_command_line_builds_packages(tmp_path: Path, cli: Any) -> None:
    run = cli("build", TYPES, "-o", tmp_path, "-f", "qti3")
    assert run.code == 0, run.out + run.err
    assert sorted(p.name for p in (tmp_path / "qti3").glob("*/*.zip")) == ["every-type.zip"] * 2


# ------------------------------------------------------------------ the official IMS schemas


def _validator() -> Any:
    """scripts/qti3-validate as a module."""
    path = REPO / "scripts" / "qti3-validate"
    loader = importlib.machinery.SourceFileLoader("qti3_validate", str(path))
    spec = importlib.util.spec_from_loader("qti3_validate", loader)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


@pytest.mark.skipif(
    not os.environ.get("QTI3_XSD_DIR"),
    reason="the IMS XSDs may not be redistributed: set QTI3_XSD_DIR to a folder of them "
    "(see scripts/qti3-validate)",
)
def test_packages_are_valid_against_the_ims_schemas(tmp_path: Path) -> None:
    validate = _validator()
    schemas = validate.Schemas(Path(os.environ["QTI3_XSD_DIR"]))
    packages = validate.built_packages(tmp_path)
    assert len(packages) == 8
    assert [error for package in packages for error in schemas.errors(package)] == []


def test_the_validator_reports_an_invalid_file(tmp_path: Path) -> None:
    """The validator's checks of a package, with a schema that takes only the manifest: a file
    missing from the zip and one not in the manifest are named."""
    validate = _validator()
    package = tmp_path / "p.zip"
    with zipfile.ZipFile(package, "w") as archive:
        archive.writestr(
            "imsmanifest.xml",
            f'<manifest xmlns="{CP[1:-1]}"><resources><resource type="webcontent">'
            '<file href="gone.png"/></resource></resources></manifest>',
        )
        archive.writestr("extra.xml", "<x/>")
    schemas = object.__new__(validate.Schemas)
    schemas.cp = etree.XMLSchema(
        etree.fromstring(
            f'<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="{CP[1:-1]}">'
            '<xs:element name="manifest"><xs:complexType><xs:sequence>'
            '<xs:any processContents="skip" minOccurs="0" maxOccurs="unbounded"/>'
            "</xs:sequence></xs:complexType></xs:element></xs:schema>"
        )
    )
    errors = list(schemas.errors(package))
    assert len(errors) == 2
    assert any("gone.png is listed in the manifest but not in the zip" in e for e in errors)
    assert any("extra.xml is in the zip but not in the manifest" in e for e in errors)


# -------------------------------------------------------------------------------- QTI 2.1
#
# `-f qti21`: the same packages translated to QTI 2.1, each item compared with its
# 3.0 twin by the names each version gives (written out here, not derived from the renderer's).

ASI21 = "{http://www.imsglobal.org/xsd/imsqti_v2p1}"
CP11 = "{http://www.imsglobal.org/xsd/imscp_v1p1}"
MATHML = "{http://www.w3.org/1998/Math/MathML}"
NS21 = {"q": ASI21[1:-1], "cp": CP11[1:-1], "lom": LOM[1:-1]}
ISOLATES = dict.fromkeys(map(ord, "\u2066\u2067\u2068\u2069"))
# The 3.0 types' packages with the default options, as built before 2.1 existed: 3.0 stays
# these bytes (when a writer changes them on purpose, write the new hashes here).
QTI30_SHA256 = {
    "en/every-type.zip": "aff42ddb7613f55615d2a0e903aa475ceac4611457367ae6468ffc58d9bba6dc",
    "ur/every-type.zip": "0bb1fc853fb090e48ce1595dc3c5e8f064dac402da1ed18426e27bb611290f37",
}


def built21(folder: Path, out: Path, *options: str) -> dict[str, Package]:
    """Every package `quizbank build -f qti21` writes into qti21/, unzipped."""
    return built(folder, out, *options, fmt="qti21")


@pytest.fixture(scope="module")
def types21(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Package]:
    return built21(TYPES, tmp_path_factory.mktemp("types21"))


@pytest.fixture(scope="module")
def media21(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Package]:
    return built21(MEDIA, tmp_path_factory.mktemp("media21"))


@pytest.fixture(scope="module")
def bundled21(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Package]:
    return built21(REPO / "content", tmp_path_factory.mktemp("content21"), "qti21.bank=true")


def values21(element: etree._Element, path: str) -> list[str]:
    return [value.text or "" for value in element.iterfind(path, NS21)]


def renderer21() -> Qti21Renderer:
    return Qti21Renderer(Qti3Options())


def test_qti30_output_is_the_same_bytes_as_before_21(types: dict[str, Package]) -> None:
    translations = QuizTranslations(
        "every-type", {lang: quiz(TYPES, lang, "every-type") for lang in ("en", "ur")}, ["en"]
    )
    for name, digest in QTI30_SHA256.items():
        built_zip = renderer().package(translations, name.split("/")[0])
        assert hashlib.sha256(built_zip).hexdigest() == digest, name
        assert built_zip == write_zip(types[name]), name  # and as `quizbank build` writes it


def _files21(packages: dict[str, Package]) -> list[tuple[str, str, etree._Element]]:
    return [
        (where, name, parse(data))
        for where, package in packages.items()
        for name, data in package.items()
        if name.endswith(".xml")
    ]


def test_qti21_files_are_in_21s_namespaces_only(
    types21: dict[str, Package], media21: dict[str, Package], bundled21: dict[str, Package]
) -> None:
    files = _files21(types21 | media21 | bundled21)
    assert len(types21) == 2 and len(media21) == 2 and len(bundled21) == 6
    for where, name, root in files:
        if name == "imsmanifest.xml":
            assert root.tag == f"{CP11}manifest", where
            assert {r.get("type") for r in root.iterfind(".//cp:resource", NS21)} <= {
                "imsqti_test_xmlv2p1",
                "imsqti_item_xmlv2p1",
                "webcontent",
            }, where
            assert values21(root, "cp:metadata/cp:schemaversion") == ["2.1"]
            assert {etree.QName(e).namespace for e in root.iter()} <= {CP11[1:-1], LOM[1:-1]}
            continue
        assert root.tag in (f"{ASI21}assessmentItem", f"{ASI21}assessmentTest"), (where, name)
        location = root.get("{http://www.w3.org/2001/XMLSchema-instance}schemaLocation", "")
        assert location.split()[0] == ASI21[1:-1]
        for element in root.iter():
            if not isinstance(element.tag, str) or element.tag.startswith(MATHML):
                continue
            assert element.tag.startswith(ASI21), (where, name, element.tag)
            local = etree.QName(element).localname
            assert not local.startswith("qti-") and "-" not in local, (where, name, local)
            assert local not in ("bdi", "contentBody"), (where, name)
            for key in element.attrib:
                plain = etree.QName(key).localname
                assert "-" not in plain and key not in ("dir", "lang"), (where, name, local, key)


def _key(root: etree._Element, names: dict[str, str], ns: dict[str, str]) -> list[Any]:
    """Each response's key and mapping, and the item's points, by the names of one version."""
    n = names
    found: list[Any] = [root.get("identifier"), root.get("title"), root.get(n["lang"])]
    for declaration in root.iterfind(f"q:{n['response']}", ns):
        mapping_element = declaration.find(f"q:{n['mapping']}", ns)
        found.append(
            (
                declaration.get("identifier"),
                declaration.get("cardinality"),
                declaration.get(n["base"]),
                [v.text for v in declaration.iterfind(f"q:{n['correct']}/q:{n['value']}", ns)],
                None
                if mapping_element is None
                else (
                    [mapping_element.get(n[bound]) for bound in ("lower", "upper", "default")],
                    [
                        (e.get(n["key"]), e.get(n["mapped"]), e.get(n["case"]))
                        for e in mapping_element.iterfind(f"q:{n['entry']}", ns)
                    ],
                ),
            )
        )
    for outcome_element in root.iterfind(f"q:{n['outcome']}", ns):
        found.append(
            (
                outcome_element.get("identifier"),
                outcome_element.get(n["base"]),
                outcome_element.get(n["max"]),
                [
                    v.text
                    for v in outcome_element.iterfind(f"q:{n['default_value']}/q:{n['value']}", ns)
                ],
            )
        )
    return found


NAMES30 = {
    "lang": XML_LANG, "response": "qti-response-declaration", "mapping": "qti-mapping",
    "base": "base-type", "correct": "qti-correct-response", "value": "qti-value",
    "lower": "lower-bound", "upper": "upper-bound", "default": "default-value",
    "key": "map-key", "mapped": "mapped-value", "case": "case-sensitive",
    "entry": "qti-map-entry", "outcome": "qti-outcome-declaration",
    "max": "normal-maximum", "default_value": "qti-default-value",
}  # fmt: skip
NAMES21 = {
    "lang": XML_LANG, "response": "responseDeclaration", "mapping": "mapping",
    "base": "baseType", "correct": "correctResponse", "value": "value",
    "lower": "lowerBound", "upper": "upperBound", "default": "defaultValue",
    "key": "mapKey", "mapped": "mappedValue", "case": "caseSensitive",
    "entry": "mapEntry", "outcome": "outcomeDeclaration",
    "max": "normalMaximum", "default_value": "defaultValue",
}  # fmt: skip


def _camel(name: str) -> str:
    first, *rest = name.removeprefix("qti-").split("-")
    return first + "".join(part.title() for part in rest)


def test_qti21_items_have_their_30_twins_keys_mappings_and_points(
    types: dict[str, Package],
    types21: dict[str, Package],
    media: dict[str, Package],
    media21: dict[str, Package],
) -> None:
    for packages30, packages21 in ((types, types21), (media, media21)):
        assert packages30.keys() == packages21.keys()
        for where, package in packages30.items():
            twin = packages21[where]
            assert package.keys() == twin.keys(), where
            for name in package:
                if not name.startswith("items/"):
                    if not name.endswith(".xml"):
                        assert package[name] == twin[name], (where, name)  # images as they are
                    continue
                item30, item21 = parse(package[name]), parse(twin[name])
                assert _key(item21, NAMES21, NS21) == _key(item30, NAMES30, NS), (where, name)
                rules30 = item30.find("q:qti-response-processing", NS)
                rules21 = item21.find("q:responseProcessing", NS21)
                assert rules30 is not None and rules21 is not None
                assert [
                    (etree.QName(e).localname, sorted(e.attrib.values()), e.text)
                    for e in rules21.iter()
                ] == [
                    (_camel(etree.QName(e).localname), sorted(e.attrib.values()), e.text)
                    for e in rules30.iter()
                ], (where, name)
                # the same texts, but for the isolates that say what `bdi` and `dir` said
                text30 = "".join(item30.itertext())
                assert "".join(item21.itertext()).translate(ISOLATES) == text30, (where, name)


def test_qti21_translates_what_21_says_otherwise(types21: dict[str, Package]) -> None:
    essay = parse(types21["en/every-type.zip"]["items/why-weights-only.xml"])
    score = essay.find("q:outcomeDeclaration[@identifier='SCORE']", NS21)
    assert score is not None and score.get("externalScored") is None
    rubric = essay.find(".//q:rubricBlock", NS21)
    assert rubric is not None and rubric.get("view") == "scorer"
    assert [etree.QName(child).localname for child in rubric] == ["div"]  # no contentBody
    feedback = essay.find("q:modalFeedback", NS21)
    assert feedback is not None and feedback.get("showHide") == "show"
    assert [etree.QName(child).localname for child in feedback] == ["div"]
    urdu = parse(types21["ur/every-type.zip"]["items/pick-one.xml"])
    body = urdu.find("q:itemBody", NS21)
    assert body is not None and body.get(XML_LANG) == "ur" and body.get("dir") is None
    test = parse(types21["en/every-type.zip"]["assessment.xml"])
    assert test.find("q:testPart", NS21).get("navigationMode") == "nonlinear"  # type: ignore[union-attr]
    refs = test.findall(".//q:assessmentSection/q:assessmentItemRef", NS21)
    assert len(refs) == 9
    summed = test.findall("q:outcomeProcessing//q:testVariables", NS21)
    assert [v.get("variableIdentifier") for v in summed] == ["SCORE", "MAXSCORE"]


def test_qti21_isolates_what_bdi_and_dir_isolated() -> None:
    base = quiz(TYPES, "ur", "every-type").model_dump(mode="json")
    base["questions"][0]["prompt"] = "فائل `model.safetensors` میں PyTorch ہے"
    changed = Quiz.model_validate(base)
    package = Qti21Renderer(Qti3Options()).files(
        QuizTranslations(changed.id, {"ur": changed}, ["ur"]), "ur"
    )
    prompt = parse(package["items/pick-one.xml"]).find("q:itemBody/q:div/q:p", NS21)
    assert prompt is not None
    code = prompt.find("q:code", NS21)
    assert code is not None and code.text == "\u2066model.safetensors\u2069"
    assert code.get(XML_LANG) == "en" and code.get("dir") is None
    span = prompt.find("q:span", NS21)
    assert span is not None and span.text == "\u2068PyTorch\u2069" and span.get(XML_LANG) == "en"


def test_qti21_hostile_text_stays_escaped_and_intact() -> None:
    base = quiz(TYPES, "en", "every-type").model_dump(mode="json")
    questions = base["questions"]
    questions[0]["prompt"] = HOSTILE
    questions[0]["options"][1]["feedback"] = HOSTILE
    questions[4]["answer"] = [HOSTILE]
    questions[7]["gaps"]["where"]["options"][1]["text"] = HOSTILE
    questions[8]["grader_info"] = HOSTILE
    for question in questions:
        question["explanation"] = HOSTILE
    hostile = Quiz.model_validate(base | {"title": HOSTILE, "description": HOSTILE})
    translations = QuizTranslations(hostile.id, {"en": hostile}, ["en"])
    package30 = renderer().files(translations, "en")
    package = renderer21().files(translations, "en")
    for name, data in package.items():
        root = parse(data)
        assert not list(root.iter("{*}script")), name
        assert b"<script" not in data, name
        if name != "imsmanifest.xml":
            assert "".join(root.itertext()) == "".join(parse(package30[name]).itertext()), name
    pick_one = item(package, "pick-one")
    assert pick_one.get("title") == HOSTILE
    hostile_html = html.fragment_fromstring(to_html(HOSTILE), create_parent="div").text_content()
    prompt = pick_one.find("q:itemBody/q:div", NS21)
    assert prompt is not None and "".join(prompt.itertext()) == hostile_html
    assert parse(package["assessment.xml"]).get("title") == HOSTILE
    assert values(parse(package["imsmanifest.xml"]), ".//lom:title/lom:string") == [HOSTILE]
    short = item(package, "format-name")
    assert values21(short, "q:responseDeclaration//q:value") == [HOSTILE]
    pattern = short.find(".//q:patternMatch", NS21)
    assert pattern is not None and re.fullmatch(pattern.get("pattern", ""), HOSTILE)
    gap = item(package, "index-gaps")
    assert [c.text for c in gap.iterfind(".//q:inlineChoice", NS21)][1] == HOSTILE


def test_qti21_reports_a_right_to_left_quizs_direction_as_lost() -> None:
    every = {lang: quiz(TYPES, lang, "every-type") for lang in ("en", "ur")}
    translations = QuizTranslations("every-type", every, ["en"])
    assert list(renderer21().losses(translations, "en")) == []
    assert [(loss.question, loss.what) for loss in renderer21().losses(translations, "ur")] == [
        (
            None,
            "loses the right-to-left direction of its ur text in QTI 2.1, which has no `dir` "
            "attribute (the text keeps its xml:lang, and a left-to-right run in it stays "
            "isolated)",
        )
    ]
    assert list(renderer().losses(translations, "ur")) == []


def test_qti21_bank_is_one_21_package_of_every_quiz(bundled21: dict[str, Package]) -> None:
    for lang in ("en", "ur"):
        bank = bundled21[f"bank/{lang}.zip"]
        manifest = parse(bank["imsmanifest.xml"])
        assert manifest.tag == f"{CP11}manifest"
        tests = manifest.findall("cp:resources/cp:resource[@type='imsqti_test_xmlv2p1']", NS21)
        assert sorted(t.get("href") for t in tests) == [
            "checkpoint-sharding/assessment.xml",
            "resuming-training-in-practice/assessment.xml",
        ]
        hrefs = {f.get("href") for f in manifest.iterfind(".//cp:file", NS21)}
        assert hrefs == set(bank) - {"imsmanifest.xml"}
        for quiz_id in ("checkpoint-sharding", "resuming-training-in-practice"):
            alone = bundled21[f"{lang}/{quiz_id}.zip"]
            for name in alone:
                if name.startswith("items/"):
                    assert parse(bank[f"{quiz_id}/{name}"]).tag == f"{ASI21}assessmentItem"


@pytest.mark.skipif(
    not os.environ.get("QTI21_XSD_DIR"),
    reason="the IMS XSDs may not be redistributed: set QTI21_XSD_DIR to a folder of the QTI 2.1 "
    "ones (see scripts/qti3-validate)",
)
def test_qti21_packages_are_valid_against_the_ims_schemas(tmp_path: Path) -> None:
    validate = _validator()
    schemas = validate.Schemas(Path(os.environ["QTI21_XSD_DIR"]), "2.1")
    packages = validate.built_packages(tmp_path, "2.1")
    assert len(packages) == 8
    assert [error for package in packages for error in schemas.errors(package)] == []
