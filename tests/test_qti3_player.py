"""The QTI 3 packages played in a real QTI 3 player: Citolab's qti-components (npm, installed by
`npm ci` from package.json), its prebuilt browser bundle, in Debian's Chromium through
Playwright. Each item of every-type, in English and Urdu, is loaded by the player's own
transformer from the package's files, answered through the page as a learner does (a click on a
choice, typing in a text entry, a drop-down, a radio of the match table, dragging the items to
order), and scored by the player's response processing: SCORE must be the question's points for
the right answer, 0 for a wrong one and the share the key maps for a partly right one.

Every request is answered from this machine: the player, the harness page and the package are
served from memory under a name that never resolves, and any other request is refused and fails
the test. CI installs Chromium (.ci/run) and the player (`npm ci`); these tests fail, not skip,
when either is missing.
"""

from __future__ import annotations

import mimetypes
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import REPO
from playwright.sync_api import Browser, Page, Route, sync_playwright
from quizbank_renderers.qti3_types import literal
from test_qti3 import MEDIA, TYPES, Package, built, quiz

from quizbank.grading import option_grades
from quizbank.model import (
    ChoiceGap,
    Cloze,
    Essay,
    Matching,
    MultipleChoice,
    Numerical,
    NumericalGap,
    Ordering,
    Question,
    ShortAnswer,
    ShortAnswerGap,
    SingleChoice,
    TrueFalse,
)

PLAYER = REPO / "node_modules" / "@citolab" / "qti-components"
CHROMIUM = "/usr/bin/chromium"
ORIGIN = "http://qti3-player.invalid"
# The harness: the player's bundle as an ES module; `loadItem` has the player's transformer
# fetch an item of the package and put it in the page (images addressed relative to the item).
HARNESS = """<!doctype html>
<html><head><meta charset="utf-8"><title>QTI 3 player</title>
<link rel="stylesheet" href="/player/item.css"></head>
<body><main id="item"></main>
<script type="module">
import { qtiTransformItem } from "/player/index.js";
window.loadItem = async (href) => {
  const transformed = await qtiTransformItem().load(href);
  document.querySelector("#item").innerHTML = transformed.html();
  const item = document.querySelector("qti-assessment-item");
  await customElements.whenDefined("qti-assessment-item");
  await item.updateComplete;
  return item.identifier;
};
window.scoreItem = () => {
  const item = document.querySelector("qti-assessment-item");
  item.processResponse();
  return Number(item.getOutcome("SCORE").value);
};
window.playerReady = true;
</script></body></html>
"""
Action = Callable[[Page], None]
Attempt = tuple[str, Action, float]  # what is answered, how, the SCORE it must have


class Player:
    """A page of the player that serves the files it is given and refuses any other request."""

    def __init__(self, browser: Browser, files: dict[str, bytes]) -> None:
        self.files = files
        self.refused: list[str] = []
        self.errors: list[str] = []
        self.context = browser.new_context(viewport={"width": 1000, "height": 800})
        self.context.route("**/*", self._serve)
        self.page = self.context.new_page()
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.page.goto(f"{ORIGIN}/index.html")
        self.page.wait_for_function("window.playerReady === true")

    def _serve(self, route: Route) -> None:
        url = route.request.url
        path = url[len(ORIGIN) :].split("?")[0] if url.startswith(f"{ORIGIN}/") else None
        if path is None or path not in self.files:
            self.refused.append(url)
            route.abort()
            return
        kind = mimetypes.guess_type(path)[0] or "application/octet-stream"
        kind = {".js": "text/javascript", ".xml": "application/xml"}.get(Path(path).suffix, kind)
        route.fulfill(status=200, body=self.files[path], headers={"content-type": kind})

    def load(self, lang: str, question_id: str) -> str:
        identifier: str = self.page.evaluate("href => loadItem(href)", item_href(lang, question_id))
        return identifier

    def score(self) -> float:
        score: float = self.page.evaluate("() => scoreItem()")
        return score


def item_href(lang: str, question_id: str) -> str:
    return f"/{lang}/items/{question_id}.xml"


def served(packages: dict[str, Package]) -> dict[str, bytes]:
    """The harness, the player's prebuilt bundle and style, and each package's files under
    `/<lang>/`."""
    files = {
        "/index.html": HARNESS.encode(),
        "/player/index.js": (PLAYER / "cdn" / "index.js").read_bytes(),
        "/player/item.css": (PLAYER / "dist" / "item.css").read_bytes(),
    }
    for path, package in packages.items():
        lang = path.split("/")[0]
        files.update((f"/{lang}/{name}", data) for name, data in package.items())
    return files


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    assert (PLAYER / "cdn" / "index.js").is_file(), "run `npm ci` to install the QTI 3 player"
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"]
        )
        yield browser
        browser.close()


