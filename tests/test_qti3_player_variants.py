"""The variants of a question with variables, played in Citolab's QTI 3 player (as
test_qti3_player.py plays every type): each variant is an item of its own, with its own numbers
and key, so the player scores one variant's right answer right and the other's wrong, through its
own response processing, in English and Urdu."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from conftest import REPO
from playwright.sync_api import Browser
from test_qti3 import built, quiz
from test_qti3_player import Player, browser, served, type_in  # noqa: F401  (browser: a fixture)

from quizbank.model import Cloze, Numerical, NumericalGap
from quizbank.variables import expand

VARIABLES = REPO / "tests" / "fixtures" / "variables"


@pytest.fixture(scope="module")
def player(browser: Browser, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Player]:  # noqa: F811
    opened = Player(browser, served(built(VARIABLES, tmp_path_factory.mktemp("calc"))))
    yield opened
    opened.context.close()


def _answers(lang: str, question_id: str) -> tuple[list[float], str, float]:
    """Each variant's right answer, the response's name and the question's points."""
    question = next(q for q in quiz(VARIABLES, lang, "calc").questions if q.id == question_id)
    assert isinstance(question, Numerical | Cloze)
    answers = []
    for _, variant in expand("calc", question):
        if isinstance(variant, Numerical):
            answers.append(variant.answer)
        else:
            assert isinstance(variant, Cloze)
            (gap,) = variant.gaps.values()
            assert isinstance(gap, NumericalGap)
            answers.append(gap.answer)
    name = "RESPONSE" if isinstance(question, Numerical) else "RESPONSE-count"
    return answers, name, question.points


@pytest.mark.parametrize("lang", ["en", "ur"])
@pytest.mark.parametrize("question_id", ["adam-memory", "shards"])
def test_the_player_scores_two_variants_each_by_its_own_answer(
    player: Player, lang: str, question_id: str
) -> None:
    answers, name, points = _answers(lang, question_id)
    first, second = answers[:2]
    assert first != second
    scores = []
    for number, right, wrong in ((1, first, second), (2, second, first)):
        item = f"{question_id}.{number}"
        for what, typed, expected in (("right", right, points), ("the other's", wrong, 0.0)):
            assert player.load(lang, item) == f"quiz.calc.{item}"
            type_in(name, f"{typed:g}")(player.page)
            scores.append((item, what, typed, expected, player.score()))
    print(
        "\n".join(
            f"{lang} {i:15} {w:12} {t:g}: expected {e:g}, player {g:g}" for i, w, t, e, g in scores
        )
    )
    assert [got for *_, got in scores] == [expected for *_, expected, _ in scores]
    assert player.refused == [] and player.errors == []
