"""Placeholder text that must not ship: what `quizbank new` and `quizbank import` write for the
author to replace, found wherever it is left as written.

`new` starts a quiz from example questions (quizbank/templates/quiz.<lang>.yaml) and, in Urdu, a
placeholder title; `import` writes a sentence where a question had no explanation and a title
where a category had none in a language. A text that is still exactly one of these is reported
at its line (a warning; an error with `--strict`), and an example question left whole is
reported once, at the question.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path

import yaml

from quizbank.diagnostics import Severity
from quizbank.i18n import N_, gettext_for
from quizbank.loader import LoadedQuiz
from quizbank.model import Quiz, text_fields
from quizbank.paths import Loc
from quizbank.yamlsource import HEAD_BYTES

TEMPLATES = Path(__file__).with_name("templates")
# The title `new` gives a language whose script the quiz id is not in (Urdu: نیا کوئز).
NEW_TITLES = {"ur": "نیا کوئز"}
# What `import` writes where the file had nothing, in the language of the quiz.
NO_EXPLANATION = N_(
    "The imported question had no explanation: write why the right answer is right."
)
NO_TITLE = N_("Imported quiz")

# The fields of a template whose texts are sentences of its own.
_SENTENCES = frozenset(
    [
        "description",
        "prompt",
        "explanation",
        "feedback",
        "feedback_true",
        "feedback_false",
        "grader_info",
    ]
)
# The line `quizbank new` writes at the top of a file (the templates' second line).
NEW_MARK = "# Written by `quizbank new`"
FROM_NEW = "placeholder text from `quizbank new`"
FROM_IMPORT = "placeholder text from `quizbank import`"
# What to write instead, by the last part of the text's location.
_WHAT = {
    "title": "the title",
    "description": "the description",
    "prompt": "the prompt",
    "explanation": "the explanation",
    "text": "the text",
    "feedback": "the feedback",
    "grader_info": "the information for graders",
}


def made_by_new(path: Path) -> bool:
    """Whether a quiz file still carries the line `quizbank new` marks its files with (only
    there is an example's text a placeholder: another quiz may share a sentence with one)."""
    try:
        with path.open("rb") as file:
            head = file.read(HEAD_BYTES)
    except OSError:
        return False
    return head_made_by_new(head)


def head_made_by_new(head: bytes) -> bool:
    """`made_by_new` of a file whose first HEAD_BYTES bytes are `head`."""
    return NEW_MARK.encode() in head


def check_placeholders(loaded: LoadedQuiz, lang: str, *, strict: bool) -> int:
    """Report every placeholder left in a valid quiz; return how many were found."""
    quiz = loaded.quiz
    if quiz is None:
        return 0
    found = list(find_placeholders(quiz, lang, from_new=head_made_by_new(loaded.head)))
    severity = Severity.ERROR if strict else Severity.WARNING
    for loc, message in found:
        loaded.report(message, loc, severity=severity)
    return len(found)


def find_placeholders(quiz: Quiz, lang: str, *, from_new: bool) -> Iterator[tuple[Loc, str]]:
    """Each placeholder of a quiz: where it is, and what the author should do; the examples'
    texts count only `from_new`, in a file `quizbank new` wrote."""
    examples = _example_texts(lang) if from_new else frozenset()
    imported = _import_texts(lang)
    whole: set[int] = set()
    for index, question in enumerate(quiz.questions):
        if question.prompt in examples:
            whole.add(index)
            yield (
                ("questions", index),
                "an example question from `quizbank new`: replace it with your own question, "
                "or delete it",
            )
    for loc, text in text_fields(quiz):
        if len(loc) > 1 and loc[0] == "questions" and loc[1] in whole:
            continue
        new_title = from_new and loc == ("title",) and text == NEW_TITLES.get(lang)
        if text in imported or new_title:
            origin = FROM_IMPORT if text in imported else FROM_NEW
        elif text in examples and loc != ("title",):
            origin = FROM_NEW
        else:
            continue
        yield loc, f"{origin}: write {_WHAT.get(str(loc[-1]), 'this text')}"


def filled_template(template: str, quiz_id: str, lang: str, title: str) -> str:
    """The text of `templates/quiz.<template>.yaml` for a new quiz."""
    text = (TEMPLATES / f"quiz.{template}.yaml").read_text(encoding="utf-8")
    # A title goes in double quotes, escaped as JSON (a subset of YAML's double-quoted
    # scalars), so that `a: b # c` or a leading `*` stays text.
    quoted = json.dumps(title, ensure_ascii=False)
    return text.replace("{{id}}", quiz_id).replace("{{lang}}", lang).replace("{{title}}", quoted)


def template_for(lang: str) -> str | None:
    """The template of a language (`ur` for ur-PK), or None when it has none of its own."""
    base = lang.split("-")[0]
    return base if (TEMPLATES / f"quiz.{base}.yaml").is_file() else None


def _example_texts(lang: str) -> frozenset[str]:
    """The sentences of the template `new` starts a quiz in `lang` from (the English one when
    the language has none of its own)."""
    return _template_sentences(template_for(lang) or "en")


@lru_cache(maxsize=4)
def _template_sentences(template: str) -> frozenset[str]:
    """A template's description, prompts, explanations, feedback and grader information: the
    texts no quiz would share with it by chance (an option such as "All of the above" may)."""
    text = filled_template(template, "example", template, "-")
    quiz = Quiz.model_validate(yaml.safe_load(text))
    return frozenset(text for loc, text in text_fields(quiz) if str(loc[-1]) in _SENTENCES and text)


@lru_cache(maxsize=8)
def _import_texts(lang: str) -> frozenset[str]:
    gettext = gettext_for(lang)
    return frozenset({gettext(NO_EXPLANATION), gettext(NO_TITLE), NO_EXPLANATION, NO_TITLE})
