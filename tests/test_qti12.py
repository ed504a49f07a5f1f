"""Canvas QTI 1.2 packages (`qti12`): the zip's layout as Canvas's QTI import and its own QTI
export have it (zipfile), every file well-formed (lxml), each question's key checked by
evaluating its respconditions as QTI 1.2 defines them, points and feedback, images as files of the
package, formulas as TeX for Canvas's MathJax, Urdu in right-to-left containers, hostile text
escaped and intact, and what Canvas cannot carry reported.

With QUIZBANK_QTI_MIGRATION_TOOL set to a checkout of instructure/QTIMigrationTool (the converter
Canvas runs on a QTI 1.2 upload), a last test converts the packages and reads the QTI 2.1 it
writes with the selectors of Canvas's importer (gems/plugins/qti_exporter)."""

from __future__ import annotations

import io
import os
import re
import shutil
import subprocess
import sys
import zipfile
from collections.abc import Mapping
from functools import cache
from html import unescape
from pathlib import Path, PurePosixPath
from typing import Any

import pytest
from conftest import REPO
from lxml import etree
from lxml import html as lxml_html
from quizbank_renderers.qti12 import Qti12Options, Qti12Renderer

from quizbank.build import BuildRequest, build
from quizbank.errors import RendererError
from quizbank.images import SVG, Image
from quizbank.loader import load_quiz
from quizbank.model import Quiz
from quizbank.registry import discover_renderers
from quizbank.renderer import QuizTranslations

TYPES = REPO / "tests" / "fixtures" / "types"
MEDIA = REPO / "tests" / "fixtures" / "media"
QTI = "http://www.imsglobal.org/xsd/ims_qtiasiv1p2"
NS = {"q": QTI, "m": "http://www.imsglobal.org/xsd/imsccv1p1/imscp_v1p1"}
CANVAS = "{http://canvas.instructure.com/xsd/cccv1p0}"
WJ = "\u2060"
NUMBER = re.compile(r"[0-9]{4,7}")
SQUARE = Image(
    PurePosixPath("images/square.svg"),
    SVG,
    b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 4 4"><rect width="4" height="4"/></svg>',
)
GRID = Image(
    PurePosixPath("images/grid.png"), "image/png", (MEDIA / "images/grid.png").read_bytes()
)


# --------------------------------------------------------------------------------------- helpers


def _translations(
    quizzes: list[Quiz], images: Mapping[str, Mapping[str, Image]] | None = None
) -> QuizTranslations:
    return QuizTranslations(
        quizzes[0].id, {q.lang: q for q in quizzes}, [q.lang for q in quizzes], images or {}
    )


def _zips(translations: QuizTranslations, **options: Any) -> dict[str, bytes]:
    renderer = Qti12Renderer(Qti12Options(**options))
    return {str(out.path): out.content for out in renderer.render_quiz(translations)}


class Package:
    """One zip, read as Canvas reads it: the manifest, the assessment it names, the settings."""

    def __init__(self, data: bytes) -> None:
        self.zip = zipfile.ZipFile(io.BytesIO(data))
        self.names = self.zip.namelist()
        self.manifest = etree.fromstring(self.zip.read("imsmanifest.xml"))
        (resource,) = self.manifest.iterfind(".//m:resource[@type='imsqti_xmlv1p2']", NS)
        self.ident = resource.get("identifier")
        self.assessment = etree.fromstring(self.zip.read(resource.find("m:file", NS).get("href")))
        self.meta = etree.fromstring(self.zip.read(f"{self.ident}/assessment_meta.xml"))

    def item(self, question_id: str) -> etree._Element:
        (item,) = self.assessment.iterfind(f".//q:item[@ident='{self.ident}_{question_id}']", NS)
        return item

    def items(self) -> list[etree._Element]:
        return list(self.assessment.iterfind(".//q:item", NS))


def _field(item: etree._Element, label: str) -> str:
    for field in item.iterfind("q:itemmetadata/q:qtimetadata/q:qtimetadatafield", NS):
        if field.findtext("q:fieldlabel", namespaces=NS) == label:
            return field.findtext("q:fieldentry", namespaces=NS) or ""
    raise KeyError(label)


def _prompt(item: etree._Element) -> str:
    return item.findtext("q:presentation/q:material/q:mattext", namespaces=NS) or ""


