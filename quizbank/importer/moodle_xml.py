"""Moodle XML read into a `SourceBank`: what question/format/xml/format.php imports, each type
by one small reader dispatched from `_READERS`.

A `<question type="category">` starts a category (a quiz); every other question goes to the
category before it. Types the model lacks (calculated multichoice, drag and drop, random,
description, …) are `Skipped`; a `calculated` or `calculatedsimple` question is a numerical
question with variables (calculated.py); what a question says that the model cannot
(penalties, hints, units, combined feedback, grades) is one of its losses. The file is parsed
by lxml without a DTD, entities or the network: a malformed file is an error at its line and
column.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Callable
from pathlib import Path
from typing import Any

from lxml import etree

from quizbank.grading import multiple_choice_grades
from quizbank.importer.calculated import read_calculated
from quizbank.importer.cloze import read_cloze
from quizbank.importer.source import (
    MalformedFile,
    Skipped,
    SourceBank,
    SourceCategory,
    SourceQuestion,
    SourceText,
    TextFormat,
)
from quizbank.model import GAP

_Element = etree._Element
_FORMATS: dict[str, TextFormat] = {
    "html": "html",
    "moodle_auto_format": "moodle",
    "plain_text": "plain",
    "markdown": "markdown",
}
_LETTERS = "abcdefghijklmnopqrstuvwxyz"
# What Moodle's own question editing form sets, and quizbank's export writes: not a loss.
_USUAL_PENALTY = {"truefalse": 1.0, "essay": 0.0}
_DEFAULT_PENALTY = 0.3333333
_NOT_IN_MODEL = {
    "description": "a description is not a question: quizbank has no type for it",
    "random": "a random question is chosen by Moodle's quiz, not kept in a bank",
    "randomsamatch": "random short-answer matching draws its questions in Moodle",
    "calculatedmulti": "calculated multichoice (choices computed by formulas) has no quizbank "
    "type: quizbank computes numbers, not choices",
    "ddimageortext": "drag-and-drop onto an image has no quizbank type",
    "ddmarker": "drag-and-drop markers have no quizbank type",
}


def read_moodle_xml(path: Path, data: bytes) -> SourceBank:
    """Every category and question of a Moodle XML file."""
    root = _parse(path, data)
    bank = SourceBank(path)
    category: SourceCategory | None = None
    by_path: dict[tuple[str, ...], SourceCategory] = {}  # a category met again is the same
    for element in root.iterchildren("question"):
        kind = element.get("type", "")
        line = _line(element)
        if kind == "category":
            found = _category(element, path)
            category = by_path.setdefault(tuple(found.path), found)
            if category is found:
                bank.categories.append(category)
            continue
        reader = _READERS.get(kind)
        name = _plain(element, "name") or "(no name)"
        if reader is None:
            why = _NOT_IN_MODEL.get(kind, f"quizbank has no type for Moodle's {kind!r} questions")
            bank.skipped.append(Skipped(line, name, why))
            continue
        if reader is _calculated and element.find(_DATASET_ITEM) is None:
            bank.skipped.append(Skipped(line, name, _NO_ITEMS))
            continue
        if category is None:
            category = SourceCategory(line, [path.stem])
            bank.categories.append(category)
        question = _question(element, kind)
        reader(element, question)
        category.questions.append(question)
    return bank


def _parse(path: Path, data: bytes) -> _Element:
    parser = etree.XMLParser(
        resolve_entities=False, no_network=True, load_dtd=False, huge_tree=True
    )
    try:
        root = etree.fromstring(data, parser)
    except etree.XMLSyntaxError as exc:
        line, column = exc.position
        raise MalformedFile(path, line, column, f"not well-formed XML: {exc.msg}") from None
    if getattr(root.getroottree().docinfo, "doctype", ""):
        raise MalformedFile(path, 1, 1, "a Moodle XML file has no DOCTYPE: delete it")
    if root.tag != "quiz":
        raise MalformedFile(
            path,
            _line(root) or 1,
            1,
            f"a Moodle XML file's root element is <quiz>, not <{root.tag}>: "
            "export the questions from Moodle's question bank in Moodle XML format",
        )
    return root


def _category(element: _Element, file: Path) -> SourceCategory:
    path = _plain(element, "category")
    for prefix in ("$course$/", "$system$/", "$module$/", "$coursecategory$/"):
        if path.startswith(prefix):
            path = path[len(prefix) :]
    parts = split_category_path(path)
    if parts[:1] == ["top"]:
        parts = parts[1:]
    info = _text(element, "info")
    idnumber = _plain(element, "idnumber") or None
    return SourceCategory(_line(element), parts or [file.stem], idnumber, info)


def _line(element: _Element) -> int:
    """The line an element starts on."""
    line = element.sourceline
    return line if isinstance(line, int) else 0


def split_category_path(path: str) -> list[str]:
    """A category path's names: `/` separates them, `//` is a `/` inside one (Moodle's
    qformat_default::split_category_path)."""
    parts = path.replace("//", "\x00").split("/")
    return [part.replace("\x00", "/").strip() for part in parts if part.strip()]


def _plain(element: _Element, tag: str) -> str:
    """The `<text>` of a child element, as plain text ("" when absent)."""
    child = element.find(tag)
    if child is None:
        return ""
    text = child.find("text")
    return _inner(text if text is not None else child)


def _inner(element: _Element) -> str:
    """An element's content as written: its text, and any markup not put in CDATA as HTML."""
    if len(element) == 0:
        return element.text or ""
    children = "".join(etree.tostring(child, encoding="unicode") for child in element)
    return (element.text or "") + children


