"""Each question type as a QTI 3.0 item: one small writer per model class, dispatched from
`WRITERS`, and the XML helpers they share with the package (qti3.py).

A writer gets the question and the item's `Context` and returns the `Written` parts of its item:
the response declarations, the outcomes it adds to SCORE, MAXSCORE and EXPLANATION, the inside
of `<qti-item-body>` (the prompt and the interaction) and its response processing rules. Every
scored item ends with SCORE set; SCORE's default is 0, so an unanswered item scores nothing.

- single_choice, multiple_choice: `qti-choice-interaction` (max-choices 1, or 0 for any number);
  a `qti-mapping` gives each option its grade from quizbank.grading times the points (lower bound
  0, upper bound the points), SCORE is `qti-map-response`, and MAXSCORE when the response is the
  correct one (Moodle's 3 x 33.33333% would otherwise leave 0.9999999). Option feedback is a
  `qti-feedback-inline` inside its choice, shown when FEEDBACK (set to the response) holds it.
- true_false: a choice interaction of two choices, `true` and `false`, in the language's words.
- numerical: `qti-text-entry-interaction` of base-type float; right within answer +- tolerance
  (`qti-gte`/`qti-lte`, widened by 1e-14 of the larger as the HTML page and Moodle do: 0.9 +- 0.1
  takes 1.0). `qti-equal`'s tolerance-mode would say the same, but players implement it less.
- short_answer: a text entry of base-type string; right when it matches an accepted answer:
  `qti-pattern-match` (an XML Schema regular expression, which matches the whole response),
  with the answer's `*` as `.*`, surrounding white space allowed (Moodle trims), and each letter
  as `[aA]` unless the question is case-sensitive. The accepted answers without `*` are also a
  `qti-mapping` (and the first the correct response) for platforms that read the key from there.
- matching: `qti-match-interaction` (class `qti-match-tabular`, QTI 3's shared vocabulary for a
  table of choices), the items in one match set and the matches and distractors in the other;
  a directedPair mapping gives each right pair its share, MAXSCORE when all are right.
- ordering: `qti-order-interaction` of ordered cardinality, the items written in a fixed
  scrambled order (no item in its place, as on the HTML page) and shuffled by the player; each
  item in its right place (`qti-index`) counts.
- cloze: the prompt with an inline interaction in each gap: a text entry (short answer, number)
  or a `qti-inline-choice-interaction`; each gap right counts. Counted parts (ordering, cloze)
  add 1 to the integer outcome PARTS_RIGHT, and SCORE is MAXSCORE x PARTS_RIGHT / parts (MAXSCORE
  itself when all are right): exact, where adding up shares of a third would not be.
- essay: `qti-extended-text-interaction`; SCORE is `external-scored="human"`, the grader's
  information a `qti-rubric-block` for the scorer, word limits a `pattern-mask` and a note.

A response a player leaves empty is NULL: every condition on a typed response sits behind a
`qti-is-null` test, as some players fail on an operator given NULL.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from html import escape
from typing import Any, NamedTuple

from quizbank.gaps import GAP_MARKS, gap_index, mark_gaps
from quizbank.grading import option_grades
from quizbank.i18n import format_number, gettext_for, word_limits_message
from quizbank.markup import plain_label, to_html
from quizbank.model import (
    ChoiceGap,
    Cloze,
    Essay,
    Matching,
    MultipleChoice,
    Numerical,
    NumericalGap,
    Ordering,
    ShortAnswer,
    ShortAnswerGap,
    SingleChoice,
    TrueFalse,
)
from quizbank.scramble import scrambled_order

RESPONSE = "RESPONSE"
FEEDBACK = "FEEDBACK"
PARTS = "PARTS_RIGHT"


# --------------------------------------------------------------------------------- XML and XHTML


def text(value: str) -> str:
    """Text as element content: `&`, `<` and `>` escaped."""
    return escape(value, quote=False)


def attr(value: str) -> str:
    """Text as a double-quoted attribute value."""
    return escape(value, quote=True)


# HTML's void elements as to_html writes them (`<img …>`; `<br />` and `<hr />` are closed).
_OPEN_VOID = re.compile(r"<(img|br|hr|wbr|col|source)\b((?:[^>/]|/(?!>))*)>")
# What QTI's XHTML has no attribute or element for, and what it says instead (`LOST` below
# names what is lost on the way):
# - a link's `rel` (QTI content opens no window of its own), MathML's `aria-label` (its
#   `alttext` says the same), an image's `title`, a numbered list's `start`: dropped;
_DROPPED = re.compile(
    r' (?:rel|aria-label)="[^"]*"|(<img\b[^>]*?) title="[^"]*"|(<ol) start="[^"]*"'
)
# - a table cell's alignment: QTI 3's shared vocabulary class (`qti-align-center`);
_ALIGN = re.compile(r' style="text-align:(left|center|right)"')
# - strikethrough, which QTI has no element for: a span of a class that names it.
_STRIKE = re.compile(r"<(/?)s>")

# What the conversion loses, as `losses` reports it: (a sign in to_html's HTML, what is lost).
LOST = (
    (re.compile(r"<img\b[^>]* title=\""), "an image's title (its tooltip)"),
    (re.compile(r'<ol start="'), "the number a list starts at (it starts at 1)"),
    (re.compile(r"<s>"), "strikethrough (the text shows, not struck through)"),
)


def _strike(found: re.Match[str]) -> str:
    return "</span>" if found[1] else '<span class="qti-text-decoration-line-through">'


# Whatever the substitutions below change: a text without any is XHTML as it is.
_TO_CHANGE = re.compile(
    r"<(?:img|br|hr|wbr|col|source)\b| (?:rel|aria-label|style)=\"|<ol start=\"|<s>"
)


def xhtml(html: str) -> str:
    """HTML from quizbank.markup as the XHTML that QTI content is: well-formed XML (void
    elements closed), nothing QTI's schema refuses."""
    return _changed_xhtml(html) if _TO_CHANGE.search(html) else html


