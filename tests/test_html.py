"""The `html` renderer's pages, read as files: valid HTML (the Nu checker), self-contained,
small, localised, right-to-left in Urdu, and usable without JavaScript."""

from __future__ import annotations

import json
import re
import subprocess
from html.parser import HTMLParser
from importlib.metadata import entry_points
from pathlib import Path

import pytest
from pydantic import ValidationError
from quizbank_renderers.html import HtmlOptions, HtmlRenderer

from quizbank.grading import option_grades
from quizbank.images import Image
from quizbank.loader import load_quiz
from quizbank.model import Quiz
from quizbank.renderer import QuizSummary, QuizTranslations

ROOT = Path(__file__).resolve().parents[1]
CONTENT = ROOT / "content"
FIXTURES = ROOT / "tests" / "fixtures" / "html"
QUIZ_ID = "checkpoint-sharding"
LANGS = ("en", "ur")
ASSETS = ROOT / "renderers" / "html" / "assets"

# The current Nu HTML Checker, from npm (package.json: `npm ci` installs it), run with Java.
VNU = ROOT / "node_modules" / "vnu-jar" / "build" / "dist" / "vnu.jar"


def load_with_images(folder: Path, lang: str, quiz_id: str) -> tuple[Quiz, dict[str, Image]]:
    """A quiz file validated, with the images its texts show, as a build reads them."""
    loaded = load_quiz(folder / lang / f"{quiz_id}.yaml")
    # The fixture holds raw HTML on purpose: the one problem it may have is that warning.
    unexpected = [d for d in loaded.diagnostics if "raw HTML is shown as text" not in d.message]
    assert loaded.quiz is not None and not unexpected, unexpected
    return loaded.quiz, loaded.images


def load(folder: Path, lang: str, quiz_id: str) -> Quiz:
    return load_with_images(folder, lang, quiz_id)[0]


def build(
    out: Path, folder: Path, quiz_id: str, *, shuffle: bool = False, every_question: bool = False
) -> dict[str, Path]:
    """Render one quiz in both languages, its images inside the pages, and the index, with the
    renderer itself; with `every_question`, without its sections, so that every attempt asks
    every question (one variant of each with variables)."""
    loaded = {lang: load_with_images(folder, lang, quiz_id) for lang in LANGS}
    quizzes = {
        lang: quiz.model_copy(update={"sections": None}) if every_question else quiz
        for lang, (quiz, _) in loaded.items()
    }
    images = {lang: found for lang, (_, found) in loaded.items()}
    renderer = HtmlRenderer(HtmlOptions(shuffle=shuffle))
    translations = QuizTranslations(quiz_id, quizzes, list(LANGS), images)
    files = list(renderer.render_quiz(translations))
    summaries = [
        QuizSummary(quiz_id, lang, quiz.title, quiz.level.value, len(quiz.questions))
        for lang, quiz in quizzes.items()
    ]
    files += renderer.render_bank(summaries)
    written = {}
    for file in files:
        path = out / file.path
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(file.content)
        written[str(file.path)] = path
    return written


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return build(tmp_path_factory.mktemp("html"), CONTENT, QUIZ_ID)


@pytest.fixture(scope="module")
def mixed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return build(tmp_path_factory.mktemp("mixed"), FIXTURES, "mixed-types")


def text(site: dict[str, Path], name: str) -> str:
    return site[name].read_text(encoding="utf-8")


def quiz_page(site: dict[str, Path], lang: str, quiz_id: str = QUIZ_ID) -> str:
    return text(site, f"{lang}/{quiz_id}.html")


def script_data(page: str) -> dict[str, object]:
    match = re.search(r'<script type="application/json" id="quiz-data">(.*?)</script>', page)
    assert match
    data: dict[str, object] = json.loads(match.group(1))
    return data


class Elements(HTMLParser):
    """Every start tag of a page with its attributes, in order."""

    def __init__(self, page: str) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.feed(page)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))

    def find(self, tag: str, **attrs: str) -> list[dict[str, str | None]]:
        return [
            found
            for name, found in self.tags
            if name == tag
            and all(found.get(k.rstrip("_").replace("_", "-")) == v for k, v in attrs.items())
        ]


