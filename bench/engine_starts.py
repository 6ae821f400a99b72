"""When each battle's engine work starts, seen from the bench: the engine's entry points
wrapped for a while, each call's start noted under its battle's seed.

A resolution's first engine call is when it starts: before it there is only reading and
waiting (for the write lock, for the engine's worker). Nothing in ``bot/`` is changed; the
wrappers keep the functions' names, so a call handed to a worker process pickles as before
(and is not seen: ``bench.scale`` measures this with its engine in threads, as tests run it).
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from rules_core import engine

WATCHED = ("run", "answer", "answer_default", "settle")  # each takes (rules, seed, ...)


def _watched(work: Callable[..., Any], firsts: dict[bytes, float]) -> Callable[..., Any]:
    @functools.wraps(work)
    def watched(rules: Any, seed: bytes, *args: Any, **kwargs: Any) -> Any:
        firsts.setdefault(seed, time.perf_counter())
        return work(rules, seed, *args, **kwargs)

    return watched


@contextmanager
def engine_starts() -> Iterator[dict[bytes, float]]:
    """While inside: the first engine call's start (``perf_counter``) for each seed."""
    firsts: dict[bytes, float] = {}
    saved = {name: getattr(engine, name) for name in WATCHED}
    for name, work in saved.items():
        setattr(engine, name, _watched(work, firsts))
    try:
        yield firsts
    finally:
        for name, work in saved.items():
            setattr(engine, name, work)
