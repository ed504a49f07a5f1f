"""The rules one file must keep beyond its schema: identity, unique ids, a valid answer key,
texts that say what the author meant."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from quizbank.diagnostics import display_path
from quizbank.gaps import GAP_MARKS
from quizbank.grading import right_grades
from quizbank.messages import excerpt
from quizbank.model import (
    LANGUAGE_CODE,
    ChoiceGap,
    Cloze,
    Essay,
    GapOption,
    Matching,
    MultipleChoice,
    Numerical,
    Option,
    Ordering,
    Question,
    ShortAnswer,
    SingleChoice,
    TrueFalse,
)
from quizbank.paths import Loc

Problem = tuple[str, Loc]


def identity_rules(quiz_id: object, lang: object, path: Path) -> Iterator[Problem]:
    """The quiz id is the file name and the language the folder's, which must be a language."""
    folder = path.parent.name
    if isinstance(quiz_id, str) and quiz_id != path.stem:
        yield (
            f"the quiz id {excerpt(quiz_id)} must equal the file name {path.stem!r}: "
            "rename the file or change the id",
            ("id",),
        )
    if not LANGUAGE_CODE.match(folder):
        where = f"{display_path(path.parent)}/{lang if isinstance(lang, str) else 'en'}"
        yield (
            f"quiz files go in a language folder: move this file to {where}/{path.name}",
            ("lang",),
        )
    elif isinstance(lang, str) and lang != folder:
        yield (
            f"the language {excerpt(lang)} must equal the folder name {folder!r}: "
            f"move the file to content/{lang}/ or change `lang`",
            ("lang",),
        )


def question_rules(questions: Iterable[tuple[int, Question]]) -> Iterator[Problem]:
    """Unique question ids and each choice question's options and answer key."""
    first_index: dict[str, int] = {}
    for q_index, question in questions:
        base: Loc = ("questions", q_index)
        if question.id in first_index:
            yield (
                f"duplicate question id {question.id!r} (also question "
                f"{first_index[question.id] + 1})",
                (*base, "id"),
            )
        first_index.setdefault(question.id, q_index)
        yield from _TYPE_RULES[type(question)](question, base)


def _unique_ids(ids: Sequence[str], base: Loc, noun: str) -> Iterator[Problem]:
    """A duplicate id among `ids`, the ids of the `noun`s listed at `base`."""
    first: dict[str, int] = {}
    for index, item_id in enumerate(ids):
        if item_id in first:
            yield (
                f"duplicate {noun} id {item_id!r} (also {noun} {first[item_id] + 1})",
                (*base, index, "id"),
            )
        first.setdefault(item_id, index)


Place = Callable[[int], tuple[Loc, str]]  # an item's location and name, by its index


def _distinct_texts(texts: Sequence[str], noun: str, place: Place) -> Iterator[Problem]:
    """A text that repeats an earlier one of the same list (whose items `place` locates and
    names, as "option 2"): a learner cannot tell them apart."""
    if len(set(texts)) == len(texts):
        return  # nearly always: one set
    for index, text in enumerate(texts):
        if (first := texts.index(text)) < index:
            yield (
                f"this {noun} has the same text as {place(first)[1]}; "
                "a learner cannot tell them apart",
                place(index)[0],
            )


def _numbered(items: Loc, key: str, noun: str, suffix: str = "") -> Place:
    """Where the `key` of each item listed at `items` is, and the item's name (`pair 2's item`)."""
    return lambda index: ((*items, index, key), f"{noun} {index + 1}{suffix}")


def _options_rules(
    options: Sequence[Option | GapOption], answers: Sequence[tuple[str, Loc]], base: Loc
) -> Iterator[Problem]:
    """Unique option ids and texts, and an answer key that names options, each once."""
    ids = [option.id for option in options]
    yield from _unique_ids(ids, (*base, "options"), "option")
    texts = [option.text for option in options]
    yield from _distinct_texts(texts, "option", _numbered((*base, "options"), "text", "option"))
    seen: set[str] = set()
    for answer, loc in answers:
        if answer not in ids:
            yield f"{answer!r} is not one of the options {', '.join(dict.fromkeys(ids))}", loc
        elif answer in seen:
            yield f"{answer!r} is listed twice in the answer", loc
        seen.add(answer)


def _single_choice_rules(question: SingleChoice, base: Loc) -> Iterator[Problem]:
    return _options_rules(question.options, [(question.answer, (*base, "answer"))], base)


def _multiple_choice_rules(question: MultipleChoice, base: Loc) -> Iterator[Problem]:
    """The options' rules, and no more right options than every export can grade."""
    answers = [(answer, (*base, "answer", i)) for i, answer in enumerate(question.answer)]
    yield from _options_rules(question.options, answers, base)
    try:
        right_grades(len(set(question.answer)))
    except ValueError as exc:  # more than Moodle's grades can share 100% among
        yield str(exc), (*base, "answer")


def _no_rules(question: TrueFalse | Numerical | ShortAnswer, base: Loc) -> Iterator[Problem]:
    """The schema says all there is to say."""
    return iter(())


