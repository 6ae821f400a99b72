"""Faults the AI's games found in Impetus (tests/bot/test_ai_fuzz.py, seeds 3-39 by hand),
each built here as a small state: a retreat placed behind a friend onto the next friend (seeds
14 and 27), an evader turning its base onto a unit beside it (seeds 15 and 23)."""

from __future__ import annotations

import pytest

from rules_core import registry
from rules_core.events import UnitMoved
from rules_core.geometry import Footprint, overlapping
from rules_core.rulesets.impetus import displacement, retreat
from rules_core.rulesets.impetus.status import EVADES
from rules_core.shared_status import LOSSES
from rules_core.state import BattleState
from tests.bot.test_ai_fuzz import fuzzed
from tests.rules_core.rulesets.impetus.combat_helpers import at, context, detach


def _clear(state: BattleState, key: str) -> bool:
    """Whether the unit's base overlaps no other unit's."""
    mine = Footprint.of(state.unit(key))
    return not any(
        overlapping(mine, Footprint.of(other)) for other in state.units_on_table if other.id != key
    )


def _moves(ctx: object, key: str) -> list[UnitMoved]:
    events = ctx.events  # type: ignore[attr-defined]
    return [e for e in events if isinstance(e, UnitMoved) and e.unit == key]


# -- a retreat through a column of friends (seeds 14, 27) ---------------------------------------

# Gallic Skirmishers (S, y 14.5-15.5) lose to the Numidian Horse at their front; behind them the
# Arverni Warband (y 12-14) and, right behind that, the Carnutes Warband (y 10.5-11.5).
COLUMN = {
    "gauls3": (10.0, 15.0, 0.0),
    "romans5": (10.0, 16.25, 180.0),
    "gauls1": (10.0, 13.0, 0.0),
    "gauls2": (10.0, 11.0, 0.0),
}


PASSED = ("passes through Arverni Warband", "passes through Carnutes Warband")
NO_ROOM = (
    "stopped by Arverni Warband (no room behind it: Carnutes Warband (no room behind it: Legio X))"
)


@pytest.mark.parametrize(
    ("behind", "gone", "end_y", "loss", "notes"),
    [
        # The sheet: "Retreat: If allowed [S: interpenetrate any] ... They are placed behind
        # the friendly unit." Behind the Arverni (centre y 11.5) stand the Carnutes: the
        # skirmishers are placed behind them too.
        ({}, 5.0, 10.0, 0, PASSED),
        # Legio X behind the Carnutes: no room there, so the retreat stops at the Carnutes,
        # which would leave the skirmishers inside the Arverni: they stop touching the Arverni
        # and lose the blocked retreat's 1 VBU (``retreat_blocked_loss``).
        ({"romans1": (10.0, 9.5, 180.0)}, 0.5, 14.5, 1, (NO_ROOM,)),
    ],
)
def test_a_retreat_placed_behind_a_friend_meets_the_next_friend_by_the_same_rule(
    behind: dict[str, tuple[float, float, float]],
    gone: float,
    end_y: float,
    loss: int,
    notes: tuple[str, ...],
) -> None:
    ctx = context(detach(at("charge", **COLUMN, **behind)), [1])  # retreat 1H (foot)
    assert retreat.retreat(ctx, ctx.state.unit("gauls3"), ctx.state.unit("romans5")) == gone
    skirmishers = ctx.state.unit("gauls3")
    assert (skirmishers.x, skirmishers.y) == (10.0, end_y)
    assert _clear(ctx.state, "gauls3")
    assert LOSSES.of(skirmishers) == loss
    [moved] = _moves(ctx, "gauls3")
    assert moved.notes == ("retreats 1H from Numidian Horse", *notes)


# -- an evader with no room to turn (seeds 15, 23) ----------------------------------------------

# Gallic Horse (CM, 2H by 1.5H) charged by the Carnutes Warband from its front right: it would
# turn its back (to 213.7°) and move its normal 3H away.
EVADER = {"romans4": (10.0, 5.0, 0.0), "gauls2": (12.0, 8.0, 225.0)}


@pytest.mark.parametrize(
    ("beside", "name"),
    [
        # Legio IX edge to edge at its right: horse may not pass foot (seed 15)
        ({"romans2": (12.0, 5.0, 0.0)}, "Legio IX"),
        # Balearic Slingers (S: passable) 0.25H behind its left: the turn swings onto them and
        # the 3H move does not carry it clear (seed 23, where it ended on them)
        ({"romans6": (9.25, 3.5, 0.0)}, "Balearic Slingers"),
    ],
)
def test_an_evader_whose_turn_would_swing_onto_a_unit_stays(
    beside: dict[str, tuple[float, float, float]], name: str
) -> None:
    state = detach(at("charge", **EVADER, **beside))
    ctx = context(state)
    displacement.evade(ctx, state.unit("romans4"), state.unit("gauls2"))
    horse = ctx.state.unit("romans4")
    assert (horse.x, horse.y, horse.facing) == (10.0, 5.0, 0.0)
    assert _clear(ctx.state, "romans4")
    assert EVADES.of(horse) == 0  # it did not evade
    [moved] = _moves(ctx, "romans4")
    assert moved.notes == (f"no room to turn and evade Carnutes Warband: {name} in the way",)


def test_an_evader_with_room_to_turn_still_evades() -> None:
    state = detach(at("charge", **EVADER, romans2=(13.0, 5.0, 0.0)))  # Legio IX 1H apart
    ctx = context(state)
    displacement.evade(ctx, state.unit("romans4"), state.unit("gauls2"))
    horse = ctx.state.unit("romans4")
    assert horse.facing == pytest.approx(213.69, abs=0.01)
    assert (horse.x, horse.y) == pytest.approx((8.336, 2.504), abs=0.001)  # 3H away
    assert EVADES.of(horse) == 1 and _clear(ctx.state, "romans4")


# -- the seeds that found them now play clean ----------------------------------------------------


def test_the_fuzzer_seeds_that_found_these_faults_play_clean() -> None:
    rules = registry.get("impetus").rules
    assert rules is not None
    for seed in (14, 15, 23, 27):
        _, _, found = fuzzed(rules, seed)
        assert found == [], f"seed {seed}"