@pytest.fixture(scope="module")
def player(browser: Browser, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Player]:
    packages = built(TYPES, tmp_path_factory.mktemp("types"))
    opened = Player(browser, served(packages))
    yield opened
    opened.context.close()


# ------------------------------------------------------------------ answering through the page


def choose(*keys: str) -> Action:
    def act(page: Page) -> None:
        for key in keys:
            page.locator(f'qti-simple-choice[identifier="{key}"]').click()

    return act


def type_in(name: str, value: str) -> Action:
    def act(page: Page) -> None:
        field = page.locator(f'qti-text-entry-interaction[response-identifier="{name}"] input')
        field.fill(value)
        field.press("Tab")  # the player takes the response when the field loses focus

    return act


def pick(name: str, key: str) -> Action:
    def act(page: Page) -> None:
        drop_down = page.locator(f'qti-inline-choice-interaction[response-identifier="{name}"]')
        drop_down.locator("button").first.click()
        drop_down.locator(f'qti-inline-choice[identifier="{key}"]').click()

    return act


def match(pairs: list[tuple[str, str]]) -> Action:
    def act(page: Page) -> None:
        for item, target in pairs:
            page.locator(f'qti-match-interaction input[value="item-{item} {target}"]').check()

    return act


def order(keys: list[str]) -> Action:
    """Drag each item, in this order, to the next place of the list."""

    def act(page: Page) -> None:
        for place, key in enumerate(keys):
            page.locator(f'qti-simple-choice[identifier="item-{key}"]').drag_to(
                page.locator(f'qti-order-interaction drop-list[identifier="droplist{place}"]')
            )

    return act


def write(value: str) -> Action:
    def act(page: Page) -> None:
        field = page.locator("qti-extended-text-interaction textarea")
        field.fill(value)
        field.press("Tab")

    return act


def together(*actions: Action) -> Action:
    def act(page: Page) -> None:
        for action in actions:
            action(page)

    return act


# -------------------------------------------------------- each type: right, wrong, partly right


def _choice(question: SingleChoice | MultipleChoice) -> list[Attempt]:
    right = [f"choice-{key}" for key in question.answer_ids]
    wrong = next(f"choice-{o.id}" for o in question.options if o.id not in question.answer_ids)
    attempts = [
        ("right", choose(*right), question.points),
        ("wrong", choose(wrong), 0.0),
    ]
    if len(right) > 1:
        share = option_grades(question)[question.answer_ids[0]] * question.points
        attempts.append(("one of the right options", choose(right[0]), share))
    return attempts


def _true_false(question: TrueFalse) -> list[Attempt]:
    right, wrong = ("true", "false") if question.answer else ("false", "true")
    return [("right", choose(right), question.points), ("wrong", choose(wrong), 0.0)]


def _numerical(question: Numerical) -> list[Attempt]:
    edge = repr(question.answer + question.tolerance)
    far = repr(question.answer + 2 * question.tolerance + 1)
    return [
        ("right", type_in("RESPONSE", repr(question.answer)), question.points),
        (f"right at the tolerance's edge ({edge})", type_in("RESPONSE", edge), question.points),
        ("wrong", type_in("RESPONSE", far), 0.0),
    ]


def _short_answer(question: ShortAnswer) -> list[Attempt]:
    first = literal(question.answer[0]) or question.answer[0].replace("*", "")
    typed = first if question.case_sensitive else first.upper()
    attempts = [
        ("right", type_in("RESPONSE", typed), question.points),
        ("wrong", type_in("RESPONSE", "wrong"), 0.0),
    ]
    for answer in question.answer:
        if literal(answer) is None:
            filled = answer.replace("*", "-")
            attempts.append(
                (f"right by a wildcard ({filled})", type_in("RESPONSE", filled), question.points)
            )
    return attempts


def _matching(question: Matching) -> list[Attempt]:
    ids = [pair.id for pair in question.pairs]
    turned = ids[1:] + ids[:1]
    others = ids[2:] + ids[1:2]  # the first pair right, the others turned among themselves
    return [
        ("right", match([(i, f"match-{i}") for i in ids]), question.points),
        ("wrong", match([(i, f"match-{t}") for i, t in zip(ids, turned, strict=True)]), 0.0),
        (
            "the first pair right",
            match(
                [(ids[0], f"match-{ids[0]}")]
                + [(i, f"match-{t}") for i, t in zip(ids[1:], others, strict=True)]
            ),
            question.points / len(ids),
        ),
    ]


def _ordering(question: Ordering) -> list[Attempt]:
    ids = [item.id for item in question.items]
    count = len(ids)
    reversed_right = sum(a == b for a, b in zip(ids, ids[::-1], strict=True))
    return [
        ("right", order(ids), question.points),
        ("wrong", order(ids[1:] + ids[:1]), 0.0),
        ("reversed", order(ids[::-1]), question.points * reversed_right / count),
    ]


