"""Images in texts: found where an author wrote them, checked, and read once for every export.

An image is a Markdown image whose path is relative to the quiz file, as any Markdown editor
resolves it (`![Shards on three ranks](../images/shards.svg)` from `content/en/x.yaml`), and
must be a file of the content folder (the folder of the language folders). It must be PNG,
JPEG, GIF, WebP or SVG, as its name says and its bytes show (Pillow reads the raster formats),
at most `max_bytes`, and a raster image at most MAX_IMAGE_PIXELS, counted from its header before
anything is decoded. An SVG is refused, not cleaned, when it holds what could act or fetch:
scripts, event attributes, `foreignObject` and HTML elements, a reference to anything outside
the file (a link, or CSS read as a browser reads it, escapes undone, by tinycss2), an animation
of a link, a DTD. It is decided on the tree a hardened XML parser reads (nothing loaded, no
entity expanded), in the encoding the file declares or its byte order mark says. A drawing
changed silently could lose what the author meant; the error says what to remove.
Remote images are refused: a quiz page makes no request.
"""

from __future__ import annotations

import base64
import codecs
import hashlib
import io
import os
import re
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING
from urllib.parse import unquote

if TYPE_CHECKING:
    from lxml import etree

MAX_IMAGE_BYTES = 1 << 20  # the default limit of one image's size
# The most pixels a raster image may have, counted from its header before it is decoded: a
# 48-megapixel photograph passes, a small file that unpacks to gigabytes does not.
MAX_IMAGE_PIXELS = 50_000_000
SVG = "image/svg+xml"
MEDIA_TYPES = {
    ".png": "image/png",
    ".jpg": "image/jpeg",
    ".jpeg": "image/jpeg",
    ".gif": "image/gif",
    ".webp": "image/webp",
    ".svg": SVG,
}
# Pillow's name of each raster format, and the media type it is exported as.
_PILLOW_TYPES = {"PNG": "image/png", "JPEG": "image/jpeg", "GIF": "image/gif", "WEBP": "image/webp"}
_TYPE_NAMES = {"image/png": "PNG", "image/jpeg": "JPEG", "image/gif": "GIF", "image/webp": "WebP"}
_TYPE_NAMES[SVG] = "SVG"
_REMOTE = re.compile(r"^(?:[a-z][a-z0-9+.-]*:|//)", re.IGNORECASE)


@dataclass(frozen=True)
class Image:
    """One image file of the content folder, read and checked."""

    path: PurePosixPath  # relative to the content folder: images/shards.svg
    media_type: str
    data: bytes

    @cached_property
    def sha256(self) -> str:
        return hashlib.sha256(self.data).hexdigest()

    @property
    def size(self) -> int:
        return len(self.data)

    @property
    def file_name(self) -> str:
        """A name unique to its content, for exports that keep every image in one folder (a
        Moodle question's files): `shards-1a2b3c4d.svg`."""
        path = self.path
        return f"{path.stem}-{self.sha256[:8]}{path.suffix.lower()}"

    @property
    def portable_name(self) -> str:
        """`file_name` made a name any unzip tool and file system writes as it is, and any URI
        holds: letters (any script's), digits, `-` and `_` of the name, at most 50, not
        starting with `-` or `.` (`salt & pepper?.png` is `salt-pepper-1a2b3c4d.png`)."""
        from slugify import slugify

        stem = slugify(self.path.stem, allow_unicode=True, lowercase=False, max_length=50)
        return f"{stem or 'image'}-{self.sha256[:8]}{self.path.suffix.lower()}"

    @property
    def data_uri(self) -> str:
        return f"data:{self.media_type};base64,{base64.b64encode(self.data).decode('ascii')}"


class ImageError(ValueError):
    """An image that cannot be exported; the message says why, for the author."""


def content_folder(quiz_file: Path) -> Path:
    """The folder that holds the language folders, and every image a quiz may use."""
    return quiz_file.parent.parent


def elsewhere(src: str) -> bool:
    """Whether an image's address leads elsewhere by its form alone: a scheme (`https:`,
    `data:`, `javascript:`) or a host (`//`), rather than a path."""
    return _REMOTE.match(src) is not None


