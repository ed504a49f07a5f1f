"""Markdown texts as a small tree of nodes that the Typst template draws.

Nothing an author writes is turned into Typst markup: text travels as strings (Typst sets a
string as it is), formulas as the Typst maths that `maths.to_typst` writes with every leaf
escaped, images as files handed to the compiler by name. Node kinds: blocks `p`, `code`,
`list`, `quote`, `math`, `rule`, `table`; inlines `t` (text), `code`, `em`, `strong`, `strike`,
`link`, `math`, `img`, `br`, `gap` (a cloze blank). In a right-to-left language every Latin run
is put between U+2066 LEFT-TO-RIGHT ISOLATE and U+2069 POP DIRECTIONAL ISOLATE, which Typst's
bidi algorithm honours: `state_dict()` and `18 GB` read as written.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.token import Token

from quizbank.gaps import GAP_MARKS, gap_index
from quizbank.images import Image
from quizbank.locales import is_rtl
from quizbank.markup import LATIN_RUN, safe_link, with_maths
from quizbank.maths import FormulaError

from .images import typst_image
from .maths import to_typst

Node = dict[str, Any]
LRI, PDI = "\u2066", "\u2069"

_MD = with_maths(MarkdownIt("commonmark", {"html": False}).enable("table").enable("strikethrough"))
_INLINE_WRAPPERS = {"em_open": "em", "strong_open": "strong", "s_open": "strike"}
_BLOCK_WRAPPERS = {"blockquote_open": "quote"}
# Closing tokens that close no node of the tree (a paragraph is one `inline` token).
_NOT_NESTED = ("paragraph_close", "heading_close", "thead_close", "tbody_close")


class Images:
    """The images of one file: each path as a text writes it, named for the compiler, whose
    files are SVG in UTF-8 (`images.typst_image`)."""

    def __init__(self, known: Mapping[str, Image]) -> None:
        self.known = known
        self.files: dict[str, bytes] = {}
        self.names: dict[str, str] = {}

    def name(self, src: str) -> str | None:
        """The compiler's name for an image (None when the quiz has no such image)."""
        image = self.known.get(src)
        if image is None:
            return None
        if src not in self.names:
            name = f"images/{len(self.names)}.svg"
            self.names[src] = name
            self.files[name] = typst_image(image)
        return self.names[src]


@dataclass
class Texts:
    """How the texts of one language's PDFs become nodes: the language, its images, and the
    formulas (TeX, and whether displayed) that Typst cannot set, shown as their TeX in
    monospace. Each text is parsed once for the exam, the key and every form (nodes are
    never changed once made)."""

    lang: str
    images: Images
    unset: frozenset[tuple[str, bool]] = field(default_factory=frozenset)
    _made: dict[tuple[str, bool], list[Node]] = field(default_factory=dict)

    def blocks(self, text: str) -> list[Node]:
        """A Markdown text as block nodes."""
        if (made := self._made.get((text, True))) is None:
            made = self._made[text, True] = to_nodes(text, self)
        return made

    def inline(self, text: str) -> list[Node]:
        """A one-line text (a title, a drop-down's choice) as inline nodes."""
        if (made := self._made.get((text, False))) is None:
            tokens = _MD.parseInline(text)[0].children or ()
            made = self._made[text, False] = _inlines(tokens, self)
        return made


def isolated(text: str, lang: str) -> str:
    """Text with each Latin run isolated left to right, in a right-to-left language."""
    if not is_rtl(lang):
        return text
    return LATIN_RUN.sub(lambda run: f"{LRI}{run.group()}{PDI}", text)


def _text(text: str, lang: str) -> list[Node]:
    """Text nodes, with a `gap` node for each cloze mark."""
    nodes: list[Node] = []
    last = 0
    for mark in GAP_MARKS.finditer(text):
        if mark.start() > last:
            nodes.append({"k": "t", "v": isolated(text[last : mark.start()], lang)})
        nodes.append({"k": "gap", "n": gap_index(mark.group())})
        last = mark.end()
    if last < len(text):
        nodes.append({"k": "t", "v": isolated(text[last:], lang)})
    return nodes


def _formula(tex: str, display: bool, texts: Texts) -> Node:
    """A formula as Typst maths; its TeX in monospace where Typst cannot set it."""
    tex = tex.strip()
    if (tex, display) not in texts.unset:
        try:
            return {"k": "math", "v": to_typst(tex, display=display), "block": display}
        except FormulaError:  # refused when the quiz was checked; never reaches an export
            pass
    return {"k": "code", "v": tex, "block": display}


def _inlines(tokens: Sequence[Token], texts: Texts) -> list[Node]:
    root: list[Node] = []
    stack = [root]
    for token in tokens:
        kind = token.type
        if kind == "text":
            stack[-1].extend(_text(token.content, texts.lang))
        elif kind in ("softbreak",):
            stack[-1].append({"k": "t", "v": " "})
        elif kind == "hardbreak":
            stack[-1].append({"k": "br"})
        elif kind == "code_inline":
            stack[-1].append({"k": "code", "v": token.content})
        elif kind in ("math_inline", "math_inline_double"):
            stack[-1].append(_formula(token.content, kind == "math_inline_double", texts))
        elif kind in _INLINE_WRAPPERS or kind == "link_open":
            node: Node = {"k": _INLINE_WRAPPERS.get(kind, "link"), "c": []}
            href = str(token.attrGet("href") or "")
            if kind == "link_open" and safe_link(href):
                node["href"] = href
            stack[-1].append(node)
            stack.append(node["c"])
        elif kind.endswith("_close") and len(stack) > 1:
            stack.pop()
        elif kind == "image":
            src = str(token.attrGet("src") or "")
            alt = "".join(child.content for child in token.children or ())
            name = texts.images.name(src)
            if name is None:
                stack[-1].append({"k": "t", "v": isolated(alt, texts.lang)})
            else:
                stack[-1].append({"k": "img", "src": name, "alt": alt})
    return root


def to_nodes(text: str, texts: Texts) -> list[Node]:
    """A Markdown text as block nodes."""
    root: list[Node] = []
    stack: list[list[Node]] = [root]
    for token in _MD.parse(text):
        kind = token.type
        if kind == "inline":
            stack[-1].append({"k": "p", "c": _inlines(token.children or (), texts)})
        elif kind in ("fence", "code_block"):
            stack[-1].append({"k": "code", "v": token.content.rstrip("\n"), "block": True})
        elif kind == "math_block":
            stack[-1].append(_formula(token.content, True, texts))
        elif kind == "hr":
            stack[-1].append({"k": "rule"})
        elif kind in ("bullet_list_open", "ordered_list_open"):
            start = int(token.attrGet("start") or 1)
            node: Node = {"k": "list", "ordered": kind[0] == "o", "start": start, "items": []}
            stack[-1].append(node)
            stack.append(node["items"])
        elif kind == "list_item_open":
            item: list[Node] = []
            stack[-1].append(item)  # type: ignore[arg-type]
            stack.append(item)
        elif kind in _BLOCK_WRAPPERS or kind in ("tr_open", "th_open", "td_open"):
            node = {"k": _BLOCK_WRAPPERS.get(kind, kind[:2]), "c": []}
            stack[-1].append(node)
            stack.append(node["c"])
        elif kind == "table_open":
            node = {"k": "table", "c": []}
            stack[-1].append(node)
            stack.append(node["c"])
        elif kind.endswith("_close") and kind not in _NOT_NESTED and len(stack) > 1:
            stack.pop()
    return root