@lru_cache(maxsize=8192)
def _changed_xhtml(html: str) -> str:
    html = _OPEN_VOID.sub(r"<\1\2/>", html)
    html = _DROPPED.sub(lambda found: found[1] or found[2] or "", html)
    if ' style="' in html:
        html = _ALIGN.sub(r' class="qti-align-\1"', html)
    return _STRIKE.sub(_strike, html) if "<s>" in html else html


def html(value: str, lang: str, *, inline: bool = False) -> str:
    """A Markdown text as QTI's XHTML."""
    return xhtml(to_html(value, lang, inline=inline))


def number(value: float) -> str:
    """A number as an xs:double QTI reads: `3`, `0.9`, `1e-07`."""
    written = repr(float(value))
    return written[:-2] if written.endswith(".0") else written


def identifier(prefix: str, key: str) -> str:
    """A QTI identifier (an NCName) for a quizbank id, which may start with a digit: `choice-a`."""
    return f"{prefix}-{key}"


# ------------------------------------------------------------------------- response processing


def variable(name: str) -> str:
    return f'<qti-variable identifier="{name}"/>'


def base_value(base_type: str, value: str) -> str:
    return f'<qti-base-value base-type="{base_type}">{text(value)}</qti-base-value>'


def set_outcome(name: str, expression: str) -> str:
    return f'<qti-set-outcome-value identifier="{name}">{expression}</qti-set-outcome-value>'


def condition(*branches: tuple[str | None, str]) -> str:
    """A `qti-response-condition`: (expression, rules) for the if and each else-if, and
    (None, rules) for the else."""
    parts = []
    for index, (test, rules) in enumerate(branches):
        tag = (
            "qti-response-else"
            if test is None
            else ("qti-response-if", "qti-response-else-if")[min(index, 1)]
        )
        parts.append(f"<{tag}>{test or ''}{rules}</{tag}>")
    return f"<qti-response-condition>{''.join(parts)}</qti-response-condition>"


def is_null(name: str) -> str:
    return f"<qti-is-null>{variable(name)}</qti-is-null>"


