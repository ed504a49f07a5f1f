"""The authoring format as a typed model (pydantic v2): a quiz, its questions and options."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from enum import StrEnum
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Discriminator,
    Field,
    HttpUrl,
    StrictBool,
    StringConstraints,
    Tag,
    model_validator,
)

from quizbank.markup import mathjax_opener
from quizbank.paths import Loc

TextAt = tuple[Loc, str]

SLUG_PATTERN = r"^[a-z0-9]+(?:-[a-z0-9]+)*$"
LANG_PATTERN = r"^[a-z]{2,3}(?:-[A-Za-z0-9]{2,8})*$"
LANGUAGE_CODE = re.compile(LANG_PATTERN)
# Characters XML 1.0 cannot carry: control characters other than tab, newline and carriage
# return, lone surrogates and the two non-characters U+FFFE and U+FFFF.
# The bidirectional overrides and embeddings U+202A-U+202E are refused too: they reorder what
# follows them (a file name `gnp.exe` shown as `exe.png`); the isolates U+2066-U+2069 and the
# marks U+200E/U+200F, which Urdu needs, stay allowed.
_REFUSED_CHARACTERS = "\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff\u202a-\u202e"
_REFUSED = re.compile(f"[{_REFUSED_CHARACTERS}]")
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


def _no_formula_opener(text: str) -> str:
    """No literal `\\(`, `\\[` or `$$` that an LMS would typeset as a formula unchecked."""
    if opener := mathjax_opener(text):
        raise ValueError(
            f"the text shows {opener}, which an LMS that typesets formulas reads as the start of "
            "one that quizbank never checked: write the formula as $…$, or the characters "
            "inside `code`"
        )
    return text


def _one_line(title: str) -> str:
    """A title is one line of inline text: it heads a page and names the quiz in every LMS."""
    if _BLOCK_START.search(title):
        raise ValueError(
            "a title is one line of text (emphasis and `code` are fine); it cannot span "
            "several lines or start a code block"
        )
    return title


# What a text that may fail `_safe_text` or `_no_formula_opener` holds: a refused character, or
# one that a formula opener is written with (`\(`, `\[`, `$$`, `&bsol;`, `&#36;`...).
_SUSPECT = re.compile(f"[{_REFUSED_CHARACTERS}\\\\$&]")


def _text(text: str) -> str:
    """A Text's checks in one call, which pydantic makes for every text of a bank."""
    if _SUSPECT.search(text) is None and not text.isspace():
        return text  # nearly every text: one search
    return _no_formula_opener(_safe_text(text))


