"""#40 "As far as possible": an order the ruleset's own judge refuses is cut along its own
line to the farthest point that judge accepts, in every ruleset: a move past reach ends at the
reach, a move into ground the unit cannot enter stops at its edge, a move blocked by a friend
stops before it; when its step resolves the order is cut again on the battle as it stands."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace

import pytest

from rules_core import engine, far
from rules_core.events import OrderShortened, UnitMoved
from rules_core.geometry import Footprint, overlapping
from rules_core.orders import AS_FAR_AS_POSSIBLE, Illegal, Order, Preview
from rules_core.plugin import Rules
from rules_core.registry import get
from rules_core.render import Renderer
from rules_core.state import BattleState, TerrainFeature, Unit
from rules_core.steps import Cursor, Subject
from tests.rules_core.rulesets.impetus.helpers import stopped_at, unit_named

Point = tuple[float, float]


@dataclass(frozen=True)
class Case:
    """A ruleset's move step with one unit to move forward, and a friend to put in its way."""

    state: Callable[[], BattleState]
    unit: str
    friend: str
    short: float  # a move it may make whole, in the ruleset's measure
    long: float  # a move past its reach (0: its moves go "toward", as far as the dice allow)
    by_distance: bool = False  # Impetus: forward by a distance, not to a point


def _at(ruleset: str, step: str, subject: str | None = None, side: int = 0) -> BattleState:
    state = get(ruleset).rules.sample_battle()  # type: ignore[union-attr]
    assert state is not None
    sides = tuple(s.id for s in state.sides)
    subjects = () if subject is None else (Subject(subject, sides[side]),)
    return replace(state, cursor=Cursor(1, "main", step, sides, 0, subjects))


CASES = {
    "hail_caesar": Case(lambda: _at("hail_caesar", "orders", "rom_legio"), "r1", "r2", 4, 30),
    "tree_of_battles": Case(lambda: _at("tree_of_battles", "tactical"), "e1", "e2", 2, 0),
    "heroic_age": Case(lambda: _at("heroic_age", "movement"), "saxons1", "saxons2", 3, 0),
    "skirmish": Case(lambda: _at("skirmish", "move"), "r1", "r2", 4, 20),
    "pike_and_shot": Case(
        lambda: _at("pike_and_shot", "movement"), "royalists1", "royalists2", 4, 30
    ),
    "impetus": Case(
        lambda: stopped_at("move", "romans_caesar"), "Legio X", "Legio IX", 2, 6, by_distance=True
    ),
}


def rules_of(ruleset: str) -> Rules:
    found = get(ruleset).rules
    assert found is not None
    return found


def unit_of(state: BattleState, key: str) -> Unit:
    return unit_named(state, key) if " " in key else state.unit(key)


def ahead(unit: Unit, length: float) -> Point:
    """The point ``length`` straight ahead of the unit's centre."""
    rad = math.radians(unit.facing)
    return (round(unit.x + math.sin(rad) * length, 2), round(unit.y + math.cos(rad) * length, 2))


def forward(case: Case, unit: Unit, length: float, as_far: bool = True) -> Order:
    """A move straight ahead by ``length`` (to the point there, or by the distance)."""
    params: dict[str, object] = (
        {"manoeuvre": "forward", "distance": length}
        if case.by_distance
        else {"to": list(ahead(unit, length))}
    )
    if as_far:
        params[AS_FAR_AS_POSSIBLE] = True
    return Order(unit.id, "move", params)  # type: ignore[arg-type]


def moved_length(case: Case, unit: Unit, order: Order) -> float:
    """How far straight ahead a (cut) move takes the unit."""
    if case.by_distance:
        return order.number("distance")
    x, y = order.point("to")
    return math.hypot(x - unit.x, y - unit.y)


def cut(ruleset: str, state: BattleState, order: Order) -> Preview:
    """The far order's verdict, which must be a preview saying where it stops and why."""
    verdict = rules_of(ruleset).judge(state, order)
    assert isinstance(verdict, Preview), verdict
    assert AS_FAR_AS_POSSIBLE not in verdict.order.params
    return verdict


def moves_toward(ruleset: str, case: Case, state: BattleState, order: Order) -> bool:
    """Whether the ruleset's own move goes toward the point and stops where the rules stop it
    when it resolves (Tree of Battles, Heroic Age: the dice give the distance): then the order
    is legal whole and "as far as possible" changes nothing."""
    plain = rules_of(ruleset).judge(state, far.plain(order))
    if case.long or isinstance(plain, Illegal):
        return False
    assert rules_of(ruleset).judge(state, order) == plain
    return True


def farthest_legal(ruleset: str, case: Case, state: BattleState, unit: Unit, length: float) -> None:
    """The cut is legal and a little farther (2% of the full move) is not: it is the farthest."""
    farther = forward(case, unit, length + 0.02 * case.short * 4, as_far=False)
    assert isinstance(rules_of(ruleset).judge(state, farther), Illegal)


@pytest.mark.parametrize("ruleset", sorted(CASES))
def test_a_move_past_reach_ends_at_the_reach(ruleset: str) -> None:
    case, rules = CASES[ruleset], rules_of(ruleset)
    state = case.state()
    unit = unit_of(state, case.unit)
    if not case.long:  # the ruleset's own move goes toward the point as far as the dice allow
        order = forward(case, unit, 30)
        assert rules.judge(state, order) == rules.judge(state, far.plain(order))
        return
    order = forward(case, unit, case.long)
    full = rules.judge(state, far.plain(order))
    assert isinstance(full, Illegal)
    preview = cut(ruleset, state, order)
    length = moved_length(case, unit, preview.order)
    assert case.short / 2 < length < case.long
    farthest_legal(ruleset, case, state, unit, length)
    assert any("As far as possible: it stops" in n and full.reason in n for n in preview.notes)


