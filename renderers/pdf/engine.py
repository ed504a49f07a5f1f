"""Typst, the engine that sets the PDF: compiling the template with one document's data.

Typst is one self-contained wheel (HarfBuzz-compatible shaping, bidi, maths, font subsetting,
tagged PDF). The fonts it needs from the system are named here: a missing one is an error that
says which package installs it, never a PDF with boxes for letters.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
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
# typst-py keeps what Typst memoized while setting a document until ten later compilations
# have not used it: the layout of a 1000-question exam is some 400 MB, and the four PDFs of
# such a quiz held 1.5 GB. Before a document that would bring the data set since the last time
# past this much, eleven empty compilations let the earlier ones go (half a second after a
# 1000-question exam, milliseconds after small ones).
RETAINED_DATA = 256 * 1024  # bytes of JSON, about 150 MB of Typst's memory
FORGET_AFTER = 11
# One document of many formulas, each set on its own, to learn which Typst refuses.
FORMULAS_PAGE = (
    b'#for f in sys.inputs.keys().sorted() { $ #eval(sys.inputs.at(f), mode: "math") $ }'
)


class EngineError(RendererError):
    """The PDF could not be set (a font is missing, Typst refused the document)."""


class _Typst:
    """Typst in this process: the system's fonts found once (a search of every font folder
    that would cost each PDF 20-200 ms), what each formula's maths gave, memory given back."""

    def __init__(self) -> None:
        self._fonts: typst.Fonts | None = None
        self.retained = 0
        self.formulas: dict[str, bool] = {}  # Typst maths source: whether Typst sets it

    def compile(self, sources: Mapping[str, bytes], inputs: Mapping[str, str]) -> Any:
        """The PDF and Typst's warnings; raises typst.TypstError."""
        if self._fonts is None:
            self._fonts = typst.Fonts()
        size = sum(map(len, inputs.values())) + sum(map(len, sources.values()))
        if self.retained and self.retained + size > RETAINED_DATA:
            for _ in range(FORGET_AFTER):
                typst.compile(b"", font_paths=self._fonts)
            self.retained = 0
        self.retained += size
        # A mapping of file names to bytes is a project in memory (typst-py's stubs omit it).
        return typst.compile_with_warnings(  # type: ignore[call-overload]
            dict(sources), sys_inputs=dict(inputs), font_paths=self._fonts
        )

    def check(self, formulas: Iterable[str]) -> None:
        """Learn which of these Typst maths sources Typst sets: all in one document, then
        halves of a refused document until each refused source stands alone."""
        unknown = sorted({f for f in formulas if f not in self.formulas})
        batches = [unknown] if unknown else []
        while batches:
            batch = batches.pop()
            inputs = {f"{n:06}": formula for n, formula in enumerate(batch)}
            try:
                self.compile({"main.typ": FORMULAS_PAGE}, inputs)
            except RuntimeError:
                half = len(batch) // 2
                if half:
                    batches += [batch[:half], batch[half:]]
                else:
                    self.formulas[batch[0]] = False
            else:
                self.formulas.update(dict.fromkeys(batch, True))


_TYPST = _Typst()


def refused_formulas(formulas: Iterable[str]) -> set[str]:
    """The Typst maths sources, of those given, that Typst refuses to set."""
    formulas = set(formulas)
    _TYPST.check(formulas)
    return {formula for formula in formulas if not _TYPST.formulas[formula]}


def compile_pdf(data: Mapping[str, Any], images: Mapping[str, bytes], paper: str) -> bytes:
    """One PDF from the template and its data (images as UTF-8 files); raises EngineError."""
    sources: dict[str, bytes] = {"main.typ": TEMPLATE, **images}
    inputs = {"data": json.dumps(data, ensure_ascii=False), "paper": PAPERS[paper]}
    try:
        pdf, warnings = _TYPST.compile(sources, inputs)
    except RuntimeError as exc:  # typst.TypstError: a bug in the template or its data
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
