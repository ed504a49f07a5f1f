"""A synthetic bilingual quiz bank in the authoring format, for the benchmark and its tests.

`generate_bank(root, quizzes, questions, seed)` writes `root/en/<id>.yaml` and `root/ur/<id>.yaml`
for `quizzes` quizzes of `questions` questions each. Every question is a choice question with four
options, each with feedback; a quarter are `multiple_choice`. With `all_types` (`--all-types`),
the questions take the nine types in turn instead (numerical, short answer, matching, ordering,
cloze and essay besides the choice types). Texts are sentences from a word list (real Urdu in the
Urdu files, so the untranslated check passes), about as long as the bundled quiz's, with Markdown
in places: `code`, **bold**, *emphasis*, links, HTML tags in code to escape, and lists in
explanations. The same seed gives the same bytes.

    python benchmarks/generate.py OUT_DIR [--quizzes 500] [--questions 20] [--seed 1] [--all-types]
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

from quizbank.schemaline import write_schema

LANGUAGES = ("en", "ur")
SCHEMA_COMMENT = "# yaml-language-server: $schema=../../schema/quiz.schema.json"
LEVELS = ("beginner", "intermediate", "advanced")
OPTION_IDS = ("a", "b", "c", "d")


def _words(text: str) -> tuple[str, ...]:
    return tuple(text.split())


# Words that may appear anywhere in a plain YAML scalar: no `:`, `#`, quotes or brackets.
EN_WORDS = _words(
    """
checkpoint shard sharding training resume optimizer scheduler learning rate state step epoch
model weights tensor tensors file files index metadata loader data batch gradient loss value
rank worker process node cluster memory disk storage network bandwidth format header bytes
save load restore write read copy move split merge keep drop check verify compare match order
the a an of to in on for with from by at each every all some many few one two several large
small fast slow safe unsafe whole partial local global shared private final first last next
previous random seed counter progress position offset size limit budget cost time job run
crash preemption failure recovery retry backup snapshot version history record log report
validation overfitting accuracy metric precision mixed half float integer precision scale
parallel serial stream buffer cache queue lock barrier sync async thread device host GPU
"""
)

UR_WORDS = _words(
    """
