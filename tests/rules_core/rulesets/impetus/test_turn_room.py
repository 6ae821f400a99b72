"""Found by the AI's games (tests/bot/test_ai_fuzz.py): a push and a turn that ended on a unit.

A countercharger turns to face the charger where it stands; a turn that would swing its base
into a unit beside it leaves no room to countercharge (found by the AI's games:
tests/bot/test_ai_fuzz.py, seed 31, where the turned Gallic Horse went on through the enemy at
its side and ended inside it)."""

from __future__ import annotations

import math

from rules_core.events import OrderRejected, UnitMoved
from rules_core.geometry import Footprint, overlapping
from rules_core.rulesets.impetus import displacement, retreat
from rules_core.shared_status import LOSSES
from tests.rules_core.rulesets.impetus.combat_helpers import at, context, detach

# Noble Cavalry (2H wide) charged from 45° to its right by Gallic Horse, with the Carnutes
# Warband edge to edge at its right: the quarter turn swings its front right corner into them.
CLOSE = {"gauls4": (10.0, 5.0, 0.0), "romans4": (13.0, 8.0, 225.0), "gauls2": (12.0, 5.0, 0.0)}


def test_no_countercharge_where_the_turn_would_swing_into_a_unit_beside() -> None:
    state = detach(at("charge", **CLOSE))
    ctx = context(state)
    assert displacement.countercharge_move(ctx, state.unit("gauls4"), state.unit("romans4")) == 0
    cavalry = ctx.state.unit("gauls4")
    assert (cavalry.x, cavalry.y, cavalry.facing) == (10.0, 5.0, 0.0)
    assert not overlapping(Footprint.of(cavalry), Footprint.of(ctx.state.unit("gauls2")))
    [moved] = [e for e in ctx.events if isinstance(e, UnitMoved)]
    assert moved.notes == (
        "no room to turn to countercharge Gallic Horse: Carnutes Warband in the way",
    )


def test_a_countercharge_with_room_to_turn_still_moves() -> None:
    state = detach(at("charge", **{**CLOSE, "gauls2": (13.0, 5.0, 0.0)}))  # 1H apart
    ctx = context(state)
    gone = displacement.countercharge_move(ctx, state.unit("gauls4"), state.unit("romans4"))
    cavalry = ctx.state.unit("gauls4")
    assert gone > 0 and math.isclose(cavalry.facing, 45.0)
    assert not overlapping(Footprint.of(cavalry), Footprint.of(ctx.state.unit("gauls2")))


def test_a_friend_that_would_be_pushed_onto_another_friend_stops_the_retreat() -> None:
    # As a friend pushed into an enemy does (test_retreats): Legio X behind Legio IX would be
    # pushed onto the Gallic Horse of its own side behind it (the seed-12 AI game).
    state = detach(at("charge", romans2=(10, 5, 0), gauls2=(10, 6.0, 180), romans1=(10, 3.5, 0),
                      romans4=(10, 1.5, 0)))  # fmt: skip
    ctx = context(state, [6])
    assert retreat.retreat(ctx, ctx.state.unit("romans2"), ctx.state.unit("gauls2")) == 0.5
    legion, pushed = ctx.state.unit("romans2"), ctx.state.unit("romans1")
    assert (legion.x, legion.y) == (10, 4.5)  # stopped touching Legio X
    assert (pushed.x, pushed.y) == (10, 3.5)
    assert LOSSES.of(legion) == 1


def test_no_charge_on_after_an_evasion_where_the_turn_would_swing_into_a_unit_beside() -> None:
    # Legio IX turns 34° left to charge on after the Noble Cavalry that evaded; the Gallic
    # Horse edge to edge at its left leave it no room (the seed-25 AI game).
    state = detach(at("charge", romans2=(13, 7.5, 0), romans4=(11, 7.5, 0), gauls4=(10, 12, 0)))
    ctx = context(state)
    assert not displacement.charge_on(ctx, state.unit("romans2"), state.unit("gauls4"))
    legion = ctx.state.unit("romans2")
    assert (legion.x, legion.y, legion.facing) == (13, 7.5, 0)
    assert [e.reason for e in ctx.events if isinstance(e, OrderRejected)] == [
        "Noble Cavalry evaded; no room to turn to charge on: Gallic Horse in the way"
    ]
    room = detach(at("charge", romans2=(13, 7.5, 0), romans4=(10, 7.5, 0), gauls4=(10, 12, 0)))
    ctx = context(room)
    displacement.charge_on(ctx, room.unit("romans2"), room.unit("gauls4"))
    assert ctx.state.unit("romans2").y > 7.5  # 1H apart: it turns and charges on
