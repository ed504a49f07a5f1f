"""Formulas on paper: every formula that validates is drawn by Typst as mathematics, or, should
Typst refuse what the converter wrote of it, shown as its TeX in monospace with a warning that
names it: never a failed build."""

from __future__ import annotations

import importlib.util
import random
import re
import shutil
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from types import ModuleType

import latex2mathml
import latex2mathml.commands
import pytest
import typst
from conftest import REPO, Run
from pdf_readers import fonts
from pypdf import PdfReader
from quizbank_renderers.pdf import maths as pdf_maths
from quizbank_renderers.pdf.maths import to_typst

from quizbank.maths import check_formula

pytestmark = pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="needs poppler-utils")


def _load_script(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, REPO / "scripts" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up while the class is made
    spec.loader.exec_module(module)
    return module


def _refused(sources: Iterable[str]) -> dict[str, str]:
    """The Typst maths sources that Typst refuses, each with its error: one document of them
    all, then halves of a refused document until each refused source stands alone."""
    page = '#for f in sys.inputs.keys().sorted() { $ #eval(sys.inputs.at(f), mode: "math") $ }'

    def refusal(batch: list[str]) -> str | None:
        inputs = {f"{n:06}": source for n, source in enumerate(batch)}
        try:
            typst.compile(page.encode(), sys_inputs=inputs)
        except typst.TypstError as exc:
            return str(exc)
        return None

    found: dict[str, str] = {}
    batches = [sorted(set(sources))]
    while batches:
        batch = batches.pop()
        if (why := refusal(batch)) is None:
            continue
        if len(batch) == 1:
            found[batch[0]] = why
        else:
            batches += [batch[: len(batch) // 2], batch[len(batch) // 2 :]]
    return found


def _commands() -> list[str]:
    """Every command latex2mathml knows (its tables and its symbol list)."""
    names: set[str] = set()
    for value in vars(latex2mathml.commands).values():
        if isinstance(value, str):
            value = (value,)
        if isinstance(value, Iterable):
            names.update(v for v in value if isinstance(v, str) and v.startswith("\\"))
    symbols = Path(latex2mathml.__file__).parent / "unimathsymbols.txt"
    names.update(re.findall(r"\\[A-Za-z]+", symbols.read_text("utf-8")))
    return sorted(names)


def _accepted_formulas(count: int, seed: int) -> list[str]:
    formulas = _load_script("fuzz_formulas")
    rng = random.Random(seed)
    found: list[str] = []
    while len(found) < count:
        tex = formulas.random_formula(rng, hostile=rng.random() < 0.3)
        if check_formula(tex) is None:
            found.append(tex)
    return found


NAMED = [
    r"\forall x",
    r"x \forall y",
    r"\exists! y",
    r"\operatorname{foo} x",
    r"\operatorname{a b}",
    r"\operatorname{xforall}\alpha",
    r"\lim_{n \to \infty} a_n",
    r"\max(a, b)",
    r"\text{for all } x",
    r"\mathrm{d}x",
    r"\hat{x} + \overline{ab}",
    r"\sum_{i=1}^{n} i",
    r"1.5e3",
    r"\left. x \right|_{0}^{1}",
    r"\begin{pmatrix} a & b \\ c & d \end{pmatrix}",
    r"\binom{n}{k}",
    r"\sqrt[3]{x}",
    r"a \, b \; c \quad d",
    r"f'(x) \geq 0",
    r"\{x \mid x > 0\}",
    r"\#\$\%\&\_",
    r"a\lceil_{b}^{c}",
    r"\langle x, y \rangle",
    r"\cuberoot",
    r"x \mid y",
]


@pytest.mark.parametrize("display", [False, True])
def test_named_formulas_are_set_by_typst(display: bool) -> None:
    assert all(check_formula(tex) is None for tex in NAMED)
    refused = _refused(to_typst(tex, display=display) for tex in NAMED)
    assert refused == {}


def test_fuzzed_formulas_that_validate_are_set_by_typst() -> None:
    """600 formulas of the fuzzer's generator that quizbank's check accepts, ordinary and
    hostile, inline and displayed."""
    sources = [
        to_typst(tex, display=n % 2 == 1) for n, tex in enumerate(_accepted_formulas(600, seed=29))
    ]
    refused = _refused(sources)
    assert refused == {}, "\n".join(f"{s!r}: {why}" for s, why in list(refused.items())[:10])


def test_every_command_latex2mathml_knows_is_set_by_typst() -> None:
    """Each command alone, with two arguments and with scripts, where quizbank accepts it."""
    shapes = ["{c}", "{c}{{x}}{{y}}", "a{c}_{{b}}^{{c}}"]
    accepted = [
        tex
        for command in _commands()
        for shape in shapes
        if check_formula(tex := shape.format(c=command)) is None
    ]
    assert len(accepted) > 3000
    refused = _refused(to_typst(tex, display=False) for tex in accepted)
    assert refused == {}, "\n".join(f"{s!r}: {why}" for s, why in list(refused.items())[:10])


QUIZ = """\
id: maths
lang: en
title: Formulas
description: Formulas that Typst once refused.
level: beginner
questions:
"""
QUESTION = """\
  - id: q{n}
    type: true_false
    prompt: 'Is ${tex}$ written here?'
    answer: true
    explanation: 'It is: ${tex}$.'
"""


def _bank(root: Path, formulas: list[str]) -> Path:
    content = root / "content"
    (content / "en").mkdir(parents=True)
    questions = "".join(QUESTION.format(n=n, tex=tex) for n, tex in enumerate(formulas))
    (content / "en" / "maths.yaml").write_text(QUIZ + questions, "utf-8")
    return content


def _text(path: Path) -> str:
    return " ".join(" ".join(page.extract_text() for page in PdfReader(path).pages).split())


def test_a_bank_of_formulas_typst_once_refused_builds(
    cli: Callable[..., Run], tmp_path: Path
) -> None:
    content = _bank(tmp_path, [r"\forall x", r"\operatorname{foo} x"])
    run = cli("build", str(content), "-f", "pdf", "-o", str(tmp_path / "out"))
    assert run.code == 0, run.err
    assert "warning" not in run.out + run.err
    text = _text(tmp_path / "out" / "pdf" / "en" / "maths.pdf")
    assert "∀" in text and "foo" in text


def test_a_formula_typst_refuses_is_shown_as_tex_in_monospace_with_a_warning(
    cli: Callable[..., Run], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Should the converter write maths Typst refuses, the PDF shows the formula's TeX."""
    original = pdf_maths._WRITERS["mi"]

    def broken(element: object) -> str:  # an identifier Typst does not know
        return "nosuchvariable" if getattr(element, "text", "") == "q" else original(element)  # type: ignore[arg-type]

    monkeypatch.setitem(pdf_maths._WRITERS, "mi", broken)
    pdf_maths.to_typst.cache_clear()
    content = _bank(tmp_path, [r"\frac{q}{2}", r"\forall x"])
    try:
        run = cli("build", str(content), "-f", "pdf", "-o", str(tmp_path / "out"))
    finally:
        pdf_maths.to_typst.cache_clear()
    assert run.code == 0, run.err
    said = run.out + run.err
    assert "pdf: question 1 (q0) shows the formula $\\frac{q}{2}$ as its TeX" in said
    assert "q1" not in said
    for name in ("maths.pdf", "maths-key.pdf"):
        path = tmp_path / "out" / "pdf" / "en" / name
        assert "\\frac{q}{2}" in _text(path)
        assert any("DejaVuSansMono" in font for font in fonts(PdfReader(path)))
    run = cli("build", str(content), "-f", "pdf", "--strict", "-o", str(tmp_path / "strict"))
    assert run.code == 1
