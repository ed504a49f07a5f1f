"""markdownify's converter made quizbank's: the parsed, cleaned HTML of a text written as
Markdown, with quizbank's escaping, formulas, images, links, code and tables, reporting what it
flattens.

The library: markdownify 1.2 (on BeautifulSoup with Python's html.parser), chosen over html2text
2025.4 and html-to-markdown 3.21 after converting with each quizbank's Moodle export of the
bundled content and fixtures and cases of tables, nested lists, code blocks and escaping, and
rendering the results with quizbank.markup. All three gave the bundled texts back, but html2text
left `*`, `_`, `#` and `>` unescaped, indented code blocks so that their blank lines ended them,
and broke headerless tables and loose lists. html-to-markdown (a compiled Rust extension) was
the most correct and the fastest, but its visitor hook is told only a node's parent tag, not
whether a text is in code or in a table cell, and it silently dropped the text of markup nested
past its depth limit. markdownify escaped too much (`\\[\\[1\\]\\]`) and broke a fence holding
backticks and a table cell holding `` `x|y` ``, but it is a walk that calls one
`convert_<tag>` method per element and `process_text` per text with the element at hand: here
each is overridden (escaping, formulas, images, links, code, tables, losses) while its walk
keeps the whitespace between blocks and inline elements; it is maintained and brings in only
beautifulsoup4 and six.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import PurePosixPath
from typing import Any, Final
from urllib.parse import unquote

from bs4 import BeautifulSoup
from bs4.element import NavigableString, PageElement, Tag
from markdownify import MarkdownConverter

from quizbank.importer.findings import Findings, short
from quizbank.importer.html_cleaning import attribute
from quizbank.importer.markdown_text import (
    BACKTICK_RUNS,
    CLEAN_CHARACTERS,
    SOFT_BREAK,
    code_span,
    collapsed,
    destination,
    escape,
    one_line,
    soft,
    unsoft,
    with_maths,
)
from quizbank.markup import safe_link

PLUGINFILE: Final = "@@PLUGINFILE@@/"

# Block elements: text beside them starts or ends a line.
_BLOCKS: Final = frozenset(
    {
        "p", "div", "blockquote", "ul", "ol", "li", "table", "thead", "tbody", "tfoot", "tr",
        "td", "th", "caption", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "hr", "br",
        "[document]", "colgroup", "col",
    }
)  # fmt: skip
# Whitespace strings beside these and inside them go (markdownify's should_remove_whitespace).
_TRIMMED: Final = _BLOCKS - {"br", "hr", "pre", "caption", "[document]", "colgroup", "col"}
# The first and last character of an inline element's Markdown.
_FIRST: Final = {"strong": "*", "em": "*", "del": "~", "code": "`", "a": "[", "img": "!", "q": '"'}
_LAST: Final = {"strong": "*", "em": "*", "del": "~", "code": "`", "a": ")", "img": ")", "q": '"'}
_HEADING = re.compile(r"h([1-6])")
_LANGUAGE = re.compile(r"(?:language|lang)-([\w+#.-]+)")
_CLOSING_HASHES = re.compile(r"(\s)(#+)$")

# markdownify's stub declares convert() and convert_soup() only; its tree walk is typed here.
_process_tag: Callable[..., str] = MarkdownConverter.process_tag  # type: ignore[attr-defined]


def _text_char(text: str, last: bool) -> str:
    char = text[-1] if last else text[0]
    if char in "\r\n":
        return "\n"
    return " " if char.isspace() else char


def _char_before(node: PageElement) -> str:
    """The character the Markdown has before an element: `\\n` at the start of a line."""
    return _char_beside(node, before=True)


def _char_after(node: PageElement) -> str:
    """The character the Markdown has after an element: `\\n` at the end of a line."""
    return _char_beside(node, before=False)


def _char_beside(node: PageElement, *, before: bool) -> str:
    """The character next to an element on one side, found through its siblings, then its
    parents' (an inline parent's own mark on that side, `*` for emphasis)."""
    step = "previous_sibling" if before else "next_sibling"
    facing, own = (_LAST, _FIRST) if before else (_FIRST, _LAST)
    while True:
        sibling = getattr(node, step)
        while sibling is not None:
            if isinstance(sibling, NavigableString):
                if text := str(sibling).translate(CLEAN_CHARACTERS):
                    return _text_char(text, last=before)
            elif isinstance(sibling, Tag):
                return "\n" if sibling.name in _BLOCKS else facing.get(sibling.name, "*")
            sibling = getattr(sibling, step)
        parent = node.parent
        if parent is None or parent.name in _BLOCKS:
            return "\n"
        if parent.name in own:
            return own[parent.name]
        node = parent


def _content_after(node: PageElement) -> bool:
    """Whether anything but whitespace follows an element in its block (a `<br>` at a block's
    end shows nothing, but Markdown would show its backslash)."""
    while True:
        sibling = node.next_sibling
        while sibling is not None:
            if isinstance(sibling, Tag):
                return sibling.name not in _BLOCKS or sibling.name == "br"
            if str(sibling).translate(CLEAN_CHARACTERS).strip():
                return True
            sibling = sibling.next_sibling
        parent = node.parent
        if parent is None or parent.name in _BLOCKS:
            return False
        node = parent


def _block_of(node: PageElement) -> Tag | None:
    parent = node.parent
    while parent is not None and parent.name not in _BLOCKS:
        parent = parent.parent
    return parent


def _chomped(text: str) -> tuple[str, str, str]:
    """Text with its spaces at either end taken out: (before, text, after)."""
    inner = text.strip(" ")
    if not inner:
        return text, "", ""
    start = len(text) - len(text.lstrip(" "))
    end = len(text.rstrip(" "))
    return text[:start], inner, text[end:]


def _punctuation(char: str) -> bool:
    return not char.isspace() and not char.isalnum()


def _opens(delimiter: str, before: str, first: str) -> bool:
    """Whether a run of `delimiter` between `before` and `first` can open emphasis."""
    if first.isspace():
        return False
    left = not _punctuation(first) or before.isspace() or _punctuation(before)
    if delimiter[0] == "_":
        right = not before.isspace() and (not _punctuation(before) or _punctuation(first))
        return left and (not right or _punctuation(before))
    return left


def _closes(delimiter: str, last: str, after: str) -> bool:
    """Whether a run of `delimiter` between `last` and `after` can close emphasis."""
    if last.isspace():
        return False
    right = not _punctuation(last) or after.isspace() or _punctuation(after)
    if delimiter[0] == "_":
        left = not after.isspace() and (not _punctuation(after) or _punctuation(last))
        return right and (not left or _punctuation(after))
    return right


def _title(tag: Tag) -> str:
    title = " ".join(attribute(tag, "title").split())
    if not title:
        return ""
    return ' "' + title.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _image_markdown(
    name: str, alt: str, title: str, findings: Findings, before: str, after: str
) -> str:
    """An embedded file's image at its path, or its alt text when the question lacks it."""
    alt = " ".join(alt.split())
    path = findings.image_path(name)
    if not alt:
        alt = PurePosixPath(name).stem or name
        if path is not None:
            findings.lost(f"an image without alt text ({name})")
    if path is None:
        findings.lost(f"an image that is not in the file ({name})")
        return escape(alt, before, after)
    findings.shown(name)
    return f"![{escape(alt, '[', ']', brackets=True)}]({destination(path)}{title})"


