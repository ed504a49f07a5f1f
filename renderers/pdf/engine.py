"""Typst, the engine that sets the PDF: compiling the template with one document's data.

Typst is one self-contained wheel (HarfBuzz-compatible shaping, bidi, maths, font subsetting,
tagged PDF). The fonts it needs from the system are named here: a missing one is an error that
says which package installs it, never a PDF with boxes for letters.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from importlib.resources import files
from typing import Any

try:
    import typst
except ImportError as exc:  # the registry reports it; `-f pdf` then says what is missing
    raise ImportError(
        "the pdf format needs the typst package: pip install 'typst>=0.14' "
        "(it is a dependency of quizbank: reinstall quizbank to get it)"
    ) from exc

from quizbank.errors import RendererError

TEMPLATE = files(__package__).joinpath("exam.typ").read_bytes()
# Fonts the template names, and the Debian package that installs each.
FONT_PACKAGES = {
    "Noto Sans": "fonts-noto-core",
    "Noto Nastaliq Urdu": "fonts-noto-core",
    "DejaVu Sans Mono": "fonts-dejavu-core",
}
PAPERS = {"a4": "a4", "letter": "us-letter"}


class EngineError(RendererError):
    """The PDF could not be set (a font is missing, Typst refused the document)."""


def compile_pdf(data: Mapping[str, Any], images: Mapping[str, bytes], paper: str) -> bytes:
    """One PDF from the template and its data; raises EngineError."""
    sources: dict[str, bytes] = {"main.typ": TEMPLATE, **images}
    inputs = {"data": json.dumps(data, ensure_ascii=False), "paper": PAPERS[paper]}
    try:
        # A mapping of file names to bytes is a project in memory (typst-py's stubs omit it).
        pdf, warnings = typst.compile_with_warnings(sources, sys_inputs=inputs)  # type: ignore[call-overload]
    except typst.TypstError as exc:  # a bug in the template or its data
        raise EngineError(f"Typst could not set the PDF: {exc}") from None
    missing = sorted({name for name in FONT_PACKAGES if _unknown_font(warnings, name)})
    if missing:
        packages = " ".join(sorted({FONT_PACKAGES[name] for name in missing}))
        raise EngineError(
            f"the pdf format needs the font {', '.join(missing)}, which is not installed: "
            f"apt-get install {packages} (or run scripts/system-deps)"
        )
    return bytes(pdf)


def _unknown_font(warnings: Any, name: str) -> bool:
    return any("unknown font family" in str(w) and name.lower() in str(w).lower() for w in warnings)
