"""Moodle's editor HTML, parsed, made what the converter takes: what Markdown cannot show
dropped or unwrapped and reported as a loss, element names made those of Markdown's elements,
markup nested too deep flattened, side-by-side emphasis joined."""

from __future__ import annotations

import re
from typing import Final

from bs4 import BeautifulSoup
from bs4.element import NavigableString, PageElement, Tag

from quizbank.importer.findings import Findings, short
from quizbank.importer.markdown_text import (
    CLEAN_CHARACTERS,
)

# Markup nested deeper than this is flattened to its text: markdownify converts a tree
# recursively, some three Python frames a level.
MAX_DEPTH: Final = 64

# Elements dropped whole, with what an author is told (`{src}` their address).
_DROPPED: Final = {
    "script": "a script (dropped)",
    "style": "a style sheet (dropped)",
    "iframe": "an embedded page ({src})",
    "frame": "an embedded page ({src})",
    "video": "a video ({src})",
    "audio": "an audio clip ({src})",
    "object": "an embedded object ({src})",
    "embed": "an embedded object ({src})",
    "applet": "an embedded object ({src})",
    "svg": "an SVG drawing (dropped)",
    "canvas": "a canvas (dropped)",
    "form": "a form (dropped)",
    "input": "a form field (dropped)",
    "select": "a form field (dropped)",
    "textarea": "a form field (dropped)",
    "button": "a button (dropped)",
    "map": "an image map (dropped)",
}
# Dropped and nothing lost: what a page's head holds, and what is never shown.
_SILENT: Final = frozenset({"head", "title", "meta", "link", "base", "noscript", "template"})
# Elements whose text is kept as it is, and what is lost with them ("" nothing).
_UNWRAPPED: Final = {
    "html": "",
    "body": "",
    "span": "",
    "bdi": "",
    "font": "",
    "nobr": "",
    "label": "",
    "time": "",
    "data": "",
    "abbr": "",
    "acronym": "",
    "wbr": "",
    "u": "underlined text",
    "ins": "underlined text",
    "mark": "highlighted text",
    "small": "small text",
    "big": "big text",
    "bdo": "a reading direction (bdo)",
    "blink": "blinking text",
    "marquee": "scrolling text",
}
# Elements with the name of the one Markdown has for them (or a block for a block).
_RENAMED: Final = {
    "b": "strong",
    "i": "em",
    "cite": "em",
    "dfn": "em",
    "var": "em",
    "s": "del",
    "strike": "del",
    "kbd": "code",
    "samp": "code",
    "tt": "code",
    "section": "div",
    "article": "div",
    "header": "div",
    "footer": "div",
    "main": "div",
    "nav": "div",
    "aside": "div",
    "figure": "div",
    "figcaption": "div",
    "address": "div",
    "details": "div",
    "summary": "div",
    "center": "div",
    "dl": "div",
    "dt": "p",
    "dd": "p",
    "listing": "pre",
    "xmp": "pre",
    "plaintext": "pre",
}
_RENAME_LOSSES: Final = {
    "center": "centred text",
    "dl": "a definition list (made paragraphs)",
    "details": "a collapsible section (shown open)",
}
# Elements the converter has a method for.
_KNOWN: Final = frozenset(
    {
        "p", "div", "br", "hr", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "li",
        "blockquote", "pre", "code", "strong", "em", "del", "a", "img", "q", "table",
        "thead", "tbody", "tfoot", "tr", "td", "th", "caption", "colgroup", "col",
    }
)  # fmt: skip
# Inline elements that two of side by side are one (`**a****b**` is not two strong words), and
# one inside another is the outer one.
_MERGED: Final = frozenset({"strong", "em", "del", "code"})
_NONE: Final[frozenset[str]] = frozenset()
# What a style property is to an author; properties with a value that changes nothing are left
# out (`text-align: left` in every paragraph of Moodle's editor).
_STYLES: Final = {
    "color": "a colour",
    "background": "a background",
    "background-color": "a background colour",
    "font-size": "a font size",
    "font-family": "a font",
    "font": "a font",
    "font-weight": "a font weight",
    "font-style": "a font style",
    "text-decoration": "a text decoration",
    "text-align": "a text alignment",
    "border": "a border",
    "width": "a size",
    "height": "a size",
}
_NO_STYLE: Final = frozenset(
    {
        "text-align: left", "text-align: start", "direction: ltr", "direction: rtl",
        "font-weight: normal", "font-style: normal", "text-decoration: none",
    }
)  # fmt: skip


def attribute(tag: Tag, name: str) -> str:
    value = tag.get(name)
    if isinstance(value, list):
        value = " ".join(value)
    return (value or "").translate(CLEAN_CHARACTERS)