def _text(element: _Element | None, tag: str | None = None) -> SourceText | None:
    """A child's text with its format, or None when it is absent or empty."""
    if element is not None and tag is not None:
        element = element.find(tag)
    if element is None:
        return None
    text = element.find("text")
    value = _inner(text) if text is not None else ""
    if not value.strip():
        return None
    return SourceText(value, _FORMATS.get(element.get("format", "html"), "html"))


def _number(element: _Element, tag: str, default: float) -> float:
    child = element.find(tag)
    try:
        return float((child.text or "").strip()) if child is not None else default
    except ValueError:
        return default


def _flag(element: _Element, tag: str, default: bool = False) -> bool:
    child = element.find(tag)
    if child is None or child.text is None:
        return default
    return child.text.strip().lower() in ("1", "true", "yes")


def _question(element: _Element, kind: str) -> SourceQuestion:
    """What every type has: texts, points, tags, files; the losses of the common fields."""
    question = SourceQuestion(
        line=_line(element),
        name=_plain(element, "name").strip() or "(no name)",
        idnumber=_plain(element, "idnumber").strip() or None,
        fields={"type": "", "prompt": _text(element, "questiontext")},
    )
    question.fields["explanation"] = _text(element, "generalfeedback")
    question.fields["points"] = _number(element, "defaultgrade", 1.0)
    tags = [(tag.findtext("text") or "").strip() for tag in element.iterfind("tags/tag")]
    question.fields["_tags"] = [tag for tag in tags if tag]
    _read_files(element, question)
    penalty = _number(element, "penalty", _USUAL_PENALTY.get(kind, _DEFAULT_PENALTY))
    if abs(penalty - _USUAL_PENALTY.get(kind, _DEFAULT_PENALTY)) > 0.005:
        question.losses.append(f"its penalty for each wrong try ({penalty:.0%})")
    hints = [hint for hint in element.iterfind("hint") if _text(hint) is not None]
    if hints:
        question.losses.append(f"its {len(hints)} hint{'s' if len(hints) > 1 else ''}")
    if _flag(element, "hidden"):
        question.losses.append("it was hidden in Moodle")
    return question


