"""The texts of a Moodle XML file: CDATA, names, idnumbers, HTML in one or several languages
(multilang), made inert where Moodle would read its own markup, and the files of its images.

Shared by the Moodle XML renderer (moodle.py), its per-type writers (moodle_types.py) and the
GIFT renderer (gift.py), which names its categories and questions as the Moodle XML export does.

Every text an author wrote (names, the category path,
HTML, tags, the idnumber) is in CDATA: outside CDATA, Moodle's XML reader (lib/xmlize.php)
drops a chunk of character data that is only white space, and it reads `A & بی` escaped as the
chunks `A `, `&`, ` ` and `بی`, so it stored `A &بی`. A `]]>` in a text ends one CDATA section
and starts another.

What Moodle would read as its own markup in an author's text is made inert, in every file and
every text: `@@PLUGINFILE@@`, which Moodle turns into the URL of one of the question's files, has
a word joiner (U+2060, invisible) before its `PLUGINFILE`, in HTML after the core's `&#64;&#64;`
(HTML cleaning, Moodle's editor and a copy and paste give the `@@` back; a tag shows `&#64;` as
written); so has the `{` of a `{mlang` (the multilang2 filter's tag), and, in a cloze, the `{`
of what multianswer reads (`{1:SA:`, `{#1}`; not TeX's `\\frac{1}{2}`). The one raw
`@@PLUGINFILE@@` is quizbank's own image address, `src="@@PLUGINFILE@@/…"`. In HTML, a `{`
before tags and a `}` is `&#123;`: Moodle's MathJax filter shows the tags between as text.

Images and formulas, as Moodle's own export writes them (qformat_xml::write_files): each image
a `<file name="…" path="/" encoding="base64">` inside the element whose text shows it, that text
referring to it as `@@PLUGINFILE@@/name`, so that the one file carries everything; a text in
several languages carries the files of every language's version. The elements whose files the
importer stores: the question text and general feedback, a choice's and an ordering item's text
(`<answer>`), every feedback (`<feedback>`), a match item (`<subquestion>`) and the essay's
`<graderinfo>`. Where it stores none (a category's `<info>`, a cloze gap's feedback, which
Moodle keeps with the gap) an image is its alt text. Formulas are TeX between `\\(…\\)` and
`\\[…\\]`, which Moodle's MathJax filter typesets; plain-text fields (a match's drop-down) show
the TeX.
"""

from __future__ import annotations

import base64
import hashlib
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache
from html import escape, unescape
from operator import attrgetter
from types import MappingProxyType
from typing import Literal, Protocol, TypeVar
from urllib.parse import quote

from quizbank.images import Image
from quizbank.locales import is_rtl
from quizbank.markup import media
from quizbank.markup import to_html as to_html  # re-exported: moodle_types renders through it
from quizbank.model import Question
from quizbank.renderer import question_line

from .multilang import multilang_blocks, spans

IDNUMBER_MAX = 100  # question_bank_entries.idnumber and question_categories.idnumber: char(100)

T = TypeVar("T")
Versions = Sequence[tuple[str, T]]  # the same item in each language, reference language first


def idnumber_of(*parts: str) -> str:
    """Parts joined by `/`, shortened with a hash to Moodle's 100 characters when longer."""
    full = inert_text("/".join(parts))
    if len(full) <= IDNUMBER_MAX:
        return full
    digest = hashlib.sha256(full.encode()).hexdigest()[:8]
    return f"{full[: IDNUMBER_MAX - 9]}~{digest}"


def category_name(name: str) -> str:
    """One level of a category path, escaped as qformat_default::assemble_category_path() does."""
    escaped = name.replace("/", "//")
    if escaped.startswith("/"):
        escaped = " " + escaped
    if escaped.endswith("/"):
        escaped += " "
    return escaped


# Moodle cleans names with PARAM_TEXT (strip_tags): `List<String>` would lose `<String>`.
def untagged(text: str) -> str:
    """Plain text with `<` and `>` as single angle quotes, so no part looks like a tag."""
    return text.replace("<", "\u2039").replace(">", "\u203a")


def question_name(question: Question) -> str:
    """The question's line (renderer.question_line) as a name Moodle stores as written."""
    return inert_text(untagged(question_line(question)))