def prepare(soup: BeautifulSoup, findings: Findings) -> None:
    """The parsed HTML as the converter takes it, its losses reported: comments gone; what
    Markdown cannot show dropped or unwrapped, its text joined to the text around; names made
    those of Markdown's elements; markup deeper than MAX_DEPTH flattened; side-by-side
    `**a****b**` made one."""
    depth: dict[int, int] = {id(soup): 0}
    unwrap: list[Tag] = []
    dropped: list[tuple[PageElement, PageElement | None]] = []  # and what takes their place
    merged: list[Tag] = []
    inside: dict[int, frozenset[str]] = {}  # the emphasis and code each element is inside
    too_deep = False
    for node in list(soup.descendants):
        parent = node.parent
        if parent is None or id(parent) not in depth:
            continue  # inside something dropped
        if not isinstance(node, Tag):
            if type(node) is not NavigableString:
                dropped.append((node, None))  # a comment, a doctype, CDATA, an instruction
            continue
        name = node.name.lower()
        if name in _SILENT:
            dropped.append((node, None))
        elif name in _DROPPED:
            findings.lost(_DROPPED[name].format(src=short(_source(node)) or "no address"))
            dropped.append((node, None))
        elif name == "math":
            dropped.append((node, _mathml(node, findings)))
        elif depth[id(parent)] >= MAX_DEPTH:
            too_deep = True  # its text only, in one piece (unwrapping each would be quadratic)
            dropped.append((node, NavigableString(node.get_text())))
        else:
            depth[id(node)] = depth[id(parent)] + 1
            around = inside.get(id(parent), _NONE)
            if _kept(node, name, findings) or node.name in around:
                unwrap.append(node)  # (`**` inside `**` would end it)
            elif node.name in _MERGED:
                merged.append(node)
                inside[id(node)] = around | {node.name}
            elif around:
                inside[id(node)] = around
    if too_deep:
        findings.lost(f"markup nested more than {MAX_DEPTH} deep (flattened to its text)")
    for element, replacement in dropped:
        if replacement is None:
            element.extract()
        else:
            element.replace_with(replacement)
    for tag in reversed(unwrap):
        tag.unwrap()
    if unwrap or dropped:
        for tag in [soup, *(n for n in soup.descendants if isinstance(n, Tag))]:
            _merge_strings(tag)
    _merge_neighbours(merged)


def _kept(tag: Tag, name: str, findings: Findings) -> bool:
    """Report what an element's attributes and name say that Markdown cannot, and give it the
    name of Markdown's element; True when only its text is kept (it is to be unwrapped)."""
    _attribute_losses(tag, name, findings)
    if name in _RENAMED:
        if name in _RENAME_LOSSES:
            findings.lost(_RENAME_LOSSES[name])
        tag.name = _RENAMED[name]
        return False
    if name in _UNWRAPPED:
        if _UNWRAPPED[name]:
            findings.lost(_UNWRAPPED[name])
        if name in ("abbr", "acronym") and (title := attribute(tag, "title").strip()):
            findings.lost(f"an abbreviation's title ({short(title, 40)})")
        return True
    if name in ("sup", "sub"):
        kind = "superscript" if name == "sup" else "subscript"
        findings.lost(f"a {kind} ({short(tag.get_text(), 30)})")
        return True
    if name not in _KNOWN:
        findings.lost(f"a <{short(name, 30)}> element (kept its text)")
        return True
    tag.name = name
    return False


def _source(tag: Tag) -> str:
    """The address of an embedded page, video, sound or object."""
    for name in ("src", "data", "href"):
        if value := attribute(tag, name):
            return value
    source = tag.find("source")
    return attribute(source, "src") if isinstance(source, Tag) else ""


def _mathml(tag: Tag, findings: Findings) -> NavigableString:
    """A MathML formula as Moodle's TeX delimiters around its TeX annotation (made `$…$` with
    the text around it); without one, its text, and a loss."""
    annotation = tag.find("annotation", attrs={"encoding": re.compile("tex", re.I)})
    display = attribute(tag, "display") == "block"
    if isinstance(annotation, Tag) and annotation.get_text().strip():
        tex = annotation.get_text().strip()
        return NavigableString(f"\\[{tex}\\]" if display else f"\\({tex}\\)")
    findings.lost("a MathML formula without its TeX (kept its text)")
    return NavigableString(tag.get_text())


def _attribute_losses(tag: Tag, name: str, findings: Findings) -> None:
    """What an element's attributes say that Markdown cannot: its style, a `<font>`'s colour,
    face and size, an alignment, a background colour."""
    cell = name in ("td", "th")  # its alignment is its column's (see html_converter)
    if style := attribute(tag, "style"):
        for declaration in style.split(";"):
            prop, _, value = declaration.partition(":")
            prop, value = prop.strip().lower(), " ".join(value.split())
            if not prop or not value or (cell and prop == "text-align"):
                continue
            written = f"{prop}: {value}"
            if written.lower() in _NO_STYLE:
                continue
            findings.lost(f"{_STYLES.get(prop, 'a style')} ({short(written, 50)})")
    if name == "font":
        for attr, what in (("color", "a colour"), ("face", "a font"), ("size", "a font size")):
            if value := attribute(tag, attr):
                findings.lost(f"{what} ({short(value, 40)})")
    align = attribute(tag, "align").lower()
    if align and align not in ("left", "start") and not cell:
        findings.lost(f"a text alignment (align={short(align, 20)})")
    if bgcolor := attribute(tag, "bgcolor"):
        findings.lost(f"a background colour ({short(bgcolor, 20)})")


def _merge_strings(parent: Tag) -> None:
    """Side-by-side strings of an element made one (an unwrapped `<bdi>` cut `[[1]]` in three)."""
    run: list[NavigableString] = []
    for child in [*parent.contents, None]:
        if isinstance(child, NavigableString):
            run.append(child)
            continue
        if len(run) > 1:
            run[0].replace_with(NavigableString("".join(str(s) for s in run)))
            for extra in run[1:]:
                extra.extract()
        run = []


def _merge_neighbours(tags: list[Tag]) -> None:
    """`<strong>a</strong><strong>b</strong>` as `<strong>ab</strong>`: Markdown cannot write
    two such elements side by side (`**a****b**`, `` `a``b` ``)."""
    gone: set[int] = set()
    for tag in tags:
        if id(tag) in gone or tag.parent is None:
            continue
        joined = False
        while isinstance(nxt := tag.next_sibling, Tag) and nxt.name == tag.name:
            for child in list(nxt.contents):
                tag.append(child.extract())
            nxt.extract()
            gone.add(id(nxt))
            joined = True
        if joined:
            _merge_strings(tag)
