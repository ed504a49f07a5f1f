"""Canvas-ready QTI 1.2: `qti12/<lang>/<quiz-id>.zip`, one package per quiz and language for
Canvas's *QTI .zip file* import (Classic Quizzes).

The package is laid out as Canvas's own QTI export (lib/cc/qti/qti_generator.rb,
qti_manifest.rb) and text2qti write it: `imsmanifest.xml`; `<assessment>/<assessment>.xml`, the
QTI 1.2 assessment (resource type `imsqti_xmlv1p2`), depending on `<assessment>/
assessment_meta.xml`, Canvas's quiz settings (an `associatedcontent/imscc_xmlv1p1/
learning-application-resource`, which Canvas's importer finds as `<assessment ident>/
assessment_meta.xml`); and each image under `images/`, a `webcontent` resource. Canvas converts
QTI 1.2 to QTI 2 with its QTIMigrationTool, then reads the items (gems/plugins/qti_exporter);
each item is written as Canvas's own export writes its type (lib/cc/qti/qti_items.rb): the
`question_type` and `points_possible` metadata, the response elements and respconditions its
importer reads, `general_fb` (the explanation, Canvas's neutral comments) and `<n>_fb` per answer.
The types, one writer each in qti12_types.py: multiple choice, multiple answers, true/false,
short answer (fill in the blank), numerical (an exact answer with a margin), matching, essay,
and a cloze as multiple dropdowns (choice gaps) or fill in multiple blanks (typed gaps).

Idents are stable, so that a re-import recognises what it imported: the assessment is
`qb_<quiz-id>_<lang>` and each item `qb_<quiz-id>_<lang>_<question-id>` (the `_` is in no id).
Answers and matches are numbers derived from their ids, as in Canvas's export: its importer keeps
a numeric ident (which QTIMigrationTool writes `RESPONSE_<n>`) as the answer's id, finds the
answer's feedback as `FEEDBACK_<n>_fb`, and a match's id is the first number of its ident. No
feedback ident holds an author's word: Canvas also files a feedback whose ident says `correct`,
`wrong` or `general_` as the question's own.

Texts are the core's safe HTML in a container of their language (`<div dir="rtl" lang="ur">`;
a `<span>` where a text is inline), as Canvas's sanitizer (canvas_sanitize) keeps them: it allows
`dir` and `lang` on every element but has no `<bdi>`, so the core's isolated Latin runs are
`<span dir="ltr" lang="en">`, which HTML isolates as well (`[dir]` is `unicode-bidi: isolate`).
Drop-down choices and blanks' answers are plain text, as Canvas stores them (an image is its alt
text, a formula its TeX).

Formulas are TeX for Canvas's MathJax: `\\(…\\)`, and `\\(\\displaystyle …\\)` for a displayed
one. Canvas (mathml.js, isMathInElement) loads MathJax for user content when it finds `\\(` or
`$$` in the text (or a `<math>`), and its equation editor writes `\\(…\\)`, which every version
of its sanitizer keeps as text; MathML would need a sanitizer and an editor that keep `<math>`,
and `\\[…\\]` alone does not make Canvas load MathJax. The core renders MathML, whose `alttext` is
the formula's TeX: only a formula becomes TeX, so an author's own `\\(`, `$$` or `\\begin` is made
inert (a word joiner, U+2060, after the `\\` or the first `$`), as are Canvas's own placeholders
(`$IMS-CC-FILEBASE$`, `$CANVAS_…$`, `$WIKI_REFERENCE$`).

Images are files of the package, `images/<name>-<hash>.<ext>`, each a `webcontent` resource of
the manifest, addressed `%24IMS-CC-FILEBASE%24/images/…` as Canvas's QTI export and text2qti
address them; Canvas imports them into the course's files and rewrites the addresses.

A quiz's section that draws (`pick`) is a Canvas question group, and a question with variables
a group of its variants' pre-generated items that picks one (see `layout`, below, for why, and
for the one level Canvas's groups nest).

What Canvas cannot carry is reported by `losses` (and never dropped silently): ordering
questions (Classic Quizzes has none), a cloze mixing drop-down and typed gaps (left out), typed
answers' case and wildcards, a numerical gap's tolerance, essays' grader information and word
limits, multiple answers graded otherwise than quizbank grades them, shuffling kept or lost
for a whole quiz (Canvas shuffles all of a quiz's answers or none, and always shuffles matches),
a question with variables in a section that draws (its first variant only), a drawing section's
unequal points (each its mean) and the title of a section that does not draw.

Zips are deterministic: fixed timestamps and permissions, the manifest first and then every
entry by name.

With `bank=true`, `qti12/bank/<lang>.zip` is one package of every quiz in the language (Canvas
imports each assessment of a package as a quiz): each quiz's files in its own folder, as in its
own package, the images once, and one manifest, titled with the bank's title, listing them all
(renderers/packages.py).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from pathlib import PurePosixPath
from typing import TYPE_CHECKING, ClassVar, NamedTuple

from pydantic import Field

from quizbank.errors import RendererError
from quizbank.images import Image
from quizbank.markup import to_plain
from quizbank.model import QUESTION_MODELS, Cloze, Numerical, Question, Quiz, Section
from quizbank.renderer import (
    Loss,
    OutputFile,
    QuizTranslations,
    Renderer,
    RendererOptions,
    question_line,
)
from quizbank.variables import has_variables, variant_question, variants

from .moodle_types import plain_number as number
from .packages import MANIFEST as MANIFEST_FILE
from .packages import merge_packages, write_zip
from .qti12_xml import (
    IMAGE_FOLDER,
    Numbers,
    Texts,
    assessment_ident,
    attr,
    item_feedback,
    material,
    respcondition,
    text,
)

if TYPE_CHECKING:
    from .qti12_types import Writer

QTI_NAMESPACE = "http://www.imsglobal.org/xsd/ims_qtiasiv1p2"
CANVAS_NAMESPACE = "http://canvas.instructure.com/xsd/cccv1p0"
MANIFEST_NAMESPACE = "http://www.imsglobal.org/xsd/imsccv1p1/imscp_v1p1"
IMSMD_NAMESPACE = "http://www.imsglobal.org/xsd/imsmd_v1p2"
XSI_NAMESPACE = "http://www.w3.org/2001/XMLSchema-instance"
ASSESSMENT_TYPE = "imsqti_xmlv1p2"
META_TYPE = "associatedcontent/imscc_xmlv1p1/learning-application-resource"
META_FILE = "assessment_meta.xml"
_XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n'


class Qti12Options(RendererOptions):
    """Options of the Canvas QTI 1.2 renderer."""

    shuffle_answers: bool = Field(
        True,
        description="Let Canvas shuffle the answers (the quiz setting of that name), unless a "
        "question of the quiz keeps its order (shuffle: false).",
    )
    bank: bool = Field(
        False,
        description="Also write bank/<lang>.zip, every quiz in one package for one import (Canvas "
        "makes each of its assessments a quiz); the package's title is the bank's, in "
        "content/bank.yaml, or the folder's name.",
    )


# -------------------------------------------------------------------------------------- package


class Package(NamedTuple):
    """One quiz in one language as the files of its zip (the images by name)."""

    ident: str
    assessment: bytes
    meta: bytes
    manifest: bytes
    images: Mapping[str, Image]


def _field(label: str, entry: str, indent: str) -> str:
    """A `<qtimetadatafield>`: `entry` is a word, a number or an ident, written as it is."""
    return (
        f"{indent}<qtimetadatafield>\n"
        f"{indent}  <fieldlabel>{label}</fieldlabel>\n"
        f"{indent}  <fieldentry>{entry}</fieldentry>\n"
        f"{indent}</qtimetadatafield>\n"
    )


def _manifest(ident: str, title: str, images: Mapping[str, Image]) -> str:
    """`imsmanifest.xml`: the assessment, its Canvas settings, and each image."""
    files = "".join(
        f'    <resource identifier="{ident}_image_{image.sha256[:16]}" type="webcontent" '
        f'href="{IMAGE_FOLDER}/{name}">\n'
        f'      <file href="{IMAGE_FOLDER}/{name}"/>\n'
        "    </resource>\n"
        for name, image in sorted(images.items())
    )
    return (
        f"{_XML_DECLARATION}"
        f'<manifest identifier="{ident}_manifest" xmlns="{MANIFEST_NAMESPACE}" '
        f'xmlns:imsmd="{IMSMD_NAMESPACE}" xmlns:xsi="{XSI_NAMESPACE}" '
        f'xsi:schemaLocation="{MANIFEST_NAMESPACE} http://www.imsglobal.org/xsd/imscp_v1p1.xsd '
        f'{IMSMD_NAMESPACE} http://www.imsglobal.org/xsd/imsmd_v1p2p2.xsd">\n'
        "  <metadata>\n"
        "    <schema>IMS Content</schema>\n"
        "    <schemaversion>1.1.3</schemaversion>\n"
        "    <imsmd:lom>\n"
        "      <imsmd:general>\n"
        "        <imsmd:title>\n"
        f"          <imsmd:string>{text(title)}</imsmd:string>\n"
        "        </imsmd:title>\n"
        "      </imsmd:general>\n"
        "    </imsmd:lom>\n"
        "  </metadata>\n"
        "  <organizations/>\n"
        "  <resources>\n"
        f'    <resource identifier="{ident}" type="{ASSESSMENT_TYPE}">\n'
        f'      <file href="{ident}/{ident}.xml"/>\n'
        f'      <dependency identifierref="{ident}_meta"/>\n'
        "    </resource>\n"
        f'    <resource identifier="{ident}_meta" type="{META_TYPE}" href="{ident}/{META_FILE}">\n'
        f'      <file href="{ident}/{META_FILE}"/>\n'
        "    </resource>\n"
        f"{files}"
        "  </resources>\n"
        "</manifest>\n"
    )


def _meta(ident: str, title: str, description: str, points: float, shuffle: bool) -> str:
    """`assessment_meta.xml`: the quiz's Canvas settings (QuizMetadataConverter reads them); an
    unpublished graded quiz that shows its answers after a submission."""
    flag = "true" if shuffle else "false"
    return (
        f"{_XML_DECLARATION}"
        f'<quiz identifier="{ident}" xmlns="{CANVAS_NAMESPACE}" xmlns:xsi="{XSI_NAMESPACE}" '
        f'xsi:schemaLocation="{CANVAS_NAMESPACE} https://canvas.instructure.com/xsd/cccv1p0.xsd">\n'
        f"  <title>{text(title)}</title>\n"
        f"  <description>{text(description)}</description>\n"
        f"  <shuffle_answers>{flag}</shuffle_answers>\n"
        "  <scoring_policy>keep_highest</scoring_policy>\n"
        "  <quiz_type>assignment</quiz_type>\n"
        f"  <points_possible>{number(points)}</points_possible>\n"
        "  <show_correct_answers>true</show_correct_answers>\n"
        "  <one_question_at_a_time>false</one_question_at_a_time>\n"
        "  <cant_go_back>false</cant_go_back>\n"
        "  <available>false</available>\n"
        "</quiz>\n"
    )


def _assessment(ident: str, title: str, items: Sequence[str]) -> bytes:
    """The assessment's QTI XML: its root section holds the items (and groups), joined once."""
    head = (
        f"{_XML_DECLARATION}"
        f'<questestinterop xmlns="{QTI_NAMESPACE}" xmlns:xsi="{XSI_NAMESPACE}" '
        f'xsi:schemaLocation="{QTI_NAMESPACE} '
        'http://www.imsglobal.org/xsd/ims_qtiasiv1p2p1.xsd">\n'
        f'  <assessment ident="{ident}" title="{attr(title)}">\n'
        "    <qtimetadata>\n"
        f"{_field('cc_maxattempts', '1', '      ')}"
        "    </qtimetadata>\n"
        '    <section ident="root_section">\n'
    )
    tail = "    </section>\n  </assessment>\n</questestinterop>\n"
    return "".join([head, *items, tail]).encode()