def _labels(item: etree._Element, respident: str = "response1") -> list[tuple[str, str]]:
    """Each choice of a response: its ident and its text (HTML or plain)."""
    (lid,) = item.iterfind(f".//q:response_lid[@ident='{respident}']", NS)
    return [
        (label.get("ident"), label.findtext(".//q:mattext", namespaces=NS) or "")
        for label in lid.iterfind(".//q:response_label", NS)
    ]


def _text_of(html: str) -> str:
    """What a browser shows of an HTML text (its text content)."""
    return str(lxml_html.fragment_fromstring(html, create_parent="div").text_content())


def _feedback(item: etree._Element) -> dict[str, str]:
    return {
        fb.get("ident"): fb.findtext(".//q:mattext", namespaces=NS) or ""
        for fb in item.iterfind("q:itemfeedback", NS)
    }


def _holds(condition: etree._Element, responses: Mapping[str, str | set[str]]) -> bool:
    """A QTI 1.2 condition (varequal, vargte, varlte, and, or, not, other) on the responses."""
    tag = etree.QName(condition).localname
    if tag == "other":
        return True
    if tag in ("and", "or", "not"):
        results = [_holds(child, responses) for child in condition]
        return {"and": all, "or": any}[tag](results) if tag != "not" else not results[0]
    given = responses.get(condition.get("respident"))
    value = condition.text or ""
    if given is None:
        return False
    if tag == "varequal":
        if isinstance(given, set):
            return value in given
        if condition.get("case") == "Yes":
            return given == value
        return given.lower() == value.lower()
    number, limit = float(str(given)), float(value)
    return number >= limit if tag == "vargte" else number <= limit


def _score(item: etree._Element, responses: Mapping[str, str | set[str]]) -> float:
    """SCORE after the item's respconditions, in order (`continue="No"` stops at a true one)."""
    score = 0.0
    for rc in item.iterfind("q:resprocessing/q:respcondition", NS):
        (condition,) = rc.find("q:conditionvar", NS)
        if not _holds(condition, responses):
            continue
        for setvar in rc.iterfind("q:setvar", NS):
            value = float(setvar.text or 0)
            score = score + value if setvar.get("action") == "Add" else value
        if rc.get("continue") != "Yes":
            break
    return score


def _shown_feedback(item: etree._Element, responses: Mapping[str, str | set[str]]) -> list[str]:
    shown = []
    for rc in item.iterfind("q:resprocessing/q:respcondition", NS):
        (condition,) = rc.find("q:conditionvar", NS)
        if _holds(condition, responses):
            shown += [fb.get("linkrefid") for fb in rc.iterfind("q:displayfeedback", NS)]
            if rc.get("continue") != "Yes":
                break
    return shown


@cache
def _every_type() -> dict[str, Package]:
    quizzes = [load_quiz(TYPES / lang / "every-type.yaml").quiz for lang in ("en", "ur")]
    zips = _zips(_translations([q for q in quizzes if q]))
    return {path: Package(data) for path, data in zips.items()}


def _cloze_quiz(lang: str = "en", words: str = "Pick") -> dict[str, Any]:
    """Clozes of drop-downs only and of typed gaps only, which Canvas carries."""
    return {
        "id": "clozes",
        "lang": lang,
        "title": words,
        "description": words,
        "level": "beginner",
        "questions": [
            {
                "id": "drops",
                "type": "cloze",
                "prompt": f"{words} [[size]] and [[kind]]; an author's \\[size\\] stays text.",
                "gaps": {
                    "size": {
                        "type": "single_choice",
                        "options": [
                            {"id": "s", "text": "small", "feedback": f"{words} too small"},
                            {"id": "l", "text": "large"},
                        ],
                        "answer": "l",
                    },
                    "kind": {
                        "type": "single_choice",
                        "options": [{"id": "a", "text": "index"}, {"id": "b", "text": "shard"}],
                        "answer": "b",
                    },
                },
                "points": 4,
                "explanation": words,
            },
            {
                "id": "typed",
                "type": "cloze",
                "prompt": f"{words} [[name]], [[count]].",
                "gaps": {
                    "name": {"type": "short_answer", "answer": ["safetensors", "safe\\*x"]},
                    "count": {"type": "numerical", "answer": 3},
                },
                "explanation": words,
            },
        ],
    }


# ---------------------------------------------------------------------------------------- layout


