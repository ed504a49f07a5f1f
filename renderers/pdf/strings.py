# ruff: noqa: RUF001  (Urdu sentences end in the Arabic full stop, U+06D4)
"""The paper exam's own words, in English and Urdu.

Words the other exports already say (True, False, Explanation, Answer key, a level's name, word
limits) come from quizbank's gettext catalogs; the few only paper needs are here, a small table
with named placeholders (the Urdu page count puts its numbers as Urdu says them). A language
without a column here gets the English words.
"""

from __future__ import annotations

from quizbank.i18n import format_number, gettext_for, ngettext_for

_WORDS: dict[str, dict[str, str]] = {
    "en": {
        "name": "Name:",
        "date": "Date:",
        "form": "Form %(form)s",
        "page": "Page %(page)s of %(total)s",
        "instructions": (
            "Answer every question in the space given. Tick the box of each answer you choose; "
            "a question marked ☐ may have more than one right answer. Write clearly."
        ),
        "key_instructions": (
            "Each question's right answer, its points and why it is right. Keep this key away "
            "from the candidates."
        ),
        "points": "%(n)s points",
        "point": "%(n)s point",
        "total": "Total: %(points)s",
        "level": "Level: %(level)s",
        "answer": "Answer:",
        "choose_one": "Choose one answer.",
        "choose_all": "Choose every right answer.",
        "true_false": "True or false?",
        "match": "Write the letter of its match in the blank beside each item.",
        "order": "Number the items in the right order, 1 first.",
        "cloze": "Fill in each numbered blank.",
        "gap_choices": "Choices for blank %(n)s:",
        "accepted": "Accepted answers:",
        "tolerance": "%(answer)s (±%(tolerance)s accepted)",
        "right_order": "The right order:",
        "exam_numbers": "as numbered on the exam: %(numbers)s",
        "grader_info": "A full-mark answer:",
        "model_answer": "Model answer:",
        "sheet": "Answer sheet",
        "sheet_instructions": "Fill in the bubble of each answer you choose.",
        "case_sensitive": "Letter case must match.",
        "drawn": "Drawn: %(pick)s of %(count)s questions",
    },
    "ur": {
        "name": "نام:",
        "date": "تاریخ:",
        "form": "فارم %(form)s",
        "page": "صفحہ %(page)s از %(total)s",
        "instructions": (
            "ہر سوال کا جواب دی گئی جگہ میں لکھیں۔ جو جواب منتخب کریں اس کے خانے پر نشان لگائیں؛"
            " ☐ والے سوال کے ایک سے زیادہ درست جواب ہو سکتے ہیں۔ صاف لکھیں۔"
        ),
        "key_instructions": (
            "ہر سوال کا درست جواب، اس کے نمبر اور وضاحت کہ وہ کیوں درست ہے۔ یہ جوابات"
            " امیدواروں سے دور رکھیں۔"
        ),
        "points": "%(n)s نمبر",
        "point": "%(n)s نمبر",
        "total": "کل نمبر: %(n)s",
        "level": "سطح: %(level)s",
        "answer": "جواب:",
        "choose_one": "ایک جواب منتخب کریں۔",
        "choose_all": "ہر درست جواب منتخب کریں۔",
        "true_false": "درست یا غلط؟",
        "match": "ہر آئٹم کے ساتھ والی خالی جگہ میں اس کے جوڑ کا حرف لکھیں۔",
        "order": "آئٹمز کو درست ترتیب میں نمبر دیں، پہلے کو 1۔",
        "cloze": "ہر نمبر والی خالی جگہ پُر کریں۔",
        "gap_choices": "خالی جگہ %(n)s کے انتخاب:",
        "accepted": "قابلِ قبول جوابات:",
        "tolerance": "%(answer)s (±%(tolerance)s تک قبول)",
        "right_order": "درست ترتیب:",
        "exam_numbers": "امتحان کی ترتیب کے مطابق: %(numbers)s",
        "grader_info": "پورے نمبروں والا جواب:",
        "model_answer": "نمونہ جواب:",
        "sheet": "جوابی شیٹ",
        "sheet_instructions": "ہر منتخب جواب کا دائرہ بھریں۔",
        "case_sensitive": "حروف کا چھوٹا بڑا ہونا بھی ملنا چاہیے۔",
        "drawn": "منتخب سوالات: %(count)s میں سے %(pick)s",
    },
}


class Words:
    """The words of one language's paper: its own table, then the shared catalogs."""

    def __init__(self, lang: str) -> None:
        self.lang = lang
        self.table = _WORDS.get(lang.split("-")[0], _WORDS["en"])
        self.gettext = gettext_for(lang)
        self.ngettext = ngettext_for(lang)

    def __getitem__(self, key: str) -> str:
        return self.table[key]

    def say(self, key: str, **values: object) -> str:
        """A phrase with its placeholders filled in."""
        return self.table[key] % values

    def number(self, value: int | float) -> str:
        return format_number(value, self.lang)

    def points(self, value: float) -> str:
        """`1 point`, `2.5 points` in the language."""
        shown = int(value) if float(value).is_integer() else value
        return self.say("point" if value == 1 else "points", n=self.number(shown))
