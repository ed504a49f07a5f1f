"""Images and formulas in Moodle XML, as the real Moodle 4.5 imported them (scripts/moodle-check):
each image a `<file>` inside exactly the element whose text shows it, as qformat_xml's own
export writes it; alt text where Moodle stores no file; formulas as TeX for its MathJax filter,
intact in a cloze and never beside braces the filter would break."""

# ruff: noqa: RUF001 - Urdu text is meant

from __future__ import annotations

import base64
import re
from functools import cache
from html import unescape
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import quote, unquote

import pytest
import quizbank_renderers.moodle_text as moodle_text
from lxml import etree
from lxml import html as lxml_html
from quizbank_renderers.moodle import MoodleOptions, MoodleRenderer
from quizbank_renderers.moodle_text import _braces_inert, _mathjax_safe
from test_moodle_types import moodle_gaps

from quizbank.errors import RendererError
from quizbank.images import SVG, Image
from quizbank.loader import load_quiz
from quizbank.model import Quiz
from quizbank.renderer import QuizTranslations

MEDIA = Path(__file__).resolve().parent / "fixtures" / "media"
WJ = "\u2060"
OWN = re.compile(r'src="@@PLUGINFILE@@/([^"]+)"')
SQUARE = Image(
    PurePosixPath("images/square.svg"),
    SVG,
    b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 4 4"><rect width="4" height="4"/></svg>',
)
GRID = Image(
    PurePosixPath("images/grid.png"), "image/png", (MEDIA / "images/grid.png").read_bytes()
)
# A name with what Moodle's clean_param(PARAM_FILE) drops (`'`, `&`), a space and an accent.
ODD = Image(
    PurePosixPath("images/it's a picture & é.svg"),
    SVG,
    b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 4 4"><circle r="2"/></svg>',
)
IMAGES = {"../images/square.svg": SQUARE, "../images/grid.png": GRID, "../images/odd.svg": ODD}
# Moodle's MathJax filter (filter/mathjaxloader, escape_html_tag_wrapper), in a text with a formula.
TAG_WRAPPER = re.compile(r"\{([^}]+)\}")


def _every_field(lang: str, words: str, square: str, grid: str) -> dict[str, Any]:
    """A quiz with an image and a formula in every field of every type that has one."""
    return {
        "id": "media-fields",
        "lang": lang,
        "title": f"{words} $x$",
        "description": f"{square} {words} $x^2$",
        "level": "beginner",
        "questions": [
            {
                "id": "choice",
                "type": "single_choice",
                "prompt": f"{square} {words} $a < b$, $5 and $7.\n\n$$\\frac{{1}}{{2}}$$",
                "options": [
                    {"id": "a", "text": grid, "feedback": f"{square} $\\alpha$"},
                    {"id": "b", "text": "$\\frac{1}{2}$"},
                ],
                "answer": "a",
                "explanation": f"{grid} ![{words}](../images/odd.svg)",
            },
            {
                "id": "true-false",
                "type": "true_false",
                "prompt": f"{square} {words}",
                "answer": True,
                "feedback_true": f"{square} $4 = 2^2$",
                "feedback_false": words,
                "explanation": f"$a = b$ {words}",
            },
            {
                "id": "match",
                "type": "matching",
                "prompt": words,
                "pairs": [
                    {"id": "a", "item": square, "match": f"{grid} {words}"},
                    {"id": "b", "item": "$\\frac{1}{2}$", "match": "$x^2$"},
                ],
                "distractors": [{"id": "c", "text": "$y$"}],
                "explanation": words,
            },
            {
                "id": "order",
                "type": "ordering",
                "prompt": words,
                "items": [
                    {"id": "a", "text": f"{square} {words}"},
                    {"id": "b", "text": f"$\\frac{{1}}{{2}}$ {words}"},
                ],
                "explanation": words,
            },
            {
                "id": "cloze",
                "type": "cloze",
                "prompt": f"{square} {words} $\\frac{{1}}{{2}}$, $x_{{1:N}}$: [[half]] [[pick]].",
                "gaps": {
                    "half": {"type": "numerical", "answer": 0.5},
                    "pick": {
                        "type": "single_choice",
                        "options": [
                            {"id": "a", "text": f"{square} {words}", "feedback": f"{grid} $y$"},
                            {"id": "b", "text": "$\\frac{1}{3}$"},
                        ],
                        "answer": "a",
                    },
                },
                "explanation": f"$$\\frac{{1}}{{2}}$$ {grid}",
            },
            {
                "id": "essay",
                "type": "essay",
                "prompt": f"{words} {square}",
                "grader_info": f"{grid} $\\frac{{1}}{{2}}$",
                "explanation": words,
            },
        ],
    }


