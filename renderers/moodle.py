"""Moodle XML, written the way Moodle's importer reads it (question/format/xml/format.php).

One file per quiz and language: a category question first, then a question per question, each
type written by its writer in moodle_types.py (multichoice, truefalse, numerical, shortanswer,
match, ordering, multianswer, essay). Every text an author wrote (names, the category path,
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

Multilang (`-O multilang=...`), `multilang/<quiz-id>.xml` with every language in one question:

- `true` or `spans` (Moodle's standard multilang filter, `<span lang="xx" class="multilang">`).
  A span may hold only phrasing content: Moodle's HTML cleaner and its editor move a paragraph
  or list out of a span, and then every language shows. So the spans go inside each block
  (paragraph, list item, heading, code block) when the languages' blocks correspond (see
  multilang.py); when they do not (a list in one language, a paragraph in another), each
  language is given inline, its blocks as lines, in one paragraph of spans. Urdu loses its
  `<div dir="rtl">`: a span takes no other attribute, so the page's direction is the language's.
  Works on any Moodle: the filter is in core (turn it on, first in the list).
- `mlang2` (the multilang2 filter plugin, filter_multilang2: `{mlang en,other}…{mlang}{mlang
  ur}…{mlang}`). Each language's HTML is whole, exactly as in its own file (Urdu keeps its
  right-to-left `<div>`), whatever the structure of the other languages: the tags are text,
  which the cleaner and the editor leave alone. The reference language is also `other`, which
  the filter shows in a language the file does not have (it shows nothing there otherwise).
  Needs the plugin installed and on.

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

The XML is written as text, a question at a time, in the layout lxml's
`tostring(pretty_print=True)` gave the tree this renderer used to build (building and
serialising a tree of every element was most of its time, and much of its memory on a big
quiz). Each question is checked for the characters that XML cannot carry.
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
from pathlib import PurePosixPath
from types import MappingProxyType
from typing import TYPE_CHECKING, Annotated, Literal, Protocol, TypeVar
from urllib.parse import quote

from pydantic import BeforeValidator, Field

from quizbank.crosslang import reference_language
from quizbank.errors import RendererError
from quizbank.images import Image
from quizbank.locales import is_rtl, option_letter
from quizbank.markup import media, to_plain
from quizbank.markup import to_html as to_html  # re-exported: moodle_types renders through it
from quizbank.model import Question, Quiz
from quizbank.renderer import (
    OutputFile,
    QuizTranslations,
    Renderer,
    RendererOptions,
    question_line,
)

from .multilang import multilang_blocks, spans

if TYPE_CHECKING:
    from .moodle_types import Settings

IDNUMBER_MAX = 100  # question_bank_entries.idnumber and question_categories.idnumber: char(100)

T = TypeVar("T")
Versions = Sequence[tuple[str, T]]  # the same item in each language, reference language first


_BOOLEAN_WORDS = {"true": True, "yes": True, "on": True, "1": True}
_BOOLEAN_WORDS |= {"false": False, "no": False, "off": False, "0": False}


def _multilang_value(value: object) -> object:
    """`-O multilang=true` or `=false` (in any case) as a boolean; a syntax's name as given."""
    if isinstance(value, str):
        return _BOOLEAN_WORDS.get(value.strip().lower(), value)
    return value


Multilang = Literal[False, True, "spans", "mlang2"]


class MoodleOptions(RendererOptions):
    """Options of the Moodle XML renderer."""

    multilang: Annotated[Multilang, BeforeValidator(_multilang_value)] = Field(
        False,
        description="Also write multilang/<quiz-id>.xml, every language in one question: "
        "true or spans in the spans of Moodle's own multilang filter; mlang2 in the "
        "{mlang xx} tags of the multilang2 filter plugin.",
    )
    shuffle: bool = Field(True, description="Let Moodle shuffle the options (shuffleanswers).")
    numbering: Literal["abc", "ABCD", "123", "iii", "IIII", "none"] = Field(
        "abc", description="How Moodle numbers the options (answernumbering)."
    )
    bank: bool = Field(
        False,
        description="Also write bank/<lang>.xml, every quiz in one file for one import, each in "
        "its own category under the bank's ($course$/top/<bank title>/<quiz title>); the bank's "
        "title is in content/bank.yaml, or the folder's name.",
    )


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