چیک پوائنٹ شارڈ شارڈنگ تربیت آپٹیمائزر شیڈیولر لرننگ ریٹ حالت اسٹیپ ایپوک ماڈل ویٹس
ٹینسر فائل فائلیں انڈیکس میٹا ڈیٹا لوڈر بیچ گریڈینٹ نقصان قدر رینک ورکر عمل مشین میموری
ڈسک ذخیرہ نیٹ ورک فارمیٹ ہیڈر بائٹس محفوظ لوڈ بحال لکھنا پڑھنا کاپی تقسیم جوڑنا رکھنا
جانچ موازنہ ترتیب اور یا کے کی کا میں پر سے کو لیے ساتھ ہر کئی کچھ ایک دو بڑا چھوٹا تیز
سست پورا ادھورا مقامی مشترکہ پہلا آخری اگلا پچھلا رینڈم کاؤنٹر پیش رفت مقام سائز حد وقت
جاب کریش پری ایمپشن خرابی بحالی کوشش نسخہ تاریخ ریکارڈ ویلیڈیشن سیٹ اوور فٹنگ درستگی
متوازی سلسلہ وار بفر کیش قطار ہم آہنگ ڈیوائس ہوسٹ ضرورت فرق مقصد نتیجہ طریقہ نظام
"""
)

# Latin terms that stay in Latin script in both languages (URDU.md).
CODE = (
    "state_dict()",
    "torch.save",
    "DataLoader",
    "model.safetensors",
    "optimizer.step()",
    "--resume",
    "rank=0",
    "weight_map",
    "load_state_dict()",
    "a < b",
)
LINK = "https://example.org/guides/{slug}"
_END = {"en": ".", "ur": "\u06d4"}  # the Arabic full stop
_QUESTION_END = {"en": "?", "ur": "\u061f"}  # the Arabic question mark
_LIST_INTRO = {"en": "Steps in order", "ur": "ترتیب سے مراحل"}
_LINK_TEXT = {"en": "the guide", "ur": "رہنما"}


def quiz_id(index: int) -> str:
    """The id (and file stem) of the quiz at `index`."""
    return f"synthetic-{index:05d}"


class _Writer:
    """Sentences with Markdown in places, in one language, from one random stream."""

    def __init__(self, lang: str, rng: random.Random) -> None:
        self.lang = lang
        self.rng = rng
        self.words = EN_WORDS if lang == "en" else UR_WORDS

    def phrase(self, low: int, high: int) -> list[str]:
        return self.rng.choices(self.words, k=self.rng.randint(low, high))

    def sentence(self, low: int, high: int, *, question: bool = False, markup: bool = True) -> str:
        words = self.phrase(low, high)
        if self.lang == "en":
            words[0] = words[0].capitalize()
        if markup:
            roll = self.rng.random()
            at = self.rng.randint(1, len(words))  # never first: a plain scalar starts plainly
            if roll < 0.15:
                words.insert(at, f"`{self.rng.choice(CODE)}`")
            elif roll < 0.25:
                words.insert(at, f"**{' '.join(self.phrase(1, 3))}**")
            elif roll < 0.30:
                words.insert(at, f"*{' '.join(self.phrase(1, 2))}*")
            elif roll < 0.33:
                words.insert(at, f"[{_LINK_TEXT[self.lang]}]({LINK.format(slug='markdown')})")
            elif roll < 0.35:
                words.insert(at, "`<b>raw & html</b>`")  # escaped in every format
        end = (_QUESTION_END if question else _END)[self.lang]
        return " ".join(words) + end

    def paragraph(self, sentences: int, low: int, high: int) -> str:
        return " ".join(self.sentence(low, high) for _ in range(sentences))


def _block(text: str, indent: str) -> str:
    """A multi-line text as a YAML literal block scalar."""
    lines = [f"{indent}  {line}" if line else "" for line in text.split("\n")]
    return "|\n" + "\n".join(lines)


def _explanation(writer: _Writer, indent: str) -> str:
    text = writer.paragraph(writer.rng.randint(2, 3), 8, 16)
    if writer.rng.random() < 0.2:
        items = [f"- {writer.sentence(3, 7)}" for _ in range(writer.rng.randint(2, 4))]
        lead = f"{_LIST_INTRO[writer.lang]}{_END[writer.lang]}"
        return _block(f"{text}\n\n{lead}\n\n" + "\n".join(items), indent)
    return text


TYPES = (
    "single_choice",
    "multiple_choice",
    "true_false",
    "numerical",
    "short_answer",
    "matching",
    "ordering",
    "cloze",
    "essay",
)


def _answer(rng: random.Random, kind: str) -> object:
    """The key of a question of type `kind`, which every language shares."""
    if kind == "multiple_choice":
        return sorted(rng.sample(OPTION_IDS, rng.randint(2, 3)))
    if kind == "single_choice":
        return rng.choice(OPTION_IDS)
    if kind == "true_false":
        return rng.random() < 0.5
    if kind == "numerical":
        return round(rng.uniform(0, 100), 2)
    if kind == "cloze":
        return (round(rng.uniform(0, 10), 1), rng.choice(OPTION_IDS[:3]))
    return None


def _structure(rng: random.Random, questions: int, all_types: bool) -> list[dict[str, object]]:
    """What every language shares: question ids, types, answers, points."""
    shape: list[dict[str, object]] = []
    for number in range(questions):
        if all_types:
            kind = TYPES[number % len(TYPES)]
        else:
            kind = "multiple_choice" if rng.random() < 0.25 else "single_choice"
        shape.append(
            {
                "id": f"q-{number + 1:05d}",
                "type": kind,
                "answer": _answer(rng, kind),
                "points": 2 if rng.random() < 0.1 else None,
            }
        )
    return shape


Lines = list[str]


def _choice_lines(writer: _Writer, answer: object) -> Lines:
    lines = ["    options:"]
    for option in OPTION_IDS:
        lines += [
            f"      - id: {option}",
            f"        text: {writer.sentence(5, 12)}",
            f"        feedback: {writer.sentence(10, 20)}",
        ]
    shown = f"[{', '.join(answer)}]" if isinstance(answer, list) else answer
    return [*lines, f"    answer: {shown}"]


def _true_false_lines(writer: _Writer, answer: object) -> Lines:
    return [
        f"    answer: {'true' if answer else 'false'}",
        f"    feedback_true: {writer.sentence(10, 20)}",
        f"    feedback_false: {writer.sentence(10, 20)}",
    ]


def _numerical_lines(writer: _Writer, answer: object) -> Lines:
    return [f"    answer: {answer}", "    tolerance: 0.05"]


def _short_answer_lines(writer: _Writer, answer: object) -> Lines:
    accepted = [" ".join(writer.phrase(1, 2)) for _ in range(2)]
    return [f"    answer: [{accepted[0]}, {accepted[1]}*]"]


def _matching_lines(writer: _Writer, answer: object) -> Lines:
    lines = ["    pairs:"]
    for number in range(1, 5):
        lines += [
            f"      - id: p{number}",
            f"        item: {writer.sentence(4, 9)}",
            f"        match: {writer.sentence(3, 6, markup=False)}",
        ]
    return [
        *lines,
        "    distractors:",
        "      - id: x1",
        f"        text: {writer.sentence(3, 6, markup=False)}",
    ]


def _ordering_lines(writer: _Writer, answer: object) -> Lines:
    lines = ["    items:"]
    for number in range(1, 5):
        lines += [f"      - id: s{number}", f"        text: {writer.sentence(5, 10)}"]
    return lines


def _cloze_lines(writer: _Writer, answer: object) -> Lines:
    assert isinstance(answer, tuple)
    number, right = answer
    lines = [
        "    gaps:",
        "      what:",
        "        type: short_answer",
        f"        answer: [{' '.join(writer.phrase(1, 2))}]",
        "      size:",
        "        type: numerical",
        f"        answer: {number}",
        "      which:",
        "        type: single_choice",
        "        options:",
    ]
    for option in OPTION_IDS[:3]:
        lines += [
            f"          - id: {option}",
            f"            text: {writer.sentence(2, 4, markup=False)}",
        ]
    return [*lines, f"        answer: {right}"]


def _essay_lines(writer: _Writer, answer: object) -> Lines:
    return [
        f"    grader_info: {writer.sentence(10, 20)}",
        "    min_words: 20",
        "    max_words: 300",
    ]


# The lines of each type after its prompt: one writer per type.
_TYPE_LINES = {
    "single_choice": _choice_lines,
    "multiple_choice": _choice_lines,
    "true_false": _true_false_lines,
    "numerical": _numerical_lines,
    "short_answer": _short_answer_lines,
    "matching": _matching_lines,
    "ordering": _ordering_lines,
    "cloze": _cloze_lines,
    "essay": _essay_lines,
}


def _prompt(writer: _Writer, kind: str) -> str:
    if kind != "cloze":
        return writer.sentence(8, 18, question=True)
    parts = [" ".join(writer.phrase(3, 6)) for _ in range(4)]
    end = _END[writer.lang]
    return f"{parts[0]} [[what]] {parts[1]} [[size]] {parts[2]} [[which]] {parts[3]}{end}"


def quiz_text(index: int, lang: str, shape: list[dict[str, object]], seed: int) -> str:
    """The YAML text of one quiz in one language."""
    qid = quiz_id(index)
    writer = _Writer(lang, random.Random(f"{seed}|{qid}|{lang}"))
    level = LEVELS[index % len(LEVELS)]
    lines = [
        SCHEMA_COMMENT,
        f"id: {qid}",
        f"lang: {lang}",
        f"title: {writer.sentence(3, 7, markup=False)}",
        f"description: {writer.paragraph(2, 10, 18)}",
        f"level: {level}",
    ]
    if index % 2 == 0:
        lines += [
            "guide:",
            f"  title: {writer.sentence(2, 5, markup=False)}",
            f"  url: {LINK.format(slug=qid)}",
        ]
    lines += [f"tags: [synthetic, topic-{index % 17}]", "questions:"]
    for question in shape:
        kind = str(question["type"])
        lines += [
            f"  - id: {question['id']}",
            f"    type: {kind}",
            f"    prompt: {_prompt(writer, kind)}",
            *_TYPE_LINES[kind](writer, question["answer"]),
            f"    explanation: {_explanation(writer, '    ')}",
        ]
        if question["points"] is not None:
            lines.append(f"    points: {question['points']}")
        lines.append("")
    return "\n".join(lines)


def generate_bank(
    root: Path, quizzes: int = 500, questions: int = 20, seed: int = 1, *, all_types: bool = False
) -> list[Path]:
    """Write the bank under `root` (`root/<lang>/<quiz-id>.yaml`), and the schema its files'
    schema line leads to, as `quizbank new` does; return the quiz files written."""
    write_schema(root)
    written: list[Path] = []
    for lang in LANGUAGES:
        (root / lang).mkdir(parents=True, exist_ok=True)
    for index in range(quizzes):
        shape = _structure(random.Random(f"{seed}|{quiz_id(index)}"), questions, all_types)
        for lang in LANGUAGES:
            path = root / lang / f"{quiz_id(index)}.yaml"
            path.write_text(quiz_text(index, lang, shape, seed), encoding="utf-8")
            written.append(path)
    return written


def edit_one_file(root: Path, index: int, round_: int) -> Path:
    """Change the English title of one quiz (a different text each round); return its path."""
    path = root / "en" / f"{quiz_id(index)}.yaml"
    lines = path.read_text(encoding="utf-8").split("\n")
    for number, line in enumerate(lines):
        if line.startswith("title: "):
            lines[number] = f"{line.split(' (edit ')[0]} (edit {round_})"
            break
    path.write_text("\n".join(lines), encoding="utf-8")
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root", type=Path, help="folder to write <lang>/<quiz-id>.yaml into")
    parser.add_argument("--quizzes", type=int, default=500)
    parser.add_argument("--questions", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--all-types", action="store_true", help="the nine types in turn")
    args = parser.parse_args()
    files = generate_bank(
        args.root, args.quizzes, args.questions, args.seed, all_types=args.all_types
    )
    size = sum(path.stat().st_size for path in files)
    print(f"wrote {len(files)} files, {size / 2**20:.1f} MiB, to {args.root}")


if __name__ == "__main__":
    main()
