"""The pdf format as readers of PDF see it: the files written, their pages, fonts and glyphs,
the text a reader copies, what the exam holds and the key adds, forms and their keys."""

from __future__ import annotations

import re
import shutil
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import CONTENT, Run
from pdf_readers import MM, fonts, glyph_ids, ink_box, page_images
from pypdf import PdfReader
from quizbank_renderers.pdf.document import essay_lines
from quizbank_renderers.pdf.draws import asked
from quizbank_renderers.pdf.forms import Form

from quizbank.cli import main
from quizbank.loader import load_quiz
from quizbank.markup import to_plain
from quizbank.model import Essay, MultipleChoice, Question, Quiz, SingleChoice

QUIZZES = ("checkpoint-sharding", "resuming-training-in-practice")
LANGS = ("en", "ur")
A4 = (595.28, 841.89)

pytestmark = pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="needs poppler-utils")


def _build(out: Path, *options: str) -> Path:
    code = main(["build", str(CONTENT), "-f", "pdf", "-o", str(out), *options])
    assert code == 0
    return out / "pdf"


@pytest.fixture(scope="session")
def pdfs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bundled quizzes as exams and keys, built once."""
    return _build(tmp_path_factory.mktemp("pdf"))


@pytest.fixture(scope="session")
def forms(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bundled quizzes in two forms with answer sheets, built once."""
    return _build(tmp_path_factory.mktemp("forms"), "-O", "pdf.forms=2", "-O", "answer_sheet=true")


def _quiz(lang: str, quiz_id: str) -> Quiz:
    quiz = load_quiz(CONTENT / lang / f"{quiz_id}.yaml").quiz
    assert quiz is not None
    return quiz


def _text(path: Path) -> str:
    """The text of a PDF as pypdf copies it, on one line, words separated by single spaces."""
    return " ".join(" ".join(page.extract_text() for page in PdfReader(path).pages).split())


def _asked(quiz: Quiz, form: str | None = None) -> list[Question]:
    """The questions as written that an exam asks, in its order (test_pdf_draws checks what
    it draws)."""
    by_id = {question.id: question for question in quiz.questions}
    parts = asked(quiz, Form(quiz.id, form))
    return [by_id[one.question.id] for part in parts for one in part.questions]


def _varies(question: Question) -> bool:
    """Whether the question has variables: the PDF shows a variant, not the prompt as written."""
    return bool(getattr(question, "variables", None))


def _words(markdown: str) -> str:
    return " ".join(to_plain(markdown).split())


def test_build_writes_an_exam_and_a_key_per_quiz_and_language(pdfs: Path) -> None:
    written = sorted(str(p.relative_to(pdfs)) for p in pdfs.rglob("*.pdf"))
    expected = sorted(
        f"{lang}/{quiz}{suffix}.pdf"
        for lang in LANGS
        for quiz in QUIZZES
        for suffix in ("", "-key")
    )
    assert written == expected


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("quiz", QUIZZES)
def test_every_font_is_embedded_and_subset_and_no_glyph_is_missing(
    pdfs: Path, lang: str, quiz: str
) -> None:
    for name in (quiz, f"{quiz}-key"):
        reader = PdfReader(pdfs / lang / f"{name}.pdf")
        found = fonts(reader)
        assert found
        for font, descriptor in found.items():
            assert re.match(r"/[A-Z]{6}\+", font), f"{font} is not a subset"
            embedded = {"/FontFile", "/FontFile2", "/FontFile3"} & set(descriptor or {})
            assert embedded, f"{font} is not embedded"
        drawn = set(glyph_ids(reader))
        assert len(drawn) > 50  # the glyphs were read
        assert 0 not in drawn, f"{name}: a .notdef glyph is drawn"
        if lang == "ur":
            assert any("NotoNastaliqUrdu" in font for font in found)