def image_path(src: str, quiz_file: Path) -> Path:
    """The file a quiz file's text names by `src`, inside the content folder; raises
    ImageError for an address that is not such a file's path."""
    if elsewhere(src):
        if src.lower().startswith(("http:", "https:", "//")):
            raise ImageError(
                f"{src[:80]} is on another site, and a quiz page makes no request: download "
                "the image into content/images/ and give its path from this file"
            )
        raise ImageError("an image is a file in the content folder, given by its path")
    written = unquote(src)
    if not written or written.startswith("/") or "\\" in written or "\x00" in written:
        raise ImageError(
            "give the image's path relative to this file, with / between folders, "
            "like ../images/diagram.svg"
        )
    root = content_folder(quiz_file)
    target = Path(os.path.normpath(quiz_file.parent / written))
    if not _inside(target, root):
        raise ImageError(
            f"{written} leads outside the content folder {root}: images go in "
            f"{root / 'images'} (then write ../images/NAME from a language folder)"
        )
    return target


def read_image(target: Path, root: Path, max_bytes: int = MAX_IMAGE_BYTES) -> Image:
    """An image file of the content folder `root`, read and checked; raises ImageError."""
    where = _shown(target, root)
    _media_type(target.suffix, where)
    data = _read(target, where, max_bytes)
    media_type = check_image(data, target.suffix, where, max_bytes)
    return Image(PurePosixPath(target.relative_to(root).as_posix()), media_type, data)


def check_image(data: bytes, suffix: str, where: str, max_bytes: int = MAX_IMAGE_BYTES) -> str:
    """The media type of an image's bytes, checked as an image file of the content folder is
    (its name's type, its size, its bytes, an SVG that only draws); raises ImageError."""
    media_type = _media_type(suffix, where)
    if len(data) > max_bytes:
        raise ImageError(
            f"{where} is {readable_size(len(data))}, over the limit of {readable_size(max_bytes)}"
        )
    found, size = _sniffed_type(data, where)
    if found != media_type:
        what = f"{_TYPE_NAMES[found]} data" if found else "no image data that quizbank reads"
        raise ImageError(f"{where} holds {what}, not what its name says ({suffix})")
    if size is None:
        check_svg(data, where)
    else:
        _check_pixels(size, where)
        _check_raster(data, where)
    return media_type


def _media_type(suffix: str, where: str) -> str:
    media_type = MEDIA_TYPES.get(suffix.lower())
    if media_type is None:
        raise ImageError(
            f"{where} is not a PNG, JPEG, GIF, WebP or SVG file (by its name); "
            "quizbank exports only those"
        )
    return media_type


def _inside(target: Path, root: Path) -> bool:
    """Whether a path, links followed, is in the content folder."""
    real_root = os.path.realpath(root)
    return os.path.realpath(target).startswith(real_root.rstrip(os.sep) + os.sep)


def _shown(target: Path, root: Path) -> str:
    """A path as the author knows it: from the content folder's parent (`content/images/x.png`)."""
    try:
        return target.relative_to(root.parent).as_posix()
    except ValueError:
        return str(target)


def _read(target: Path, where: str, max_bytes: int) -> bytes:
    try:
        if not target.is_file():
            if target.exists():
                raise ImageError(f"{where} is not a file")
            raise ImageError(f"there is no image at {where}")
        size = target.stat().st_size
        if size > max_bytes:
            raise ImageError(
                f"{where} is {readable_size(size)}, over the limit of "
                f"{readable_size(max_bytes)}: make it smaller (or raise the limit with "
                "--max-image-size)"
            )
        with target.open("rb") as handle:
            data = handle.read(max_bytes + 1)
    except OSError as exc:
        raise ImageError(f"cannot read {where}: {exc.strerror or exc}") from None
    if len(data) > max_bytes:  # grew since it was measured
        raise ImageError(f"{where} is over the limit of {readable_size(max_bytes)}")
    return data


def readable_size(size: int) -> str:
    """A size as people read it: 1.5 MiB, 300 KiB, 200 bytes."""
    if size >= 1 << 20:
        return f"{size / (1 << 20):.1f} MiB"
    return f"{size / 1024:.0f} KiB" if size >= 1024 else f"{size} bytes"


def _sniffed_type(data: bytes, where: str) -> tuple[str | None, tuple[int, int] | None]:
    """The media type the bytes show: a raster format Pillow recognises, with its size in pixels
    read from its header (nothing decoded), or SVG. Raises ImageError for a raster image so
    large that Pillow refuses to read even its header."""
    from PIL import Image as PillowImage  # imported only by a bank that has images

    try:
        with _quiet_pillow(), PillowImage.open(io.BytesIO(data)) as picture:
            return _PILLOW_TYPES.get(picture.format or ""), picture.size
    except PillowImage.DecompressionBombError:
        pillows = 2 * (PillowImage.MAX_IMAGE_PIXELS or 0)
        raise ImageError(
            f"{where} is an image of more than {pillows:,} pixels, over the limit of "
            f"{MAX_IMAGE_PIXELS:,} pixels: make it smaller"
        ) from None
    except (OSError, ValueError):
        pass
    return (SVG if _looks_like_svg(data) else None), None


