"""Compare PDF engines for the `pdf` format on the bundled quizzes: Typst (what quizbank uses),
WeasyPrint (HTML and CSS through Pango and HarfBuzz, printing the HTML export) and Chromium's
print to PDF (the reference for Nastaliq).

    .venv/bin/python benchmarks/pdf_engines.py [OUTDIR]

Needs `pip install weasyprint` (not a dependency of quizbank) and Chromium with Playwright.
Prints, per engine and language: seconds to set both quizzes; the share of the distinct Urdu
words of the quizzes that come back whole when the PDF's text is copied out (by poppler's
pdftotext and by pypdf); and Nastaliq fidelity: the title of each Urdu quiz set alone at 28 pt
on one line, its ink compared with Chromium's drawing of the same text (intersection over union
of the ink, both scaled to Chromium's box; 1.0 is the same drawing).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from PIL import Image, ImageChops
from playwright.sync_api import sync_playwright
from pypdf import PdfReader

from quizbank.cli import main
from quizbank.loader import load_quiz
from quizbank.markup import to_plain

ROOT = Path(__file__).resolve().parent.parent
CONTENT = Path(os.environ.get("QUIZBANK_CONTENT", ROOT / "content"))  # another bank
QUIZZES = ("checkpoint-sharding", "resuming-training-in-practice")
ARABIC_WORD = re.compile(r"[\u0600-\u06FF\u0750-\u077F]+")
TITLE_HTML = (
    '<!doctype html><html lang="ur" dir="rtl"><meta charset="utf-8"><style>'
    "@page{{size:600mm 150mm;margin:20mm}}"
    '@font-face{{font-family:N;src:local("Noto Nastaliq Urdu Regular")}}'
    "body{{margin:0;font:28pt/2.2 N}}</style><p>{text}</p></html>"
)
TITLE_TYPST = (
    "#set page(width: 600mm, height: 150mm, margin: 20mm)\n"
    '#set text(font: "Noto Nastaliq Urdu", size: 28pt, dir: rtl, lang: "ur")\n'
    "#sys.inputs.text\n"
)


def urdu_words() -> set[str]:
    words: set[str] = set()
    for quiz_id in QUIZZES:
        quiz = load_quiz(CONTENT / "ur" / f"{quiz_id}.yaml").quiz
        assert quiz is not None
        for question in quiz.questions:
            words.update(ARABIC_WORD.findall(to_plain(question.prompt)))
    return words


def recall(pdfs: list[Path], words: set[str]) -> tuple[float, float]:
    """The share of `words` found whole in the text copied out by pdftotext and by pypdf."""
    poppler, pypdf = set(), set()
    for pdf in pdfs:
        text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True).stdout
        poppler.update(ARABIC_WORD.findall(text))
        pypdf.update(ARABIC_WORD.findall(" ".join(p.extract_text() for p in PdfReader(pdf).pages)))
    return len(words & poppler) / len(words), len(words & pypdf) / len(words)


def ink(png: Path) -> Image.Image:
    image = Image.open(png).convert("L").point(lambda v: 255 if v < 128 else 0)
    box = image.getbbox()
    assert box, png
    return image.crop(box)


def iou(image: Image.Image, reference: Image.Image) -> float:
    scaled = image.resize(reference.size).point(lambda v: 255 if v >= 128 else 0)
    both = ImageChops.logical_and(scaled.convert("1"), reference.convert("1"))
    either = ImageChops.logical_or(scaled.convert("1"), reference.convert("1"))
    return sum(both.get_flattened_data()) / max(1, sum(either.get_flattened_data()))


def rasterise(pdf: Path, stem: Path) -> Path:
    subprocess.run(["pdftoppm", "-r", "100", "-f", "1", "-l", "1", "-png", str(pdf), str(stem)])
    return next(stem.parent.glob(f"{stem.name}-*1.png"))


def main_(out: Path) -> None:
    import typst
    import weasyprint

    out.mkdir(parents=True, exist_ok=True)
    words = urdu_words()
    print(f"{len(words)} distinct Urdu words in the prompts of the bundled quizzes")
    main(["build", str(CONTENT), "-f", "html", "-o", str(out / "dist"), "--no-cache", "-j", "1"])
    rows = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium")
        page = browser.new_page()
        for lang in ("en", "ur"):
            started = time.perf_counter()
            main(["build", str(CONTENT), "-f", "pdf", "-l", lang, "-o", str(out / "typst"),
                  "--no-cache", "-j", "1"])  # fmt: skip
            typst_time = time.perf_counter() - started
            typst_pdfs = sorted((out / "typst" / "pdf" / lang).glob("*.pdf"))
            weasy_pdfs, chrome_pdfs = [], []
            started = time.perf_counter()
            for quiz_id in QUIZZES:
                html = out / "dist" / "html" / lang / f"{quiz_id}.html"
                target = out / f"weasy-{lang}-{quiz_id}.pdf"
                weasyprint.HTML(filename=str(html)).write_pdf(target)
                weasy_pdfs.append(target)
            weasy_time = time.perf_counter() - started
            started = time.perf_counter()
            for quiz_id in QUIZZES:
                html = out / "dist" / "html" / lang / f"{quiz_id}.html"
                target = out / f"chrome-{lang}-{quiz_id}.pdf"
                page.goto(html.as_uri())
                page.pdf(path=str(target), format="A4")
                chrome_pdfs.append(target)
            chrome_time = time.perf_counter() - started
            for name, seconds, pdfs in (
                ("typst (exam + key)", typst_time, typst_pdfs),
                ("weasyprint (HTML export)", weasy_time, weasy_pdfs),
                ("chromium (HTML export)", chrome_time, chrome_pdfs),
            ):
                found = recall(pdfs, words) if lang == "ur" else None
                rows.append((lang, name, seconds, found))
        fidelity: dict[str, list[float]] = {"typst": [], "weasyprint": []}
        for n, quiz_id in enumerate(QUIZZES):
            quiz = load_quiz(CONTENT / "ur" / f"{quiz_id}.yaml").quiz
            assert quiz is not None
            title = quiz.title
            html = out / f"title-{n}.html"
            html.write_text(TITLE_HTML.format(text=title), encoding="utf-8")
            page.goto(html.as_uri())
            page.pdf(path=str(out / f"title-chrome-{n}.pdf"), prefer_css_page_size=True)
            weasyprint.HTML(filename=str(html)).write_pdf(out / f"title-weasyprint-{n}.pdf")
            source = TITLE_TYPST.encode()
            pdf = typst.compile(source, sys_inputs={"text": title})
            (out / f"title-typst-{n}.pdf").write_bytes(pdf)
            reference = ink(rasterise(out / f"title-chrome-{n}.pdf", out / f"chrome-{n}"))
            for engine in fidelity:
                drawn = ink(rasterise(out / f"title-{engine}-{n}.pdf", out / f"{engine}-{n}"))
                fidelity[engine].append(iou(drawn, reference))
        browser.close()
    print(f"{'lang':5} {'engine':26} {'seconds':>8} {'pdftotext':>10} {'pypdf':>7}")
    for lang, name, seconds, found in rows:
        shares = f"{found[0]:10.0%} {found[1]:7.0%}" if found else f"{'':10} {'':7}"
        print(f"{lang:5} {name:26} {seconds:8.2f} {shares}")
    for engine, scores in fidelity.items():
        shown = ", ".join(f"{score:.2f}" for score in scores)
        print(f"Nastaliq titles, ink overlap with Chromium's: {engine}: {shown}")


if __name__ == "__main__":
    main_(Path(sys.argv[1]) if len(sys.argv) > 1 else Path(tempfile.mkdtemp()))
