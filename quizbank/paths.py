"""Field paths: as authors count (`question 3 (resume-state), option 1, text`) and as code
writes them (`questions[2].options[0].text`)."""

from __future__ import annotations

from collections.abc import Sequence

Loc = tuple[str | int, ...]


def format_loc(loc: Sequence[str | int]) -> str:
    """Join a location tuple into a dotted path with list indexes in brackets."""
    text = ""
    for part in loc:
        if isinstance(part, int):
            text += f"[{part}]"
        else:
            text += f".{part}" if text else str(part)
    return text


# A list's items as authors count them: `questions[2]` is "question 3".
ITEM_NAMES = {
    "questions": "question",
    "options": "option",
    "tags": "tag",
    "answer": "answer",
    "pairs": "pair",
    "distractors": "distractor",
    "items": "item",
    "gaps": "gap",
    "variants": "variant",
    "sections": "section",
}


def describe_loc(loc: Sequence[str | int], question_ids: Sequence[str | None] = ()) -> str:
    """A location as an author counts: `question 3 (resume-state), option 2, text`.

    `question_ids`, the ids of the file's questions in order, name a question by its id too.
    """
    words: list[str] = []
    for index, part in enumerate(loc):
        parent = loc[index - 1] if index else None
        if isinstance(part, int) and isinstance(parent, str) and parent in ITEM_NAMES:
            words[-1] = f"{ITEM_NAMES[parent]} {part + 1}"
            named = index == 1 and parent == "questions" and 0 <= part < len(question_ids)
            if named and (question_id := question_ids[part]):
                words[-1] += f" ({question_id})"
        elif isinstance(part, int):
            words.append(f"item {part + 1}")
        elif parent == "gaps":
            words[-1] = f"gap {part!r}"  # a gap is named by its id: `gaps, what` is "gap 'what'"
        else:
            words.append(part)
    return ", ".join(words)
