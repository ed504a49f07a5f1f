"""Each question type as Moodle XML: one small writer per model class, dispatched from `WRITERS`.

A writer gets the question in the first (reference) language, the same question in each language
of the file (reference language first) and the file's `Settings`, and returns the `Written` parts
of the question: Moodle's type, its penalty and the elements after its idnumber, in the names
and values Moodle's importer reads (question/format/xml/format.php, and each qtype's own
import_from_xml) and its own export writes back: the real Moodle's import compares the two, so an
element it would not write back (`<units/>`, an empty feedback of an ordering item) is left out.

Types and what Moodle stores:

- single_choice, multiple_choice: `multichoice`, each option's grade from quizbank.grading.
- true_false: `truefalse`.
- numerical: `numerical`, one answer at 100% with its `<tolerance>`, no units (`showunits` 3:
  no unit field).
- short_answer: `shortanswer`, `<usecase>` 1 when case-sensitive, each accepted answer at 100%,
  as written (`*` is Moodle's own wildcard, `\\*` an asterisk, as in quizbank). In a file of
  several languages every language's accepted answers are accepted.
- matching: `match`, a `<subquestion>` per pair (the item's HTML, its match as plain text, a
  code span between its backticks) and per distractor (no text, its match only); Moodle grades
  each pair its share.
- ordering: `ordering`, every item shown (`selecttype` ALL, `selectcount` the number of items),
  graded ABSOLUTE_POSITION (each item in its right place its share, as the HTML page grades),
  the items in the right order.
- cloze: `multianswer`, each `[[id]]` of the prompt replaced by Moodle's embedded answer
  (`{1:SHORTANSWER:=a~=b}`, `{1:NUMERICAL:=0.9:0.005}`, `{1:MULTICHOICE_S:=right~wrong#why}`).
  Moodle adds the gaps' weights up for the question's mark and gives each gap its weight's
  share: every gap has the same weight, points / gaps when that is a whole number (Moodle takes
  whole weights only), else 1 (the question's mark is then the number of gaps; the shares stay
  equal).
- essay: `essay` with `<graderinfo>`, an editor for the response, which is required, the word
  limits, no attachments and an empty response template.

Plain-text fields (a match's drop-down choices) go through Moodle's format_string(), which runs
the filters only when *Filter all strings* is on (off by default) and strips tags: neither
multilang syntax works there, so in a file of several languages such a field holds each
language's text, ` / ` between them, the right-to-left ones isolated (U+2068…U+2069). A
drop-down shows text only: an image there is its alt text, a formula its TeX (as are a cloze
drop-down's choices).

Images: the `<file>` elements of a text's images follow its `<text>` inside the element Moodle's
importer reads them from (`<answer>` for a choice and an ordering item, `<subquestion>` for a
match item, `<feedback>`, `<graderinfo>`); a cloze gap's feedback, which Moodle keeps with the
gap and no file, shows an image's alt text.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from html import escape
from operator import attrgetter
from typing import Any, NamedTuple

from markdown_it import MarkdownIt

from quizbank.gaps import GAP_MARKS, gap_index, gap_mark, mark_gaps
from quizbank.grading import option_grades
from quizbank.locales import is_rtl
from quizbank.markup import plain_label, to_plain
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
from quizbank.variables import Values

from . import moodle_calculated as mc
from . import moodle_text as mt
from .multilang import spans

_TEXT = attrgetter("text")
_FEEDBACK = attrgetter("feedback")
_ITEM = attrgetter("item")
_MATCH = attrgetter("match")
_GRADER_INFO = attrgetter("grader_info")
_TRUE_FALSE = (
    (True, "true", attrgetter("feedback_true")),
    (False, "false", attrgetter("feedback_false")),
)
_SHOW_NUM_CORRECT = "    <shownumcorrect/>\n"


@dataclass(frozen=True, slots=True)
class Settings:
    """What the renderer's options decide for every question of a file."""

    syntax: mt.Syntax
    shuffle: bool
    numbering: str