_DESCRIPTION = attrgetter("description")
_PROMPT = attrgetter("prompt")
_EXPLANATION = attrgetter("explanation")


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


_XML_DECLARATION = "<?xml version='1.0' encoding='UTF-8'?>\n"
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


def _tags(tags: Sequence[str]) -> str:
    """The `<tags>` of every question of a quiz; nothing when it has none."""
    if not tags:
        return ""
    items = "".join(
        f"      <tag>\n        <text>{_cdata(inert_text(tag))}</text>\n      </tag>\n"
        for tag in tags
    )
    return f"    <tags>\n{items}    </tags>\n"


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


def _category_title(versions: Versions[Quiz], syntax: Syntax) -> str:
    """The quiz's title as a category's name: plain text; in a file of several languages, every
    language's, in the `syntax` of the file. Moodle stores a category's name as the file gives
    it (multilang spans and tags included) and shows it through format_string(), which filters
    it when *Filter all strings* is on (tags stripped otherwise), so that an import of the file
    gets every language's title back."""
    titles = [(lang, inert_text(untagged(to_plain(quiz.title)))) for lang, quiz in versions]
    if len(titles) == 1:
        return titles[0][1]
    texts = [(lang, escape(title, quote=False)) for lang, title in titles]
    return _mlang2(texts) if syntax == "mlang2" else spans(texts)