def when_answered(name: str, test: str, rules: str) -> str:
    """`rules` when the response `name` is given and `test` holds."""
    return condition((is_null(name), ""), (test, rules))


def declaration(
    name: str, cardinality: str, base_type: str, correct: Sequence[str], mapping: str = ""
) -> str:
    """A `qti-response-declaration` with its correct response and mapping."""
    values = "".join(f"<qti-value>{text(value)}</qti-value>" for value in correct)
    key = f"<qti-correct-response>{values}</qti-correct-response>" if correct else ""
    return (
        f'<qti-response-declaration identifier="{name}" cardinality="{cardinality}" '
        f'base-type="{base_type}">{key}{mapping}</qti-response-declaration>'
    )


def outcome(name: str, cardinality: str, base_type: str, default: str | None = None) -> str:
    value = (
        ""
        if default is None
        else f"<qti-default-value><qti-value>{text(default)}</qti-value></qti-default-value>"
    )
    return (
        f'<qti-outcome-declaration identifier="{name}" cardinality="{cardinality}" '
        f'base-type="{base_type}">{value}</qti-outcome-declaration>'
    )


def mapping(
    entries: Mapping[str, float], upper: float, *, case_sensitive: bool | None = None
) -> str:
    """A `qti-mapping` of each key to its value, the sum kept between 0 and `upper`."""
    case = "" if case_sensitive is None else f' case-sensitive="{str(case_sensitive).lower()}"'
    rows = "".join(
        f'<qti-map-entry map-key="{attr(key)}" mapped-value="{number(value)}"{case}/>'
        for key, value in entries.items()
    )
    return (
        f'<qti-mapping lower-bound="0" upper-bound="{number(upper)}" default-value="0">'
        f"{rows}</qti-mapping>"
    )


_SCORE_MAX = set_outcome("SCORE", variable("MAXSCORE"))


def mapped_score(name: str = RESPONSE) -> str:
    """SCORE as the mapping gives it, MAXSCORE for the correct response, 0 for none."""
    right = f'<qti-match>{variable(name)}<qti-correct identifier="{name}"/></qti-match>'
    return condition(
        (is_null(name), set_outcome("SCORE", base_value("float", "0"))),
        (right, _SCORE_MAX),
        (None, set_outcome("SCORE", f'<qti-map-response identifier="{name}"/>')),
    )


def counted_score(parts: Sequence[str]) -> str:
    """SCORE from rules that each add 1 to PARTS_RIGHT for a right part: MAXSCORE x right /
    parts, MAXSCORE itself when every part is right."""
    count = len(parts)
    every = f"<qti-match>{variable(PARTS)}{base_value('integer', str(count))}</qti-match>"
    share = (
        f"<qti-divide><qti-product>{variable('MAXSCORE')}{variable(PARTS)}</qti-product>"
        f"{base_value('float', str(count))}</qti-divide>"
    )
    return (
        set_outcome(PARTS, base_value("integer", "0"))
        + "".join(parts)
        + condition((every, _SCORE_MAX), (None, set_outcome("SCORE", share)))
    )


COUNT_ONE = set_outcome(PARTS, f"<qti-sum>{variable(PARTS)}{base_value('integer', '1')}</qti-sum>")


# --------------------------------------------------------------------------------- the writers


@dataclass(frozen=True, slots=True)
class Context:
    """What every writer of one item knows: the language and the question's identity."""

    lang: str
    seed: str  # the question's id: fixes the scrambled order of what the player shuffles


class Written(NamedTuple):
    """One item's parts, as the package assembles them."""

    responses: str  # qti-response-declaration elements
    outcomes: str  # outcome declarations beyond SCORE, MAXSCORE and EXPLANATION
    body: str  # the inside of qti-item-body: the prompt and the interaction(s)
    processing: str  # response rules that set SCORE (and FEEDBACK)
    scored: bool = True  # False: a person scores it (SCORE is external-scored="human")


Writer = Callable[[Any, Context], Written]


