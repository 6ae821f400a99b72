"""A unit lost whose loss, passed on through a friend, comes back to it (#36: found by the
AI general's games, where the battle stopped with a KeyError)."""

from __future__ import annotations

from rules_core.events import UnitDestroyed
from rules_core.rulesets.heroic_age import units as u
from tests.rules_core.rulesets.heroic_age.helpers import at, context, status


def test_a_loss_that_comes_back_through_a_friend_removes_the_unit_once() -> None:
    # Two Shaken fyrds side by side, one stand each: the first surrenders, its loss costs the
    # second its last stand, and that loss costs the first (still on the table) its own.
    state = at("movement", saxons1=(10, 10, 0), saxons4=(13.5, 10, 0))
    for key in ("saxons1", "saxons4"):
        state = status(state, key, aggression="shaken", casualties=5)
    ctx = context(state)
    u.lose_unit(ctx, "saxons4", "unable to move, surrenders", "surrendered")
    assert not u.alive(ctx.state, "saxons4")
    assert not u.alive(ctx.state, "saxons1")
    gone = [e.unit for e in ctx.events if isinstance(e, UnitDestroyed)]
    assert sorted(gone) == ["saxons1", "saxons4"]