_ITEM_OUTCOMES = (
    "          <outcomes>\n"
    '            <decvar maxvalue="100" minvalue="0" varname="SCORE" vartype="Decimal"/>\n'
    "          </outcomes>\n"
)
_GENERAL_FEEDBACK = respcondition("<other/>", keep_going=True, feedback="general_fb")


def _zip(package: Package) -> bytes:
    """The package as a zip: the manifest first, then every entry by name; fixed times."""
    ident = package.ident
    entries = {
        f"{ident}/{ident}.xml": package.assessment,
        f"{ident}/{META_FILE}": package.meta,
        **{f"{IMAGE_FOLDER}/{name}": image.data for name, image in package.images.items()},
    }
    return write_zip({MANIFEST_FILE: package.manifest, **entries}, manifest_first=True)


# ------------------------------------------------------------------------ groups and variants
#
# Canvas draws questions with a question group, written as its own export writes one
# (qti_generator.rb `add_group`): a `<section>` whose selection picks `selection_number` of its
# items, each worth `points_per_item`. A section of the quiz that draws is a group; a question
# with variables is a group of its variants' pre-generated items that picks one (rather than a
# `calculated_question`, which would hold only a numerical question, show no computed value in
# its texts and need its formula in Canvas's own language). Canvas's importer
# (assessment_test_converter.rb) makes a group of a group's inner group a group of the quiz, so
# groups do not nest: in a section that draws, a question with variables is its first variant.


