"""`quizbank status`: per quiz and language, how many questions are missing, stale, unmarked,
untranslated or placeholders, and how many errors the file has."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from quizbank.crosslang import reference_language
from quizbank.diagnostics import Severity, display_path
from quizbank.freshness import question_state
from quizbank.placeholders import find_placeholders, made_by_new
from quizbank.project import check_quiz, discover


@dataclass
class LanguageStatus:
    """The numbers of one quiz in one language (None: not known, the file does not validate)."""

    quiz: str
    lang: str
    file: str | None
    reference: bool
    questions: int | None = None
    missing: int | None = None
    stale: int | None = None
    unmarked: int | None = None
    untranslated: int = 0
    placeholders: int = 0  # texts `quizbank new` or `import` wrote for the author to replace
    errors: int = 0

    def as_json(self) -> dict[str, object]:
        return dict(self.__dict__)


COUNTS = ("questions", "missing", "stale", "unmarked", "untranslated", "placeholders", "errors")
_UNTRANSLATED = "looks untranslated"


def bank_status(paths: Sequence[Path]) -> list[LanguageStatus]:
    """One row per quiz and language of the bank under `paths` (every language of the bank,
    a language the quiz lacks included)."""

    bank = discover(paths)
    rows: list[LanguageStatus] = []
    for group in bank.groups:
        checked = check_quiz(group, bank.languages, strict=False)
        ref_lang = reference_language(group.files)
        reference = checked.translations.get(ref_lang)
        by_id = {q.id: q for q in reference.questions} if reference else None
        for lang in sorted({*bank.languages, *group.files}, key=lambda x: (x != ref_lang, x)):
            path = group.files.get(lang)
            shown = display_path(path) if path else None
            row = LanguageStatus(group.quiz_id, lang, shown, lang == ref_lang)
            rows.append(row)
            if shown is None:
                row.questions = 0
                row.missing = len(by_id) if by_id is not None else None
                continue
            mine = [d for d in checked.diagnostics if d.path == shown]
            row.errors = sum(d.severity is Severity.ERROR for d in mine)
            row.untranslated = sum(d.message.startswith(_UNTRANSLATED) for d in mine)
            quiz = checked.translations.get(lang)
            if quiz is None:
                continue
            row.questions = len(quiz.questions)
            from_new = path is not None and made_by_new(path)
            row.placeholders = sum(1 for _ in find_placeholders(quiz, lang, from_new=from_new))
            if row.reference:
                row.missing = row.stale = row.unmarked = 0
                continue
            if by_id is None:
                continue
            states = [question_state(by_id[q.id], q) for q in quiz.questions if q.id in by_id]
            ids = {q.id for q in quiz.questions}
            row.missing = sum(qid not in ids for qid in by_id)
            row.stale = states.count("stale")
            row.unmarked = states.count("unmarked")
    return rows


def totals(rows: Sequence[LanguageStatus]) -> dict[str, int]:
    """Each count added up over the rows (an unknown count as 0)."""
    return {name: sum(getattr(row, name) or 0 for row in rows) for name in COUNTS}