def convert(soup: BeautifulSoup, inline: bool, findings: Findings) -> str:
    """Parsed HTML, prepared by html_cleaning.prepare, as Markdown (with `inline`, one line)."""
    top = {"_inline", "_line"} if inline else set()
    return _Converter(findings).process_tag(soup, top)


class _Converter(MarkdownConverter):
    """markdownify's converter for one text, with quizbank's escaping, maths, images, links,
    code and tables, reporting what it flattens."""

    def __init__(self, findings: Findings) -> None:  # markdownify's options are not used
        self.findings = findings
        self.options: dict[str, Any] = {"strip_document": "strip"}
        self.convert_fn_cache: dict[str, Any] = {}
        self._multiline: dict[int, bool] = {}
        self._rows: dict[int, tuple[list[Tag], list[str]]] = {}
        self._numbers: dict[int, dict[int, int]] = {}
        self._markers: dict[int, str] = {}
        self._marks: dict[int, str] = {}

    def process_tag(self, node: Tag, parent_tags: set[str] | None = None) -> str:
        return _process_tag(self, node, parent_tags)

    def get_conv_fn(self, tag_name: str) -> Callable[..., str] | None:
        """The method for an element (html_cleaning.prepare left no other)."""
        heading = _HEADING.fullmatch(tag_name)
        if heading:
            level = int(heading[1])
            return lambda el, text, parent_tags: self.convert_hN(level, el, text, parent_tags)
        name = re.sub(r"[\[\]:-]", "_", tag_name)
        method: Callable[..., str] | None = getattr(self, f"convert_{name}", None)
        return method

    def lost(self, phrase: str) -> None:
        self.findings.lost(phrase)

    def flattened(self, what: str, parent_tags: set[str]) -> None:
        """A block made part of one line: in a table cell, a heading or a one-line text."""
        if "td" in parent_tags or "th" in parent_tags:
            self.lost(f"{what} inside a table cell (made one line)")
        elif any(_HEADING.fullmatch(tag) for tag in parent_tags):
            self.lost(f"{what} inside a heading (made one line)")
        else:
            self.lost(f"{what} (made one line)")

    # ---- text

    def process_text(self, el: NavigableString, parent_tags: set[str] | None = None) -> str:
        """A text's Markdown: code as it is; other text with its whitespace collapsed, its
        formulas as `$…$`, escaped where Markdown would read it as markup."""
        tags = parent_tags or set()
        text = str(el).translate(CLEAN_CHARACTERS)
        if "pre" in tags:
            return text
        if "code" in tags:
            return one_line(text)
        text = collapsed(text, "_inline" in tags)
        prev, nxt = el.previous_sibling, el.next_sibling
        parent = el.parent
        inside = parent is not None and (parent.name in _TRIMMED or parent.name == "[document]")
        if _trims(prev) or (inside and prev is None):
            text = text.lstrip(" \t\r\n")
        if _trims(nxt) or (inside and nxt is None):
            text = text.rstrip(" \t\r\n")
        if not text:
            return ""
        pipes = "_inline" not in tags and "|" in text and self._several_lines(el)
        return with_maths(
            text,
            _char_before(el),
            _char_after(el),
            pipes=pipes,
            brackets="a" in tags,
            block="_inline" not in tags,
            alone="_inline" not in tags and prev is None and nxt is None and _alone_in(parent),
        )

    def _several_lines(self, el: PageElement) -> bool:
        """Whether a text's block has more than one line (where one could be a table's)."""
        block = _block_of(el)
        if block is None:
            return True
        key = id(block)
        if key not in self._multiline:
            self._multiline[key] = block.find("br") is not None or "\n" in block.get_text()
        return self._multiline[key]

    # ---- blocks

    def convert__document_(self, el: Tag, text: str, parent_tags: set[str]) -> str:
        return text.strip("\n")

    def convert_p(self, el: Tag, text: str, parent_tags: set[str]) -> str:
        text = text.strip(" \t\r\n")
        if "_inline" in parent_tags:
            if text and _has_neighbours(el):
                self.flattened("a paragraph break", parent_tags)
            return soft(text)
        return f"\n\n{text}\n\n" if text else ""

    def convert_div(self, el: Tag, text: str, parent_tags: set[str]) -> str:
        text = text.strip(" \t\r\n")
        if "_inline" in parent_tags:
            return soft(text)
        return f"\n\n{text}\n\n" if text else ""

    def convert_br(self, el: Tag, text: str, parent_tags: set[str]) -> str:
        if "pre" in parent_tags:
            return "\n"
        if "_inline" in parent_tags:
            if _content_after(el):
                self.flattened("a line break", parent_tags)
            return SOFT_BREAK
        return "\\\n" if _content_after(el) else ""

    def convert_hr(self, el: Tag, text: str, parent_tags: set[str]) -> str:
        if "_inline" in parent_tags:
            self.flattened("a horizontal rule", parent_tags)
            return SOFT_BREAK
        return "\n\n---\n\n"

    def convert_hN(self, n: int, el: Tag, text: str, parent_tags: set[str]) -> str:
        text = unsoft(text).strip()
        if "_inline" in parent_tags:
            if text:
                self.flattened("a heading", parent_tags)
            return soft(text)
        if not text:
            return ""
        text = _CLOSING_HASHES.sub(r"\1\\\2", text)
        return f"\n\n{'#' * n} {text}\n\n"

    def convert_blockquote(self, el: Tag, text: str, parent_tags: set[str]) -> str:
        text = text.strip(" \t\r\n")
        if "_inline" in parent_tags:
            if text:
                self.flattened("a block quote", parent_tags)
            return soft(text)
        if not text:
            return ""
        quoted = "\n".join(f"> {line}" if line else ">" for line in text.split("\n"))
        return f"\n\n{quoted}\n\n"

    def convert_pre(self, el: Tag, text: str, parent_tags: set[str]) -> str:
        """A fenced code block, its language from a `language-x` class; one line of code in
        a one-line context."""
        if text.startswith("\n"):
            text = text[1:]  # HTML shows no newline right after <pre>
        if text.endswith("\n"):
            text = text[:-1]
        if not text.strip():
            return ""
        if "_inline" in parent_tags:
            self.flattened("a code block", parent_tags)
            return soft(code_span(" ".join(text.split("\n"))))
        longest = max((len(run) for run in BACKTICK_RUNS.findall(text)), default=0)
        fence = "`" * max(3, longest + 1)
        return f"\n\n{fence}{_language(el)}\n{text}\n{fence}\n\n"

    # ---- lists

    def convert_ul(self, el: Tag, text: str, parent_tags: set[str]) -> str:
        return self._list(el, text, parent_tags)

    def convert_ol(self, el: Tag, text: str, parent_tags: set[str]) -> str:
        return self._list(el, text, parent_tags)

    def _list(self, el: Tag, text: str, parent_tags: set[str]) -> str:
        if "_inline" in parent_tags:
            if text.strip():
                self.flattened("a list", parent_tags)
            return soft(text.strip())
        if "li" in parent_tags:
            return "\n" + text.rstrip() + "\n"
        return "\n\n" + text.rstrip() + "\n\n"

    def convert_li(self, el: Tag, text: str, parent_tags: set[str]) -> str:
        text = text.strip()
        if "_inline" in parent_tags:
            return soft(text)
        parent = el.parent
        if isinstance(parent, Tag) and parent.name == "ol":
            bullet = f"{self._number(parent, el)}{self._marker(parent)} "
        else:
            bullet = f"{self._marker(parent)} " if isinstance(parent, Tag) else "- "
        indent = " " * len(bullet)
        lines = text.split("\n")
        body = "\n".join([lines[0], *(indent + line if line else "" for line in lines[1:])])
        return f"{bullet}{body}\n"

    def _number(self, parent: Tag, item: Tag) -> int:
        """An ordered list item's number, from the list's `start` (the items counted once)."""
        numbers = self._numbers.get(id(parent))
        if numbers is None:
            start = attribute(parent, "start").strip()
            first = int(start) if start.isdigit() and len(start) < 10 else 1
            items = [c for c in parent.children if isinstance(c, Tag) and c.name == "li"]
            numbers = {id(li): first + index for index, li in enumerate(items)}
            self._numbers[id(parent)] = numbers
        return numbers.get(id(item), 1)

    def _marker(self, parent: Tag | None) -> str:
        """A list's bullet (`-`, `.`), or the other one (`*`, `)`) right after a list of the
        same kind, which Markdown would otherwise make one list with it."""
        if parent is None:
            return "-"
        key = id(parent)
        if key in self._markers:
            return self._markers[key]
        first, other = (".", ")") if parent.name == "ol" else ("-", "*")
        marker = first
        previous = parent.previous_sibling
        while isinstance(previous, NavigableString) and not str(previous).strip():
            previous = previous.previous_sibling
        if isinstance(previous, Tag) and previous.name == parent.name:
            marker = other if self._marker(previous) == first else first
        self._markers[key] = marker
        return marker

    # ---- inline

    def convert_code(self, el: Tag, text: str, parent_tags: set[str]) -> str:
        if "pre" in parent_tags or "code" in parent_tags:
            return text
        return code_span(text)

    def convert_strong(self, el: Tag, text: str, parent_tags: set[str]) -> str:
        return self._emphasis(el, text, parent_tags, "**", "bold text")

    def convert_em(self, el: Tag, text: str, parent_tags: set[str]) -> str:
        return self._emphasis(el, text, parent_tags, "*", "italic text")

    def convert_del(self, el: Tag, text: str, parent_tags: set[str]) -> str:
        return self._emphasis(el, text, parent_tags, "~~", "struck-out text")

    def _emphasis(
        self, el: Tag, text: str, parent_tags: set[str], delimiter: str, what: str
    ) -> str:
        """Text between delimiters, if Markdown reads them as such there (`**Note:**text`
        is not strong); else the text, and a loss."""
        if "pre" in parent_tags or "code" in parent_tags:
            return text
        start, inner, end = _chomped(text)
        if not inner:
            return text
        before = start[-1] if start else _char_before(el)
        after = end[0] if end else _char_after(el)
        delimiters = [delimiter]
        if delimiter[0] == "*":  # `_` where `*` would run into a neighbour's `*`
            previous = self._marks.get(id(el.previous_sibling)) if not start else None
            underscores = "_" * len(delimiter)
            delimiters.insert(0 if previous and previous[0] == "*" else 1, underscores)
        for mark in delimiters:
            if _opens(mark, before, inner[0]) and _closes(mark, inner[-1], after):
                self._marks[id(el)] = mark
                return f"{start}{mark}{inner}{mark}{end}"
        self.lost(f"{what} that Markdown cannot mark there ({short(el.get_text(), 30)})")
        return text

    def convert_a(self, el: Tag, text: str, parent_tags: set[str]) -> str:
        """A link, if it is http, https or mailto; else its text, and a loss."""
        if "pre" in parent_tags or "code" in parent_tags or "a" in parent_tags:
            return text
        href = attribute(el, "href").strip()
        start, inner, end = _chomped(text)
        if not inner or not href:
            return text
        if "\n\n" in inner.strip():
            self.lost(f"a link around several blocks ({short(href)})")
            return text
        if href.startswith(PLUGINFILE):
            self.lost(f"a link to a file of the question ({unquote(href[len(PLUGINFILE) :])})")
            return text
        if not safe_link(href):
            self.lost(f"a link that is not http, https or mailto ({short(href)})")
            return text
        return f"{start}[{inner}]({destination(href)}{_title(el)}){end}"

    def convert_img(self, el: Tag, text: str, parent_tags: set[str]) -> str:
        """An embedded file's image at its path; any other image as its alt text, and a loss."""
        src = attribute(el, "src").strip()
        alt = attribute(el, "alt")
        if "pre" in parent_tags or "code" in parent_tags:
            return alt
        before, after = _char_before(el), _char_after(el)
        if src.startswith(PLUGINFILE):
            name = unquote(src[len(PLUGINFILE) :].split("?")[0])
            return _image_markdown(name, alt, _title(el), self.findings, before, after)
        if src.lower().startswith("data:"):
            self.lost("an image written into the text (data: URI)")
        elif src:
            self.lost(f"an image from elsewhere ({short(src)})")
        alt = " ".join(alt.split())
        if not alt and src and not src.lower().startswith("data:"):
            alt = PurePosixPath(unquote(src.split("?")[0])).stem
        return escape(alt, before, after) if alt else ""

    def convert_q(self, el: Tag, text: str, parent_tags: set[str]) -> str:
        return f'"{text}"'

    # ---- tables

    def convert_table(self, el: Tag, text: str, parent_tags: set[str]) -> str:
        text = text.strip()
        if "_inline" in parent_tags:
            if text:
                self.flattened("a table", parent_tags)
            return soft(text)
        return f"\n\n{text}\n\n" if text else ""

    def convert_caption(self, el: Tag, text: str, parent_tags: set[str]) -> str:
        text = text.strip()
        if text and "_inline" not in parent_tags:
            self.lost("a table's caption (made a paragraph)")
            return f"{text}\n\n"
        return soft(text)

    def convert_thead(self, el: Tag, text: str, parent_tags: set[str]) -> str:
        return text

    convert_tbody = convert_thead
    convert_tfoot = convert_thead

    def convert_colgroup(self, el: Tag, text: str, parent_tags: set[str]) -> str:
        return ""

    convert_col = convert_colgroup

    def convert_td(self, el: Tag, text: str, parent_tags: set[str]) -> str:
        """A cell: one line, each `|` escaped (a table's rows are cut at the others before
        their cells are read, and that takes one backslash before each `|` away)."""
        text = " ".join(text.split("\n")).strip()
        if "_inline" in parent_tags:
            return soft(text)
        text = unsoft(text).strip()
        span = _span(el, "colspan")
        if span > 1 or _span(el, "rowspan") > 1:
            self.lost("a table with merged cells")
        return " " + text.replace("|", "\\|") + " |" + " |" * (span - 1)

    convert_th = convert_td

    def convert_tr(self, el: Tag, text: str, parent_tags: set[str]) -> str:
        """A row, padded to the table's widest; the first a header row, an empty one when the
        table has none."""
        if "_inline" in parent_tags:
            return soft(text.strip())
        table = el.find_parent("table")
        rows, aligns = self._table(table) if table is not None else ([el], [""])
        width = len(aligns)
        cells = _cells(el)
        if _aligns(cells)[:width] != aligns[: len(_aligns(cells))]:
            self.lost("a table cell aligned unlike its column")
        line = "|" + text + " |" * (width - sum(_span(c, "colspan") for c in cells)) + "\n"
        if not rows or rows[0] is not el:
            return line
        rule = "|" + "".join(f" {_RULES[align]} |" for align in aligns) + "\n"
        parent = el.parent
        if (isinstance(parent, Tag) and parent.name == "thead") or all(
            c.name == "th" for c in cells
        ):
            return line + rule
        self.lost("a table without a header row (given an empty one)")
        return "|" + "  |" * width + "\n" + rule + line

    def _table(self, table: Tag) -> tuple[list[Tag], list[str]]:
        """A table's rows (not those of a table inside it), and the alignment of each of its
        columns (as its first row's cells have them)."""
        key = id(table)
        if key not in self._rows:
            rows = [row for row in table.find_all("tr") if row.find_parent("table") is table]
            cells = [_cells(row) for row in rows]
            width = max((sum(_span(c, "colspan") for c in row) for row in cells), default=1)
            aligns = _aligns(cells[0]) if cells else []
            self._rows[key] = (rows, (aligns + [""] * width)[: max(width, 1)])
        return self._rows[key]