def _read_files(element: _Element, question: SourceQuestion) -> None:
    """The question's embedded files, by name, each once."""
    for file in element.iter("file"):
        name = file.get("name", "")
        try:
            data = base64.b64decode(file.text or "", validate=True)
        except (binascii.Error, ValueError):
            question.losses.append(f"its file {name!r}, which is not valid base64")
            continue
        known = question.files.setdefault(name, data)
        if known != data:
            question.losses.append(f"a second, different file named {name!r}")


def _combined_feedback(element: _Element, question: SourceQuestion) -> None:
    names = ("correctfeedback", "partiallycorrectfeedback", "incorrectfeedback")
    if any(_text(element, name) is not None for name in names):
        question.losses.append("its feedback for any right, partly right or wrong response")


def _answers(element: _Element) -> list[_Element]:
    return list(element.iterfind("answer"))


def _fraction(answer: _Element) -> float:
    try:
        return float(answer.get("fraction", "0")) / 100
    except ValueError:
        return 0.0


def _percent(fraction: float) -> str:
    return f"{fraction * 100:.5f}".rstrip("0").rstrip(".") + "%"


def _too_many(items: list[_Element], what: str, question: SourceQuestion) -> list[_Element]:
    if len(items) > len(_LETTERS):
        question.losses.append(f"its {len(items) - len(_LETTERS)} {what} after the 26th")
    return items[: len(_LETTERS)]


# ------------------------------------------------------------------------------- each type


def _multichoice(element: _Element, question: SourceQuestion) -> None:
    answers = _too_many(_answers(element), "options", question)
    fractions = [_fraction(answer) for answer in answers]
    options = [
        {"id": _LETTERS[n], "text": _text(answer), "feedback": _text(answer, "feedback")}
        for n, answer in enumerate(answers)
    ]
    single = _flag(element, "single", True)
    fields = question.fields
    fields["options"] = options
    fields["shuffle"] = _flag(element, "shuffleanswers", True)
    _combined_feedback(element, question)
    if single:
        fields["type"] = "single_choice"
        best = max(range(len(fractions)), key=fractions.__getitem__) if fractions else 0
        fields["answer"] = _LETTERS[best]
        partly = [f for f in fractions if 0 < f < 1] + [f for f in fractions if f < 0]
        if partly or (fractions and fractions[best] < 1):
            shown = ", ".join(_percent(f) for f in fractions)
            question.losses.append(f"its grades ({shown}): one option is right, the rest score 0")
        return
    fields["type"] = "multiple_choice"
    fields["answer"] = [_LETTERS[n] for n, f in enumerate(fractions) if f > 0]
    if fields["answer"] and len(options) >= 2:
        quizbank = list(multiple_choice_grades(_LETTERS[: len(options)], fields["answer"]).values())
        if any(abs(a - b) > 0.0001 for a, b in zip(fractions, quizbank, strict=True)):
            was = ", ".join(_percent(f) for f in fractions)
            now = ", ".join(_percent(f) for f in quizbank)
            question.losses.append(f"its grades ({was}) become quizbank's ({now})")


def _truefalse(element: _Element, question: SourceQuestion) -> None:
    fields = question.fields
    fields["type"] = "true_false"
    fields["answer"] = True
    for answer in _answers(element):
        word = (answer.findtext("text") or "").strip().lower()
        if word not in ("true", "false"):
            continue
        if _fraction(answer) >= 1:
            fields["answer"] = word == "true"
        fields[f"feedback_{word}"] = _text(answer, "feedback")