_WORD_JOINER = "\u2060"  # invisible, keeps the words on either side together
# file_rewrite_pluginfile_urls() turns `@@PLUGINFILE@@` (in that case) into a file's URL. An `@`
# (as a character or a reference), then any tags, then `PLUGINFILE`: HTML cleaning, Moodle's
# editor or a copy and paste can turn what precedes `PLUGINFILE` back into `@@`.
_PLUGINFILE = re.compile(r"(?:@|&#0*64;|(?i:&#x0*40;|&commat;))(?:<[^<>]*>)*(?=PLUGINFILE)")
# filter_multilang2's tags, opening `{mlang xx}` and closing `{mlang}`, as its pattern finds them
# (`{\s*mlang`), and with tags after the `{` (Urdu's HTML has `{<bdi>mlang ur</bdi>}`).
_MLANG_TAG = re.compile(r"\{(?=(?:\s|<[^<>]*>)*mlang)", re.IGNORECASE)


# An author's `{` that a multianswer question would take for an embedded answer or for one of its
# placeholders, tags allowed between the parts (Urdu's `{<bdi>#1</bdi>}`): a word joiner after it.
# An answer starts `{1:SA:` (qtype/multianswer's ANSWER_START_REGEX, `\{([0-9]*):(TYPE):`, every
# TYPE capitals and `_`); a placeholder is `{#1}` (`\{#(\d+)\}`, which Moodle's export also
# replaces in the name and the feedback). Nothing else: TeX's `\frac{1}{2}` keeps its braces.
_TAGS = r"(?:<[^<>]*>)*"
# A `{` may be written `&#123;` (`_mathjax_safe`): the editor would give the `{` back.
_BRACE = re.compile(
    rf"(?:\{{|&#123;)(?={_TAGS}(?:#{_TAGS}[0-9]|[0-9]*{_TAGS}:{_TAGS}[A-Z_]+{_TAGS}:))"
)


def _braces_inert(text: str) -> str:
    """A text of a cloze question in which Moodle finds no gap or placeholder of its own."""
    return _BRACE.sub(_joined, text) if "{" in text or "&#123;" in text else text


def _joined(match: re.Match[str]) -> str:
    return match[0] + _WORD_JOINER


def inert_text(text: str) -> str:
    """A text in which Moodle finds no markup of its own: a word joiner (U+2060, invisible)
    before the `PLUGINFILE` of `@@PLUGINFILE@@` and after the `{` of `{mlang`.

    In plain texts (names, the category, tags, the idnumber) and in HTML (after the core's
    `&#64;&#64;`) alike: Moodle shows a tag's `&#64;` as written, and its HTML cleaning, its editor
    and a copy and paste give back the `@@` that `&#64;&#64;` stands for, as they do the `{` of a
    `&#123;` (which multilang2 filtered after cleaning before its version 2).
    """
    if "PLUGINFILE" in text:
        text = _PLUGINFILE.sub(_joined, text)
    if "{" in text:
        text = _MLANG_TAG.sub(_joined, text)
    return text


# The address of an image quizbank writes: the only raw `@@` of its HTML (the core writes an
# author's as `&#64;&#64;`, and a `"` of a text as `&quot;`), so no author's text can look like it.
PLUGINFILE = "@@PLUGINFILE@@/"
_OWN_SRC = f'src="{PLUGINFILE}'
_OWN_SRC_JOINED = inert_text(_OWN_SRC)
# An image as to_html writes it (`<img src="…" alt="…">`, perhaps a title); a text has no other
# `<img`: the core escapes raw HTML.
_IMAGE = re.compile(r'<img src="([^"]*)" alt="([^"]*)"[^<>]*>')


def inert_html(html: str) -> str:
    """HTML from to_html in which Moodle finds no markup of its own (`inert_text`; no `{` that its
    MathJax filter reads, `_mathjax_safe`) but the addresses of quizbank's own images."""
    if "{" in html:
        html = _mathjax_safe(inert_text(html))
    elif "PLUGINFILE" in html:
        html = inert_text(html)
    else:
        return html
    return html.replace(_OWN_SRC_JOINED, _OWN_SRC) if _OWN_SRC_JOINED in html else html


def _mathjax_safe(html: str) -> str:
    """HTML in which Moodle's MathJax filter shows no tag as text: in a text with a formula it
    writes each `<` and `>` between a `{` and the next `}` as `&lt;`, `&gt;`
    (escape_html_tag_wrapper, `\\{([^}]+)\\}`), so an Urdu `{<bdi>x</bdi>}` showed its tags.
    Such a `{` is `&#123;`, which shows the same; so is a `{` not closed, which a later text
    (another language's) could close. Linear: the text is cut at each `}`."""
    parts = html.split("}")
    for n, part in enumerate(parts):
        at = part.find("{")
        if at >= 0 and (n == len(parts) - 1 or "<" in part[at:] or ">" in part[at:]):
            parts[n] = part[:at] + part[at:].replace("{", "&#123;")
    return "}".join(parts)


