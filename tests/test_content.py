"""The bundled quizzes: complete in both languages, with a key, explanations and feedback."""
# ruff: noqa: RUF001, RUF002, RUF003 - Urdu letters and punctuation are meant

from __future__ import annotations

import itertools
import re
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from conftest import CONTENT, QUIZ

from quizbank.loader import load_quiz
from quizbank.markup import find_formulas, find_images, to_html
from quizbank.model import (
    QUESTION_MODELS,
    ChoiceGap,
    Cloze,
    Essay,
    Matching,
    MultipleChoice,
    Numerical,
    NumericalGap,
    Ordering,
    Question,
    Quiz,
    ShortAnswer,
    ShortAnswerGap,
    SingleChoice,
    TrueFalse,
    question_texts,
    text_fields,
)
from quizbank.scaffold import new_quiz
from quizbank.scripts import ARABIC
from quizbank.variables import has_variables, variable_values, variant_question

SECOND = "resuming-training-in-practice"
QUIZZES = [QUIZ, SECOND]
LANGS = ["en", "ur"]


def _quiz(lang: str, quiz_id: str = QUIZ) -> Quiz:
    loaded = load_quiz(CONTENT / lang / f"{quiz_id}.yaml")
    assert loaded.quiz is not None, [d.format() for d in loaded.diagnostics]
    assert not loaded.diagnostics, [d.format() for d in loaded.diagnostics]
    return loaded.quiz


def test_the_bank_holds_the_bundled_quizzes_in_both_languages() -> None:
    for lang in LANGS:
        assert sorted(path.stem for path in (CONTENT / lang).glob("*.yaml")) == sorted(QUIZZES)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("quiz_id", QUIZZES)
def test_every_text_a_learner_is_owed_is_written(quiz_id: str, lang: str) -> None:
    """An explanation for every question, feedback for every option, both true/false answers."""
    quiz = _quiz(lang, quiz_id)
    assert quiz.level == "intermediate"
    for question in quiz.questions:
        where = f"{lang} {quiz_id} {question.id}"
        assert question.explanation.strip(), where
        if isinstance(question, SingleChoice | MultipleChoice):
            for option in question.options:
                assert option.feedback, f"{where} option {option.id} has no feedback"
        if isinstance(question, TrueFalse):
            assert question.feedback_true and question.feedback_false, where
        if isinstance(question, Cloze):
            for gap_id, gap in question.gaps.items():
                if isinstance(gap, ChoiceGap):
                    for gap_option in gap.options:
                        assert gap_option.feedback, f"{where} gap {gap_id} option {gap_option.id}"
        if isinstance(question, Essay):
            assert question.grader_info, where
            assert question.min_words and question.max_words, where
            assert question.min_words < question.max_words, where
            # The explanation is the model answer: itself within the limits it sets.
            words = len(question.explanation.split())
            assert question.min_words <= words <= question.max_words, (where, words)


@pytest.mark.parametrize("lang", LANGS)
def test_first_quiz_is_eight_single_choice_questions_of_four_options(lang: str) -> None:
    quiz = _quiz(lang)
    assert len(quiz.questions) == 8
    for question in quiz.questions:
        assert isinstance(question, SingleChoice)
        assert len(question.options) == 4


@pytest.mark.parametrize("lang", LANGS)
def test_second_quiz_has_every_question_type(lang: str) -> None:
    quiz = _quiz(lang, SECOND)
    assert 10 <= len(quiz.questions) <= 13
    types = [question.type for question in quiz.questions]
    assert set(types) == set(QUESTION_MODELS), set(QUESTION_MODELS) - set(types)

    numerical = [q for q in quiz.questions if isinstance(q, Numerical)]
    assert any(q.tolerance > 0 for q in numerical), "a numerical question with a tolerance"
    short = [q for q in quiz.questions if isinstance(q, ShortAnswer)]
    assert any("*" in answer for q in short for answer in q.answer), "a wildcard answer"
    matching = [q for q in quiz.questions if isinstance(q, Matching)]
    assert any(q.distractors for q in matching), "a matching question with a distractor"
    assert all(len(q.items) >= 3 for q in quiz.questions if isinstance(q, Ordering))
    for cloze in (q for q in quiz.questions if isinstance(q, Cloze)):
        kinds = {gap.type for gap in cloze.gaps.values()}
        assert kinds == {"short_answer", "numerical", "single_choice"}, kinds


