"""Translation freshness: what each translated question was translated from, and whether the
reference (English) question has changed since.

Each question of a translation may carry `source`, a mapping written by `quizbank translated`:
for each text a translator translates in the reference question (its prompt, each option, the
explanation, ...), named as an author would name it (`option c`, `pair a`), the first six
hex digits of the SHA-256 of its texts. Comparing it with the reference's current texts
tells which of them changed, were added or were removed since the translation was reviewed.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from quizbank.crosslang import reference_language
from quizbank.diagnostics import Severity
from quizbank.loader import LoadedQuiz
from quizbank.model import Question, Quiz, question_texts
from quizbank.paths import ITEM_NAMES, Loc

SOURCE_KEY = "source"
DIGEST_LENGTH = 6


def field_name(question: Question, loc: Loc) -> str:
    """The name of the part of a question a text belongs to, as an author says it: `prompt`,
    `explanation`, `feedback_true`, `grader_info`, or an element of a list by its id, which
    covers every text of it: `option c` (its text and feedback), `pair a` (item and match),
    `distractor x`, `item b`, `gap g1 option a`."""
    words: list[str] = []
    node: Any = question
    for part in loc:
        if isinstance(part, int):
            node = node[part]
            words[-1] = f"{ITEM_NAMES.get(words[-1], words[-1])} {node.id}"
            break  # an element of a list: its texts go together
        if isinstance(node, dict):
            node = node[part]
            words[-1] = f"{ITEM_NAMES.get(words[-1], words[-1])} {part}"
        else:
            node = getattr(node, part)
            words.append(part)
    return " ".join(words)


def digest(texts: Sequence[tuple[Loc, str]]) -> str:
    """The short digest of the texts of one part: the first hex digits of the SHA-256 of their
    locations in the question and texts as JSON (`[[["options", 2, "text"], "..."], ...]`)."""
    canonical = json.dumps([[list(loc), text] for loc, text in texts], ensure_ascii=False)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()[:DIGEST_LENGTH]


def source_digests(question: Question) -> dict[str, str]:
    """What `source` records for a reference question: a digest of each part's texts, by name,
    in document order."""
    parts: dict[str, list[tuple[Loc, str]]] = {}
    for loc, text in question_texts(question):
        parts.setdefault(field_name(question, loc), []).append((loc, text))
    return {name: digest(texts) for name, texts in parts.items()}


@dataclass(frozen=True)
class Changes:
    """How a reference question differs from what a translation recorded."""

    changed: list[str] = field(default_factory=list)
    added: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.changed or self.added or self.removed)

    def describe(self, language: str) -> str:
        """`the English prompt and option c changed since this was translated`."""
        parts = []
        if self.changed:
            parts.append(f"{_names(self.changed)} changed")
        if self.added:
            parts.append(f"{_names(self.added)} {_was(self.added)} added")
        if self.removed:
            parts.append(f"{_names(self.removed)} {_was(self.removed)} removed")
        return f"the {language} {_names(parts)} since this was translated"


def _names(names: Sequence[str], most: int = 6) -> str:
    if len(names) > most:
        names = [*names[: most - 1], f"{len(names) - most + 1} more"]
    if len(names) == 1:
        return names[0]
    return f"{', '.join(names[:-1])} and {names[-1]}"


def _was(names: Sequence[str]) -> str:
    return "was" if len(names) == 1 else "were"


def changes(recorded: Mapping[str, str], current: Mapping[str, str]) -> Changes:
    """The reference's texts that changed, were added or were removed since `recorded`."""
    return Changes(
        changed=[
            name for name, value in current.items() if name in recorded and recorded[name] != value
        ],
        added=[name for name in current if name not in recorded],
        removed=[name for name in recorded if name not in current],
    )


def language_name(lang: str) -> str:
    """How a message names the reference language."""
    return "English" if lang == "en" else f"{lang!r}"


def check_freshness(translations: Mapping[str, LoadedQuiz]) -> None:
    """Warn, on each error-free translation, about questions whose reference changed since they
    were translated, and, in a file that uses `source` at all, about questions without it."""
    valid = {lang: loaded for lang, loaded in translations.items() if loaded.ok}
    if not valid:
        return
    ref_lang = reference_language(translations)
    reference = valid.get(ref_lang)
    if reference is None or reference.quiz is None:
        return
    # In English, the reference whenever it is present, `source` is a mistake; a quiz that has
    # no English file yet keeps the `source` of its translations for when it has one again.
    for index, question in enumerate(reference.quiz.questions if ref_lang == "en" else ()):
        if question.source is not None:
            reference.report(
                f"`source` records what a translation was translated from; the {ref_lang!r} "
                "file is the one translations are compared with and needs none: delete it",
                ("questions", index, SOURCE_KEY),
                key=True,
                severity=Severity.WARNING,
            )
    by_id = {q.id: q for q in reference.quiz.questions}
    for lang, loaded in valid.items():
        if lang != ref_lang and loaded.quiz is not None:
            _check_file(loaded, loaded.quiz, by_id, language_name(ref_lang))


def _check_file(loaded: LoadedQuiz, quiz: Quiz, by_id: Mapping[str, Question], ref: str) -> None:
    uses_source = any(q.source is not None for q in quiz.questions)
    for index, question in enumerate(quiz.questions):
        original = by_id.get(question.id)
        if original is None or original.type != question.type:
            continue  # reported as an error by the cross-language rules
        base: Loc = ("questions", index)
        if question.source is None:
            if uses_source:
                loaded.report(
                    f"not marked as translated from the current {ref}: once the translation "
                    f"is reviewed, run `quizbank translated {loaded.display}"
                    f" --question {question.id}`",
                    base,
                    severity=Severity.WARNING,
                    position=loaded.document.locate((*base, "id"), key=True)
                    if loaded.document
                    else None,
                )
            continue
        found = changes(question.source, source_digests(original))
        if found:
            loaded.report(
                found.describe(ref),
                base,
                severity=Severity.WARNING,
                position=loaded.document.locate((*base, SOURCE_KEY), key=True)
                if loaded.document
                else None,
            )


def question_state(original: Question, question: Question) -> str:
    """`current`, `stale` (the reference changed since) or `unmarked` (no `source`)."""
    if question.source is None:
        return "unmarked"
    return "stale" if changes(question.source, source_digests(original)) else "current"
