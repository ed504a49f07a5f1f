"""Spreading quiz-by-quiz work over the machine's cores when the bank is big enough to pay."""

from __future__ import annotations

import ctypes
import gc
import os
import signal
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from concurrent.futures import ProcessPoolExecutor

ItemT = TypeVar("ItemT")
ResultT = TypeVar("ResultT")

PARALLEL_THRESHOLD = 8
# Checking and rendering a quiz allocates some hundred thousand objects, nearly all freed by
# reference counting (YAML nodes, dicts, models, Markdown tokens hold no cycles): the default
# collector thresholds (700, 10, 10) run the cycle collector hundreds of times per quiz for
# nothing. These keep it running, about thirty times less often: 7% of a build's time.
GC_THRESHOLDS = (20_000, 50, 100)


def parallel_map(
    func: Callable[[ItemT], ResultT],
    items: Sequence[ItemT],
    jobs: int = 0,
    threshold: int = PARALLEL_THRESHOLD,
    *,
    isolated: bool = False,
) -> Iterator[ResultT]:
    """`map(func, items)` in order, on `jobs` forked processes (0: one per core).

    Workers are forked, so they inherit module state set up before the call; fewer than
    `threshold` items are processed in this process, where starting workers would cost more
    than it saves. `isolated` work always runs in forked workers, one of them if need be, so
    that what it allocates on the way to its results never enters this process.
    """
    workers = jobs or os.cpu_count() or 1
    with tuned_gc():
        if not isolated and (workers < 2 or len(items) < threshold):
            yield from map(func, items)
            return
        # Imported here: a command that checks one file never starts a worker.
        from concurrent.futures import ProcessPoolExecutor
        from multiprocessing import get_context

        chunk = max(1, min(16, len(items) // (workers * 4)))
        # What exists now (modules, renderers, templates) lives as long as the workers: frozen,
        # the collector never walks it there, nor writes to its pages, which stay shared.
        gc.freeze()
        try:
            pool = ProcessPoolExecutor(workers, get_context("fork"), initializer=_start_worker)
            try:
                yield from pool.map(func, items, chunksize=chunk)
            except BaseException:
                _kill(pool)
                raise
            pool.shutdown()
        finally:
            gc.unfreeze()


def _kill(pool: ProcessPoolExecutor) -> None:
    """Stop the workers now, after an error, Ctrl-C or SIGTERM: none of them goes on with the
    items not yet started (a plain shutdown would wait for every one)."""
    processes = getattr(pool, "_processes", None) or {}  # kill_workers() from Python 3.14
    for process in list(processes.values()):
        process.kill()
    pool.shutdown(wait=True, cancel_futures=True)


def _start_worker() -> None:
    gc.set_threshold(*GC_THRESHOLDS)
    _die_with_parent()
    # Ctrl-C reaches the whole process group; the parent alone decides what happens then.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


_PR_SET_PDEATHSIG = 1


def _die_with_parent() -> None:
    """Have Linux kill this worker when its parent dies, even by `kill -9`."""
    parent = os.getppid()
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):  # not Linux: workers end when their pipe closes
        return
    if os.getppid() != parent:  # the parent died before prctl took effect
        os._exit(1)


@contextmanager
def tuned_gc() -> Iterator[None]:
    """The collector thresholds above, for the time of a check or a build."""
    previous = gc.get_threshold()
    gc.set_threshold(*GC_THRESHOLDS)
    try:
        yield
    finally:
        gc.set_threshold(*previous)
