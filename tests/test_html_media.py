"""Images and formulas on the HTML pages, read as files: each image inside the page as a `data:`
URI of its exact bytes with its alt text, a policy that lets in those and nothing more, formulas
as MathML named by their TeX and left to right in Urdu, money left as text, and what a drop-down
shows of a formula or an image."""

from __future__ import annotations

import base64
import re
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path, PurePosixPath
from typing import Any

import pytest
from quizbank_renderers.html import HtmlOptions, HtmlRenderer, questions
from test_html import CONTENT, LANGS, QUIZ_ID, Elements, build, load

from quizbank.images import Image
from quizbank.model import Numerical, Quiz
from quizbank.renderer import QuizTranslations
from quizbank.variables import variants

MEDIA = Path(__file__).resolve().parent / "fixtures" / "media"
MEDIA_ID = "media"
PRACTICE_ID = "resuming-training-in-practice"
GRID = MEDIA / "images" / "grid.png"
# Each image of the fixture's page by its alt text, and how often it shows: the diagram in a
# prompt; the grid in an option's feedback, as a matching item, and in that item's right answer.
IMAGES = {
    "en": {
        "Three shard files listed by one index file": ("shards.svg", 1),
        "Three boxes in a row": ("grid.png", 3),
    },
    "ur": {
        "تین شارڈ فائلیں جنہیں ایک انڈیکس فائل درج کرتی ہے": ("shards.svg", 1),
        "ایک قطار میں تین خانے": ("grid.png", 3),
    },
}
POLICY = "default-src 'none'; {}style-src 'unsafe-inline'; script-src 'unsafe-inline'; " + (
    "base-uri 'none'; form-action 'none'"
)


def render(quiz: dict[str, Any], images: dict[str, Image] | None = None) -> str:
    """The page of a quiz given as data, in its language, with the images given."""
    validated = Quiz.model_validate(quiz)
    lang = validated.lang
    translations = QuizTranslations(
        validated.id, {lang: validated}, [lang], {lang: images} if images else {}
    )
    return HtmlRenderer(HtmlOptions()).render(translations, lang)


def one_question(lang: str, **question: Any) -> dict[str, Any]:
    """A quiz of one question in `lang`."""
    return {
        "id": "q",
        "lang": lang,
        "title": "Formulas",
        "description": "Formulas.",
        "level": "beginner",
        "questions": [{"id": "one", "explanation": "x", **question}],
    }


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    built = build(tmp_path_factory.mktemp("media"), MEDIA, MEDIA_ID)
    return {lang: built[f"{lang}/{MEDIA_ID}.html"].read_text(encoding="utf-8") for lang in LANGS}


class Ancestry(HTMLParser):
    """Each `<math>` start tag's attributes, with the elements open around it."""

    VOID = frozenset({"img", "input", "br", "hr", "meta", "link", "source", "wbr"})

    def __init__(self, page: str) -> None:
        super().__init__()
        self.open: list[str] = []
        self.maths: list[tuple[dict[str, str | None], list[str]]] = []
        self.feed(page)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "math":
            self.maths.append((dict(attrs), list(self.open)))
        if tag not in self.VOID:
            self.open.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag in self.open:
            del self.open[len(self.open) - 1 - self.open[::-1].index(tag) :]


def words(page: str) -> str:
    """A page's text with its tags taken out."""
    return re.sub(r"<[^>]+>", "", page)


def decoded(src: str) -> tuple[str, bytes]:
    """A `data:` URI's media type and bytes."""
    match = re.fullmatch(r"data:([\w/+.-]+);base64,([A-Za-z0-9+/=]+)", src)
    assert match, src[:60]
    return match[1], base64.b64decode(match[2], validate=True)


