"""The QTI 1.2 renderer's fast paths (renderers/qti12_xml.py) give what the slow ones gave: its
escaping is html.escape's, a text skips the search for Canvas's markup only when that search
would change nothing, and the idents it writes unescaped (the model's ids, languages and
answers' numbers) hold nothing that XML escapes."""

from __future__ import annotations

from html import escape
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import TypeAdapter, ValidationError
from quizbank_renderers.qti12_xml import _CANVAS_MARKUP, Numbers, Texts, _inert, in_text, text

from quizbank.model import GapId, OptionId, Slug

# What the texts' markup and Canvas's own markup are made of, and some Urdu, so that the examples
# often hold a delimiter, a placeholder or a tag.
_PIECES = st.sampled_from(
    [
        "\\",
        "(",
        ")",
        "[",
        "begin",
        "$",
        "$$",
        "IMS-CC-FILEBASE",
        "CANVAS_X",
        "%24",
        "%24IMS-CC-FILEBASE%24",
        "$CANVAS_X$",
        "\\(",
        "%2",
        "4",
        "<code>",
        "</code>",
        "<p>",
        "</p>",
        "&amp;",
        "&",
        "<",
        ">",
        '"',
        "'",
        "]]>",
        " ",
        "a",
        "درست",
        "\u2060",
    ]
)
_TEXTS = st.lists(_PIECES, max_size=12).map("".join) | st.text()


@given(_TEXTS)
def test_text_is_escaped_as_html_escape_escapes_without_quotes(value: str) -> None:
    assert text(value) == escape(value, quote=False)


@given(_TEXTS)
def test_a_text_skips_the_search_for_canvas_markup_only_when_it_would_change_nothing(
    html: str,
) -> None:
    slow = in_text(html, _CANVAS_MARKUP, "\\g<0>\u2060")
    assert _inert(html) == slow
    if "\\" not in html and "$" not in html and "%24" not in html:
        assert slow == html
    assert Texts("en", {}).canvas(html) == slow


@pytest.mark.parametrize("kind", [Slug, OptionId, GapId])
@pytest.mark.parametrize("special", ["&", "<", ">", '"', "'"])
def test_no_id_holds_what_xml_escapes(kind: Any, special: str) -> None:
    """The renderer writes ids (in idents) as they are."""
    adapter: TypeAdapter[str] = TypeAdapter(kind)
    assert adapter.validate_python("a-1") == "a-1"
    with pytest.raises(ValidationError):
        adapter.validate_python(f"a{special}1")


@given(st.lists(st.text(), max_size=20))
def test_answer_numbers_are_digits_one_per_key(keys: list[str]) -> None:
    numbers = Numbers("qb_quiz_en_q1")
    found = {key: numbers(key) for key in keys}
    assert all(number.isdigit() for number in found.values())
    assert len(set(found.values())) == len(found)
    assert [numbers(key) for key in found] == list(found.values())