EN = _every_field(
    "en", "Which one", "![A small square](../images/square.svg)", "![A grid](../images/grid.png)"
)
UR = _every_field(
    "ur", "کون سا", "![ایک چھوٹا مربع](../images/square.svg)", "![ایک جال](../images/grid.png)"
)


def _outputs(
    quizzes: list[dict[str, Any]], images: dict[str, dict[str, Image]], **options: Any
) -> dict[str, str]:
    """Every file of a quiz in its languages, with each language's images, by path."""
    validated = [Quiz.model_validate(quiz) for quiz in quizzes]
    translations = QuizTranslations(
        validated[0].id, {q.lang: q for q in validated}, [q.lang for q in validated], images
    )
    renderer = MoodleRenderer(MoodleOptions(**options))
    return {str(out.path): out.content.decode() for out in renderer.render_quiz(translations)}


def _tree(xml: str) -> etree._Element:
    """The file parsed by lxml: well-formed XML."""
    return etree.fromstring(xml.encode())


def _fixture(**options: Any) -> dict[str, str]:
    """The media fixture's files (an image in a prompt, an option's feedback, a match item;
    inline and display formulas; money), its images as a build reads them."""
    loaded = {lang: load_quiz(MEDIA / lang / "media.yaml") for lang in ("en", "ur")}
    for one in loaded.values():
        assert one.quiz is not None and not one.diagnostics, one.diagnostics
    translations = QuizTranslations(
        "media",
        {lang: one.quiz for lang, one in loaded.items() if one.quiz},
        list(loaded),
        {lang: one.images for lang, one in loaded.items()},
    )
    renderer = MoodleRenderer(MoodleOptions(**options))
    return {str(out.path): out.content.decode() for out in renderer.render_quiz(translations)}


@cache
def _every_output() -> dict[str, str]:
    """The fixture and the every-field quiz, in each language and both multilang syntaxes."""
    files: dict[str, str] = {}
    images = {"en": IMAGES, "ur": IMAGES}
    for syntax in ("spans", "mlang2"):
        files |= {f"{syntax}:{p}": xml for p, xml in _fixture(multilang=syntax).items()}
        every = _outputs([EN, UR], images, multilang=syntax)
        files |= {f"{syntax}:{p}": xml for p, xml in every.items()}
    return files


OUTPUTS = [
    f"{syntax}:{lang}/{quiz}.xml"
    for syntax in ("spans", "mlang2")
    for lang in ("en", "ur", "multilang")
    for quiz in ("media", "media-fields")
]


def _holders(question: etree._Element) -> list[tuple[str, etree._Element]]:
    """Each element of a question with a `<text>` of its own, by a path (`answer[0]/feedback`)."""
    found = []
    counts: dict[str, int] = {}
    for child in question:
        n = counts[child.tag] = counts.get(child.tag, -1) + 1
        path = f"{child.tag}[{n}]" if child.tag in ("answer", "subquestion") else child.tag
        if child.find("text") is not None and child.tag not in ("name", "category"):
            found.append((path, child))
        found += [(f"{path}/feedback", f) for f in child.findall("feedback")]
    return found


def _carried(element: etree._Element) -> tuple[list[str], list[str]]:
    """The images an element's text refers to, and the names of the files it carries."""
    refs = [unquote(name) for name in OWN.findall(element.findtext("text") or "")]
    return refs, [file.get("name", "") for file in element.iterfind("file")]


def _seen(html_text: str) -> str:
    """What a reader sees of HTML: an image's alt text, tags gone, references decoded."""
    html_text = re.sub(r'<img [^<>]*?alt="([^"]*)"[^<>]*>', r"\1", html_text)
    return unescape(re.sub(r"<[^<>]*>", "", html_text))


