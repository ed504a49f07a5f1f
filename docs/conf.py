"""Sphinx configuration of quizbank's documentation site (built by scripts/docs-build).

The pages are Markdown (MyST); the theme is Furo; docs/_ext/command_reference.py writes the
command reference from quizbank's own argument parser while the site is built.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent / "_ext"))

project = "quizbank"
author = "The quizbank developers"
copyright = "the quizbank developers"

extensions = ["myst_parser", "command_reference"]
source_suffix = {".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "_ext"]
myst_heading_anchors = 3
myst_enable_extensions = ["colon_fence", "deflist"]
# Every page is in the table of contents; a page left out of it is a warning, so an error.
nitpicky = True

html_theme = "furo"
html_title = "quizbank"
html_static_path: list[str] = []
html_copy_source = False
html_show_sourcelink = False
html_last_updated_fmt = None
