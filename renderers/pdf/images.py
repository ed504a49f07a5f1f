"""Images as Typst reads them from memory: every file handed to the compiler is SVG in UTF-8.

typst-py reads each file of a project in memory as text, and refuses a file that is not UTF-8
(a PNG, a JPEG, an SVG saved as UTF-16 or Latin-1). So an SVG is written again in UTF-8 from
its parsed tree (quizbank checked it when the quiz was validated), and a raster image (PNG,
JPEG, GIF, WebP) becomes an SVG of its own size that holds it as a `data:` URI: Typst embeds
the pixels as they are, and an SVG stays vectors.
"""

from __future__ import annotations

import io
from functools import lru_cache

from lxml import etree
from PIL import Image as Pillow

from quizbank.images import SVG, Image


@lru_cache(maxsize=64)
def typst_image(image: Image) -> bytes:
    """The image as an SVG file in UTF-8 that Typst draws as the image."""
    if image.media_type == SVG:
        return _utf8_svg(image.data)
    return _wrapped(image)


def _utf8_svg(data: bytes) -> bytes:
    parser = etree.XMLParser(
        resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False
    )
    root = etree.fromstring(data, parser)
    return bytes(etree.tostring(root, encoding="UTF-8", xml_declaration=True))


def _wrapped(image: Image) -> bytes:
    with Pillow.open(io.BytesIO(image.data)) as pixels:
        width, height = pixels.size
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}"><image width="{width}" height="{height}" '
        f'href="{image.data_uri}"/></svg>'
    ).encode("ascii")