def prompt(question: Any, context: Context) -> str:
    """The prompt's XHTML in a div of its own, before the interaction."""
    return f'<div class="qti-prompt-text">{html(question.prompt, context.lang)}</div>'


def _feedback(key: str, feedback: str | None, lang: str, outcome_name: str = FEEDBACK) -> str:
    """Inline feedback shown when the outcome holds `key`; nothing for no feedback."""
    if not feedback:
        return ""
    return (
        f'<qti-feedback-inline outcome-identifier="{outcome_name}" identifier="{key}" '
        f'show-hide="show">{html(feedback, lang, inline=True)}</qti-feedback-inline>'
    )


def _choices(
    choices: Iterable[tuple[str, str, str | None]], lang: str, *, single: bool, shuffle: bool
) -> str:
    """A choice interaction of (identifier, text, feedback) choices."""
    items = "".join(
        f'<qti-simple-choice identifier="{key}">{html(label, lang, inline=True)}'
        f"{_feedback(key, feedback, lang)}</qti-simple-choice>"
        for key, label, feedback in choices
    )
    return (
        f'<qti-choice-interaction response-identifier="{RESPONSE}" '
        f'max-choices="{1 if single else 0}" shuffle="{str(shuffle).lower()}">'
        f"{items}</qti-choice-interaction>"
    )


def _feedback_outcome(cardinality: str, feedbacks: Iterable[str | None]) -> tuple[str, str]:
    """FEEDBACK's declaration and the rule that sets it to the response, when any feedback."""
    if not any(feedbacks):
        return "", ""
    return outcome(FEEDBACK, cardinality, "identifier"), set_outcome(FEEDBACK, variable(RESPONSE))


def _choice(question: SingleChoice | MultipleChoice, context: Context) -> Written:
    """Each option with its grade (quizbank.grading) times the points."""
    single = isinstance(question, SingleChoice)
    cardinality = "single" if single else "multiple"
    keys = {option.id: identifier("choice", option.id) for option in question.options}
    grades = {keys[key]: grade * question.points for key, grade in option_grades(question).items()}
    correct = [keys[key] for key in question.answer_ids]
    responses = declaration(
        RESPONSE, cardinality, "identifier", correct, mapping(grades, question.points)
    )
    options = question.options
    outcomes, feedback = _feedback_outcome(cardinality, (o.feedback for o in options))
    choices = ((keys[o.id], o.text, o.feedback) for o in options)
    body = prompt(question, context) + _choices(
        choices, context.lang, single=single, shuffle=question.shuffle
    )
    return Written(responses, outcomes, body, mapped_score() + feedback)


def _true_false(question: TrueFalse, context: Context) -> Written:
    """Two choices, `true` and `false`, named in the language; right is the answer's."""
    gettext = gettext_for(context.lang)
    correct = "true" if question.answer else "false"
    responses = declaration(
        RESPONSE,
        "single",
        "identifier",
        [correct],
        mapping({correct: question.points}, question.points),
    )
    feedbacks = (question.feedback_true, question.feedback_false)
    outcomes, feedback = _feedback_outcome("single", feedbacks)
    choices = (
        ("true", gettext("True"), question.feedback_true),
        ("false", gettext("False"), question.feedback_false),
    )
    body = prompt(question, context) + _choices(choices, context.lang, single=True, shuffle=False)
    return Written(responses, outcomes, body, mapped_score() + feedback)


# Typed responses: a number within a tolerance, a text matching an accepted answer.

_EPSILON = 1e-14  # Moodle's (and the HTML page's) widening of a tolerance, relative


def number_test(name: str, answer: float, tolerance: float) -> str:
    """True when the number `name` is within `tolerance` of `answer`."""
    margin = tolerance + _EPSILON * max(abs(tolerance), abs(answer), _EPSILON)
    low, high = number(answer - margin), number(answer + margin)
    return (
        f"<qti-and><qti-gte>{variable(name)}{base_value('float', low)}</qti-gte>"
        f"<qti-lte>{variable(name)}{base_value('float', high)}</qti-lte></qti-and>"
    )