def test_the_renderer_is_registered_as_a_plugin() -> None:
    (point,) = [p for p in entry_points(group="quizbank.renderers") if p.name == "html"]
    assert point.load() is HtmlRenderer
    assert HtmlRenderer.name == "html" and HtmlRenderer.extension == "html"
    assert HtmlRenderer.Options is HtmlOptions


def test_options() -> None:
    assert HtmlOptions().shuffle is False
    assert HtmlOptions.model_validate({"shuffle": "true"}).shuffle is True
    assert HtmlOptions.model_fields["shuffle"].description
    with pytest.raises(ValidationError):
        HtmlOptions.model_validate({"shufle": "true"})
    with pytest.raises(ValidationError):
        HtmlOptions.model_validate({"shuffle": "sometimes"})


def test_files_written(site: dict[str, Path]) -> None:
    assert sorted(site) == [
        "en/checkpoint-sharding.html",
        "index.html",
        "ur/checkpoint-sharding.html",
    ]


def test_every_page_is_valid_html(
    site: dict[str, Path], mixed: dict[str, Path], types: dict[str, Path], tmp_path: Path
) -> None:
    assert VNU.is_file(), "the Nu HTML Checker is not installed: run `npm ci`"
    # A page with a known mistake goes along, to show that the checker reports what it finds.
    en = quiz_page(site, "en")
    broken = tmp_path / "broken.html"
    broken.write_text(en.replace('id="q-resume-state"', 'id="q-why-shard"'), encoding="utf-8")
    # The second bundled quiz shows a diagram: test_html_browser.py checks its pages, with the
    # image inside them as a build writes it (test_every_page_with_images_and_formulas_...).
    checked = [*site.values(), *mixed.values(), *types.values(), broken]
    pages = [str(path) for path in checked]
    result = subprocess.run(
        ["java", "-jar", str(VNU), "--format", "gnu", "--", *pages],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    # Every report, warnings included, is on the broken page.
    reports = (result.stdout + result.stderr).splitlines()
    assert reports and result.returncode != 0
    assert all("broken.html" in line for line in reports), "\n".join(reports)
    assert any("Duplicate ID" in line for line in reports)


@pytest.mark.parametrize("lang", LANGS)
def test_page_is_self_contained_and_small(site: dict[str, Path], lang: str) -> None:
    page = quiz_page(site, lang)
    size = len(page.encode("utf-8"))
    assert size < 100_000, f"{lang} page is {size} bytes"
    elements = Elements(page)
    assert not elements.find("link") and not elements.find("img") and not elements.find("iframe")
    assert all("src" not in attrs for _, attrs in elements.tags)
    assert len(elements.find("style")) == 1 and len(elements.find("script")) == 3
    (csp,) = elements.find("meta", http_equiv="Content-Security-Policy")
    assert "default-src 'none'" in (csp["content"] or "")
    # Fonts are the learner's own: local() only, no font file, no url() at all.
    assert "url(" not in page and "data:" not in page and "@import" not in page
    assert re.findall(r"src: (.*);", page) == [
        'local("Noto Nastaliq Urdu Regular"), local("NotoNastaliqUrdu-Regular")',
        'local("Noto Nastaliq Urdu Bold"), local("NotoNastaliqUrdu-Bold")',
    ]


def test_urdu_page_is_right_to_left(site: dict[str, Path]) -> None:
    page = quiz_page(site, "ur")
    elements = Elements(page)
    assert elements.find("html") == [{"lang": "ur", "dir": "rtl"}]
    options = elements.find("div", class_="options")
    assert len(options) == 8 and all(o["dir"] == "rtl" for o in options)
    # Latin inside Urdu is isolated: code keeps its own direction, numbers too. A short code
    # span moves to the next line whole; a long one may break after a dot or underscore only.
    assert '<code dir="ltr" lang="en">state_dict()</code>' in page
    assert '<code dir="ltr" lang="en">torch.<wbr>distributed.<wbr>checkpoint</code>' in page
    assert '<bdi lang="en">RNG</bdi>' in page


def test_english_page_is_left_to_right(site: dict[str, Path]) -> None:
    elements = Elements(quiz_page(site, "en"))
    assert elements.find("html") == [{"lang": "en", "dir": "ltr"}]
    assert all(o["dir"] == "ltr" for o in elements.find("div", class_="options"))


def test_fonts_and_line_height() -> None:
    css = (ASSETS / "quiz.css").read_text(encoding="utf-8")
    urdu = re.search(r'\[lang\|="ur"\] \{(.*?)\}', css, re.S)
    assert urdu
    stack = re.sub(r"\s+", " ", urdu.group(1))
    assert (
        '--font: "Noto Nastaliq Urdu", "Jameel Noori Nastaleeq", "Urdu Typesetting", '
        '"Noto Naskh Arabic", var(--latin);' in stack
    )
    line_height = float(re.search(r"--lh: ([\d.]+);", stack).group(1))  # type: ignore[union-attr]
    assert 2 <= line_height <= 2.2
    assert "font-weight: 400;" in css and "@media print" in css


def test_stylesheet_uses_logical_properties_only() -> None:
    css = (ASSETS / "quiz.css").read_text(encoding="utf-8")
    physical = re.findall(
        r"(?:^|[\s;{])((?:margin|padding|border|inset)-(?:left|right|top|bottom)"
        r"|(?:left|right|top|bottom)\s*:|(?:text-align|float|clear)\s*:\s*(?:left|right))",
        css,
    )
    assert not physical
    assert "width:" not in css.replace("-width", "") and "height:" not in css.replace("-height", "")


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        (
            "en",
            [
                "Question <bdi>1</bdi> of <bdi>8</bdi>",
                "<bdi>8</bdi> questions",
                ">Intermediate<",
                ">Submit<",
                ">Try again<",
                "> Correct<",
                "> Incorrect<",
                ">Explanation<",
                ">Show answer<",
                ">Other languages<",
            ],
        ),
        (
            "ur",
            [
                "سوال <bdi>1</bdi> از <bdi>8</bdi>",
                "<bdi>8</bdi> سوالات",
                ">درمیانی سطح<",
                ">جمع کرائیں<",
                ">دوبارہ کوشش کریں<",
                "> درست جواب<",
                "> غلط جواب<",
                ">وضاحت<",
                ">جواب دکھائیں<",
                ">دیگر زبانیں<",
            ],
        ),
    ],
)
def test_interface_strings_come_from_the_catalog(
    site: dict[str, Path], lang: str, expected: list[str]
) -> None:
    page = quiz_page(site, lang)
    for string in expected:
        assert string in page


