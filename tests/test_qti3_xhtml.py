"""qti3_types.xhtml: a text that none of its substitutions would change is returned as it is
(the fast path), and every other one is changed as the substitutions change it."""

from __future__ import annotations

import pytest
from quizbank_renderers.qti3_types import _changed_xhtml, xhtml

from quizbank.markup import to_html

MARKDOWN = [
    "plain words",
    "**bold** and *em* and `code`",
    "~~struck~~ out",
    "![a diagram](images/d.svg)",
    '![a diagram](images/d.svg "its title")',
    "line one  \nline two",
    "3. three\n4. four",
    "1. one\n2. two",
    "| a | b |\n|:-:|--:|\n| 1 | 2 |",
    "[a link](https://example.org)",
    "a formula $x^2$ inline",
    "$$\\frac{1}{2}$$",
    "---",
    "<s>raw</s> & <br> stays escaped",
    "> a quote\n\n- a\n- b",
]
HTML = [
    "",
    "no markup at all",
    "<p>a <strong>paragraph</strong></p>",
    '<img src="a.png" alt="a">',
    '<img src="a.png" alt="a" title="t">',
    "<br /><hr /><wbr><col><source>",
    '<a href="x" rel="noopener">x</a>',
    '<math aria-label="x"><mi>x</mi></math>',
    '<ol start="3"><li>c</li></ol>',
    '<td style="text-align:center">c</td>',
    "<s>gone</s>",
    "</s> alone",
    "<sub>2</sub> <span>s</span> <strong>s</strong>",
    'title="not an image\'s" rel=x',
]


@pytest.mark.parametrize(
    "html", HTML + [to_html(text, lang) for text in MARKDOWN for lang in ("en", "ur")]
)
def test_xhtml_is_every_substitution_applied(html: str) -> None:
    assert xhtml(html) == _changed_xhtml.__wrapped__(html)
