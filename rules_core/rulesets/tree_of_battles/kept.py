"""Answers kept per battle state: one state is asked the same question more than once (the
shots a step's orders plan are judged, then planned again as the step resolves).

A state's ``units`` and ``terrain`` are frozen tuples: answers are filed under their identity
(both held, so their ids are not reused while filed) and the units asked about are held with
each answer, so a unit re-statused or moved (a new ``units`` tuple) is asked afresh. Nothing
here changes what a rule decides, only how often it is worked out.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

from rules_core.state import BattleState, TerrainFeature, Unit

T = TypeVar("T")
KEPT_STATES = 8  # a resolution asks about its newest states only

_Filed = tuple[tuple[Unit, ...], tuple[TerrainFeature, ...], dict[Hashable, tuple[Any, ...]]]
_filed: OrderedDict[tuple[int, int], _Filed] = OrderedDict()
_guard = threading.Lock()


def answer(state: BattleState, key: Hashable, about: tuple[Unit, ...], work: Callable[[], T]) -> T:
    """``work()`` for this state, worked out once per ``key`` while the units ``about`` are
    the same objects; ``work`` must read only the state's units and terrain, ``about`` and
    what ``key`` names."""
    answers = _answers(state)
    found = answers.get(key)
    if found is not None and all(a is b for a, b in zip(found[:-1], about, strict=True)):
        kept: T = found[-1]
        return kept
    worked = work()
    answers[key] = (*about, worked)
    return worked


def _answers(state: BattleState) -> dict[Hashable, tuple[Any, ...]]:
    """The answers filed for the state's units and terrain (a new, empty file if none)."""
    units, terrain = state.units, state.terrain
    key = (id(units), id(terrain))
    with _guard:
        found = _filed.get(key)
        if found is not None and found[0] is units and found[1] is terrain:
            _filed.move_to_end(key)
            return found[2]
        fresh: dict[Hashable, tuple[Any, ...]] = {}
        _filed[key] = (units, terrain, fresh)
        while len(_filed) > KEPT_STATES:
            _filed.popitem(last=False)
        return fresh