def _gap(name: str, gap: Any, right: bool) -> Action:
    if isinstance(gap, ShortAnswerGap):
        return type_in(name, (literal(gap.answer[0]) or "x") if right else "wrong")
    if isinstance(gap, NumericalGap):
        return type_in(name, repr(gap.answer if right else gap.answer + gap.tolerance + 1))
    assert isinstance(gap, ChoiceGap)
    key = gap.answer if right else next(o.id for o in gap.options if o.id != gap.answer)
    return pick(name, f"choice-{key}")


def _cloze(question: Cloze) -> list[Attempt]:
    order_ = question.gap_order
    gaps = [(f"RESPONSE-{gap_id}", question.gaps[gap_id]) for gap_id in order_]
    return [
        ("right", together(*(_gap(n, g, True) for n, g in gaps)), question.points),
        ("wrong", together(*(_gap(n, g, False) for n, g in gaps)), 0.0),
        (
            "the first gap right",
            together(*(_gap(n, g, index == 0) for index, (n, g) in enumerate(gaps))),
            question.points / len(gaps),
        ),
    ]


def _essay(question: Essay) -> list[Attempt]:
    # A person scores it: the player leaves SCORE at 0 (SCORE is external-scored="human").
    return [("an answer", write("The optimizer and RNG states are missing."), 0.0)]


ATTEMPTS: dict[type, Callable[[Any], list[Attempt]]] = {
    SingleChoice: _choice,
    MultipleChoice: _choice,
    TrueFalse: _true_false,
    Numerical: _numerical,
    ShortAnswer: _short_answer,
    Matching: _matching,
    Ordering: _ordering,
    Cloze: _cloze,
    Essay: _essay,
}


def attempts(question: Question) -> list[Attempt]:
    return ATTEMPTS[type(question)](question)


# --------------------------------------------------------------------------------------- tests


@pytest.mark.parametrize("lang", ["en", "ur"])
def test_the_player_scores_every_item_right_wrong_and_partly_right(
    player: Player, lang: str
) -> None:
    source = quiz(TYPES, lang, "every-type")
    scores = []
    for question in source.questions:
        for what, act, expected in attempts(question):
            assert player.load(lang, question.id) == f"quiz.every-type.{question.id}"
            act(player.page)
            got = player.score()
            scores.append((question.id, what, expected, got))
    print(
        "\n".join(
            f"{lang} {q:18} {what:38} expected {e:g}, player {g:g}" for q, what, e, g in scores
        )
    )
    # The player writes a float outcome with toLocaleString(): three decimals at most.
    wrong = [s for s in scores if s[3] != pytest.approx(s[2], abs=1e-3)]
    assert not wrong
    assert {q for q, *_ in scores} == {q.id for q in source.questions}
    assert player.refused == [] and player.errors == []


@pytest.mark.parametrize(
    ("lang", "explanation"), [("en", "The index file maps"), ("ur", "انڈیکس فائل")]
)
def test_the_player_shows_the_chosen_options_feedback_and_the_explanation(
    player: Player, lang: str, explanation: str
) -> None:
    player.load(lang, "pick-one")
    page = player.page
    expect_hidden = page.locator('qti-feedback-inline[identifier="choice-a"]')
    choose("choice-b")(page)
    assert player.score() == 0
    assert page.locator('qti-feedback-inline[identifier="choice-b"]').is_visible()
    assert not expect_hidden.is_visible()
    assert page.get_by_text(explanation).first.is_visible()
    body = page.locator("qti-item-body")
    assert body.get_attribute("lang") == lang
    assert body.get_attribute("dir") == ("rtl" if lang == "ur" else None)


def test_the_player_shows_images_and_formulas_from_the_package(
    browser: Browser, tmp_path_factory: pytest.TempPathFactory
) -> None:
    media = Player(browser, served(built(MEDIA, tmp_path_factory.mktemp("media"))))
    try:
        for lang in ("en", "ur"):
            media.load(lang, "diagram")
            images = media.page.locator("qti-assessment-item img")
            media.page.wait_for_function(
                "() => [...document.querySelectorAll('qti-assessment-item img')]"
                ".every(img => img.complete && img.naturalWidth > 0)"
            )
            assert images.count() == 2
            widths = media.page.eval_on_selector_all(
                "qti-item-body math", "ms => ms.map(m => m.getBoundingClientRect().width)"
            )
            assert widths and all(width > 0 for width in widths)
            choose("choice-a")(media.page)
            assert media.score() == 1
        assert media.refused == [] and media.errors == []
        assert any(path.startswith("/en/images/") for path in media.files)
    finally:
        media.context.close()
