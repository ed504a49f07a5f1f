"""What one conversion of a text to Markdown found: what Markdown could not say (its losses)
and the embedded files it shows."""

from __future__ import annotations

from collections.abc import Callable


class Findings:
    """What one conversion found: its losses and images, each once, in order; and
    `image_path(name)`, the path to write for the embedded file `name` (None when the question
    does not embed it)."""

    __slots__ = ("_images", "_losses", "image_path")

    def __init__(self, image_path: Callable[[str], str | None]) -> None:
        self.image_path = image_path
        self._losses: dict[str, None] = {}
        self._images: dict[str, None] = {}

    @property
    def losses(self) -> list[str]:
        return list(self._losses)

    @property
    def images(self) -> list[str]:
        return list(self._images)

    def lost(self, phrase: str) -> None:
        self._losses[phrase] = None

    def shown(self, name: str) -> None:
        self._images[name] = None


def short(text: str, size: int = 60) -> str:
    """Text on one line, cut to `size` characters, to be quoted in a loss."""
    text = " ".join(text.split())
    return text if len(text) <= size else text[: size - 1] + "…"
