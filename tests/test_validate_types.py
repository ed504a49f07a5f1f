"""Each question type's own mistakes and its rules across languages, reported as an author
reads them: file:line:column, the question, the field and what to do."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import REPO, Run

from quizbank.loader import load_quiz

TYPES = REPO / "tests" / "fixtures" / "types"


@pytest.fixture
def types_bank(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The every-type fixture as content/ in a temporary working folder."""
    shutil.copytree(TYPES, tmp_path / "content")
    monkeypatch.chdir(tmp_path)
    return tmp_path / "content"


def test_every_type_validates_in_both_languages(types_bank: Path, cli: Callable[..., Run]) -> None:
    run = cli("validate")
    assert run.code == 0, run.out
    assert "0 errors, 0 warnings in 2 files" in run.out


CASES = {
    "gap-mark": (
        "en",
        "[[count]] files here",
        "[[count]] files here\U000f0001",
        [
            "content/en/every-type.yaml:66:13: error: question 8 (index-gaps), prompt: the prompt holds U+F0001, a private-use character that quizbank uses to place a cloze's gaps: delete it"
        ],
    ),
    "gap-no-entry": (
        "en",
        "[[count]] files here",
        "[[count]] files, [[size]] here",
        [
            "content/en/every-type.yaml:66:13: error: question 8 (index-gaps), prompt: the gap [[size]] has no entry in `gaps` (the gaps are what, where, count): add it there, or correct its id"
        ],
    ),
    "gap-unused": (
        "en",
        "count: {type: numerical, answer: 3}",
        "count: {type: numerical, answer: 3}\n      spare: {type: numerical, answer: 4}",
        [
            "content/en/every-type.yaml:76:14: error: question 8 (index-gaps), gap 'spare': the gap 'spare' is used nowhere: write [[spare]] in the prompt where it goes, or delete this entry"
        ],
    ),
    "gap-twice": (
        "en",
        "[[count]] files here",
        "[[count]] files, [[what]] here",
        [
            "content/en/every-type.yaml:66:13: error: question 8 (index-gaps), prompt: the gap [[what]] is in the prompt twice: each gap has its own id"
        ],
    ),
    "neg-tol": (
        "en",
        "tolerance: 0.005",
        "tolerance: -0.005",
        [
            "content/en/every-type.yaml:37:16: error: question 4 (adam-beta1), tolerance: a tolerance cannot be negative (-0.005): it is how far either side of the answer a response may be"
        ],
    ),
    "text-tol": (
        "en",
        "tolerance: 0.005",
        "tolerance: small",
        [
            "content/en/every-type.yaml:37:16: error: question 4 (adam-beta1), tolerance: 'small' is a text, not a number: write the number without quotes, like this: tolerance: 0.005 (or, for a question with variables, a percentage such as 1%)"
        ],
    ),
    "text-answer": (
        "en",
        "answer: 0.9",
        'answer: "0.9"',
        [
            "content/en/every-type.yaml:36:13: error: question 4 (adam-beta1), answer: '0.9' is a text, not a number: write the number without quotes, like this: answer: 0.9"
        ],
    ),
    "sa-none": (
        "en",
        "answer: [safetensors, safe*tensors]",
        "answer: []",
        [
            "content/en/every-type.yaml:43:13: error: question 5 (format-name), answer: give at least one answer: the right options' ids (answer: [a]), or for a short_answer the texts accepted as right (answer: [safetensors])"
        ],
    ),
    "sa-empty": (
        "en",
        "answer: [safetensors, safe*tensors]",
        'answer: [safetensors, ""]',
        [
            "content/en/every-type.yaml:43:27: error: question 5 (format-name), answer 2: this text is empty: write the text, or delete the key if it is optional"
        ],
    ),
    "sa-star": (
        "en",
        "answer: [safetensors, safe*tensors]",
        'answer: ["*"]',
        [
            "content/en/every-type.yaml:43:14: error: question 5 (format-name), answer 1: this accepted answer is only `*`, which matches every response: write the answer (`*` stands for any run of characters inside it)"
        ],
    ),
    "match-one": (
        "en",
        "      - {id: rng, item: RNG state, match: The same dropout masks}\n      - {id: sched, item: Scheduler state, match: The learning rate at this step}\n",
        "",
        [
            "content/en/every-type.yaml:49:7: error: question 6 (state-parts), pairs: give at least 2 pairs here"
        ],
    ),
    "match-dup-id": (
        "en",
        "{id: rng, item: RNG state",
        "{id: opt, item: RNG state",
        [
            "content/en/every-type.yaml:50:14: error: question 6 (state-parts), pair 2, id: duplicate pair id 'opt' (also pair 1)"
        ],
    ),
    "match-dup-text": (
        "en",
        "match: The same dropout masks",
        "match: Adam's moment estimates",
        [
            "content/en/every-type.yaml:50:43: error: question 6 (state-parts), pair 2, match: this match has the same text as pair 1's match; a learner cannot tell them apart"
        ],
    ),
    "distractor-dup": (
        "en",
        "{id: lr, text: The model's accuracy}",
        "{id: lr, text: The same dropout masks}",
        [
            "content/en/every-type.yaml:53:24: error: question 6 (state-parts), distractor 1, text: this match has the same text as pair 2's match; a learner cannot tell them apart"
        ],
    ),
    "order-one": (
        "en",
        '      - {id: restore, text: "Restore optimizer, scheduler and RNG state"}\n      - {id: seek, text: Move the data loader to the saved position}\n',
        "",
        [
            "content/en/every-type.yaml:60:7: error: question 7 (resume-order), items: give at least 2 items here"
        ],
    ),
    "order-dup": (
        "en",
        "{id: seek,",
        "{id: load,",
        [
            "content/en/every-type.yaml:62:14: error: question 7 (resume-order), item 3, id: duplicate item id 'load' (also item 1)"
        ],
    ),
    "words": (
        "en",
        "min_words: 5",
        "min_words: 500",
        [
            "content/en/every-type.yaml:81:16: error: question 9 (why-weights-only), min_words: min_words (500) is more than max_words (200): no answer could have both"
        ],
    ),
    "pairs-on-num": (
        "en",
        "    tolerance: 0.005\n",
        "    tolerance: 0.005\n    pairs: []\n",
        [
            "content/en/every-type.yaml:38:5: error: question 4 (adam-beta1), pairs: 'pairs' is not used by numerical questions, only by matching questions"
        ],
    ),
    "shuffle-ordering": (
        "en",
        "  - id: resume-order\n    type: ordering\n",
        "  - id: resume-order\n    type: ordering\n    shuffle: false\n",
        [
            "content/en/every-type.yaml:58:5: error: question 7 (resume-order), shuffle: an ordering question's items are always shuffled for learners (they are written in the right order): delete `shuffle`"
        ],
    ),
    "gap-type": (
        "en",
        "count: {type: numerical, answer: 3}",
        "count: {type: essay, answer: 3}",
        [
            "content/en/every-type.yaml:75:21: error: question 8 (index-gaps), gap 'count', type: unknown gap type 'essay'; use one of short_answer, numerical, single_choice"
        ],
    ),
    "gap-key": (
        "en",
        "count: {type: numerical, answer: 3}",
        "count: {type: numerical, answer: 3, case_sensitive: true}",
        [
            "content/en/every-type.yaml:75:43: error: question 8 (index-gaps), gap 'count', case_sensitive: 'case_sensitive' is not used by numerical gaps, only by short_answer gaps"
        ],
    ),
    "x-num": (
        "ur",
        "answer: 0.9",
        "answer: 0.8",
        [
            "content/ur/every-type.yaml:36:13: error: question 4 (adam-beta1), answer: the answer is 0.8 here but 0.9 in content/en/every-type.yaml"
        ],
    ),
    "x-tol": (
        "ur",
        "tolerance: 0.005",
        "tolerance: 0.01",
        [
            "content/ur/every-type.yaml:37:16: error: question 4 (adam-beta1), tolerance: the tolerance is 0.01 here but 0.005 in content/en/every-type.yaml"
        ],
    ),
    "x-pairs": (
        "ur",
        "      - {id: rng,",
        "      - {id: rngs,",
        [
            "content/ur/every-type.yaml:48:5: error: question 6 (state-parts), pairs: the pair ids are opt, rngs, sched here but opt, rng, sched in content/en/every-type.yaml: keep the same pairs in the same order"
        ],
    ),
    "x-pair-order": (
        "ur",
        "      - {id: opt, item: آپٹیمائزر کی حالت, match: Adam کے مومنٹ کے تخمینے}\n      - {id: rng, item: RNG کی حالت, match: ڈراپ آؤٹ کے وہی ماسک}\n",
        "      - {id: rng, item: RNG کی حالت, match: ڈراپ آؤٹ کے وہی ماسک}\n      - {id: opt, item: آپٹیمائزر کی حالت, match: Adam کے مومنٹ کے تخمینے}\n",
        [
            "content/ur/every-type.yaml:48:5: error: question 6 (state-parts), pairs: the pair ids are rng, opt, sched here but opt, rng, sched in content/en/every-type.yaml: keep the same pairs in the same order"
        ],
    ),
    "x-distractor": (
        "ur",
        "{id: lr, text:",
        "{id: acc, text:",
        [
            "content/ur/every-type.yaml:52:5: error: question 6 (state-parts), distractors: the distractor ids are acc here but lr in content/en/every-type.yaml: keep the same distractors in the same order"
        ],
    ),
    "x-items": (
        "ur",
        "{id: seek,",
        "{id: move,",
        [
            "content/ur/every-type.yaml:59:5: error: question 7 (resume-order), items: the item ids are load, restore, move here but load, restore, seek in content/en/every-type.yaml: keep the same items in the same order"
        ],
    ),
    "x-gap-order": (
        "ur",
        "ہر [[what]] کے نام کو اس [[where]]",
        "ہر [[where]] کے نام کو اس [[what]]",
        [
            "content/ur/every-type.yaml:66:13: error: question 8 (index-gaps), prompt: the prompt has the gaps where, what, count in this order here but what, where, count in content/en/every-type.yaml"
        ],
    ),
    "x-gap-type": (
        "ur",
        "count: {type: numerical, answer: 3}",
        "count: {type: short_answer, answer: تین}",
        [
            "content/ur/every-type.yaml:75:21: error: question 8 (index-gaps), gap 'count', type: the gap type is 'short_answer' here but 'numerical' in content/en/every-type.yaml"
        ],
    ),
    "x-gap-num": (
        "ur",
        "count: {type: numerical, answer: 3}",
        "count: {type: numerical, answer: 4}",
        [
            "content/ur/every-type.yaml:75:40: error: question 8 (index-gaps), gap 'count', answer: the answer is 4 here but 3 in content/en/every-type.yaml"
        ],
    ),
    "x-gap-choice": (
        "ur",
        "        answer: a\n      count",
        "        answer: b\n      count",
        [
            "content/ur/every-type.yaml:74:17: error: question 8 (index-gaps), gap 'where', answer: the answer is 'b' here but 'a' in content/en/every-type.yaml"
        ],
    ),
    "x-shuffle": (
        "ur",
        "    shuffle: false\n",
        "",
        [
            "content/ur/every-type.yaml:16:5: error: question 2 (pick-all), shuffle: shuffle is true here but false in content/en/every-type.yaml"
        ],
    ),
    "x-untranslated-match": (
        "ur",
        "match: ڈراپ آؤٹ کے وہی ماسک",
        "match: The same dropout masks",
        [
            "content/ur/every-type.yaml:50:45: error: question 6 (state-parts), pair 2, match: looks untranslated: a 'ur' text with no Arabic-script (Urdu) letters ('The same dropout masks')"
        ],
    ),
    "x-untranslated-gapopt": (
        "ur",
        "{id: a, text: شارڈ فائل}",
        "{id: a, text: shard file}",
        [
            "content/ur/every-type.yaml:72:27: error: question 8 (index-gaps), gap 'where', option 1, text: looks untranslated: a 'ur' text with no Arabic-script (Urdu) letters ('shard file')"
        ],
    ),
    "x-essay-type": (
        "ur",
        "    type: essay\n",
        "    type: short_answer\n",
        [
            "content/ur/every-type.yaml:77:5: error: question 9 (why-weights-only), answer: this required field is missing",
            "content/ur/every-type.yaml:80:5: error: question 9 (why-weights-only), grader_info: 'grader_info' is not used by short_answer questions, only by essay questions",
            "content/ur/every-type.yaml:81:5: error: question 9 (why-weights-only), min_words: 'min_words' is not used by short_answer questions, only by essay questions",
            "content/ur/every-type.yaml:82:5: error: question 9 (why-weights-only), max_words: 'max_words' is not used by short_answer questions, only by essay questions",
        ],
    ),
}


