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
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from yaml.nodes import MappingNode, Node, SequenceNode

from quizbank.crosslang import reference_language
from quizbank.diagnostics import Severity, display_path, printable
from quizbank.errors import QuizbankError, UsageError
from quizbank.loader import LoadedQuiz
from quizbank.model import Question, Quiz, question_texts
from quizbank.paths import ITEM_NAMES, Loc
from quizbank.placeholders import find_placeholders, made_by_new
from quizbank.yamlsource import child_node, decode, load_document, read_bytes

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


# ---------------------------------------------------------------------------------------------
# `quizbank translated`: writing `source` into a translation, leaving the rest of the file as is


@dataclass
class Marked:
    """A translation marked as current: its path and the ids of the questions marked."""

    path: Path
    question_ids: list[str]


def mark_translated(files: Sequence[Path], question_ids: Iterable[str] = ()) -> list[Marked]:
    """Record in each translated file what each of its questions (or the given ones) is
    translated from. Every file is checked first; when any is refused, nothing is written."""
    from quizbank.output import write_atomic  # only this command writes: not for `validate`
    from quizbank.project import check_quiz, discover, is_entry  # the project imports this

    wanted = list(dict.fromkeys(question_ids))
    plans: list[tuple[Path, str, dict[int, dict[str, str]], list[str]]] = []
    for path in dict.fromkeys(files):
        shown = printable(display_path(path))
        if not is_entry(path):
            raise UsageError(f"no such file: {shown}")
        bank = discover([path])
        group = next(g for g in bank.groups if path in g.files.values())
        lang = next(lang for lang, p in group.files.items() if p == path)
        ref_lang = reference_language(group.files)
        if len(group.files) == 1:
            raise QuizbankError(
                f"{shown} was not marked: quiz {group.quiz_id!r} has no other language beside "
                f"it (such as en/{path.name}) to be translated from"
            )
        if ref_lang == lang:
            raise QuizbankError(
                f"{shown} is the reference ({ref_lang!r}) version of quiz {group.quiz_id!r}, "
                f"which translations are compared with; mark a translation instead "
                f"(<lang>/{path.name})"
            )
        checked = check_quiz(group, bank.languages, strict=False)
        errors = [d for d in checked.diagnostics if d.severity is Severity.ERROR]
        if errors:
            first = errors[0]
            raise QuizbankError(
                f"{shown} was not marked: quiz {group.quiz_id!r} has {len(errors)} "
                f"error{'s' if len(errors) != 1 else ''} (first: {first.format()}); "
                "run `quizbank validate` and fix them first"
            )
        reference, quiz = checked.translations[ref_lang], checked.translations[lang]
        by_id = {q.id: q for q in reference.questions}
        ids = [q.id for q in quiz.questions]
        unknown = [qid for qid in wanted if qid not in ids]
        if unknown:
            raise UsageError(
                f"{shown} has no question {', '.join(map(repr, unknown))} "
                f"(its questions: {', '.join(ids)})"
            )
        chosen = {
            index: source_digests(by_id[q.id])
            for index, q in enumerate(quiz.questions)
            if (not wanted or q.id in wanted) and q.id in by_id
        }
        raw = read_bytes(path)
        text = decode(raw)
        new_text = with_sources(text, load_document(path).root, chosen)
        bom = "\ufeff" if raw.startswith(b"\xef\xbb\xbf") else ""
        plans.append((path, bom + new_text, chosen, [ids[i] for i in chosen]))
    results = []
    for path, new_text, _, marked in plans:
        write_atomic(path, new_text.encode("utf-8"))
        results.append(Marked(path, marked))
    return results


_NUMBER_LIKE = re.compile(r"^[0-9]+(?:[eE][0-9]+)?$")


def source_line(digests: Mapping[str, str]) -> str:
    """`source: {prompt: 1a2b3c, option a: 4d5e6f, ...}`: a digest that YAML would read as a
    number is quoted."""
    items = (
        f"{name}: {f'{value!r}' if _NUMBER_LIKE.match(value) else value}"
        for name, value in digests.items()
    )
    return f"{SOURCE_KEY}: {{{', '.join(items)}}}"


def with_sources(text: str, root: Node | None, sources: Mapping[int, Mapping[str, str]]) -> str:
    """The file's text with a `source:` line set in each question of `sources` (by index):
    an existing `source` is replaced where it stands, a new one goes after the question's last
    line, at its keys' indentation. Nothing else of the text changes."""
    found = child_node(root, "questions") if root is not None else None
    questions = found[1] if found else None
    if not isinstance(questions, SequenceNode):
        return text
    newline = "\r\n" if "\r\n" in text else "\n"
    edits: list[tuple[int, int, str]] = []
    for index, digests in sources.items():
        question = questions.value[index]
        if not isinstance(question, MappingNode) or not question.value:
            continue
        line = source_line(digests)
        existing = child_node(question, SOURCE_KEY)
        if existing is not None and existing[0] is not None:
            start, end = existing[0].start_mark.index, _end(existing[1], text)
            edits.append((start, end, line))
        elif question.flow_style:
            end = _end(question.value[-1][1], text)
            edits.append((end, end, f", {line}"))
        else:
            end = _end(question.value[-1][1], text)
            eol = text.find("\n", end)
            eol = len(text) if eol < 0 else eol - (eol > 0 and text[eol - 1] == "\r")
            indent = " " * question.value[0][0].start_mark.column
            edits.append((eol, eol, f"{newline}{indent}{line}"))
    for start, end, replacement in sorted(edits, reverse=True):
        text = text[:start] + replacement + text[end:]
    return text


def _end(node: Node, text: str) -> int:
    """Where a value's text ends: for a block collection, where its last value ends; line
    breaks a block scalar takes in are left out."""
    while isinstance(node, MappingNode | SequenceNode) and not node.flow_style and node.value:
        last = node.value[-1]
        node = last[1] if isinstance(last, tuple) else last
    end = node.end_mark.index
    while end > node.start_mark.index and text[end - 1] in "\r\n":
        end -= 1
    return end


# ---------------------------------------------------------------------------------------------
# `quizbank status`: how current each translation is


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
    from quizbank.project import check_quiz, discover  # the project imports this module

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