class Asked(NamedTuple):
    """An item of the assessment: the question it asks (a variant's, without variables)."""

    question: Question
    ident: str


class Group(NamedTuple):
    """A Canvas question group: `pick` of its items, each worth `points`."""

    ident: str
    title: str
    pick: int
    points: float
    items: Sequence[Asked]


def first_variant(quiz_id: str, question: Question) -> Question:
    """A question as its first variant when it has variables, else as it is."""
    if isinstance(question, Numerical | Cloze) and has_variables(question):
        return variant_question(question, variants(quiz_id, question)[0])
    return question


def _variants(quiz_id: str, question: Question, ident: str) -> Asked | Group:
    """A question's item, or the group of its variants' items (`<ident>_<n>`) that picks one."""
    if not (isinstance(question, Numerical | Cloze) and has_variables(question)):
        return Asked(question, ident)
    items = [
        Asked(variant_question(question, values), f"{ident}_{number}")
        for number, values in enumerate(variants(quiz_id, question), 1)
    ]
    return Group(f"{ident}_variants", question_line(question), 1, question.points, items)


def draws(section: Section) -> bool:
    """Whether a section asks fewer than all its questions."""
    return section.pick is not None and section.pick < len(section.questions)


def _drawn(quiz_id: str, section: Section, questions: Sequence[Question], ident: str) -> Group:
    """A section that draws as a group of its questions (a question with variables as its first
    variant's item, `<ident>_1`), each worth their mean points."""
    assert section.pick is not None
    items = [
        Asked(
            first_variant(quiz_id, q),
            f"{ident}_{q.id}_1" if has_variables(q) else f"{ident}_{q.id}",
        )
        for q in questions
    ]
    points = _mean_points(questions)
    title = to_plain(section.title) if section.title else section.id
    pick = min(section.pick, len(questions))
    return Group(f"{ident}_{section.id}_section", title, pick, points, items)