class Written(NamedTuple):
    """One question's parts: its Moodle type and penalty, the elements after its idnumber, the
    question text when it is not the prompt's HTML, and whether it has a `<defaultgrade>`
    (a multianswer's mark is the sum of its gaps' weights: Moodle neither reads nor writes one)."""

    kind: str
    penalty: str
    body: str
    questiontext: str | None = None
    graded: bool = True


Writer = Callable[[Any, mt.Versions[Any], Settings], Written]


def _bool(value: bool) -> str:
    return "true" if value else "false"


def plain_number(value: float) -> str:
    """A number as Moodle reads it: `3`, `0.9`, `1e-07` (never `3.0`); the model's default
    tolerance is the int 0 (which has no is_integer() before Python 3.12)."""
    value = float(value)
    if value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    return repr(value)


@lru_cache(maxsize=64)
def grade_percent(grade: float) -> str:
    """A grade as Moodle's fraction attribute: `33.33333`, `50`, `-25`."""
    return f"{grade:.5f}".rstrip("0").rstrip(".")


_COMBINED_FEEDBACK = "".join(
    mt._field(tag, "")
    for tag in ("correctfeedback", "partiallycorrectfeedback", "incorrectfeedback")
)
_EMPTY_FEEDBACK = mt._field("feedback", "", "      ")


@lru_cache(maxsize=16)
def _multichoice_settings(single: bool, shuffle: bool, numbering: str) -> str:
    """What a multichoice question sets before its answers."""
    return (
        f"    <single>{_bool(single)}</single>\n"
        f"    <shuffleanswers>{_bool(shuffle)}</shuffleanswers>\n"
        f"    <answernumbering>{mt._text(numbering)}</answernumbering>\n"
        "    <showstandardinstruction>1</showstandardinstruction>\n"
        f"{_COMBINED_FEEDBACK}"
        f"{'' if single else _SHOW_NUM_CORRECT}"
    )


def _choice(
    first: SingleChoice | MultipleChoice,
    versions: mt.Versions[SingleChoice | MultipleChoice],
    settings: Settings,
) -> Written:
    """A multichoice question: each option with its grade and feedback."""
    fractions = {key: grade_percent(grade * 100) for key, grade in option_grades(first).items()}
    syntax = settings.syntax
    answers = "".join(
        f'    <answer fraction="{fractions[option.id]}" format="html">\n'
        f"{mt._text_element(mt._html(same, _TEXT, syntax, inline=True), '      ')}"
        f"{mt._field('feedback', mt._html(same, _FEEDBACK, syntax, inline=True), '      ')}"
        "    </answer>\n"
        for option, same in mt._aligned([(lang, q.options) for lang, q in versions])
    )
    single = isinstance(first, SingleChoice)
    shuffle = settings.shuffle and first.shuffle
    return Written(
        "multichoice",
        "0.3333333",
        _multichoice_settings(single, shuffle, settings.numbering) + answers,
    )


def _true_false(first: TrueFalse, versions: mt.Versions[TrueFalse], settings: Settings) -> Written:
    """The two answers of a true/false question; Moodle's form fixes the penalty at 1."""
    # import_truefalse() tells the answers apart by their text: exactly `true` and `false`.
    syntax = settings.syntax
    answers = "".join(
        f'    <answer fraction="{"100" if first.answer is value else "0"}">\n'
        f"      <text>{word}</text>\n"
        f"{mt._field('feedback', mt._html(versions, feedback, syntax, inline=True), '      ')}"
        "    </answer>\n"
        for value, word, feedback in _TRUE_FALSE
    )
    return Written("truefalse", "1", answers)


# What qtype_numerical stores for a question without units, as its export writes it back.
_NO_UNITS = (
    "    <unitgradingtype>0</unitgradingtype>\n"
    "    <unitpenalty>0.1000000</unitpenalty>\n"
    "    <showunits>3</showunits>\n"
    "    <unitsleft>0</unitsleft>\n"
)


def _numerical(first: Numerical, versions: mt.Versions[Numerical], settings: Settings) -> Written:
    """One answer at 100% within its tolerance, no units."""
    return Written(
        "numerical",
        "0.3333333",
        '    <answer fraction="100">\n'
        f"      <text>{plain_number(first.answer_value)}</text>\n"
        f"{_EMPTY_FEEDBACK}"
        f"      <tolerance>{plain_number(first.tolerance_value)}</tolerance>\n"
        "    </answer>\n"
        f"{_NO_UNITS}",
    )