def test_each_language_is_a_zip_laid_out_as_canvas_imports_it() -> None:
    packages = _every_type()
    assert sorted(packages) == ["en/every-type.zip", "ur/every-type.zip"]
    package = packages["en/every-type.zip"]
    ident = "qb_every-type_en"
    assert package.ident == ident
    assert package.names == [
        "imsmanifest.xml",
        f"{ident}/assessment_meta.xml",
        f"{ident}/{ident}.xml",
    ]
    for info in package.zip.infolist():
        assert info.date_time == (1980, 1, 1, 0, 0, 0)
        assert info.compress_type == zipfile.ZIP_DEFLATED
    resources = {r.get("identifier"): r for r in package.manifest.iterfind(".//m:resource", NS)}
    assessment, meta = resources[ident], resources[f"{ident}_meta"]
    assert assessment.find("m:dependency", NS).get("identifierref") == f"{ident}_meta"
    assert meta.get("type") == "associatedcontent/imscc_xmlv1p1/learning-application-resource"
    # Canvas's importer finds the settings at <assessment ident>/assessment_meta.xml.
    assert meta.get("href") == meta.find("m:file", NS).get("href") == f"{ident}/assessment_meta.xml"
    assert package.manifest.findtext(".//m:metadata/m:schema", namespaces=NS) == "IMS Content"
    assert package.meta.tag == f"{CANVAS}quiz" and package.meta.get("identifier") == ident
    assert package.assessment.tag == f"{{{QTI}}}questestinterop"
    (section,) = package.assessment.iterfind("q:assessment/q:section", NS)
    assert section.get("ident") == "root_section"


def test_zips_are_the_same_bytes_every_time() -> None:
    quizzes = [load_quiz(TYPES / lang / "every-type.yaml").quiz for lang in ("en", "ur")]
    translations = _translations([q for q in quizzes if q])
    assert _zips(translations) == _zips(translations)


def test_settings_hold_the_title_points_and_an_unpublished_graded_quiz() -> None:
    meta = _every_type()["en/every-type.zip"].meta
    values = {etree.QName(child).localname: child.text for child in meta}
    # Every question but the ordering one and the cloze that mixes gap kinds.
    assert values["points_possible"] == str(1 + 1 + 1 + 2 + 1 + 3 + 1)
    assert values["title"] == "Every question type"
    assert values["quiz_type"] == "assignment" and values["available"] == "false"
    assert "One question of each type" in unescape(values["description"] or "")
    # pick-all keeps its order ("All of the above" last): Canvas shuffles all or none.
    assert values["shuffle_answers"] == "false"


def test_items_have_canvas_types_points_and_stable_idents() -> None:
    package = _every_type()["en/every-type.zip"]
    types = {item.get("ident"): _field(item, "question_type") for item in package.items()}
    assert types == {
        "qb_every-type_en_pick-one": "multiple_choice_question",
        "qb_every-type_en_pick-all": "multiple_answers_question",
        "qb_every-type_en_statement": "true_false_question",
        "qb_every-type_en_adam-beta1": "numerical_question",
        "qb_every-type_en_format-name": "short_answer_question",
        "qb_every-type_en_state-parts": "matching_question",
        "qb_every-type_en_why-weights-only": "essay_question",
    }
    assert _field(package.item("adam-beta1"), "points_possible") == "2"
    assert _field(package.item("state-parts"), "points_possible") == "3"
    assert package.item("pick-one").get("title") == "Which file holds the shard index?"
    # Children in the order of QTI 1.2's item (and Canvas's export).
    tags = [etree.QName(child).localname for child in package.item("pick-one")]
    assert tags[:3] == ["itemmetadata", "presentation", "resprocessing"]
    assert set(tags[3:]) == {"itemfeedback"}


def test_answer_idents_are_numbers_that_follow_the_option_not_its_place() -> None:
    quiz = load_quiz(TYPES / "en" / "every-type.yaml").quiz
    assert quiz is not None
    before = Package(_zips(_translations([quiz]))["en/every-type.zip"])
    question = quiz.questions[0].model_copy(
        update={"options": list(reversed(quiz.questions[0].options))}  # type: ignore[union-attr]
    )
    moved = quiz.model_copy(update={"questions": [question, *quiz.questions[1:]]})
    after = Package(_zips(_translations([moved]))["en/every-type.zip"])
    first = dict(_labels(before.item("pick-one")))
    second = dict(_labels(after.item("pick-one")))
    assert first == second and all(NUMBER.fullmatch(ident) for ident in first)
    # Feedback idents are `<answer>_fb`: Canvas files one saying `correct` as the question's own.
    assert set(_feedback(before.item("pick-one"))) == {"general_fb"} | {f"{n}_fb" for n in first}


