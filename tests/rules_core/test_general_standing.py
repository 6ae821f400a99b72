"""The AI general advances on the enemies still standing (#36): a ruleset's ``lost`` hint
names the enemy units its army break already counts (the heroic age's Shaken and broken),
and the general's own advance and turn to face seek the nearest of the others."""

from __future__ import annotations

from dataclasses import replace

from bot import ai_bench
from rules_core import registry
from rules_core.general_candidates import actors, of_actor
from rules_core.general_hints import GeneralHints, standing_enemies
from rules_core.orders import point_param
from rules_core.plugin import Rules
from rules_core.secrets import Viewer, view
from rules_core.state import BattleState
from rules_core.toolkit import gap


def _heroic() -> tuple[Rules, BattleState]:
    rules = registry.get("heroic_age").rules
    assert rules is not None
    state = ai_bench.start(rules, None)
    return rules, replace(state, cursor=replace(state.cursor, turn=2, step="movement"))


def _changed(state: BattleState, unit_id: str, **changes: object) -> BattleState:
    unit = state.unit(unit_id)
    status = changes.pop("status", None)
    moved = replace(unit, **changes)  # type: ignore[arg-type]
    if isinstance(status, dict):
        moved = moved.with_status(**status)
    return replace(state, units=tuple(moved if u.id == unit_id else u for u in state.units))


def _advance_goal(rules: Rules, state: BattleState, unit_id: str) -> tuple[float, float]:
    """Where the general's own advance on the nearest enemy aims for the unit."""
    side = state.unit(unit_id).side
    seen = view(state, Viewer.of_side(side))
    kinds = dict(actors(rules, seen, side))[unit_id]
    found = [
        c
        for c in of_actor(rules, seen, unit_id, kinds)
        if c.role == "advance" and not c.in_line and c.orders[0].kind == "move"
    ]
    assert found, "no advance on the nearest enemy among the candidates"
    return point_param(found[0].orders[0], "to")


def test_the_general_advances_on_the_nearest_enemy_still_standing_not_a_shaken_one() -> None:
    """A Shaken enemy already counts toward its army's loss: chasing it wins nothing."""
    rules, state = _heroic()
    saxon = state.unit("saxons2")
    state = _changed(state, "danes2", x=saxon.x, y=saxon.y + 7.0, status={"aggression": "shaken"})
    enemies = state.enemies_of("saxons", on_table=True)
    nearest = min(enemies, key=lambda e: (gap(saxon, e), e.id))
    assert nearest.id == "danes2"
    standing = min((e for e in enemies if e.id != "danes2"), key=lambda e: (gap(saxon, e), e.id))
    assert _advance_goal(rules, state, "saxons2") == (standing.x, standing.y)


def test_with_every_enemy_lost_the_general_still_advances_on_the_nearest() -> None:
    rules, state = _heroic()
    for enemy in state.enemies_of("saxons", on_table=True):
        state = _changed(state, enemy.id, status={"aggression": "shaken"})
    saxon = state.unit("saxons2")
    nearest = min(state.enemies_of("saxons", on_table=True), key=lambda e: (gap(saxon, e), e.id))
    assert _advance_goal(rules, state, "saxons2") == (nearest.x, nearest.y)


def test_by_default_no_enemy_counts_as_lost() -> None:
    rules, state = _heroic()
    state = _changed(state, "danes2", status={"aggression": "shaken"})
    hints = GeneralHints()
    assert not hints.lost(state, state.unit("danes2"))
    assert standing_enemies(state, "saxons", hints) == state.enemies_of("saxons", on_table=True)
    assert rules.general.lost(state, state.unit("danes2"))