# What XML Schema's regular expressions read as syntax; `$` (an anchor in the JavaScript that
# some players hand the pattern to, a plain character in XML Schema) as a class of its own.
_REGEX_SYNTAX = frozenset("\\|.-^?*+{}()[]")
_STAR = re.compile(r"(?<!\\)\*+")


def _regex_char(char: str, case_sensitive: bool) -> str:
    if char in _REGEX_SYNTAX:
        return "\\" + char
    if char == "$":
        return "[$]"
    if not case_sensitive:
        upper, lower = char.upper(), char.lower()
        if upper != lower and len(upper) == len(lower) == 1 and max(upper, lower) < "\U00010000":
            return f"[{lower}{upper}]"
    return char


@lru_cache(maxsize=4096)
def answer_pattern(answer: str, case_sensitive: bool) -> str:
    """An accepted answer as an XML Schema regular expression for the whole response: `*` any
    run of characters on one line, `\\*` an asterisk, white space around it allowed."""
    pieces = [
        "".join(_regex_char(char, case_sensitive) for char in piece.replace("\\*", "*"))
        for piece in _STAR.split(answer.strip())
    ]
    return "\\s*" + ".*".join(pieces) + "\\s*"


def literal(answer: str) -> str | None:
    """The response an accepted answer takes as it is written; None for one with a wildcard."""
    return None if _STAR.search(answer) else answer.replace("\\*", "*")


def text_test(name: str, answers: Sequence[str], case_sensitive: bool) -> str:
    """True when the text `name` matches one of the accepted answers."""
    tests = "".join(
        f'<qti-pattern-match pattern="{attr(answer_pattern(answer, case_sensitive))}">'
        f"{variable(name)}</qti-pattern-match>"
        for answer in answers
    )
    return tests if len(answers) == 1 else f"<qti-or>{tests}</qti-or>"


def text_declaration(name: str, answers: Sequence[str], case_sensitive: bool, points: float) -> str:
    """A string response: the first literal answer correct, each literal answer mapped."""
    literals = [value for answer in answers if (value := literal(answer)) is not None]
    entries = dict.fromkeys(literals, points)
    return declaration(
        name,
        "single",
        "string",
        literals[:1],
        mapping(entries, points, case_sensitive=case_sensitive) if entries else "",
    )


def text_entry(name: str, answers: Sequence[str] = ()) -> str:
    """An inline text entry, as long as the longest accepted answer (at least 10 characters)."""
    length = max([10, *(len(answer) for answer in answers)])
    return f'<qti-text-entry-interaction response-identifier="{name}" expected-length="{length}"/>'


def _scored_when(test: str) -> str:
    return when_answered(RESPONSE, test, _SCORE_MAX)


def _numerical(question: Numerical, context: Context) -> Written:
    """A number right within answer +- tolerance."""
    responses = declaration(RESPONSE, "single", "float", [number(question.answer_value)])
    body = f"{prompt(question, context)}<p>{text_entry(RESPONSE)}</p>"
    test = number_test(RESPONSE, question.answer_value, question.tolerance_value)
    return Written(responses, "", body, _scored_when(test))


def _short_answer(question: ShortAnswer, context: Context) -> Written:
    """A text right when it matches an accepted answer."""
    answers, case = question.answer, question.case_sensitive
    responses = text_declaration(RESPONSE, answers, case, question.points)
    body = f"{prompt(question, context)}<p>{text_entry(RESPONSE, answers)}</p>"
    return Written(responses, "", body, _scored_when(text_test(RESPONSE, answers, case)))