ALL_OF_THE_ABOVE = {"en": "All of the above", "ur": "مندرجہ بالا سب"}


@pytest.mark.parametrize("lang", LANGS)
def test_second_quiz_keeps_all_of_the_above_last_in_one_unshuffled_question(lang: str) -> None:
    quiz = _quiz(lang, SECOND)
    fixed = [q for q in quiz.questions if isinstance(q, MultipleChoice) and not q.shuffle]
    assert len(fixed) == 1
    (question,) = fixed
    assert question.options[-1].text == ALL_OF_THE_ABOVE[lang]
    assert question.options[-1].id not in question.answer  # not every option above is right
    shuffled = [q for q in quiz.questions if isinstance(q, MultipleChoice) and q.shuffle]
    assert shuffled, "a multiple_choice question that is shuffled as usual"


def _options(options: Any) -> list[str]:
    return [option.id for option in options]


def _key(question: Question) -> tuple[Any, ...]:
    """What must be the same in every language: everything but the texts (and the accepted
    short answers, which are translated)."""
    common = (question.id, question.type, question.points)
    if isinstance(question, SingleChoice | MultipleChoice):
        return (*common, _options(question.options), question.answer_ids, question.shuffle)
    if isinstance(question, TrueFalse):
        return (*common, question.answer)
    if isinstance(question, Numerical):
        return (*common, question.answer, question.tolerance)
    if isinstance(question, ShortAnswer):
        return (*common, question.case_sensitive)
    if isinstance(question, Matching):
        return (*common, _options(question.pairs), _options(question.distractors), question.shuffle)
    if isinstance(question, Ordering):
        return (*common, _options(question.items))
    if isinstance(question, Cloze):
        gaps: list[tuple[Any, ...]] = []
        for gap_id in question.gap_order:
            gap = question.gaps[gap_id]
            if isinstance(gap, ChoiceGap):
                gaps.append((gap_id, gap.type, _options(gap.options), gap.answer))
            elif isinstance(gap, NumericalGap):
                gaps.append((gap_id, gap.type, gap.answer, gap.tolerance))
            else:
                gaps.append((gap_id, gap.type, gap.case_sensitive))
        return (*common, gaps, question.shuffle)
    assert isinstance(question, Essay)
    return (*common, question.min_words, question.max_words)


@pytest.mark.parametrize("quiz_id", QUIZZES)
def test_languages_share_the_key(quiz_id: str) -> None:
    english, urdu = _quiz("en", quiz_id), _quiz("ur", quiz_id)
    assert (english.id, english.level, english.tags) == (urdu.id, urdu.level, urdu.tags)
    assert [_key(q) for q in english.questions] == [_key(q) for q in urdu.questions]


def test_titles() -> None:
    assert _quiz("en").title == "Checkpoint sharding and resumable training"
    assert _quiz("en", SECOND).title == "Resuming training in practice"


def test_urdu_short_answers_accept_the_english_ones_too() -> None:
    """A learner may type the English term on the Urdu page."""
    english, urdu = _quiz("en", SECOND), _quiz("ur", SECOND)
    for en_q, ur_q in zip(english.questions, urdu.questions, strict=True):
        if isinstance(en_q, ShortAnswer):
            assert isinstance(ur_q, ShortAnswer)
            assert set(en_q.answer) <= set(ur_q.answer), en_q.id
        if isinstance(en_q, Cloze):
            assert isinstance(ur_q, Cloze)
            for gap_id, gap in en_q.gaps.items():
                ur_gap = ur_q.gaps[gap_id]
                if isinstance(gap, ShortAnswerGap):
                    assert isinstance(ur_gap, ShortAnswerGap)
                    assert set(gap.answer) <= set(ur_gap.answer), (en_q.id, gap_id)


