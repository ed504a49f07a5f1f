"""Rules across languages: every translation of a quiz asks the same questions with the same key."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from quizbank.diagnostics import Severity
from quizbank.loader import LoadedQuiz
from quizbank.markup import find_formulas, find_images
from quizbank.model import (
    ChoiceGap,
    ChoiceQuestion,
    Cloze,
    Essay,
    Matching,
    MultipleChoice,
    Numerical,
    NumericalGap,
    Ordering,
    Question,
    Quiz,
    ShortAnswer,
    SingleChoice,
    TrueFalse,
    question_texts,
)
from quizbank.paths import Loc

REFERENCE_LANGUAGE = "en"


def reference_language(languages: Mapping[str, object]) -> str:
    """The language others are compared with: English when present, else the first by code."""
    return REFERENCE_LANGUAGE if REFERENCE_LANGUAGE in languages else min(languages)


def check_translations(translations: Mapping[str, LoadedQuiz], *, strict: bool = False) -> None:
    """Compare each error-free translation with the reference one, reporting on the translation.

    A question the translation does not have yet is a warning (its language's outputs leave it
    out), an error with `strict`; a question that disagrees with the reference is an error.
    """
    valid = {lang: loaded for lang, loaded in translations.items() if loaded.ok}
    if len(valid) < 2:
        return
    ref_lang = reference_language(valid)
    reference = valid[ref_lang]
    for lang, loaded in valid.items():
        if lang != ref_lang:
            _compare(reference, loaded, lang, strict=strict)


def untranslated(translations: Mapping[str, Quiz], lang: str) -> int:
    """How many of the reference's questions the quiz in `lang` does not have yet."""
    reference = translations[reference_language(translations)]
    present = {question.id for question in translations[lang].questions}
    return sum(question.id not in present for question in reference.questions)


def _compare(reference: LoadedQuiz, other: LoadedQuiz, lang: str, *, strict: bool) -> None:
    ref_quiz, quiz = reference.quiz, other.quiz
    assert ref_quiz is not None and quiz is not None
    where = f"in {reference.display}"
    ref_ids = [q.id for q in ref_quiz.questions]
    ids = [q.id for q in quiz.questions]
    # Indexes by id (ids are unique in a file without errors): a quiz of thousands of questions
    # is compared in linear time.
    ref_index = {qid: index for index, qid in enumerate(ref_ids)}
    index_of = {qid: index for index, qid in enumerate(ids)}
    for missing in [i for i in ref_ids if i not in index_of]:
        other.report(
            f"question {missing!r} is not translated yet: it is question "
            f"{ref_index[missing] + 1} {where}; "
            + (
                "--strict asks for every question in every language"
                if strict
                else f"the {lang} outputs leave it out until it is"
            ),
            ("questions",),
            key=True,
            severity=Severity.ERROR if strict else Severity.WARNING,
        )
    for index, extra in enumerate(ids):
        if extra not in ref_index:
            other.report(
                f"question {extra!r} is not {where}: every language asks the same questions",
                ("questions", index, "id"),
            )
    common_ref = [i for i in ref_ids if i in index_of]
    common = [i for i in ids if i in ref_index]
    for expected, found in zip(common_ref, common, strict=True):
        if expected != found:
            other.report(
                f"questions are in another order than {where}: expected {expected!r} here, "
                f"found {found!r}",
                ("questions", index_of[found], "id"),
            )
            break
    _compare_sections(ref_quiz, quiz, other, where)
    by_id = {q.id: q for q in ref_quiz.questions}
    media = reference.has_media or other.has_media
    for q_index, question in enumerate(quiz.questions):
        if question.id in by_id:
            original, base = by_id[question.id], ("questions", q_index)
            _compare_question(original, question, other, base, where)
            if media and original.type == question.type:
                _compare_media(original, question, other, base, where)