@pytest.mark.parametrize("lang", LANGS)
def test_pages_are_a4_numbered_and_tagged(pdfs: Path, lang: str) -> None:
    reader = PdfReader(pdfs / lang / "resuming-training-in-practice.pdf")
    assert 2 <= len(reader.pages) <= 10
    for page in reader.pages:
        assert (float(page.mediabox.width), float(page.mediabox.height)) == pytest.approx(A4, 0.01)
    assert "/StructTreeRoot" in reader.trailer["/Root"]
    last = len(reader.pages)
    said = {"en": f"Page {last} of {last}", "ur": f"صفحہ {last} از {last}"}[lang]
    if lang == "en":
        assert said in reader.pages[-1].extract_text()
    else:  # Urdu words come back in pieces (README); its digits and Latin come back whole
        assert f"{last}" in reader.pages[-1].extract_text()


@pytest.mark.parametrize("quiz_id", QUIZZES)
def test_english_text_is_copied_in_reading_order_without_answers(pdfs: Path, quiz_id: str) -> None:
    quiz = _quiz("en", quiz_id)
    exam = _text(pdfs / "en" / f"{quiz_id}.pdf")
    key = _text(pdfs / "en" / f"{quiz_id}-key.pdf")
    at = 0
    for question in _asked(quiz):
        if "$" in question.prompt or "[[" in question.prompt or "!" in question.prompt:
            continue  # a formula, a gap or an image is not the prompt's words
        if _varies(question):
            continue
        words = _words(question.prompt)
        found = exam.find(words, at)
        assert found >= 0, f"{question.id}: {words!r} not in the exam's text in order"
        at = found + len(words)
        explanation = _words(question.explanation)[:60]
        if "$" not in question.explanation and "`" not in question.explanation:
            assert explanation not in exam, f"{question.id}: the exam gives the explanation"
            assert explanation in key, f"{question.id}: the key lacks the explanation"


def test_latin_runs_in_urdu_are_copied_whole(pdfs: Path) -> None:
    text = _text(pdfs / "ur" / "resuming-training-in-practice.pdf")
    for run in ("torch.load(path)", "PyTorch 2.6", "state_dict()"):
        assert run in text


@pytest.mark.parametrize("lang", LANGS)
def test_nothing_is_drawn_outside_the_margins(pdfs: Path, lang: str, tmp_path: Path) -> None:
    dpi = 50
    for image in page_images(pdfs / lang / "resuming-training-in-practice.pdf", tmp_path, dpi):
        width, height = image.size
        edge = round(15 * MM * dpi / 72)  # the 20 mm side margins, less a little
        band = round(8 * MM * dpi / 72)  # header and footer sit in the top and bottom margins
        box = ink_box(image)
        assert box is not None
        left, top, right, bottom = box
        assert left >= edge and right <= width - edge, box
        assert top >= band and bottom <= height - band, box


def _pages_of(path: Path) -> list[str]:
    return [" ".join(page.extract_text().split()) for page in PdfReader(path).pages]


def test_a_question_is_not_split_across_pages(pdfs: Path) -> None:
    quiz = _quiz("en", "resuming-training-in-practice")
    pages = _pages_of(pdfs / "en" / "resuming-training-in-practice.pdf")
    checked = 0
    for question in _asked(quiz):
        if not isinstance(question, SingleChoice | MultipleChoice) or "$" in question.prompt:
            continue
        first = _words(question.prompt)[:40]
        last = _words(question.options[-1].text)[:30]
        on = [i for i, text in enumerate(pages) if first in text]
        assert on and last in pages[on[0]], f"{question.id} is split"
        checked += 1
    assert checked >= 4


def _question_order(path: Path, quiz: Quiz, form: str) -> list[str]:
    """The question ids in the order a PDF of a form shows their prompts."""
    text = _text(path)
    found = {
        question.id: text.find(_words(question.prompt)[:30])
        for question in _asked(quiz, form)
        if "$" not in question.prompt and "[[" not in question.prompt and not _varies(question)
    }
    assert all(at >= 0 for at in found.values()), found
    return sorted(found, key=found.__getitem__)