def layout(
    quiz_id: str, quiz: Quiz, carried: Sequence[Question], ident: str
) -> list[Asked | Group]:
    """What the assessment's root section holds, in order: the carried questions, or the
    quiz's sections' (a section that draws as a group, the others' questions as they are),
    each question with variables a group of its variants unless in a group already. Idents
    end in a question's or section's id, `_<n>` (a variant), `_variants` or `_section`: no id
    holds `_`, so none is another's."""
    by_id = {question.id: question for question in carried}
    if not quiz.sections:
        return [_variants(quiz_id, q, f"{ident}_{q.id}") for q in carried]
    found: list[Asked | Group] = []
    for section in quiz.sections:
        questions = [by_id[i] for i in section.questions if i in by_id]
        if draws(section) and questions:
            found.append(_drawn(quiz_id, section, questions, ident))
        else:
            found.extend(_variants(quiz_id, q, f"{ident}_{q.id}") for q in questions)
    return found


def _mean_points(questions: Sequence[Question]) -> float:
    return sum(q.points for q in questions) / len(questions)


def _points(parts: Sequence[Asked | Group]) -> float:
    """What an attempt is worth: each item's points and each group's pick of its points."""
    return sum(
        part.pick * part.points if isinstance(part, Group) else part.question.points
        for part in parts
    )


def _group(group: Group, items: str) -> str:
    """A question group as Canvas's export writes one."""
    return (
        f'      <section ident="{group.ident}" title="{attr(group.title)}">\n'
        "        <selection_ordering>\n"
        "          <selection>\n"
        f"            <selection_number>{group.pick}</selection_number>\n"
        "            <selection_extension>\n"
        f"              <points_per_item>{number(group.points)}</points_per_item>\n"
        "            </selection_extension>\n"
        "          </selection>\n"
        "        </selection_ordering>\n"
        f"{items}"
        "      </section>\n"
    )


