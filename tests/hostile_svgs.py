"""SVGs that would run a script or reach the network when opened (issue 32, items 1 and 2), and
ordinary SVGs that must keep passing; shared by the check's tests and the browser's.

Each hostile SVG addresses `base` (a URL ending in /) with its own name, so that a logging server
there tells which of them acted: a script requests `<base><name>`, a fetch asks for it.
"""

from __future__ import annotations

from dataclasses import dataclass

SVG_NS = "http://www.w3.org/2000/svg"
HEAD = f'<svg xmlns="{SVG_NS}" xmlns:xlink="http://www.w3.org/1999/xlink" width="40" height="40">'
# In UTF-16LE without a byte order mark these two characters are the bytes `<svg`: what the
# raw-byte sniffing of the old check looked for.
_SVG_IN_UTF16LE = "\u733c\u6776"


@dataclass(frozen=True)
class Hostile:
    name: str  # the file's name, and the path it requests
    data: bytes
    reason: str  # what the refusal says it holds


def _script(url: str) -> str:
    return f"<script>new Image().src = '{url}'</script>"


def _entity_svg(url: str, encoding: str) -> str:
    """An internal DTD entity that hides a <script> from a check that does not expand it."""
    return (
        f'<?xml version="1.0" encoding="{encoding}"?>\n'
        f'<!DOCTYPE svg [<!ENTITY hidden "{_script(url)}">]>\n'
        f"{HEAD}<!-- {_SVG_IN_UTF16LE} -->&hidden;</svg>"
    )


def _utf8(body: str) -> bytes:
    return f"{HEAD}{body}</svg>".encode()


DTD = "a <!DOCTYPE>"


def hostile_svgs(base: str) -> list[Hostile]:
    """The hostile set, each requesting `base` + its name when it acts."""

    def url(name: str) -> str:
        return f"{base}{name}"

    cases: list[Hostile] = []

    def add(name: str, data: bytes, reason: str) -> None:
        cases.append(Hostile(f"{name}.svg", data, reason))

    # Item 1: an encoding the old check did not read, and a DTD entity hiding a script.
    for name, encoding, codec, bom in (
        ("utf16le-bom", "UTF-16", "utf-16-le", True),
        ("utf16le-no-bom", "UTF-16", "utf-16-le", False),
        ("utf16be-bom", "UTF-16", "utf-16-be", True),
        ("utf32le-bom", "UTF-32", "utf-32-le", True),
        ("utf32be-bom", "UTF-32", "utf-32-be", True),
        ("utf8-bom", "UTF-8", "utf-8", True),
    ):
        text = ("\ufeff" if bom else "") + _entity_svg(url(f"entity-{name}.svg"), encoding)
        add(f"entity-{name}", text.encode(codec), DTD)
    stylesheet = f'<?xml-stylesheet type="text/css" href="{url("stylesheet-utf16.svg")}"?>'
    add(
        "stylesheet-utf16",
        f"{stylesheet}<!-- {_SVG_IN_UTF16LE} -->{HEAD}</svg>".encode("utf-16-le"),
        "a style sheet from outside the file (<?xml-stylesheet?>)",
    )

    # Item 2: CSS that fetches, plainly and through CSS escapes, in <style> and style="".
    def style(name: str, css: str, reason: str) -> None:
        add(
            name, _utf8(f'<style>{css}</style><rect width="40" height="40"/><text>x</text>'), reason
        )

    def inline(name: str, css: str, reason: str) -> None:
        add(name, _utf8(f'<rect width="40" height="40" style="{css}"/>'), reason)

    u = url
    style("style-url", f"rect {{ mask-image: url({u('style-url.svg')}) }}", "url(")
    style(
        "style-url-escaped", rf"rect {{ mask-image: \75rl({u('style-url-escaped.svg')}) }}", "url("
    )
    style("style-url-string", f"rect {{ mask-image: url('{u('style-url-string.svg')}') }}", "url(")
    style("style-import", f'@import "{u("style-import.svg")}";', "@import")
    style("style-import-escaped", rf'@\69mport "{u("style-import-escaped.svg")}";', "@import")
    style("style-import-url", rf"@\000069mport url({u('style-import-url.svg')});", "@import")
    style(
        "style-image-set",
        f"rect {{ mask-image: image-set('{u('style-image-set.svg')}' 1x) }}",
        "image-set(",
    )
    style(
        "style-image-set-escaped",
        rf"rect {{ mask-image: im\61ge-set('{u('style-image-set-escaped.svg')}' 1x) }}",
        "image-set(",
    )
    style(
        "style-webkit-image-set",
        f"rect {{ mask-image: -webkit-image-set(url({u('style-webkit-image-set.svg')}) 1x) }}",
        "url(",
    )
    style(
        "style-font-face",
        f"@font-face {{ font-family: x; src: url({u('style-font-face.svg')}) }} "
        "text { font-family: x }",
        "url(",
    )
    inline("inline-url", f"mask-image: url({u('inline-url.svg')})", "url(")
    inline("inline-url-escaped", rf"mask-image: \75rl({u('inline-url-escaped.svg')})", "url(")
    inline(
        "inline-image-set", f"mask-image: image-set('{u('inline-image-set.svg')}' 1x)", "image-set("
    )
    inline(
        "inline-image-set-escaped",
        rf"mask-image: \69mage-set('{u('inline-image-set-escaped.svg')}' 1x)",
        "image-set(",
    )
    add(
        "attribute-url-escaped",
        _utf8(rf'<rect width="40" height="40" mask="\75rl({u("attribute-url-escaped.svg")})"/>'),
        "url(",
    )

    # Item 2: SMIL that changes a link.
    target = 'width="40" height="40" href="#nothing"'
    add(
        "smil-set-href",
        _utf8(f'<image {target}><set attributeName="href" to="{u("smil-set-href.svg")}"/></image>'),
        "a <set> that changes 'href'",
    )
    add(
        "smil-animate-xlink-href",
        _utf8(
            f'<image {target}><animate attributeName="xlink:href" dur="0.2s" fill="freeze" '
            f'values="#nothing;{u("smil-animate-xlink-href.svg")}"/></image>'
        ),
        "an <animate> that changes 'xlink:href'",
    )
    add(
        "smil-set-fill-url",
        _utf8(
            f'<rect width="40" height="40"><set attributeName="mask" '
            f'to="url({u("smil-set-fill-url.svg")})"/></rect>'
        ),
        "url(",
    )

    # What the old check already refused: links, javascript:, event attributes, scripts.
    add(
        "image-href",
        _utf8(f'<image width="9" height="9" href="{u("image-href.svg")}"/>'),
        "a link to",
    )
    add(
        "image-xlink-href",
        _utf8(f'<image width="9" height="9" xlink:href="{u("image-xlink-href.svg")}"/>'),
        "a link to",
    )
    add("use-href", _utf8(f'<use href="{u("use-href.svg")}#x"/>'), "a link to")
    add(
        "a-javascript",
        _utf8(f"<a href=\"javascript:new Image().src='{u('a-javascript.svg')}'\"><rect/></a>"),
        "a link to",
    )
    add(
        "onload",
        f"{HEAD[:-1]} onload=\"new Image().src='{u('onload.svg')}'\"></svg>".encode(),
        "the event attribute onload",
    )
    add("script", _utf8(_script(u("script.svg"))), "a <script> element")
    add(
        "xhtml-img",
        _utf8(f'<img xmlns="http://www.w3.org/1999/xhtml" src="{u("xhtml-img.svg")}"/>'),
        "an HTML element <img>",
    )
    return cases


