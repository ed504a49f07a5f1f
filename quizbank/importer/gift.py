"""GIFT read into a `SourceBank`: `read_gift(path, text)` takes the records of Moodle's grammar
(gift_grammar.py) and makes each `$CATEGORY:` a `SourceCategory` and each question a
`SourceQuestion` whose `fields` are those source.py fixes for its type; what the model cannot
say is a loss, a description `Skipped`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from quizbank.grading import multiple_choice_grades
from quizbank.importer.gift_grammar import (
    GiftCategory,
    GiftQuestion,
    GiftText,
    parse_gift,
    php_trim,
)
from quizbank.importer.source import (
    MalformedFile,
    Skipped,
    SourceBank,
    SourceCategory,
    SourceQuestion,
    SourceText,
)

_DESCRIPTION = "a description is not a question: quizbank has no type for it"
MAX_RECORDS = 100_000  # questions and categories of one file: each held takes a kilobyte or two
_CONTEXT = re.compile(r"\$[a-z]+\$")
_CATEGORY_SPLIT = re.compile(r"(?<!/)/(?!/)")  # qformat_default::split_category_path()
_MAX_LETTERS = 26


def read_gift(path: Path, text: str) -> SourceBank:
    """Every category and question of a GIFT file; a description is `Skipped`. A file of more
    than MAX_RECORDS questions and categories is refused."""
    bank = SourceBank(path)
    by_path: dict[tuple[str, ...], SourceCategory] = {}
    current: SourceCategory | None = None
    for count, record in enumerate(parse_gift(path, text), 1):
        if count > MAX_RECORDS:
            raise MalformedFile(
                path,
                record.line,
                1,
                f"more than {MAX_RECORDS} questions and categories in one file: split it",
            )
        if isinstance(record, GiftCategory):
            current = _category(bank, by_path, record.line, category_path(record.path))
        elif record.qtype == "description":
            bank.skipped.append(Skipped(record.line, record.name, _DESCRIPTION))
        else:
            if current is None:
                current = _category(bank, by_path, record.line, [])
            current.questions.append(source_question(record))
    return bank


def _category(
    bank: SourceBank, by_path: dict[tuple[str, ...], SourceCategory], line: int, parts: list[str]
) -> SourceCategory:
    """The category of a path (the file's stem for none), one per path as in Moodle."""
    parts = parts or [bank.path.stem]
    category = by_path.get(tuple(parts))
    if category is None:
        category = by_path[tuple(parts)] = SourceCategory(line, parts)
        bank.categories.append(category)
    return category


def category_path(path: str) -> list[str]:
    """A `$CATEGORY:`'s names below the top: `$course$/top/A/B` is ["A", "B"]; `//` is a `/`
    inside a name (Moodle's split_category_path)."""
    names = [php_trim(name.replace("//", "/")) for name in _CATEGORY_SPLIT.split(php_trim(path))]
    if names and _CONTEXT.fullmatch(names[0]):
        names.pop(0)
    if names[:1] == ["top"]:
        names.pop(0)
    return [name for name in names if name]


def source_question(record: GiftQuestion) -> SourceQuestion:
    """A question in the fields source.py fixes for its type."""
    question = SourceQuestion(
        line=record.line,
        name=record.name,
        idnumber=record.idnumber or None,
        fields={"type": "", "prompt": SourceText(record.text.text, record.text.format)},
    )
    question.fields["explanation"] = _text(record.general_feedback)
    question.fields["points"] = 1.0  # GIFT has no marks: Moodle's default
    question.fields["_tags"] = [tag for tag in record.tags if tag]
    _FIELDS[record.qtype](record, question)
    return question


def _text(text: GiftText) -> SourceText | None:
    return SourceText(text.text, text.format) if text.text.strip() else None


def _letter(n: int) -> str:
    """a, b, …, z, aa, ab, …"""
    return _letter(n // 26 - 1) + chr(97 + n % 26) if n >= 26 else chr(97 + n)


def _percent(fraction: float) -> str:
    shown = f"{fraction * 100:.5f}".rstrip("0").rstrip(".")
    return "0%" if shown in ("0", "-0") else shown + "%"


def _first(items: list[Any], what: str, question: SourceQuestion) -> list[Any]:
    """The first 26 of a question's choices or pairs (the model's most), the rest a loss."""
    if len(items) > _MAX_LETTERS:
        question.losses.append(f"its {len(items) - _MAX_LETTERS} {what} after the 26th")
    return items[:_MAX_LETTERS]


def _choice_fields(record: GiftQuestion, question: SourceQuestion) -> None:
    answers = _first(record.answers, "options", question)
    fractions = [answer.fraction for answer in answers]
    ids = [_letter(n) for n in range(len(answers))]
    fields = question.fields
    fields["options"] = [
        {"id": key, "text": SourceText(a.text.text, a.text.format), "feedback": _text(a.feedback)}
        for key, a in zip(ids, answers, strict=True)
    ]
    fields["shuffle"] = True  # GIFT cannot say: Moodle's default shuffles
    shown = ", ".join(_percent(f) for f in fractions)
    if record.single:
        fields["type"] = "single_choice"
        fields["answer"] = ids[max(range(len(ids)), key=fractions.__getitem__)]
        if sorted(fractions, reverse=True)[:2] != [1.0, 0.0] or min(fractions) < 0:
            question.losses.append(f"its grades ({shown}): one option is right, the rest score 0")
        return
    fields["type"] = "multiple_choice"
    fields["answer"] = [key for key, f in zip(ids, fractions, strict=True) if f > 0]
    try:
        grades = multiple_choice_grades(ids, fields["answer"]) if fields["answer"] else {}
    except ValueError:  # more right options than Moodle can grade: the model says so
        return
    if grades and any(abs(f - grades[key]) > 0.0001 for key, f in zip(ids, fractions, strict=True)):
        now = ", ".join(_percent(grades[key]) for key in ids)
        question.losses.append(f"its grades ({shown}) become quizbank's ({now})")


def _true_false_fields(record: GiftQuestion, question: SourceQuestion) -> None:
    question.fields |= {
        "type": "true_false",
        "answer": record.correct,
        "feedback_true": _text(record.feedback_true),
        "feedback_false": _text(record.feedback_false),
    }


def _short_answer_fields(record: GiftQuestion, question: SourceQuestion) -> None:
    answers = [(a.text.text, a.fraction) for a in record.answers]
    right = [text for text, fraction in answers if fraction >= 1]
    if not right:
        best = max(fraction for _, fraction in answers)
        right = [text for text, fraction in answers if fraction == best]
        question.losses.append(f"no answer is fully right; the best ({_percent(best)}) are kept")
    partly = [f"{text!r} ({_percent(f)})" for text, f in answers if 0 < f < 1 and text not in right]
    if partly:
        question.losses.append(f"its partly right answers score nothing: {', '.join(partly)}")
    wrong = [f"{text!r} ({_percent(f)})" for text, f in answers if f <= 0 and text not in right]
    if wrong:
        question.losses.append(f"its wrong answers are left out: {', '.join(wrong)}")
    if any(a.feedback.text for a in record.answers):
        question.losses.append("the feedback of its answers (quizbank has none for typed answers)")
    question.fields |= {
        "type": "short_answer",
        "answer": list(dict.fromkeys(right)),
        "case_sensitive": False,  # GIFT cannot say: Moodle's default ignores case
    }


def _numerical_fields(record: GiftQuestion, question: SourceQuestion) -> None:
    answers = record.answers
    kept = next((a for a in answers if a.fraction >= 1), None)
    if kept is None:
        kept = max(answers, key=lambda a: a.fraction)
    question.fields |= {
        "type": "numerical",
        "answer": kept.number,
        "tolerance": abs(kept.tolerance),
    }
    shown = f"{kept.number:g} ± {abs(kept.tolerance):g}"
    if any(a.fraction < 1 for a in answers) and len(answers) > 1:
        each = ", ".join(f"{a.text.text} ({_percent(a.fraction)})" for a in answers)
        question.losses.append(
            f"several numerical answers with partial credit ({each}): quizbank keeps {shown}"
        )
    elif kept.fraction < 1:
        question.losses.append(f"its answer is worth {_percent(kept.fraction)}: quizbank's 100%")
    elif len(answers) > 1:
        more = len(answers) - 1
        question.losses.append(
            f"its {more} further answer{'s' if more > 1 else ''} (quizbank keeps one answer and "
            f"its tolerance, {shown})"
        )
    other = record.other_feedback
    if any(a.feedback.text for a in answers) or (other is not None and other.text):
        question.losses.append("the feedback of its answers (quizbank has none for numbers)")


def _matching_fields(record: GiftQuestion, question: SourceQuestion) -> None:
    pairs = [(item, match) for item, match in record.subquestions if item.text]
    distractors = [match for item, match in record.subquestions if not item.text]
    pairs = _first(pairs, "pairs", question)
    distractors = _first(distractors, "distractors", question)
    question.fields |= {
        "type": "matching",
        "pairs": [
            {
                "id": _letter(n),
                "item": SourceText(item.text, item.format),
                "match": SourceText(match, plain=True, inline=True),
            }
            for n, (item, match) in enumerate(pairs)
        ],
        "distractors": [
            {"id": _letter(len(pairs) + n), "text": SourceText(match, plain=True, inline=True)}
            for n, match in enumerate(distractors)
        ],
        "shuffle": True,
    }


def _essay_fields(record: GiftQuestion, question: SourceQuestion) -> None:
    question.fields |= {"type": "essay", "grader_info": None, "min_words": None, "max_words": None}


_FIELDS: dict[str, Callable[[GiftQuestion, SourceQuestion], None]] = {
    "multichoice": _choice_fields,
    "truefalse": _true_false_fields,
    "shortanswer": _short_answer_fields,
    "numerical": _numerical_fields,
    "match": _matching_fields,
    "essay": _essay_fields,
}
