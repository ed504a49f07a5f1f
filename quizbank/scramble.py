"""A fixed scrambled order of a question's choices, for what shows them before any script can
shuffle them (a page without JavaScript, a paper copy): the same for a question in every
language and every build, and giving no answer away by where things stand."""

from __future__ import annotations

import random


def scrambled_order(count: int, seed: str, keep: int) -> list[int]:
    """An order of `count` things (their indexes), fixed by `seed`, that leaves none of the
    first `keep` in its own place."""
    rng, order = random.Random(seed), list(range(count))
    while any(order[at] == at for at in range(keep)):
        rng.shuffle(order)
    return order