def test_forms_differ_in_order_and_each_key_follows_its_form(forms: Path) -> None:
    quiz_id = "resuming-training-in-practice"
    quiz = _quiz("en", quiz_id)
    orders = {}
    for form in "AB":
        exam = _question_order(forms / "en" / f"{quiz_id}-{form}.pdf", quiz, form)
        key = _question_order(forms / "en" / f"{quiz_id}-{form}-key.pdf", quiz, form)
        assert exam == key, f"form {form}'s key is not in its exam's order"
        orders[form] = exam
        first_page = PdfReader(forms / "en" / f"{quiz_id}-{form}.pdf").pages
        assert all(f"Form {form}" in page.extract_text() for page in first_page)
    assert orders["A"] != orders["B"]
    assert not (forms / "en" / f"{quiz_id}.pdf").exists()


@pytest.mark.parametrize("lang", LANGS)
def test_section_titles_are_headings_in_order_and_bookmarks(
    pdfs: Path, forms: Path, lang: str
) -> None:
    quiz_id = "resuming-training-in-practice"
    titles = [" ".join(str(s.title).split()) for s in _quiz(lang, quiz_id).sections or ()]
    assert len(titles) == 4
    for path in (
        pdfs / lang / f"{quiz_id}.pdf",
        pdfs / lang / f"{quiz_id}-key.pdf",
        forms / lang / f"{quiz_id}-B.pdf",
    ):
        outline = PdfReader(path).outline
        assert [" ".join(str(item.title).split()) for item in outline] == titles, path.name


def test_each_section_asks_its_draw_under_its_title_on_the_exam_and_every_form(
    pdfs: Path, forms: Path
) -> None:
    quiz_id = "resuming-training-in-practice"
    quiz = _quiz("en", quiz_id)
    by_id = {question.id: question for question in quiz.questions}
    sections = quiz.sections or []
    for path in (
        pdfs / "en" / f"{quiz_id}.pdf",
        *(forms / "en" / f"{quiz_id}-{form}.pdf" for form in "AB"),
    ):
        text = _text(path)
        starts = [text.find(str(section.title)) for section in sections]
        assert all(at >= 0 for at in starts) and starts == sorted(starts), (path.name, starts)
        bounds = [*starts, len(text)]
        for index, section in enumerate(sections):
            shown = [
                qid
                for qid in section.questions
                if "$" not in by_id[qid].prompt
                and not _varies(by_id[qid])
                and text.find(_words(by_id[qid].prompt)[:30]) >= 0
            ]
            for qid in shown:  # each question it asks lies under its own title
                at = text.find(_words(by_id[qid].prompt)[:30])
                assert bounds[index] < at < bounds[index + 1], (path.name, qid)
            if section.pick:
                assert len(shown) == section.pick, (path.name, section.id, shown)
    assert "What a checkpoint holds Drawn: 3 of 5 questions" in _text(
        pdfs / "en" / f"{quiz_id}-key.pdf"
    )


def test_the_key_shows_the_exam_s_variant_in_its_answer_and_formulas(pdfs: Path) -> None:
    quiz_id = "resuming-training-in-practice"
    asks = re.search(
        r"A model has ([\d.]+) billion parameters", _text(pdfs / "en" / f"{quiz_id}.pdf")
    )
    assert asks, "the exam asks adam-checkpoint-size with a number of parameters"
    params = float(asks[1])
    key = _text(pdfs / "en" / f"{quiz_id}-key.pdf")
    assert f"{params:g} billion parameters" in key
    assert f"{params * 12:g} (±0.5 accepted)" in key  # {params} * (4 + 2 * 4)
    n, times = "\U0001d441", "\u00d7"  # the formula's italic N and its multiplication sign
    assert f"{n} = {params:g} {times} 10" in key, "the explanation's formula holds the value"