def _matching(question: Matching, context: Context) -> Written:
    """Items and matches in two sets; each right pair its share of the points."""
    lang, count = context.lang, len(question.pairs)
    pairs = {
        f"{identifier('item', pair.id)} {identifier('match', pair.id)}": question.points / count
        for pair in question.pairs
    }
    responses = declaration(
        RESPONSE, "multiple", "directedPair", list(pairs), mapping(pairs, question.points)
    )
    items = "".join(
        f'<qti-simple-associable-choice identifier="{identifier("item", pair.id)}" '
        f'match-max="1">{html(pair.item, lang, inline=True)}</qti-simple-associable-choice>'
        for pair in question.pairs
    )
    targets = [(identifier("match", pair.id), pair.match) for pair in question.pairs]
    targets += [(identifier("distractor", d.id), d.text) for d in question.distractors]
    if question.shuffle:  # a player that does not shuffle shows no match beside its item
        order = scrambled_order(len(targets), context.seed, count)
        targets = [targets[index] for index in order]
    matches = "".join(
        f'<qti-simple-associable-choice identifier="{key}" match-max="{count}">'
        f"{html(label, lang, inline=True)}</qti-simple-associable-choice>"
        for key, label in targets
    )
    body = (
        f"{prompt(question, context)}"
        f'<qti-match-interaction class="qti-match-tabular" response-identifier="{RESPONSE}" '
        f'max-associations="{count}" shuffle="{str(question.shuffle).lower()}">'
        f"<qti-simple-match-set>{items}</qti-simple-match-set>"
        f"<qti-simple-match-set>{matches}</qti-simple-match-set></qti-match-interaction>"
    )
    return Written(responses, "", body, mapped_score())


_PARTS_OUTCOME = outcome(PARTS, "single", "integer", "0")


def _ordering(question: Ordering, context: Context) -> Written:
    """The items to order, scrambled; each item in its right place counts."""
    keys = [identifier("item", item.id) for item in question.items]
    responses = declaration(RESPONSE, "ordered", "identifier", keys)
    order = scrambled_order(len(keys), context.seed, len(keys))
    choices = "".join(
        f'<qti-simple-choice identifier="{keys[index]}">'
        f"{html(question.items[index].text, context.lang, inline=True)}</qti-simple-choice>"
        for index in order
    )
    body = (
        f"{prompt(question, context)}"
        f'<qti-order-interaction response-identifier="{RESPONSE}" shuffle="true">'
        f"{choices}</qti-order-interaction>"
    )
    parts = [
        condition(
            (
                f'<qti-match><qti-index n="{place}">{variable(RESPONSE)}</qti-index>'
                f"{base_value('identifier', key)}</qti-match>",
                COUNT_ONE,
            )
        )
        for place, key in enumerate(keys, 1)
    ]
    return Written(responses, _PARTS_OUTCOME, body, counted_score(parts))


# ---------------------------------------------------------------------------------------- cloze


@dataclass(frozen=True, slots=True)
class GapContext:
    """What a gap's writer knows: its response's name, its share of the points, the language
    and whether a drop-down's options are shuffled."""

    name: str
    share: float
    lang: str
    shuffle: bool


class Gap(NamedTuple):
    """One gap of a cloze: its response and feedback declarations, its inline interaction
    (and inline feedback), the test of a right response and the rule that sets its feedback."""

    responses: str
    outcomes: str
    interaction: str
    test: str
    feedback: str = ""


def _short_answer_gap(gap: ShortAnswerGap, at: GapContext) -> Gap:
    name = at.name
    return Gap(
        text_declaration(name, gap.answer, gap.case_sensitive, at.share),
        "",
        text_entry(name, gap.answer),
        text_test(name, gap.answer, gap.case_sensitive),
    )


def _numerical_gap(gap: NumericalGap, at: GapContext) -> Gap:
    name = at.name
    return Gap(
        declaration(name, "single", "float", [number(gap.answer_value)]),
        "",
        text_entry(name),
        number_test(name, gap.answer_value, gap.tolerance_value),
    )


