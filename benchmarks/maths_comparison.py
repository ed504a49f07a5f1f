"""Compare two TeX-to-MathML converters, latex2mathml (Python) and temml (Node.js), in Chromium.

    .venv/bin/python benchmarks/maths_comparison.py OUTDIR [--temml /tmp/temml] [--math-font FAMILY]

Writes OUTDIR/maths_comparison.html (one row per formula: TeX source, latex2mathml, temml) and
OUTDIR/maths_comparison.png (a full-page Chromium screenshot taken with Playwright), then prints,
per formula, whether each converter raised and the width x height of each rendered <math> box
(0 x 0 means nothing visible), the conversion times, and what each converter says about a few
malformed inputs. temml is run once through `node` (JSON on stdin and stdout) from the folder
given by --temml, where `npm install temml` was run; it is not a dependency of quizbank.
Both outputs are shown with the same page style and no converter-specific CSS. Chromium draws
radicals, stretchy delimiters and large operators only when <math>'s first font has an OpenType
MATH table, and the generic `math` family does not give it one here: --math-font (default
"DejaVu Math TeX Gyre", an installed math font) names it; --math-font "" shows the browser default.
"""

from __future__ import annotations

import argparse
import html
import json
import subprocess
import time
from pathlib import Path
from typing import TypedDict

from latex2mathml.converter import convert
from playwright.sync_api import sync_playwright

FORMULAS: list[tuple[str, bool]] = [  # (TeX, display mode)
    (r"\frac{a}{b}", False),
    (r"x_i^2", False),
    (r"\sum_{i=1}^{n} i^2", True),
    (r"\begin{pmatrix}1 & 2\\ 3 & 4\end{pmatrix}", True),
    (r"\text{bytes} = 16 \times N", False),
    (r"\alpha + \beta = \gamma", False),
    (r"\sqrt{2}", False),
    (r"\left(\frac{p}{q}\right)^2", False),
    (r"\lceil \frac{S}{B} \rceil", False),
    (r"\int_0^1 x\,dx", True),
    (r"\mathbf{W} \in \mathbb{R}^{m \times n}", False),
    (r"e^{-\lambda t}", False),
    (r"\text{جی پی یو کی تعداد} = 8", False),
    (r"\hat{\theta}_{t+1}", False),
]
MALFORMED: list[str] = [
    r"\frac{a}",
    "x^",
    r"\foo x",
    "{",
    "}",
    r"\left( x",
    r"\end{matrix}",
    "x^^2",
]
CONVERTERS = ("latex2mathml", "temml")

NODE_SCRIPT = """
// require.resolve honours the package's "exports" (its CommonJS build), a bare path would not
const temml = require(require.resolve("temml", {paths: [process.argv[1]]}));
const items = JSON.parse(require("fs").readFileSync(0, "utf8"));
const out = items.map(([tex, displayMode]) => {
  const start = process.hrtime.bigint();
  const seconds = () => Number(process.hrtime.bigint() - start) / 1e9;
  try {
    const mathml = temml.renderToString(tex, {displayMode, throwOnError: true});
    return {mathml, error: null, seconds: seconds()};
  } catch (e) {
    const kind = e instanceof temml.ParseError ? "ParseError" : `${e.name} (not a ParseError)`;
    return {mathml: null, error: `${kind}: ${e.message}`, seconds: seconds()};
  }
});
process.stdout.write(JSON.stringify(out));
"""


class Result(TypedDict):
    mathml: str | None
    error: str | None
    seconds: float


def run_latex2mathml(tex: str, display: bool) -> Result:
    start = time.perf_counter()
    try:
        mathml: str | None = convert(tex, display="block" if display else "inline")
        error = None
    except Exception as e:  # report whatever the converter raises
        mathml, error = None, f"{type(e).__name__}: {e}"
    return {"mathml": mathml, "error": error, "seconds": time.perf_counter() - start}


def run_temml(items: list[tuple[str, bool]], temml_dir: Path) -> tuple[list[Result], float]:
    start = time.perf_counter()
    proc = subprocess.run(
        ["node", "-e", NODE_SCRIPT, str(temml_dir.resolve())],
        input=json.dumps(items),
        capture_output=True,
        text=True,
        encoding="utf-8",
        check=True,
    )
    return json.loads(proc.stdout), time.perf_counter() - start