def test_script_data(site: dict[str, Path]) -> None:
    quiz = load(CONTENT, "ur", QUIZ_ID)
    data = script_data(quiz_page(site, "ur"))
    assert data["questions"] == {
        q.id: {
            "type": "single_choice",
            "points": 1,
            "grades": {o.id: 1.0 if o.id == q.answer else 0.0 for o in q.options},  # type: ignore[union-attr]
            "shuffle": True,
        }
        for q in quiz.questions
    }
    assert data["score"] == "آپ کا اسکور: %(total)s میں سے %(score)s (%(percent)s)"
    assert data["points"] == "نمبر: %(total)s میں سے %(score)s"
    # Babel's number format for Urdu: its digits, symbols, grouping and percent pattern.
    assert data["number"] == {
        "digits": "0123456789",
        "decimal": ".",
        "group": ",",
        "grouping": [3, 3],
        "decimals": 2,
        "percent": ["", "%"],
        "percent_grouping": [3, 3],
    }
    assert data["unanswered"][0] == "" and len(data["unanswered"]) == 9
    assert data["essays"] == ""  # no essay in this quiz
    assert data["shuffle"] is False
    assert script_data(quiz_page(site, "en"))["score"] == (
        "Your score: %(score)s of %(total)s (%(percent)s)"
    )


