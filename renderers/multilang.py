"""Several languages of one text in the spans of Moodle's multilang filter, placed so that they
survive Moodle's HTML cleaning.

The filter shows one of adjacent `<span lang="xx" class="multilang">` elements. A span may hold
only phrasing content: a paragraph or a list inside one is moved out of it by Moodle's HTML
cleaner (HTMLPurifier) and by its editor, and then every language shows. So the spans go inside
each block: when the languages' texts have the same blocks (paragraphs, list items, headings,
code), each block holds one span per language; when they do not, each language's text is given
inline (its blocks as lines of text) in one paragraph of spans. The filter's pattern
takes exactly the two attributes `lang` and `class`, so a span has no `dir`: the page's
direction is the language's own.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

import lxml.html
from lxml.etree import _Element

from quizbank.markup import to_html

# Elements that hold other blocks rather than text: the languages are matched inside them.
_CONTAINERS = frozenset({"ul", "ol", "blockquote", "table", "thead", "tbody", "tr", "div"})
_VOID = frozenset({"hr", "br", "img"})


def spans(texts: Sequence[tuple[str, str]]) -> str:
    """Phrasing HTML in each language, as adjacent multilang spans."""
    return "".join(
        f'<span lang="{escape(lang)}" class="multilang">{html}</span>' for lang, html in texts
    )


def multilang_blocks(texts: Sequence[tuple[str, str]]) -> str:
    """A Markdown text in each language as HTML, with the multilang spans inside every block."""
    trees = [lxml.html.fragments_fromstring(to_html(text, lang)) for lang, text in texts]
    if all(all(isinstance(e, _Element) for e in tree) for tree in trees):
        merged = _merge([lang for lang, _ in texts], trees)  # type: ignore[arg-type]
        if merged is not None:  # parsing read to_html's `&#64;&#64;` as `@@`: written again
            return _at_at(merged) if "@@" in merged else merged
    return f"<p>{spans([(lang, to_html(text, lang, inline=True)) for lang, text in texts])}</p>"


# The address of an image of a Moodle question (renderers/moodle.py), the only raw `@@` of
# to_html's HTML, and as `_at_at` would write it.
_OWN_SRC = 'src="@@PLUGINFILE@@/'
_OWN_SRC_ESCAPED = _OWN_SRC.replace("@@", "&#64;&#64;")


def _at_at(html: str) -> str:
    """Every `@@` of re-serialised HTML as to_html writes an author's, `&#64;&#64;`, but in the
    address of an image quizbank gave (`src="@@PLUGINFILE@@/…"`)."""
    return html.replace("@@", "&#64;&#64;").replace(_OWN_SRC_ESCAPED, _OWN_SRC)


def _merge(langs: list[str], siblings: list[list[_Element]]) -> str | None:
    """The blocks of every language merged, or None where their structures differ."""
    first = siblings[0]
    if any([e.tag for e in other] != [e.tag for e in first] for other in siblings[1:]):
        return None
    parts = []
    for group in zip(*siblings, strict=True):
        head = group[0]
        attributes = "".join(f' {name}="{escape(value)}"' for name, value in head.attrib.items())
        if head.tag in _VOID:
            parts.append(f"<{head.tag}{attributes}>")
            continue
        if head.tag in _CONTAINERS:
            if any((e.text or "").strip() or any((c.tail or "").strip() for c in e) for e in group):
                return None
            inside = _merge(langs, [list(e) for e in group])
            if inside is None:
                return None
        elif head.tag == "li" and any(c.tag in _CONTAINERS or c.tag == "p" for c in head):
            return None  # a loose or nested list item: matched as a whole below
        else:
            inside = spans([(lang, _inner(e)) for lang, e in zip(langs, group, strict=True)])
        parts.append(f"<{head.tag}{attributes}>{inside}</{head.tag}>")
    return "".join(parts)


def _inner(element: _Element) -> str:
    """An element's content as HTML, without the element itself."""
    text = escape(element.text or "", quote=False)
    return text + "".join(
        lxml.html.tostring(child, encoding="unicode", with_tail=True) for child in element
    )