@pytest.mark.parametrize("case", CASES)
def test_a_type_mistake_is_reported_where_it_is(
    types_bank: Path, cli: Callable[..., Run], case: str
) -> None:
    lang, old, new, expected = CASES[case]
    path = types_bank / lang / "every-type.yaml"
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    run = cli("validate")
    assert run.code == 1
    assert run.errors == expected


def test_a_cloze_is_worth_one_point_per_gap_by_default(types_bank: Path) -> None:
    quiz = load_quiz(types_bank / "en" / "every-type.yaml").quiz
    assert quiz is not None
    (cloze,) = [q for q in quiz.questions if q.type == "cloze"]
    assert cloze.points == 3


def test_cloze_points_moodle_cannot_share_equally_are_a_warning(
    types_bank: Path, cli: Callable[..., Run]
) -> None:
    for lang in ("en", "ur"):
        path = types_bank / lang / "every-type.yaml"
        text = path.read_text(encoding="utf-8")
        path.write_text(
            text.replace(
                "      count: {type: numerical, answer: 3}\n",
                "      count: {type: numerical, answer: 3}\n    points: 2\n",
            ),
            encoding="utf-8",
        )
    run = cli("validate")
    assert run.code == 0
    assert [line for line in run.lines if ": warning: " in line] == [
        f"content/{lang}/every-type.yaml:76:13: warning: question 8 (index-gaps), points: Moodle weighs each gap with a whole number: 2 points cannot be shared equally among 3 gaps there, so Moodle stores the question's mark as 3 (the gaps' shares stay equal); make points a multiple of 3"
        for lang in ("en", "ur")
    ]
