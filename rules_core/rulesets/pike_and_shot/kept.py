"""Answers worked out once per battle state: the Combat and Movement steps ask the same
questions of one state many times (a shooter's targets, the enemy a unit fights, the nearest
enemy, the edge two bases touch), and a state's units and terrain are frozen tuples.

Each answer is kept by the identity of the state's ``units`` and ``terrain`` tuples (held, so
that their ids are not reused while kept) and, for a unit, by the unit object itself: a new
state made by moving or re-statusing any unit has a new ``units`` tuple and asks afresh.
Contacts are kept by the layout instead (where every unit stands, not its status): a melee
changes statuses unit by unit, each change a new ``units`` tuple, while nothing moves; when a
few units move (a retreat, a rout), the other units' contacts carry on unless they touched a
moved unit or stand near where it stands now.

Nothing here changes what a rule decides, only how often it is worked out.
"""

from __future__ import annotations

import math
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

from rules_core.geometry import EPSILON, Footprint, contact_edge
from rules_core.state import BattleState, Unit
from rules_core.toolkit import enemies_in_contact as touching_now
from rules_core.toolkit import gap

T = TypeVar("T")
STATES = 16  # states kept at once (a resolution works on the newest few)
EDGES_KEPT = 4_096  # footprint pairs whose touching edge is kept
SLACK = 1e-9  # float noise between a box's distance and shapely's distance of the same bases
NEAR = 0.01  # inches: a unit this near a moved unit's box may touch it (its contacts redone)
MOVED = 8  # more units moved at once than this: the layout's contacts are worked out afresh
CHAIN = 256  # layouts carried on from one another at most (a question walks back through them)

_Entry = tuple[tuple[Unit, ...], tuple[Any, ...], dict[Hashable, tuple[Unit, Any]]]
_states: OrderedDict[tuple[int, int, str], _Entry] = OrderedDict()
_edges: OrderedDict[tuple[Footprint, Footprint], str | None] = OrderedDict()
_lock = threading.Lock()
Place = tuple[str, str, str, float, float, float, float, float]  # what contact reads of a unit
_layouts: OrderedDict[int, tuple[tuple[Unit, ...], _Layout]] = OrderedDict()
_last: list[tuple[tuple[Unit, ...], _Layout]] = []  # the newest layout


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


def beyond(a: Unit, b: Unit, reach: float) -> bool:
    """True if two units' boxes alone show them further apart than ``reach`` (so ``within``
    their edge-to-edge distance is False): a cheap test before the exact one."""
    apart = _box_gap(Footprint.of(a).bounds, Footprint.of(b).bounds)
    return apart - SLACK > reach + EPSILON


def _box_gap(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    """The distance between two upright boxes (0 when they meet)."""
    dx = max(0.0, b[0] - a[2], a[0] - b[2])
    dy = max(0.0, b[1] - a[3], a[1] - b[3])
    return math.hypot(dx, dy)


def enemies_in_contact(state: BattleState, unit: Unit) -> list[Unit]:
    """``toolkit.enemies_in_contact``, kept while no unit moves, leaves or changes side."""
    layout = _contacts(state)
    place = _place(unit)
    found = layout.known(place)
    if found is None:
        found = layout.found[place] = tuple(e.id for e in touching_now(state, unit))
    return [state.unit(key) for key in found]


def per_layout(
    state: BattleState, name: str, unit: Unit, work: Callable[[], Unit | None]
) -> Unit | None:
    """``work()``'s answer for ``unit`` while no unit moves (``name`` says which question): a
    unit of the state or None, kept by its id; ``work`` must read nothing but where the
    units stand (a melee's statuses change between its questions, nobody's place)."""
    table = _contacts(state).answers.setdefault(name, {})
    place = _place(unit)
    if place in table:
        key = table[place]
        return None if key is None else state.unit(key)
    found = work()
    table[place] = None if found is None else found.id
    return found


def engaged(state: BattleState, unit: Unit) -> bool:
    """``toolkit.engaged``: the unit touches an enemy (kept as ``enemies_in_contact``)."""
    return bool(enemies_in_contact(state, unit))


def _place(unit: Unit) -> Place:
    """All that contact reads of a unit: who, whose, where on or off the table, its base."""
    return (
        unit.id,
        unit.side,
        unit.location,
        unit.x,
        unit.y,
        unit.facing,
        unit.frontage,
        unit.depth,
    )


class _Layout:
    """The contacts known for one layout (where every unit stands): those worked out in it, and
    those of the layout before it that the units moved since cannot have changed."""

    def __init__(self, before: _Layout | None = None, moved: tuple[Unit, ...] = ()) -> None:
        """A layout after ``before`` once ``moved`` (their places now) moved, left or turned."""
        self.found: dict[Place, tuple[str, ...]] = {}
        self.answers: dict[str, dict[Place, str | None]] = {}  # see ``per_layout``
        self.before = before
        self.gone = {unit.id for unit in moved}
        self.boxes = [Footprint.of(unit).bounds for unit in moved if unit.on_table]
        self.chain: int = 0 if before is None else before.chain + 1

    def known(self, place: Place) -> tuple[str, ...] | None:
        """The enemies touching the unit at ``place``, if known here or still true from before:
        a unit that touched none of the units moved since and stands nowhere near where they
        stood after moving touches the same enemies (in the same order: no unit came or went)."""
        found = self.found.get(place)
        later: list[_Layout] = [self]
        layout = self.before
        while found is None and layout is not None:
            found = layout.found.get(place)
            if found is None:
                later.append(layout)
                layout = layout.before
        if found is None or layout is None:
            return found
        box = _box(place)
        for step in reversed(later):  # each move since, oldest first
            if place[0] in step.gone or not step.gone.isdisjoint(found):
                return None
            if any(_box_gap(box, other) <= NEAR for other in step.boxes):
                return None
            step.found[place] = found  # still true there: kept for the next question
        return found


def _box(place: Place) -> tuple[float, float, float, float]:
    """The upright box of the base standing at ``place``."""
    x, y, facing, frontage, depth = place[3:]
    return Footprint(x, y, facing, frontage, depth).bounds


def _contacts(state: BattleState) -> _Layout:
    """The contacts kept for the state's layout: the newest layout's when only statuses changed
    since (compared unit by unit, the same objects at once), carried on from it when a few
    units moved (a retreat, a rout), else none."""
    units = state.units
    with _lock:
        found = _layouts.get(id(units))
        if found is not None and found[0] is units:
            return found[1]
        newest = _last[0] if _last else None
    layout = _Layout() if newest is None else _after(newest[1], newest[0], units)
    with _lock:
        _layouts[id(units)] = (units, layout)
        while len(_layouts) > STATES:
            _layouts.popitem(last=False)
        _last[:] = [(units, layout)]
    return layout


def _after(before: _Layout, was: tuple[Unit, ...], now: tuple[Unit, ...]) -> _Layout:
    """The layout of ``now`` after ``before`` (of the units ``was``): the same when nobody
    moved, one carrying its contacts on when a few units moved, a fresh one otherwise."""
    if len(was) != len(now):
        return _Layout()
    moved: list[Unit] = []
    for a, b in zip(was, now, strict=True):
        if a is b:
            continue
        if a.id != b.id or len(moved) > MOVED:
            return _Layout()
        if _place(a) != _place(b):
            moved.append(b)
    if not moved:
        return before
    return _Layout(before if before.chain < CHAIN else None, tuple(moved))