# ------------------------------------------------------------------------------------- images


@pytest.mark.parametrize("path", OUTPUTS)
def test_every_image_is_a_file_beside_the_text_that_shows_it_and_nowhere_else(path: str) -> None:
    """qformat_xml::import_text_with_files() reads the `<file>`s of the element whose `<text>`
    it reads: each `@@PLUGINFILE@@/name` has its file there, with the image's bytes in base64,
    `path="/"`, once, after the text (as write_files() writes them, by name), and no file is
    anywhere else."""
    root = _tree(_every_output()[path])
    by_name = {re.sub(r"[&']", "-", image.file_name): image for image in IMAGES.values()}
    by_name |= {
        image.file_name: image for image in load_quiz(MEDIA / "en/media.yaml").images.values()
    }
    placed = 0
    for question in root.iterfind("question"):
        for where, element in _holders(question):
            refs, names = _carried(element)
            assert sorted(set(refs)) == names, (path, where)
            for file in element.iterfind("file"):
                assert file.attrib == {"name": file.get("name"), "path": "/", "encoding": "base64"}
                assert base64.b64decode(file.text or "") == by_name[file.get("name", "")].data
                assert element.index(file) > element.index(element.find("text"))
            placed += len(names)
    assert placed == len(root.findall(".//file")) > 0, path


def _files_by_place(xml: str) -> dict[tuple[str, str], list[str]]:
    """The names of the files of each element that has some, by question and path."""
    found = {}
    for question in _tree(xml).iterfind("question"):
        for where, element in _holders(question):
            names = _carried(element)[1]
            if names:
                found[question.findtext("idnumber") or "", where] = names
    return found


SQUARE_FILE = SQUARE.file_name
GRID_FILE = GRID.file_name
ODD_FILE = "it-s a picture - é-" + ODD.file_name.rsplit("-", 1)[1]
# Where Moodle's importer takes files, and so where the real Moodle stored each image: the
# question text and general feedback (import_headers), a choice's and an ordering item's text
# and every answer's feedback (import_answer), a match item (import_match), the grader
# information (import_essay); a multianswer's question text and general feedback.
PLACES = {
    ("media-fields/choice", "questiontext"): [SQUARE_FILE],
    ("media-fields/choice", "generalfeedback"): [GRID_FILE, ODD_FILE],
    ("media-fields/choice", "answer[0]"): [GRID_FILE],
    ("media-fields/choice", "answer[0]/feedback"): [SQUARE_FILE],
    ("media-fields/true-false", "questiontext"): [SQUARE_FILE],
    ("media-fields/true-false", "answer[0]/feedback"): [SQUARE_FILE],
    ("media-fields/match", "subquestion[0]"): [SQUARE_FILE],
    ("media-fields/order", "answer[0]"): [SQUARE_FILE],
    ("media-fields/cloze", "questiontext"): [SQUARE_FILE],
    ("media-fields/cloze", "generalfeedback"): [GRID_FILE],
    ("media-fields/essay", "questiontext"): [SQUARE_FILE],
    ("media-fields/essay", "graderinfo"): [GRID_FILE],
}


@pytest.mark.parametrize("syntax", ["spans", "mlang2"])
def test_files_are_in_exactly_the_elements_moodle_stores_them_for(syntax: str) -> None:
    files = _outputs([EN, UR], {"en": IMAGES, "ur": IMAGES}, multilang=syntax)
    for path, xml in files.items():
        assert _files_by_place(xml) == PLACES, path


