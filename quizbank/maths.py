"""Formulas: TeX as authors write it, checked and turned into MathML at build time.

latex2mathml (pure Python, no JavaScript at build or view time) converts; what it writes is then
parsed again and kept only if every element and attribute is MathML that draws (no links, no
styles, no scripts): `\\text{<b>}` cannot put a tag in the page. latex2mathml accepts some TeX
that means nothing (`\\frac{a}`, `\\foo`, a stray `}`): those are refused here with a reason, as
TeX itself would refuse them.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from lxml import etree

MATHML = "http://www.w3.org/1998/Math/MathML"
MAX_FORMULA = 2_000  # characters of TeX in one formula

# MathML Core's elements, and latex2mathml's few others that only draw.
_ELEMENTS = frozenset(
    {
        "math",
        "mrow",
        "mi",
        "mn",
        "mo",
        "ms",
        "mtext",
        "mspace",
        "msub",
        "msup",
        "msubsup",
        "munder",
        "mover",
        "munderover",
        "mfrac",
        "msqrt",
        "mroot",
        "mstyle",
        "mtable",
        "mtr",
        "mtd",
        "mpadded",
        "mphantom",
        "menclose",
        "merror",
        "mmultiscripts",
        "mprescripts",
        "none",
        "semantics",
        "annotation",
    }
)
_ATTRIBUTES = frozenset(
    {
        "display",
        "mathvariant",
        "stretchy",
        "fence",
        "form",
        "accent",
        "accentunder",
        "linethickness",
        "minsize",
        "maxsize",
        "width",
        "height",
        "depth",
        "lspace",
        "rspace",
        "voffset",
        "columnalign",
        "rowalign",
        "columnspan",
        "rowspan",
        "columnlines",
        "rowlines",
        "frame",
        "framespacing",
        "mathcolor",
        "mathbackground",
        "mathsize",
        "scriptlevel",
        "displaystyle",
        "notation",
        "separator",
        "largeop",
        "movablelimits",
        "symmetric",
        "linebreak",
        "columnspacing",
        "rowspacing",
        "equalrows",
        "equalcolumns",
    }
)
# Elements that TeX fills with a fixed number of parts: fewer means an argument is missing.
_PARTS = {"mfrac": 2, "mroot": 2, "msub": 2, "msup": 2, "msubsup": 3, "munder": 2, "mover": 2}
_PARTS["munderover"] = 3

# latex2mathml's errors (latex2mathml.exceptions), by name, in an author's words.
_REASONS = {
    "MissingSuperScriptOrSubscriptError": "a ^ or _ has nothing after it",
    "NoAvailableTokensError": "the formula ends where something more is needed "
    "(an argument, or a closing brace)",
    "ExtraLeftOrMissingRightError": "a \\left has no \\right",
    "MissingEndError": "a \\begin{…} has no \\end{…}",
    "DoubleSubscriptsError": "two subscripts in a row: write x_{ab}, not x_a_b",
    "DoubleSuperscriptsError": "two superscripts in a row: write x^{ab}, not x^a^b",
    "NumeratorNotFoundError": "a fraction has no numerator",
    "DenominatorNotFoundError": "a fraction has no denominator",
    "InvalidAlignmentError": "a matrix has an alignment that is not l, c or r",
    "InvalidWidthError": "a width is not a TeX length",
    "InvalidStyleForGenfracError": "\\genfrac has a style that is not 0 to 3",
    "LimitsMustFollowMathOperatorError": "\\limits must follow an operator such as \\sum",
}
_UNKNOWN_COMMAND = re.compile(r">(\\[A-Za-z]+)")


class FormulaError(ValueError):
    """A formula that is not TeX quizbank can draw; the message says why, for the author."""


def check_formula(tex: str) -> str | None:
    """Why a formula cannot be drawn, or None when it can."""
    try:
        to_mathml(tex, display=False)
    except FormulaError as exc:
        return str(exc)
    return None


@lru_cache(maxsize=4096)
def to_mathml(tex: str, *, display: bool) -> str:
    """The MathML of a TeX formula, left to right, with the TeX as its `alttext` and
    `aria-label` (what screen readers read: Chromium leaves a formula out of the name of an
    option that holds it otherwise); raises FormulaError."""
    if len(tex) > MAX_FORMULA:
        raise FormulaError(
            f"the formula is {len(tex):,} characters long; the most is {MAX_FORMULA:,}"
        )
    if not tex.strip():
        raise FormulaError("the formula is empty")
    _check_braces(tex)
    from latex2mathml.converter import convert  # imported only by a bank that has formulas
    from lxml import etree

    try:
        written = convert(tex, display="block" if display else "inline")
    except RecursionError:
        raise FormulaError("the formula is nested too deeply") from None
    except Exception as exc:  # latex2mathml's errors, and any other failure of its parser
        reason = _REASONS.get(type(exc).__name__, f"TeX that cannot be read ({exc!r})")
        raise FormulaError(reason) from None
    if found := _UNKNOWN_COMMAND.search(written):
        if found[1] == "\\end":
            raise FormulaError("an \\end{…} has no \\begin{…}")
        raise FormulaError(f"{found[1]} is not a command quizbank can draw")
    root = _parsed(written)
    root.set("alttext", tex)
    root.set("aria-label", tex)  # browsers' accessibility trees, and axe, read no alttext
    root.set("dir", "ltr")
    return etree.tostring(root, encoding="unicode")


def _check_braces(tex: str) -> None:
    """Braces that TeX would not balance (an escaped `\\{` is a character, not a group)."""
    depth = 0
    for brace in re.findall(r"\\.|[{}]", tex):
        if brace == "{":
            depth += 1
        elif brace == "}":
            depth -= 1
            if depth < 0:
                raise FormulaError("a } closes a group that was never opened")
    if depth:
        raise FormulaError("a { opens a group that is never closed")


def _parsed(written: str) -> etree._Element:
    """latex2mathml's output as a tree, refused unless it is only MathML that draws."""
    from lxml import etree

    parser = etree.XMLParser(resolve_entities=False, no_network=True, remove_comments=True)
    try:
        root = etree.fromstring(written, parser)
    except etree.XMLSyntaxError:
        raise FormulaError(
            "\\text{…} holds <, > or &, which cannot be written inside it: "
            "write \\lt, \\gt or \\& outside the \\text{…}"
        ) from None
    for element in root.iter():
        name = etree.QName(element).localname
        if not isinstance(element.tag, str) or name not in _ELEMENTS:
            raise FormulaError("\\text{…} holds <, > or &: write \\lt, \\gt or \\& outside it")
        for attribute in element.attrib:
            if attribute not in _ATTRIBUTES:
                raise FormulaError(
                    "\\href, \\style and \\class are not drawn: a formula holds no links or styles"
                )
        if (parts := _PARTS.get(name)) and len(element) < parts:
            raise FormulaError(_MISSING_PART.get(name, "a ^ or _ has nothing after it"))
        if name == "mi" and not (element.text or len(element)):
            raise FormulaError("a ^ or _ has nothing before it")
        parent = element.getparent()
        if (
            name == "mo"
            and element.text in _ACCENTS
            and parent is not None
            and parent.tag.endswith("mover")
        ):
            # latex2mathml writes \hat as an ASCII ^, which Chromium stretches over its base
            element.text = _ACCENTS[element.text]
            element.set("stretchy", "false")
    return root


_ACCENTS = {"^": "\u02c6", "~": "\u02dc"}


_MISSING_PART = {
    "mfrac": "a \\frac needs two arguments: \\frac{a}{b}",
    "mroot": "a \\sqrt[n] needs what it is the root of: \\sqrt[3]{x}",
    "munder": "\\underset or a limit has nothing under it",
    "mover": "an accent or \\overset has nothing to go over",
}
