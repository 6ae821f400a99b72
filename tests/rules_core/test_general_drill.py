"""A ruleset's drill for the AI general (#36): Pike and Shot's stands off until the last turns."""

from __future__ import annotations

import math
from dataclasses import replace

from bot import ai_bench
from rules_core import registry
from rules_core.geometry import Footprint, edge_distance
from rules_core.plugin import Rules
from rules_core.rulesets.pike_and_shot.general_drill import LATE, drill
from rules_core.rulesets.pike_and_shot.kept import engaged, nearest_enemy
from rules_core.state import BattleState, Unit


def test_pike_and_shot_general_stands_off_a_holding_line_until_the_last_turns() -> None:
    """Against a side that holds, the general's units never walk into contact early (the
    demo's drill reaches the enemy's line by the third turn and is beaten piecemeal)."""
    rules = registry.get("pike_and_shot").rules
    assert rules is not None
    state = ai_bench.start(rules, None)
    limit = rules.parameter_values(state.parameters)["max_turns"]
    assert isinstance(limit, int)
    state, _ = ai_bench.play(rules, state, frozenset({"royalists"}), 0, last=limit - LATE - 1)
    assert state.outcome is None
    assert not any(engaged(state, u) for u in state.units_on_table)
    assert state.cursor.turn == limit - LATE
    ahead = [u.y for u in state.units_of("royalists", on_table=True)]
    assert max(ahead) > 30.0  # the line did come on (it started at 5")


def test_pike_and_shot_general_goes_in_only_where_its_melee_dice_win() -> None:
    """On the last turns every unit goes in, but one that would take more unsaved hits than
    it inflicts (raw dragoons against horse) stays out: its rout would only count against it."""
    rules = registry.get("pike_and_shot").rules
    assert rules is not None
    start = ai_bench.start(rules, None)
    limit = rules.parameter_values(start.parameters)["max_turns"]
    assert isinstance(limit, int)
    close = tuple(
        replace(u, y=u.y + 30.0) if u.side == "royalists" else u for u in start.units
    )  # 8" apart: every unit can reach the enemy facing it
    state = replace(
        start, units=close, cursor=replace(start.cursor, turn=limit - LATE, step="movement")
    )
    going_in = {u.type for u in state.units_of("royalists") if _goes_in(rules, state, u)}
    assert "dragoons" not in going_in
    assert "cavalry_brigade" in going_in


def _goes_in(rules: Rules, state: BattleState, unit: Unit) -> bool:
    """Whether the drill moves the unit as far as its nearest enemy (into contact)."""
    order = next((o for o in drill(rules, state, unit.side) or [] if o.actor == unit.id), None)
    enemy = nearest_enemy(state, unit)
    if order is None or enemy is None:
        return False
    path = order.params["path"]
    assert isinstance(path, list) and isinstance(path[-1], list)
    x, y = path[-1]
    assert isinstance(x, float) and isinstance(y, float)
    return math.dist((unit.x, unit.y), (x, y)) >= edge_distance(
        Footprint.of(unit), Footprint.of(enemy)
    )
