"""A synthetic bilingual quiz bank in the authoring format, for the benchmark and its tests.

`generate_bank(root, quizzes, questions, seed)` writes `root/en/<id>.yaml` and `root/ur/<id>.yaml`
for `quizzes` quizzes of `questions` questions each. Every question is a choice question with four
options, each with feedback; a quarter are `multiple_choice`. Texts are sentences from a word list
(real Urdu in the Urdu files, so the untranslated check passes), about as long as the bundled
quiz's, with Markdown in places: `code`, **bold**, *emphasis*, links, HTML tags in code to escape,
and lists in explanations. The same seed gives the same bytes.

With `all_types` (`--all-types`), the questions take the nine types in turn instead (numerical,
short answer, matching, ordering, cloze and essay besides the choice types), and carry media as
the bundled content does: a small PNG and an SVG written to `root/images/`, shown by every third
question's prompt (`![alt](../images/x.png)`, the alt text in the file's language), and TeX
formulas (`$...$`) in some texts.

With `variables_sections` (`--variables-sections`), every numerical and cloze question draws its
numbers from two variables (a numerical answer, or a cloze's numerical gap, is a formula over
them; the explanation shows a computed value `{=...}`), every fourth question is made one of
these two types in turn (the only types that take variables), and every other quiz groups its
questions in three sections, the first of which draws half of its questions (`pick`).

Every bank written validates with no error and builds in every default format (warnings for what
a format cannot carry, such as GIFT's sections, are expected).

    python benchmarks/generate.py OUT_DIR [--quizzes 500] [--questions 20] [--seed 1]
                                          [--all-types] [--variables-sections]
"""

from __future__ import annotations

import argparse
import io
import random
from dataclasses import dataclass
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

# TeX formulas of an all-types bank: every other question shows one in its prompt and again,
# displayed, in its explanation, in every language (a translation shows the same formulas).
FORMULAS = (
    r"$x^2 + y^2 = r^2$",
    r"$\frac{a}{b}$",
    r"$\sqrt{n + 1}$",
    r"$\alpha_t = \alpha_0 \cdot \gamma^{t}$",
    r"$\sum_{i=1}^{n} x_i$",
)
# The images of an all-types bank, in `root/images/`, shown by every third question's prompt.
IMAGES = ("shards.png", "index.svg")
_SVG = """\
<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 120 60" width="120" height="60">
  <title>An index file pointing to two shard files</title>
  <rect x="4" y="4" width="40" height="52" rx="4" fill="#fff4d6" stroke="#b58900"/>
  <rect x="76" y="4" width="40" height="22" rx="4" fill="#e3f0ff" stroke="#268bd2"/>
  <rect x="76" y="34" width="40" height="22" rx="4" fill="#e3f0ff" stroke="#268bd2"/>
  <path d="M 44 20 L 76 15 M 44 40 L 76 45" stroke="#44546a" stroke-width="2"/>
</svg>
"""
# The variables of a question with variables, and the formulas over them.
VARIABLES = ("      count: {from: 2, to: 40, step: 2}", "      width: {choices: [2, 4, 8]}")
NUMERICAL_FORMULA = "{count} * {width} + 1"
CLOZE_FORMULA = "{count} + {width}"


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


def _explanation(writer: _Writer, formula: str | None) -> str:
    """An explanation: sentences, a list in some, and the question's formula displayed."""
    text = writer.paragraph(writer.rng.randint(2, 3), 8, 16)
    if writer.rng.random() < 0.2:
        items = [f"- {writer.sentence(3, 7)}" for _ in range(writer.rng.randint(2, 4))]
        lead = f"{_LIST_INTRO[writer.lang]}{_END[writer.lang]}"
        text = f"{text}\n\n{lead}\n\n" + "\n".join(items)
    if formula:
        text = f"{text}\n\n${formula}$"
    return _block(text, "    ") if "\n" in text else text


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
VARIABLE_TYPES = ("numerical", "cloze")  # the types that may draw numbers from variables


@dataclass(frozen=True)
class Kind:
    """Which bank to write: the choice types only (the default), or with more in it."""

    all_types: bool = False
    variables_sections: bool = False