# Moodle keeps no combined feedback of a calculated question, and its export writes it without
# a format: so does quizbank (the real Moodle reported the format as a difference).
_CALCULATED_FEEDBACK = "".join(
    f"    <{tag}>\n      <text></text>\n    </{tag}>\n"
    for tag in ("correctfeedback", "partiallycorrectfeedback", "incorrectfeedback")
)


def calculated(first: Numerical, drawn: Sequence[Values]) -> Written:
    """A numerical question with variables: Moodle's `calculated`, its formula the answer
    within its tolerance, its variables private datasets whose items are the variants
    (moodle_calculated.py)."""
    assert isinstance(first.answer, str | float | int)
    tolerance, kind = mc.tolerance(first)
    length, answer_format = mc.answer_length(first)
    answer = first.answer if isinstance(first.answer, str) else plain_number(first.answer)
    return Written(
        "calculated",
        "0.3333333",
        "    <synchronize>0</synchronize>\n"
        "    <single>0</single>\n"
        "    <answernumbering>abc</answernumbering>\n"
        "    <shuffleanswers>0</shuffleanswers>\n"
        f"{_CALCULATED_FEEDBACK}"
        '    <answer fraction="100">\n'
        f"      <text>{mt._cdata(answer)}</text>\n"
        f"      <tolerance>{tolerance}</tolerance>\n"
        f"      <tolerancetype>{kind}</tolerancetype>\n"
        f"      <correctanswerformat>{answer_format}</correctanswerformat>\n"
        f"      <correctanswerlength>{length}</correctanswerlength>\n"
        f"{_EMPTY_FEEDBACK}"
        "    </answer>\n"
        f"{_NO_UNITS}"
        f"{mc.datasets(first, drawn)}",
    )


def _accepted(answers: Sequence[Sequence[str]]) -> list[str]:
    """Every language's accepted answers, each once, in order."""
    return list(dict.fromkeys(answer for each in answers for answer in each))


def _short_answer(
    first: ShortAnswer, versions: mt.Versions[ShortAnswer], settings: Settings
) -> Written:
    """Each accepted answer at 100%, as written (Moodle's `*` is quizbank's).

    In a file of several languages a response is right when it matches an accepted answer of any
    language: a learner may answer in either."""
    answers = "".join(
        f'    <answer fraction="100">\n      <text>{mt._cdata(answer)}</text>\n'
        f"{_EMPTY_FEEDBACK}    </answer>\n"
        for answer in _accepted([q.answer for _, q in versions])
    )
    return Written(
        "shortanswer", "0.3333333", f"    <usecase>{int(first.case_sensitive)}</usecase>\n{answers}"
    )


def plain_line(versions: mt.Versions[Any], get: Callable[[Any], str], *, code: bool = False) -> str:
    """A one-line text as plain text, as format_string() shows it (tags stripped, no filter):
    in several languages, each language's text, ` / ` between them; with `code`, each code span
    between its backticks, as a reader of plain text writes code (and an import reads it)."""
    texts = _labels(versions, get, code=code)
    if len(texts) == 1:
        return mt.inert_text(mt.untagged(texts[0][1]))
    return mt.inert_text(" / ".join(_isolated(mt.untagged(label), lang) for lang, label in texts))


def _labels(
    versions: mt.Versions[Any], get: Callable[[Any], str], *, code: bool = False
) -> list[tuple[str, str]]:
    """Each different text as a plain-text label (`plain_label`) with the first language that
    has it; a text that a right-to-left language has too (a code name, a formula) as that
    language isolates it, since the drop-down may be shown right to left."""
    labels: dict[str, tuple[str, str]] = {}  # plain text: its language, its label
    for lang, item in versions:
        text = get(item)
        plain = to_plain(text)
        label = plain_label(text, lang)
        if code:
            label = _code_marked(text, label)
        if plain not in labels:
            labels[plain] = (lang, label)
        elif is_rtl(lang):
            labels[plain] = (labels[plain][0], label)
    return list(labels.values())


_INLINE = MarkdownIt("commonmark")


