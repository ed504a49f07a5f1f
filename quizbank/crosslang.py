"""Rules across languages: every translation of a quiz asks the same questions with the same key."""

from __future__ import annotations

from collections.abc import Mapping

from quizbank.diagnostics import Severity
from quizbank.loader import LoadedQuiz
from quizbank.model import Question, Quiz, TrueFalse

REFERENCE_LANGUAGE = "en"


def reference_language(languages: Mapping[str, object]) -> str:
    """The language others are compared with: English when present, else the first by code."""
    return REFERENCE_LANGUAGE if REFERENCE_LANGUAGE in languages else min(languages)


def check_translations(translations: Mapping[str, LoadedQuiz]) -> None:
    """Compare each error-free translation with the reference one, reporting on the translation."""
    valid = {lang: loaded for lang, loaded in translations.items() if loaded.ok}
    if len(valid) < 2:
        return
    ref_lang = reference_language(valid)
    reference = valid[ref_lang]
    for lang, loaded in valid.items():
        if lang != ref_lang:
            _compare(reference, loaded)


def _compare(reference: LoadedQuiz, other: LoadedQuiz) -> None:
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
            f"question {missing!r} is missing: it is question {ref_index[missing] + 1} {where}",
            ("questions",),
            key=True,
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
    by_id = {q.id: q for q in ref_quiz.questions}
    for q_index, question in enumerate(quiz.questions):
        if question.id in by_id:
            _compare_question(by_id[question.id], question, other, ("questions", q_index), where)


def _compare_question(
    expected: Question, found: Question, other: LoadedQuiz, base: tuple[str | int, ...], where: str
) -> None:
    if expected.type != found.type:
        other.report(
            f"the type is {found.type!r} here but {expected.type!r} {where}", (*base, "type")
        )
        return
    if not isinstance(expected, TrueFalse) and not isinstance(found, TrueFalse):
        expected_ids = [o.id for o in expected.options]
        found_ids = [o.id for o in found.options]
        if expected_ids != found_ids:
            other.report(
                f"the option ids are {', '.join(found_ids)} here but {', '.join(expected_ids)} "
                f"{where}: keep the same options in the same order",
                (*base, "options"),
                key=True,
            )
    if expected.answer_ids != found.answer_ids:
        other.report(
            f"the answer is {_key(found.answer_ids)} here but {_key(expected.answer_ids)} {where}",
            (*base, "answer"),
        )
    if expected.points != found.points:
        other.report(
            f"points are {found.points:g} here but {expected.points:g} {where}", (*base, "points")
        )


def _key(ids: tuple[str, ...]) -> str:
    return ", ".join(repr(i) for i in ids)


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
