"""The rules one file must keep beyond its schema: identity, unique ids, a valid answer key,
texts that say what the author meant."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from pathlib import Path

from quizbank.diagnostics import display_path
from quizbank.messages import excerpt
from quizbank.model import LANGUAGE_CODE, MultipleChoice, Question, SingleChoice, TrueFalse
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
        if not isinstance(question, TrueFalse):
            yield from _choice_rules(question, base)


def _choice_rules(question: SingleChoice | MultipleChoice, base: Loc) -> Iterator[Problem]:
    option_index: dict[str, int] = {}
    for o_index, option in enumerate(question.options):
        if option.id in option_index:
            yield (
                f"duplicate option id {option.id!r} (also option {option_index[option.id] + 1})",
                (*base, "options", o_index, "id"),
            )
        option_index.setdefault(option.id, o_index)
    texts = [option.text for option in question.options]
    if len(set(texts)) < len(texts):  # rare: then find which
        for o_index, text in enumerate(texts):
            if (first := texts.index(text)) < o_index:
                yield (
                    f"this option has the same text as option {first + 1}; "
                    "a learner cannot tell them apart",
                    (*base, "options", o_index, "text"),
                )
    ids = ", ".join(option_index)
    answers: list[tuple[str, Loc]] = (
        [(question.answer, (*base, "answer"))]
        if isinstance(question, SingleChoice)
        else [(a, (*base, "answer", i)) for i, a in enumerate(question.answer)]
    )
    seen: set[str] = set()
    for answer, loc in answers:
        if answer not in option_index:
            yield f"{answer!r} is not one of the options {ids}", loc
        elif answer in seen:
            yield f"{answer!r} is listed twice in the answer", loc
        seen.add(answer)


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
