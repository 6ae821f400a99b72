"""A move with no room to turn where the unit stands: the order check and the move agree.

A unit turns to its heading at the start of a move, about its centre. The First Cohort
stands with the Second Cohort 1.4" ahead of its left front. Sent 9.9" up to the right (two
moves), the turn swings its front left corner into the Second Cohort. Given both moves, the
move goes (the sweep from where it stands to where it ends is clear); given one (an order
test of 7 or 8), the search finds no room to turn and go, and leaves it where it stood,
unturned (``measure.reach``, since the AI fuzzer's seed 5). The check asked the end alone
and accepted the order; it now asks the same search for every number of moves the order
may be given, and refuses it, saying who is in the way and how to move instead. A move that
reaches its step anyway (the state changed since the order) stays as it stood and says why.
"""

from __future__ import annotations

import random
from dataclasses import replace

from rules_core.context import Context
from rules_core.events import UnitMoved
from rules_core.geometry import Footprint, facing_towards
from rules_core.orders import Illegal, Order, Preview, condition
from rules_core.rulesets.hail_caesar import measure, movement
from rules_core.rulesets.hail_caesar.rules import HailCaesarRules
from rules_core.rulesets.hail_caesar.sample import sample_battle
from rules_core.state import BattleState, Point
from rules_core.steps import Cursor, Subject

RULES = HailCaesarRules()
Notes = tuple[str, ...]
GOAL = (28.2, 25.5)  # 9.9" from (20, 20), heading 56.1°: two moves of 6"
HEADING = facing_towards((20.0, 20.0), GOAL)
NO_ROOM = (
    "First Cohort has no room to turn towards that point where it stands: it would swing into "
    "Second Cohort"
)
INSTEAD = condition(
    "move First Cohort without turning first: a point straight ahead or behind it keeps its "
    "facing of 0°; once clear of Second Cohort it has room to turn"
)


def state(second: tuple[float, float] = (15.8, 23.4)) -> BattleState:
    """The First Cohort (6" by 2") at (20, 20) facing north, the Second Cohort ahead of its
    left front, both of the Legio in its Orders step; the Gauls far off (no proximity)."""
    cursor = Cursor(1, "main", "orders", ("rom", "gau"), 0, (Subject("rom_legio", "rom"),))
    base = replace(sample_battle(), cursor=cursor)
    first = replace(base.unit("r1"), x=20.0, y=20.0, facing=0.0)
    beside = replace(base.unit("r2"), x=second[0], y=second[1], facing=0.0)
    far = replace(base.unit("g1"), x=20.0, y=44.0, facing=180.0)
    return replace(base, units=(first, beside, far), terrain=())


def test_given_one_move_the_search_leaves_it_unturned_given_two_it_goes() -> None:
    here = state()
    first = here.unit("r1")
    one = measure.reach(here, first, GOAL, 6.0, HEADING, 1.0)
    assert one == (Footprint.of(first), "Second Cohort")
    two = measure.reach(here, first, GOAL, 12.0, HEADING, 1.0)
    assert (two.pose.x, two.pose.y, two.beside) == (28.2, 25.5, "")


def test_the_order_is_refused_with_who_is_in_the_way_and_what_to_do() -> None:
    found = RULES.judge(state(), Order("r1", "move", {"to": list(GOAL)}))
    assert found == Illegal(found.order, NO_ROOM, (INSTEAD,))


def test_the_way_forward_straight_back_is_taken_and_from_there_the_turn() -> None:
    here = state()  # straight ahead, it would pass through the Second Cohort itself
    back = RULES.judge(here, Order("r1", "move", {"to": [20, 17], "facing": 0}))
    assert isinstance(back, Preview), back
    moved = here.with_unit(replace(here.unit("r1"), y=17.0))
    later = RULES.judge(moved, Order("r1", "move", {"to": [28.2, 22.5]}))
    assert isinstance(later, Preview), later


def test_with_the_neighbour_clear_the_same_order_is_accepted() -> None:
    found = RULES.judge(state(second=(12.0, 23.4)), Order("r1", "move", {"to": list(GOAL)}))
    assert isinstance(found, Preview), found


def carried_out(here: BattleState, goal: Point, moves: int) -> tuple[Point, float, Notes]:
    """Where the First Cohort ends (centre, facing) moved towards ``goal`` with ``moves``,
    and the notes its move carries."""
    ctx = Context(RULES, here, (), (), random.Random(0))
    movement.move_to(ctx, ctx.state.unit("r1"), goal, moves, None, "ordered")
    first = ctx.state.unit("r1")
    moved = next(e for e in ctx.events if isinstance(e, UnitMoved) and e.unit == "r1")
    return (first.x, first.y), first.facing, moved.notes


def test_a_move_that_reaches_its_step_stays_as_it_stood_and_says_why() -> None:
    why = "does not move: no room to turn where it stands (it would swing into Second Cohort)"
    assert carried_out(state(), GOAL, 1) == ((20.0, 20.0), 0.0, ("ordered", why))


def test_given_both_moves_it_goes_there() -> None:
    assert carried_out(state(), GOAL, 2)[0] == GOAL


def test_a_broken_divisions_retirement_is_refused_alike() -> None:
    here = state(second=(23.0, 16.5))  # now 1.5" behind its right rear
    broken = here.with_side(replace(here.side("rom"), status={"broken_divisions": ["rom_legio"]}))
    back = (22.9, 19.2)  # 3" away, heading 105.4°: the turn swings its rear into them
    found = RULES.judge(broken, Order("r1", "retire", {"to": list(back)}))
    assert found == Illegal(found.order, NO_ROOM, (INSTEAD,))
    assert carried_out(broken, back, 1)[:2] == ((20.0, 20.0), 0.0)


def test_a_retirement_whose_turn_comes_within_1_inch_of_an_enemy_is_refused() -> None:
    here = state()
    near = replace(here.unit("g1"), x=25.1, y=18.0, facing=270.0)  # 1.1" off its right
    broken = here.with_unit(near).with_side(
        replace(here.side("rom"), status={"broken_divisions": ["rom_legio"]})
    )
    # Heading 198.4°: turned about, its right front corner swings 0.16" nearer them.
    found = RULES.judge(broken, Order("r1", "retire", {"to": [18.5, 15.5]}))
    assert found == Illegal(
        found.order,
        'First Cohort would turn within 1" of Arverni Warband',
        (condition("retire First Cohort straight back: a point behind it needs no turn"),),
    )
    assert carried_out(broken, (18.5, 15.5), 1)[:2] == ((20.0, 20.0), 0.0)


def test_a_turn_in_place_is_judged_from_its_own_facing_not_north() -> None:
    # A move to where it stands keeps the unit's heading (movement.move_to): facing east, 2.5"
    # from the Arverni on that side, its turn of 5° is judged as that, not as a turn to north
    # first (which would bring it within 0.5" of them).
    here = state()
    first = replace(here.unit("r1"), facing=90.0)
    warband = replace(here.unit("g1"), x=24.5, y=20.0, facing=270.0)
    found = RULES.judge(
        here.with_unit(first).with_unit(warband),
        Order("r1", "move", {"to": [20, 20], "facing": 95}),
    )
    assert isinstance(found, Preview), found
