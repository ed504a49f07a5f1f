"""Each question type as a Canvas QTI 1.2 item: one small writer per model class, dispatched from
`WRITERS`, and what Canvas loses of each, from `LOSSES`.

A writer gets the question, the package's `Texts` and the question's `Numbers` and returns the
`Written` parts of its item: Canvas's question type, the response elements after the question's
material, the respconditions after the general feedback (each answer's feedback, then the key),
each answer's feedback, and the question's text when it is not the prompt's HTML. Each is
written as Canvas's export writes the type (lib/cc/qti/qti_items.rb) and as its importer reads it
(gems/plugins/qti_exporter/lib/qti: choice_interaction, associate_interaction,
numeric_interaction, extended_text_interaction, fill_in_the_blank):

- single_choice, multiple_choice: `multiple_choice_question`, `multiple_answers_question`; a
  `response_lid` (`Single`, `Multiple`), the key a `varequal` (an `<and>` of the right options
  and `<not>` the others). Canvas grades multiple answers itself: each right option picked earns
  1/right of the points, each wrong one takes as much off.
- true_false: `true_false_question`, the answers `True` and `False` (the importer keeps the type
  only for answers with those words, and Canvas shows them as stored); in another language a
  `multiple_choice_question` of the two words in that language (درست, غلط).
- numerical: `numerical_question`, an exact answer: `<or>` of the `varequal` and, with a
  tolerance, an `<and>` of `vargte` and `varlte` (Canvas reads the margin from the upper bound).
- short_answer: `short_answer_question`, each accepted answer a `varequal` (`case="Yes"` when
  case-sensitive, which Canvas ignores: it compares without case), `\\*` an asterisk.
- matching: `matching_question`, a `response_lid` per pair (`response_<n>`, the item as its
  material) listing every match (plain text, each text once, distractors last); each pair adds
  its share.
- cloze: `multiple_dropdowns_question` when every gap is a drop-down, else
  `fill_in_multiple_blanks_question` (a numerical gap is a blank that accepts its number as
  written); the prompt with `[gap-id]` where each gap is, a `response_lid` per gap
  (`response_<gap-id>`) listing its choices or accepted answers as plain text; each gap adds its
  share. A cloze with both drop-downs and typed gaps is not carried (`mixes_gaps`).
- essay: `essay_question`, a text response, graded by a person.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from decimal import Decimal
from operator import attrgetter
from typing import Any, NamedTuple

from quizbank.gaps import GAP_MARKS, gap_index, mark_gaps
from quizbank.grading import option_grades
from quizbank.i18n import gettext_for
from quizbank.markup import find_formulas, find_images
from quizbank.model import (
    ChoiceGap,
    Cloze,
    Essay,
    Matching,
    MultipleChoice,
    Numerical,
    NumericalGap,
    Question,
    ShortAnswer,
    ShortAnswerGap,
    SingleChoice,
    TrueFalse,
)

from .moodle_types import plain_number as number
from .qti12_xml import (
    WORD_JOINER,
    Numbers,
    Texts,
    in_text,
    material,
    plain_material,
    respcondition,
    share,
    varequal,
)

RESPONSE = "response1"  # the one response of a question that has one, as Canvas names it
_LABEL = "              "  # the indent of a response_label
_IN_LABEL = _LABEL + "  "
_IN_RESPONSE = "            "


class Written(NamedTuple):
    """One question's parts of its item (see the module's docstring)."""

    kind: str
    responses: str
    conditions: str
    feedbacks: Sequence[tuple[str, str]] = ()
    text: str | None = None


Writer = Callable[[Any, Texts, Numbers], Written]


# --------------------------------------------------------------------------------------- shared


def _label(ident: str, material: str) -> str:
    """A `<response_label>` (`ident`, one of `Numbers`) with its material."""
    return f'{_LABEL}<response_label ident="{ident}">\n{material}{_LABEL}</response_label>\n'


def _choices(ident: str, labels: str, *, multiple: bool = False, material: str = "") -> str:
    """A `<response_lid>` (`ident`, an ident): its own material (a match item, a blank's name),
    then its choices."""
    cardinality = "Multiple" if multiple else "Single"
    return (
        f'          <response_lid ident="{ident}" rcardinality="{cardinality}">\n'
        f"{material}"
        "            <render_choice>\n"
        f"{labels}"
        "            </render_choice>\n"
        "          </response_lid>\n"
    )


def _typed(fibtype: str = "") -> str:
    """A `<response_str>` for a typed answer (`fibtype="Decimal"` for a number)."""
    kind = f' fibtype="{fibtype}"' if fibtype else ""
    label = (
        '<response_label ident="answer1"/>'
        if fibtype
        else ('<response_label ident="answer1" rshuffle="No"/>')
    )
    return (
        f'          <response_str ident="{RESPONSE}" rcardinality="Single">\n'
        f"            <render_fib{kind}>\n"
        f"              {label}\n"
        "            </render_fib>\n"
        "          </response_str>\n"
    )


def _any(conditions: Sequence[str]) -> str:
    """One condition, or an `<or>` of several."""
    return conditions[0] if len(conditions) == 1 else f"<or>{''.join(conditions)}</or>"


def _feedback_conditions(respident: str, idents: Iterable[str]) -> str:
    """A condition per answer with feedback: shows `<n>_fb` when it is chosen, and goes on."""
    return "".join(
        [
            respcondition(varequal(respident, ident), keep_going=True, feedback=f"{ident}_fb")
            for ident in idents
        ]
    )


_WILDCARD = re.compile(r"(?<!\\)\*")


def _literal(answer: str) -> str:
    """An accepted answer as Canvas compares it: `\\*` is an asterisk (a `*` stays a `*`)."""
    return answer.replace("\\*", "*")


def _typed_losses(answers: Sequence[str], case_sensitive: bool, where: str = "") -> list[str]:
    """What typed answers lose in Canvas: wildcards (matched as written) and case."""
    lost = []
    wild = [answer for answer in answers if _WILDCARD.search(answer)]
    if wild:
        lost.append(f"accepts {', '.join(wild)}{where} only as written: Canvas has no wildcards")
    if case_sensitive:
        lost.append(f"ignores case{where}: Canvas compares typed answers without it")
    return lost


def _shown_plain(texts: Iterable[str]) -> bool:
    """Whether a drop-down's texts hold an image or a formula, which plain text cannot show."""
    return any(find_images(text) or find_formulas(text) for text in texts)


_PLAIN_CHOICES = (
    "shows its {what} as plain text (an image as its alt text, a formula as its TeX): "
    "Canvas's drop-downs hold text only"
)


# ------------------------------------------------------------------------------------- choices

_TEXT = attrgetter("text")


def _choice(question: SingleChoice | MultipleChoice, texts: Texts, numbers: Numbers) -> Written:
    """Each option a choice (HTML), its feedback `<n>_fb`; the right one, or every right one and
    none of the others."""
    idents = {option.id: numbers(f"option/{option.id}") for option in question.options}
    labels = "".join(
        [
            _label(idents[option.id], material(texts.html(option.text, inline=True), _IN_LABEL))
            for option in question.options
        ]
    )
    with_feedback = [option for option in question.options if option.feedback]
    if isinstance(question, MultipleChoice):
        right = set(question.answer)
        key = "".join(
            [
                varequal(RESPONSE, idents[option.id])
                if option.id in right
                else f"<not>{varequal(RESPONSE, idents[option.id])}</not>"
                for option in question.options
            ]
        )
        kind, key = "multiple_answers_question", f"<and>{key}</and>"
    else:
        kind, key = "multiple_choice_question", varequal(RESPONSE, idents[question.answer])
    return Written(
        kind,
        _choices(RESPONSE, labels, multiple=isinstance(question, MultipleChoice)),
        _feedback_conditions(RESPONSE, [idents[option.id] for option in with_feedback])
        + respcondition(key, score="100"),
        [(f"{idents[o.id]}_fb", texts.html(o.feedback)) for o in with_feedback if o.feedback],
    )


def _choice_losses(question: SingleChoice | MultipleChoice) -> list[str]:
    """A multiple_choice question that quizbank grades otherwise than Canvas does."""
    if isinstance(question, SingleChoice):
        return []
    grades = option_grades(question)
    right = len(question.answer)
    canvas = {o.id: (1 if o.id in question.answer else -1) / right for o in question.options}
    if all(abs(grades[key] - canvas[key]) < 1e-4 for key in grades):
        return []
    wrong = [-grades[o.id] for o in question.options if o.id not in question.answer]
    ours = f" (quizbank takes {_percent(wrong[0])} off)" if wrong else ""
    return [
        "is graded as Canvas grades multiple answers: each right option picked earns "
        f"{_percent(1 / right)} of its points and each wrong one takes as much off{ours}"
    ]


def _percent(fraction: float) -> str:
    return f"{fraction * 100:.4g}%"


_TRUE_FALSE = (
    ("true", "True", attrgetter("feedback_true")),
    ("false", "False", attrgetter("feedback_false")),
)


def _true_false(question: TrueFalse, texts: Texts, numbers: Numbers) -> Written:
    """The answers `True` and `False`, the words Canvas's importer keeps a true/false question
    by (and shows as they are); in another language, a two-choice multiple choice question with
    the words of its language. Each answer with its feedback."""
    idents = {key: numbers(key) for key, _, _ in _TRUE_FALSE}
    gettext = gettext_for(texts.lang)
    words = {key: gettext(word) for key, word, _ in _TRUE_FALSE}
    english = [words[key] for key, _, _ in _TRUE_FALSE] == ["True", "False"]
    labels = "".join(
        _label(
            idents[key],
            plain_material(words[key], _IN_LABEL)
            if english
            else material(texts.html(words[key], inline=True), _IN_LABEL),
        )
        for key, _, _ in _TRUE_FALSE
    )
    with_feedback = [
        (idents[key], feedback) for key, _, get in _TRUE_FALSE if (feedback := get(question))
    ]
    right = idents[question.answer_ids[0]]
    return Written(
        "true_false_question" if english else "multiple_choice_question",
        _choices(RESPONSE, labels),
        _feedback_conditions(RESPONSE, (ident for ident, _ in with_feedback))
        + respcondition(varequal(RESPONSE, right), score="100"),
        [(f"{ident}_fb", texts.html(feedback)) for ident, feedback in with_feedback],
    )


# ------------------------------------------------------------------------------------ typed ones


def _decimal(value: Decimal) -> str:
    """A decimal in plain notation (`0.895`, `100`), as Ruby's to_f and BigDecimal read it."""
    return format(value.normalize(), "f")


def _numerical(question: Numerical, texts: Texts, numbers: Numbers) -> Written:
    """An exact answer, and its margin as Canvas's export writes one: `<or>` the number, or
    between the number minus and plus the tolerance."""
    exact = number(question.answer_value)
    conditions = [varequal(RESPONSE, exact)]
    if question.tolerance:
        middle, margin = Decimal(exact), Decimal(number(question.tolerance_value))
        conditions.append(
            f'<and><vargte respident="{RESPONSE}">{_decimal(middle - margin)}</vargte>'
            f'<varlte respident="{RESPONSE}">{_decimal(middle + margin)}</varlte></and>'
        )
    key = f"<or>{''.join(conditions)}</or>"  # Canvas reads an exact answer only inside an <or>
    return Written("numerical_question", _typed("Decimal"), respcondition(key, score="100"))


def _short_answer(question: ShortAnswer, texts: Texts, numbers: Numbers) -> Written:
    """Each accepted answer, as written."""
    answers = dict.fromkeys(_literal(answer) for answer in question.answer)
    key = _any([varequal(RESPONSE, a, case=question.case_sensitive) for a in answers])
    return Written("short_answer_question", _typed(), respcondition(key, score="100"))


def _short_answer_losses(question: ShortAnswer) -> list[str]:
    return _typed_losses(question.answer, question.case_sensitive)


def _essay(question: Essay, texts: Texts, numbers: Numbers) -> Written:
    """A text response, graded by a person: nothing sets the score."""
    return Written("essay_question", _typed(), respcondition("<other/>"))


def _essay_losses(question: Essay) -> list[str]:
    lost = []
    if question.grader_info:
        lost.append(
            "leaves out its grader information: a Canvas essay question has no text that only "
            "graders see"
        )
    if question.min_words is not None or question.max_words is not None:
        lost.append("leaves out its word limits: Canvas Classic essay questions have none")
    return lost


# -------------------------------------------------------------------------------------- matching


def _matching(question: Matching, texts: Texts, numbers: Numbers) -> Written:
    """A drop-down per pair, the item its material, listing every match once (pairs' first,
    distractors last); each pair adds its share."""
    matches: dict[str, str] = {}  # plain text: ident
    for line in [*(pair.match for pair in question.pairs), *map(_TEXT, question.distractors)]:
        plain = texts.plain(line)
        matches.setdefault(plain, numbers(f"match/{plain}"))
    labels = "".join(
        _label(ident, plain_material(plain, _IN_LABEL)) for plain, ident in matches.items()
    )
    responses, conditions = [], []
    for pair in question.pairs:
        respident = f"response_{numbers(f'pair/{pair.id}')}"
        item = material(texts.html(pair.item, inline=True), _IN_RESPONSE)
        responses.append(_choices(respident, labels, material=item))
        right = varequal(respident, matches[texts.plain(pair.match)])
        conditions.append(
            respcondition(right, keep_going=True, score=share(len(question.pairs)), add=True)
        )
    return Written("matching_question", "".join(responses), "".join(conditions))


def _matching_losses(question: Matching) -> list[str]:
    lost = []
    if not question.shuffle:
        lost.append("has its matches shuffled: Canvas always shuffles a matching question's")
    lines = [*(pair.match for pair in question.pairs), *map(_TEXT, question.distractors)]
    if _shown_plain(lines):
        lost.append(_PLAIN_CHOICES.format(what="matches"))
    return lost


# ----------------------------------------------------------------------------------------- cloze


class _Gap(NamedTuple):
    """A gap's choices (or accepted answers), the condition of its right answer, and each
    choice that has feedback: its ident and the feedback's HTML."""

    labels: str
    key: str
    feedbacks: Sequence[tuple[str, str]] = ()


def _choice_gap(gap_id: str, gap: ChoiceGap, texts: Texts, numbers: Numbers) -> _Gap:
    respident = f"response_{gap_id}"
    idents = {option.id: numbers(f"{gap_id}/{option.id}") for option in gap.options}
    labels = "".join(
        _label(idents[option.id], plain_material(texts.plain(option.text), _IN_LABEL))
        for option in gap.options
    )
    feedbacks = [
        (idents[option.id], texts.html(option.feedback))
        for option in gap.options
        if option.feedback
    ]
    return _Gap(labels, varequal(respident, idents[gap.answer]), feedbacks)


def _typed_gap(gap_id: str, answers: Iterable[str], numbers: Numbers) -> _Gap:
    """A blank: each accepted answer one of its choices, every one of them right."""
    respident = f"response_{gap_id}"
    idents = {answer: numbers(f"{gap_id}/{answer}") for answer in answers}
    labels = "".join(
        _label(ident, plain_material(answer, _IN_LABEL)) for answer, ident in idents.items()
    )
    return _Gap(labels, _any([varequal(respident, ident) for ident in idents.values()]))


def _short_answer_gap(gap_id: str, gap: ShortAnswerGap, texts: Texts, numbers: Numbers) -> _Gap:
    return _typed_gap(gap_id, dict.fromkeys(_literal(answer) for answer in gap.answer), numbers)


def _numerical_gap(gap_id: str, gap: NumericalGap, texts: Texts, numbers: Numbers) -> _Gap:
    return _typed_gap(gap_id, [number(gap.answer_value)], numbers)


_GAP_WRITERS: dict[type, Callable[[str, Any, Texts, Numbers], _Gap]] = {
    ChoiceGap: _choice_gap,
    ShortAnswerGap: _short_answer_gap,
    NumericalGap: _numerical_gap,
}


def _dropdowns(question: Cloze) -> bool:
    """Whether every gap of a cloze is a drop-down (a multiple dropdowns question)."""
    return all(isinstance(gap, ChoiceGap) for gap in question.gaps.values())


def mixes_gaps(question: Question) -> bool:
    """Whether a cloze has drop-down and typed gaps, which no Canvas question has together."""
    if not isinstance(question, Cloze):
        return False
    kinds = {isinstance(gap, ChoiceGap) for gap in question.gaps.values()}
    return len(kinds) > 1


def _cloze(question: Cloze, texts: Texts, numbers: Numbers) -> Written:
    """The prompt with `[gap-id]` for each gap (an author's own `[gap-id]` made inert), a
    `response_<gap-id>` per gap; each gap adds its share."""
    order = question.gap_order
    html = texts.html(mark_gaps(question.prompt))
    own = re.compile(rf"\[(?=(?:{'|'.join(map(re.escape, order))})\])")
    html = in_text(html, own, f"[{WORD_JOINER}")
    prompt = GAP_MARKS.sub(lambda mark: f"[{order[gap_index(mark[0])]}]", html)
    responses, feedback_conditions, keys, feedbacks = [], [], [], []
    for gap_id in order:
        gap = question.gaps[gap_id]
        written = _GAP_WRITERS[type(gap)](gap_id, gap, texts, numbers)
        blank = plain_material(gap_id, _IN_RESPONSE)
        responses.append(_choices(f"response_{gap_id}", written.labels, material=blank))
        idents = [ident for ident, _ in written.feedbacks]
        feedback_conditions.append(_feedback_conditions(f"response_{gap_id}", idents))
        keys.append(respcondition(written.key, keep_going=True, score=share(len(order)), add=True))
        feedbacks += [(f"{ident}_fb", html) for ident, html in written.feedbacks]
    kind = (
        "multiple_dropdowns_question"
        if _dropdowns(question)
        else ("fill_in_multiple_blanks_question")
    )
    conditions = "".join(feedback_conditions) + "".join(keys)
    return Written(kind, "".join(responses), conditions, feedbacks, prompt)


def _cloze_losses(question: Cloze) -> list[str]:
    lost = []
    for gap_id in question.gap_order:
        gap, where = question.gaps[gap_id], f" in gap {gap_id}"
        if isinstance(gap, ChoiceGap) and _shown_plain(map(_TEXT, gap.options)):
            lost.append(_PLAIN_CHOICES.format(what=f"choices{where}"))
        elif isinstance(gap, ShortAnswerGap):
            lost += _typed_losses(gap.answer, gap.case_sensitive, where)
        elif isinstance(gap, NumericalGap):
            margin, answer = gap.tolerance_value, number(gap.answer_value)
            within = f", not any number within {number(margin)} of it" * bool(margin)
            lost.append(
                f"takes gap {gap_id} as text: a Canvas blank accepts {answer} only "
                f"as written{within}"
            )
    return lost


# ------------------------------------------------------------------------------------ dispatch


def shuffle_of(question: Question) -> bool | None:
    """Whether a question whose answers Canvas's quiz setting shuffles (multiple choice and
    answers, multiple dropdowns) asks for them shuffled; None for the others."""
    if isinstance(question, SingleChoice | MultipleChoice):
        return question.shuffle
    if isinstance(question, Cloze) and _dropdowns(question):
        return question.shuffle
    return None


def _nothing(question: Question) -> list[str]:
    return []


WRITERS: dict[type, Writer] = {
    SingleChoice: _choice,
    MultipleChoice: _choice,
    TrueFalse: _true_false,
    Numerical: _numerical,
    ShortAnswer: _short_answer,
    Matching: _matching,
    Cloze: _cloze,
    Essay: _essay,
}

LOSSES: dict[type, Callable[[Any], list[str]]] = {
    SingleChoice: _choice_losses,
    MultipleChoice: _choice_losses,
    TrueFalse: _nothing,
    Numerical: _nothing,
    ShortAnswer: _short_answer_losses,
    Matching: _matching_losses,
    Cloze: _cloze_losses,
    Essay: _essay_losses,
}
