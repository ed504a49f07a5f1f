"""Images in texts: found where an author wrote them, checked, and read once for every export.

An image is a Markdown image whose path is relative to the quiz file, as any Markdown editor
resolves it (`![Shards on three ranks](../images/shards.svg)` from `content/en/x.yaml`), and
must be a file of the content folder (the folder of the language folders). It must be PNG,
JPEG, GIF, WebP or SVG, as its name says and its bytes show (Pillow reads the raster formats),
at most `max_bytes`. An SVG is refused, not cleaned, when it holds what could act or fetch:
scripts, event attributes, `foreignObject`, a reference to anything outside the file, a DTD. A
drawing changed silently could lose what the author meant; the error says what to remove.
Remote images are refused: a quiz page makes no request.
"""

from __future__ import annotations

import base64
import hashlib
import io
import os
import re
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path, PurePosixPath
from urllib.parse import unquote

MAX_IMAGE_BYTES = 1 << 20  # the default limit of one image's size
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
    found = _sniffed_type(data)
    if found != media_type:
        what = f"{_TYPE_NAMES[found]} data" if found else "no image data that quizbank reads"
        raise ImageError(f"{where} holds {what}, not what its name says ({suffix})")
    if media_type == SVG:
        check_svg(data, where)
    else:
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


def _sniffed_type(data: bytes) -> str | None:
    """The media type the bytes show: a raster format Pillow recognises, or SVG."""
    from PIL import Image as PillowImage  # imported only by a bank that has images

    try:
        with PillowImage.open(io.BytesIO(data)) as picture:
            return _PILLOW_TYPES.get(picture.format or "")
    except (OSError, ValueError, PillowImage.DecompressionBombError):
        pass
    head = data[:512].lstrip(b"\xef\xbb\xbf \t\r\n")
    if head.startswith(b"<") and b"<svg" in data[:4096]:
        return SVG
    return None


def _check_raster(data: bytes, where: str) -> None:
    """A raster image that Pillow can read through (not truncated or damaged)."""
    from PIL import Image as PillowImage

    try:
        with PillowImage.open(io.BytesIO(data)) as picture:
            picture.verify()
    except (OSError, ValueError, SyntaxError, PillowImage.DecompressionBombError) as exc:
        raise ImageError(f"{where} is damaged: {exc}") from None


_XLINK = "{http://www.w3.org/1999/xlink}href"
_SVG_NS = "{http://www.w3.org/2000/svg}"
_EXTERNAL_URL = re.compile(r"url\(\s*['\"]?\s*(?!#)|@import", re.IGNORECASE)


def check_svg(data: bytes, where: str) -> None:
    """An SVG that only draws: well-formed, no DTD, no script, no event attribute, no
    `foreignObject`, and no reference to anything but its own parts (`#id`)."""
    from lxml import etree  # imported only by a bank that has SVG images

    parser = etree.XMLParser(
        resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False
    )
    try:
        root = etree.fromstring(data, parser)
    except etree.XMLSyntaxError as exc:
        raise ImageError(f"{where} is not well-formed SVG: {exc}") from None
    if b"<?xml-stylesheet" in data:
        raise _refused(where, "a style sheet from outside the file (<?xml-stylesheet?>)")
    if b"<!DOCTYPE" in data or b"<!ENTITY" in data:
        raise _refused(where, "a <!DOCTYPE> or entity declaration (delete it: SVG needs none)")
    if root.tag != f"{_SVG_NS}svg":
        raise ImageError(f"{where} is XML but not SVG (its root is not <svg> in SVG's namespace)")
    for node in root.iter():
        if not isinstance(node.tag, str):
            continue  # a comment or processing instruction: not drawn
        name = str(etree.QName(node).localname)
        if name in ("script", "foreignObject", "iframe", "embed", "object"):
            raise _refused(where, f"a <{name}> element")
        if name == "style" and _EXTERNAL_URL.search(node.text or ""):
            raise _refused(where, "a style that loads something from outside the file")
        for attribute, value in node.attrib.items():
            attribute_name = etree.QName(attribute).localname
            if attribute_name.lower().startswith("on"):
                raise _refused(where, f"the event attribute {attribute_name} on <{name}>")
            value = str(value)
            if (attribute == _XLINK or attribute_name == "href") and not value.startswith("#"):
                raise _refused(where, f"a link to {value[:60]!r} on <{name}>")
            if _EXTERNAL_URL.search(value):
                raise _refused(where, f"a url(…) to something outside the file on <{name}>")


def _refused(where: str, what: str) -> ImageError:
    return ImageError(
        f"{where} is refused: it holds {what}, which could run code or fetch something when the "
        "image is opened; quizbank does not change drawings, so remove it from the file"
    )