class MoodleRenderer(Renderer[MoodleOptions]):
    """Moodle XML for the question bank import: a category per quiz and language."""

    name = "moodle"
    description = "Moodle XML for the question bank import (optionally bilingual, multilang)"
    extension = "xml"
    Options = MoodleOptions

    def __init__(self, options: MoodleOptions) -> None:
        super().__init__(options)
        # The syntax of a file in several languages: `-O multilang=true` is the spans.
        self._syntax: Syntax = "mlang2" if options.multilang == "mlang2" else "spans"
        # The writer of each type (moodle_types imports this module's helpers).
        from .moodle_types import WRITERS, Settings

        self._writers = WRITERS
        self._make_settings = Settings
        self._settings_by_langs: dict[tuple[str, ...], Settings] = {}

    def render(self, quiz: QuizTranslations, lang: str) -> str:
        return self._file(quiz, [lang], lang).decode()

    def render_quiz(self, quiz: QuizTranslations) -> Iterator[OutputFile]:
        """The file of each language, and the multilang file when asked for and bilingual."""
        for lang in quiz.languages:
            yield OutputFile(self.output_path(lang, quiz.quiz_id), self._file(quiz, [lang], lang))
        langs = [lang for lang in quiz.languages if lang in quiz.by_lang]
        if not (self.options.multilang and len(langs) > 1):
            return
        first = reference_language(dict.fromkeys(langs))
        langs = [first, *(lang for lang in langs if lang != first)]
        content = self._file(quiz, langs, ", ".join(langs))
        yield OutputFile(PurePosixPath("multilang", f"{quiz.quiz_id}.{self.extension}"), content)

    @property
    def combines(self) -> bool:
        return self.options.bank

    def combine(self, lang: str, parts: Sequence[bytes]) -> OutputFile | None:
        """`bank/<lang>.xml`: the questions of every quiz's file, categories and all, in one
        `<quiz>` (each file is the declaration and `<quiz>`, its questions, then `</quiz>`)."""
        head, tail = f"{_XML_DECLARATION}<quiz>\n".encode(), b"</quiz>\n"
        body = [part[len(head) : -len(tail)] for part in parts]
        content = b"".join([head, *body, tail])
        return OutputFile(PurePosixPath("bank", f"{lang}.{self.extension}"), content)

    def _file(self, quiz: QuizTranslations, langs: list[str], label: str) -> bytes:
        """The file of a quiz in `langs`, its texts with the images of each language."""
        bank = quiz.bank_title.get(langs[0]) if self.options.bank else None
        with _media([(lang, quiz.images_of(lang)) for lang in langs]):
            return self._xml(quiz.quiz_id, [(lang, quiz[lang]) for lang in langs], label, bank)

    def _xml(
        self, quiz_id: str, versions: Versions[Quiz], label: str, bank: str | None = None
    ) -> bytes:
        """The category, then each question, each checked and encoded as it is written.

        Pieces of UTF-8 joined once hold about the size of the file; a tree of every element,
        or the whole text before it is encoded, held several times that for a big quiz.
        """
        try:
            parts = [_encoded(self._category(versions, label, bank))]
        except ValueError as exc:
            raise RendererError(f"renderer 'moodle': quiz {quiz_id!r}: {exc}") from None
        end = f"{_tags(versions[0][1].tags)}  </question>\n"
        for question, same in _aligned([(lang, version.questions) for lang, version in versions]):
            try:
                parts.append(_encoded(self._question(quiz_id, same, end)))
            except ValueError as exc:
                raise RendererError(
                    f"renderer 'moodle': quiz {quiz_id!r} question {question.id!r}: {exc}"
                ) from None
        parts.append(b"</quiz>\n")
        return b"".join(parts)

    def _category(self, versions: Versions[Quiz], label: str, bank: str | None) -> str:
        """The XML declaration, then a category named after the quiz (under the bank's, in a
        bank), its description as the category's information (in which Moodle's importer takes
        no file: images are their alt text).

        The category has no idnumber: Moodle finds categories by name, and a renamed quiz would
        otherwise create a second category with the same idnumber, which aborts the import.
        """
        title = f"{_category_title(versions, self._syntax)} ({label})"
        info = without_images(_html(versions, _DESCRIPTION, self._syntax))
        path = category_name(title)
        if bank is not None:
            path = f"{category_name(inert_text(untagged(bank)))}/{path}"
        return (
            f"{_XML_DECLARATION}<quiz>\n"
            '  <question type="category">\n'
            "    <category>\n"
            f"      <text>{_cdata(f'$course$/top/{path}')}</text>\n"
            "    </category>\n"
            f"{_field('info', info)}"
            "  </question>\n"
        )

    def _numbering(self, langs: list[str]) -> str:
        """How Moodle numbers the options: as asked; by default `none` for a file only in a
        language with letters of its own (Urdu), which Moodle cannot write."""
        own_letters = option_letter(langs[0], 0) != "A"
        if "numbering" in self.options.model_fields_set or len(langs) > 1 or not own_letters:
            return self.options.numbering
        return "none"

    def _question(self, quiz_id: str, versions: Versions[Question], end: str) -> str:
        """One question, its type's parts from its writer; `end` closes it, with the quiz's
        tags, after its answers."""
        first = versions[0][1]
        kind = type(first)
        same = [(lang, q) for lang, q in versions if type(q) is kind]
        written = self._writers[kind](first, same, self._settings([lang for lang, _ in same]))
        name = question_name(first)
        questiontext = written.questiontext
        explanation = _html(same, _EXPLANATION, self._syntax)
        if questiontext is None:
            questiontext = _html(same, _PROMPT, self._syntax)
        else:  # a cloze's: Moodle's export replaces each `{#1}` of the question, name and all
            name, explanation = _braces_inert(name), _braces_inert(explanation)
        grade = f"    <defaultgrade>{first.points:.7f}</defaultgrade>\n" if written.graded else ""
        return (
            f'  <question type="{written.kind}">\n'
            "    <name>\n"
            f"      <text>{_cdata(name)}</text>\n"
            "    </name>\n"
            f"{_field('questiontext', questiontext)}"
            f"{_field('generalfeedback', explanation)}"
            f"{grade}"
            f"    <penalty>{written.penalty}</penalty>\n"
            "    <hidden>0</hidden>\n"
            f"    <idnumber>{_cdata(idnumber_of(quiz_id, first.id))}</idnumber>\n"
            f"{written.body}{end}"
        )

    def _settings(self, langs: list[str]) -> Settings:
        """The settings of every question in `langs`, made once per set of languages."""
        key = tuple(langs)
        settings = self._settings_by_langs.get(key)
        if settings is None:
            settings = self._make_settings(
                self._syntax, self.options.shuffle, self._numbering(langs)
            )
            self._settings_by_langs[key] = settings
        return settings