# ------------------------------------------------------------------------------------------ keys


def test_choice_keys_and_feedback() -> None:
    package = _every_type()["en/every-type.zip"]
    one = package.item("pick-one")
    (right, right_text), (wrong, _) = _labels(one)
    assert "model.safetensors.index.json" in right_text
    assert _score(one, {"response1": right}) == 100
    assert _score(one, {"response1": wrong}) == 0
    assert _shown_feedback(one, {"response1": wrong}) == ["general_fb", f"{wrong}_fb"]
    assert "moment estimates" in _feedback(one)[f"{wrong}_fb"]
    assert "maps each parameter name" in _feedback(one)["general_fb"]
    every = package.item("pick-all")
    a, b, _, d = (ident for ident, _ in _labels(every))
    assert every.find(".//q:response_lid", NS).get("rcardinality") == "Multiple"
    assert _score(every, {"response1": {a, b}}) == 100
    assert _score(every, {"response1": {a, b, d}}) == 0
    assert _score(every, {"response1": {a}}) == 0
    statement = package.item("statement")
    (true, true_text), (false, false_text) = _labels(statement)
    assert (true_text, false_text) == ("True", "False")  # the words Canvas's importer expects
    assert _score(statement, {"response1": false}) == 100
    assert _score(statement, {"response1": true}) == 0
    assert "only tensors" in _feedback(statement)[f"{false}_fb"]


def test_numerical_short_answer_and_essay_keys() -> None:
    package = _every_type()["en/every-type.zip"]
    number = package.item("adam-beta1")
    fib = number.find(".//q:response_str/q:render_fib", NS)
    assert fib.get("fibtype") == "Decimal"
    # Canvas reads an exact answer inside an <or>, its margin from the upper bound.
    assert [etree.QName(e).localname for e in number.iterfind(".//q:conditionvar/q:or/*", NS)] == [
        "varequal",
        "and",
    ]
    for given, expected in (("0.9", 100), ("0.895", 100), ("0.905", 100), ("0.91", 0)):
        assert _score(number, {"response1": given}) == expected, given
    name = package.item("format-name")
    assert _score(name, {"response1": "safetensors"}) == 100
    assert _score(name, {"response1": "SafeTensors"}) == 100  # QTI's default: without case
    assert _score(name, {"response1": "pickle"}) == 0
    essay = package.item("why-weights-only")
    assert essay.find(".//q:response_str", NS) is not None
    assert not list(essay.iterfind(".//q:setvar", NS))  # graded by a person
    assert "grader" not in etree.tostring(essay, encoding="unicode").lower()


def test_matching_lists_every_match_once_and_each_pair_adds_its_share() -> None:
    item = _every_type()["en/every-type.zip"].item("state-parts")
    lids = list(item.iterfind(".//q:response_lid", NS))
    assert len(lids) == 3 and all(lid.get("ident").startswith("response_") for lid in lids)
    items = [lid.findtext("q:material/q:mattext", namespaces=NS) for lid in lids]
    assert "Optimizer state" in (items[0] or "")
    matches = dict((text, ident) for ident, text in _labels(item, lids[0].get("ident")))
    assert list(matches) == [
        "Adam's moment estimates",
        "The same dropout masks",
        "The learning rate at this step",
        "The model's accuracy",
    ]
    # Canvas takes a match's id from the first number of its ident: each must be its own.
    assert len({int(NUMBER.search(ident)[0]) for ident in matches.values()}) == 4  # type: ignore[index]
    right = dict(
        zip(
            [lid.get("ident") for lid in lids],
            [matches[t] for t in list(matches)[:3]],
            strict=True,
        )
    )
    assert _score(item, right) == pytest.approx(100, abs=0.02)
    wrong = {**right, lids[0].get("ident"): matches["The model's accuracy"]}
    assert _score(item, wrong) == pytest.approx(66.66, abs=0.02)


