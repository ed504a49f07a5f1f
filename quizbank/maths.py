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
    _check_for_mathjax(tex)
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


# TeX as MathJax reads it: a control word (`\\tag*` too), a control symbol, a brace or a `$`.
_TOKEN = re.compile(r"\\(?:[A-Za-z]+\*?|.)|[{}$]", re.DOTALL)
# What starts or ends a formula where an LMS typesets TeX: inside one, it would end quizbank's
# formula and start one quizbank never saw.
_DELIMITERS = frozenset({"$", "\\(", "\\)", "\\[", "\\]"})
_LINK = "\\href, \\style and \\class are not drawn: a formula holds no links or styles"
_DEFINES = "defines a command, which an LMS would typeset unchecked: write the formula out in full"
# Commands that MathJax would obey and quizbank does not draw, each with the author's reason.
_REFUSED = {
    **dict.fromkeys(("\\href", "\\style", "\\class"), _LINK),
    **{
        name: f"{name} is not drawn: a formula holds no links or styles"
        for name in [
            r"\url",
            r"\cssId",
            r"\html",
            r"\data",
            r"\mmlToken",
            r"\texttip",
            r"\mathtip",
            r"\toggle",
            r"\htmlClass",
            r"\htmlStyle",
            r"\htmlId",
            r"\htmlData",
        ]
    },
    "\\unicode": "\\unicode is not drawn: write the character itself",
    "\\require": "\\require loads an extension into an LMS's typesetting: delete it",
    **{
        name: f"{name} {_DEFINES}"
        for name in [
            r"\def",
            r"\gdef",
            r"\edef",
            r"\xdef",
            r"\let",
            r"\newcommand",
            r"\renewcommand",
            r"\newenvironment",
            r"\renewenvironment",
            r"\DeclareMathOperator",
        ]
    },
}
# The arguments of commands that MathJax reads as text or as a colour (`t`, `c`), in order.
_ARGUMENTS = {
    **dict.fromkeys(
        [
            r"\text",
            r"\textrm",
            r"\textbf",
            r"\textit",
            r"\textmd",
            r"\textnormal",
            r"\textsf",
            r"\texttt",
            r"\textup",
            r"\emph",
            r"\mbox",
            r"\hbox",
            r"\fbox",
            r"\tag",
            r"\tag*",
        ],
        "t",
    ),
    "\\color": "c",
    "\\textcolor": "c",
    "\\colorbox": "ct",
    "\\fcolorbox": "cct",
}
_COLOUR = re.compile(r"\s*(?:[A-Za-z]+|#[0-9A-Fa-f]{3}|#[0-9A-Fa-f]{6})\s*")


def _check_for_mathjax(tex: str) -> None:
    """TeX that an LMS's MathJax would read otherwise than latex2mathml draws it: a formula
    delimiter anywhere, a command inside a text argument (which latex2mathml writes as it is),
    a command quizbank refuses, a colour that is not one."""
    text_of: list[str] = []  # for each open group, the command whose text it is, or ""
    command = ""  # the last command, whose arguments `awaited` lists by kind
    awaited = ""
    after = 0  # where that command, or its last argument, ended
    for match in _TOKEN.finditer(tex):
        token = match[0]
        text = next((name for name in reversed(text_of) if name), "")
        if token in _DELIMITERS:
            if not text:
                raise FormulaError(
                    f"{token} starts or ends a formula where an LMS typesets formulas: it cannot "
                    "be written inside one"
                )
            dollar = ", and \\$ for a dollar sign" if token == "$" else ""
            raise FormulaError(
                f"{text}{{…}} holds {token}, which starts a formula inside the text where an LMS "
                f"typesets formulas: write the formula outside the {text}{{…}}{dollar}"
            )
        if token in _REFUSED:
            raise FormulaError(_REFUSED[token])
        if token == "{":
            kind = ""
            if awaited and not tex[after : match.start()].strip():
                kind, awaited = awaited[0], awaited[1:]
                if kind == "c":
                    _check_colour(command, tex, match.end())
            else:
                awaited = ""
            text_of.append(command if kind == "t" else text)
        elif token == "}":
            if text_of:
                text_of.pop()
            after = match.end()
        elif text:
            raise FormulaError(
                f"{text}{{…}} holds {token}: a {text}{{…}} is words only where an LMS typesets "
                f"formulas; write {token} outside it"
            )
        else:
            command, awaited, after = token, _ARGUMENTS.get(token, ""), match.end()


def _check_colour(command: str, tex: str, start: int) -> None:
    """The colour argument that starts at `start` is a colour's name or #rgb, nothing more."""
    end = tex.find("}", start)
    colour = tex[start:end] if end >= 0 else tex[start:]
    if not _COLOUR.fullmatch(colour):
        raise FormulaError(
            f"{command}'s colour {colour!r} is not a colour: write a name, as red, or #rgb, as #c00"
        )


def _parsed(written: str) -> etree._Element:
    """latex2mathml's output as a tree, refused unless it is only MathML that draws."""
    from lxml import etree

    parser = etree.XMLParser(resolve_entities=False, no_network=True, remove_comments=True)
    try:
        root = etree.fromstring(written, parser)
    except etree.XMLSyntaxError as exc:
        raise FormulaError(_unwritable(written, exc)) from None
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


def _unwritable(written: str, error: etree.XMLSyntaxError) -> str:
    """Why latex2mathml wrote no XML: a raw `<`, `>` or `&` in a text, a stray `&`, or depth."""
    if "depth" in error.msg:
        return "the formula is nested too deeply"
    opened = _OPENED.findall(written[: error.position[1]])
    if "&" in written and (not opened or opened[-1] != "mtext"):
        return (
            "an & separates the columns of a matrix: outside \\begin{matrix}…\\end{matrix}, "
            "write \\& for an ampersand"
        )
    return (
        "\\text{…} holds <, > or &, which cannot be written inside it: "
        "write \\lt, \\gt or \\& outside the \\text{…}"
    )


_OPENED = re.compile(r"<(m[a-z]+)[^<>]*>")
_ACCENTS = {"^": "\u02c6", "~": "\u02dc"}


_MISSING_PART = {
    "mfrac": "a \\frac needs two arguments: \\frac{a}{b}",
    "mroot": "a \\sqrt[n] needs what it is the root of: \\sqrt[3]{x}",
    "munder": "\\underset or a limit has nothing under it",
    "mover": "an accent or \\overset has nothing to go over",
}
