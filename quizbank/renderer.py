"""The renderer plug-in interface: what a renderer declares, receives and returns.

A renderer is a class registered under the entry-point group `quizbank.renderers`. It declares
its `name`, a one-line `description`, the file `extension` it writes and a pydantic `Options`
model; it receives validated quizzes and returns files. It never writes files, parses YAML or
validates: the core does all three.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import ClassVar, Generic, TypeVar

from pydantic import BaseModel, ConfigDict

from quizbank.crosslang import untranslated
from quizbank.images import Image
from quizbank.markup import to_plain
from quizbank.model import GAP, Cloze, Numerical, Question, Quiz, Section
from quizbank.variables import has_variables, variant_question, variants

QUESTION_LINE_MAX = 80  # an LMS's question bank lists a question by its prompt's first words


class RendererOptions(BaseModel):
    """Base of every renderer's options: typed, with defaults, unknown options refused."""

    model_config = ConfigDict(extra="forbid", frozen=True)


@dataclass(frozen=True)
class OutputFile:
    """A file to write, relative to the renderer's folder (`DIR/<format>/`)."""

    path: PurePosixPath
    content: bytes


@dataclass(frozen=True)
class QuizTranslations:
    """One quiz in every language it has, validated, with the languages to render, and the
    images each language's texts use (by language, then by the path as a text writes it)."""

    quiz_id: str
    by_lang: Mapping[str, Quiz]
    languages: Sequence[str]
    images: Mapping[str, Mapping[str, Image]] = field(default_factory=dict)
    bank_title: Mapping[str, str] = field(default_factory=dict)  # by language (quizbank.bank)

    def __getitem__(self, lang: str) -> Quiz:
        return self.by_lang[lang]

    def images_of(self, lang: str) -> Mapping[str, Image]:
        """The images of one language's texts, by the path as written (`src`)."""
        return self.images.get(lang, {})


@dataclass(frozen=True)
class QuizSummary:
    """What a bank-wide page (an index, say) needs to know of one quiz in one language."""

    quiz_id: str
    lang: str
    title: str
    level: str
    question_count: int
    untranslated: int = 0  # the reference's questions this language does not have yet


def quiz_summaries(quiz: QuizTranslations) -> list[QuizSummary]:
    """What the bank's index says of a quiz in each language it is rendered in."""
    return [
        QuizSummary(
            quiz.quiz_id,
            lang,
            content.title,
            str(content.level),
            len(content.questions),
            untranslated(quiz.by_lang, lang),
        )
        for lang in quiz.languages
        for content in (quiz[lang],)
    ]


def image_files(quiz: QuizTranslations) -> Iterator[OutputFile]:
    """Each image the rendered languages' texts use, once, at its place in the content folder
    (`images/x.svg`, `ur/images/y.png`): an export whose files sit as the quiz files do
    (`<lang>/<quiz-id>.<ext>`) finds it by the very path the author wrote."""
    seen: set[PurePosixPath] = set()
    for lang in quiz.languages:
        for image in quiz.images_of(lang).values():
            if image.path not in seen:
                seen.add(image.path)
                yield OutputFile(image.path, image.data)


@dataclass(frozen=True)
class Loss:
    """Something of one question (or of the quiz) that a format cannot carry: `build` warns of
    it (an error with --strict), naming the question; `what` completes "question 3
    (resume-order)…" (or "the quiz…")."""

    question: int | None  # its index in the quiz's questions; None for the quiz itself
    what: str  # "is left out: gift has no ordering questions"
    # What bank.yaml's `accept_losses` calls a loss of the quiz itself ("shuffle"); a loss of a
    # question is accepted by the question's type.
    kind: str = ""


OptionsT = TypeVar("OptionsT", bound=RendererOptions)


