"""Markdown in text fields, rendered once and safely for every renderer that needs HTML.

Raw HTML in content is escaped, never passed through; links may only be http(s) or mailto;
images are off (a quiz page makes no requests). In right-to-left languages, code and runs of
Latin script are bidi-isolated so that `optimizer.state_dict()` never reads backwards.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.common.utils import escapeHtml
from markdown_it.renderer import RendererHTML
from markdown_it.token import Token
from markdown_it.utils import EnvType, OptionsDict

from quizbank.locales import is_rtl

SAFE_SCHEMES = ("http://", "https://", "mailto:")
# A run of Latin letters or digits, possibly several words joined by spaces and punctuation
# that belongs inside such a run (model.safetensors.index.json, PyTorch 2.4, CUDA-12).
_LATIN_RUN = re.compile(
    r"[A-Za-z0-9][A-Za-z0-9_.,:/+\-]*(?:[ \t]+[A-Za-z0-9][A-Za-z0-9_.,:/+\-]*)*"
)


def _safe_link(url: str) -> bool:
    return url.strip().lower().startswith(SAFE_SCHEMES)


def _isolate_latin(text: str) -> str:
    """Escape text and wrap each Latin run in `<bdi>`."""
    out: list[str] = []
    last = 0
    for match in _LATIN_RUN.finditer(text):
        run = match.group().rstrip(".,:")
        end = match.start() + len(run)
        out.append(escapeHtml(text[last : match.start()]))
        out.append(f"<bdi>{escapeHtml(run)}</bdi>")
        last = end
    out.append(escapeHtml(text[last:]))
    return "".join(out)


class _RtlRenderer(RendererHTML):
    """HTML renderer that isolates left-to-right runs inside right-to-left text."""

    def text(self, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType) -> str:
        return _isolate_latin(tokens[idx].content)

    def code_inline(
        self, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType
    ) -> str:
        return f'<code dir="ltr">{escapeHtml(tokens[idx].content)}</code>'


def _parser(rtl: bool) -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False})
    md.enable("table").enable("strikethrough").disable("image")
    md.validateLink = _safe_link  # type: ignore[method-assign]
    if rtl:
        md.renderer = _RtlRenderer(md)
    md.add_render_rule("link_open", _link_open)
    return md


def _link_open(
    self: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType
) -> str:
    token = tokens[idx]
    token.attrSet("rel", "noopener noreferrer")
    return self.renderToken(tokens, idx, options, env)


_PARSERS = {False: _parser(False), True: _parser(True)}


@lru_cache(maxsize=8192)
def to_html(text: str, lang: str = "en", *, inline: bool = False) -> str:
    """Markdown source to safe HTML; `inline` drops the paragraph around a one-line text."""
    md = _PARSERS[is_rtl(lang)]
    html: str = md.renderInline(text) if inline else md.render(text)
    return html.strip()


def to_plain(text: str) -> str:
    """Markdown source to plain text, for places that take no markup (titles, names)."""
    tokens: list[Any] = _PARSERS[False].parseInline(text)
    return (
        "".join(
            child.content
            for token in tokens
            for child in (token.children or [])
            if child.type in ("text", "code_inline")
        ).strip()
        or text
    )
