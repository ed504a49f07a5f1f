"""Latin runs in right-to-left text (issue 27, X1 and X2), as exact characters: a superscript
digit stays in its number's isolation (`10⁹`, not `⁹10`), and every plain-text label (a
drop-down's choice, a match's answer), which can hold no markup, isolates its Latin runs with
U+2066 LEFT-TO-RIGHT ISOLATE … U+2069 POP DIRECTIONAL ISOLATE, in every format. Left-to-right
outputs get no isolates. tests/test_bidi_browser.py measures what Chromium draws."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest
from conftest import REPO
from quizbank_renderers import markdown_rtl

from quizbank.build import BuildRequest, build
from quizbank.markup import plain_label, to_html
from quizbank.registry import discover_renderers

LRI, FSI, PDI = "\u2066", "\u2068", "\u2069"
QUIZ = "resuming-training-in-practice"
# mid-epoch-gaps, gap 1, option c: the review's `()loss.backward` drop-down choice.
GAP_CHOICE = f"{LRI}loss.backward(){PDI} اور {LRI}optimizer.step(){PDI} کے درمیان"
# state-calls: a match with a Latin word in brackets.
MATCH = f"ہر پیرامیٹر کی حالت (جیسے {LRI}Adam{PDI} کے مومنٹ کے تخمینے) اور پیرامیٹر گروپس کی سیٹنگز"


# --- X1: superscript digits ------------------------------------------------------------------


@pytest.mark.parametrize("power", ["10⁹", "10²", "2³²", "10¹⁰", "x₁"])
def test_a_superscript_digit_is_in_its_numbers_isolation(power: str) -> None:
    text = f"یعنی {power} بائٹس"
    assert to_html(text, "ur", inline=True) == f'یعنی <bdi lang="en">{power}</bdi> بائٹس'
    assert markdown_rtl.isolated(text, True) == f"یعنی {LRI}{power}{PDI} بائٹس"
    assert plain_label(text, "ur") == f"یعنی {LRI}{power}{PDI} بائٹس"


# --- X2: the shared function -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "label"),
    [
        ("`loss.backward()` اور `optimizer.step()` کے درمیان", GAP_CHOICE),
        ("شیڈیول میں مقام (جیسے `last_epoch`)", f"شیڈیول میں مقام (جیسے {LRI}last_epoch{PDI})"),
        (
            "فائل model.safetensors.index.json، پھر",
            f"فائل {LRI}model.safetensors.index.json{PDI}، پھر",
        ),
        ("قدر $\\frac{3}{2}$ ہے", f"قدر {LRI}\\frac{{3}}{{2}}{PDI} ہے"),
        ("صرف اردو", "صرف اردو"),
        ("**یہ** ![ایک شکل](a.png) ہے", "یہ ایک شکل ہے"),
    ],
)
def test_a_plain_label_isolates_its_latin_runs_and_formulas(text: str, label: str) -> None:
    assert plain_label(text, "ur") == label


def test_a_left_to_right_label_is_its_plain_text() -> None:
    text = "`loss.backward()` and $\\frac{3}{2}$"
    assert plain_label(text, "en") == "loss.backward() and \\frac{3}{2}"


# --- X2: in every format ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def out(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("labels") / "dist"
    formats = ["html", "moodle", "gift", "qti3", "qti12"]
    request = BuildRequest(
        paths=[REPO / "content"], out_dir=folder, formats=formats, use_cache=False
    )
    assert not build(request, discover_renderers()).report.has_errors
    return folder


def _read(out: Path, fmt: str, lang: str) -> str:
    """Every text a format wrote for the quiz in `lang` (a package's files joined)."""
    folder = out / fmt / lang
    [path] = [p for p in folder.iterdir() if p.stem == QUIZ]
    if path.suffix != ".zip":
        return path.read_text("utf-8")
    with zipfile.ZipFile(path) as package:
        return "\n".join(
            package.read(name).decode("utf-8")
            for name in package.namelist()
            if name.endswith(".xml")
        )


@pytest.mark.parametrize(
    ("fmt", "labels"),
    [
        ("html", [f">{GAP_CHOICE}</option>", f">{MATCH}</option>"]),
        ("moodle", [f"~{GAP_CHOICE}#", f"<text><![CDATA[{MATCH}]]></text>"]),
        ("gift", [f"-> {MATCH}"]),
        ("qti3", [f">{GAP_CHOICE}</qti-inline-choice>"]),
        ("qti12", [f'<mattext texttype="text/plain">{MATCH}</mattext>']),
    ],
)
def test_every_plain_label_isolates_its_latin_runs(out: Path, fmt: str, labels: list[str]) -> None:
    written = _read(out, fmt, "ur")
    for label in labels:
        assert label in written, (fmt, label)


@pytest.mark.parametrize("fmt", ["html", "moodle", "gift", "qti3", "qti12"])
def test_left_to_right_files_have_no_isolates(out: Path, fmt: str) -> None:
    written = _read(out, fmt, "en")
    assert not {LRI, FSI, PDI} & set(written)
