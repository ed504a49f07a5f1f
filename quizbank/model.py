"""The authoring format as a typed model (pydantic v2): a quiz, its questions and options."""

from __future__ import annotations

import re
from enum import StrEnum
from typing import Annotated, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    HttpUrl,
    StrictBool,
    StringConstraints,
)

from quizbank.paths import Loc

SLUG_PATTERN = r"^[a-z0-9]+(?:-[a-z0-9]+)*$"
LANG_PATTERN = r"^[a-z]{2,3}(?:-[A-Za-z0-9]{2,8})*$"
LANGUAGE_CODE = re.compile(LANG_PATTERN)
# Characters XML 1.0 cannot carry: control characters other than tab, newline and carriage
# return, lone surrogates and the two non-characters U+FFFE and U+FFFF.
# The bidirectional overrides and embeddings U+202A-U+202E are refused too: they reorder what
# follows them (a file name `gnp.exe` shown as `exe.png`); the isolates U+2066-U+2069 and the
# marks U+200E/U+200F, which Urdu needs, stay allowed.
_REFUSED = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff\u202a-\u202e]")
# What makes a title more than one line of inline text: a line break, or a code fence, which
# would turn the title into an empty code block.
_BLOCK_START = re.compile(r"[\n\r]|^ {0,3}(?:```|~~~)")


def _safe_text(text: str) -> str:
    """A text exports can carry, that shows what it says and is not blank."""
    if _REFUSED.search(text) is None and not text.isspace():
        return text  # nearly every text: one search
    match = _REFUSED.search(text)
    if match and "\u202a" <= match.group() <= "\u202e":
        raise ValueError(
            f"contains the bidirectional override U+{ord(match.group()):04X}, which can "
            "disguise what the text says; delete it (the isolates U+2066-U+2069 and the marks "
            "U+200E/U+200F are allowed)"
        )
    if match:
        raise ValueError(
            f"contains the control character U+{ord(match.group()):04X}, "
            "which exports cannot carry; delete it"
        )
    raise ValueError("this text holds only spaces: write the text, or delete the key")


def _one_line(title: str) -> str:
    """A title is one line of inline text: it heads a page and names the quiz in every LMS."""
    if _BLOCK_START.search(title):
        raise ValueError(
            "a title is one line of text (emphasis and `code` are fine); it cannot span "
            "several lines or start a code block"
        )
    return title


def _one_option_id(value: object) -> object:
    if isinstance(value, list):
        raise ValueError(
            "a single_choice question has exactly one answer: give one option id, not a list "
            "(or make it a multiple_choice question)"
        )
    return value


Slug = Annotated[
    str,
    StringConstraints(pattern=SLUG_PATTERN, max_length=64),
    Field(description="Lowercase letters, digits and hyphens, e.g. `why-shard`."),
]
OptionId = Annotated[
    str,
    StringConstraints(pattern=r"^[a-z0-9]+(?:[-_][a-z0-9]+)*$", max_length=32),
    Field(description="The option's id, e.g. `a`; the same in every language."),
]
Text = Annotated[
    str,
    StringConstraints(min_length=1, max_length=20_000),
    AfterValidator(_safe_text),
    Field(description="Markdown: emphasis, `code`, lists and links; raw HTML is shown as text."),
]
Title = Annotated[
    str,
    StringConstraints(min_length=1, max_length=300),
    AfterValidator(_safe_text),
    AfterValidator(_one_line),
    Field(description="One line of inline Markdown."),
]


class Level(StrEnum):
    """How hard a quiz is."""

    BEGINNER = "beginner"
    INTERMEDIATE = "intermediate"
    ADVANCED = "advanced"


class _Strict(BaseModel):
    """Unknown keys are errors; validated models do not change."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class Guide(_Strict):
    """The guide a quiz accompanies."""

    title: Title
    url: HttpUrl


class Option(_Strict):
    """One choice of a choice question."""

    id: OptionId
    text: Text
    feedback: Text | None = Field(None, description="Shown when a learner picks this option.")


class _Question(_Strict):
    id: Slug
    prompt: Text
    explanation: Text = Field(description="Why the right answer is right.")
    points: float = Field(1, gt=0, le=1000, description="Marks for a fully right answer.")


class SingleChoice(_Question):
    """Exactly one option is right."""

    type: Literal["single_choice"]
    options: list[Option] = Field(min_length=2, max_length=26)
    answer: Annotated[OptionId, BeforeValidator(_one_option_id)]

    @property
    def answer_ids(self) -> tuple[str, ...]:
        return (self.answer,)


class MultipleChoice(_Question):
    """One or more options are right; the learner picks all of them."""

    type: Literal["multiple_choice"]
    options: list[Option] = Field(min_length=2, max_length=26)
    answer: list[OptionId] = Field(min_length=1, max_length=26)

    @property
    def answer_ids(self) -> tuple[str, ...]:
        return tuple(self.answer)


class TrueFalse(_Question):
    """A statement that is true or false."""

    type: Literal["true_false"]
    answer: StrictBool = Field(description="`true` or `false`.")
    feedback_true: Text | None = Field(None, description="Shown when a learner answers true.")
    feedback_false: Text | None = Field(None, description="Shown when a learner answers false.")

    @property
    def answer_ids(self) -> tuple[str, ...]:
        return ("true",) if self.answer else ("false",)


Question = Annotated[SingleChoice | MultipleChoice | TrueFalse, Field(discriminator="type")]


class Quiz(_Strict):
    """One quiz in one language, as one YAML file holds it."""

    model_config = ConfigDict(
        extra="forbid",
        frozen=True,
        title="quizbank quiz",
        json_schema_extra={"$comment": "One quiz in one language: content/<lang>/<id>.yaml"},
    )

    id: Slug = Field(description="The quiz's id: the file name without `.yaml`.")
    lang: Annotated[str, StringConstraints(pattern=LANG_PATTERN)] = Field(
        description="BCP 47 language code: the name of the file's folder, e.g. `en` or `ur`."
    )
    title: Title
    description: Text
    level: Level
    guide: Guide | None = None
    tags: list[Slug] = Field(default_factory=list, max_length=50)
    questions: list[Question] = Field(min_length=1, max_length=10_000)


def text_fields(quiz: Quiz) -> list[tuple[Loc, str]]:
    """Every author-written text of a quiz with its location, in document order."""
    found: list[tuple[Loc, str]] = [(("title",), quiz.title), (("description",), quiz.description)]
    if quiz.guide:
        found.append((("guide", "title"), quiz.guide.title))
    for q_index, question in enumerate(quiz.questions):
        base: Loc = ("questions", q_index)
        found.append(((*base, "prompt"), question.prompt))
        if isinstance(question, TrueFalse):
            for name in ("feedback_true", "feedback_false"):
                value = getattr(question, name)
                if value:
                    found.append(((*base, name), value))
        else:
            for o_index, option in enumerate(question.options):
                found.append(((*base, "options", o_index, "text"), option.text))
                if option.feedback:
                    found.append(((*base, "options", o_index, "feedback"), option.feedback))
        found.append(((*base, "explanation"), question.explanation))
    return found