def test_clozes_are_multiple_dropdowns_or_fill_in_multiple_blanks() -> None:
    quiz = Quiz.model_validate(_cloze_quiz())
    package = Package(_zips(_translations([quiz]))["en/clozes.zip"])
    drops = package.item("drops")
    assert _field(drops, "question_type") == "multiple_dropdowns_question"
    assert _field(drops, "points_possible") == "4"
    prompt = _prompt(drops)
    # Canvas puts a drop-down where `[gap-id]` is; the author's own `[size]` is not one.
    assert "Pick [size] and [kind];" in prompt and f"[{WJ}size]" in prompt
    size = _labels(drops, "response_size")
    assert [text for _, text in size] == ["small", "large"]
    kind = _labels(drops, "response_kind")
    assert _score(drops, {"response_size": size[1][0], "response_kind": kind[1][0]}) == 100
    assert _score(drops, {"response_size": size[0][0], "response_kind": kind[1][0]}) == 50
    assert _shown_feedback(drops, {"response_size": size[0][0]})[1] == f"{size[0][0]}_fb"
    assert "too small" in _feedback(drops)[f"{size[0][0]}_fb"]
    blank = drops.find(".//q:response_lid/q:material/q:mattext", NS)
    assert (blank.get("texttype"), blank.text) == ("text/plain", "size")
    typed = package.item("typed")
    assert _field(typed, "question_type") == "fill_in_multiple_blanks_question"
    assert "[name], [count]." in _prompt(typed)
    names = _labels(typed, "response_name")
    assert [text for _, text in names] == ["safetensors", "safe*x"]  # `\*` is an asterisk
    (count,) = _labels(typed, "response_count")
    assert count[1] == "3"
    for name in names:
        assert _score(typed, {"response_name": name[0], "response_count": count[0]}) == 100


# ------------------------------------------------------------------------------- texts and media


def test_urdu_texts_are_in_right_to_left_containers() -> None:
    package = _every_type()["ur/every-type.zip"]
    assert package.ident == "qb_every-type_ur"
    for item in package.items():
        texts = [mattext.text or "" for mattext in item.iterfind(".//q:mattext", NS)]
        html = [t for t in texts if t.startswith("<")]
        assert html and all(
            t.startswith(('<div dir="rtl" lang="ur">', '<span dir="rtl" lang="ur">')) for t in html
        )
        assert not any("<bdi" in t for t in texts)  # Canvas's sanitizer has no <bdi>
    statement = package.item("statement")
    prompt = _prompt(statement)
    assert '<span dir="ltr" lang="en">Safetensors</span>' in prompt
    assert "فائلیں" in prompt
    # Canvas shows a true/false question's stored `True` and `False`: in Urdu, two choices.
    assert _field(statement, "question_type") == "multiple_choice_question"
    (true, true_text), (false, false_text) = _labels(statement)
    assert (true_text, false_text) == (
        '<span dir="rtl" lang="ur">درست</span>',
        '<span dir="rtl" lang="ur">غلط</span>',
    )
    assert _score(statement, {"response1": false}) == 100
    assert _score(statement, {"response1": true}) == 0


def _media_package(lang: str) -> Package:
    loaded = {code: load_quiz(MEDIA / code / "media.yaml") for code in ("en", "ur")}
    translations = QuizTranslations(
        "media",
        {code: one.quiz for code, one in loaded.items() if one.quiz},
        list(loaded),
        {code: one.images for code, one in loaded.items()},
    )
    return Package(_zips(translations)[f"{lang}/media.zip"])


@pytest.mark.parametrize("lang", ["en", "ur"])
def test_images_are_files_of_the_package_listed_in_the_manifest(lang: str) -> None:
    package = _media_package(lang)
    images = sorted(name for name in package.names if name.startswith("images/"))
    assert len(images) == 2 and images[0].endswith(".png") and images[1].endswith(".svg")
    assert package.zip.read(images[0]) == (MEDIA / "images" / "grid.png").read_bytes()
    listed = {
        r.find("m:file", NS).get("href")
        for r in package.manifest.iterfind(".//m:resource[@type='webcontent']", NS)
    }
    assert listed == set(images)
    every_href = {f.get("href") for f in package.manifest.iterfind(".//m:file", NS)}
    assert every_href == set(package.names) - {"imsmanifest.xml"}
    sources = set()
    for mattext in package.assessment.iterfind(".//q:mattext", NS):
        sources |= set(re.findall(r'<img src="([^"]+)"', mattext.text or ""))
    assert sources == {f"%24IMS-CC-FILEBASE%24/{name}" for name in images}
    # The prompt's diagram and an option's feedback; a match's drop-down shows alt text.
    assert "%24IMS-CC-FILEBASE%24/images/shards-" in _prompt(package.item("diagram"))
    matches = [text for _, text in _labels(package.item("pick-image"), _lids(package)[0])]
    assert not any("<img" in text for text in matches)