def test_where_moodle_keeps_no_file_an_image_is_its_alt_text() -> None:
    """A category's `<info>` (import_category takes no file), a cloze gap's feedback (Moodle
    keeps it with the gap, whose areas get no file) and a drop-down's choices (plain text: a
    match's answers, a gap's choices) show the alt text, never an image or a file reference."""
    root = _tree(_outputs([EN], {"en": IMAGES})["en/media-fields.xml"])
    info = root.findtext("question/info/text") or ""
    assert "A small square Which one" in info and "<img" not in info
    gaps = moodle_gaps(root.findtext("question[@type='multianswer']/questiontext/text") or "")
    assert [kind for _, kind, _ in gaps] == ["NUMERICAL", "MULTICHOICE_S"]
    assert gaps[1][2] == [
        ("=", "A small square Which one", "A grid \\(y\\)"),
        ("", "\\frac{1}{3}", ""),
    ]
    answers = [a.text for a in root.iterfind("question[@type='match']/subquestion/answer/text")]
    assert answers == ["A grid Which one", "x^2", "y"]
    assert "PLUGINFILE" not in "".join(answers) + info


def test_multilang_carries_the_images_of_every_language() -> None:
    """Each language's version of a text may show another image: the multilang file's element
    carries the files of all of them; a language's own file only its own."""
    en = {**EN, "questions": [{**EN["questions"][0], "prompt": "![A](../images/square.svg)"}]}
    ur = {**UR, "questions": [{**UR["questions"][0], "prompt": "![ایک جال](../images/grid.png)"}]}
    question = "media-fields/choice", "questiontext"
    for syntax in ("spans", "mlang2"):
        files = _outputs([en, ur], {"en": IMAGES, "ur": IMAGES}, multilang=syntax)
        places = {path: _files_by_place(xml) for path, xml in files.items()}
        assert places["en/media-fields.xml"][question] == [SQUARE_FILE]
        assert places["ur/media-fields.xml"][question] == [GRID_FILE]
        assert places["multilang/media-fields.xml"][question] == [GRID_FILE, SQUARE_FILE]


def test_an_image_shown_twice_or_by_two_paths_is_one_file() -> None:
    """import_files_as_draft() calls debugging() for a second file of the same name."""
    quiz = {**EN, "questions": [{**EN["questions"][0], "prompt": (
        "![A](../images/square.svg) ![B](../images/./square.svg) ![A](../images/square.svg)"
    )}]}  # fmt: skip
    images = {**IMAGES, "../images/./square.svg": SQUARE}
    root = _tree(_outputs([quiz], {"en": images})["en/media-fields.xml"])
    questiontext = root.find("question[@type='multichoice']/questiontext")
    assert questiontext is not None
    assert _carried(questiontext) == ([SQUARE_FILE] * 3, [SQUARE_FILE])


def test_a_file_is_named_as_moodle_stores_it_and_addressed_as_a_url() -> None:
    """Moodle stores a file under its name cleaned with PARAM_FILE (no `&<>"\\`|':\\/`), which
    would no longer be the name a text refers to: quizbank writes the cleaned name (its hash
    keeps it unique), and the address as in a URL, as Moodle's editor does."""
    root = _tree(_outputs([EN], {"en": IMAGES})["en/media-fields.xml"])
    feedback = root.find("question[@type='multichoice']/generalfeedback")
    assert feedback is not None
    (file,) = [f for f in feedback.iterfind("file") if f.get("name") != GRID_FILE]
    assert file.get("name") == ODD_FILE
    assert not re.search(r"[\x00-\x1f\x7f&<>\"`|':\\/{}]", ODD_FILE)
    assert f'src="@@PLUGINFILE@@/{quote(ODD_FILE)}"' in (feedback.findtext("text") or "")


def test_an_authors_pluginfile_stays_inert_beside_a_real_image() -> None:
    """Only quizbank's own `src="@@PLUGINFILE@@/…"` is left for Moodle to rewrite: an author's
    marker, in the same text, in a name or in an alt text, keeps its word joiner."""
    quiz = {**EN, "title": 'src="@@PLUGINFILE@@/t.png"', "questions": [{**EN["questions"][0],
        "prompt": "![@@PLUGINFILE@@/a.svg](../images/square.svg) @@PLUGINFILE@@/square.svg"}]}  # fmt: skip
    for path, xml in _outputs([quiz, UR], {"en": IMAGES, "ur": IMAGES}, multilang=True).items():
        root = _tree(xml)
        text = root.findtext("question[@type='multichoice']/questiontext/text") or ""
        assert len(OWN.findall(text)) == 1 + ("multilang" in path), path
        assert "@@PLUGINFILE@@" not in _seen(text), path
        assert "@@PLUGINFILE@@" not in text.replace('src="@@PLUGINFILE@@/', ""), path
        if path != "ur/media-fields.xml":  # the title of the file's first language
            assert f"@@{WJ}PLUGINFILE@@" in (root.findtext("question/category/text") or "")