# ../shared/URDU.md's glossary, as the style checks read it: a pattern an Urdu text must not hold,
# and what to write instead. The Urdu quizzes and the template `quizbank new` writes are checked.
AVOIDED: dict[str, str] = {
    "وزن": "ویٹس (weights)",
    "جاری کی گئی": "جاری رکھی گئی (resumed; جاری کی گئی is 'issued')",
    r"دوبارہ شروع کر": "چیک پوائنٹ سے تربیت جاری رکھنا (bare دوبارہ شروع is 'start over')",
    "اسٹیپس کی پیش رفت": "اسٹیپ کاؤنٹر (step progress)",
    r"کے اوپر لکھ": "اوور رائٹ کرنا (overwrite; کے اوپر لکھنا is 'write above')",
    r"\bبلا(?:ئے|تا|تی|تے|نا|یا|ئیں)\b": "کال کرنا (call a function; بلانا is 'summon')",
    r"سادہ \(flat\)": "ایک سطحی (flat; سادہ is 'plain')",
    r"اسٹیپ(?:س)? کی حد": "دو اسٹیپس کے درمیان (a step boundary)",
    r"\bایک تربیت\b": "ایک ماڈل کی تربیت (a training run)",
    r"اکیلی فائل": "ایک فائل / ایک ہی فائل (a single file; اکیلی is 'lonely')",
    r"(?:پیرامیٹرز|آپٹیمائزر) پر (?:\S+ ){0,3}(?:بنائیں|بنتا)": "Y کے لیے X بنانا (build X over Y)",
    r"شیڈول": "شیڈیول (one spelling of the root, as شیڈیولر)",
    r"پیکیج": "پیکج",
    r"درستی": "درستگی",
    r"طے شدہ": "ڈیفالٹ (a default)",
    r"اوپر والے سب": "مندرجہ بالا سب (all of the above)",
    r"\bملا(?:تا|تی|تے|ئیں|نا)\b": "جوڑنا (to map or match)",
    r"\bقدم\b": "اسٹیپ (a training step)",
    "\u200e|\u200f": "a code span, not an invisible direction mark",
}
# A bare محفوظ before a noun reads "safe" (محفوظ مقام, a safe place): saved is محفوظ شدہ.
BARE_SAFE = re.compile(
    r"(?<!\S)محفوظ (?=مقام|حالت|شارڈ|فائل|ڈیٹا|ٹینسر|چیک پوائنٹ|کاپی|ویٹس|اسٹیپ|نقل)"
)
# Letters an Arabic keyboard types where Urdu has its own: ي ى for ی, ك for ک, ه for ہ.
ARABIC_FORMS = {"\u064a": "ی", "\u0649": "ی", "\u0643": "ک", "\u0647": "ہ"}
URDU_FORMS = {"ی": "\u064a", "ک": "\u0643", "ہ": "\u0647"}
_ENDS_A_CLAUSE = re.compile(r"(?:ہے|ہیں|تھا|تھی|تھے|ہو|ہوں|گا|گی|گے|سکتا|سکتی|سکتے|جائے|جائیں)$")
_LIST_ITEM_AND = re.compile(r"،\s((?:[^\s،؛:۔]+\s){0,2}[^\s،؛:۔]+)،\sاور\s")


def comma_before_and_in_a_list(text: str) -> list[str]:
    """The list items a comma before اور follows ("الف، ب، اور ج"): a short item after a
    comma that ends no clause. A comma (or ؛) before an اور that starts a new clause is right."""
    return [
        match.group(0)
        for match in _LIST_ITEM_AND.finditer(text)
        if not _ENDS_A_CLAUSE.search(match.group(1))
    ]


def _template_quiz(tmp_path: Path) -> tuple[str, Quiz]:
    """The Urdu file `quizbank new` writes, every new Urdu quiz's starting point."""
    (written,) = [f for f in new_quiz("style", tmp_path, ["ur"]) if f.lang == "ur"]
    loaded = load_quiz(written.path)
    assert loaded.quiz is not None, [d.format() for d in loaded.diagnostics]
    return written.path.read_text(encoding="utf-8"), loaded.quiz


URDU_SOURCES = [*QUIZZES, "template"]


