"""IMS QTI 3.0 content packages: `qti3/<lang>/<quiz-id>.zip`, what Blackboard, Brightspace and
QTI 3 players (Citolab's qti-components, TAO) import.

A package holds, in a zip written the same way each time (entries sorted, fixed timestamps):

- `imsmanifest.xml` (IMS CP 1.2 for QTI 3): the quiz's LOM metadata (its id, title, language,
  description, tags as keywords, level as difficulty) and a resource per file: the test
  (`imsqti_test_xmlv3p0`) depends on each item, an item (`imsqti_item_xmlv3p0`) on each image it
  shows (`webcontent`);
- `assessment.xml`, the `qti-assessment-test`: one part and one section with the quiz's title,
  its description and guide as the candidate's rubric, an item reference per question, and SCORE
  and MAXSCORE summed over the items an attempt asks. A quiz's `sections` are sections within
  it, in order, each with a `qti-selection select="<pick>"` when it draws (visible with their
  title; invisible without one);
- a question with variables is its variants' items, pre-generated as every other export draws
  them (quizbank.variables), in an invisible sub-section `variants.<question-id>` that selects
  one per attempt: a sub-section counts as one in its parent's selection, so a section's pick
  draws questions, not variants. Not QTI's template processing: it would need the formula
  language in QTI's expressions and each text's computed values as printed variables with a
  format, which Citolab's player (tests/test_qti3_player_variants.py) does not run (no template
  blocks or inlines, a printed variable without its format), whereas a variant's item is an
  item like any other, scored by its own key. (That player plays items, not a test's
  selection; a delivery engine such as TAO's draws it.)
- `items/<question-id>.xml` (a variant's `items/<question-id>.<n>.xml`, identified
  `quiz.<quiz-id>.<question-id>.<n>`), a `qti-assessment-item` per question, written by its
  type's writer in qti3_types.py: the key (`qti-correct-response`, a `qti-mapping` for partial
  credit) and the response processing that sets SCORE, MAXSCORE (the question's points), option
  feedback inline (`qti-feedback-inline`), the explanation as a `qti-modal-feedback` shown once
  processed;
- `images/<name>`, each image once, named by its content (`shards-1a2b3c4d.svg`), which the
  texts address relatively (`../images/…` from an item).

Identifiers come from the quiz's and questions' ids, with a prefix where QTI needs a letter
first (an NCName): the test `quiz.<quiz-id>`, an item `quiz.<quiz-id>.<question-id>`, an option
`choice-<id>`. Texts are quizbank.markup's safe HTML made XHTML (qti3_types.xhtml), formulas
MathML; an Urdu item has `xml:lang="ur"` and `dir="rtl"` on its body.

What QTI 3 cannot carry is reported (`losses`), never dropped silently: what QTI's XHTML has no
place for (an image's title, a list's start number, strikethrough: qti3_types.LOST), and a cloze
drop-down's options, which are plain text (an image is its alt text and a formula its TeX, as in
every other export's drop-downs). Every quizbank type has its interaction (`supported_types` is
None). The packages are valid against IMS's QTI 3.0 XSDs: scripts/qti3-validate.

With `bank=true`, `qti3/bank/<lang>.zip` is one package of every quiz in the language, a test
each (renderers/packages.py merges the quizzes' packages): so that the quizzes' files do not
collide, each quiz's package then has its test and items in a folder of its own
(`<quiz-id>/assessment.xml`, `<quiz-id>/items/<question-id>.xml`; the images stay in `images/`,
shared), its LOM metadata is the bank's (its title, from content/bank.yaml or the folder's name)
and the quiz's own is the metadata of its test's resource.

The format `qti21` (`quizbank build -f qti21`, into `qti21/`) writes QTI 2.1, which more
platforms import today than 3.0 (Canvas New Quizzes, Blackboard Learn, D2L Brightspace, TAO,
Inspera, OpenOLAT, Moodle's QTI plugins): the same files, translated from the 3.0 ones
(`to_qti21`, at the end of this module) so that one writer says what both versions say: an IMS
CP 1.1 manifest with QTI 2.1's resource types, items and the test in QTI 2.1's namespace and
camelCase names. Valid against IMS's QTI 2.1 XSD too (`scripts/qti3-validate --version 2.1`).
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterable, Iterator, Mapping, Sequence
from functools import lru_cache
from pathlib import PurePosixPath
from typing import ClassVar, NamedTuple
from urllib.parse import quote

from lxml import etree
from pydantic import Field

from quizbank.errors import RendererError
from quizbank.i18n import gettext_for
from quizbank.images import Image
from quizbank.locales import is_rtl
from quizbank.markup import find_formulas, find_images, media, to_html, to_plain
from quizbank.model import (
    ChoiceGap,
    Cloze,
    Level,
    Numerical,
    Question,
    Quiz,
    Section,
    question_texts,
)
from quizbank.renderer import (
    Loss,
    OutputFile,
    QuizTranslations,
    Renderer,
    RendererOptions,
    question_line,
)
from quizbank.variables import has_variables, variant_question, variants

from .packages import MANIFEST, merge_packages, write_zip
from .qti3_types import (
    LOST,
    WRITERS,
    Context,
    Written,
    attr,
    base_value,
    html,
    number,
    outcome,
    set_outcome,
    text,
)

ASI = "http://www.imsglobal.org/xsd/imsqtiasi_v3p0"
ASI_XSD = "https://purl.imsglobal.org/spec/qti/v3p0/schema/xsd/imsqti_asiv3p0_v1p0.xsd"
CP = "http://www.imsglobal.org/xsd/qti/qtiv3p0/imscp_v1p1"
CP_XSD = "https://purl.imsglobal.org/spec/qti/v3p0/schema/xsd/imsqtiv3p0_imscpv1p2_v1p0.xsd"
LOM = "http://ltsc.ieee.org/xsd/LOM"
LOM_XSD = "https://purl.imsglobal.org/spec/md/v1p3/schema/xsd/imsmd_loose_v1p3p2.xsd"
XSI = "http://www.w3.org/2001/XMLSchema-instance"

TEST = "assessment.xml"
ITEMS = "items"
IMAGES = "images"

_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n'
# LOM's difficulty vocabulary (LOMv1.0) for quizbank's levels.
_DIFFICULTY = {Level.BEGINNER: "easy", Level.INTERMEDIATE: "medium", Level.ADVANCED: "difficult"}
_EXPLANATION = "EXPLANATION"
_SHOWN = "shown"


class Qti3Options(RendererOptions):
    """Options of the QTI 3 renderer."""

    bank: bool = Field(
        False,
        description="Also write bank/<lang>.zip, every quiz in one package for one import, a test "
        "each, each quiz's files in a folder of its own (<quiz-id>/); the package's title is the "
        "bank's, in content/bank.yaml, or the folder's name.",
    )


def test_identifier(quiz_id: str) -> str:
    return f"quiz.{quiz_id}"


def item_identifier(quiz_id: str, question_id: str) -> str:
    return f"quiz.{quiz_id}.{question_id}"


def item_path(question_id: str) -> str:
    return f"{ITEMS}/{question_id}.xml"


class Entry(NamedTuple):
    """One item of the package: the question it asks (a variant's, without variables), its
    identifier and its path in the package."""

    question: Question
    identifier: str
    path: str


def entries(quiz_id: str, question: Question) -> list[Entry]:
    """A question's items: itself, or one per variant (`quiz.<quiz-id>.<question-id>.<n>`, at
    `items/<question-id>.<n>.xml`; no id holds a dot, so no other item's name can be the same)."""
    if not (isinstance(question, Numerical | Cloze) and has_variables(question)):
        return [Entry(question, item_identifier(quiz_id, question.id), item_path(question.id))]
    return [
        Entry(
            variant_question(question, values),
            item_identifier(quiz_id, f"{question.id}.{number}"),
            item_path(f"{question.id}.{number}"),
        )
        for number, values in enumerate(variants(quiz_id, question), 1)
    ]


def image_path(image: Image) -> str:
    """An image's entry in the zip, under a name any unzip tool writes as it is."""
    return f"{IMAGES}/{image.portable_name}"


def image_href(image: Image) -> str:
    """An image's entry as a URI reference (`href`, `src`), percent-encoded: a name of letters
    beyond ASCII is found by a player that decodes what it reads."""
    return quote(image_path(image))


def shown_images(texts: Iterable[str], images: Mapping[str, Image]) -> list[Image]:
    """The images that texts show, each once, in the order they first appear."""
    if not images:
        return []
    found: dict[str, Image] = {}
    for value in texts:
        if "![" in value:
            for ref in find_images(value):
                if ref.src in images:
                    found.setdefault(images[ref.src].sha256, images[ref.src])
    return list(found.values())


@lru_cache(maxsize=64)
def _direction(lang: str) -> str:
    """The attributes of a block of content in `lang`: its language, and its direction when
    right-to-left."""
    return f' xml:lang="{attr(lang)}" dir="rtl"' if is_rtl(lang) else f' xml:lang="{attr(lang)}"'


# What every item declares and sets the same: its EXPLANATION, set once processed.
_EXPLANATION_OUTCOME = outcome(_EXPLANATION, "single", "identifier")
_EXPLANATION_SHOWN = set_outcome(_EXPLANATION, base_value("identifier", _SHOWN))


@lru_cache(maxsize=64)
def _explanation_start(lang: str) -> str:
    """The start of an item's modal feedback up to the explanation, titled in `lang`."""
    return (
        f'<qti-modal-feedback outcome-identifier="{_EXPLANATION}" identifier="{_SHOWN}" '
        f'show-hide="show" title="{attr(gettext_for(lang)("Explanation"))}"><qti-content-body>'
        f"<div{_direction(lang)}>"
    )


def _item(identifier: str, question: Question, lang: str) -> str:
    """One question (or one variant of it) as a `qti-assessment-item`."""
    written: Written = WRITERS[type(question)](question, Context(lang, question.id))
    points = number(question.points)
    scored = "" if written.scored else ' external-scored="human"'
    return (
        f"{_DECLARATION}"
        f'<qti-assessment-item xmlns="{ASI}" xmlns:xsi="{XSI}" '
        f'xsi:schemaLocation="{ASI} {ASI_XSD}" '
        f'identifier="{attr(identifier)}" '
        f'title="{attr(question_line(question))}" adaptive="false" time-dependent="false" '
        f'xml:lang="{attr(lang)}">'
        f"{written.responses}"
        f'<qti-outcome-declaration identifier="SCORE" cardinality="single" base-type="float" '
        f'normal-minimum="0" normal-maximum="{points}"{scored}>'
        "<qti-default-value><qti-value>0</qti-value></qti-default-value>"
        "</qti-outcome-declaration>"
        f"{outcome('MAXSCORE', 'single', 'float', points)}"
        f"{_EXPLANATION_OUTCOME}"
        f"{written.outcomes}"
        f"<qti-item-body{_direction(lang)}>{written.body}</qti-item-body>"
        f"<qti-response-processing>{written.processing}{_EXPLANATION_SHOWN}"
        "</qti-response-processing>"
        f"{_explanation_start(lang)}{html(question.explanation, lang)}</div>"
        "</qti-content-body></qti-modal-feedback>"
        "</qti-assessment-item>\n"
    )


def _rubric(quiz: Quiz) -> str:
    """The quiz's description and guide, for the candidate before the first item."""
    lang = quiz.lang
    guide = ""
    if quiz.guide is not None:
        link = f'<a href="{attr(str(quiz.guide.url))}">{text(to_plain(quiz.guide.title))}</a>'
        guide = f"<p>{text(gettext_for(lang)('Guide: %(link)s')) % {'link': link}}</p>"
    return (
        '<qti-rubric-block view="candidate" use="instructions"><qti-content-body>'
        f"<div{_direction(lang)}>{html(quiz.description, lang)}{guide}</div>"
        "</qti-content-body></qti-rubric-block>"
    )


def _sum_over_items(name: str) -> str:
    return set_outcome(
        name, f'<qti-sum><qti-test-variables variable-identifier="{name}"/></qti-sum>'
    )


def _ref(entry: Entry) -> str:
    return (
        f'<qti-assessment-item-ref identifier="{attr(entry.identifier)}" '
        f'href="{attr(entry.path)}"/>'
    )


def _selection(select: int) -> str:
    return f'<qti-selection select="{select}"/>'


def _asked(question: Question, items: Sequence[Entry]) -> str:
    """A question's reference, or for one with variables an invisible sub-section of its
    variants' items that selects one per attempt (a sub-section counts as one in its parent's
    selection)."""
    if not has_variables(question):
        return _ref(items[0])
    return (
        f'<qti-assessment-section identifier="{attr(f"variants.{question.id}")}" '
        f'title="{attr(question_line(question))}" visible="false">'
        f"{_selection(1)}{''.join(_ref(entry) for entry in items)}</qti-assessment-section>"
    )


def _section(section: Section, asked: Mapping[str, str]) -> str:
    """A quiz's section as a `qti-assessment-section` that selects its pick (none when it asks
    every question); visible with its title, invisible (titled by its id) without one."""
    title, visible = (to_plain(section.title), "true") if section.title else (section.id, "false")
    pick = section.pick
    select = _selection(pick) if pick is not None and pick < len(section.questions) else ""
    return (
        f'<qti-assessment-section identifier="{attr(f"section.{section.id}")}" '
        f'title="{attr(title)}" visible="{visible}">{select}'
        f"{''.join(asked[question_id] for question_id in section.questions)}"
        "</qti-assessment-section>"
    )


def _test(quiz_id: str, quiz: Quiz, items: Mapping[str, Sequence[Entry]]) -> str:
    """The `qti-assessment-test`: one section of every question (or of the quiz's sections),
    SCORE and MAXSCORE the sums over the items an attempt asks."""
    asked = {q.id: _asked(q, items[q.id]) for q in quiz.questions}
    if quiz.sections:
        content = "".join(_section(section, asked) for section in quiz.sections)
    else:
        content = "".join(asked[q.id] for q in quiz.questions)
    return (
        f"{_DECLARATION}"
        f'<qti-assessment-test xmlns="{ASI}" xmlns:xsi="{XSI}" '
        f'xsi:schemaLocation="{ASI} {ASI_XSD}" '
        f'identifier="{attr(test_identifier(quiz_id))}" title="{attr(to_plain(quiz.title))}">'
        f"{outcome('SCORE', 'single', 'float', '0')}"
        f"{outcome('MAXSCORE', 'single', 'float', '0')}"
        '<qti-test-part identifier="part-1" navigation-mode="nonlinear" '
        'submission-mode="individual">'
        f'<qti-assessment-section identifier="section-1" title="{attr(to_plain(quiz.title))}" '
        f'visible="true">{_rubric(quiz)}{content}</qti-assessment-section></qti-test-part>'
        f"<qti-outcome-processing>{_sum_over_items('SCORE')}{_sum_over_items('MAXSCORE')}"
        "</qti-outcome-processing></qti-assessment-test>\n"
    )


def _lom(quiz_id: str, quiz: Quiz) -> str:
    """The quiz's LOM metadata for the manifest."""
    lang = attr(quiz.lang)

    def string(value: str) -> str:
        return f'<imsmd:string language="{lang}">{text(value)}</imsmd:string>'

    keywords = "".join(f"<imsmd:keyword>{string(tag)}</imsmd:keyword>" for tag in quiz.tags)
    return (
        "<imsmd:lom><imsmd:general>"
        "<imsmd:identifier><imsmd:catalog>quizbank</imsmd:catalog>"
        f"<imsmd:entry>{text(quiz_id)}</imsmd:entry></imsmd:identifier>"
        f"<imsmd:title>{string(to_plain(quiz.title))}</imsmd:title>"
        f"<imsmd:language>{lang}</imsmd:language>"
        f"<imsmd:description>{string(to_plain(quiz.description))}</imsmd:description>"
        f"{keywords}</imsmd:general>"
        "<imsmd:educational><imsmd:difficulty><imsmd:source>LOMv1.0</imsmd:source>"
        f"<imsmd:value>{_DIFFICULTY[quiz.level]}</imsmd:value></imsmd:difficulty>"
        "</imsmd:educational></imsmd:lom>"
    )


def _bank_lom(lang: str, title: str) -> str:
    """The LOM metadata of a bank's package: its title and language."""
    return (
        "<imsmd:lom><imsmd:general>"
        f'<imsmd:title><imsmd:string language="{attr(lang)}">{text(title)}</imsmd:string>'
        f"</imsmd:title><imsmd:language>{attr(lang)}</imsmd:language>"
        "</imsmd:general></imsmd:lom>"
    )


def _image_identifier(image: Image) -> str:
    return f"image.{image.sha256[:16]}"


def _dependencies(images: Iterable[Image]) -> str:
    return "".join(f'<dependency identifierref="{_image_identifier(image)}"/>' for image in images)


def _manifest(
    quiz_id: str,
    quiz: Quiz,
    uses: Sequence[tuple[Entry, list[Image]]],
    test_images: Sequence[Image],
    bank: str | None = None,
) -> str:
    """The manifest: the test and the images of its rubric, each item with the images it
    shows, each image. In a bank (`bank` its title), the package's metadata is the bank's, the
    test's the quiz's, and the test and items are in the quiz's folder."""
    test_id = test_identifier(quiz_id)
    folder = "" if bank is None else f"{quiz_id}/"
    items = []
    images: dict[str, Image] = {image.sha256: image for image in test_images}
    for entry, shown in uses:
        path = folder + entry.path
        needs = _dependencies(shown)
        items.append(
            f'<resource identifier="{attr(entry.identifier)}" '
            f'type="imsqti_item_xmlv3p0" href="{attr(path)}"><file href="{attr(path)}"/>'
            f"{needs}</resource>"
        )
        images.update((image.sha256, image) for image in shown)
    test_needs = "".join(
        f'<dependency identifierref="{attr(entry.identifier)}"/>' for entry, _ in uses
    ) + _dependencies(test_images)
    files = "".join(
        f'<resource identifier="{_image_identifier(image)}" type="webcontent" '
        f'href="{attr(image_href(image))}"><file href="{attr(image_href(image))}"/></resource>'
        for image in images.values()
    )
    lom = _lom(quiz_id, quiz)
    test_lom = "" if bank is None else f"<metadata>{lom}</metadata>"
    test = attr(folder + TEST)
    return (
        f"{_DECLARATION}"
        f'<manifest xmlns="{CP}" xmlns:imsmd="{LOM}" xmlns:xsi="{XSI}" '
        f'xsi:schemaLocation="{CP} {CP_XSD} {LOM} {LOM_XSD}" '
        f'identifier="{attr(f"package.{quiz_id}")}">'
        "<metadata><schema>QTI Package</schema><schemaversion>3.0.0</schemaversion>"
        f"{lom if bank is None else _bank_lom(quiz.lang, bank)}</metadata>"
        "<organizations/><resources>"
        f'<resource identifier="{attr(test_id)}" type="imsqti_test_xmlv3p0" href="{test}">'
        f'{test_lom}<file href="{test}"/>{test_needs}</resource>'
        f"{''.join(items)}{files}</resources></manifest>\n"
    )


def _addresses(images: Mapping[str, Image], prefix: str) -> dict[str, str]:
    return {src: f"{prefix}{image_href(image)}" for src, image in images.items()}


class Qti3Renderer(Renderer[Qti3Options]):
    """A QTI 3.0 content package per quiz and language."""

    name = "qti3"
    description = "IMS QTI 3.0 content packages (zip): an item per question, an assessment test"
    version: ClassVar[str] = "3.0"  # of QTI
    extension = "zip"
    Options = Qti3Options
    supported_types = None  # QTI 3 has an interaction for every quizbank type
    quiz_loss_kinds = ("direction",)
    # A question's variants are items of which an attempt selects one, a section selects its
    # pick (`qti-selection`).
    handles_variables = True
    handles_sections = True

    def render_quiz(self, quiz: QuizTranslations) -> Iterator[OutputFile]:
        for lang in quiz.languages:
            yield OutputFile(self.output_path(lang, quiz.quiz_id), self.package(quiz, lang))

    def render(self, quiz: QuizTranslations, lang: str) -> str:
        raise NotImplementedError("a QTI 3 package is a zip of several files: use render_quiz")

    @property
    def combines(self) -> bool:
        return self.options.bank

    def combine(self, lang: str, parts: Sequence[bytes]) -> OutputFile | None:
        """`bank/<lang>.zip`: every quiz's package (each quiz's test and items in its folder)
        in one, with one manifest whose metadata is the bank's."""
        files = merge_packages(parts, f"package.bank.{lang}", self.name)
        if not files:
            return None
        return OutputFile(PurePosixPath("bank", f"{lang}.{self.extension}"), write_zip(files))

    def package(self, quiz: QuizTranslations, lang: str) -> bytes:
        """One language's package as the bytes of its zip."""
        return write_zip(self.files(quiz, lang))

    def files(self, quiz: QuizTranslations, lang: str) -> dict[str, bytes]:
        """The files of one language's package, by their path inside it (with `bank`, the test
        and items in the quiz's folder, whence the texts address the images one level up)."""
        quiz_id, current, images = quiz.quiz_id, quiz[lang], quiz.images_of(lang)
        bank = (quiz.bank_title.get(lang) or to_plain(current.title)) if self.options.bank else None
        folder, up = ("", "") if bank is None else (f"{quiz_id}/", "../")
        files: dict[str, bytes] = {}
        uses = []
        items = {question.id: entries(quiz_id, question) for question in current.questions}
        with media({lang: _addresses(images, f"{up}../")}, math="mathml"):
            for question in current.questions:
                for entry in items[question.id]:
                    try:
                        item = _item(entry.identifier, entry.question, lang).encode()
                    except (KeyError, ValueError) as exc:
                        raise RendererError(
                            f"renderer 'qti3': quiz {quiz_id!r} question {question.id!r}: {exc}"
                        ) from None
                    files[folder + entry.path] = item
                    texts = (value for _, value in question_texts(entry.question))
                    uses.append((entry, shown_images(texts, images)))
        with media({lang: _addresses(images, up)}, math="mathml"):
            files[folder + TEST] = _test(quiz_id, current, items).encode()
        test_images = shown_images([current.description], images)
        files[MANIFEST] = _manifest(quiz_id, current, uses, test_images, bank).encode()
        if self.version == "2.1":
            files = {name: to_qti21(name, data) for name, data in files.items()}
        for image in (*test_images, *(image for _, shown in uses for image in shown)):
            files[image_path(image)] = image.data
        return files

    def losses(self, quiz: QuizTranslations, lang: str) -> Iterator[Loss]:
        """What QTI's XHTML has no place for (qti3_types.LOST), the images and formulas of a
        cloze drop-down's options, which are plain text, and in QTI 2.1 a right-to-left
        language's direction."""
        yield from super().losses(quiz, lang)
        for index, question in enumerate(quiz[lang].questions):
            texts = [value for _, value in question_texts(question)]
            lost = {
                what
                for value in texts
                if _MAY_LOSE.search(value)
                for sign, what in LOST
                if sign.search(to_html(value, lang))
            }
            for what in sorted(lost):
                yield Loss(index, f"loses {what} in qti3: QTI's XHTML has no place for it")
            if isinstance(question, Cloze):
                yield from _drop_down_losses(index, question)
        if self.version == "2.1" and is_rtl(lang):
            yield Loss(
                None,
                f"loses the right-to-left direction of its {lang} text in QTI 2.1, which has no "
                "`dir` attribute (the text keeps its xml:lang, and a left-to-right run in it stays "
                "isolated)",
                kind="direction",
            )


# What a text holds before to_html can write what LOST names: an image, strikethrough, a
# numbered list.
_MAY_LOSE = re.compile(r"!\[|~~|^\s*[0-9]+[.)]", re.MULTILINE)


def _drop_down_losses(index: int, question: Cloze) -> Iterator[Loss]:
    """A cloze drop-down's options are plain text: an image is its alt text, a formula TeX."""
    for gap_id, gap in question.gaps.items():
        if not isinstance(gap, ChoiceGap):
            continue
        for option in gap.options:
            where = f"option {option.id!r} of gap {gap_id!r}"
            if "![" in option.text and find_images(option.text):
                yield Loss(index, f"shows the alt text of the image in {where}: a QTI drop-down "
                           "holds plain text")  # fmt: skip
            if find_formulas(option.text):
                yield Loss(index, f"shows the TeX of the formula in {where}: a QTI drop-down "
                           "holds plain text")  # fmt: skip


class Qti21Renderer(Qti3Renderer):
    """The same packages in QTI 2.1, into `qti21/`; built only when asked for (`-f qti21`)."""

    name = "qti21"
    description = (
        "IMS QTI 2.1 content packages (zip), which more platforms import today (Canvas New "
        "Quizzes, Blackboard Learn, D2L Brightspace, TAO, Inspera, OpenOLAT, Moodle's QTI "
        "plugins): the QTI 3 items in QTI 2.1's names, namespaces and IMS CP 1.1 manifest"
    )
    version: ClassVar[str] = "2.1"
    builds_by_default: ClassVar[bool] = False


# ------------------------------------------------------------------------------------ QTI 2.1
#
# A 2.1 package is the 3.0 package translated, so that both say the same: each XML file parsed
# (lxml) and written again with QTI 2.1's namespaces and names. QTI 3 named 2.1's elements and
# attributes in kebab case with a `qti-` prefix (`qti-choice-interaction response-identifier`
# is 2.1's `choiceInteraction responseIdentifier`), so a name is translated by rule, and the few
# constructs that differ by the tables below, each checked against 2.1's XSD (imsqti_v2p1.xsd):
# - `qti-content-body`, QTI 3's wrapper of a modal feedback's and a rubric block's content,
#   is no element in 2.1, which holds the content directly: unwrapped;
# - `external-scored` (an essay scored by a person) is new in 2.2: dropped (the 2.1 item has no
#   rule that scores it, which is how 2.1 says the same), and so is `dir` (below);
# - HTML5's `bdi`, which 2.1's XHTML lacks, is a `span` whose text is isolated as `bdi` isolates
#   it, between Unicode's FSI and PDI; HTML's `lang` is `xml:lang`; `dir`, which 2.1 has no
#   attribute for, is an inline element's isolate (`<code dir="ltr">` its text between LRI and
#   PDI) and lost on a block (`losses` reports a right-to-left quiz's), and on a formula, which
#   MathML 2 lays out left to right anyway.
# The items' response processing is explicit rules, never a template, so no template URI needs
# translating. MathML is otherwise left as it is (2.1 imports MathML 2, whose names the
# formulas use).

ASI21 = "http://www.imsglobal.org/xsd/imsqti_v2p1"
ASI21_XSD = "http://www.imsglobal.org/xsd/qti/qtiv2p1/imsqti_v2p1.xsd"
CP11 = "http://www.imsglobal.org/xsd/imscp_v1p1"
CP11_XSD = "http://www.imsglobal.org/xsd/imscp_v1p1.xsd"
LOM21_XSD = "http://www.imsglobal.org/xsd/imsmd_loose_v1p3p2.xsd"
_XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
_SCHEMA_LOCATION = f"{{{XSI}}}schemaLocation"
_UNWRAPPED = {"qti-content-body"}
MATHML = "http://www.w3.org/1998/Math/MathML"
# What 2.1 has no attribute for, dropped from a QTI element (an inline HTML element's `dir` is
# its text's isolate: _asi21)
_DROPPED_ATTRIBUTES = {"external-scored", "dir"}
_HTML5 = {"bdi": "span"}  # an HTML5 element as the 2.1 element that says the same
# An inline element's direction (and a `bdi`'s isolation) as Unicode's isolates around its text,
# which say what `dir` says there: LRI, RLI or FSI, then PDI.
_ISOLATES = {"ltr": "\u2066", "rtl": "\u2067", "auto": "\u2068"}
_PDI = "\u2069"
_INLINE = {"a", "abbr", "b", "bdi", "cite", "code", "em", "i", "kbd", "q", "samp", "small",
           "span", "strong", "sub", "sup", "var"}  # fmt: skip
_RESOURCE_TYPES = {
    "imsqti_item_xmlv3p0": "imsqti_item_xmlv2p1",
    "imsqti_test_xmlv3p0": "imsqti_test_xmlv2p1",
}
_SCHEMA_VERSION = "2.1"


# The elements' tags, in Clark notation (`{namespace}name`), start with their namespace.
_IN_ASI = f"{{{ASI}}}"
_IN_ASI21 = f"{{{ASI21}}}"
_IN_MATHML = f"{{{MATHML}}}"
_IN_CP = f"{{{CP}}}"
_IN_CP11 = f"{{{CP11}}}"


@lru_cache(maxsize=1024)  # QTI's vocabulary: a few hundred names, each translated once
def _camel(name: str) -> str:
    """A QTI 3 name as QTI 2.1's: `qti-map-entry` `mapEntry`, `map-key` `mapKey`."""
    first, *rest = name.removeprefix("qti-").split("-")
    return first + "".join(part[:1].upper() + part[1:] for part in rest)


def _asi21(element: etree._Element, name: str) -> None:
    """An ASI element (`name` its local name) and what it holds as QTI 2.1, in place (the
    namespace and names)."""
    for child in element:
        tag = child.tag
        if not isinstance(tag, str):
            continue
        if tag.startswith(_IN_ASI):
            _asi21(child, tag[len(_IN_ASI) :])
        elif tag.startswith(_IN_MATHML):
            _pop(child, "dir")  # MathML 2 lays formulas out left to right only
    if name.startswith("qti-"):
        element.tag = _IN_ASI21 + _camel(name)
        old = element.items()
        new = [(_attribute_name(k), v) for k, v in old if k not in _DROPPED_ATTRIBUTES]
        if new != old:  # a name to translate or an attribute to drop: set again, in order
            element.attrib.clear()
            for key, value in new:
                element.set(key, value)
        return
    direction = _pop(element, "dir")
    element.tag = _IN_ASI21 + _HTML5.get(name, name)
    if (lang := _pop(element, "lang")) is not None:
        element.set(_XML_LANG, lang)
    if name == "bdi" or (direction is not None and name in _INLINE):
        _isolate(element, _ISOLATES[direction or "auto"])


def _pop(element: etree._Element, key: str) -> str | None:
    """An attribute's value, removed; None when the element has none."""
    value = element.get(key)
    if value is not None:
        del element.attrib[key]
    return value


@lru_cache(maxsize=1024)  # as _camel's
def _attribute_name(key: str) -> str:
    """An ASI attribute's name in 2.1 (`xml:lang` and `xsi:` ones as they are)."""
    return key if key.startswith("{") else _camel(key)


def _isolate(element: etree._Element, start: str) -> None:
    """The element's text between an isolate's first mark and PDI."""
    element.text = start + (element.text or "")
    if len(element):
        element[-1].tail = (element[-1].tail or "") + _PDI
    else:
        element.text += _PDI


def _unwrap(root: etree._Element) -> None:
    """Each `_UNWRAPPED` element replaced by what it holds."""
    for wrapper in list(root.iter(*(_IN_ASI + name for name in _UNWRAPPED))):
        parent = wrapper.getparent()
        if parent is None:
            continue
        at = parent.index(wrapper)
        before = wrapper.getprevious()
        text = (wrapper.text or "") + (wrapper.tail or "")  # white space between elements
        if text:
            if before is None:
                parent.text = (parent.text or "") + text
            else:
                before.tail = (before.tail or "") + text
        for offset, child in enumerate(list(wrapper)):
            parent.insert(at + offset, child)
        parent.remove(wrapper)


def _rooted(old: etree._Element, tag: str, nsmap: dict[str | None, str]) -> etree._Element:
    """A new root `tag` declaring `nsmap`, with the old root's content and attributes (an
    ASI root's named as 2.1 names them) and the schema's location for its namespace: lxml
    cannot change the namespaces a root declares."""
    in_asi21 = tag.startswith(_IN_ASI21)
    root = etree.Element(tag, nsmap=nsmap)  # type: ignore[arg-type]  # (None: the default)
    for key, value in old.attrib.items():
        root.set(_attribute_name(key) if in_asi21 else key, value)
    schema = f"{ASI21} {ASI21_XSD}" if in_asi21 else f"{CP11} {CP11_XSD} {LOM} {LOM21_XSD}"
    root.set(_SCHEMA_LOCATION, schema)
    root.text = old.text
    for child in list(old):
        root.append(child)
    etree.cleanup_namespaces(root)
    return root


_THREAD = threading.local()


def _parser() -> etree.XMLParser:
    """This thread's parser of the files to translate (an lxml parser serves one thread at a
    time): made once, entities not resolved, nothing fetched."""
    parser: etree.XMLParser | None = getattr(_THREAD, "parser", None)
    if parser is None:
        parser = _THREAD.parser = etree.XMLParser(resolve_entities=False, no_network=True)
    return parser


def to_qti21(name: str, data: bytes) -> bytes:
    """A file of a QTI 3.0 package as the QTI 2.1 package's: the manifest, the test and items;
    any other file (an image) as it is."""
    if not name.endswith(".xml"):
        return data
    old = etree.fromstring(data, _parser())
    if name == MANIFEST:
        for element in old.iter(_IN_CP + "*"):
            element.tag = _IN_CP11 + element.tag[len(_IN_CP) :]
            if (kind := element.get("type")) in _RESOURCE_TYPES:
                element.set("type", _RESOURCE_TYPES[kind])
        version = old.find(f"{_IN_CP11}metadata/{_IN_CP11}schemaversion")
        if version is not None:
            version.text = _SCHEMA_VERSION
        root = _rooted(old, f"{_IN_CP11}manifest", {None: CP11, "imsmd": LOM, "xsi": XSI})
    else:
        _unwrap(old)
        for child in old:
            if isinstance(child.tag, str) and child.tag.startswith(_IN_ASI):
                _asi21(child, child.tag[len(_IN_ASI) :])
        root = _rooted(old, _IN_ASI21 + _camel(old.tag[len(_IN_ASI) :]), {None: ASI21, "xsi": XSI})
    return (
        _DECLARATION.encode()
        + etree.tostring(root, encoding="UTF-8", xml_declaration=False)
        + b"\n"
    )