@dataclass(frozen=True)
class Shape:
    """What every language of a question shares: its id, type, key, points and media."""

    id: str
    type: str
    answer: object
    points: int | None
    image: str | None = None  # a file of IMAGES shown above the prompt
    formula: str | None = None  # one of FORMULAS, in the prompt and the explanation
    variables: bool = False


def _answer(rng: random.Random, kind: str, variables: bool) -> object:
    """The key of a question of type `kind`, which every language shares."""
    if kind == "multiple_choice":
        return sorted(rng.sample(OPTION_IDS, rng.randint(2, 3)))
    if kind == "single_choice":
        return rng.choice(OPTION_IDS)
    if kind == "true_false":
        return rng.random() < 0.5
    if kind == "numerical":
        return f'"{NUMERICAL_FORMULA}"' if variables else round(rng.uniform(0, 100), 2)
    if kind == "cloze":
        number = f'"{CLOZE_FORMULA}"' if variables else round(rng.uniform(0, 10), 1)
        return (number, rng.choice(OPTION_IDS[:3]))
    return None


def _media(number: int) -> tuple[str | None, str | None]:
    """The image (every third question) and formula (every other) of the question at `number`."""
    image = IMAGES[number // 3 % len(IMAGES)] if number % 3 == 1 else None
    formula = FORMULAS[number // 2 % len(FORMULAS)] if number % 2 == 0 else None
    return image, formula


def _points(rng: random.Random, kind: str) -> int | None:
    """A tenth of the questions are worth more than 1; a cloze 3, which its 3 gaps share."""
    return (3 if kind == "cloze" else 2) if rng.random() < 0.1 else None


def _type(rng: random.Random, number: int, kind: Kind) -> str:
    """The type of the question at `number` (from 0); the default bank draws it at random."""
    drawn = TYPES[number % len(TYPES)] if kind.all_types else None
    if drawn is None:
        drawn = "multiple_choice" if rng.random() < 0.25 else "single_choice"
    if kind.variables_sections and number % 4 == 3:
        return VARIABLE_TYPES[number // 4 % 2]
    return drawn


def _structure(rng: random.Random, questions: int, kind: Kind) -> list[Shape]:
    """What every language shares: question ids, types, answers, points, images, variables."""
    shape: list[Shape] = []
    for number in range(questions):
        qtype = _type(rng, number, kind)
        variables = kind.variables_sections and qtype in VARIABLE_TYPES
        image, formula = _media(number) if kind.all_types else (None, None)
        shape.append(
            Shape(
                id=f"q-{number + 1:05d}",
                type=qtype,
                answer=_answer(rng, qtype, variables),
                points=_points(rng, qtype),
                image=image,
                formula=formula,
                variables=variables,
            )
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


def _prompt(writer: _Writer, question: Shape) -> str:
    """The prompt: a question, or a cloze's text with its gaps; with variables, it shows them;
    with an image, the image comes first (then the prompt is a block)."""
    if question.type != "cloze":
        text = writer.sentence(8, 18, question=True)
    else:
        parts = [" ".join(writer.phrase(3, 6)) for _ in range(4)]
        end = _END[writer.lang]
        text = f"{parts[0]} [[what]] {parts[1]} [[size]] {parts[2]} [[which]] {parts[3]}{end}"
    if question.formula:
        text = f"{text[:-1]} {question.formula}{text[-1]}"  # before the full stop or mark
    if question.variables:
        text = f"{' '.join(writer.phrase(2, 4))} {{count}}, {{width}}: {text}"
    if question.image:
        alt = " ".join(writer.phrase(3, 6))
        text = f"![{alt}](../images/{question.image})\n\n{text}"
    plain = not (question.image or question.variables or question.formula)
    return text if plain else _block(text, "    ")


def _variables_lines(writer: _Writer, question: Shape) -> Lines:
    """A question's variables, how its computed values are shown, and an explanation that
    shows one (the explanation of a question without variables is written after its key)."""
    formula = NUMERICAL_FORMULA if question.type == "numerical" else CLOZE_FORMULA
    explanation = _block(f"{writer.sentence(8, 14)} {{={formula}}}{_END[writer.lang]}", "    ")
    return ["    variables:", *VARIABLES, "    decimals: 0", f"    explanation: {explanation}"]


def _question_lines(writer: _Writer, question: Shape) -> Lines:
    """The lines of one question, in one language."""
    lines = [
        f"  - id: {question.id}",
        f"    type: {question.type}",
        f"    prompt: {_prompt(writer, question)}",
        *_TYPE_LINES[question.type](writer, question.answer),
    ]
    if question.variables:
        lines += _variables_lines(writer, question)
    else:
        lines.append(f"    explanation: {_explanation(writer, question.formula)}")
    if question.points is not None:
        lines.append(f"    points: {question.points}")
    return [*lines, ""]


def _sections_lines(writer: _Writer, shape: list[Shape]) -> Lines:
    """Three sections of consecutive questions (fewer for fewer questions); the first draws
    half of its questions."""
    count = min(3, len(shape))
    bounds = [number * len(shape) // count for number in range(count + 1)]
    lines = ["sections:"]
    for number in range(count):
        ids = [q.id for q in shape[bounds[number] : bounds[number + 1]]]
        title = " ".join(writer.phrase(2, 4))
        lines += [f"  - id: part-{number + 1}", f"    title: {title.capitalize()}"]
        if number == 0 and len(ids) > 1:
            lines.append(f"    pick: {len(ids) // 2}")
        lines.append(f"    questions: [{', '.join(ids)}]")
    return lines


def quiz_text(index: int, lang: str, shape: list[Shape], seed: int, kind: Kind = Kind()) -> str:
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
        lines += _question_lines(writer, question)
    if kind.variables_sections and index % 2 == 1:
        lines += _sections_lines(writer, shape)
    return "\n".join(lines)


def _png() -> bytes:
    """A small PNG: three shards in a row."""
    from PIL import Image, ImageDraw

    image = Image.new("RGB", (96, 32), "#ffffff")
    draw = ImageDraw.Draw(image)
    for number in range(3):
        draw.rectangle((4 + 30 * number, 4, 28 + 30 * number, 28), fill="#268bd2")
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


def write_images(root: Path) -> None:
    """The images an all-types bank shows, in `root/images/`."""
    (root / "images").mkdir(parents=True, exist_ok=True)
    (root / "images" / IMAGES[0]).write_bytes(_png())
    (root / "images" / IMAGES[1]).write_text(_SVG, encoding="utf-8")


def generate_bank(
    root: Path,
    quizzes: int = 500,
    questions: int = 20,
    seed: int = 1,
    *,
    all_types: bool = False,
    variables_sections: bool = False,
) -> list[Path]:
    """Write the bank under `root` (`root/<lang>/<quiz-id>.yaml`, and `root/images/` for an
    all-types bank), and the schema its files' schema line leads to, as `quizbank new` does;
    return the quiz files written."""
    kind = Kind(all_types, variables_sections)
    write_schema(root)
    if all_types:
        write_images(root)
    written: list[Path] = []
    for lang in LANGUAGES:
        (root / lang).mkdir(parents=True, exist_ok=True)
    for index in range(quizzes):
        shape = _structure(random.Random(f"{seed}|{quiz_id(index)}"), questions, kind)
        for lang in LANGUAGES:
            path = root / lang / f"{quiz_id(index)}.yaml"
            path.write_text(quiz_text(index, lang, shape, seed, kind), encoding="utf-8")
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
    parser.add_argument(
        "--all-types", action="store_true", help="the nine types in turn, with images and formulas"
    )
    parser.add_argument(
        "--variables-sections",
        action="store_true",
        help="numerical and cloze questions with variables, and quizzes with sections",
    )
    args = parser.parse_args()
    files = generate_bank(
        args.root,
        args.quizzes,
        args.questions,
        args.seed,
        all_types=args.all_types,
        variables_sections=args.variables_sections,
    )
    size = sum(path.stat().st_size for path in files)
    print(f"wrote {len(files)} files, {size / 2**20:.1f} MiB, to {args.root}")


if __name__ == "__main__":
    main()