@pytest.fixture(params=URDU_SOURCES)
def urdu(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[str, str, Quiz]:
    """(name, file text, quiz) of each Urdu quiz and of the Urdu template."""
    name: str = request.param
    if name == "template":
        text, quiz = _template_quiz(tmp_path)
        return name, text, quiz
    return name, (CONTENT / "ur" / f"{name}.yaml").read_text(encoding="utf-8"), _quiz("ur", name)


def _texts(quiz: Quiz) -> list[tuple[str, str]]:
    """Each text a learner reads, with where it is: ("questions.3.options.1.text", "…")."""
    return [(".".join(map(str, loc)), text) for loc, text in text_fields(quiz)]


def test_urdu_uses_the_agreed_terms(urdu: tuple[str, str, Quiz]) -> None:
    name, _, quiz = urdu
    found = [
        f"{name} {where}: {re.search(pattern, text)[0]!r} -> {use}"  # type: ignore[index]
        for where, text in _texts(quiz)
        for pattern, use in {
            **{re.escape(k): v for k, v in ARABIC.avoid.items()},
            **AVOIDED,
        }.items()
        if re.search(pattern, text)
    ]
    assert not found, "\n".join(found)


def test_urdu_says_saved_not_safe_before_a_noun(urdu: tuple[str, str, Quiz]) -> None:
    name, _, quiz = urdu
    found = [
        f"{name} {where}: …{text[max(m.start() - 20, 0) : m.end() + 12]}…"
        for where, text in _texts(quiz)
        for m in BARE_SAFE.finditer(text)
    ]
    assert not found, "write محفوظ شدہ for saved:\n" + "\n".join(found)


def test_urdu_puts_no_comma_before_and_in_a_list(urdu: tuple[str, str, Quiz]) -> None:
    name, _, quiz = urdu
    found = [
        f"{name} {where}: {item}"
        for where, text in _texts(quiz)
        for item in comma_before_and_in_a_list(text)
    ]
    assert not found, "\n".join(found)


@pytest.mark.parametrize(
    ("text", "flagged"),
    [
        ("ماڈل، آپٹیمائزر، اور شیڈیولر", ["، آپٹیمائزر، اور "]),
        ("`step`، `exp_avg`، اور `exp_avg_sq`", ["، `exp_avg`، اور "]),
        ("ماڈل، آپٹیمائزر اور شیڈیولر", []),
        # a comma that closes a relative or conditional clause stays (URDU.md)
        ("جس سے بچنا ہی شارڈنگ کا مقصد ہے، اور ای میل تو کوئی طریقہ ہی نہیں", []),
        ("یہ سست ہے، جو ٹھیک نہیں، اور بھاری بھی", []),
        ("ٹیم دیکھتی ہے کہ ویٹس بحال ہو گئے ہیں؛ اور پھر لاس", []),
    ],
)
def test_the_list_comma_rule_leaves_clauses_alone(text: str, flagged: list[str]) -> None:
    assert comma_before_and_in_a_list(text) == flagged


def test_urdu_letters_are_urdu_ones(urdu: tuple[str, str, Quiz]) -> None:
    """Texts use Urdu's ی ک ہ, never the Arabic letters an Arabic keyboard types."""
    name, _, quiz = urdu
    found = [
        f"{name} {where}: {char!r} -> {ARABIC_FORMS[char]}"
        for where, text in _texts(quiz)
        for char in set(text) & set(ARABIC_FORMS)
    ]
    assert not found, "\n".join(found)


def _accepted(quiz: Quiz) -> list[tuple[str, list[str]]]:
    lists = [(q.id, list(q.answer)) for q in quiz.questions if isinstance(q, ShortAnswer)]
    for question in quiz.questions:
        if isinstance(question, Cloze):
            lists += [
                (f"{question.id} {gap_id}", list(gap.answer))
                for gap_id, gap in question.gaps.items()
                if isinstance(gap, ShortAnswerGap)
            ]
    return lists


def test_urdu_short_answers_accept_what_an_arabic_keyboard_types(
    urdu: tuple[str, str, Quiz],
) -> None:
    """Grading compares letters as Moodle does (NFC only), so سيڈ typed with an Arabic ي is a
    different answer from سیڈ: the Arabic-keyboard form of each Urdu answer is listed too."""
    name, _, quiz = urdu
    missing = []
    for where, answers in _accepted(quiz):
        for answer in answers:
            arabic = answer.translate(str.maketrans(URDU_FORMS))
            if arabic != answer and arabic not in answers:
                missing.append(f"{name} {where}: {arabic}")
    assert not missing, "\n".join(missing)


# Claims checked by scripts/check-torch-claims.py, which each question must keep making in every
# language (the code spans are the same in both).
CHECKED_CLAIMS = {
    "load-default": ["`torch.serialization.safe_globals()`"],
    "reseed-resume": ["`numpy.random.get_state()`", "`torch.serialization.safe_globals([...])`"],
    "preemptible-scheme": ["`torch.serialization.safe_globals()`", "`get_state_dict()`"],
    "dcp-load": ["`get_state_dict()`", "`set_state_dict()`"],
    "atomic-save": ["`os.fsync(f.fileno())`"],
    "shard-count": ["`save_pretrained(max_shard_size=…)`"],
}


@pytest.mark.parametrize("lang", LANGS)
def test_the_second_quiz_keeps_the_checked_claims(lang: str) -> None:
    questions = {q.id: q for q in _quiz(lang, SECOND).questions}
    for question_id, spans in CHECKED_CLAIMS.items():
        texts = " ".join(text for _, text in question_texts(questions[question_id]))
        missing = [span for span in spans if span not in texts]
        assert not missing, (question_id, missing)


@pytest.mark.parametrize("quiz_id", QUIZZES)
def test_urdu_quizzes_use_the_core_terms(quiz_id: str) -> None:
    text = (CONTENT / "ur" / f"{quiz_id}.yaml").read_text(encoding="utf-8")
    assert "چیک پوائنٹ" in text and "آپٹیمائزر" in text
    assert "safetensors" in text and "RNG" in text


def test_second_quiz_urdu_follows_the_style_sheet() -> None:
    text = (CONTENT / "ur" / f"{SECOND}.yaml").read_text(encoding="utf-8")
    # RNG is spelt out where it first appears.
    first = text.index("RNG")
    assert text[:first].endswith("رینڈم نمبر جنریٹر ("), text[first - 40 : first + 5]
    for term in ("لرننگ ریٹ", "شیڈیولر", "ڈیٹا لوڈر", "رینک", "میٹا ڈیٹا", "ویٹس", "ایپوک"):
        assert term in text, term
    # Every sentence of Urdu prose ends in Urdu punctuation, not a Latin full stop.
    urdu = _quiz("ur", SECOND)
    for question in urdu.questions:
        assert not re.search(r"[\u0600-\u06ff]\.(\s|$)", question.explanation), question.id


@pytest.mark.parametrize("lang", LANGS)
def test_second_quiz_shows_a_diagram_and_formulas(lang: str) -> None:
    """The sharded checkpoint's diagram, with alt text, and the formulas for Adam's checkpoint
    size and the number of shards, in each language."""
    quiz = _quiz(lang, SECOND)
    texts = [text for _, text in text_fields(quiz)]
    images = [image for text in texts for image in find_images(text)]
    assert [image.src for image in images] == ["../images/sharded-checkpoint.svg"]
    assert len(images[0].alt.split()) >= 8, "the alt text describes the diagram"
    formulas = [tex for text in texts for tex, _ in find_formulas(text)]
    assert any("\\times" in tex and "12" in tex for tex in formulas), formulas
    assert any("\\lceil" in tex and "\\frac{S}{B}" in tex for tex in formulas), formulas


@pytest.mark.parametrize(
    "term", ["ان پکل", "اسٹیپ کاؤنٹر", "ای میل", "ری شارڈنگ", "مائیکرو بیچ", "لاس اسکیل"]
)
def test_terms_a_line_split_in_the_review_are_kept_on_one_line(term: str) -> None:
    """At 375 px these split (ان / پکل reads "these / pickle"): the HTML joins them."""
    html = to_html(f"یہ {term}وں کا ہے", "ur", inline=True)
    assert term.replace(" ", "\u00a0") in html, html


# --- the second quiz's questions with variables and its sections (issue 28) -------------------


def _question(lang: str, question_id: str) -> Numerical:
    (question,) = [q for q in _quiz(lang, SECOND).questions if q.id == question_id]
    assert isinstance(question, Numerical)
    return question


def _variant(question: Numerical, values: dict[str, float]) -> tuple[float, float, str, str]:
    """One variant's answer, tolerance, prompt and explanation."""
    variant = variant_question(question, values)
    assert isinstance(variant, Numerical)
    assert isinstance(variant.answer, float) and isinstance(variant.tolerance, float)
    return variant.answer, variant.tolerance, variant.prompt, variant.explanation


def _every_combination(question: Numerical) -> list[dict[str, float]]:
    """Every variant the question's variables allow, not only the ones drawn today: another
    seed or another `variants` count draws others."""
    assert question.variables
    names = sorted(question.variables)
    columns = [variable_values(question.variables[name]) for name in names]
    return [dict(zip(names, row, strict=True)) for row in itertools.product(*columns)]


def _numbers(text: str) -> list[str]:
    """The numbers a text shows, as written (`15.5`, `186`)."""
    return re.findall(r"(?<![\w.])\d+(?:\.\d+)?(?![\w.])", text)


def _shown(value: Fraction) -> str:
    """A number as a reader expects it: `2`, `15.5`."""
    return str(value.numerator) if value.denominator == 1 else str(float(value))


@pytest.mark.parametrize("lang", LANGS)
def test_second_quiz_has_two_questions_with_variables_and_a_section_that_picks(
    lang: str,
) -> None:
    quiz = _quiz(lang, SECOND)
    assert [q.id for q in quiz.questions if has_variables(q)] == [
        "adam-checkpoint-size",
        "shard-count",
    ]
    assert quiz.sections and all(section.title for section in quiz.sections)
    picks = [(s.pick, len(s.questions)) for s in quiz.sections if s.pick is not None]
    assert len(picks) == 1 and picks[0][0] < picks[0][1], picks


@pytest.mark.parametrize("lang", LANGS)
def test_every_variant_of_adam_checkpoint_size_is_right(lang: str) -> None:
    """Weights and Adam's two moments, 4 bytes each, in GB of 10⁹ bytes: computed here in exact
    fractions for every value `params` may take, with each number the texts state."""
    question = _question(lang, "adam-checkpoint-size")
    for values in _every_combination(question):
        params = Fraction(str(values["params"]))  # billions of parameters
        weights, moments = params * 4, params * 2 * 4  # GB: 10⁹ × params × bytes ÷ 10⁹
        total = weights + moments
        answer, tolerance, prompt, explanation = _variant(question, values)
        where = (lang, values)
        assert answer == total, where
        assert tolerance < 1, where  # a whole GB off is wrong
        assert _shown(params) in _numbers(prompt), where
        # `decimals: 0` shows each size whole: each must be a whole number of GB
        stated = _numbers(explanation)
        for size in (total, weights, moments):
            assert size.denominator == 1 and _shown(size) in stated, (where, size, stated)


@pytest.mark.parametrize("lang", LANGS)
def test_every_variant_of_shard_count_is_right(lang: str) -> None:
    """At least ⌈S/B⌉ shards, and that many are enough when tensors are small next to B: with
    greedy filling each of the first n - 1 shards stops short of B by less than one tensor, so
    n shards hold S when n·B - S ≥ (n - 1)·t. Checked for a tensor of t = B/20 (5% of a shard)
    in every variant the variables allow, with each number the explanation states."""
    question = _question(lang, "shard-count")
    for values in _every_combination(question):
        size, limit = Fraction(str(values["size"])), Fraction(str(values["limit"]))
        assert size.denominator == limit.denominator == 1
        shards = -(-size.numerator // limit.numerator)  # ceil in integers
        full, rest = shards - 1, size - (shards - 1) * limit
        answer, tolerance, prompt, explanation = _variant(question, values)
        where = (lang, values)
        assert answer == shards and tolerance == 0, where
        assert 0 < rest <= limit, where
        assert shards * limit - size >= full * limit / 20, f"{where}: {shards} may not suffice"
        # the diagram, "smaller than the one in the question", has three shards; and the
        # explanation's "{n - 1} full shards" is a plural
        assert shards >= 4, where
        shown, stated = _numbers(prompt), _numbers(explanation)
        assert _shown(size) in shown and _shown(limit) in shown, where
        for number in (shards, full, full * limit, rest):
            assert _shown(Fraction(number)) in stated, (where, number, stated)
