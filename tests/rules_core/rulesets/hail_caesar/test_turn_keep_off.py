"""A move whose first turn alone would bring the unit within 1" of an enemy (Hail Caesar).

A unit turns to its heading at the start of a move, and a move stops where it first comes
within the keep-off (1") of an enemy. When the turn itself would do so, the move stops
before it: the judge refuses the order with the reason, and a move that reaches the
resolver anyway leaves the unit as it was (unturned), with a note.
"""

from __future__ import annotations

import random
from dataclasses import replace

from rules_core.context import Context
from rules_core.events import UnitMoved
from rules_core.geometry import Footprint
from rules_core.orders import Illegal, Order
from rules_core.rulesets.hail_caesar import measure, movement
from rules_core.rulesets.hail_caesar.rules import HailCaesarRules
from rules_core.rulesets.hail_caesar.sample import sample_battle
from rules_core.state import BattleState
from rules_core.steps import Cursor, Subject

RULES = HailCaesarRules()
TURNED = 'First Cohort would turn within 1" of Arverni Warband'


def state() -> BattleState:
    """The First Cohort (6" by 2") at (20, 8) facing north, 2" short of the Arverni Warband
    (8" by 2", at (22, 12)); turned east about its centre it would reach to 1" of it."""
    cursor = Cursor(1, "main", "orders", ("rom", "gau"), 0, (Subject("rom_legio", "rom"),))
    base = replace(sample_battle(), cursor=cursor)
    cohort = replace(base.unit("r1"), x=20.0, y=8.0, facing=0.0)
    warband = replace(base.unit("g1"), x=22.0, y=12.0, facing=180.0)
    return replace(base, units=(cohort, warband), terrain=())


def test_the_start_pose_is_clear_but_the_turned_one_is_not() -> None:
    here = state()
    cohort = here.unit("r1")
    assert not measure.too_close(here, cohort, Footprint.of(cohort), 1.0)
    turned = Footprint.of(cohort).moved_to((20.0, 8.0), 90.0)
    assert measure.too_close(here, cohort, turned, 1.0) == "Arverni Warband"


def test_the_search_does_not_turn_a_unit_within_the_keep_off() -> None:
    here = state()
    cohort = here.unit("r1")
    pose = measure.reachable(here, cohort, (21.0, 8.0), 6.0, 90.0, 1.0)
    assert (pose.x, pose.y, pose.facing) == (20.0, 8.0, 0.0)


def test_the_order_is_refused_with_the_reason() -> None:
    found = RULES.judge(state(), Order("r1", "move", {"to": [21, 8]}))
    assert found == Illegal(found.order, TURNED)


def test_a_move_that_reaches_the_resolver_leaves_the_unit_as_it_was() -> None:
    ctx = Context(RULES, state(), (), (), random.Random(0))
    movement.move_to(ctx, ctx.state.unit("r1"), (21.0, 8.0), 1, None, "ordered")
    cohort = ctx.state.unit("r1")
    assert (cohort.x, cohort.y, cohort.facing) == (20.0, 8.0, 0.0)
    moved = next(e for e in ctx.events if isinstance(e, UnitMoved) and e.unit == "r1")
    assert moved.notes == (
        "ordered",
        'does not move: turning would bring it within 1" of Arverni Warband',
    )
