"""The pieces of QTI 1.2 XML that Canvas reads, shared by the renderer (renderers/qti12.py)
and its per-type writers (renderers/qti12_types.py): escaping, materials, response conditions,
feedback, the numbers Canvas gives answers, and each text as the HTML Canvas shows."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping
from contextlib import AbstractContextManager
from html import escape

from quizbank.images import Image
from quizbank.locales import direction, is_rtl
from quizbank.markup import media, plain_label, to_html

IMAGE_FOLDER = "images"
FILEBASE = "%24IMS-CC-FILEBASE%24/"  # $IMS-CC-FILEBASE$: the package's root, for Canvas


# ------------------------------------------------------------------------------------ XML text


# An ident (the assessment's, an item's, a group's, a response's, an answer's number, a
# feedback's) is made of the model's ids (lowercase letters, digits, `-` and `_`), a language
# code and `Numbers`' digits: it is written as it is, never escaped.


def attr(value: str) -> str:
    """Text escaped for an attribute between double quotes."""
    return escape(value, quote=True)


def text(value: str) -> str:
    """Text escaped as an element's content (`]]>` becomes `]]&gt;`): html.escape without
    quotes, written out (the renderer's most frequent call)."""
    return value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def material(html: str, indent: str) -> str:
    """A `<material>` with one HTML text, as Canvas's export writes a question's or an answer's."""
    return (
        f"{indent}<material>\n"
        f'{indent}  <mattext texttype="text/html">{text(html)}</mattext>\n'
        f"{indent}</material>\n"
    )


def plain_material(value: str, indent: str) -> str:
    """A `<material>` with plain text: a drop-down's choice, a blank's answer, a match."""
    return (
        f"{indent}<material>\n"
        f'{indent}  <mattext texttype="text/plain">{text(value)}</mattext>\n'
        f"{indent}</material>\n"
    )


def varequal(respident: str, value: str, *, case: bool = False) -> str:
    """A `<varequal>` of a response (an ident); `case` for a text compared with its case (QTI's
    default is without)."""
    sensitive = ' case="Yes"' if case else ""
    return f'<varequal respident="{respident}"{sensitive}>{text(value)}</varequal>'


def respcondition(
    condition: str,
    *,
    keep_going: bool = False,
    score: str | None = None,
    add: bool = False,
    feedback: str | None = None,
) -> str:
    """A `<respcondition>` (at the resprocessing's indent): `condition` in its `<conditionvar>`,
    then the score it sets (or adds), then the feedback it shows (an ident), in the DTD's
    order."""
    keep = "Yes" if keep_going else "No"
    sets = ""
    if score is not None:
        action = "Add" if add else "Set"
        sets = f'            <setvar action="{action}" varname="SCORE">{score}</setvar>\n'
    shows = ""
    if feedback is not None:
        shows = f'            <displayfeedback feedbacktype="Response" linkrefid="{feedback}"/>\n'
    return (
        f'          <respcondition continue="{keep}">\n'
        f"            <conditionvar>\n              {condition}\n            </conditionvar>\n"
        f"{sets}{shows}"
        "          </respcondition>\n"
    )


def item_feedback(ident: str, html: str) -> str:
    """An `<itemfeedback>` (`ident`, an ident) with one HTML text, as Canvas's export writes
    one."""
    return (
        f'        <itemfeedback ident="{ident}">\n'
        "          <flow_mat>\n"
        f"{material(html, '            ')}"
        "          </flow_mat>\n"
        "        </itemfeedback>\n"
    )


def share(count: int) -> str:
    """Each of `count` parts' share of the score, as Canvas's export adds it (`33.33`)."""
    return f"{100 / count:.2f}"


# ---------------------------------------------------------------------------------------- idents

_NUMBER_LOW = 1_000
_NUMBER_SPAN = 9_999_000  # numbers of four to seven digits, as Canvas's answer ids are


class Numbers:
    """The numeric idents of one question's answers and matches: each a number derived from its
    key (stable when options move), the next free one when two keys meet."""

    def __init__(self, seed: str) -> None:
        self._seed = f"{seed}\0".encode()
        self._by_key: dict[str, str] = {}
        self._taken: set[int] = set()

    def __call__(self, key: str) -> str:
        found = self._by_key.get(key)
        if found is not None:
            return found
        digest = hashlib.sha256(self._seed + key.encode()).digest()
        offset = int.from_bytes(digest[:4], "big") % _NUMBER_SPAN
        while offset + _NUMBER_LOW in self._taken:
            offset = (offset + 1) % _NUMBER_SPAN
        self._taken.add(offset + _NUMBER_LOW)
        self._by_key[key] = found = str(offset + _NUMBER_LOW)
        return found


def assessment_ident(quiz_id: str, lang: str) -> str:
    """The assessment's ident (and its folder in the package): `qb_<quiz-id>_<lang>`."""
    return f"qb_{quiz_id}_{lang}"


# ----------------------------------------------------------------------------------------- texts

WORD_JOINER = "\u2060"
# What Canvas reads as its own in a text: MathJax's delimiters and environments (tex2jax, with
# Canvas's defaults), and the placeholders its importer rewrites.
_CANVAS_MARKUP = re.compile(
    r"\\(?=[()\[\]]|begin|ref|eqref)"
    r"|\$(?=\$|IMS[-_]CC[-_]FILEBASE\$|CANVAS_[A-Z_]+\$|WIKI_REFERENCE\$)"
    r"|%24(?=IMS[-_]CC[-_]FILEBASE%24|CANVAS_[A-Z_]+%24|WIKI_REFERENCE%24)"
)
# A tag, or a code element whole (MathJax reads no code): text is what lies between.
_TAG_OR_CODE = re.compile(r"(<code\b[^>]*>.*?</code>|<[^>]*>)", re.S)
_MATH = re.compile(r"<math\b([^>]*)>.*?</math>", re.S)
_ALTTEXT = re.compile(r'\balttext="([^"]*)"')
_IMAGE_SOURCE = re.compile(r'<img src="([^"]*)"')


def in_text(html: str, pattern: re.Pattern[str], replace: str) -> str:
    """HTML with `pattern` replaced by `replace` in its text only (not in tags, nor in code)."""
    pieces = _TAG_OR_CODE.split(html)
    pieces[::2] = [pattern.sub(replace, piece) for piece in pieces[::2]]
    return "".join(pieces)


def _inert(html: str) -> str:
    """HTML in whose text Canvas finds no markup of its own (see the module's docstring)."""
    return in_text(html, _CANVAS_MARKUP, rf"\g<0>{WORD_JOINER}")


def _tex(found: re.Match[str], rtl: bool) -> str:
    """A formula's MathML as its TeX between MathJax's delimiters (left to right in RTL text)."""
    opening = found[1]
    alttext = _ALTTEXT.search(opening)
    tex = alttext[1] if alttext else ""
    if 'display="block"' in opening:
        tex = rf"\displaystyle {tex}"
    formula = rf"\({tex}\)"
    return f'<span dir="ltr">{formula}</span>' if rtl else formula


def file_name(image: Image) -> str:
    """An image's name in the package: its content's name (hash and all) in safe characters."""
    return re.sub(r"[^A-Za-z0-9._-]", "-", image.file_name)


class Texts:
    """The texts of one language's package: HTML as Canvas keeps it, formulas as TeX, images as
    files of the package (`files`, by name; `used`, the names a text has shown)."""

    def __init__(self, lang: str, images: Mapping[str, Image]) -> None:
        self.lang = lang
        self.rtl = is_rtl(lang)
        self._open = (f'<div dir="{direction(lang)}" lang="{attr(lang)}">', "</div>")
        self._open_inline = (f'<span dir="{direction(lang)}" lang="{attr(lang)}">', "</span>")
        self.files: dict[str, Image] = {}
        self._addresses: dict[str, str] = {}
        self._names: dict[str, str] = {}  # by address
        for src, image in images.items():
            name = file_name(image)
            self.files.setdefault(name, image)
            address = f"{FILEBASE}{IMAGE_FOLDER}/{name}"
            self._addresses[src] = address
            self._names[address] = name
        self.used: set[str] = set()

    def media(self) -> AbstractContextManager[None]:
        """The block inside which the texts are rendered: images at their package address,
        formulas as MathML (whose `alttext` becomes TeX)."""
        return media({self.lang: self._addresses}, math="mathml")

    def html(self, markdown: str, *, inline: bool = False) -> str:
        """A text as HTML in its language's container (a `<span>` when `inline`)."""
        before, after = self._open_inline if inline else self._open
        return f"{before}{self.canvas(to_html(markdown, self.lang, inline=inline))}{after}"

    def canvas(self, html: str) -> str:
        """The core's HTML as Canvas keeps it: images checked and counted, Canvas's markup inert,
        formulas as TeX, isolated runs as spans."""
        if "<img " in html:
            self._use_images(html)
        if "\\" in html or "$" in html or "%24" in html:  # else nothing Canvas could read
            html = _inert(html)
        if "<math" in html:
            html = _MATH.sub(lambda found: _tex(found, self.rtl), html)
        if "<bdi" in html:
            html = html.replace("<bdi ", '<span dir="ltr" ').replace("</bdi>", "</span>")
        return html

    def _use_images(self, html: str) -> None:
        """Count the images an HTML text shows; a ValueError for one the renderer was not given
        (Canvas would show it broken)."""
        for src in _IMAGE_SOURCE.findall(html):
            name = self._names.get(src)
            if name is None:
                raise ValueError(f"its image {src} was not given to the renderer")
            self.used.add(name)

    def plain(self, markdown: str) -> str:
        """A one-line text as a plain-text label (images as their alt text, formulas as TeX),
        its Latin runs isolated in a right-to-left language (`plain_label`)."""
        return plain_label(markdown, self.lang)
