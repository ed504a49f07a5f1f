"""A `SourceBank` made into quizzes of the authoring format, one per category and language.

Each text is taken as a learner in the language sees it (languages.py), made Markdown
(html_markdown.py) with its images written to `content/images/`, and each question checked
against the model: one the model refuses is left out with the reason, never a traceback. Ids
are stable: the same file gives the same ids.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from pydantic import TypeAdapter, ValidationError
from slugify import slugify

from quizbank.crosslang import reference_language
from quizbank.freshness import source_digests
from quizbank.i18n import N_, gettext_for
from quizbank.images import ImageError, check_image, readable_size
from quizbank.importer.html_markdown import to_markdown
from quizbank.importer.languages import languages_in, seen_in
from quizbank.importer.source import SourceBank, SourceCategory, SourceQuestion, SourceText
from quizbank.loader import MAX_FORMULAS, MAX_IMAGES_BYTES, MAX_QUESTIONS
from quizbank.markup import find_formulas, find_images
from quizbank.maths import check_formula
from quizbank.model import LANGUAGE_CODE, SLUG_PATTERN, Question, question_texts
from quizbank.placeholders import NO_EXPLANATION, NO_TITLE
from quizbank.scripts import script_for

MAX_SOURCE_TEXT = 60_000  # characters of HTML: three times the model's longest text
MAX_ID = 64
MAX_TITLE = 300
_SLUG = re.compile(SLUG_PATTERN)
_QUESTION = TypeAdapter(Question)
# quizbank's own export names a category `<title> (<languages>)`.
_LABEL = re.compile(
    r"\s*\(([a-z]{2,3}(?:[-_][A-Za-z0-9]{2,8})*(?:,\s*[a-z]{2,3}(?:[-_][A-Za-z0-9]{2,8})*)*)\)$"
)
# quizbank's export gives an image a name ending in the first 8 hex digits of its SHA-256.
_HASHED_NAME = re.compile(r"^(.+)-([0-9a-f]{8})(\.[A-Za-z0-9]+)$")
_ISOLATES = str.maketrans("", "", "\u2066\u2067\u2068\u2069")
_NO_DESCRIPTION = N_("Questions imported from %(source)s.")
DEFAULT_LEVEL = "intermediate"


@dataclass(frozen=True, slots=True)
class Loss:
    """What could not be carried: at a line of the file, of a question (None: the quiz's);
    `to_write` when nothing the file held was lost but the author has a text to write (a
    placeholder, a translation)."""

    line: int
    question: str | None
    what: str
    to_write: bool = False


@dataclass(slots=True)
class QuizFile:
    """One quiz in one language, as the dictionary its YAML file will hold."""

    lang: str
    quiz_id: str
    data: dict[str, Any]


@dataclass(slots=True)
class Imported:
    """What a file gives: its quizzes in every language, the images they show (by file name
    under `content/images/`), and its losses."""

    source: Path
    languages: list[str]
    quizzes: list[QuizFile] = field(default_factory=list)
    images: dict[str, bytes] = field(default_factory=dict)
    losses: list[Loss] = field(default_factory=list)


def convert(
    bank: SourceBank,
    lang: str | None = None,
    existing_image: Callable[[str], bytes | None] = lambda name: None,
) -> Imported:
    """The quizzes of a bank in each of its languages (`lang` names the language of a file
    without multilang texts, or picks one of a file's languages)."""
    found = _languages(bank)
    if not found:
        languages = [lang or _labelled_language(bank) or "en"]
    else:
        languages = [lang] if lang in found else found
        if lang and lang not in found:
            languages = [lang]
    imported = Imported(bank.path, languages)
    for skipped in bank.skipped:
        imported.losses.append(Loss(skipped.line, skipped.name, f"left out: {skipped.why}"))
    images = _Images(imported, existing_image)
    quiz_ids: set[str] = set()
    for category in _with_sections(bank.categories):
        if category.questions:
            _category(category, bank, languages, found, imported, images, quiz_ids)
    imported.losses = list(dict.fromkeys(imported.losses))  # each language found the same
    return imported


def _with_sections(categories: list[SourceCategory]) -> list[SourceCategory]:
    """The quizzes of a file's categories: a category below one of the file named as quizbank's
    export names a quiz (`Title (en)`) is a section of it, its questions (and its own
    sub-categories', such as a question's variants) joined to the quiz's, in the file's order
    (quizbank's export writes a quiz's sections so: `<quiz>/<section>`); any other category is
    a quiz of its own."""
    by_path = {tuple(category.path): category for category in categories}
    merged: dict[tuple[str, ...], SourceCategory] = {}
    for category in categories:
        path = tuple(category.path)
        root = next(
            (
                path[:n]
                for n in range(1, len(path))
                if path[:n] in by_path and _LABEL.search(path[n - 1])
            ),
            path,
        )
        quiz = merged.get(root)
        if quiz is None:
            top = by_path[root]
            quiz = merged[root] = SourceCategory(top.line, top.path, top.idnumber, top.info)
        if path != root:
            indexes = quiz.sections.setdefault(path[len(root)], [])
            indexes += range(len(quiz.questions), len(quiz.questions) + len(category.questions))
        quiz.questions += category.questions
    for quiz in merged.values():
        own = set(range(len(quiz.questions))).difference(*quiz.sections.values())
        if quiz.sections and own:  # a quiz's own questions are a section of their own
            quiz.sections[""] = sorted(own)
    return list(merged.values())


def _languages(bank: SourceBank) -> list[str]:
    found: list[str] = []
    for category in bank.categories:
        for text in _texts(category):
            found += languages_in(text.value)
    ordered = list(dict.fromkeys(lang for lang in found if LANGUAGE_CODE.match(lang)))
    if len(ordered) > 1:
        first = reference_language(dict.fromkeys(ordered))
        ordered = [first, *(lang for lang in ordered if lang != first)]
    return ordered


def _texts(category: SourceCategory) -> Iterator[SourceText]:
    yield SourceText(category.path[-1])  # a name may hold multilang spans too
    if category.info:
        yield category.info
    for question in category.questions:
        yield from _source_texts(question.fields)


def _source_texts(value: Any) -> Iterator[SourceText]:
    if isinstance(value, SourceText):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _source_texts(item)
    elif isinstance(value, list):
        for item in value:
            yield from _source_texts(item)


def _labelled_language(bank: SourceBank) -> str | None:
    """The language quizbank's own export names in its categories, `Title (ur)`."""
    for category in bank.categories:
        label = _LABEL.search(category.path[-1]) if category.path else None
        if label and "," not in label[1]:
            return label[1].replace("_", "-")
    return None


def _slug(text: str) -> str:
    return slugify(text, max_length=MAX_ID, word_boundary=True) if text else ""


def _unique(wanted: str, taken: set[str], fallback: str) -> str:
    base = wanted if _SLUG.match(wanted) and len(wanted) <= MAX_ID else fallback
    chosen, n = base, 2
    while chosen in taken:
        suffix = f"-{n}"
        chosen, n = base[: MAX_ID - len(suffix)].rstrip("-") + suffix, n + 1
    taken.add(chosen)
    return chosen


def _quiz_id(category: SourceCategory, title: str, taken: set[str]) -> str:
    """The category's idnumber when a slug; else the quiz id quizbank's export gives every
    question's idnumber (`quiz/question`); else the slug of the category's name."""
    if category.idnumber and _SLUG.match(category.idnumber):
        return _unique(category.idnumber, taken, "quiz")
    prefixes = {
        q.idnumber.split("/", 1)[0] for q in category.questions if q.idnumber and "/" in q.idnumber
    }
    if len(prefixes) == 1 and all(q.idnumber and "/" in q.idnumber for q in category.questions):
        return _unique(prefixes.pop(), taken, "quiz")
    return _unique(_slug(title), taken, "quiz")


def _question_id(question: SourceQuestion, quiz_id: str, taken: set[str]) -> str:
    idnumber = (question.idnumber or "").strip()
    if idnumber.startswith(f"{quiz_id}/"):  # a variant of quizbank's is `<quiz>/<question>/<n>`
        idnumber = idnumber[len(quiz_id) + 1 :].replace("/", "-")
    if idnumber and _SLUG.match(idnumber):
        return _unique(idnumber, taken, "question")
    return _unique(_slug(question.name) or _slug(idnumber), taken, "question")


def _category(
    category: SourceCategory,
    bank: SourceBank,
    languages: list[str],
    found: list[str],
    imported: Imported,
    images: _Images,
    quiz_ids: set[str],
) -> None:
    name = category.path[-1]
    first = seen_in(name, languages[0]).text if len(found) > 1 else name
    quiz_id = _quiz_id(category, _LABEL.sub("", first).strip() or first, quiz_ids)
    question_ids: set[str] = set()
    ids = [_question_id(q, quiz_id, question_ids) for q in category.questions]
    parts = _split(quiz_id, ids, quiz_ids)
    if len(parts) > 1:
        what = (
            f"its {len(ids):,} questions are more than a quiz holds ({MAX_QUESTIONS:,}): "
            f"written as {len(parts)} quizzes, {parts[0][0]} to {parts[-1][0]}"
        )
        imported.losses.append(Loss(category.line, None, what))
    tags = _tags(category, imported)
    reference: dict[str, Question] = {}  # in a multilang file, the first language's questions
    dropped: set[str] = set()  # left out in the first language: left out in every language
    for lang in languages:
        texts = _Texts(lang, found if len(found) > 1 else [lang], images)
        gettext = gettext_for(lang)
        description = _description(category, bank, texts, imported)
        limits = _FileLimits(imported.images, [description])
        questions = []
        for question_id, question in zip(ids, category.questions, strict=True):
            if question_id in dropped:
                continue
            converted = _question(question, question_id, texts, imported, lang == languages[0])
            why = limits.refusal(converted[1]) if converted is not None else None
            if why is not None:
                imported.losses.append(Loss(question.line, question.name, f"left out: {why}"))
            if converted is None or why is not None:
                if lang == languages[0]:
                    dropped.add(question_id)
                continue
            fields, model = converted
            if lang == languages[0] and len(found) > 1:
                reference[question_id] = model
            elif question_id in reference and not texts.missing:
                # Translated together with the reference: current, as `quizbank translated`
                # would mark it.
                fields["source"] = source_digests(reference[question_id])
            questions.append(fields)
        if not questions:
            continue
        data: dict[str, Any] = {"id": quiz_id, "lang": lang}
        data["title"] = texts.title(name, gettext(NO_TITLE), category.line, imported)
        data |= {"description": description, "level": DEFAULT_LEVEL}
        if tags:
            data["tags"] = tags
        if category.sections and len(parts) == 1:
            data["sections"] = _sections(category, ids, questions, texts, found)
        imported.quizzes += _parts(QuizFile(lang, quiz_id, data), questions, parts)


def _sections(
    category: SourceCategory,
    ids: list[str],
    questions: list[dict[str, Any]],
    texts: _Texts,
    found: list[str],
) -> list[dict[str, Any]]:
    """The quiz's sections, one per sub-category, titled by its name in the language (its id
    from the name in the file's first language), with the questions of it written in the file;
    Moodle keeps no pick: every section asks all."""
    written = {question["id"] for question in questions}
    sections: list[dict[str, Any]] = []
    taken: set[str] = set()
    for name, indexes in category.sections.items():
        members = [ids[index] for index in indexes if ids[index] in written]
        first = seen_in(name, found[0]).text if found else name
        section_id = _unique(_slug(first), taken, "section")
        if not members:
            continue
        title = seen_in(name, texts.lang).text if len(found) > 1 and name else name
        section: dict[str, Any] = {"id": section_id}
        if title:
            section["title"] = title
        sections.append(section | {"questions": members})
    return sections


def _description(
    category: SourceCategory, bank: SourceBank, texts: _Texts, imported: Imported
) -> str:
    """The quiz's description in the language of `texts`: the category's information, or a
    sentence naming the file when it has none (or holds a formula quizbank cannot draw)."""
    description = texts.text(category.info) if category.info else None
    texts.report(category.line, None, imported)
    if description is not None and (why := _undrawable([description])) is not None:
        imported.losses.append(Loss(category.line, None, f"the description left out: {why}"))
        description = None
    if description is None:
        description = texts.gettext(_NO_DESCRIPTION) % {"source": bank.path.name}
    return description


def _undrawable(texts: Iterable[str]) -> str | None:
    """Why a formula of the texts cannot be drawn, in the words `quizbank validate` says it,
    or None when each can."""
    for text in texts:
        for tex, _display in find_formulas(text):
            if (reason := check_formula(tex)) is not None:
                shown = " ".join(tex.split())
                shown = shown if len(shown) <= 40 else f"{shown[:39]}…"
                return f"the formula ${shown}$ cannot be drawn: {reason}"
    return None


class _FileLimits:
    """What one quiz file holds so far of what `quizbank validate` reads at most in a file:
    different formulas, and the bytes of the different images it shows."""

    def __init__(self, images: dict[str, bytes], texts: Iterable[str]) -> None:
        self.images = images  # the import's images, by name under content/images/
        self.formulas = {tex for text in texts for tex, _display in find_formulas(text)}
        self.shown: set[str] = set()
        self.image_bytes = 0

    def refusal(self, question: Question) -> str | None:
        """Why the question would take the file past a limit; else None, and it is counted."""
        texts = [text for _loc, text in question_texts(question)]
        formulas = {tex for text in texts for tex, _display in find_formulas(text)}
        formulas -= self.formulas
        if len(self.formulas) + len(formulas) > MAX_FORMULAS:
            return (
                f"its quiz would hold more than {MAX_FORMULAS:,} formulas, the most a quiz "
                "file holds: split the category"
            )
        names = {PurePosixPath(image.src).name for text in texts for image in find_images(text)}
        names = {name for name in names - self.shown if name in self.images}
        added = sum(len(self.images[name]) for name in names)
        if self.image_bytes + added > MAX_IMAGES_BYTES:
            return (
                f"its quiz's images would add up to more than {readable_size(MAX_IMAGES_BYTES)}, "
                "the most a quiz file shows: split the category, or make the images smaller"
            )
        self.formulas |= formulas
        self.shown |= names
        self.image_bytes += added
        return None


def _split(quiz_id: str, ids: list[str], taken: set[str]) -> list[tuple[str, set[str]]]:
    """The quizzes a category's questions make, each an id and its question ids: one, or
    `<id>-1`, `<id>-2`, … of MAX_QUESTIONS questions each (the most a quiz holds)."""
    if len(ids) <= MAX_QUESTIONS:
        return [(quiz_id, set(ids))]
    chunks = [ids[at : at + MAX_QUESTIONS] for at in range(0, len(ids), MAX_QUESTIONS)]
    return [
        (_unique(f"{quiz_id[: MAX_ID - 8]}-{n}", taken, f"quiz-{n}"), set(chunk))
        for n, chunk in enumerate(chunks, 1)
    ]


def _parts(
    quiz: QuizFile, questions: list[dict[str, Any]], parts: list[tuple[str, set[str]]]
) -> list[QuizFile]:
    """A quiz's file in one language, or its parts', each with its share of the questions
    (none for a part whose questions this language lacks) and its number in its title."""
    if len(parts) == 1:
        quiz.data["questions"] = questions
        return [quiz]
    files = []
    for n, (part_id, ids) in enumerate(parts, 1):
        mine = [question for question in questions if question["id"] in ids]
        if mine:
            suffix = f" ({n}/{len(parts)})"
            title = quiz.data["title"][: MAX_TITLE - len(suffix)] + suffix
            data = quiz.data | {"id": part_id, "title": title, "questions": mine}
            files.append(QuizFile(quiz.lang, part_id, data))
    return files


def _tags(category: SourceCategory, imported: Imported) -> list[str]:
    """The quiz's tags: every question's, as slugs. quizbank tags quizzes, not questions: when
    the questions' tags differ, the quiz has them all, reported once."""
    per_question = [[_slug(tag) for tag in q.fields.get("_tags", [])] for q in category.questions]
    tags = list(dict.fromkeys(tag for each in per_question for tag in each if tag))[:50]
    if any(set(each) != set(tags) for each in per_question):
        what = f"its questions' tags differ: the quiz has them all ({', '.join(tags)})"
        imported.losses.append(Loss(category.line, None, what))
    return tags


def _question(
    question: SourceQuestion, question_id: str, texts: _Texts, imported: Imported, first: bool
) -> tuple[dict[str, Any], Question] | None:
    """One question in one language, checked against the model; None when it cannot be."""
    if first:
        for what in question.losses:
            imported.losses.append(Loss(question.line, question.name, what))
    if any(len(text.value) > MAX_SOURCE_TEXT for text in _source_texts(question.fields)):
        if first:
            imported.losses.append(
                Loss(question.line, question.name, "left out: a text of it is too long")
            )
        return None
    texts.files, texts.missing = question.files, False
    fields: dict[str, Any] = {"id": question_id}
    fields |= texts.fields({k: v for k, v in question.fields.items() if not k.startswith("_")})
    if fields.get("explanation") is None:
        fields["explanation"] = texts.gettext(NO_EXPLANATION)
        texts.lost(
            "it had no general feedback: its explanation is a placeholder to write", to_write=True
        )
    fields = {key: _without_none(value) for key, value in fields.items() if value is not None}
    texts.report(question.line, question.name, imported)
    try:
        model = _QUESTION.validate_python(fields)
    except ValidationError as exc:
        if first:
            problem = exc.errors()[0]
            where = ".".join(str(part) for part in problem["loc"][1:])
            imported.losses.append(
                Loss(question.line, question.name, f"left out: {where}: {problem['msg']}")
            )
        return None
    if (why := _undrawable(text for _loc, text in question_texts(model))) is not None:
        imported.losses.append(Loss(question.line, question.name, f"left out: {why}"))
        return None
    return fields, model


def _without_none(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _without_none(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [_without_none(item) for item in value]
    return value


class _Images:
    """The images of an import, each written once under a name of its own."""

    def __init__(self, imported: Imported, existing: Callable[[str], bytes | None]) -> None:
        self.imported = imported
        self.existing = existing
        self.by_digest: dict[str, str] = {}

    def path(self, name: str, data: bytes) -> str:
        """The path a quiz file gives the image (`../images/<name>`); an ImageError when
        quizbank would refuse it (not an image, too big, an SVG that does more than draw)."""
        digest = hashlib.sha256(data).hexdigest()
        chosen = self.by_digest.get(digest)
        if chosen is None:
            chosen = self._name(name, digest, data)
            check_image(data, PurePosixPath(chosen).suffix, name)
            self.by_digest[digest] = chosen
            self.imported.images[chosen] = data
        return f"../images/{chosen}"

    def _name(self, name: str, digest: str, data: bytes) -> str:
        hashed = _HASHED_NAME.match(name)
        if hashed and digest.startswith(hashed[2]):
            name = hashed[1] + hashed[3]  # quizbank's own export: the author's name again
        path = PurePosixPath(name)
        stem = _slug(path.stem) or "image"
        suffix = re.sub(r"[^a-z0-9.]", "", path.suffix.lower())
        chosen = f"{stem}{suffix}"
        taken = self.imported.images.get(chosen)
        on_disk = self.existing(chosen)
        if (taken is not None and taken != data) or (on_disk is not None and on_disk != data):
            chosen = f"{stem}-{digest[:8]}{suffix}"
        return chosen


class _Texts:
    """Texts of one language made Markdown, the losses of the question being converted kept."""

    def __init__(self, lang: str, languages: list[str], images: _Images) -> None:
        self.lang = lang
        self.languages = languages
        self.images = images
        self.gettext = gettext_for(lang)
        self.files: dict[str, bytes] = {}
        self.losses: list[tuple[str, bool]] = []  # what, and whether it is a text to write
        self.missing = False  # a text of the question had no version in this language
        self.refused: set[str] = set()  # what the converter says of an image refused here

    def fields(self, fields: dict[str, Any]) -> dict[str, Any]:
        """A question's fields with this language's texts."""
        converted: dict[str, Any] = self.value(fields)
        return converted

    def value(self, value: Any) -> Any:
        if isinstance(value, SourceText):
            return self.text(value)
        if isinstance(value, dict):
            return {
                k: self.accepted(v) if k == "answer" and isinstance(v, list) else self.value(v)
                for k, v in value.items()
            }
        if isinstance(value, list):
            return [self.value(item) for item in value]
        return value

    def text(self, source: SourceText) -> str | None:
        """A text as this language's Markdown, None when empty."""
        value = source.value
        if len(self.languages) > 1:
            seen = seen_in(value, self.lang)
            if seen.missing:
                self.missing = True
                self.lost(
                    f"a text with no {self.lang} version: another language's is used",
                    to_write=True,
                )
            value = seen.text
            if source.plain and value == source.value:
                value = self._one_of_joined(value)
        converted = to_markdown(
            value,
            source.format,
            inline=source.inline,
            plain=source.plain,
            code=source.code,
            image_path=self._image,
        )
        self.losses += [(what, False) for what in converted.losses if what not in self.refused]
        # The isolates an export puts around Latin runs in right-to-left labels: not the text's.
        return converted.text.translate(_ISOLATES).strip() or None

    def _one_of_joined(self, value: str) -> str:
        """This language's part of a plain text quizbank's multilang export joined,
        `English / ⁨اردو⁩` (a drop-down can show no multilang span)."""
        parts = value.split(" / ")
        if len(parts) != len(self.languages):
            return value
        return parts[self.languages.index(self.lang)].translate(_ISOLATES)

    def accepted(self, answers: list[str]) -> list[str]:
        """Accepted answers in this language: in a file of several languages, those written in
        another language's script are that language's."""
        mine = script_for(self.lang)
        others = [script_for(lang) for lang in self.languages]
        kept = [
            answer
            for answer in answers
            if not any(s.letters.search(answer) for s in others if s is not None and s is not mine)
        ]
        return kept or answers

    def title(self, name: str, placeholder: str, line: int, imported: Imported) -> str:
        """The quiz's title: the category's name in this language (quizbank's `(en)` label
        left out), or a placeholder when it has none (a multilang file names its category in
        one language)."""
        text = SourceText(name, "plain", inline=True)
        if len(self.languages) > 1 and ("multilang" in name or "mlang" in name):
            text = SourceText(seen_in(name, self.lang).text, inline=True)
        converted = to_markdown(text.value, text.format, inline=True, plain=text.plain)
        title = _LABEL.sub("", converted.text).strip() or converted.text
        script = script_for(self.lang)
        if not title or (script and not script.letters.search(title)):
            what = f"the category's name has no {self.lang} version: the title is a placeholder"
            imported.losses.append(Loss(line, None, what, to_write=True))
            return placeholder
        return title

    def _image(self, name: str) -> str | None:
        data = self.files.get(name)
        if data is None:
            return None
        try:
            return self.images.path(name, data)
        except ImageError as exc:
            self.lost(f"an image left out, its alt text kept: {exc}")
            self.refused.add(f"an image that is not in the file ({name})")  # said just above
            return None

    def lost(self, what: str, *, to_write: bool = False) -> None:
        self.losses.append((what, to_write))

    def report(self, line: int, name: str | None, imported: Imported) -> None:
        for what, to_write in dict.fromkeys(self.losses):
            imported.losses.append(Loss(line, name, what, to_write))
        self.losses = []