@pytest.mark.parametrize("lang", LANGS)
def test_each_image_is_inside_the_page_with_its_bytes_and_alt(
    pages: dict[str, str], lang: str
) -> None:
    images = Elements(pages[lang]).find("img")
    found = Counter()
    for image in images:
        media_type, data = decoded(image["src"] or "")
        name, _ = IMAGES[lang][image["alt"] or ""]
        assert data == (MEDIA / "images" / name).read_bytes()
        assert media_type == {"shards.svg": "image/svg+xml", "grid.png": "image/png"}[name]
        found[image["alt"]] += 1
    assert found == {alt: count for alt, (_, count) in IMAGES[lang].items()}


@pytest.mark.parametrize("lang", LANGS)
def test_nothing_is_loaded_from_outside_the_page(pages: dict[str, str], lang: str) -> None:
    elements = Elements(pages[lang])
    sources = [attrs["src"] or "" for _, attrs in elements.tags if "src" in attrs]
    assert sources and all(src.startswith("data:image/") for src in sources)
    assert not elements.find("link") and not elements.find("iframe")
    assert "url(" not in pages[lang] and "@import" not in pages[lang]


@pytest.mark.parametrize("lang", LANGS)
def test_the_policy_lets_in_images_inside_the_page_and_nothing_more(
    pages: dict[str, str], lang: str
) -> None:
    (policy,) = Elements(pages[lang]).find("meta", http_equiv="Content-Security-Policy")
    assert policy["content"] == POLICY.format("img-src data:; ")
    # A page without an image keeps the policy it always had, with no img-src at all.
    translations = QuizTranslations(QUIZ_ID, {lang: load(CONTENT, lang, QUIZ_ID)}, [lang])
    plain = HtmlRenderer(HtmlOptions()).render(translations, lang)
    (policy,) = Elements(plain).find("meta", http_equiv="Content-Security-Policy")
    assert policy["content"] == POLICY.format("")


@pytest.mark.parametrize("lang", LANGS)
def test_formulas_are_mathml_named_by_their_tex_and_left_to_right(
    pages: dict[str, str], lang: str
) -> None:
    maths = Ancestry(pages[lang]).maths
    # The first question's options, its right answer (the first option) and its explanation;
    # the second's prompt and explanation; the matching item and its right answer.
    assert [(attrs["alttext"], attrs["display"]) for attrs, _ in maths] == [
        ("3", "inline"),
        ("\\frac{3}{2}", "inline"),
        ("3", "inline"),
        ("n = 3", "inline"),
        ("n = \\left\\lceil \\frac{S}{B} \\right\\rceil", "block"),
        ("4 + 2 \\times 4", "inline"),
        ("b = 4 + 2 \\times 4 = 12", "block"),
        ("\\sum_{i=1}^{n} i", "inline"),
        ("\\sum_{i=1}^{n} i", "inline"),
    ]
    for attrs, around in maths:
        assert attrs["dir"] == "ltr"
        assert attrs["aria-label"] == attrs["alttext"]  # what Chromium names a control by
        assert "bdi" not in around  # a formula is not Latin text to isolate: it is its own box
        if attrs["display"] == "block":
            assert around[-1] == "span"  # its box, which scrolls on a phone
    assert pages[lang].count('<span class="formula" tabindex="0"><math ') == 2


@pytest.mark.parametrize(
    ("lang", "money"),
    [
        ("en", "it costs $5 and $7, and $3 too."),
        ("ur", "اس کی قیمت $5 اور $7 ہے، اور $3 بھی۔"),  # noqa: RUF001
    ],
)
def test_money_stays_text(pages: dict[str, str], lang: str, money: str) -> None:
    assert money in words(pages[lang])
    assert 'alttext="5' not in pages[lang]