def _choice_gap(gap: ChoiceGap, at: GapContext) -> Gap:
    """A drop-down of the options as plain text (a drop-down shows no markup: a formula shows
    its TeX, an image its alt text), each option's feedback inline after it."""
    name, lang = at.name, at.lang
    keys = {option.id: identifier("choice", option.id) for option in gap.options}
    feedback_name = f"{FEEDBACK}-{name}"
    choices = "".join(
        f'<qti-inline-choice identifier="{keys[option.id]}">{text(plain_label(option.text, lang))}'
        "</qti-inline-choice>"
        for option in gap.options
    )
    feedbacks = "".join(
        _feedback(keys[option.id], option.feedback, lang, feedback_name) for option in gap.options
    )
    has_feedback = bool(feedbacks)
    return Gap(
        declaration(name, "single", "identifier", [keys[gap.answer]]),
        outcome(feedback_name, "single", "identifier") if has_feedback else "",
        f'<qti-inline-choice-interaction response-identifier="{name}" '
        f'shuffle="{str(at.shuffle).lower()}">'
        f"{choices}</qti-inline-choice-interaction>{feedbacks}",
        f"<qti-match>{variable(name)}{base_value('identifier', keys[gap.answer])}</qti-match>",
        set_outcome(feedback_name, variable(name)) if has_feedback else "",
    )


_GAP_WRITERS: dict[type, Callable[[Any, GapContext], Gap]] = {
    ShortAnswerGap: _short_answer_gap,
    NumericalGap: _numerical_gap,
    ChoiceGap: _choice_gap,
}


def _cloze(question: Cloze, context: Context) -> Written:
    """The prompt with an interaction in each gap; each right gap counts."""
    order = question.gap_order
    share = question.points / len(order)
    names = [identifier(RESPONSE, gap_id) for gap_id in order]
    gaps = [
        _GAP_WRITERS[type(gap)](gap, GapContext(name, share, context.lang, question.shuffle))
        for name, gap in zip(names, (question.gaps[gap_id] for gap_id in order), strict=True)
    ]
    interactions = [gap.interaction for gap in gaps]
    marked = html(mark_gaps(question.prompt), context.lang)
    filled = GAP_MARKS.sub(lambda mark: interactions[gap_index(mark[0])], marked)
    body = f'<div class="qti-prompt-text">{filled}</div>'
    parts = [
        when_answered(name, gap.test, COUNT_ONE) for name, gap in zip(names, gaps, strict=True)
    ]
    return Written(
        "".join(gap.responses for gap in gaps),
        _PARTS_OUTCOME + "".join(gap.outcomes for gap in gaps),
        body,
        counted_score(parts) + "".join(gap.feedback for gap in gaps),
    )


# ---------------------------------------------------------------------------------------- essay


def _words_pattern(low: int | None, high: int | None) -> str:
    """An XML Schema regular expression for a text of `low` to `high` words."""
    first = max((low or 1) - 1, 0)
    last = "" if high is None else str(high - 1)
    return f"\\s*(\\S+\\s+){{{first},{last}}}\\S+\\s*"


def _essay(question: Essay, context: Context) -> Written:
    """An extended text scored by a person; the grader's information for the scorer only."""
    lang = context.lang
    low, high = question.min_words, question.max_words
    limits = word_limits_message(low, high, lang)
    note = ""
    mask = ""
    if limits:
        numbers = {"min": format_number(low or 0, lang), "max": format_number(high or 0, lang)}
        note = f'<p class="qti-word-limits">{text(limits % numbers)}</p>'
        mask = f' pattern-mask="{attr(_words_pattern(low, high))}"'
    rubric = (
        ""
        if not question.grader_info
        else '<qti-rubric-block view="scorer" use="scoring"><qti-content-body>'
        f"<div>{html(question.grader_info, lang)}</div></qti-content-body></qti-rubric-block>"
    )
    body = (
        f"{rubric}{prompt(question, context)}{note}"
        f'<qti-extended-text-interaction response-identifier="{RESPONSE}" expected-lines="15"'
        f"{mask}/>"
    )
    return Written(declaration(RESPONSE, "single", "string", []), "", body, "", scored=False)


WRITERS: dict[type, Writer] = {
    SingleChoice: _choice,
    MultipleChoice: _choice,
    TrueFalse: _true_false,
    Numerical: _numerical,
    ShortAnswer: _short_answer,
    Matching: _matching,
    Ordering: _ordering,
    Cloze: _cloze,
    Essay: _essay,
}
