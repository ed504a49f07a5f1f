"""The picture of the quiz page in the README and on the docs site's home page: the first
question of the bundled checkpoint-sharding quiz as a learner sees it on a phone, in English and
in Urdu side by side, built from content/ by `quizbank build -f html` and drawn by Chromium.

Run from the repository's root, with the test extra installed (Playwright):
    .venv/bin/python scripts/readme_images.py [OUT]      (default docs/images/quiz-en-ur.png)
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

from PIL import Image
from playwright.sync_api import ViewportSize, sync_playwright

QUIZ = "checkpoint-sharding"
CHROMIUM = "/usr/bin/chromium"
PHONE: ViewportSize = {"width": 375, "height": 640}
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]
GAP = 24


def build(out: Path) -> Path:
    """The bundled content's HTML pages, built into `out`; the html folder."""
    command = [sys.executable, "-m", "quizbank", "build", "content", "-f", "html", "-o", str(out)]
    subprocess.run([*command, "--no-cache"], check=True, capture_output=True)
    return out / "html"


def shoot(pages: Path, work: Path) -> list[Path]:
    """A phone-sized screenshot of the top of each language's page."""
    shots = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for lang in ("en", "ur"):
            page = browser.new_page(viewport=PHONE, device_scale_factor=2)
            page.goto((pages / lang / f"{QUIZ}.html").as_uri())
            page.wait_for_load_state("load")
            shot = work / f"{lang}.png"
            page.screenshot(path=str(shot))
            shots.append(shot)
        browser.close()
    return shots


def side_by_side(shots: list[Path], out: Path) -> None:
    """The screenshots in one picture, left to right, on white."""
    images = [Image.open(shot).convert("RGB") for shot in shots]
    width = sum(image.width for image in images) + GAP * (len(images) + 1)
    height = max(image.height for image in images) + 2 * GAP
    picture = Image.new("RGB", (width, height), "white")
    x = GAP
    for image in images:
        picture.paste(image, (x, GAP))
        x += image.width + GAP
    picture = picture.resize((width // 2, height // 2), Image.Resampling.LANCZOS)
    out.parent.mkdir(parents=True, exist_ok=True)
    picture.save(out, optimize=True)


def main() -> None:
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "docs/images/quiz-en-ur.png")
    with tempfile.TemporaryDirectory() as scratch:
        work = Path(scratch)
        side_by_side(shoot(build(work / "dist"), work), out)
    print(out)


if __name__ == "__main__":
    main()