def _cells(row: Tag) -> list[Tag]:
    return [c for c in row.children if isinstance(c, Tag) and c.name in ("td", "th")]


_CELL_ALIGN = re.compile(r"text-align\s*:\s*(left|right|center)", re.IGNORECASE)
_RULES: Final = {"": "---", "left": ":---", "right": "---:", "center": ":---:"}


def _aligns(cells: list[Tag]) -> list[str]:
    """The alignment of each column of a row's cells ("" none), a merged cell's for each of
    its columns."""
    aligns: list[str] = []
    for cell in cells:
        found = _CELL_ALIGN.search(attribute(cell, "style"))
        align = found[1].lower() if found else attribute(cell, "align").lower()
        aligns += [align if align in _RULES else ""] * _span(cell, "colspan")
    return aligns


def _alone_in(parent: Tag | None) -> bool:
    """Whether a text that is its parent's only child is all of a paragraph."""
    return parent is not None and parent.name in ("p", "div", "li", "blockquote", "[document]")


def _trims(node: PageElement | None) -> bool:
    """Whether whitespace beside this node goes (it is a block, or `<pre>`)."""
    return isinstance(node, Tag) and (node.name in _TRIMMED or node.name == "pre")


def _has_neighbours(el: Tag) -> bool:
    """Whether an element has content beside it in its parent."""
    for siblings in (el.previous_siblings, el.next_siblings):
        for sibling in siblings:
            if isinstance(sibling, Tag) or str(sibling).translate(CLEAN_CHARACTERS).strip():
                return True
    return False


def _span(cell: Tag, name: str) -> int:
    value = attribute(cell, name).strip()
    return max(1, min(int(value), 1000)) if value.isdigit() else 1


def _language(pre: Tag) -> str:
    """A code block's language: a `language-x` class of the `<pre>` or its `<code>`."""
    code = pre.find("code")
    for tag in (pre, code):
        if isinstance(tag, Tag):
            found = _LANGUAGE.search(attribute(tag, "class"))
            if found:
                return found[1]
    return ""