def _shortanswer(element: _Element, question: SourceQuestion) -> None:
    fields = question.fields
    fields["type"] = "short_answer"
    fields["case_sensitive"] = _flag(element, "usecase")
    answers = [
        (answer.findtext("text") or "", _fraction(answer), answer) for answer in _answers(element)
    ]
    right = [text.strip() for text, fraction, _ in answers if fraction >= 1 and text.strip()]
    partly = [f"{text!r} ({_percent(f)})" for text, f, _ in answers if 0 < f < 1]
    if not right:
        best = max((f for _, f, _ in answers), default=0.0)
        right = [text.strip() for text, f, _ in answers if f == best and text.strip()]
        question.losses.append(f"no answer is fully right; the best ({_percent(best)}) are")
    if partly:
        question.losses.append(f"its partly right answers score nothing: {', '.join(partly)}")
    if any(_text(answer, "feedback") is not None for _, _, answer in answers):
        question.losses.append("the feedback of its answers (quizbank has none for typed answers)")
    fields["answer"] = right


def _numerical(element: _Element, question: SourceQuestion, *, formula: bool = False) -> None:
    """One answer and its tolerance; with `formula`, the answer is a calculated question's."""
    fields = question.fields
    fields["type"] = "numerical"
    answers = _answers(element)
    right = [answer for answer in answers if _fraction(answer) >= 1] or answers[:1]
    first = right[0] if right else None
    value = (first.findtext("text") or "").strip() if first is not None else ""
    try:
        fields["answer"] = value if formula else float(value)
    except ValueError:
        question.losses.append(f"its answer {value!r} is not a number; 0 is written")
        fields["answer"] = 0.0
    fields["tolerance"] = abs(_number(first, "tolerance", 0.0)) if first is not None else 0.0
    others = [answer for answer in answers if answer is not first]
    if others:
        question.losses.append(
            f"its {len(others)} further answer{'s' if len(others) > 1 else ''} "
            "(quizbank keeps one answer and its tolerance)"
        )
    if any(_text(answer, "feedback") is not None for answer in answers):
        question.losses.append("the feedback of its answers (quizbank has none for numbers)")
    if element.find("units/unit") is not None:
        question.losses.append("its units (write the unit in the prompt)")


_DATASET_ITEM = "dataset_definitions/dataset_definition/dataset_items/dataset_item"
_NO_ITEMS = (
    "calculated questions without dataset items (their wildcards' values) have nothing to ask"
)


def _calculated(element: _Element, question: SourceQuestion) -> None:
    """A calculated question: a numerical one, its formula and variables (calculated.py)."""
    _numerical(element, question, formula=True)
    read_calculated(element, question)


def _match(element: _Element, question: SourceQuestion) -> None:
    fields = question.fields
    fields["type"] = "matching"
    fields["shuffle"] = _flag(element, "shuffleanswers", True)
    _combined_feedback(element, question)
    subquestions = _too_many(list(element.iterfind("subquestion")), "pairs", question)
    pairs, distractors = [], []
    for n, sub in enumerate(subquestions):
        match = SourceText(sub.findtext("answer/text") or "", plain=True, inline=True, code=True)
        item = _text(sub)
        if item is None:
            distractors.append({"id": _LETTERS[n], "text": match})
        else:
            pairs.append({"id": _LETTERS[n], "item": item, "match": match})
    fields["pairs"], fields["distractors"] = pairs, distractors


def _ordering(element: _Element, question: SourceQuestion) -> None:
    fields = question.fields
    fields["type"] = "ordering"
    _combined_feedback(element, question)
    answers = sorted(_answers(element), key=_fraction)  # the fraction is the item's place
    answers = _too_many(answers, "items", question)
    fields["items"] = [{"id": _LETTERS[n], "text": _text(a)} for n, a in enumerate(answers)]
    grading = (element.findtext("gradingtype") or "ABSOLUTE_POSITION").strip().upper()
    if grading != "ABSOLUTE_POSITION":
        question.losses.append(
            f"its grading ({grading}): quizbank gives each item in its right place its share"
        )
    select = (element.findtext("selecttype") or "ALL").strip().upper()
    if select not in ("ALL", "0"):
        question.losses.append("it showed only some of its items; every item is shown")


