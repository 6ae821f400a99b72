"""Orders a ruleset adds to the AI general's scripted ones (#36): Heroic Age's leaders
spend their LPs raising the aggression of their units that fight (in combat, or an enemy
within charge reach to the front), lowest level first, each order judged legal."""

from __future__ import annotations

from dataclasses import replace

from rules_core import engine, general
from rules_core.decisions import GM, Answer
from rules_core.general_hints import GeneralHints
from rules_core.orders import Order, Preview
from rules_core.plugin import Rules
from rules_core.registry import get
from rules_core.rulesets.heroic_age.lps import available
from rules_core.rulesets.heroic_age.measure import heading_vector
from rules_core.secrets import Viewer, view
from rules_core.state import BattleState
from rules_core.toolkit import gap

SEED = b"general-adds"


def _heroic() -> Rules:
    rules = get("heroic_age").rules
    assert rules is not None
    return rules


def _leadership(rules: Rules) -> BattleState:
    """The sample battle at its first Leadership step, the questions answered by default."""
    sample = rules.sample_battle()
    assert sample is not None
    state = engine.begin(rules, sample)
    for _ in range(50):
        if state.pending is not None:
            decision = state.pending.decision
            state = engine.answer(
                rules, SEED, state, Answer(decision.id, decision.default, GM)
            ).state
        elif state.cursor.step == "leadership":
            return state
        else:
            state = engine.run(rules, SEED, state, []).state
    raise AssertionError("no Leadership step")


def _facing_an_enemy(state: BattleState, unit_id: str) -> BattleState:
    """The battle with the nearest enemy standing 1" before the unit's front."""
    unit = state.unit(unit_id)
    enemy = min(state.enemies_of(unit.side, on_table=True), key=lambda e: gap(unit, e))
    fx, fy = heading_vector(unit.facing)
    back = (unit.depth + enemy.depth) / 2 + 1.0
    placed = replace(enemy, x=unit.x + fx * back, y=unit.y + fy * back, facing=unit.facing + 180)
    return state.with_unit(placed)


def _raised(rules: Rules, state: BattleState, side: str) -> list[Order]:
    seen = view(state, Viewer.of_side(side))
    advice = general.plan_side(rules, seen, side, seed=0)
    found = [a.order for a in advice if a.order.kind == "change_aggression"]
    assert all(isinstance(rules.judge(seen, o), Preview) for o in found)
    return found


def test_a_leader_raises_the_aggression_of_his_unit_facing_an_enemy() -> None:
    rules = _heroic()
    state = _leadership(rules)
    side = state.sides[0].id
    leader = next(ld for ld in state.leaders if ld.side == side and ld.attached_to)
    home = str(leader.attached_to)
    state = state.with_unit(state.unit(home).with_status(aggression="present"))
    state = _facing_an_enemy(state, home)
    raised = _raised(rules, state, side)
    assert raised and (raised[0].actor, raised[0].params) == (
        leader.id,
        {"unit": home, "change": "raise"},
    )
    seen = view(state, Viewer.of_side(side))
    assert len([o for o in raised if o.actor == leader.id]) <= available(seen, leader) // 2


def test_no_unit_is_raised_away_from_the_enemy_nor_a_shaken_one() -> None:
    """At the start no unit fights; a Shaken unit facing the enemy already counts as lost."""
    rules = _heroic()
    state = _leadership(rules)
    side = state.sides[0].id
    assert not _raised(rules, state, side)
    leader = next(ld for ld in state.leaders if ld.side == side and ld.attached_to)
    home = str(leader.attached_to)
    state = state.with_unit(state.unit(home).with_status(aggression="shaken"))
    state = _facing_an_enemy(state, home)
    assert not [o for o in _raised(rules, state, side) if o.params["unit"] == home]
    seen = view(state, Viewer.of_side(side))
    assert GeneralHints().adds(seen, side) == ()