class Qti12Renderer(Renderer[Qti12Options]):
    """Canvas QTI 1.2 packages, a zip per quiz and language."""

    name = "qti12"
    description = "Canvas-ready QTI 1.2 packages (.zip) for the Classic Quizzes QTI import"
    extension = "zip"
    Options = Qti12Options
    # Canvas Classic Quizzes has no ordering question; a cloze is carried unless it mixes
    # drop-down and typed gaps (`carries`).
    supported_types: ClassVar[frozenset[str] | None] = frozenset(QUESTION_MODELS) - {"ordering"}
    quiz_loss_kinds = ("shuffle", "sections")
    # A section that draws and a question's variants are Canvas question groups (`layout`).
    handles_variables = True
    handles_sections = True

    def __init__(self, options: Qti12Options) -> None:
        super().__init__(options)
        # The writer of each type (qti12_types imports this module's helpers).
        from .qti12_types import LOSSES, WRITERS, mixes_gaps, shuffle_of

        self._writers: Mapping[type, Writer] = WRITERS
        self._losses = LOSSES
        self._mixes_gaps = mixes_gaps
        self._shuffle_of = shuffle_of

    def carries(self, question: Question) -> bool:
        """Every type but ordering, and no cloze that mixes drop-down and typed gaps."""
        return super().carries(question) and not self._mixes_gaps(question)

    def render(self, quiz: QuizTranslations, lang: str) -> str:
        """The assessment's QTI XML (the package's main file)."""
        return self.package(quiz, lang).assessment.decode()

    def render_quiz(self, quiz: QuizTranslations) -> Iterator[OutputFile]:
        """A zip per language: `<lang>/<quiz-id>.zip`."""
        for lang in quiz.languages:
            content = _zip(self.package(quiz, lang))
            yield OutputFile(self.output_path(lang, quiz.quiz_id), content)

    @property
    def combines(self) -> bool:
        return self.options.bank

    def combine(self, lang: str, parts: Sequence[bytes]) -> OutputFile | None:
        """`bank/<lang>.zip`: every quiz's package in one, with one manifest (each quiz's
        files are in its own folder, `qb_<quiz-id>_<lang>/`; an image two show is one file)."""
        files = merge_packages(parts, f"qb_bank_{lang}_manifest", self.name)
        if not files:
            return None
        content = write_zip(files, manifest_first=True)
        return OutputFile(PurePosixPath("bank", f"{lang}.{self.extension}"), content)

    def package(self, quiz: QuizTranslations, lang: str) -> Package:
        """The files of one quiz's package in one language."""
        current = quiz[lang]
        ident = assessment_ident(quiz.quiz_id, lang)
        texts = Texts(lang, quiz.images_of(lang))
        carried = [question for question in current.questions if self.carries(question)]
        shuffle = self._shuffles(current)
        with texts.media():
            try:
                description = texts.html(current.description)
            except ValueError as exc:
                raise RendererError(f"renderer 'qti12': quiz {quiz.quiz_id!r}: {exc}") from None
            parts = layout(quiz.quiz_id, current, carried, ident)
            items = [self._part(quiz.quiz_id, part, texts) for part in parts]
        title = to_plain(current.title)
        points = _points(parts)
        images = {name: texts.files[name] for name in sorted(texts.used)}
        return Package(
            ident,
            _assessment(ident, title, items),
            _meta(ident, title, description, points, shuffle).encode(),
            _manifest(ident, self._package_title(quiz, lang, title), images).encode(),
            images,
        )

    def _package_title(self, quiz: QuizTranslations, lang: str, title: str) -> str:
        """The manifest's title: the quiz's, or with `bank`, the bank's (which the bank's
        package keeps from its first quiz's)."""
        return quiz.bank_title.get(lang, title) if self.options.bank else title

    def _part(self, quiz_id: str, part: Asked | Group, texts: Texts) -> str:
        """An item, or a group and its items."""
        if isinstance(part, Group):
            return _group(part, "".join([self._part(quiz_id, item, texts) for item in part.items]))
        try:
            return self._item(part.question, texts, part.ident)
        except ValueError as exc:
            raise RendererError(
                f"renderer 'qti12': quiz {quiz_id!r} question {part.question.id!r}: {exc}"
            ) from None

    def _item(self, question: Question, texts: Texts, ident: str) -> str:
        """One question as an `<item>`: its type's parts from its writer, the explanation as the
        general feedback (Canvas's neutral comments), each answer's feedback."""
        written = self._writers[type(question)](question, texts, Numbers(ident))
        prompt = written.text if written.text is not None else texts.html(question.prompt)
        feedbacks = [("general_fb", texts.html(question.explanation)), *written.feedbacks]
        return (
            f'      <item ident="{ident}" title="{attr(question_line(question))}">\n'
            "        <itemmetadata>\n"
            "          <qtimetadata>\n"
            f"{_field('question_type', written.kind, '            ')}"
            f"{_field('points_possible', number(question.points), '            ')}"
            f"{_field('assessment_question_identifierref', f'{ident}_aq', '            ')}"
            "          </qtimetadata>\n"
            "        </itemmetadata>\n"
            "        <presentation>\n"
            f"{material(prompt, '          ')}"
            f"{written.responses}"
            "        </presentation>\n"
            "        <resprocessing>\n"
            f"{_ITEM_OUTCOMES}{_GENERAL_FEEDBACK}{written.conditions}"
            "        </resprocessing>\n"
            f"{''.join([item_feedback(name, html) for name, html in feedbacks])}"
            "      </item>\n"
        )

    def _keeping_order(self, quiz: Quiz) -> list[tuple[int, Question]]:
        """The questions (and their numbers) whose answers Canvas would shuffle but which keep
        their order."""
        return [
            (position, question)
            for position, question in enumerate(quiz.questions, 1)
            if self.carries(question) and self._shuffle_of(question) is False
        ]

    def _shuffles(self, quiz: Quiz) -> bool:
        """Canvas's shuffle_answers: as asked, unless a question keeps its order."""
        return self.options.shuffle_answers and not self._keeping_order(quiz)

    def losses(self, quiz: QuizTranslations, lang: str) -> Iterator[Loss]:
        """One Loss per question that loses anything, every loss in it (build reports the first
        Loss of a question only)."""
        current = quiz[lang]
        carried = {q.id: q for q in current.questions if self.carries(q)}
        keeping = self._keeping_order(current) if self.options.shuffle_answers else []
        if keeping and any(self._shuffle_of(q) for q in carried.values()):
            first, kept = keeping[0]
            yield Loss(
                None,
                "keeps every question's answers in order: Canvas shuffles all of a quiz's "
                f"answers or none, and question {first} ({kept.id}) keeps its order",
                kind="shuffle",
            )
        yield from _section_losses(current, carried)
        drawn = {i: s.id for s in current.sections or () if draws(s) for i in s.questions}
        for index, question in enumerate(current.questions):
            if not super().carries(question):
                what = [f"is left out: {self.name} has no {question.type} questions"]
            elif question.id not in carried:
                what = [
                    "is left out: Canvas has no question with both drop-down and typed gaps "
                    "(multiple dropdowns or fill in multiple blanks)"
                ]
            else:
                what = list(self._losses[type(question)](first_variant(current.id, question)))
                if question.id in drawn and isinstance(question, Numerical | Cloze):
                    what.extend(_nested_loss(current.id, question, drawn[question.id]))
            if what:
                yield Loss(index, ", and ".join(what))


