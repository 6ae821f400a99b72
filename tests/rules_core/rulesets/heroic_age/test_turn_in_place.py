"""A change of direction turns the stands in place; they may not end over another unit, as a
move may not (found by the AI's games: tests/bot/test_ai_fuzz.py, heroic age seed 0)."""

from __future__ import annotations

from rules_core.geometry import Footprint, overlapping
from rules_core.orders import Illegal, Order, Preview
from rules_core.rulesets.heroic_age import movement
from tests.rules_core.rulesets.heroic_age.helpers import RULES, at, context

# Somerset Thegns (3" wide, 2" deep) with the Wessex Fyrd edge to edge behind them: facing
# east, the Thegns' 3" frontage would reach 0.5" into the Fyrd.
CLOSE = {"saxons2": (10.0, 5.0, 0.0), "saxons4": (10.0, 3.0, 0.0)}
EAST = Order("saxons2", "manoeuvre", {"option": "change_direction", "to": [20, 5]})


def test_a_change_of_direction_onto_a_friend_is_refused_with_its_reason() -> None:
    verdict = RULES.judge(at("movement", **CLOSE), EAST)
    assert isinstance(verdict, Illegal)
    assert (
        verdict.reason == "Somerset Thegns cannot turn there: its base would end over Wessex Fyrd"
    )
    apart = at("movement", saxons2=(10.0, 5.0, 0.0), saxons4=(10.0, 1.0, 0.0))
    assert isinstance(RULES.judge(apart, EAST), Preview)


def test_a_turn_the_ground_no_longer_allows_is_not_made() -> None:
    ctx = context(at("movement", **CLOSE))
    movement.manoeuvre(ctx, ctx.state.unit("saxons2"), EAST)
    thegns, fyrd = ctx.state.unit("saxons2"), ctx.state.unit("saxons4")
    assert thegns.facing == 0.0
    assert not overlapping(Footprint.of(thegns), Footprint.of(fyrd))
    free = context(at("movement", saxons2=(10.0, 5.0, 0.0)))
    movement.manoeuvre(free, free.state.unit("saxons2"), EAST)
    assert free.state.unit("saxons2").facing == 90.0