def _lids(package: Package) -> list[str]:
    return [
        lid.get("ident") for lid in package.item("pick-image").iterfind(".//q:response_lid", NS)
    ]


@pytest.mark.parametrize("lang", ["en", "ur"])
def test_formulas_are_tex_for_canvas_mathjax(lang: str) -> None:
    package = _media_package(lang)
    xml = etree.tostring(package.assessment, encoding="unicode")
    assert "<math" not in unescape(xml)
    options = [text for _, text in _labels(package.item("diagram"))]
    formula = r"\(\frac{3}{2}\)"
    assert formula in options[1]
    if lang == "ur":
        assert f'<span dir="ltr">{formula}</span>' in options[1]
    explanation = _feedback(package.item("diagram"))["general_fb"]
    assert r"\(\displaystyle n = \left\lceil \frac{S}{B} \right\rceil\)" in explanation
    money = _text_of(_feedback(package.item("adam-bytes"))["general_fb"])
    assert money.count("$") == 3 and money.count(r"\(") == 1  # money stays money


def test_an_image_the_renderer_was_not_given_is_an_error() -> None:
    quiz = Quiz.model_validate(
        {
            **_cloze_quiz(),
            "description": "![A square](../images/square.svg)",
        }
    )
    with pytest.raises(RendererError, match=r"square\.svg was not given"):
        _zips(_translations([quiz]))
    given = _zips(_translations([quiz], {"en": {"../images/square.svg": SQUARE}}))
    package = Package(given["en/clozes.zip"])
    assert any(name.startswith("images/square-") for name in package.names)
    assert "%24IMS-CC-FILEBASE%24/images/square-" in unescape(
        package.meta.findtext(f"{CANVAS}description") or ""
    )


# (A text that shows `\\(` or `$$`, which an LMS's MathJax would read, is refused by validate.)
HOSTILE = "A <script>alert(1)</script> & B ]]> @@PLUGINFILE@@/x \\$IMS-CC-FILEBASE\\$/y شارڈ & فائل"
# What a learner reads: the Markdown's escapes undone.
HOSTILE_SHOWN = (
    "A <script>alert(1)</script> & B ]]> @@PLUGINFILE@@/x $IMS-CC-FILEBASE$/y شارڈ & فائل"
)


def _hostile(lang: str) -> dict[str, Any]:
    words = HOSTILE
    return {
        "id": "hostile",
        "lang": lang,
        "title": "<b>Title</b> & ]]>",
        "description": f"{words}\n\nline two",
        "level": "beginner",
        "questions": [
            {
                "id": "choice",
                "type": "single_choice",
                "prompt": f"{words}\n\nSecond paragraph",
                "options": [
                    {"id": "correct", "text": words, "feedback": words},
                    {"id": "wrong", "text": "`<tag>`"},
                ],
                "answer": "correct",
                "explanation": words,
            },
            {
                "id": "typed",
                "type": "short_answer",
                "prompt": words,
                "answer": ["<b>&]]>", "شارڈ"],
                "explanation": words,
            },
            {
                "id": "match",
                "type": "matching",
                "prompt": words,
                "pairs": [
                    {"id": "a", "item": words, "match": "<i>&]]>"},
                    {"id": "b", "item": "b", "match": "شارڈ"},
                ],
                "explanation": words,
            },
        ],
    }