def test_learner_flow_markup_without_javascript(site: dict[str, Path]) -> None:
    quiz = load(CONTENT, "en", QUIZ_ID)
    page = quiz_page(site, "en")
    elements = Elements(page)
    assert len(elements.find("fieldset")) == len(elements.find("legend")) == 8
    assert len(elements.find("input", type="radio")) == 32
    assert len(elements.find("label")) == 32
    # The answers wait in closed <details>, one per question, with the right option's text.
    assert len(elements.find("details", class_="answer")) == 8
    assert all("open" not in d for d in elements.find("details"))
    for question in quiz.questions:
        (right,) = [o for o in question.options if o.id == question.answer]  # type: ignore[union-attr]
        assert f"<dd>{right.text}</dd>" in page
    assert "A large model's state can run to hundreds of gigabytes" in page
    # Buttons need the script; without it they stay hidden.
    assert '<button type="submit" class="submit" hidden>' in page


def test_every_question_type(mixed: dict[str, Path]) -> None:
    page = quiz_page(mixed, "ur", "mixed-types")
    elements = Elements(page)
    assert len(elements.find("input", type="checkbox", name="pick-formats")) == 3
    assert [i["value"] for i in elements.find("input", name="pickle-runs-code")] == [
        "true",
        "false",
    ]
    assert elements.find("input", type="radio", name="pickle-runs-code")
    assert '<span class="text">درست</span>' in page and '<span class="text">غلط</span>' in page
    assert "تمام درست جوابات منتخب کریں۔" in page  # noqa: RUF001 - the checkbox hint, Urdu full stop
    assert "جوابات دکھائیں" in page  # plural: two right options
    (fieldset,) = elements.find("fieldset", id="q-pick-formats")
    assert fieldset["aria-describedby"] == "q-pick-formats--prompt q-pick-formats--hint"
    grades = {q: spec["grades"] for q, spec in script_data(page)["questions"].items()}  # type: ignore[attr-defined]
    assert grades == {
        "pick-formats": {"a": 0.5, "b": -1.0, "c": 0.5},
        "pickle-runs-code": {"true": 1.0, "false": 0.0},
        "index-file": {"a": 1.0, "b": 0.0},
    }
    english = quiz_page(mixed, "en", "mixed-types")
    assert '<span class="text">True</span>' in english
    assert '<span class="number">Question <bdi>1</bdi> of <bdi>3</bdi></span>' in english


def test_content_html_is_escaped(mixed: dict[str, Path]) -> None:
    for lang in LANGS:
        page = quiz_page(mixed, lang, "mixed-types")
        assert "<script>alert" not in page and "<img" not in page and "<b>" not in page
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "&lt;img src=x onerror=alert(1)&gt;" in quiz_page(mixed, "en", "mixed-types")


def test_guide_link(mixed: dict[str, Path]) -> None:
    page = quiz_page(mixed, "ur", "mixed-types")
    assert 'گائیڈ: <a href="https://huggingface.co/docs/safetensors">' in page


def test_links_between_languages(site: dict[str, Path], tmp_path: Path) -> None:
    en = Elements(quiz_page(site, "en"))
    assert en.find("a", href="../ur/checkpoint-sharding.html") == [
        {"href": "../ur/checkpoint-sharding.html", "hreflang": "ur", "lang": "ur", "dir": "rtl"}
    ]
    assert 'dir="rtl">اردو</a>' in quiz_page(site, "en")
    assert 'dir="ltr">English</a>' in quiz_page(site, "ur")
    assert en.find("a", href="../index.html")
    # A language left out of the build gets no link: it would lead nowhere.
    quizzes = {lang: load(CONTENT, lang, QUIZ_ID) for lang in LANGS}
    renderer = HtmlRenderer(HtmlOptions())
    only_en = renderer.render(QuizTranslations(QUIZ_ID, quizzes, ["en"]), "en")
    assert "../ur/" not in only_en and "Other languages" not in only_en


