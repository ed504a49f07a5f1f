"""The live preview follows images too: an edited image re-renders the quizzes that show it,
and a missing one that appears mends the quiz that wanted it."""

from __future__ import annotations

import base64
import shutil
from pathlib import Path

from conftest import CONTENT, QUIZ, REPO
from PIL import Image

from quizbank.registry import discover_renderers
from quizbank.serve import start

MEDIA = REPO / "tests" / "fixtures" / "media"


def test_an_edited_or_restored_image_re_renders_the_quizzes_that_show_it(tmp_path: Path) -> None:
    content = tmp_path / "content"
    shutil.copytree(MEDIA, content)
    for lang in ("en", "ur"):
        shutil.copy(CONTENT / lang / f"{QUIZ}.yaml", content / lang)
    running = start([content], discover_renderers(), port=0)
    try:
        preview = running.preview
        grid = content / "images" / "grid.png"
        page = "/en/media.html"
        Image.new("RGB", (30, 20), "red").save(grid)
        assert preview.update([str(grid)], modified_only=True) == {"media"}
        shown = (preview.lookup(page) or b"").decode()
        assert base64.b64encode(grid.read_bytes()).decode() in shown

        moved = tmp_path / "grid.png"
        grid.rename(moved)
        assert preview.update([str(grid)]) == {"media"}
        broken = (preview.lookup(page) or b"").decode()
        assert "there is no image at content/images/grid.png" in broken
        moved.rename(grid)
        assert preview.update([str(grid)]) == {"media"}
        assert "there is no image" not in (preview.lookup(page) or b"").decode()

        unused = content / "images" / "unused.png"
        shutil.copy(grid, unused)
        assert preview.update([str(unused)]) == set()  # no quiz shows it, none has errors
    finally:
        running.close()
