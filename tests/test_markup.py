"""`quizbank.markup`: `to_plain` (Moodle names, plug-ins) and the core's `@@PLUGINFILE@@` escape.

tests/test_plain_text.py has the plain cases of `to_plain`, tests/test_pluginfile.py those of the
escape, and tests/test_markup_fast_path.py compares the fast path with markdown-it."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from test_markup_fast_path import PIECES, _random_texts

from quizbank import markup
from quizbank.markup import to_html, to_plain


@pytest.mark.parametrize(
    ("markdown", "plain"),
    [
        # Markdown ends a line at \r as at \n and \r\n (markdown-it too): never glued words.
        ("Line one\rLine two", "Line one Line two"),
        ("First paragraph.\r\rSecond one.", "First paragraph. Second one."),
        ("Pick:\r- `torch.save`\r- **pickle**", "Pick: torch.save pickle"),
        ("run, in this order:\r\n\r\n1. git init\r\n2. git add", None),
        # An ordered list's numbers as a reader sees them, whatever the source repeats.
        ("Steps:\n\n1. init\n1. add\n1. commit", "Steps: 1. init 2. add 3. commit"),
        ("Steps:\n\n3) init\n3) add", "Steps: 3) init 4) add"),
        ("Steps:\n\n01. init\n02. add", "Steps: 1. init 2. add"),
        ("1. a\n   1. x\n   1. y\n1. b", "1. a 1. x 2. y 2. b"),
        # Headings, code blocks and table cells are words of their own.
        ("# Title\nBody", "Title Body"),
        ("Before\n\n    indented code\nAfter", "Before indented code After"),
        ("| a | b |\n|---|---|\n| c | d |", "a b c d"),
        ("Term\\\nnext", "Term next"),
    ],
)
def test_block_boundaries_become_one_space(markdown: str, plain: str | None) -> None:
    expected = plain or "run, in this order: 1. git init 2. git add"
    assert to_plain(markdown) == expected


@pytest.mark.parametrize("text", ["", " ", "   ", "\t", "\n", " \n\t ", "\r\n", "\xa0"])
def test_blank_text_is_empty(text: str) -> None:
    assert to_plain(text) == ""


def _texts(count: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    pieces = [*PIECES, "\r", "\r\n", "\r\r", "1. ", "1) ", "3. "]
    return [
        rng.choice(["", " "]).join(rng.choices(pieces, k=rng.randint(1, 10))) for _ in range(count)
    ]


def test_never_padded_and_words_never_glued() -> None:
    """On every path (fast, one line, blocks) the result is words and single spaces."""
    for text in _texts(3000, seed=19):
        plain = to_plain(text)
        assert plain == " ".join(plain.split()), repr(text)


def test_fast_path_gives_what_the_slow_path_gives(monkeypatch: pytest.MonkeyPatch) -> None:
    texts = [t for t in _random_texts(1000, seed=23) if markup._plain_pieces(t) is not None]
    texts += ["a  b", "a\t`x  y`", "**a**  *b*", "x\u2003y", "`  `", "` `"]
    assert len(texts) > 500
    fast = [to_plain(t) for t in texts]
    monkeypatch.setattr(markup, "_plain_pieces", lambda text: None)
    assert [to_plain(t) for t in texts] == fast


@pytest.mark.parametrize(
    ("text", "html"),
    [
        ("چیک پوائنٹ لوڈ کریں", "چیک\xa0پوائنٹ لوڈ کریں"),  # noqa: RUF001
        ("دو چیک پوائنٹس اور میٹا ڈیٹا", "دو چیک\xa0پوائنٹس اور میٹا\xa0ڈیٹا"),  # noqa: RUF001
        ("**ڈیٹا لوڈر** کی پیش رفت", "<strong>ڈیٹا\xa0لوڈر</strong> کی پیش\xa0رفت"),
        ("`چیک پوائنٹ` کوڈ میں", '<code dir="ltr" lang="en">چیک پوائنٹ</code> کوڈ میں'),
    ],
)
def test_urdu_terms_stay_on_one_line(text: str, html: str) -> None:
    """A known multi-word term (quizbank/locale/ur/no-break-terms.txt) is joined by a no-break
    space in text, never in code; English has no list."""
    assert to_html(text, "ur", inline=True) == html
    assert "\xa0" not in to_html("check point", "en")


def test_every_term_of_the_list_is_joined() -> None:
    path = Path(markup.__file__).with_name("locale") / "ur" / markup.TERMS_FILE
    terms = [t for t in path.read_text(encoding="utf-8").splitlines() if t and t[0] != "#"]
    assert len(terms) >= 4
    for term in terms:
        assert " " in term and to_html(term, "ur", inline=True) == term.replace(" ", "\xa0")


@pytest.mark.parametrize(
    ("text", "html"),
    [
        ("ہر state_dict() میں", 'ہر <bdi lang="en">state_dict()</bdi> میں'),
        (
            "torch.load(path, weights_only=True) سے",
            '<bdi lang="en">torch.load(path, weights_only=True)</bdi> سے',
        ),
        ("(RNG) کی حالت", '(<bdi lang="en">RNG</bdi>) کی حالت'),
        ("`x()` ہے", '<code dir="ltr" lang="en">x()</code> ہے'),
    ],
)
def test_latin_runs_in_urdu_are_isolated_and_english(text: str, html: str) -> None:
    """A Latin run keeps its call's parentheses and `=` inside its isolation (else right-to-left
    text shows `()state_dict`), and is marked English for screen readers' voice."""
    assert to_html(text, "ur", inline=True) == html