def test_index_lists_every_quiz_in_every_language(site: dict[str, Path]) -> None:
    page = text(site, "index.html")
    elements = Elements(page)
    assert elements.find("html") == [{"lang": "en", "dir": "ltr"}]
    assert elements.find("a", href="en/checkpoint-sharding.html")
    assert elements.find("a", href="ur/checkpoint-sharding.html")
    sections = elements.find("section")
    assert [(s["lang"], s["dir"]) for s in sections] == [("en", "ltr"), ("ur", "rtl")]
    for lang in ("en", "ur"):  # each title as the content has it
        assert f">{load(CONTENT, lang, QUIZ_ID).title}</a>" in page
    assert "<bdi>8</bdi> سوالات" in page and "<bdi>8</bdi> questions" in page
    assert ">اردو</h2>" in page and ">English</h2>" in page


def test_shuffle_is_passed_to_the_script(tmp_path: Path) -> None:
    built = build(tmp_path, CONTENT, QUIZ_ID, shuffle=True)
    assert script_data(quiz_page(built, "en"))["shuffle"] is True


def test_assets_are_inlined_not_linked(site: dict[str, Path]) -> None:
    page = quiz_page(site, "en")
    js = (ASSETS / "quiz.js").read_text(encoding="utf-8").strip()
    css = (ASSETS / "quiz.css").read_text(encoding="utf-8").strip()
    assert js in page and css in page


TYPES = ROOT / "tests" / "fixtures" / "types"