def short_cut(ruleset: str, case: Case, state: BattleState, unit: Unit) -> float | None:
    """How far the unit's short move forward goes "as far as possible" where the rules refuse
    it whole (the farthest legal cut), or None where the ruleset's move goes toward its point
    and is legal whole."""
    order = forward(case, unit, case.short)
    if moves_toward(ruleset, case, state, order):
        return None
    assert isinstance(rules_of(ruleset).judge(state, far.plain(order)), Illegal)
    length = moved_length(case, unit, cut(ruleset, state, order).order)
    farthest_legal(ruleset, case, state, unit, length)
    return length


def strip_ahead(unit: Unit, start: float, end: float) -> TerrainFeature:
    """Impassable ground across the unit's way, from ``start`` to ``end`` ahead of its front."""
    front = unit.depth / 2
    near_left, near_right = (-unit.frontage, front + start), (unit.frontage, front + start)
    far_right, far_left = (unit.frontage, front + end), (-unit.frontage, front + end)
    foot = Footprint.of(unit)
    points = tuple(
        (round(foot.at(fwd, side)[0], 2), round(foot.at(fwd, side)[1], 2))
        for side, fwd in (near_left, near_right, far_right, far_left)
    )
    return TerrainFeature("lake", "impassable", points, "Black Lake")


@pytest.mark.parametrize("ruleset", sorted(CASES))
def test_a_move_into_ground_it_cannot_enter_stops_at_its_edge(ruleset: str) -> None:
    case = CASES[ruleset]
    state = case.state()
    unit = unit_of(state, case.unit)
    lake = strip_ahead(unit, case.short / 2, case.short / 2 + 0.5)
    state = replace(state, terrain=(lake,))
    length = short_cut(ruleset, case, state, unit)
    if length is not None:
        assert case.short / 2 - 0.25 < length <= case.short / 2 + 0.01  # at the edge, not in it


@pytest.mark.parametrize("ruleset", sorted(CASES))
def test_a_move_blocked_by_a_friend_stops_before_it(ruleset: str) -> None:
    case = CASES[ruleset]
    state = case.state()
    unit, friend = unit_of(state, case.unit), unit_of(state, case.friend)
    gap = case.short / 2
    x, y = ahead(unit, unit.depth / 2 + gap + friend.depth / 2)
    state = state.with_unit(replace(friend, x=x, y=y, facing=unit.facing))
    length = short_cut(ruleset, case, state, unit)
    if length is not None:
        assert length <= gap + 0.01
        there = Footprint.of(unit).advanced(length)
        assert not overlapping(there, Footprint.of(state.unit(friend.id)))


def test_an_order_with_nothing_to_go_along_is_refused_with_the_rules_reason() -> None:
    state = CASES["skirmish"].state()
    order = Order("r1", "shoot", {"target": "b1", AS_FAR_AS_POSSIBLE: True})
    verdict = rules_of("skirmish").judge(state, order)
    assert isinstance(verdict, Illegal)
    assert "cannot be shortened" in verdict.reason


def test_the_step_cuts_the_order_again_and_says_where_it_stopped() -> None:
    case, rules = CASES["skirmish"], rules_of("skirmish")
    state = case.state()
    unit = state.unit("r1")
    order = forward(case, unit, case.long)
    result = engine.resolve(rules, b"far", state, (order,))
    said = [e for e in result.events if isinstance(e, OrderShortened)]
    assert len(said) == 1 and 'beyond its 6" move' in said[0].reason
    assert any(isinstance(e, UnitMoved) and e.unit == "r1" for e in result.events)
    assert (
        math.hypot(result.state.unit("r1").x - unit.x, result.state.unit("r1").y - unit.y) <= 6.01
    )
    line = Renderer({"r1": "Red One"}).line(said[0])
    assert "as far as possible, it stops at (" in line


def test_a_charge_out_of_reach_advances_toward_its_target_as_far_as_the_rules_allow() -> None:
    state = CASES["skirmish"].state()
    unit, foe = state.unit("r1"), state.unit("b1")
    state = state.with_unit(replace(foe, x=unit.x, y=unit.y + 25, facing=180))
    order = Order("r1", "charge", {"target": "b1", AS_FAR_AS_POSSIBLE: True})
    assert isinstance(rules_of("skirmish").judge(state, far.plain(order)), Illegal)
    preview = cut("skirmish", state, order)
    assert preview.order == Order("r1", "move", {"to": [unit.x, unit.y + 6]})
    assert "it moves toward its charge target at (12, 10)" in preview.notes[0]


def test_a_charge_out_of_reach_in_a_step_without_moves_stays_refused_saying_so() -> None:
    state = _at("heroic_age", "charges")
    unit = state.unit("saxons1")
    foe = next(u for u in state.units if u.side != unit.side)
    state = state.with_unit(replace(foe, x=unit.x, y=unit.y + 12, facing=180))
    order = Order("saxons1", "charge", {"target": foe.id, AS_FAR_AS_POSSIBLE: True})
    verdict = rules_of("heroic_age").judge(state, order)
    assert isinstance(verdict, Illegal)
    assert verdict.reason.endswith("(and no move toward it is allowed now)"), verdict.reason