class Renderer(ABC, Generic[OptionsT]):
    """Base class of renderers; subclasses set the class attributes and implement `render`."""

    name: ClassVar[str]
    description: ClassVar[str]
    extension: ClassVar[str]
    Options: ClassVar[type[RendererOptions]] = RendererOptions
    # The question types (`type:` in the YAML) the format carries; None for every type. The
    # others are left out of its files, and `losses` reports them.
    supported_types: ClassVar[frozenset[str] | None] = None
    # Whether `build` without `-f` writes this format; a costly one (paper exams) is built only
    # when asked for by name.
    builds_by_default: ClassVar[bool] = True
    # The kinds of loss of a whole quiz that `losses` may report (bank.yaml's accept_losses
    # names them; a question's loss goes by the question's type).
    quiz_loss_kinds: ClassVar[tuple[str, ...]] = ()
    # Whether the renderer draws a question's variants and a section's picks itself; if not,
    # it is given each question with variables as its first variant, and every question, and
    # `build` reports what that loses (`rendered_quiz`).
    handles_variables: ClassVar[bool] = False
    handles_sections: ClassVar[bool] = False

    def __init__(self, options: OptionsT) -> None:
        self.options = options

    def output_path(self, lang: str, quiz_id: str) -> PurePosixPath:
        """Where one quiz in one language goes: `<lang>/<quiz-id>.<extension>`."""
        return PurePosixPath(lang, f"{quiz_id}.{self.extension}")

    def render_quiz(self, quiz: QuizTranslations) -> Iterator[OutputFile]:
        """Every file for one quiz; by default one per language through `render`."""
        for lang in quiz.languages:
            # Encoded at once, so that the text is gone while the file is written.
            content = self.render(quiz, lang).encode("utf-8")
            yield OutputFile(self.output_path(lang, quiz.quiz_id), content)

    @abstractmethod
    def render(self, quiz: QuizTranslations, lang: str) -> str:
        """One quiz in one language, as the text of one file."""

    def carries(self, question: Question) -> bool:
        """Whether the format writes this question (its type is one it supports)."""
        return self.supported_types is None or question.type in self.supported_types

    def losses(self, quiz: QuizTranslations, lang: str) -> Iterator[Loss]:
        """What the format cannot carry of one language's quiz: by default, each question of a
        type it does not support. A renderer that loses more (a feedback, an image) adds it."""
        for index, question in enumerate(quiz[lang].questions):
            if not self.carries(question):
                what = f"is left out: {self.name} has no {question.type} questions"
                yield Loss(index, what)

    @property
    def combines(self) -> bool:
        """Whether `build` asks `combine` for a file of the whole bank (no, by default)."""
        return False

    def combine(self, lang: str, parts: Sequence[bytes]) -> OutputFile | None:
        """One language's file of the whole bank, from every quiz's file in that language (as
        `render_quiz` wrote it at `output_path`, in the order of the quiz ids); asked only when
        `combines`."""
        return None

    def render_bank(self, summaries: Sequence[QuizSummary]) -> Iterator[OutputFile]:
        """Files for the whole bank (an index, a schema); none by default."""
        return iter(())


def question_line(question: Question) -> str:
    """A question's prompt as one line of plain text (a cloze's gaps as `___`), shortened at a
    word to QUESTION_LINE_MAX characters: the name an LMS lists it by; its id when empty."""
    prompt = GAP.sub("___", question.prompt) if isinstance(question, Cloze) else question.prompt
    line = to_plain(prompt, images=False)  # its words, not its diagram's alt text
    if len(line) > QUESTION_LINE_MAX:
        line = line[: QUESTION_LINE_MAX - 1].rsplit(" ", 1)[0] + "…"
    return line or question.id


def rendered_quiz(quiz: QuizTranslations, renderer: Renderer[RendererOptions]) -> QuizTranslations:
    """The quiz as `renderer` is given it: each question with variables as its first variant
    unless the renderer draws variants itself (`handles_variables`)."""
    if renderer.handles_variables or not any(
        has_variables(question)
        for version in quiz.by_lang.values()
        for question in version.questions
    ):
        return quiz
    by_lang = {
        lang: _first_variants(quiz.quiz_id, version) for lang, version in quiz.by_lang.items()
    }
    return QuizTranslations(quiz.quiz_id, by_lang, quiz.languages, quiz.images, quiz.bank_title)


def _first_variants(quiz_id: str, quiz: Quiz) -> Quiz:
    questions = [
        variant_question(question, variants(quiz_id, question)[0])
        if isinstance(question, Numerical | Cloze) and question.variables
        else question
        for question in quiz.questions
    ]
    return quiz.model_copy(update={"questions": questions})


def in_sections(quiz: Quiz) -> Iterator[tuple[Section | None, Question]]:
    """Each question with its section, in the sections' order (without sections, every
    question in the quiz's order, in none)."""
    if not quiz.sections:
        yield from ((None, question) for question in quiz.questions)
        return
    by_id = {question.id: question for question in quiz.questions}
    for section in quiz.sections:
        for question_id in section.questions:
            if (question := by_id.pop(question_id, None)) is not None:
                yield section, question
    yield from ((None, question) for question in by_id.values())  # (validate refuses these)
