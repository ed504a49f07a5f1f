"""Reading the PDFs back as their readers do: pypdf for text, fonts and glyphs, poppler's
pdftoppm for pixels. Shared by the pdf tests."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from PIL import Image
from pypdf import PdfReader
from pypdf.generic import ContentStream

MM = 72 / 25.4


def fonts(reader: PdfReader) -> dict[str, Any]:
    """Every font of every page (by its BaseFont name), with its descendant's descriptor."""
    found: dict[str, Any] = {}
    for page in reader.pages:
        resources = page["/Resources"].get_object()
        for font in resources.get("/Font", {}).values():
            font = font.get_object()
            descriptor = font.get("/FontDescriptor")
            if descriptor is None and "/DescendantFonts" in font:
                descriptor = font["/DescendantFonts"][0].get_object()["/FontDescriptor"]
            found[str(font["/BaseFont"])] = descriptor.get_object() if descriptor else None
    return found


def glyph_ids(reader: PdfReader) -> Iterator[int]:
    """Every glyph id drawn (every font here is Type0, Identity-H: two bytes a glyph)."""
    for page in reader.pages:
        for operands, operator in ContentStream(page.get_contents(), reader).operations:
            strings: list[Any] = []
            if operator == b"Tj":
                strings = [operands[0]]
            elif operator == b"TJ":
                strings = [part for part in operands[0] if not isinstance(part, (int, float))]
            for string in strings:
                data = bytes(string.original_bytes if hasattr(string, "original_bytes") else string)
                yield from (int.from_bytes(data[i : i + 2], "big") for i in range(0, len(data), 2))


def page_images(pdf: Path, out: Path, dpi: int = 50) -> list[Image.Image]:
    """The pages as greyscale images, drawn by poppler."""
    out.mkdir(parents=True, exist_ok=True)
    subprocess.run(
        ["pdftoppm", "-gray", "-r", str(dpi), "-png", str(pdf), str(out / "page")], check=True
    )
    return [Image.open(path) for path in sorted(out.glob("page-*.png"))]


def ink_box(image: Image.Image) -> tuple[int, int, int, int] | None:
    """The box around every pixel darker than light grey."""
    return image.point(lambda value: 255 if value < 200 else 0).getbbox()