@pytest.fixture(scope="module")
def types(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return build(tmp_path_factory.mktemp("types"), TYPES, "every-type")


@pytest.mark.parametrize("lang", LANGS)
def test_every_type_is_written_as_its_own_fields(types: dict[str, Path], lang: str) -> None:
    page = quiz_page(types, lang, "every-type")
    elements = Elements(page)
    label_for = {attrs["for"] for attrs in elements.find("label") if "for" in attrs}
    # numerical and short_answer: a labelled text field; the number one for decimals
    (number,) = elements.find("input", id="q-adam-beta1--answer")
    assert number["type"] == "text" and number["inputmode"] == "decimal"
    (text,) = elements.find("input", id="q-format-name--answer")
    assert text["type"] == "text" and "inputmode" not in text
    assert {"q-adam-beta1--answer", "q-format-name--answer"} <= label_for
    # matching: a labelled drop-down per item, every match and distractor in each
    selects = [
        a for a in elements.find("select") if (a.get("name") or "").startswith("state-parts")
    ]
    assert [a["id"] for a in selects] == [f"q-state-parts--{p}" for p in ("opt", "rng", "sched")]
    assert all(a["id"] in label_for for a in selects)
    matching = page[page.index('id="q-state-parts"') : page.index('id="q-resume-order"')]
    assert matching.count("<option") == 3 * 5  # "Choose…" and four choices
    assert matching.count('<option value="lr">') == 3
    # ordering: two buttons per item, each described by its item; a live region
    buttons = [a for a in elements.find("button") if "move" in (a.get("class") or "")]
    assert len(buttons) == 6 and all(a["type"] == "button" for a in buttons)
    ids = {attrs.get("id") for _, attrs in elements.tags}
    assert all(a["aria-describedby"] in ids for a in buttons)
    assert elements.find("p", class_="announce", aria_live="polite")
    # cloze: the gaps inside the prompt's paragraph, named for screen readers
    gaps = [a for _, a in elements.tags if "gap" in (a.get("class") or "").split()]
    name = {"en": "Gap {} of 3", "ur": "خالی جگہ {} از 3"}[lang]
    assert [a["aria-label"] for a in gaps] == [name.format(n) for n in (1, 2, 3)]
    prompt = page[page.index('id="q-index-gaps--prompt"') :]
    assert prompt.index('id="q-index-gaps--count"') < prompt.index("</p>")
    assert "[[" not in page
    # essay: a labelled text area described by its word limits and count; no grader notes
    (area,) = elements.find("textarea")
    assert area["aria-describedby"] == "q-why-weights-only--words" and area["id"] in label_for
    limits = {
        "en": "<bdi>5</bdi> to <bdi>200</bdi> words",
        "ur": "<bdi>5</bdi> سے <bdi>200</bdi> الفاظ",
    }
    assert limits[lang] in page
    grader_info = load(TYPES, lang, "every-type").questions[8].grader_info  # type: ignore[union-attr]
    assert grader_info and grader_info not in page and "grader" not in page


@pytest.mark.parametrize("lang", LANGS)
def test_every_type_right_answer(types: dict[str, Path], lang: str) -> None:
    page = quiz_page(types, lang, "every-type")
    assert "<dd><bdi>0.9</bdi> ± <bdi>0.005</bdi></dd>" in page
    arrow = {"en": " → ", "ur": " ← "}[lang]
    assert page.count(arrow) == 3
    order = {"en": "<dd><ol><li>Load the latest", "ur": "<dd><ol><li>تازہ ترین"}[lang]
    assert order in page
    assert page.count('<strong class="filled">') == 3
    model = {"en": "<dt>Model answer</dt>", "ur": "<dt>نمونہ جواب</dt>"}[lang]
    assert model in page


def test_every_type_script_data(types: dict[str, Path]) -> None:
    quiz = load(TYPES, "en", "every-type")
    data = script_data(quiz_page(types, "en", "every-type"))
    specs = data["questions"]
    assert isinstance(specs, dict)
    assert specs["pick-all"] == {
        "type": "multiple_choice",
        "points": 1,
        "grades": option_grades(quiz.questions[1]),  # type: ignore[arg-type]
        "shuffle": False,
    }
    assert specs["statement"] == {
        "type": "true_false",
        "points": 1,
        "grades": {"true": 0.0, "false": 1.0},
    }
    assert specs["adam-beta1"] == {
        "type": "numerical",
        "points": 2,
        "answer": 0.9,
        "tolerance": 0.005,
    }
    assert specs["format-name"]["answers"] == ["safetensors", "safe*tensors"]
    assert specs["state-parts"]["pairs"] == ["opt", "rng", "sched"]
    assert specs["resume-order"]["order"] == ["load", "restore", "seek"]
    assert [gap["id"] for gap in specs["index-gaps"]["gaps"]] == ["what", "where", "count"]
    assert specs["why-weights-only"] == {"type": "essay"}  # no grader_info, no points
    assert data["essays"] == "Essay questions are not scored here."
    assert len(data["unanswered"]) == 9  # type: ignore[arg-type]  # 0 to 8 scored questions


def test_script_data_and_choices_are_escaped(tmp_path: Path) -> None:
    hostile = "</script><script>alert(1)</script>"
    quiz = Quiz.model_validate(
        {
            "id": "hostile",
            "lang": "en",
            "title": "Hostile",
            "description": "Texts that must stay text.",
            "level": "beginner",
            "questions": [
                {
                    "id": "typed",
                    "type": "short_answer",
                    "prompt": "Type it",
                    "answer": [hostile, "a & <b>"],
                    "explanation": "x",
                },
                {
                    "id": "pairs",
                    "type": "matching",
                    "prompt": "Match",
                    "pairs": [
                        {"id": "a", "item": "<i>one</i>", "match": "<b>bold</b> & **strong**"},
                        {"id": "b", "item": "two", "match": hostile},
                    ],
                    "explanation": "x",
                },
            ],
        }
    )
    page = HtmlRenderer(HtmlOptions()).render(
        QuizTranslations("hostile", {"en": quiz}, ["en"]), "en"
    )
    assert "<script>alert" not in page and "<b>" not in page and "<i>" not in page
    assert len(Elements(page).find("script")) == 3
    assert script_data(page)["questions"]["typed"]["answers"] == [hostile, "a & <b>"]  # type: ignore[index]
    assert '<option value="a">&lt;b&gt;bold&lt;/b&gt; &amp; strong</option>' in page
    assert '<label for="q-pairs--a">&lt;i&gt;one&lt;/i&gt;</label>' in page


@pytest.mark.parametrize("lang", LANGS)
def test_cached_numbers_agree_with_babel(lang: str) -> None:
    """`number_html` is cached: 1 and 1.0, 2 and 2.5, asked in any order, each come out as
    Babel formats them."""
    from quizbank_renderers.html.environment import number_html

    numbers: list[int | float] = [1, 1.0, 2.5, 0.005, 1000, 1000.0, 12345.678, 0, 0.0, -3]
    for number in numbers + numbers[::-1]:
        assert number_html(number, lang) == number_html.__wrapped__(number, lang)
