"""quizbank.scripts: whether a text is written in its language's script."""

from __future__ import annotations

import itertools

from quizbank import scripts

PARTS = ["چیک پوائنٹ", "save the model", "`torch.save()`", "$x^2$", "$$a b$$", "[guide](x)"]
PARTS += ["![alt text](a.png)", "https://example.org/page", "GPU", "]", "$", "`", "ok"]


def _full(text: str) -> bool:
    """looks_untranslated without its shortcut: spans always taken out first."""
    prose = scripts._UNTRANSLATED_SPANS.sub(" ", text)
    return not scripts.ARABIC.letters.search(prose) and len(scripts._LATIN_WORD.findall(prose)) >= 2


def test_the_shortcut_for_texts_without_spans_changes_no_answer() -> None:
    texts = [" ".join(parts) for parts in itertools.permutations(PARTS, 3)]
    answers = [scripts.looks_untranslated(text, scripts.ARABIC) for text in texts]
    assert answers == [_full(text) for text in texts]
    assert 100 < sum(answers) < len(texts) - 100  # both answers, many times


def test_latin_prose_outside_spans_looks_untranslated() -> None:
    assert scripts.looks_untranslated("save the model", scripts.ARABIC)
    assert not scripts.looks_untranslated("`torch.save()` چیک پوائنٹ", scripts.ARABIC)
    assert scripts.looks_untranslated("`چیک` save the model", scripts.ARABIC)