def _multianswer(element: _Element, question: SourceQuestion) -> None:
    fields = question.fields
    fields["type"] = "cloze"
    prompt = fields["prompt"]
    cloze = read_cloze(prompt.value if prompt else "")
    question.losses += cloze.losses
    fields["prompt"] = SourceText(cloze.prompt, prompt.format if prompt else "html")
    fields["gaps"] = cloze.gaps
    fields["points"] = sum(cloze.weights) or 1.0
    fields["shuffle"] = all(cloze.shuffled) if cloze.shuffled else True
    if len(set(cloze.shuffled)) > 1:
        question.losses.append("some of its drop-downs shuffle and some do not; all shuffle now")
    if not cloze.gaps:
        question.losses.append("it has no embedded answer Moodle would read")


def _gapselect(element: _Element, question: SourceQuestion) -> None:
    """Select missing words: a cloze question whose gaps are drop-downs."""
    _choice_gaps(element, question, "selectoption")


def _ddwtos(element: _Element, question: SourceQuestion) -> None:
    """Drag and drop into text: the same gaps, each a drop-down instead of a drop target."""
    _choice_gaps(element, question, "dragbox")
    question.losses.append("its words were dragged into the gaps: each gap is a drop-down now")


def _choice_gaps(element: _Element, question: SourceQuestion, tag: str) -> None:
    """Gaps `[[n]]` (quizbank's own syntax) whose right answer is the n-th choice and whose
    drop-down lists the choices of its group, in the file's order."""
    fields = question.fields
    fields["type"] = "cloze"
    fields["shuffle"] = _flag(element, "shuffleanswers", True)
    _combined_feedback(element, question)
    choices = [
        (_plain(choice, "."), (choice.findtext("group") or "1").strip())
        for choice in element.iterfind(tag)
    ]
    prompt = fields["prompt"]
    text = prompt.value if prompt else ""
    gaps: dict[str, Any] = {}
    for number in dict.fromkeys(GAP.findall(text)):
        if not number.isdigit() or not 0 < int(number) <= len(choices):
            question.losses.append(f"its gap [[{number}]] names no choice")
            continue
        right, group = choices[int(number) - 1]
        same = [choice for choice, its in choices if its == group][: len(_LETTERS)]
        gaps[number] = {
            "type": "single_choice",
            "options": [
                {"id": _LETTERS[n], "text": SourceText(choice, inline=True)}
                for n, choice in enumerate(same)
            ],
            "answer": _LETTERS[same.index(right)],
        }
    fields["gaps"] = gaps


def _essay(element: _Element, question: SourceQuestion) -> None:
    fields = question.fields
    fields["type"] = "essay"
    fields["grader_info"] = _text(element, "graderinfo")
    for tag, key in (("minwordlimit", "min_words"), ("maxwordlimit", "max_words")):
        value = (element.findtext(tag) or "").strip()
        fields[key] = int(value) if value.isdigit() and int(value) > 0 else None
    if (element.findtext("attachments") or "0").strip() not in ("0", ""):
        question.losses.append("its attachments (quizbank asks for a written answer only)")
    if _text(element, "responsetemplate") is not None:
        question.losses.append("its response template")
    response = (element.findtext("responseformat") or "editor").strip()
    if response not in ("editor", "editorfilepicker", "plain", "monospaced"):
        question.losses.append(f"its response format ({response})")


# By the names Moodle's importer reads: its export writes `matching` and `cloze` for `match` and
# `multianswer` (qformat_xml::get_qtype), and reads either.
_READERS: dict[str, Callable[[_Element, SourceQuestion], None]] = {
    "multichoice": _multichoice,
    "truefalse": _truefalse,
    "shortanswer": _shortanswer,
    "numerical": _numerical,
    "calculated": _calculated,
    "calculatedsimple": _calculated,
    "match": _match,
    "matching": _match,
    "ordering": _ordering,
    "multianswer": _multianswer,
    "cloze": _multianswer,
    "gapselect": _gapselect,
    "ddwtos": _ddwtos,
    "essay": _essay,
}
