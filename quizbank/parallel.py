"""Spreading quiz-by-quiz work over the machine's cores when the bank is big enough to pay."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from typing import TypeVar

ItemT = TypeVar("ItemT")
ResultT = TypeVar("ResultT")

PARALLEL_THRESHOLD = 8


def parallel_map(
    func: Callable[[ItemT], ResultT], items: Sequence[ItemT], jobs: int = 0
) -> Iterator[ResultT]:
    """`map(func, items)` in order, on `jobs` forked processes (0: one per core).

    Workers are forked, so they inherit module state set up before the call; a small bank is
    processed in this process, where starting workers would cost more than it saves.
    """
    workers = jobs or os.cpu_count() or 1
    if workers < 2 or len(items) < PARALLEL_THRESHOLD:
        yield from map(func, items)
        return
    chunk = max(1, min(16, len(items) // (workers * 4)))
    with ProcessPoolExecutor(workers, mp_context=get_context("fork")) as pool:
        yield from pool.map(func, items, chunksize=chunk)