def _code_marked(text: str, label: str) -> str:
    """The plain-text label of a Markdown text with each of the text's code spans between
    backticks again (as many as CommonMark needs around it)."""
    if "`" not in text:
        return label
    out: list[str] = []
    at = 0
    for token in _INLINE.parseInline(text)[0].children or ():
        if token.type != "code_inline":
            continue
        content = " ".join(token.content.split())
        found = label.find(content, at)
        if found < 0 or not content:
            continue
        pad = " " if content[0] == "`" or content[-1] == "`" else ""
        out += [label[at:found], token.markup, pad, content, pad, token.markup]
        at = found + len(content)
    return "".join(out) + label[at:]


def _isolated(plain: str, lang: str) -> str:
    """A right-to-left text among others, isolated (U+2068…U+2069)."""
    return f"\u2068{plain}\u2069" if is_rtl(lang) else plain


def _matching(first: Matching, versions: mt.Versions[Matching], settings: Settings) -> Written:
    """A subquestion per pair, then one per distractor with no text."""
    syntax = settings.syntax
    pairs = "".join(
        '    <subquestion format="html">\n'
        f"{mt._text_element(mt._html(same, _ITEM, syntax, inline=True), '      ')}"
        f"      <answer>\n        <text>{mt._cdata(plain_line(same, _MATCH, code=True))}</text>\n"
        "      </answer>\n    </subquestion>\n"
        for _, same in mt._aligned([(lang, q.pairs) for lang, q in versions])
    )
    distractors = "".join(
        '    <subquestion format="html">\n      <text></text>\n'
        f"      <answer>\n        <text>{mt._cdata(plain_line(same, _TEXT, code=True))}</text>\n"
        "      </answer>\n    </subquestion>\n"
        for _, same in mt._aligned([(lang, q.distractors) for lang, q in versions])
    )
    return Written(
        "match",
        "0.3333333",
        f"    <shuffleanswers>{_bool(settings.shuffle and first.shuffle)}</shuffleanswers>\n"
        f"{_COMBINED_FEEDBACK}{_SHOW_NUM_CORRECT}{pairs}{distractors}",
    )


def _ordering(first: Ordering, versions: mt.Versions[Ordering], settings: Settings) -> Written:
    """Every item shown, graded by absolute position; the items in the right order (Moodle keeps
    each item's place in its `fraction`, 1 first)."""
    items = mt._aligned([(lang, q.items) for lang, q in versions])
    answers = "".join(
        f'    <answer fraction="{place}" format="html">\n'
        f"{mt._text_element(mt._html(same, _TEXT, settings.syntax, inline=True), '      ')}"
        "    </answer>\n"
        for place, (_, same) in enumerate(items, 1)
    )
    return Written(
        "ordering",
        "0.3333333",
        "    <layouttype>VERTICAL</layouttype>\n"
        "    <selecttype>ALL</selecttype>\n"
        f"    <selectcount>{len(items)}</selectcount>\n"
        "    <gradingtype>ABSOLUTE_POSITION</gradingtype>\n"
        "    <showgrading>SHOW</showgrading>\n"
        "    <numberingstyle>none</numberingstyle>\n"
        f"{_COMBINED_FEEDBACK}"
        "    <shownumcorrect>1</shownumcorrect>\n"
        f"{answers}",
    )


def _essay(first: Essay, versions: mt.Versions[Essay], settings: Settings) -> Written:
    """Graded by a person: an editor, a response required, the word limits, no attachments."""
    limits = "".join(
        f"    <{tag}>{value}</{tag}>\n"
        for tag, value in (("minwordlimit", first.min_words), ("maxwordlimit", first.max_words))
        if value is not None
    )
    return Written(
        "essay",
        "0",
        "    <responseformat>editor</responseformat>\n"
        "    <responserequired>1</responserequired>\n"
        "    <responsefieldlines>15</responsefieldlines>\n"
        f"{limits}"
        "    <attachments>0</attachments>\n"
        "    <attachmentsrequired>0</attachmentsrequired>\n"
        f"{mt._field('graderinfo', mt._html(versions, _GRADER_INFO, settings.syntax))}"
        f"{mt._field('responsetemplate', '')}",
    )