def without_images(html: str) -> str:
    """HTML with each image as its alt text, for a text Moodle stores no file of."""
    return _IMAGE.sub(r"\2", html) if "<img " in html else html


# What clean_param(PARAM_FILE) drops from a file's name, and the braces a cloze would read.
_NOT_IN_NAMES = re.compile(r"[\x00-\x1f\x7f&<>\"`|':\\/{}]")


class _File:
    """An image as a file of a Moodle question: the name Moodle stores (unique still, by the
    hash in Image.file_name), the address a text gives it (the name as in a URL, after
    `@@PLUGINFILE@@/`), and the `<file>` element that carries it, made when first used."""

    __slots__ = ("_element", "address", "image", "name")

    def __init__(self, image: Image) -> None:
        self.image = image
        self.name = _NOT_IN_NAMES.sub("-", image.file_name)
        self.address = quote(self.name)
        self._element: str | None = None

    def element(self, indent: str) -> str:
        """The `<file>` element, as qformat_xml::write_files() writes one."""
        if self._element is None:
            data = base64.b64encode(self.image.data).decode("ascii")
            self._element = (
                f'<file name="{escape(self.name)}" path="/" encoding="base64">{data}</file>\n'
            )
        return indent + self._element


# The files of the Moodle XML file being written, by the address its texts give them.
_FILES: ContextVar[Mapping[str, _File]] = ContextVar("moodle_files", default=MappingProxyType({}))


@contextmanager
def _media(images: Versions[Mapping[str, Image]]) -> Iterator[None]:
    """Inside the block, texts are written with each language's images at their Moodle file's
    address and formulas as TeX, and `_files` finds the files they use."""
    files: dict[str, _File] = {}
    addresses: dict[str, dict[str, str]] = {}
    for lang, by_src in images:
        for src, image in by_src.items():
            file = _File(image)
            file = files.setdefault(file.address, file)
            addresses.setdefault(lang, {})[src] = PLUGINFILE + file.address
    token = _FILES.set(files)
    try:
        with media(addresses, math="tex"):
            yield
    finally:
        _FILES.reset(token)


def _files(html: str, indent: str) -> str:
    """The `<file>` elements of the images an HTML text shows, each once, by name (the order of
    Moodle's own export); nothing for a text without any, at the cost of one search.

    A ValueError for an image the renderer was not given (QuizTranslations.images lacks it):
    Moodle would show it broken."""
    if "<img " not in html:
        return ""
    files = _FILES.get()
    used = set()
    for src, _alt in _IMAGE.findall(html):
        file = files.get(src[len(PLUGINFILE) :]) if src.startswith(PLUGINFILE) else None
        if file is None:
            raise ValueError(f"its image {unescape(src)} was not given to the renderer")
        used.add(file)
    return "".join(file.element(indent) for file in sorted(used, key=attrgetter("name")))


def _text_element(html: str, indent: str) -> str:
    """A `<text>` with HTML, then the `<file>` elements of its images: its element's content."""
    return f"{indent}<text>{_cdata(html)}</text>\n{_files(html, indent)}"


@lru_cache(maxsize=64)
def rtl_wrapper(lang: str) -> tuple[str, str]:
    """What goes around HTML in `lang`: a right-to-left `<div>`, or nothing."""
    if is_rtl(lang):
        return f'<div lang="{escape(lang)}" dir="rtl">', "</div>"
    return "", ""


def _localised(text: str, lang: str, inline: bool) -> str:
    """The HTML of a text in `lang`."""
    before, after = rtl_wrapper(lang)
    return f"{before}{inert_html(to_html(text, lang, inline=inline))}{after}"


Syntax = Literal["spans", "mlang2"]