def test_an_image_the_renderer_was_not_given_is_a_clear_error() -> None:
    """Moodle would show it broken: the renderer says which question and which image."""
    quiz = {**EN, "questions": [EN["questions"][1]]}
    with pytest.raises(RendererError, match=r"'true-false'.* \.\./images/square\.svg was not"):
        _outputs([quiz], {"en": {}})


def test_a_text_without_images_never_looks_for_files(monkeypatch: pytest.MonkeyPatch) -> None:
    """The 20,000-question build: a text without an image costs one substring search."""

    class Untouchable:
        def get(self) -> None:
            raise AssertionError("looked for the files of a text without images")

        set = reset = lambda self, *args: None

    monkeypatch.setattr(moodle_text, "_FILES", Untouchable())
    plain = {**EN, "description": "No image.", "questions": [EN["questions"][1] | {
        "prompt": "No image $x$.", "feedback_true": "No."}]}  # fmt: skip
    xml = _outputs([plain], {"en": {}})["en/media-fields.xml"]
    assert "<file" not in xml and "\\(x\\)" in xml


# ----------------------------------------------------------------------------------- formulas


def test_formulas_are_tex_for_moodles_mathjax_escaped_for_html() -> None:
    """`$…$` as `\\(…\\)`, `$$…$$` on its own as `\\[…\\]` in its paragraph, TeX escaped as
    HTML (`<` as `&lt;`, which MathJax reads as `<`); money and `\\$` stay text; no MathML."""
    root = _tree(_fixture()["en/media.xml"])
    numerical = root.find("question[@type='numerical']")
    assert numerical is not None
    assert "\\(4 + 2 \\times 4\\)" in (numerical.findtext("questiontext/text") or "")
    feedback = numerical.findtext("generalfeedback/text") or ""
    assert "<p>\\[b = 4 + 2 \\times 4 = 12\\]</p>" in feedback
    assert "it costs $5 and $7, and $3 too." in feedback
    assert numerical.findtext("answer/tolerance") == "0"  # the model's default, an int
    every = _outputs([EN], {"en": IMAGES})["en/media-fields.xml"]
    prompt = _tree(every).findtext("question[@type='multichoice']/questiontext/text") or ""
    assert "\\(a &lt; b\\), $5 and $7." in prompt
    assert "\\(a < b\\)" in lxml_html.fromstring(prompt).text_content()
    assert "<p>\\[\\frac{1}{2}\\]</p>" in prompt
    assert all("<math" not in xml for xml in _every_output().values())


def test_a_match_drop_down_shows_a_formulas_tex_once() -> None:
    """A drop-down is plain text: the TeX, once however many languages write the same."""
    files = _outputs([EN, UR], {"en": IMAGES, "ur": IMAGES}, multilang=True)
    root = _tree(files["multilang/media-fields.xml"])
    answers = [a.text for a in root.iterfind("question[@type='match']/subquestion/answer/text")]
    # The TeX is a Latin run of the Urdu label too: isolated (U+2066…U+2069), invisible in English.
    assert answers == [
        "A grid Which one / \u2068ایک جال کون سا\u2069",
        "\u2066x^2\u2069",
        "\u2066y\u2069",
    ]


