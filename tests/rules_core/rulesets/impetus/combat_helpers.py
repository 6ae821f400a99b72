"""Building Impetus states and contexts for the combat tests, with dice dealt in order."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from rules_core.codec import Json
from rules_core.context import Context
from rules_core.decisions import Answer
from rules_core.events import DiceRolled, Event, TestResolved, logged_test
from rules_core.orders import Order
from rules_core.rulesets.impetus.profiles import unit_from_entry
from rules_core.rulesets.impetus.rules import ImpetusRules
from rules_core.rulesets.impetus.sample import sample_battle
from rules_core.state import ON_TABLE, BattleState, TerrainFeature
from rules_core.steps import Cursor
from tests.rules_core.dealing import DealtThenThrees as Dealt

RULES = ImpetusRules()


def at(step: str = "charge", **placed: tuple[float, float, float]) -> BattleState:
    """The sample battle in a step of turn 1 with only the named units on the table, at x, y
    facing; generals stay attached (romans1 Caesar, romans4 Labienus, gauls1 Vercingetorix,
    gauls4 Lucterius) and stand with their units."""
    state = replace(sample_battle(), cursor=Cursor(1, "main", step, ("romans", "gauls")))
    for unit in state.units:
        if unit.id not in placed:
            state = state.without_unit(unit.id)
    for key, (x, y, facing) in placed.items():
        state = state.with_unit(
            replace(state.unit(key), x=x, y=y, facing=facing, location=ON_TABLE)
        )
    for leader in state.leaders:
        home = next((u for u in state.units if u.id == leader.attached_to), None)
        if home is None:
            state = state.with_leader(replace(leader, attached_to=None, x=-50, y=-50))
        else:
            state = state.with_leader(replace(leader, x=home.x, y=home.y))
    return state


def add(state: BattleState, key: str, side: str, group: str, xyf: tuple[float, float, float],
        **entry: Json) -> BattleState:  # fmt: skip
    """The state with a unit made from a roster entry added at x, y, facing."""
    unit = unit_from_entry({"name": key.title(), **entry}, key, side, group)
    unit = replace(unit, x=xyf[0], y=xyf[1], facing=xyf[2])
    return replace(state, units=(*state.units, unit))


def status(state: BattleState, key: str, **changes: Json) -> BattleState:
    """The state with one unit's status changed."""
    return state.with_unit(state.unit(key).with_status(**changes))


def profile(state: BattleState, key: str, **changes: Json) -> BattleState:
    """The state with one unit's profile changed."""
    unit = state.unit(key)
    return state.with_unit(replace(unit, profile={**unit.profile, **changes}))


def detach(state: BattleState) -> BattleState:
    """Every general away from the units (no general modifiers)."""
    for leader in state.leaders:
        state = state.with_leader(replace(leader, attached_to=None, x=-50, y=-50))
    return state


def terrain(state: BattleState, kind: str, x0: float, y0: float, x1: float, y1: float,
            **props: Json) -> BattleState:  # fmt: skip
    """The state with a rectangle of terrain added."""
    pts = ((x0, y0), (x1, y0), (x1, y1), (x0, y1))
    feature = TerrainFeature(f"t{len(state.terrain)}", kind, pts, properties=props)
    return replace(state, terrain=(*state.terrain, feature))


def context(
    state: BattleState,
    faces: Sequence[int] = (),
    orders: Sequence[Order] = (),
    answers: Sequence[Answer] = (),
    **params: Json,
) -> Context:
    """A context on the state whose dice come up as ``faces``."""
    if params:
        state = replace(state, parameters={**state.parameters, **params})
    return Context(RULES, state, orders, answers, Dealt(faces))


def logged_tests(events: Sequence[Event]) -> list[TestResolved]:
    """The tests logged as lines (not the typed results that are data only)."""
    return [e for e in events if logged_test(e)]


def rolls_of(events: Sequence[Event]) -> list[DiceRolled]:
    """The rolls logged."""
    return [e for e in events if isinstance(e, DiceRolled)]


PARAMS = RULES.parameter_values({})  # the rules' parameters at their defaults