# ---------------------------------------------------------------------------------------- cloze

# What Moodle's embedded-answer syntax reserves, written as character references: an answer
# ends at a `~`, `#` or `}` not after `\` or `&` (ANSWER_ALTERNATIVE_ANSWER_REGEX), a feedback at
# a `~` or `}` not after `\`; a leading `=` or `%…%` is a grade; `{` may start an answer. Moodle
# decodes each answer and feedback with html_entity_decode() (and turns `\}`, `\#` into `}`, `#`,
# but not `\~`), so a reference gives back exactly the character; `&` itself is `&#38;` (an
# answer ending in `&amp;` would hide the `}` after it), `\` is `&#92;` (it would hide it too).
_EMBEDDED = str.maketrans({char: f"&#{ord(char)};" for char in '&\\{}~#=%"/<>'})


@dataclass(frozen=True, slots=True)
class _Gaps:
    """What a cloze question's gaps are written with: the file's syntax, and whether Moodle
    shuffles a drop-down's choices (`-O shuffle` and the question's `shuffle`)."""

    syntax: mt.Syntax
    shuffle: bool


def embedded_text(text: str) -> str:
    """A text in an embedded answer: Moodle stores exactly `text` (html_entity_decode)."""
    return text.translate(_EMBEDDED)


def _gap_plain(versions: mt.Versions[Any], get: Callable[[Any], str], syntax: mt.Syntax) -> str:
    """A choice of a gap's drop-down as HTML of plain text; in several languages in the syntax
    of the file (Moodle filters each choice with format_text before it lists it)."""
    labels = _labels(versions, get)
    if len(labels) == 1:
        return mt.inert_text(escape(labels[0][1], quote=False))
    texts = [(lang, mt.inert_text(escape(plain_label(get(item), lang), quote=False)))
             for lang, item in versions]  # fmt: skip
    return mt._mlang2(texts) if syntax == "mlang2" else spans(texts)


def _short_answer_gap(weight: str, gaps: mt.Versions[ShortAnswerGap], settings: _Gaps) -> str:
    kind = "SHORTANSWER_C" if gaps[0][1].case_sensitive else "SHORTANSWER"
    answers = _accepted([gap.answer for _, gap in gaps])
    return f"{{{weight}:{kind}:{'~'.join('=' + embedded_text(a) for a in answers)}}}"


def _numerical_gap(weight: str, gaps: mt.Versions[NumericalGap], settings: _Gaps) -> str:
    gap = gaps[0][1]
    tolerance = f":{plain_number(gap.tolerance_value)}" if gap.tolerance_value else ""
    return f"{{{weight}:NUMERICAL:={plain_number(gap.answer_value)}{tolerance}}}"


def _choice_gap(weight: str, gaps: mt.Versions[ChoiceGap], settings: _Gaps) -> str:
    first = gaps[0][1]
    kind = "MULTICHOICE_S" if settings.shuffle else "MULTICHOICE"
    choices = []
    for option, same in mt._aligned([(lang, gap.options) for lang, gap in gaps]):
        text = embedded_text(_gap_plain(same, _TEXT, settings.syntax))
        # Moodle keeps a gap's feedback with the gap, which has no files: images as alt text.
        feedback = mt.without_images(mt._html(same, _FEEDBACK, settings.syntax, inline=True))
        right = "=" if option.id == first.answer else ""
        choices.append(f"{right}{text}#{embedded_text(feedback)}" if feedback else right + text)
    return f"{{{weight}:{kind}:{'~'.join(choices)}}}"


_GAP_WRITERS: dict[type, Callable[[str, Any, _Gaps], str]] = {
    ShortAnswerGap: _short_answer_gap,
    NumericalGap: _numerical_gap,
    ChoiceGap: _choice_gap,
}

# A gap in the prompt while it is rendered: one character of Plane 15's private use area per
# gap, which Markdown and the Urdu renderer leave alone.
_TAG_OR_MARK = re.compile(rf"<(/?)([A-Za-z][A-Za-z0-9]*)[^<>]*>|{GAP_MARKS.pattern}")
_EMPTY_ELEMENT = re.compile(r"<([A-Za-z][A-Za-z0-9]*)(?: [^<>]*)?></\1>")
_VOID = frozenset({"br", "hr", "img", "wbr"})