@pytest.mark.parametrize("syntax", ["spans", "mlang2"])
@pytest.mark.parametrize("langs", [("en",), ("ur",), ("en", "ur")])
def test_a_cloze_keeps_the_braces_of_its_formulas(syntax: str, langs: tuple[str, ...]) -> None:
    """Only what qtype_multianswer reads, an embedded answer's start `{1:SA:` and a placeholder
    `{#1}`, gets a word joiner after its `{`: `\\frac{1}{2}` and `x_{1:N}` are untouched, and
    Moodle finds exactly the question's gaps."""
    tail = "$\\frac{1}{2}$ and $x_{1:N}$ and {1:SA:=x} and {#1} and {:MC:y}: [[half]] [[pick]]."
    quizzes = []
    for quiz in (EN, UR):
        cloze = quiz["questions"][4]
        prompt = cloze["prompt"].split("$")[0] + tail  # its image and words, then `tail`
        if quiz["lang"] in langs:
            quizzes.append({**quiz, "questions": [{**cloze, "prompt": prompt}]})
    files = _outputs(quizzes, {lang: IMAGES for lang in langs}, multilang=syntax)
    xml = files["multilang/media-fields.xml" if len(langs) > 1 else f"{langs[0]}/media-fields.xml"]
    text = _tree(xml).findtext("question[@type='multianswer']/questiontext/text") or ""
    assert text.count("\\(\\frac{1}{2}\\)") == len(langs)
    assert text.count("\\(x_{1:N}\\)") == len(langs)
    assert [kind for _, kind, _ in moodle_gaps(text)] == ["NUMERICAL", "MULTICHOICE_S"]
    assert "{1:SA:" not in _seen(text) and "{#1}" not in _seen(text)
    assert "{:MC:" not in _seen(text)


@pytest.mark.parametrize(
    ("text", "inert"),
    [
        ("\\(\\frac{1}{2}\\)", "\\(\\frac{1}{2}\\)"),
        ("\\(x_{1:N}\\) \\(e^{2}\\)", "\\(x_{1:N}\\) \\(e^{2}\\)"),
        ("{1:SA:=x}", f"{{{WJ}1:SA:=x}}"),
        ("{:MULTICHOICE:=a}", f"{{{WJ}:MULTICHOICE:=a}}"),
        ("{#12}", f"{{{WJ}#12}}"),
        ('{<bdi lang="en">#1</bdi>}', f'{{{WJ}<bdi lang="en">#1</bdi>}}'),
        ('&#123;<bdi lang="en">2:SA:=x</bdi>}', f'&#123;{WJ}<bdi lang="en">2:SA:=x</bdi>}}'),
        ("{#} {a:B:} {1:sa:x}", "{#} {a:B:} {1:sa:x}"),
    ],
)
def test_braces_are_inert_only_where_multianswer_reads_them(text: str, inert: str) -> None:
    assert _braces_inert(text) == inert


def _filtered(text: str) -> str:
    """What Moodle's MathJax filter makes of a text with a formula (escape_html_tag_wrapper)."""
    return TAG_WRAPPER.sub(lambda m: m[0].replace("<", "&lt;").replace(">", "&gt;"), text)


@pytest.mark.parametrize("syntax", ["spans", "mlang2"])
def test_moodles_mathjax_filter_shows_no_tag_as_text(syntax: str) -> None:
    """In a text with a formula, Moodle's MathJax filter writes the tags between a `{` and the
    next `}` as text: an Urdu `{x}` is `{<bdi>x</bdi>}`, and an unclosed `{` is closed by a later
    language's. Such a `{` is `&#123;`, which shows the same."""
    en = {**EN, "questions": [{**EN["questions"][1], "prompt": "Set {*x*} to $1$, or { ..."}]}
    ur = {**UR, "questions": [{**UR["questions"][1], "prompt": "کون سا {x} $1$ ہے؟ }"}]}
    files = _outputs([en, ur], {"en": IMAGES, "ur": IMAGES}, multilang=syntax)
    for path, xml in files.items():
        text = _tree(xml).findtext("question[@type='truefalse']/questiontext/text") or ""
        assert "\\(1\\)" in text
        assert _filtered(text) == text, path
        assert "{x}" in _seen(text), path


@pytest.mark.parametrize(
    ("html", "safe"),
    [
        ("\\(\\frac{1}{2}\\) {a}", "\\(\\frac{1}{2}\\) {a}"),
        ("{<b>a</b>}", "&#123;<b>a</b>}"),
        ("{a{<b>}", "&#123;a&#123;<b>}"),
        ("a { b", "a &#123; b"),
        ("{} <b>}", "{} <b>}"),
    ],
)
def test_mathjax_safe_writes_only_the_braces_the_filter_reads(html: str, safe: str) -> None:
    assert _mathjax_safe(html) == safe
    assert _filtered(safe) == safe
