"""Formulas for Typst: the MathML that quizbank.maths makes of an author's TeX, as Typst maths.

quizbank checks every formula when a quiz is validated and converts it to MathML once
(`quizbank.maths.to_mathml`); this module walks that tree, so the PDF draws exactly the formula
the other exports show. Every leaf's text is escaped character by character (a letter, digit or
non-ASCII symbol stands for itself; ASCII punctuation is backslash-escaped; text goes between
quotes), and structure is written as Typst's functions (`frac`, `attach`, `sqrt`, `root`, `lr`,
`mat`), so nothing an author writes can become Typst code.
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


def _escape(text: str) -> str:
    """A leaf's text as Typst maths that draws it: symbols as themselves, ASCII punctuation
    escaped, spaces as Typst's thin space."""
    out = []
    for char in text:
        if char in _SPACES:
            out.append(" thin ")
        elif char.isascii() and not char.isalnum():
            out.append("\\" + char if char.strip() else "")
        else:
            out.append(char)
    return "".join(out)


def _quoted(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _children(element: etree._Element) -> str:
    return " ".join(part for child in element if (part := _node(child)))


def _arg(element: etree._Element) -> str:
    """One child as a function argument (never empty: Typst needs something there)."""
    return _node(element) or "zws"


def _identifier(element: etree._Element) -> str:
    text = element.text or ""
    if len(text) == 1:
        return _escape(text)
    return f"upright({_quoted(text)})" if text.isalpha() else _quoted(text)


def _number(element: etree._Element) -> str:
    return _escape(element.text or "")


def _operator(element: etree._Element) -> str:
    return _escape(element.text or "")


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


def _fraction(element: etree._Element) -> str:
    top, bottom = element
    return f"frac({_arg(top)}, {_arg(bottom)})"


def _attach(base: str, top: str | None = None, bottom: str | None = None) -> str:
    parts = [base]
    if top is not None:
        parts.append(f"t: {top}")
    if bottom is not None:
        parts.append(f"b: {bottom}")
    return f"attach({', '.join(parts)})"


def _sub(element: etree._Element) -> str:
    base, sub = element
    return _attach(_arg(base), bottom=_arg(sub))


def _sup(element: etree._Element) -> str:
    base, sup = element
    return _attach(_arg(base), top=_arg(sup))


def _subsup(element: etree._Element) -> str:
    base, sub, sup = element
    return _attach(_arg(base), top=_arg(sup), bottom=_arg(sub))


def _over(element: etree._Element) -> str:
    base, over = element
    if element.get("accent") == "true":
        return f"accent({_arg(base)}, {_quoted(over.text or '')})"
    return f"limits({_attach(_arg(base), top=_arg(over))})"


def _under(element: etree._Element) -> str:
    base, under = element
    return f"limits({_attach(_arg(base), bottom=_arg(under))})"


def _underover(element: etree._Element) -> str:
    base, under, over = element
    return f"limits({_attach(_arg(base), top=_arg(over), bottom=_arg(under))})"


def _sqrt(element: etree._Element) -> str:
    return f"sqrt({_children(element) or 'zws'})"


def _root(element: etree._Element) -> str:
    base, index = element
    return f"root({_arg(index)}, {_arg(base)})"


def _table(element: etree._Element) -> str:
    rows = [
        ", ".join(_children(cell) or "zws" for cell in row if _tag(cell) == "mtd")
        for row in element
        if _tag(row) == "mtr"
    ]
    return f"mat(delim: #none, {'; '.join(rows)})"


def _nothing(element: etree._Element) -> str:
    return ""


def _space(element: etree._Element) -> str:
    return "thin"


_WRITERS: dict[str, Callable[[etree._Element], str]] = {
    "mi": _identifier,
    "mn": _number,
    "mo": _operator,
    "mtext": _text,
    "ms": _text,
    "mrow": _row,
    "mstyle": _children,
    "mpadded": _children,
    "menclose": _children,
    "semantics": _children,
    "mfrac": _fraction,
    "msub": _sub,
    "msup": _sup,
    "msubsup": _subsup,
    "mover": _over,
    "munder": _under,
    "munderover": _underover,
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
