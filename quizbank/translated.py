"""`quizbank translated`: marking a reviewed translation as current by writing, into each of
its questions, `source`: the digests of the reference texts it was translated from
(quizbank/freshness.py), leaving the rest of the file as the translator wrote it."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from yaml.nodes import MappingNode, Node, SequenceNode

from quizbank.crosslang import reference_language
from quizbank.diagnostics import Severity, display_path, printable
from quizbank.errors import QuizbankError, UsageError
from quizbank.freshness import SOURCE_KEY, source_digests
from quizbank.project import check_quiz, discover, is_entry
from quizbank.yamlsource import child_node, decode, load_document, read_bytes


@dataclass
class Marked:
    """A translation marked as current: its path and the ids of the questions marked."""

    path: Path
    question_ids: list[str]


def mark_translated(files: Sequence[Path], question_ids: Iterable[str] = ()) -> list[Marked]:
    """Record in each translated file what each of its questions (or the given ones) is
    translated from. Every file is checked first; when any is refused, nothing is written."""
    from quizbank.output import write_atomic  # only this command writes: not for `validate`

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