def _line(text: str) -> str:
    """A Title's or a Line's checks in one call."""
    if _SUSPECT.search(text) is None and not text.isspace():
        return _one_line(text)
    return _no_formula_opener(_one_line(_safe_text(text)))


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
    AfterValidator(_text),
    Field(
        description="Markdown: emphasis, `code`, lists, links, images (`![alt](../images/x.svg)`)"
        " and formulas (`$…$`, `$$…$$`); raw HTML is shown as text."
    ),
]
Title = Annotated[
    str,
    StringConstraints(min_length=1, max_length=300),
    AfterValidator(_line),
    Field(description="One line of inline Markdown (images and formulas too)."),
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


Shuffle = Annotated[
    StrictBool,
    Field(
        description='`false` keeps the choices in the order written ("all of the above" '
        "stays last) in every format that shuffles them."
    ),
]
Number = Annotated[
    float,
    Field(strict=True, allow_inf_nan=False, description="A number, written without quotes."),
]
Tolerance = Annotated[
    float,
    Field(
        strict=True,
        allow_inf_nan=False,
        ge=0,
        description="How far from `answer` a response may be and still be right (absolute).",
    ),
]


def _accepted_answer(text: str) -> str:
    """An accepted short answer: one line a learner could type, not only wildcards."""
    _safe_text(text)
    if "\n" in text or "\r" in text:
        raise ValueError("an accepted answer is one line: what a learner types in a text field")
    if not text.replace("*", "").strip():
        raise ValueError(
            "this accepted answer is only `*`, which matches every response: write the answer "
            "(`*` stands for any run of characters inside it)"
        )
    return text


AcceptedAnswer = Annotated[
    str,
    StringConstraints(min_length=1, max_length=255),
    AfterValidator(_accepted_answer),
    Field(
        description="What a learner may type, as plain text; `*` matches any run of "
        "characters, `\\*` is an asterisk."
    ),
]


def _answer_list(value: object) -> object:
    """One accepted answer may be given as a text instead of a list of one."""
    return [value] if isinstance(value, str) else value


AcceptedAnswers = Annotated[
    list[AcceptedAnswer],
    BeforeValidator(_answer_list),
    Field(min_length=1, max_length=50, description="Every answer accepted as right."),
]
Line = Annotated[
    str,
    StringConstraints(min_length=1, max_length=300),
    AfterValidator(_line),
    Field(description="One line of inline Markdown, shown as plain text in a drop-down."),
]
WordCount = Annotated[int, Field(strict=True, ge=1, le=100_000)]

# ------------------------------------------------------------------- variables and variants
# A numerical question (or a cloze's numerical gaps) may compute its answer from variables, so
# that each learner, attempt or paper form gets other numbers (quizbank/variables.py).
MAX_VARIANTS = 100
VariableName = Annotated[
    str,
    StringConstraints(pattern=r"^[A-Za-z_][A-Za-z0-9_]{0,31}$"),
    Field(description="A variable's name: letters, digits and _, shown in texts as `{name}`."),
]
Formula = Annotated[
    str,
    StringConstraints(min_length=1, max_length=500),
    Field(
        description="A formula over the question's variables in Moodle's calculated-question "
        "language, e.g. `{p} * {bytes} * 3`."
    ),
]
_RELATIVE = re.compile(r"^(?:\d+(?:\.\d+)?|\.\d+)%$")


def _tolerance_value(value: object) -> object:
    """A tolerance is a number of at least 0, or (with variables) a percentage such as `1%`."""
    if isinstance(value, str) and not _RELATIVE.match(value):
        raise ValueError(
            f"{value!r} is a text, not a number: write the number without quotes, like this: "
            "tolerance: 0.005 (or, for a question with variables, a percentage such as 1%)"
        )
    if isinstance(value, int | float) and not isinstance(value, bool) and value < 0:
        raise ValueError(
            f"a tolerance cannot be negative ({value:g}): it is how far either side of the "
            "answer a response may be"
        )
    return value


def _answer_value(value: object) -> object:
    """A numerical answer is a number, or (with variables) a formula."""
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise ValueError(
            "the answer is a number, like this: answer: 0.9 (or, for a question with "
            "variables, a formula in quotes)"
        )
    return value


RelativeTolerance = Annotated[
    str,
    StringConstraints(pattern=r"^(?:\d+(?:\.\d+)?|\.\d+)%$", max_length=20),
    Field(description="A tolerance relative to the answer, e.g. `1%`."),
]
# What `answer` and `tolerance` of a numerical question (or gap) hold.
NumberOrFormula = Annotated[Number | Formula, BeforeValidator(_answer_value)]
AnyTolerance = Annotated[Tolerance | RelativeTolerance, BeforeValidator(_tolerance_value)]


class RangeVariable(_Strict):
    """Values from `from` to `to` (both included) in steps of `step`."""

    start: Number = Field(alias="from", description="The first value.")
    to: Number = Field(description="The last value, at least `from`.")
    step: Number = Field(1, gt=0, description="The difference between two values (default 1).")

    @model_validator(mode="after")
    def _ordered(self) -> RangeVariable:
        if self.to < self.start:
            raise ValueError(f"`to` ({self.to:g}) is below `from` ({self.start:g})")
        if (self.to - self.start) / self.step >= 1_000_000:
            raise ValueError("a range holds at most a million values: make `step` larger")
        return self


class ChoicesVariable(_Strict):
    """One of the values listed."""

    choices: list[Number] = Field(min_length=1, max_length=1000)


def _variable_kind(value: Any) -> str:
    """Which kind of variable a value is (as written, or as a model being dumped)."""
    written = isinstance(value, dict) and "choices" in value
    return "choices" if written or isinstance(value, ChoicesVariable) else "range"


Variable = Annotated[
    Annotated[RangeVariable, Tag("range")] | Annotated[ChoicesVariable, Tag("choices")],
    Discriminator(_variable_kind),
]
VariantValues = Annotated[
    dict[VariableName, Number], Field(description="A value for each variable, e.g. `{p: 7}`.")
]
Variants = Annotated[
    Annotated[int, Field(strict=True, ge=1, le=MAX_VARIANTS)]
    | Annotated[list[VariantValues], Field(min_length=1, max_length=MAX_VARIANTS)],
    Field(description="How many distinct variants to draw (default 10), or the variants."),
]


def _fixed(value: float | str) -> float:
    """A number of a question without variables; a formula has none until a variant is drawn."""
    if isinstance(value, str):
        raise TypeError(f"{value!r} is a formula: draw the question's variants first")
    return value


class _Calculated(_Strict):
    """What a question with variables adds: the variables, its variants and how to show them."""

    variables: dict[VariableName, Variable] | None = Field(
        None, max_length=20, description="The question's variables, by name."
    )
    variants: Variants = 10
    seed: int | None = Field(
        None,
        strict=True,
        description="Draws other variants (default: from the quiz's and question's ids).",
    )
    decimals: int | None = Field(
        None,
        strict=True,
        ge=0,
        le=10,
        description="Decimals of computed values (default: as computed).",
    )


SourceDigest = Annotated[str, StringConstraints(pattern=r"^[0-9a-f]{6}$")]
SourceField = Annotated[str, StringConstraints(min_length=1, max_length=100)]


class _Question(_Strict):
    id: Slug
    prompt: Text
    explanation: Text = Field(description="Why the right answer is right.")
    points: float = Field(
        1, strict=True, gt=0, le=1000, description="Marks for a fully right answer."
    )
    source: dict[SourceField, SourceDigest] | None = Field(
        None,
        max_length=200,
        description="In a translation: what each English text of the question was when it was "
        "translated, as short digests. Written by `quizbank translated`; do not edit.",
    )


class SingleChoice(_Question):
    """Exactly one option is right."""

    type: Literal["single_choice"]
    options: list[Option] = Field(min_length=2, max_length=26)
    answer: Annotated[OptionId, BeforeValidator(_one_option_id)]
    shuffle: Shuffle = True

    @property
    def answer_ids(self) -> tuple[str, ...]:
        return (self.answer,)


class MultipleChoice(_Question):
    """One or more options are right; the learner picks all of them."""

    type: Literal["multiple_choice"]
    options: list[Option] = Field(min_length=2, max_length=26)
    answer: list[OptionId] = Field(min_length=1, max_length=26)
    shuffle: Shuffle = True

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


class Numerical(_Question, _Calculated):
    """A number, right within `answer` ± `tolerance`; with `variables`, computed by a formula
    for each variant."""

    type: Literal["numerical"]
    answer: NumberOrFormula = Field(
        description="The right number, e.g. `0.9`; with variables, a formula."
    )
    tolerance: AnyTolerance = 0.0

    @property
    def answer_value(self) -> float:
        """The answer as a number (a question with variables is written variant by variant,
        each with its own: quizbank.variables.variant_question)."""
        return _fixed(self.answer)

    @property
    def tolerance_value(self) -> float:
        """The absolute tolerance (likewise)."""
        return _fixed(self.tolerance)


class ShortAnswer(_Question):
    """A word or phrase the learner types."""

    type: Literal["short_answer"]
    answer: AcceptedAnswers
    case_sensitive: StrictBool = Field(
        False, description="`true`: a response must match the case of an accepted answer."
    )


class Pair(_Strict):
    """An item of a matching question and the match it goes with."""

    id: OptionId
    item: Text = Field(description="What the learner matches, shown beside a drop-down.")
    match: Line = Field(description="Its right match, one of the drop-down's choices.")


class Distractor(_Strict):
    """A wrong match: a further choice of every drop-down of a matching question."""

    id: OptionId
    text: Line


class Matching(_Question):
    """Items, each matched with one of a list of matches; each pair scores its share."""

    type: Literal["matching"]
    pairs: list[Pair] = Field(min_length=2, max_length=26)
    distractors: list[Distractor] = Field(default_factory=list, max_length=26)
    shuffle: Shuffle = True


class OrderItem(_Strict):
    """One item of an ordering question."""

    id: OptionId
    text: Text


class Ordering(_Question):
    """Items to put in order, written in the right order; learners see them shuffled."""

    type: Literal["ordering"]
    items: list[OrderItem] = Field(min_length=2, max_length=26)


class GapOption(_Strict):
    """One choice of a gap's drop-down."""

    id: OptionId
    text: Line
    feedback: Text | None = Field(None, description="Shown when a learner picks this option.")


class ShortAnswerGap(_Strict):
    """A gap the learner types into."""

    type: Literal["short_answer"]
    answer: AcceptedAnswers
    case_sensitive: StrictBool = False


class NumericalGap(_Strict):
    """A gap for a number; in a cloze with variables, its answer may be a formula."""

    type: Literal["numerical"]
    answer: NumberOrFormula
    tolerance: AnyTolerance = 0.0

    @property
    def answer_value(self) -> float:
        """The answer as a number (a cloze with variables is written variant by variant)."""
        return _fixed(self.answer)

    @property
    def tolerance_value(self) -> float:
        """The absolute tolerance (likewise)."""
        return _fixed(self.tolerance)


class ChoiceGap(_Strict):
    """A gap with a drop-down of options, one of them right."""

    type: Literal["single_choice"]
    options: list[GapOption] = Field(min_length=2, max_length=26)
    answer: Annotated[OptionId, BeforeValidator(_one_option_id)]


Gap = Annotated[ShortAnswerGap | NumericalGap | ChoiceGap, Field(discriminator="type")]
GapId = Annotated[
    str,
    StringConstraints(pattern=r"^[a-z0-9]+(?:[-_][a-z0-9]+)*$", max_length=32),
    Field(description="The gap's id, written `[[id]]` in the prompt."),
]
# A gap in a cloze prompt: `[[id]]` (what is between the brackets is checked against `gaps`).
GAP = re.compile(r"\[\[([^\[\]\n]{0,64})\]\]")


class Cloze(_Question, _Calculated):
    """A text with gaps, `[[id]]` in the prompt; each gap scores its share. With `variables`,
    its numerical gaps' answers may be formulas."""

    type: Literal["cloze"]
    gaps: dict[GapId, Gap] = Field(
        min_length=1, max_length=50, description="Each gap of the prompt, by its id."
    )
    shuffle: Shuffle = True
    points: float = Field(
        1,
        strict=True,
        gt=0,
        le=1000,
        description="Marks for a fully right answer; by default one per gap.",
    )

    @model_validator(mode="before")
    @classmethod
    def _one_point_per_gap(cls, data: Any) -> Any:
        """Without `points`, each gap is worth one, as in Moodle."""
        if isinstance(data, dict) and "points" not in data and isinstance(data.get("gaps"), dict):
            return {**data, "points": max(len(data["gaps"]), 1)}
        return data

    @property
    def gap_order(self) -> list[str]:
        """The gap ids as the prompt has them, in order."""
        return GAP.findall(self.prompt)


class Essay(_Question):
    """A written answer, graded by a person: never part of a self-check score."""

    type: Literal["essay"]
    grader_info: Text | None = Field(
        None, description="What a full-mark answer says: for graders, never shown to learners."
    )
    min_words: WordCount | None = None
    max_words: WordCount | None = None


QUESTION_MODELS: dict[str, type[_Question]] = {
    "single_choice": SingleChoice,
    "multiple_choice": MultipleChoice,
    "true_false": TrueFalse,
    "numerical": Numerical,
    "short_answer": ShortAnswer,
    "matching": Matching,
    "ordering": Ordering,
    "cloze": Cloze,
    "essay": Essay,
}
Question = Annotated[
    SingleChoice
    | MultipleChoice
    | TrueFalse
    | Numerical
    | ShortAnswer
    | Matching
    | Ordering
    | Cloze
    | Essay,
    Field(discriminator="type"),
]
ChoiceQuestion = SingleChoice | MultipleChoice


class Section(_Strict):
    """A group of a quiz's questions, of which each attempt asks `pick` (default: all)."""

    id: Slug
    title: Line | None = None
    pick: int | None = Field(
        None, strict=True, ge=1, le=10_000, description="How many questions to draw."
    )
    questions: list[Slug] = Field(min_length=1, max_length=10_000)


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
    sections: list[Section] | None = Field(
        None,
        max_length=100,
        description="Groups of questions, each asked in full or as `pick` drawn from it; "
        "without sections every question is asked, in order.",
    )


def _option_texts(options: Sequence[Option | GapOption], base: Loc) -> list[TextAt]:
    # A list, not a generator: a bank's options are its most numerous texts.
    found: list[TextAt] = []
    for index, option in enumerate(options):
        found.append(((*base, index, "text"), option.text))
        if option.feedback:
            found.append(((*base, index, "feedback"), option.feedback))
    return found


def _choice_texts(question: SingleChoice | MultipleChoice, base: Loc) -> Iterable[TextAt]:
    return _option_texts(question.options, (*base, "options"))


def _true_false_texts(question: TrueFalse, base: Loc) -> Iterator[TextAt]:
    for name in ("feedback_true", "feedback_false"):
        if value := getattr(question, name):
            yield (*base, name), value


def _matching_texts(question: Matching, base: Loc) -> Iterator[TextAt]:
    for index, pair in enumerate(question.pairs):
        yield (*base, "pairs", index, "item"), pair.item
        yield (*base, "pairs", index, "match"), pair.match
    for index, distractor in enumerate(question.distractors):
        yield (*base, "distractors", index, "text"), distractor.text


def _ordering_texts(question: Ordering, base: Loc) -> Iterator[TextAt]:
    for index, item in enumerate(question.items):
        yield (*base, "items", index, "text"), item.text


def _cloze_texts(question: Cloze, base: Loc) -> Iterator[TextAt]:
    for gap_id, gap in question.gaps.items():
        if isinstance(gap, ChoiceGap):
            yield from _option_texts(gap.options, (*base, "gaps", gap_id, "options"))


def _essay_texts(question: Essay, base: Loc) -> Iterator[TextAt]:
    if question.grader_info:
        yield (*base, "grader_info"), question.grader_info


def _no_texts(question: Numerical | ShortAnswer, base: Loc) -> Iterator[TextAt]:
    """Numbers, and accepted answers, which may stay as written in any language
    (`safetensors` is the answer in Urdu too)."""
    return iter(())


# The texts of each type beyond its prompt and explanation, in document order.
_TYPE_TEXTS: dict[type[_Question], Callable[[Any, Loc], Iterable[TextAt]]] = {
    SingleChoice: _choice_texts,
    MultipleChoice: _choice_texts,
    TrueFalse: _true_false_texts,
    Numerical: _no_texts,
    ShortAnswer: _no_texts,
    Matching: _matching_texts,
    Ordering: _ordering_texts,
    Cloze: _cloze_texts,
    Essay: _essay_texts,
}


def text_fields(quiz: Quiz) -> list[TextAt]:
    """Every author-written text of a quiz with its location, in document order."""
    found: list[TextAt] = [(("title",), quiz.title), (("description",), quiz.description)]
    if quiz.guide:
        found.append((("guide", "title"), quiz.guide.title))
    for q_index, question in enumerate(quiz.questions):
        found += question_texts(question, ("questions", q_index))
    for index, section in enumerate(quiz.sections or ()):
        if section.title:
            found.append((("sections", index, "title"), section.title))
    return found


def question_texts(question: _Question, base: Loc = ()) -> list[TextAt]:
    """The texts a translator translates in one question, each with its location under `base`
    (inside the question by default: `("options", 2, "text")`), in document order."""
    return [
        ((*base, "prompt"), question.prompt),
        *_TYPE_TEXTS[type(question)](question, base),
        ((*base, "explanation"), question.explanation),
    ]