def _balanced_pieces(html: str) -> list[str]:
    """HTML cut at each gap's mark into pieces that are each whole HTML: the elements open at a
    mark are closed before it and opened again after it (an emptied `<bdi></bdi>` dropped)."""
    pieces: list[str] = []
    open_tags: list[tuple[str, str]] = []
    start, reopen = 0, ""
    for found in _TAG_OR_MARK.finditer(html):
        name = found[2]
        if name is None:
            closing = "".join(f"</{tag}>" for tag, _ in reversed(open_tags))
            pieces.append(reopen + html[start : found.start()] + closing)
            reopen = "".join(written for _, written in open_tags)
            start = found.end()
        elif found[1]:
            if open_tags and open_tags[-1][0] == name.lower():
                open_tags.pop()
        elif name.lower() not in _VOID and not found[0].endswith("/>"):
            open_tags.append((name.lower(), found[0]))
    pieces.append(reopen + html[start:])
    return [_EMPTY_ELEMENT.sub("", piece) for piece in pieces]


def _span_pieces(lang: str, marked: str) -> list[str]:
    """A language's prompt as phrasing HTML cut at the gaps: the inside of its one paragraph,
    or its blocks as lines."""
    html = mt.to_html(marked, lang)
    if html.startswith("<p>") and html.endswith("</p>") and html.count("<p>") == 1:
        inside = html[3:-4]
    else:
        inside = mt.to_html(marked, lang, inline=True).replace("\n", "<br>\n")
    return _balanced_pieces(mt._braces_inert(mt.inert_html(inside)))


def _cloze_text(versions: mt.Versions[Cloze], gaps: list[str], syntax: mt.Syntax) -> str:
    """The prompt's HTML, each gap replaced by its embedded answer. In several languages the
    gaps are written once, between the languages' texts from one gap to the next (languages
    whose gaps come in another order are left out: validate refuses them)."""
    marked = [(lang, mark_gaps(question.prompt)) for lang, question in versions]
    if len(marked) == 1:
        lang, text = marked[0]
        html = mt._braces_inert(mt._localised(text, lang, inline=False))
        return GAP_MARKS.sub(lambda mark: gaps[gap_index(mark[0])], html)
    expected = [gap_mark(n) for n in range(len(gaps))]
    marked = [(lang, text) for lang, text in marked if GAP_MARKS.findall(text) == expected]
    if syntax == "mlang2":
        pieces = [
            (lang, GAP_MARKS.split(mt._braces_inert(mt._localised(text, lang, inline=False))))
            for lang, text in marked
        ]
    else:
        pieces = [(lang, _span_pieces(lang, text)) for lang, text in marked]
    out = []
    for n in range(len(gaps) + 1):
        texts = [(lang, each[n]) for lang, each in pieces]
        if any(text for _, text in texts):
            out.append(mt._mlang2(texts) if syntax == "mlang2" else spans(texts))
        if n < len(gaps):
            out.append(gaps[n])
    joined = "".join(out)
    return joined if syntax == "mlang2" else f"<p>{joined}</p>"


def _weight(points: float, count: int) -> str:
    """Each gap's weight: points / gaps when a whole number, else 1 (Moodle: whole weights)."""
    share = points / count
    return str(int(share)) if share.is_integer() and share >= 1 else "1"


def _cloze(first: Cloze, versions: mt.Versions[Cloze], settings: Settings) -> Written:
    """A multianswer question: the prompt with Moodle's embedded answers in its gaps."""
    order = first.gap_order
    weight = _weight(first.points, len(order))
    gap_settings = _Gaps(settings.syntax, settings.shuffle and first.shuffle)
    gaps = [
        _GAP_WRITERS[type(first.gaps[gap_id])](
            weight,
            [(lang, q.gaps[gap_id]) for lang, q in versions if gap_id in q.gaps],
            gap_settings,
        )
        for gap_id in order
    ]
    text = _cloze_text(versions, gaps, settings.syntax)
    return Written("multianswer", "0.3333333", "", questiontext=text, graded=False)


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