def _html(
    versions: Versions[T],
    get: Callable[[T], str | None],
    syntax: Syntax = "spans",
    *,
    inline: bool = False,
) -> str:
    """One text as HTML; in several languages, in the `syntax` of a Moodle multilang filter."""
    if len(versions) == 1:
        lang, item = versions[0]
        text = get(item)
        return _localised(text, lang, inline) if text else ""
    texts = [(lang, text) for lang, item in versions if (text := get(item))]
    if not texts:
        return ""
    if len(texts) == 1:
        lang, text = texts[0]
        return _localised(text, lang, inline)
    if syntax == "mlang2":
        return _mlang2([(lang, _localised(text, lang, inline)) for lang, text in texts])
    if inline:
        return inert_html(spans([(lang, to_html(text, lang, inline=True)) for lang, text in texts]))
    return inert_html(_span_blocks(texts))


def _span_blocks(texts: Sequence[tuple[str, str]]) -> str:
    """Texts of several blocks in multilang spans: inside each block where the languages' blocks
    correspond; otherwise each language inline in one paragraph, its blocks and lines apart
    (`<br>`: as lines of text, a paragraph and a list ran together into one line)."""
    html = multilang_blocks(texts)
    if "\n" in html and html.startswith("<p><span "):
        inline = (
            f"<p>{spans([(lang, to_html(text, lang, inline=True)) for lang, text in texts])}</p>"
        )
        if html == inline:
            return inline.replace("\n", "<br>\n")
    return html


def _mlang2(htmls: Sequence[tuple[str, str]]) -> str:
    """HTML in each language in the tags of the multilang2 filter, the first language also
    `other`: the filter shows it to a learner whose language the text lacks."""
    (first, html), *others = htmls
    return f"{{mlang {_moodle_lang(first)},other}}{html}{{mlang}}" + "".join(
        f"{{mlang {_moodle_lang(lang)}}}{html}{{mlang}}" for lang, html in others
    )


@lru_cache(maxsize=16)
def _moodle_lang(lang: str) -> str:
    """A language code as Moodle names its language packs: `pt-BR` is `pt_br`."""
    return lang.lower().replace("-", "_")


class _HasId(Protocol):
    @property
    def id(self) -> str: ...


IdT = TypeVar("IdT", bound=_HasId)


def _aligned(versions: Versions[Sequence[IdT]]) -> list[tuple[IdT, Versions[IdT]]]:
    """Each item of the first language, with the item of the same id in each language.

    By a dictionary per language: finding each item by a scan made a quiz of 5,000 questions
    take quadratic time.
    """
    (lang, items), *others = versions
    if not others:
        return [(item, [(lang, item)]) for item in items]
    indexes = [(other, {item.id: item for item in rest}) for other, rest in others]
    return [
        (item, [(lang, item), *((o, same) for o, index in indexes if (same := index.get(item.id)))])
        for item in items
    ]


_CONTROL_BYTES = bytes(byte for byte in range(0x20) if byte not in b"\t\n\r")


def _text(text: str) -> str:
    """Text escaped as an element's content, as lxml escapes it: `&`, `<` and `>`, and a
    carriage return as a character reference (lxml's serialiser writes it so)."""
    return escape(text, quote=False).replace("\r", "&#13;")


def _cdata(text: str) -> str:
    """A text as an element's content, in CDATA; a `]]>` in it ends one section after its `]]`
    and starts another before its `>`, so that neither part is only white space (Moodle's XML
    reader drops such a part). Outside CDATA, Moodle's reader drops the space between an escaped
    `&` or `<` and a following non-ASCII letter (`& شارڈ` became `&شارڈ`)."""
    if not text:
        return ""
    if "]]>" in text:
        text = text.replace("]]>", "]]]]><![CDATA[>")
    return f"<![CDATA[{text}]]>"


def _field(tag: str, html: str, indent: str = "    ") -> str:
    """An HTML field: `<tag format="html">` around a `<text>` with the HTML and its files."""
    return f'{indent}<{tag} format="html">\n{_text_element(html, indent + "  ")}{indent}</{tag}>\n'


def _encoded(xml: str) -> bytes:
    """A piece of a file as UTF-8; a ValueError if it holds a character XML cannot carry.

    Those are what lxml refused in any text of the tree this renderer used to build: a lone
    surrogate (UTF-8 cannot encode it), a control character other than tab, newline and
    carriage return (in UTF-8, a byte below 0x20 is only ever that character), U+FFFE, U+FFFF.
    """
    data = xml.encode()
    if len(data.translate(None, _CONTROL_BYTES)) != len(data) or "\ufffe" in xml or "\uffff" in xml:
        raise ValueError("it holds a control character, U+FFFE or U+FFFF: XML cannot carry it")
    return data
