"""Answers kept while they cannot change: the engine judges a default hold for every unit of
the acting side at each division's orders step (about sixty judgements a step at 2 x 60 units),
each asking the sequence of play which step it is and which sides act; and a shot's sight is
worked out when it is judged, again when it is resolved, while only statuses change between.

Nothing here changes what a rule decides, only how often it is worked out.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable

from rules_core.orders import Order
from rules_core.plugin import Rules
from rules_core.state import OFF_TABLE, RESERVE, BattleState, TerrainFeature
from rules_core.steps import Cursor
from rules_core.terrain import Sight

CURSORS = 16  # cursors kept at once (a resolution works on the newest one or two)
_Entry = tuple[Rules, Cursor, bool, tuple[str, ...]]
_cursors: OrderedDict[tuple[int, int], _Entry] = OrderedDict()
_lock = threading.Lock()


def plain_hold_allowed(rules: Rules, state: BattleState, order: Order) -> bool:
    """True if ``rules.actor_problem`` finds nothing against a plain hold at a step taking
    holds (the unit is on the table and its side acts); False if either may say otherwise."""
    takes_hold, acting = _step_facts(rules, state)
    if not takes_hold or order.kind in rules.off_table_orders:
        return False
    side = state.owner("unit", order.actor)
    if side is None or (side not in acting and "gm" not in acting):
        return False
    return state.unit(order.actor).location not in (RESERVE, OFF_TABLE)


def _step_facts(rules: Rules, state: BattleState) -> tuple[bool, tuple[str, ...]]:
    """Whether the state's step takes holds, and the sides acting at it (kept per cursor: the
    ruleset's ``acting_sides`` reads nothing but the cursor, a frozen object shared by every
    state of a step)."""
    cursor = state.cursor
    key = (id(rules), id(cursor))
    with _lock:
        found = _cursors.get(key)
        if found is not None and found[0] is rules and found[1] is cursor:
            return found[2], found[3]
    takes_hold = "hold" in rules.sequence.step(cursor.step).order_kinds
    acting = rules.acting_sides(state)
    with _lock:
        _cursors[key] = (rules, cursor, takes_hold, acting)
        while len(_cursors) > CURSORS:
            _cursors.popitem(last=False)
    return takes_hold, acting


SIGHTS = 1_024  # sight lines kept: a shot is judged when given and again when it is resolved
_sights: OrderedDict[tuple[int, Hashable], tuple[tuple[TerrainFeature, ...], Sight]]
_sights = OrderedDict()


def sight(
    terrain: tuple[TerrainFeature, ...], inputs: Hashable, work: Callable[[], Sight]
) -> Sight:
    """``work()``, the sight ``line_of_sight`` finds from ``inputs`` (the viewer's and target's
    footprints and the other units' ids and footprints it is handed) across ``terrain``, kept:
    a shot's sight is asked when it is judged, when it is resolved and by the units near it,
    while statuses change between and nobody moves."""
    key = (id(terrain), inputs)
    with _lock:
        found = _sights.get(key)
        if found is not None and found[0] is terrain:
            _sights.move_to_end(key)
            return found[1]
    answer = work()
    with _lock:
        _sights[key] = (terrain, answer)
        while len(_sights) > SIGHTS:
            _sights.popitem(last=False)
    return answer