def _compare_sections(expected: Quiz, found: Quiz, other: LoadedQuiz, where: str) -> None:
    """The same sections, each with the same questions and pick (its title is translated)."""
    shape = [(s.id, s.pick, s.questions) for s in expected.sections or ()]
    if shape != [(s.id, s.pick, s.questions) for s in found.sections or ()]:
        loc: Loc = ("sections",) if found.sections else ()
        other.report(
            f"the sections differ from those {where}: keep the same ids, questions and picks "
            "(translate only their titles)",
            loc,
            key=True,
        )


def _compare_question(
    expected: Question, found: Question, other: LoadedQuiz, base: Loc, where: str
) -> None:
    if expected.type != found.type:
        other.report(
            f"the type is {found.type!r} here but {expected.type!r} {where}", (*base, "type")
        )
        return
    for message, loc, key in _TYPE_RULES[type(expected)](expected, found, base):
        other.report(f"{message} {where}{_SAME.get(str(loc[-1]), '')}", loc, key=key)
    if expected.points != found.points:
        other.report(
            f"points are {found.points:g} here but {expected.points:g} {where}", (*base, "points")
        )
    shuffle = getattr(expected, "shuffle", None)
    if shuffle is not None and shuffle != getattr(found, "shuffle", None):
        other.report(
            f"shuffle is {str(not shuffle).lower()} here but {str(shuffle).lower()} {where}",
            (*base, "shuffle"),
        )


def _compare_media(
    expected: Question, found: Question, other: LoadedQuiz, base: Loc, where: str
) -> None:
    """Warn where a translated text shows another number of images or formulas than the
    reference's text: a translation shows the same ones (with its own alt text)."""
    reference = dict(question_texts(expected, base))
    for loc, text in question_texts(found, base):
        original = reference.get(loc)
        if original is None or not (_may_hold_media(original) or _may_hold_media(text)):
            continue
        for noun, count in (("image", _image_count), ("formula", _formula_count)):
            want, have = count(original), count(text)
            if want != have:
                other.report(
                    f"this text shows {_things(have, noun)} but {_things(want, noun)} {where}: "
                    f"a translation shows the same {noun}s",
                    loc,
                    severity=Severity.WARNING,
                )


def _may_hold_media(text: str) -> bool:
    return "$" in text or "![" in text


def _image_count(text: str) -> int:
    return len(find_images(text))


def _formula_count(text: str) -> int:
    return len(find_formulas(text))


def _things(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}" if count else f"no {noun}"


# A difference: what it is, where to report it, and whether at the key (a list) or its value.
Difference = tuple[str, Loc, bool]
# What follows a difference in ids, telling the translator what to keep.
_SAME = {
    "options": ": keep the same options in the same order",
    "pairs": ": keep the same pairs in the same order",
    "distractors": ": keep the same distractors in the same order",
    "items": ": keep the same items in the same order",
}


def _ids(name: str, expected: Sequence[str], found: Sequence[str], loc: Loc) -> list[Difference]:
    if list(expected) == list(found):
        return []
    return [(f"the {name} ids are {', '.join(found)} here but {', '.join(expected)}", loc, True)]


def _values(name: str, expected: object, found: object, loc: Loc) -> list[Difference]:
    if expected == found:
        return []
    return [(f"the {name} is {_shown(found)} here but {_shown(expected)}", loc, False)]


def _shown(value: object) -> str:
    if isinstance(value, tuple | list):
        return ", ".join(repr(item) for item in value)
    return f"{value:g}" if isinstance(value, float) else repr(value)


def _choice(expected: ChoiceQuestion, found: ChoiceQuestion, base: Loc) -> list[Difference]:
    option_ids = [o.id for o in expected.options], [o.id for o in found.options]
    return [
        *_ids("option", *option_ids, (*base, "options")),
        *_values("answer", expected.answer_ids, found.answer_ids, (*base, "answer")),
    ]


def _true_false(expected: TrueFalse, found: TrueFalse, base: Loc) -> list[Difference]:
    return _values("answer", expected.answer_ids, found.answer_ids, (*base, "answer"))