def test_the_answer_sheet_is_the_last_page_of_each_form(forms: Path) -> None:
    pages = _pages_of(forms / "en" / "checkpoint-sharding-B.pdf")
    assert "Answer sheet · Form B" in pages[-1]
    assert "8. A B C D" in pages[-1]  # a row of bubbles for each choice question
    assert "Answer sheet" not in " ".join(_pages_of(forms / "en" / "checkpoint-sharding-B-key.pdf"))


def test_forms_are_the_same_in_every_build(forms: Path, tmp_path: Path) -> None:
    again = _build(tmp_path, "-O", "pdf.forms=2", "-O", "answer_sheet=true", "-l", "en")
    for path in (again / "en").glob("*.pdf"):
        assert path.read_bytes() == (forms / "en" / path.name).read_bytes(), path.name


def test_letter_paper(tmp_path: Path) -> None:
    out = _build(tmp_path, "-O", "pdf.paper=letter", "-l", "en")
    page = PdfReader(out / "en" / "checkpoint-sharding.pdf").pages[0]
    assert (float(page.mediabox.width), float(page.mediabox.height)) == (612, 792)


def test_options_out_of_range_are_refused_in_the_renderer_s_words(
    cli: Callable[..., Run], tmp_path: Path
) -> None:
    run = cli("build", str(CONTENT), "-f", "pdf", "-O", "pdf.forms=27", "-o", str(tmp_path))
    assert run.code != 0
    assert "renderer 'pdf' option 'forms'" in run.err


def test_essay_space_follows_word_limits() -> None:
    quiz = _quiz("ur", "resuming-training-in-practice")
    essays = [q for q in quiz.questions if isinstance(q, Essay)]
    assert essays and all(essay_lines(q) >= 4 for q in essays)
    short = Essay.model_validate({**essays[0].model_dump(), "max_words": 40, "min_words": None})
    long = Essay.model_validate({**essays[0].model_dump(), "max_words": 400})
    assert essay_lines(short) < essay_lines(long)


def test_without_typst_pdf_says_what_is_missing_and_other_formats_build(
    bank: Path, cli: Callable[..., Run], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "typst", None)  # `import typst` raises ImportError
    for name in [m for m in sys.modules if m.startswith("quizbank_renderers.pdf")]:
        monkeypatch.delitem(sys.modules, name)
    run = cli("build", "-f", "pdf", "-o", str(tmp_path / "a"))
    assert run.code != 0
    assert "the pdf format needs the typst package: pip install 'typst>=0.14'" in run.err
    run = cli("build", "-f", "markdown", "-o", str(tmp_path / "b"))
    assert run.code == 0, run.err
    assert (tmp_path / "b" / "markdown" / "en" / "checkpoint-sharding.md").is_file()


def test_a_missing_font_is_named_with_its_package(monkeypatch: pytest.MonkeyPatch) -> None:
    from quizbank_renderers.pdf import engine

    template = b'#set text(font: "Quizbank Missing Sans")\nHello'
    monkeypatch.setattr(engine, "TEMPLATE", template)
    monkeypatch.setitem(engine.FONT_PACKAGES, "Quizbank Missing Sans", "fonts-quizbank")
    with pytest.raises(engine.EngineError) as raised:
        engine.compile_pdf({}, {}, "a4")
    assert str(raised.value) == (
        "the pdf format needs the font Quizbank Missing Sans, which is not installed: "
        "apt-get install fonts-quizbank (or run scripts/system-deps)"
    )


def test_a_one_point_quiz_totals_one_point(cli: Callable[..., Run], tmp_path: Path) -> None:
    golden = CONTENT.parent / "tests" / "fixtures" / "golden"  # one question of one point
    run = cli("build", str(golden), "-f", "pdf", "-o", str(tmp_path))
    assert run.code == 0, run.err
    text = _text(tmp_path / "pdf" / "en" / "golden.pdf")
    assert "1 question · Total: 1 point " in text