@pytest.mark.parametrize("lang", ["en", "ur"])
def test_hostile_text_survives_escaped_and_intact(lang: str) -> None:
    quiz = Quiz.model_validate(_hostile(lang))
    data = _zips(_translations([quiz]))[f"{lang}/hostile.zip"]
    package = Package(data)  # every file parses: well-formed
    raw = package.zip.read(f"{package.ident}/{package.ident}.xml").decode()
    assert "<script" not in raw and "]]>" not in raw
    assert package.assessment.find("q:assessment", NS).get("title") == "<b>Title</b> & ]]>"
    choice = package.item("choice")
    prompt = _prompt(choice)
    assert "<script" not in prompt
    assert _text_of(prompt).replace(WJ, "") == f"{HOSTILE_SHOWN}\nSecond paragraph"
    assert "&#64;&#64;" in prompt  # the core's: shows @@PLUGINFILE@@
    # Nothing Canvas would read as its own: no placeholder, no MathJax delimiter.
    assert "$IMS-CC-FILEBASE$" not in prompt and "IMS-CC-FILEBASE" in prompt
    assert not any(mark in prompt for mark in ("\\(", "\\)", "$$"))
    assert "</p>\n<p>" in prompt  # the newline between paragraphs kept
    (right, right_text), (_, code) = _labels(choice)
    assert _text_of(right_text).replace(WJ, "") == HOSTILE_SHOWN
    assert "&lt;tag&gt;</code>" in code
    assert _text_of(_feedback(choice)[f"{right}_fb"]).replace(WJ, "") == HOSTILE_SHOWN
    # The options are `correct` and `wrong`: no feedback ident says so (Canvas would file it).
    assert set(_feedback(choice)) == {"general_fb", f"{right}_fb"}
    typed = package.item("typed")
    assert _score(typed, {"response1": "<b>&]]>"}) == 100
    assert _score(typed, {"response1": "شارڈ"}) == 100
    match = package.item("match")
    lid = match.find(".//q:response_lid", NS).get("ident")
    isolates = str.maketrans("", "", "\u2066\u2067\u2068\u2069")  # Latin runs, on an Urdu page
    assert [text.translate(isolates) for _, text in _labels(match, lid)] == ["<i>&]]>", "شارڈ"]
    meta_description = package.meta.findtext(f"{CANVAS}description") or ""
    assert "<script" not in meta_description
    assert _text_of(meta_description).replace(WJ, "") == f"{HOSTILE_SHOWN}\nline two"


# ---------------------------------------------------------------------------------------- losses


def _losses(translations: QuizTranslations, lang: str, **options: Any) -> dict[int, str]:
    renderer = Qti12Renderer(Qti12Options(**options))
    found = [(loss.question, loss.what) for loss in renderer.losses(translations, lang)]
    assert len(found) == len({index for index, _ in found})  # one Loss per question
    return dict(found)


def test_what_canvas_cannot_carry_is_reported() -> None:
    quiz = load_quiz(TYPES / "en" / "every-type.yaml").quiz
    assert quiz is not None
    losses = _losses(_translations([quiz]), "en")
    assert losses == {
        None: "keeps every question's answers in order: Canvas shuffles all of a quiz's answers "
        "or none, and question 2 (pick-all) keeps its order",
        4: "accepts safe*tensors only as written: Canvas has no wildcards",
        6: "is left out: qti12 has no ordering questions",
        7: "is left out: Canvas has no question with both drop-down and typed gaps "
        "(multiple dropdowns or fill in multiple blanks)",
        8: "leaves out its grader information: a Canvas essay question has no text that only "
        "graders see, and leaves out its word limits: Canvas Classic essay questions have none",
    }
    assert 0 not in _losses(_translations([quiz]), "en", shuffle_answers=False)
    package = Package(_zips(_translations([quiz]))["en/every-type.zip"])
    assert len(package.items()) == 7  # neither the ordering question nor the mixed cloze


def test_typed_gaps_and_grading_losses_are_reported() -> None:
    data = _cloze_quiz()
    data["questions"][1]["gaps"]["name"]["case_sensitive"] = True
    data["questions"][1]["gaps"]["count"]["tolerance"] = 0.5
    data["questions"].append(
        {
            "id": "many",
            "type": "multiple_choice",
            "prompt": "Pick",
            "options": [{"id": k, "text": k.upper()} for k in "abcd"],
            "answer": ["a"],
            "explanation": "x",
        }
    )
    losses = _losses(_translations([Quiz.model_validate(data)]), "en")
    assert losses[1] == (  # `safe\\*x` is an asterisk, not a wildcard
        "ignores case in gap name: Canvas compares typed answers without it, and takes gap "
        "count as text: a Canvas blank accepts 3 only as written, not any number within 0.5 of it"
    )
    assert losses[2] == (
        "is graded as Canvas grades multiple answers: each right option picked earns 100% of "
        "its points and each wrong one takes as much off (quizbank takes 33.33% off)"
    )
    assert 0 not in losses  # drop-downs are plain text already