@contextmanager
def _quiet_pillow() -> Iterator[None]:
    """Pillow's warning of a large image kept off the terminal: quizbank counts the pixels
    itself, and refuses too many in its own words."""
    from PIL import Image as PillowImage

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PillowImage.DecompressionBombWarning)
        yield


def _check_pixels(size: tuple[int, int], where: str) -> None:
    """A raster image of at most MAX_IMAGE_PIXELS, counted before it is decoded."""
    width, height = size
    if width * height > MAX_IMAGE_PIXELS:
        raise ImageError(
            f"{where} is {width} by {height} pixels ({width * height:,}), over the limit of "
            f"{MAX_IMAGE_PIXELS:,} pixels: make it smaller"
        )


def _check_raster(data: bytes, where: str) -> None:
    """A raster image that Pillow can read through (not truncated or damaged)."""
    from PIL import Image as PillowImage

    try:
        with _quiet_pillow(), PillowImage.open(io.BytesIO(data)) as picture:
            picture.verify()
    except (OSError, ValueError, SyntaxError, PillowImage.DecompressionBombError) as exc:
        raise ImageError(f"{where} is damaged: {exc}") from None


_SVG_NS = "http://www.w3.org/2000/svg"
_XHTML_NS = "http://www.w3.org/1999/xhtml"
# Elements that run code or show another document, wherever they are.
_ACTIVE = {"script", "foreignObject", "iframe", "embed", "object", "handler", "listener"}
# SMIL's elements that change another element's attribute.
_ANIMATIONS = {"set", "animate", "animateMotion", "animateTransform", "animateColor"}
# CSS functions whose text arguments are addresses to fetch.
_FETCHING = {
    "url",
    "src",
    "image",
    "image-set",
    "-webkit-image-set",
    "cross-fade",
    "-webkit-cross-fade",
}
# Encodings that browsers and libxml2 read alike (ASCII's bytes are ASCII's characters, or
# UTF-16's): in any other, a browser could see markup where quizbank saw text.
_READ_ALIKE = re.compile(
    r"(?:utf-?8|utf-?16(?:-?[lb]e)?|(?:us-)?ascii|iso-?8859-\d+|latin-?1|windows-125\d)",
    re.IGNORECASE,
)


def _hardened_parser(recover: bool = False) -> etree.XMLParser:
    """libxml2 as a check needs it: no DTD loaded, no entity expanded, nothing fetched."""
    from lxml import etree

    return etree.XMLParser(
        resolve_entities=False,
        no_network=True,
        load_dtd=False,
        huge_tree=False,
        recover=recover,
    )


def _looks_like_svg(data: bytes) -> bool:
    """Whether the bytes, read as XML in whatever encoding they declare or their byte order
    mark says, even if broken, have an <svg> root (in any namespace)."""
    from lxml import etree

    try:
        root = etree.fromstring(data, _hardened_parser(recover=True))
    except etree.XMLSyntaxError:
        return False
    return root is not None and etree.QName(root).localname == "svg"


def check_svg(data: bytes, where: str) -> None:
    """An SVG that only draws, decided on its parsed tree whatever its encoding: well-formed,
    no DTD, no script, no event attribute, no `foreignObject` or HTML element, no CSS or link
    reaching anything but its own parts (`#id`), no animation of a link."""
    from lxml import etree  # imported only by a bank that has SVG images

    try:
        root = etree.fromstring(data, _hardened_parser())
    except etree.XMLSyntaxError as exc:
        raise ImageError(f"{where} is not well-formed SVG: {exc}") from None
    document = root.getroottree().docinfo
    if document.internalDTD is not None or document.doctype:
        raise _refused(where, "a <!DOCTYPE> or entity declaration (delete it: SVG needs none)")
    encoding = _encoding(data, document.encoding)
    if not _READ_ALIKE.fullmatch(encoding):
        raise ImageError(
            f"{where} is written in {encoding[:40]!r}, which browsers may read differently "
            "from quizbank: save it as UTF-8"
        )
    outside = [*root.itersiblings(preceding=True), *root.itersiblings()]
    for node in [*outside, *root.iter()]:
        if isinstance(node, etree._ProcessingInstruction) and node.target == "xml-stylesheet":
            raise _refused(where, "a style sheet from outside the file (<?xml-stylesheet?>)")
        if isinstance(node, etree._Entity):  # none without a DTD; a parser may differ
            raise _refused(where, f"the entity reference {node.text!r}")
    if root.tag != f"{{{_SVG_NS}}}svg":
        raise ImageError(f"{where} is XML but not SVG (its root is not <svg> in SVG's namespace)")
    for element in root.iter("*"):
        _check_element(element, where)