def cell(result: Result, row: int, name: str) -> str:
    body = result["mathml"] or f'<span class="err">{html.escape(result["error"] or "")}</span>'
    return f'<td data-row="{row}" data-conv="{name}">{body}</td>'


def build_page(results: dict[str, list[Result]], math_font: str) -> str:
    rows = "\n".join(
        f"<tr><td><code>{html.escape(tex)}</code>{' (display)' if display else ''}</td>"
        + "".join(cell(results[name][i], i, name) for name in CONVERTERS)
        + "</tr>"
        for i, (tex, display) in enumerate(FORMULAS)
    )
    font = f"math{{font-family:{json.dumps(math_font)},math}}" if math_font else ""
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>TeX to MathML: latex2mathml vs temml</title>
<style>body{{font:16px sans-serif;margin:1em}} table{{border-collapse:collapse}}
td,th{{border:1px solid #999;padding:.4em .8em;vertical-align:middle}}
td:not(:first-child){{font-size:20px;min-width:16em}}
.err{{color:#b00;font:13px monospace}} {font}</style></head><body>
<table><tr><th>TeX</th><th>latex2mathml</th><th>temml</th></tr>
{rows}
</table></body></html>
"""


def measure(page_path: Path, png_path: Path) -> list[dict[str, object]]:
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium")
        page = browser.new_page(viewport={"width": 1100, "height": 800}, device_scale_factor=2)
        page.goto(page_path.resolve().as_uri())
        page.evaluate("document.fonts.ready")
        page.screenshot(path=str(png_path), full_page=True)
        boxes: list[dict[str, object]] = page.evaluate("""() =>
            [...document.querySelectorAll('td[data-row]')].map(td => {
                const m = td.querySelector('math'), r = m && m.getBoundingClientRect();
                const w = r && r.width, h = r && r.height;
                return {row: +td.dataset.row, conv: td.dataset.conv, w, h};
            })""")
        browser.close()
    return boxes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("outdir", type=Path)
    parser.add_argument(
        "--temml",
        type=Path,
        default=Path("/tmp/temml"),
        help="folder where temml was npm-installed",
    )
    parser.add_argument(
        "--math-font", default="DejaVu Math TeX Gyre", help="font family for <math>"
    )
    args = parser.parse_args()
    args.outdir.mkdir(parents=True, exist_ok=True)

    items = FORMULAS + [(tex, False) for tex in MALFORMED]
    l2m = [run_latex2mathml(tex, display) for tex, display in items]
    tml, node_wall = run_temml(items, args.temml)
    n = len(FORMULAS)
    results = {"latex2mathml": l2m[:n], "temml": tml[:n]}

    page_path = args.outdir / "maths_comparison.html"
    png_path = page_path.with_suffix(".png")
    page_path.write_text(build_page(results, args.math_font), encoding="utf-8")
    boxes = {(b["row"], b["conv"]): b for b in measure(page_path, png_path)}

    print(f"{'TeX':45} " + " ".join(f"{name:>24}" for name in CONVERTERS))
    for i, (tex, _) in enumerate(FORMULAS):
        cols = []
        for name in CONVERTERS:
            b = boxes[(i, name)]
            size = f"{b['w']:.1f} x {b['h']:.1f} px"
            cols.append("RAISED" if results[name][i]["error"] else size)
        print(f"{tex:45} " + " ".join(f"{c:>24}" for c in cols))
    ms = {name: sum(r["seconds"] for r in rs) * 1e3 for name, rs in results.items()}
    print(
        f"\nconversion time for {n} formulas: latex2mathml {ms['latex2mathml']:.1f} ms "
        f"(in-process), temml {ms['temml']:.1f} ms (inside node; the whole node subprocess "
        f"took {node_wall * 1e3:.0f} ms for all {len(items)} inputs)"
    )

    print("\nmalformed input:")
    for j, tex in enumerate(MALFORMED, start=n):
        for name, res in (("latex2mathml", l2m[j]), ("temml", tml[j])):
            said = f"error: {res['error']}" if res["error"] else f"accepted -> {res['mathml']}"
            print(f"  {tex!r:16} {name:13} {said}")
    print(f"\nwrote {page_path} and {png_path}")


if __name__ == "__main__":
    main()
