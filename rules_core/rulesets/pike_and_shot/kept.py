"""Answers worked out once per battle state: the Combat and Movement steps ask the same
questions of one state many times (a shooter's targets, the enemy a unit fights, the nearest
enemy, the edge two bases touch), and a state's units and terrain are frozen tuples.

Each answer is kept by the identity of the state's ``units`` and ``terrain`` tuples (held, so
that their ids are not reused while kept) and, for a unit, by the unit object itself: a new
state made by moving or re-statusing any unit has a new ``units`` tuple and asks afresh.
Nothing here changes what a rule decides, only how often it is worked out.
"""

from __future__ import annotations

import math
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

from rules_core.geometry import Footprint, contact_edge
from rules_core.state import BattleState, Unit
from rules_core.toolkit import gap

T = TypeVar("T")
STATES = 16  # states kept at once (a resolution works on the newest few)
EDGES_KEPT = 4_096  # footprint pairs whose touching edge is kept
SLACK = 1e-9  # float noise between a box's distance and shapely's distance of the same bases

_Entry = tuple[tuple[Unit, ...], tuple[Any, ...], dict[Hashable, tuple[Unit, Any]]]
_states: OrderedDict[tuple[int, int, str], _Entry] = OrderedDict()
_edges: OrderedDict[tuple[Footprint, Footprint], str | None] = OrderedDict()
_lock = threading.Lock()


def per_unit(state: BattleState, name: str, unit: Unit, work: Callable[[], T]) -> T:
    """``work()``'s answer for ``unit`` in this state, worked out once (``name`` says which
    question); ``work`` must read nothing but the state's units and terrain and the unit."""
    table = _table(state, name)
    found = table.get(unit.id)
    if found is not None and found[0] is unit:
        answer: T = found[1]
        return answer
    answer = work()
    table[unit.id] = (unit, answer)
    return answer


def _table(state: BattleState, name: str) -> dict[Hashable, tuple[Unit, Any]]:
    """The answers to ``name`` kept for the state's units and terrain."""
    units, terrain = state.units, state.terrain
    key = (id(units), id(terrain), name)
    with _lock:
        found = _states.get(key)
        if found is not None and found[0] is units and found[1] is terrain:
            _states.move_to_end(key)
            return found[2]
        table: dict[Hashable, tuple[Unit, Any]] = {}
        _states[key] = (units, terrain, table)
        while len(_states) > STATES:
            _states.popitem(last=False)
    return table


def touching_edge(a: Footprint, b: Footprint) -> str | None:
    """``geometry.contact_edge(a, b)``, kept per pair of footprints (they never move)."""
    key = (a, b)
    with _lock:
        if key in _edges:
            _edges.move_to_end(key)
            return _edges[key]
    edge = contact_edge(a, b)
    with _lock:
        _edges[key] = edge
        while len(_edges) > EDGES_KEPT:
            _edges.popitem(last=False)
    return edge


def nearest_enemy(state: BattleState, unit: Unit) -> Unit | None:
    """``toolkit.nearest_enemy``: the closest enemy on the table edge to edge, ties to the
    first in roster order; kept per state, and measured exactly only for the enemies whose
    boxes are no further than the best distance found so far."""
    return per_unit(state, "nearest_enemy", unit, lambda: _nearest(state, unit))


def _nearest(state: BattleState, unit: Unit) -> Unit | None:
    """The nearest enemy: by box distance first (never more than the true distance), so that
    the exact distance is measured only while a box could still be nearer than the best."""
    enemies = state.enemies_of(unit.side, on_table=True)
    if not enemies:
        return None
    here = Footprint.of(unit).bounds
    order = sorted(
        (_box_gap(here, Footprint.of(e).bounds), index) for index, e in enumerate(enemies)
    )
    best: tuple[float, int] | None = None
    for low, index in order:
        if best is not None and low - SLACK > best[0]:
            break
        found = (gap(unit, enemies[index]), index)
        best = found if best is None or found < best else best
    assert best is not None
    return enemies[best[1]]


def _box_gap(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    """The distance between two upright boxes (0 when they meet)."""
    dx = max(0.0, b[0] - a[2], a[0] - b[2])
    dy = max(0.0, b[1] - a[3], a[1] - b[3])
    return math.hypot(dx, dy)