def _encoding(data: bytes, declared: str | None) -> str:
    """The encoding of an XML document: UTF-32 by its byte order mark, else as libxml2 read it
    (its declaration, or UTF-8 and UTF-16 by their marks)."""
    if data.startswith((codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE)):
        return "UTF-32"
    return declared or "UTF-8"


def _check_element(element: etree._Element, where: str) -> None:
    """One element that only draws; raises ImageError naming what it holds."""
    from lxml import etree

    qname = etree.QName(element)
    name = str(qname.localname)
    if qname.namespace == _XHTML_NS:
        raise _refused(where, f"an HTML element <{name}>")
    if name in _ACTIVE:
        raise _refused(where, f"a <{name}> element")
    if name == "style":
        # What a browser reads as the style sheet: the element's own text, not its children's.
        css = "".join([element.text or "", *(child.tail or "" for child in element)])
        fetched = _fetched_by_css(css)
        if fetched:
            how, what = fetched
            raise _refused(
                where, f"a style that loads something from outside the file by {how}{what}"
            )
    if name in _ANIMATIONS:
        changed = element.get("attributeName", "").strip()
        if changed.rpartition(":")[2] == "href" or changed.lower().startswith("on"):
            raise _refused(where, f"{_a(name)} <{name}> that changes {changed[:40]!r}")
    for attribute, written in element.attrib.items():
        value = str(written)
        attribute_name = str(etree.QName(attribute).localname)
        if attribute_name.lower().startswith("on"):
            raise _refused(where, f"the event attribute {attribute_name} on <{name}>")
        if attribute_name == "href":
            if not value.startswith("#"):
                raise _refused(where, f"a link to {value[:60]!r} on <{name}>")
            continue
        fetched = _fetched_by_css(value)
        if fetched:
            how, what = fetched
            raise _refused(
                where, f"{_a(how)} {how} to something outside the file on <{name}>{what}"
            )


def _fetched_by_css(css: str) -> tuple[str, str] | None:
    """What in CSS (a style sheet, a style attribute, a presentation attribute's value) would
    load something from outside the file, read as a browser reads it, escapes undone by
    tinycss2: `@import`, or `url(…)`, `image-set(…)` and the like naming anything but `#id`;
    as how (`url(…)`) and what (` ('the address')`, or nothing)."""
    import tinycss2  # type: ignore[import-untyped]  # imported only by a bank that has SVGs

    lowered = css.lower()
    if "@" not in css and not (
        "(" in css and ("\\" in css or any(name in lowered for name in _FETCHING))
    ):
        return None  # no rule, no function that fetches, no escape that could spell one
    pending = list(reversed(tinycss2.parse_component_value_list(css)))  # a stack, first on top
    while pending:
        token = pending.pop()
        kind = token.type
        if kind == "at-keyword" and token.lower_value == "import":
            return "@import", ""
        if kind == "url" and not token.value.startswith("#"):
            return "url(…)", f" ({token.value[:60]!r})"
        if kind == "function":
            texts = [arg.value for arg in token.arguments if arg.type == "string"]
            leaving = [text for text in texts if not text.startswith("#")]
            if token.lower_name in _FETCHING and leaving:
                return f"{token.lower_name}(…)", f" ({leaving[0][:60]!r})"
            pending.extend(reversed(token.arguments))
        elif kind in ("() block", "[] block", "{} block"):
            pending.extend(reversed(token.content))
    return None


def _a(word: str) -> str:
    """The article before a word: `an` before a vowel's sound (image-set, @import, animate)."""
    return "an" if word[:1].lower() in "aeio@" else "a"


def _refused(where: str, what: str) -> ImageError:
    return ImageError(
        f"{where} is refused: it holds {what}, which could run code or fetch something when the "
        "image is opened; quizbank does not change drawings, so remove it from the file"
    )