def _nested_loss(quiz_id: str, question: Numerical | Cloze, section_id: str) -> list[str]:
    """What a question with variables loses in a section that draws: all but its first variant."""
    if not has_variables(question):
        return []
    count = len(variants(quiz_id, question))
    return [
        f"shows only the first of its {count} variants in Canvas: its section {section_id} draws "
        "questions, and a Canvas question group cannot hold the group of its variants"
    ]


def _section_losses(quiz: Quiz, carried: Mapping[str, Question]) -> Iterator[Loss]:
    """A section that draws questions of unequal points (each worth their mean in Canvas), and
    the titles of sections that do not draw (a Canvas quiz groups questions only to draw)."""
    for section in quiz.sections or ():
        questions = [carried[i] for i in section.questions if i in carried]
        if draws(section) and len({q.points for q in questions}) > 1:
            yield Loss(
                None,
                f"gives each question of the section {section.id} "
                f"{number(_mean_points(questions))} points: a Canvas question group gives all "
                "its questions the same points",
                kind="sections",
            )
    titled = [s.id for s in quiz.sections or () if s.title and not draws(s)]
    if titled:
        yield Loss(
            None,
            f"loses the title of the sections {', '.join(titled)}: a Canvas quiz groups "
            "questions only to draw some of them",
            kind="sections",
        )
