"""Formulas for Typst: the MathML that quizbank.maths makes of an author's TeX, as Typst maths.

quizbank checks every formula when a quiz is validated and converts it to MathML once
(`quizbank.maths.to_mathml`); this module walks that tree, so the PDF draws exactly the formula
the other exports show. A leaf of one character stands for itself (a letter or digit as it is,
any other character backslash-escaped); a longer one (`sin`, `2.5`, a text, an
operator's name) is a string between quotes, which Typst sets whole, so that two letters are
never read as a variable's name. Structure is written as Typst's functions (`frac`, `attach`,
`sqrt`, `root`, `lr`, `mat`, `op`), an element with other parts than its kind takes as a row:
nothing an author writes can become Typst code.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from lxml import etree

from quizbank.maths import to_mathml

_NS = "{http://www.w3.org/1998/Math/MathML}"
_SPACES = {"\u00a0", " ", "\u2009", "\u2005", "\u2004", "\u2003", "\u2002", "\u200a"}


@lru_cache(maxsize=1024)
def to_typst(tex: str, *, display: bool) -> str:
    """Typst maths source of a formula written in TeX (raises quizbank.maths.FormulaError)."""
    root = etree.fromstring(to_mathml(tex, display=display))
    return _children(root)


def _tag(element: etree._Element) -> str:
    return str(element.tag).removeprefix(_NS)


def _symbol(char: str) -> str:
    """One character as Typst maths that draws it: a letter or digit (of any script) as
    itself, anything else escaped (Typst reads `(`, `⌈` or `⟨` as opening a pair, `∛` as
    wanting a radicand), a space as Typst's thin space, other white space as nothing."""
    if char in _SPACES:
        return "thin"
    if not char.strip():
        return ""
    return char if char.isalnum() else "\\" + char


def _quoted(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _leaf(element: etree._Element) -> str:
    """A token's text: one character as a symbol; more as a string, which Typst sets upright
    and whole (letters side by side would be read as the name of a variable: `xforall`)."""
    text = element.text or ""
    if len(text) == 1:
        return _symbol(text)
    return _quoted(text) if text.strip() else ""


def _operator(element: etree._Element) -> str:
    """An operator; a word (`lim`, `\\operatorname{foo}`) spaced as an operator."""
    text = element.text or ""
    if len(text) > 1 and text.strip() and all(c.isalpha() or c == " " for c in text):
        return f"op({_quoted(text)})"
    return _leaf(element)


def _children(element: etree._Element) -> str:
    return " ".join(part for child in element if (part := _node(child)))


def _arg(element: etree._Element) -> str:
    """One child as a function argument (never empty: Typst needs something there)."""
    return _node(element) or "zws"


def _text(element: etree._Element) -> str:
    text = element.text or ""
    if not text.strip():
        return "thin" if text else ""
    return _quoted(text)


def _row(element: etree._Element) -> str:
    kids = list(element)
    first, last = (kids[0], kids[-1]) if kids else (None, None)
    fenced = (
        first is not None
        and last is not first
        and _tag(first) == "mo"
        and first.get("stretchy") == "true"
        and last is not None
        and _tag(last) == "mo"
    )
    inside = " ".join(part for child in kids if (part := _node(child)))
    return f"lr({inside})" if fenced else inside


def _parts(element: etree._Element, count: int) -> list[etree._Element] | None:
    """The children of an element that takes `count` of them; None when it has others (then
    they are set one after the other, as in a row)."""
    kids = list(element)
    return kids if len(kids) == count else None


def _fraction(element: etree._Element) -> str:
    if (parts := _parts(element, 2)) is None:
        return _children(element)
    top, bottom = parts
    return f"frac({_arg(top)}, {_arg(bottom)})"


def _attach(base: str, top: str | None = None, bottom: str | None = None) -> str:
    parts = [base]
    if top is not None:
        parts.append(f"t: {top}")
    if bottom is not None:
        parts.append(f"b: {bottom}")
    return f"attach({', '.join(parts)})"


def _scripts(element: etree._Element) -> str:
    """`msub`, `msup`, `msubsup`, `munder`, `mover`, `munderover`: a base with scripts, beside
    it or (under and over) above and below it."""
    tag = _tag(element)
    parts = _parts(element, 3 if tag in ("msubsup", "munderover") else 2)
    if parts is None:
        return _children(element)
    base, *scripts = (_arg(part) for part in parts)
    if tag in ("msub", "munder"):
        attached = _attach(base, bottom=scripts[0])
    elif tag in ("msup", "mover"):
        attached = _attach(base, top=scripts[0])
    else:
        attached = _attach(base, top=scripts[1], bottom=scripts[0])
    return f"limits({attached})" if tag.startswith("mu") or tag == "mover" else attached


def _over(element: etree._Element) -> str:
    parts = _parts(element, 2)
    accent = (parts[1].text or "") if parts is not None else ""
    if parts is not None and element.get("accent") == "true" and len(accent) == 1:
        return f"accent({_arg(parts[0])}, {_quoted(accent)})"
    return _scripts(element)


def _sqrt(element: etree._Element) -> str:
    return f"sqrt({_children(element) or 'zws'})"


def _root(element: etree._Element) -> str:
    if (parts := _parts(element, 2)) is None:
        return _sqrt(element)
    base, index = parts
    return f"root({_arg(index)}, {_arg(base)})"


def _table(element: etree._Element) -> str:
    rows = [
        ", ".join(_children(cell) or "zws" for cell in row if _tag(cell) == "mtd")
        for row in element
        if _tag(row) == "mtr"
    ]
    return f"mat(delim: #none, {'; '.join(row or 'zws' for row in rows)})"


def _nothing(element: etree._Element) -> str:
    return ""


def _space(element: etree._Element) -> str:
    return "thin"


_WRITERS: dict[str, Callable[[etree._Element], str]] = {
    "mi": _leaf,
    "mn": _leaf,
    "mo": _operator,
    "mtext": _text,
    "ms": _text,
    "mrow": _row,
    "mstyle": _children,
    "mpadded": _children,
    "menclose": _children,
    "semantics": _children,
    "mfrac": _fraction,
    "msub": _scripts,
    "msup": _scripts,
    "msubsup": _scripts,
    "mover": _over,
    "munder": _scripts,
    "munderover": _scripts,
    "msqrt": _sqrt,
    "mroot": _root,
    "mtable": _table,
    "mspace": _space,
    "mphantom": _nothing,
    "annotation": _nothing,
}


def _node(element: etree._Element) -> str:
    writer = _WRITERS.get(_tag(element), _children)
    return writer(element)