@pytest.mark.parametrize("lang", LANGS)
def test_a_formulas_tex_is_escaped(lang: str) -> None:
    page = render(
        one_question(
            lang,
            type="single_choice",
            prompt='Is $x < y$ or $$a<b>"c"$$?',
            options=[{"id": "a", "text": "$\\frac{1}{2} < 1$"}, {"id": "b", "text": "No"}],
            answer="a",
        )
    )
    assert 'alttext="x &lt; y" aria-label="x &lt; y"' in page
    assert "<mo>&lt;</mo>" in page
    assert 'aria-label="\\frac{1}{2} &lt; 1"' in page
    assert "<b>" not in page and 'alttext="a<' not in page


def test_an_urdu_formula_stays_left_to_right_in_the_sentence(pages: dict[str, str]) -> None:
    page = pages["ur"]
    assert (
        '<math xmlns="http://www.w3.org/1998/Math/MathML" display="inline" alttext="n = 3"'
        ' aria-label="n = 3" dir="ltr">'
    ) in page
    assert "انڈیکس میں <math " in page  # in the sentence where it was written, not isolated


@pytest.mark.parametrize("lang", LANGS)
def test_a_drop_down_shows_a_formula_as_its_tex_and_an_image_as_its_alt(lang: str) -> None:
    image = Image(PurePosixPath("images/grid.png"), "image/png", GRID.read_bytes())
    page = render(
        one_question(
            lang,
            type="matching",
            prompt="Match.",
            pairs=[
                {"id": "half", "item": "One half", "match": "$\\frac{1}{2}$ exactly"},
                {"id": "grid", "item": "A grid", "match": "![Three boxes](grid.png)"},
            ],
        ),
        {"grid.png": image},
    )
    options = set(re.findall(r'<option value="(\w+)">([^<]*)</option>', page))
    # In Urdu each Latin run and formula between U+2066 and U+2069 (markup.plain_label).
    lri, pdi = ("\u2066", "\u2069") if lang == "ur" else ("", "")
    tex, exactly, alt = (f"{lri}{text}{pdi}" for text in ("\\frac{1}{2}", "exactly", "Three boxes"))
    assert options == {("grid", alt), ("half", f"{tex} {exactly}")}
    # The right answers show the image and the formula themselves, as the question's texts do.
    arrow = "←" if lang == "ur" else "→"
    answers = page[page.index('<details class="answer">') :]
    image_answer = (
        f'A grid(?:</bdi>)? {arrow} <img src="data:image/png;base64,[^"]+" alt="Three boxes"'
    )
    assert re.search(image_answer, answers)
    assert re.search(f"One half(?:</bdi>)? {arrow} <math [^>]*>", answers)


def test_a_text_without_a_dollar_is_not_looked_at_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    quiz = load(CONTENT, "ur", QUIZ_ID)

    def refuse(html: str) -> str:
        raise AssertionError(html)

    monkeypatch.setattr(questions, "_with_formulas", refuse)
    page = HtmlRenderer(HtmlOptions()).render(QuizTranslations(QUIZ_ID, {"ur": quiz}, ["ur"]), "ur")
    assert "<math" not in page and "<img" not in page


def shard_count(lang: str) -> Numerical:
    """The bundled question that shows the diagram, a question with variables."""
    (question,) = [q for q in load(CONTENT, lang, PRACTICE_ID).questions if q.id == "shard-count"]
    assert isinstance(question, Numerical)
    return question


def test_the_bundled_diagram_and_formulas(tmp_path: Path) -> None:
    built = build(tmp_path, CONTENT, PRACTICE_ID)
    diagram = (CONTENT / "images" / "sharded-checkpoint.svg").read_bytes()
    for lang in LANGS:
        page = built[f"{lang}/{PRACTICE_ID}.html"].read_text(encoding="utf-8")
        images = Elements(page).find("img")  # in each variant of the question that shows it
        assert len(images) == len(variants(PRACTICE_ID, shard_count(lang)))
        for image in images:
            assert decoded(image["src"] or "") == ("image/svg+xml", diagram)
            assert image["alt"]
        maths = Ancestry(page).maths
        assert maths and all(a["dir"] == "ltr" and "bdi" not in around for a, around in maths)