def _matching_rules(question: Matching, base: Loc) -> Iterator[Problem]:
    """Unique ids across pairs and distractors; items, and matches, each distinct."""
    pair_ids = [pair.id for pair in question.pairs]
    yield from _unique_ids(pair_ids, (*base, "pairs"), "pair")
    for index, distractor in enumerate(question.distractors):
        if distractor.id in pair_ids:
            yield (
                f"the distractor id {distractor.id!r} is also a pair's id: "
                "pairs and distractors need ids of their own",
                (*base, "distractors", index, "id"),
            )
    yield from _unique_ids(
        [d.id for d in question.distractors], (*base, "distractors"), "distractor"
    )
    pairs, extra = len(question.pairs), len(question.distractors)
    if (over := pairs + extra - MAX_MATCHES) > 0:
        yield (
            f"a matching question offers at most {MAX_MATCHES} matches, each with a letter of its "
            f"own: {pairs} pairs and {extra} distractors make {pairs + extra}; drop {over} "
            f"distractor{'s' if over > 1 else ''}",
            (*base, "distractors"),
        )
    items = [pair.item for pair in question.pairs]
    pair_item = _numbered((*base, "pairs"), "item", "pair", "'s item")
    yield from _distinct_texts(items, "item", pair_item)
    matches = [pair.match for pair in question.pairs] + [d.text for d in question.distractors]
    pair_match = _numbered((*base, "pairs"), "match", "pair", "'s match")
    distractor_text = _numbered((*base, "distractors"), "text", "distractor")

    def place(index: int) -> tuple[Loc, str]:  # the pairs' matches, then the distractors
        return pair_match(index) if index < pairs else distractor_text(index - pairs)

    yield from _distinct_texts(matches, "match", place)


# The matches of a matching question are lettered, A to Z: the letters of the shortest alphabet.
MAX_MATCHES = 26


def _ordering_rules(question: Ordering, base: Loc) -> Iterator[Problem]:
    yield from _unique_ids([item.id for item in question.items], (*base, "items"), "item")
    texts = [item.text for item in question.items]
    yield from _distinct_texts(texts, "item", _numbered((*base, "items"), "text", "item"))


def _cloze_rules(question: Cloze, base: Loc) -> Iterator[Problem]:
    """Every `[[id]]` of the prompt once, with an entry in `gaps`, and every entry used."""
    used = question.gap_order
    if mark := GAP_MARKS.search(question.prompt):
        yield (
            f"the prompt holds U+{ord(mark[0]):04X}, a private-use character that quizbank "
            "uses to place a cloze's gaps: delete it",
            (*base, "prompt"),
        )
    seen: set[str] = set()
    for gap_id in used:
        if gap_id not in question.gaps:
            known = ", ".join(question.gaps)
            yield (
                f"the gap [[{gap_id}]] has no entry in `gaps` (the gaps are {known}): "
                "add it there, or correct its id",
                (*base, "prompt"),
            )
        elif gap_id in seen:
            yield (
                f"the gap [[{gap_id}]] is in the prompt twice: each gap has its own id",
                (*base, "prompt"),
            )
        seen.add(gap_id)
    for gap_id, gap in question.gaps.items():
        gap_base: Loc = (*base, "gaps", gap_id)
        if gap_id not in seen:
            yield (
                f"the gap {gap_id!r} is used nowhere: write [[{gap_id}]] in the prompt where it "
                "goes, or delete this entry",
                gap_base,
            )
        if isinstance(gap, ChoiceGap):
            yield from _options_rules(gap.options, [(gap.answer, (*gap_base, "answer"))], gap_base)


def _essay_rules(question: Essay, base: Loc) -> Iterator[Problem]:
    low, high = question.min_words, question.max_words
    if low is not None and high is not None and low > high:
        yield (
            f"min_words ({low}) is more than max_words ({high}): no answer could have both",
            (*base, "min_words"),
        )


def question_warnings(questions: Iterable[tuple[int, Question]]) -> Iterator[Problem]:
    """What is valid but will not mean the same everywhere."""
    for q_index, question in questions:
        if isinstance(question, Cloze) and (question.points / len(question.gaps)) % 1:
            gaps = len(question.gaps)
            yield (
                f"Moodle weighs each gap with a whole number: {question.points:g} points cannot "
                f"be shared equally among {gaps} gaps there, so Moodle stores the question's "
                f"mark as {gaps} (the gaps' shares stay equal); make points a multiple of {gaps}",
                ("questions", q_index, "points"),
            )


# What each type must keep beyond its schema.
_TYPE_RULES: dict[type, Callable[[Any, Loc], Iterator[Problem]]] = {
    SingleChoice: _single_choice_rules,
    MultipleChoice: _multiple_choice_rules,
    TrueFalse: _no_rules,
    Numerical: _no_rules,
    ShortAnswer: _no_rules,
    Matching: _matching_rules,
    Ordering: _ordering_rules,
    Cloze: _cloze_rules,
    Essay: _essay_rules,
}


# A tag or a comment as HTML writes them (not after a backslash, which escapes it), searched
# for once code spans and fenced code, where it is code, are taken out of the text.
_HTML_LIKE = re.compile(r"(?<!\\)(?:</?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?/?>|<!--)")
_CODE = re.compile(r"^ {0,3}(`{3,}|~{3,}).*?(?:^ {0,3}\1|\Z)|(`+).+?(?<!`)\2(?!`)", re.M | re.S)


def has_raw_html(text: str) -> bool:
    """Whether Markdown `text` holds raw HTML, which every export shows as text."""
    if "<" not in text or not _HTML_LIKE.search(text):
        return False
    return (
        _HTML_LIKE.search(_CODE.sub(" ", text)) is not None if "`" in text or "~" in text else True
    )