def _numerical(
    expected: Numerical | NumericalGap, found: Numerical | NumericalGap, base: Loc
) -> list[Difference]:
    differences = [
        *_values("answer", expected.answer, found.answer, (*base, "answer")),
        *_values("tolerance", expected.tolerance, found.tolerance, (*base, "tolerance")),
    ]
    if isinstance(expected, Numerical) and isinstance(found, Numerical):
        differences += _calculated(expected, found, base)
    return differences


def _calculated(
    expected: Numerical | Cloze, found: Numerical | Cloze, base: Loc
) -> list[Difference]:
    """The same variables, variants, seed and decimals: every language draws the same numbers."""
    differences: list[Difference] = []
    for name in ("variables", "variants", "seed", "decimals"):
        mine, theirs = getattr(expected, name), getattr(found, name)
        if mine != theirs:
            differences.append(
                (f"the {name} differ from those", (*base, name), name == "variables")
            )
    return differences


def _translated(
    expected: ShortAnswer | Essay, found: ShortAnswer | Essay, base: Loc
) -> list[Difference]:
    """Accepted answers are translated, an essay has no key: its type is all to compare."""
    return []


def _matching(expected: Matching, found: Matching, base: Loc) -> list[Difference]:
    return [
        *_ids(
            "pair", [p.id for p in expected.pairs], [p.id for p in found.pairs], (*base, "pairs")
        ),
        *_ids(
            "distractor",
            [d.id for d in expected.distractors],
            [d.id for d in found.distractors],
            (*base, "distractors"),
        ),
    ]


def _ordering(expected: Ordering, found: Ordering, base: Loc) -> list[Difference]:
    return _ids(
        "item", [i.id for i in expected.items], [i.id for i in found.items], (*base, "items")
    )


def _cloze(expected: Cloze, found: Cloze, base: Loc) -> list[Difference]:
    """The same gaps in the same order in the prompt, each of the same type and key."""
    if expected.gap_order != found.gap_order:
        return [
            (
                f"the prompt has the gaps {', '.join(found.gap_order)} in this order here but "
                f"{', '.join(expected.gap_order)}",
                (*base, "prompt"),
                False,
            )
        ]
    differences = _calculated(expected, found, base)
    for gap_id, gap in found.gaps.items():
        reference = expected.gaps.get(gap_id)
        loc: Loc = (*base, "gaps", gap_id)
        if reference is None:
            continue
        if reference.type != gap.type:
            differences += _values("gap type", reference.type, gap.type, (*loc, "type"))
        elif isinstance(reference, NumericalGap) and isinstance(gap, NumericalGap):
            differences += _numerical(reference, gap, loc)
        elif isinstance(reference, ChoiceGap) and isinstance(gap, ChoiceGap):
            option_ids = [o.id for o in reference.options], [o.id for o in gap.options]
            differences += _ids("option", *option_ids, (*loc, "options"))
            differences += _values("answer", reference.answer, gap.answer, (*loc, "answer"))
    return differences


# How each type's translations must agree, beyond the type, the points and the shuffle.
_TYPE_RULES: dict[type, Callable[[Any, Any, Loc], list[Difference]]] = {
    SingleChoice: _choice,
    MultipleChoice: _choice,
    TrueFalse: _true_false,
    Numerical: _numerical,
    ShortAnswer: _translated,
    Matching: _matching,
    Ordering: _ordering,
    Cloze: _cloze,
    Essay: _translated,
}


def check_coverage(
    quiz_id: str, translations: Mapping[str, LoadedQuiz], languages: list[str], *, strict: bool
) -> None:
    """Report a quiz that is missing in one of the run's languages."""
    if not translations:
        return
    present = reference_language(translations)
    for lang in languages:
        if lang not in translations:
            translations[present].report(
                f"quiz {quiz_id!r} has no {lang!r} version ({lang}/{quiz_id}.yaml)",
                severity=Severity.ERROR if strict else Severity.WARNING,
            )


def quizzes(translations: Mapping[str, LoadedQuiz]) -> dict[str, Quiz]:
    """The valid quizzes of a set of translations, by language."""
    return {lang: t.quiz for lang, t in translations.items() if t.quiz is not None}
