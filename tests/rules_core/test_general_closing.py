"""The AI general's drills that bring armies to grips (#36): the heroic age's units close to
charge reach facing the enemy, and advance on the enemies still standing; the Tree of Battles
reads an army's losses against its start."""

from __future__ import annotations

from dataclasses import replace

from bot import ai_bench
from rules_core import registry
from rules_core.general_candidates import actors, of_actor, scripted
from rules_core.general_hints import GeneralHints, standing_enemies
from rules_core.orders import Order, Preview, point_param
from rules_core.plugin import Rules
from rules_core.rulesets.heroic_age import measure
from rules_core.rulesets.tree_of_battles import general as tree_general
from rules_core.secrets import Viewer, view
from rules_core.state import BattleState, Unit
from rules_core.toolkit import gap


def _heroic(turn: int = 1) -> tuple[Rules, BattleState]:
    rules = registry.get("heroic_age").rules
    assert rules is not None
    state = ai_bench.start(rules, None)
    return rules, replace(state, cursor=replace(state.cursor, turn=turn, step="movement"))


def _placed(state: BattleState, unit_id: str, **changes: object) -> BattleState:
    unit = state.unit(unit_id)
    moved = replace(unit, **changes)  # type: ignore[arg-type]
    return replace(state, units=tuple(moved if u.id == unit_id else u for u in state.units))


def _order(rules: Rules, state: BattleState, unit_id: str) -> Order:
    """The order the general starts from for the unit (its ruleset's drill, else the demo's)."""
    side = state.unit(unit_id).side
    given = scripted(rules, view(state, Viewer.of_side(side)), side)
    found = next(c.orders[0] for c in given if c.actor == unit_id)
    assert isinstance(rules.judge(state, found), Preview), found
    return found


def _at_point(state: BattleState, unit: Unit, order: Order) -> Unit:
    x, y = point_param(order, "to")
    return replace(unit, x=x, y=y)


def test_a_heroic_unit_moves_to_where_the_enemy_stands_square_before_its_front() -> None:
    """An enemy 40° off the front: the move stops where the enemy is within charge reach
    straight ahead (a move keeps the unit's facing). The demo's move went the full rolled
    distance toward the enemy's centre, and lines passed each other."""
    rules, state = _heroic()
    saxon = state.unit("saxons2")  # faces 0° (+y), the Danes 16" away
    state = _placed(state, "danes2", x=saxon.x + 5.5, y=saxon.y + 6.5)
    order = _order(rules, state, "saxons2")
    assert order.kind == "move" and order.params.get("stop_short") == "yes"
    there = _at_point(state, saxon, order)
    moved = replace(state, units=tuple(there if u.id == saxon.id else u for u in state.units))
    assert measure.enemy_to_front(moved, there, 2.0) == moved.unit("danes2")


def test_a_heroic_unit_with_the_enemy_behind_it_about_faces() -> None:
    """An about face (half a move, formed) rather than a change of direction (unformed)."""
    rules, state = _heroic()
    saxon = state.unit("saxons2")
    state = _placed(state, "saxons2", facing=180.0)
    state = _placed(state, "danes2", x=saxon.x, y=saxon.y + 8.0)
    order = _order(rules, state, "saxons2")
    assert (order.kind, order.params.get("option")) == ("manoeuvre", "about_face")


def test_a_heroic_unit_in_blood_lust_closes_without_stopping_short() -> None:
    """Blood Lust may not declare a stop short: its move is still one the judge accepts."""
    rules, state = _heroic()
    dane = state.unit("danes1")
    assert dane.status.get("aggression") == "blood lust"
    order = _order(rules, state, "danes1")
    assert order.kind == "move" and "stop_short" not in order.params


def _shaken(state: BattleState, unit_id: str) -> BattleState:
    return state.with_unit(state.unit(unit_id).with_status(aggression="shaken"))


# The general advances on the enemies still standing: a ruleset's ``lost`` hint names the enemy
# units its army break already counts (the heroic age's Shaken and broken), and the general's
# own advance and turn to face seek the nearest of the others.


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
    rules, state = _heroic(turn=2)
    saxon = state.unit("saxons2")
    state = _shaken(_placed(state, "danes2", x=saxon.x, y=saxon.y + 7.0), "danes2")
    enemies = state.enemies_of("saxons", on_table=True)
    nearest = min(enemies, key=lambda e: (gap(saxon, e), e.id))
    assert nearest.id == "danes2"
    standing = min((e for e in enemies if e.id != "danes2"), key=lambda e: (gap(saxon, e), e.id))
    assert _advance_goal(rules, state, "saxons2") == (standing.x, standing.y)


def test_with_every_enemy_lost_the_general_still_advances_on_the_nearest() -> None:
    rules, state = _heroic(turn=2)
    for enemy in state.enemies_of("saxons", on_table=True):
        state = _shaken(state, enemy.id)
    saxon = state.unit("saxons2")
    nearest = min(state.enemies_of("saxons", on_table=True), key=lambda e: (gap(saxon, e), e.id))
    assert _advance_goal(rules, state, "saxons2") == (nearest.x, nearest.y)


def test_by_default_no_enemy_counts_as_lost() -> None:
    rules, state = _heroic(turn=2)
    state = _shaken(state, "danes2")
    hints = GeneralHints()
    assert not hints.lost(state, state.unit("danes2"))
    assert standing_enemies(state, "saxons", hints) == state.enemies_of("saxons", on_table=True)
    assert rules.general.lost(state, state.unit("danes2"))


def _tree() -> tuple[Rules, BattleState]:
    rules = registry.get("tree_of_battles").rules
    assert rules is not None
    return rules, ai_bench.start(rules, None)


def test_tree_breaking_counts_destroyed_contingents_against_the_start() -> None:
    """Five of six French contingents destroyed: the army reads five sixths of the way to its
    break (it read whole: a destroyed contingent leaves the state)."""
    rules, state = _tree()
    params = rules.parameter_values(state.parameters)
    gone = ("f1", "f2", "f3", "f4", "f5")
    left = replace(state, units=tuple(u for u in state.units if u.id not in gone))
    seen = view(left, Viewer.of_side("english"))
    assert tree_general.breaking(seen, "french", params) > 0.8
    assert tree_general.breaking(view(state, Viewer.of_side("english")), "french", params) == 0
