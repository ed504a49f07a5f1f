"""No TeX reaches an LMS's MathJax that quizbank did not check (issue 32, item 5).

Moodle XML, GIFT and QTI 1.2 carry a formula as its TeX between `\\(…\\)`, for the LMS's
MathJax to typeset. latex2mathml writes a `\\text{…}` as it is, but MathJax reads math
delimiters inside it, and then any command, `\\href` among them: so a formula may hold no
delimiter, a `\\text{…}` no command, and no formula a command that quizbank refuses elsewhere;
each refusal names its cause. A text may not hold a literal `\\(` or `\\[` (or `$$`) either,
which MathJax would typeset as a formula quizbank never saw.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
import yaml
from conftest import Run

from quizbank.maths import check_formula

LINK = "\\href, \\style and \\class are not drawn: a formula holds no links or styles"


@pytest.mark.parametrize(
    ("tex", "reason"),
    [
        (
            "\\text{\\(\\href{javascript:alert(1)}{x}\\)}",
            "\\text{…} holds \\(, which starts a formula inside the text where an LMS "
            "typesets formulas: write the formula outside the \\text{…}",
        ),
        (
            "\\text{$\\href{javascript:alert(1)}{x}$}",
            "\\text{…} holds $, which starts a formula inside the text where an LMS "
            "typesets formulas: write the formula outside the \\text{…}, and \\$ for a "
            "dollar sign",
        ),
        (
            "\\mbox{\\[x\\]}",
            "\\mbox{…} holds \\[, which starts a formula inside the text where an LMS "
            "typesets formulas: write the formula outside the \\mbox{…}",
        ),
        (
            "\\text{see \\alpha}",
            "\\text{…} holds \\alpha: a \\text{…} is words only where an LMS typesets "
            "formulas; write \\alpha outside it",
        ),
        (
            "\\text{costs \\$5}",
            "\\text{…} holds \\$: a \\text{…} is words only where an LMS typesets "
            "formulas; write \\$ outside it",
        ),
        ("\\text{\\href{javascript:alert(1)}{x}}", LINK),
        ("\\href{javascript:alert(1)}{x}", LINK),
        ("\\unicode{x}", "\\unicode is not drawn: write the character itself"),
        ("\\unicode{65}", "\\unicode is not drawn: write the character itself"),
        ("\\text{\\unicode{x}}", "\\unicode is not drawn: write the character itself"),
        ("\\url{javascript:alert(1)}", "\\url is not drawn: a formula holds no links or styles"),
        ("\\cssId{a}{x}", "\\cssId is not drawn: a formula holds no links or styles"),
        (
            "\\def\\x{y} \\x",
            "\\def defines a command, which an LMS would typeset unchecked: write the "
            "formula out in full",
        ),
        (
            "\\newcommand{\\x}{y}",
            "\\newcommand defines a command, which an LMS would typeset unchecked: write the "
            "formula out in full",
        ),
        (
            "\\require{html}",
            "\\require loads an extension into an LMS's typesetting: delete it",
        ),
        (
            "a \\( b",
            "\\( starts or ends a formula where an LMS typesets formulas: it cannot be "
            "written inside one",
        ),
        (
            "a \\] b",
            "\\] starts or ends a formula where an LMS typesets formulas: it cannot be "
            "written inside one",
        ),
        (
            "\\color{red;background:url(x)}{y}",
            "\\color's colour 'red;background:url(x)' is not a colour: write a name, as red, "
            "or #rgb, as #c00",
        ),
    ],
)
def test_tex_that_an_lms_would_read_otherwise_is_refused_for_its_cause(
    tex: str, reason: str
) -> None:
    assert check_formula(tex) == reason


@pytest.mark.parametrize(
    ("tex", "reason"),
    [
        (
            "a & b",
            "an & separates the columns of a matrix: outside \\begin{matrix}…\\end{matrix}, "
            "write \\& for an ampersand",
        ),
        ("{" * 300 + "x" + "}" * 300, "the formula is nested too deeply"),
        (
            "\\text{a<b} + \\text{&}",
            "\\text{…} holds <, > or &, which cannot be written inside it: "
            "write \\lt, \\gt or \\& outside the \\text{…}",
        ),
    ],
)
def test_tex_that_is_no_mathml_is_refused_for_its_cause(tex: str, reason: str) -> None:
    assert check_formula(tex) == reason


@pytest.mark.parametrize(
    "tex",
    [
        "\\text{for all } x",
        "\\text{costs } \\$5 \\& \\text{more, } 50\\%",
        "\\textbf{bold} + \\mathrm{d}x",
        "\\color{red}{x} + \\color{#c00}{y} + \\colorbox{yellow}{z}",
        "\\{ x \\mid x > 0 \\}",
        "a \\\\ b",
        "\\$5",
        "\\frac{a}{b}",
    ],
)
def test_ordinary_tex_still_draws(tex: str) -> None:
    assert check_formula(tex) is None


def _quiz(root: Path, prompt: str) -> Path:
    folder = root / "content" / "en"
    folder.mkdir(parents=True)
    path = folder / "plain.yaml"
    data = {
        "id": "plain",
        "lang": "en",
        "title": "Delimiters",
        "description": "A text with a literal delimiter.",
        "level": "beginner",
        "questions": [
            {
                "id": "q",
                "type": "true_false",
                "prompt": prompt,
                "answer": True,
                "explanation": "Because.",
            }
        ],
    }
    path.write_text(yaml.safe_dump(data, sort_keys=False, width=1000), "utf-8")
    return path


@pytest.mark.parametrize(
    ("prompt", "delimiter"),
    [
        ("Is \\\\(\\href{javascript:alert(1)}{x}\\\\) a link?", "\\("),
        ("Is \\\\[x\\\\] shown?", "\\["),
        ("Is &#92;(x&#92;) shown?", "\\("),
        ("Is \\$\\$x\\$\\$ shown?", "$$"),
        ("Is *\\\\*(x) shown?", "\\("),
    ],
)
def test_a_literal_delimiter_in_a_text_is_refused_at_its_line(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    cli: Callable[..., Run],
    prompt: str,
    delimiter: str,
) -> None:
    path = _quiz(tmp_path, prompt)
    monkeypatch.chdir(tmp_path)
    line = path.read_text("utf-8").splitlines().index(f"  prompt: {prompt}") + 1
    run = cli("validate")
    assert run.code == 1, run.out
    [error] = run.errors
    assert error.startswith(f"content/en/plain.yaml:{line}:"), error
    assert error.endswith(
        f"question 1 (q), prompt: the text shows {delimiter}, which an LMS that typesets "
        "formulas reads as the start of one that quizbank never checked: write the formula "
        "as $…$, or the characters inside `code`"
    ), error


@pytest.mark.parametrize(
    "prompt",
    [
        "Is `\\(x\\)` code?",
        "Is $x$ a formula, and $$y$$ one too?",
        "Does \\(x\\) read as (x)?",
        "Is a \\\\ backslash fine?",
        "Costs $5 and $7.",
    ],
)
def test_code_formulas_and_escapes_are_no_literal_delimiter(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cli: Callable[..., Run], prompt: str
) -> None:
    _quiz(tmp_path, prompt)
    monkeypatch.chdir(tmp_path)
    run = cli("validate")
    assert run.code == 0, run.out
