"""Hail Caesar charges never end on another unit: a charger slides along its target's edge to
find room, and with none the charge is refused (ordered) or falls short (carried out)."""

from __future__ import annotations

import random
from dataclasses import replace
from itertools import combinations

from rules_core.context import Context
from rules_core.geometry import Footprint, in_contact, overlapping
from rules_core.orders import Illegal, Order, Preview
from rules_core.rulesets.hail_caesar import measure, movement
from rules_core.rulesets.hail_caesar.rules import HailCaesarRules
from rules_core.rulesets.hail_caesar.sample import sample_battle
from rules_core.state import BattleState
from rules_core.steps import Cursor, Subject

RULES = HailCaesarRules()


def scene(**moves: tuple[float, float, float]) -> BattleState:
    """The sample battle in the Gauls' warband orders, some units moved (x, y, facing)."""
    cursor = Cursor(1, "main", "orders", ("rom", "gau"), 1, (Subject("gau_warbands", "gau"),))
    state = replace(sample_battle(), cursor=cursor)
    for key, (x, y, facing) in moves.items():
        state = state.with_unit(replace(state.unit(key), x=x, y=y, facing=facing))
    return state


def charge(state: BattleState, *chargers: str, target: str) -> Context:
    """Carry out two-move charges at ``target``, one charger after the other."""
    ctx = Context(RULES, state, (), (), random.Random(0))
    for charger in chargers:
        order = Order(charger, "charge", {"target": target})
        movement.carry_out(ctx, order, 2, "ordered: 2 moves")
    return ctx


def friends_overlapping(state: BattleState) -> list[tuple[str, str]]:
    pairs = combinations(state.units_on_table, 2)
    return [
        (a.name, b.name)
        for a, b in pairs
        if a.side == b.side and overlapping(Footprint.of(a), Footprint.of(b))
    ]


def test_a_charger_slides_along_the_edge_to_clear_a_friend_beside_it() -> None:
    # The demo's turn 1 (issue 19): Arverni Warband (8") and Carnutes Warband (6") charge two
    # cohorts half an inch apart; centred on Second Cohort, Carnutes would stand 0.5" into the
    # Arverni. It slides half an inch along Second Cohort's front instead and strikes it.
    state = scene(
        r1=(20, 20, 0), r2=(26.5, 20, 0), g1=(20, 27, 180), g2=(28, 27, 180), r4=(40, 14, 0)
    )
    first = charge(state, "g1", target="r1")
    ctx = charge(first.state, "g2", target="r2")
    carnutes, second = ctx.state.unit("g2"), ctx.state.unit("r2")
    assert (round(carnutes.x, 4), carnutes.y, carnutes.facing) == (27.0, 22.0, 180.0)
    assert in_contact(Footprint.of(carnutes), Footprint.of(second))
    assert friends_overlapping(ctx.state) == []
    assert "charges the front of Second Cohort" in ctx.events[-2].notes  # type: ignore[attr-defined]


def test_two_chargers_converging_on_one_target_do_not_end_on_each_other() -> None:
    # Both warbands charge First Cohort, whose 6" front has room for one of them.
    state = scene(r1=(20, 20, 0), r2=(40, 20, 0), g1=(16, 27, 180), g2=(25, 27, 180))
    ctx = charge(state, "g1", "g2", target="r1")
    arverni, carnutes = ctx.state.unit("g1"), ctx.state.unit("g2")
    assert in_contact(Footprint.of(arverni), Footprint.of(ctx.state.unit("r1")))
    assert friends_overlapping(ctx.state) == []
    assert carnutes.status.get("charged") is not True
    fell = [e for e in ctx.events if getattr(e, "unit", "") == "g2"]
    assert any("no room at First Cohort" in getattr(e, "notes", ())[-1] for e in fell)


def test_a_charge_with_no_room_at_the_target_is_refused_when_ordered() -> None:
    state = scene(r1=(20, 20, 0), r2=(40, 20, 0), g1=(17.5, 22, 180), g2=(24, 28, 180))
    found = RULES.judge(state, Order("g2", "charge", {"target": "r1"}))
    assert found == Illegal(
        found.order, "no room to charge First Cohort: Arverni Warband is in the way"
    )


def test_a_charge_with_room_off_centre_previews_the_distance_to_that_place() -> None:
    state = scene(r1=(20, 20, 0), r2=(26.5, 20, 0), g1=(20, 22, 180), g2=(28, 27, 180))
    found = RULES.judge(state, Order("g2", "charge", {"target": "r2"}))
    assert isinstance(found, Preview)
    assert found.summary.startswith('charges the front of Second Cohort, 5.1" away')
    pose, edge = measure.charge_room(state, state.unit("g2"), state.unit("r2")) or (None, "")
    assert pose is not None and edge == "front" and round(pose.x, 4) == 27.0