def test_a_strict_build_fails_on_a_loss_and_a_build_writes_zips(tmp_path: Path) -> None:
    content = tmp_path / "content"
    shutil.copytree(TYPES, content)
    registry = discover_renderers()
    assert registry.get("qti12").cls is Qti12Renderer
    out = tmp_path / "dist"
    strict = build(
        BuildRequest(paths=[content], out_dir=out, formats=("qti12",), strict=True), registry
    )
    assert strict.report.has_errors and not (out / "qti12").exists()
    result = build(BuildRequest(paths=[content], out_dir=out, formats=("qti12",)), registry)
    assert not result.report.has_errors
    warnings = [d.format() for d in result.report.diagnostics]
    assert any(
        "qti12: question 7 (resume-order) is left out: qti12 has no ordering questions" in w
        for w in warnings
    )
    for lang in ("en", "ur"):
        assert zipfile.is_zipfile(out / "qti12" / lang / "every-type.zip")


def test_bundled_content_renders() -> None:
    for path in sorted((REPO / "content" / "en").glob("*.yaml")):
        loaded = {lang: load_quiz(REPO / "content" / lang / path.name) for lang in ("en", "ur")}
        translations = QuizTranslations(
            path.stem,
            {lang: one.quiz for lang, one in loaded.items() if one.quiz},
            list(loaded),
            {lang: one.images for lang, one in loaded.items()},
        )
        for data in _zips(translations).values():
            package = Package(data)
            assert package.items()
            for item in package.items():
                assert _field(item, "question_type").endswith("_question")


# ------------------------------------------------------------------ Canvas's converter, if present

TOOL = os.environ.get("QUIZBANK_QTI_MIGRATION_TOOL")


@pytest.mark.skipif(
    not TOOL, reason="set QUIZBANK_QTI_MIGRATION_TOOL to a QTIMigrationTool checkout"
)
def test_canvas_converter_reads_every_question(tmp_path: Path) -> None:
    """QTIMigrationTool, run as Canvas runs it, then Canvas importer's own selectors."""
    quizzes = [load_quiz(TYPES / "en" / "every-type.yaml").quiz, Quiz.model_validate(_cloze_quiz())]
    found: dict[str, etree._Element] = {}
    for quiz in quizzes:
        assert quiz is not None
        data = _zips(_translations([quiz]))[f"en/{quiz.id}.zip"]
        source, out = tmp_path / quiz.id, tmp_path / f"{quiz.id}-2.1"
        zipfile.ZipFile(io.BytesIO(data)).extractall(source)
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
        for path in (out / "assessmentItems").glob("*.xml"):
            root = etree.parse(str(path)).getroot()
            for element in root.iter():
                if isinstance(element.tag, str):
                    element.tag = etree.QName(element).localname
            found[root.get("identifier")] = root
    meta = {
        r.get("identifier"): r.find(".//instructureField[@name='question_type']").get("value")
        for r in found.values()
    }
    assert meta["qb_every-type_en_pick-one"] == "multiple_choice_question"
    one = found["qb_every-type_en_pick-one"]
    # choice_interaction.rb: the right answer is the one whose condition sets SCORE above 0.
    scored = [
        r.find("match/baseValue").text
        for r in one.iterfind(".//responseIf")
        if r.find("match") is not None
        and r.find("setOutcomeValue[@identifier='SCORE']") is not None
    ]
    assert len(scored) == 1 and scored[0].startswith("RESPONSE_")
    feedback_ids = {f.get("identifier") for f in one.iterfind("modalFeedback")}
    assert f"FEEDBACK_{scored[0].removeprefix('RESPONSE_')}_fb" in feedback_ids
    number = found["qb_every-type_en_adam-beta1"]
    assert number.find(".//or/stringMatch/baseValue").text == "0.9"
    assert number.find(".//or/and/customOperator[@class='varlte']/baseValue").text == "0.905"
    drops = found["qb_clozes_en_drops"]
    assert [ci.get("responseIdentifier") for ci in drops.iter("choiceInteraction")] == [
        "response_size",
        "response_kind",
    ]
    assert len(drops.findall(".//setOutcomeValue[@identifier='SCORE']/sum")) == 2
    matching = found["qb_every-type_en_state-parts"]
    assert len(matching.findall(".//responseIf//setOutcomeValue[@identifier='SCORE']/sum")) == 3
