"""How the questions fall on pages: the exam keeps each question whole on a page (a candidate
answers it there), the key lets an entry run on to the next page (it is read, not answered)
and so fills its pages."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from pdf_readers import MM, page_images
from PIL import Image
from pypdf import PdfReader

from quizbank.cli import main

pytestmark = pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="needs poppler-utils")

DPI = 50
MARGIN_Y = 22 * MM  # the template's top and bottom margins


def _sentences(label: str, count: int) -> str:
    return " ".join(
        f"{label} sentence {n} says the checkpoint of step {n} holds the model and optimizer."
        for n in range(count)
    )


def _quiz(questions: int) -> str:
    lines = [
        "id: long",
        "lang: en",
        "title: Long questions",
        "description: Questions whose key entries are about half a page each.",
        "level: beginner",
        "questions:",
    ]
    for q in range(questions):
        lines += [
            f"  - id: q{q}",
            "    type: single_choice",
            f"    prompt: Question {q} opens. {_sentences(f'Prompt{q}', 1)} Question {q} ends?",
            "    options:",
            *(
                f"      - {{id: {o}, text: 'Option{q}{o} {_sentences('Option', 2)} Option{q}{o} ends.'}}"
                for o in "abcd"
            ),
            "    answer: a",
            f"    explanation: Explanation {q} opens. {_sentences(f'Why{q}', 18)} Explanation {q} ends.",
        ]
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("pages")
    (root / "content" / "en").mkdir(parents=True)
    (root / "content" / "en" / "long.yaml").write_text(_quiz(8), "utf-8")
    assert main(["build", str(root / "content"), "-f", "pdf", "-o", str(root / "out")]) == 0
    return root / "out" / "pdf" / "en"


def _pages(path: Path) -> list[str]:
    return [" ".join(page.extract_text().split()) for page in PdfReader(path).pages]


def _lowest_ink(image: Image.Image) -> float:
    """How far above the bottom margin the body's ink ends, in millimetres."""
    margin = round(MARGIN_Y * DPI / 72)
    body = image.crop((0, margin, image.width, image.height - margin))
    box = body.point(lambda value: 255 if value < 200 else 0).getbbox()
    assert box is not None
    return (body.height - box[3]) / DPI * 25.4


def test_the_exam_keeps_each_question_on_one_page(built: Path) -> None:
    pages = _pages(built / "long.pdf")
    assert len(pages) > 2
    for q in range(8):
        [page] = [text for text in pages if f"Question {q} opens." in text]
        assert f"Option{q}d ends." in page, f"question {q} is split"


def test_the_key_runs_an_entry_on_to_the_next_page_and_fills_its_pages(
    built: Path, tmp_path: Path
) -> None:
    key = built / "long-key.pdf"
    pages = _pages(key)
    split = [
        q
        for q in range(8)
        for n, text in enumerate(pages)
        if f"Question {q} opens." in text
        and f"Explanation {q} ends." not in text
        and n + 1 < len(pages)
        and f"Explanation {q} ends." in pages[n + 1]
    ]
    assert split, "no key entry runs on to the next page"
    images = page_images(key, tmp_path, DPI)
    for number, image in enumerate(images[:-1], 1):
        assert _lowest_ink(image) < 25, f"page {number} of the key ends half empty"