ORDINARY_STYLE = (
    f'<svg xmlns="{SVG_NS}" viewBox="0 0 100 50">'
    "<style>/* colours */ .a { fill: #2b6cb0; stroke: rgb(0 0 0 / 50%) } "
    ".b { fill: url(#fade); font: 12px 'DejaVu Sans' } @media print { .a { fill: black } }</style>"
    '<defs><linearGradient id="fade"><stop offset="0" stop-color="#fff"/>'
    '<stop offset="1" stop-color="#000"/></linearGradient>'
    '<clipPath id="clip"><rect width="50" height="50"/></clipPath></defs>'
    '<rect class="a" width="40" height="40" style="filter: none; marker-end: url(#clip)"/>'
    '<rect class="b" x="50" width="40" height="40" fill="url(#fade)" clip-path="url(#clip)"/>'
    '<a href="#fade"><text x="5" y="45">a &amp; b &#x3c; c</text></a>'
    '<use href="#fade"/><circle r="4"><animate attributeName="r" values="4;8" dur="1s"/>'
    '<set attributeName="fill" to="url(#fade)"/></circle></svg>'
)


def ordinary_svgs() -> dict[str, bytes]:
    """SVGs that only draw, in the encodings and forms authors' tools write."""
    declared = f'<?xml version="1.0" encoding="UTF-16"?>\n{ORDINARY_STYLE}'
    inkscape = (
        '<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n'
        f'<svg xmlns="{SVG_NS}" xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape" '
        'xmlns:sodipodi="http://sodipodi.sourceforge.net/DTD/sodipodi-0.dtd" '
        'xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" '
        'xmlns:cc="http://creativecommons.org/ns#" width="10" height="10" '
        'sodipodi:docname="drawing.svg" inkscape:version="1.2">'
        '<sodipodi:namedview id="view" pagecolor="#ffffff"/><metadata><rdf:RDF><cc:Work '
        'rdf:about=""/></rdf:RDF></metadata><g inkscape:label="Layer 1" '
        'inkscape:groupmode="layer"><rect width="5" height="5" style="fill:#ff0000"/></g></svg>'
    )
    return {
        "styled.svg": ORDINARY_STYLE.encode(),
        "styled-utf8-bom.svg": ("\ufeff" + ORDINARY_STYLE).encode(),
        "styled-utf16.svg": declared.encode("utf-16"),
        "styled-utf16be-bom.svg": ("\ufeff" + declared).encode("utf-16-be"),
        "inkscape.svg": inkscape.encode(),
    }
