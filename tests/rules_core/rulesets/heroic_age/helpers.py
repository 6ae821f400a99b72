"""Building heroic-age states and contexts with dice dealt in order."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from rules_core.codec import Json
from rules_core.context import Context
from rules_core.decisions import Answer
from rules_core.orders import Order
from rules_core.rulesets.heroic_age.rules import HeroicAgeRules
from rules_core.rulesets.heroic_age.sample import sample_battle
from rules_core.state import BattleState
from rules_core.steps import Cursor
from tests.rules_core.dealing import DealtThenThrees as Dealt

RULES = HeroicAgeRules()


def at(step: str, **moves: tuple[float, float, float]) -> BattleState:
    """The sample battle in a step of turn 1 with only the units placed (x, y, facing)."""
    state = replace(sample_battle(), cursor=Cursor(1, "main", step, ("saxons", "danes")))
    for unit in state.units:
        if unit.id not in moves:
            state = state.without_unit(unit.id)
    for key, (x, y, facing) in moves.items():
        state = state.with_unit(replace(state.unit(key), x=x, y=y, facing=facing))
    return state


def status(state: BattleState, key: str, **changes: Json) -> BattleState:
    """The state with one unit's status changed."""
    return state.with_unit(state.unit(key).with_status(**changes))


def context(
    state: BattleState,
    faces: Sequence[int] = (),
    orders: Sequence[Order] = (),
    answers: Sequence[Answer] = (),
) -> Context:
    """A context on the state whose dice come up as ``faces``."""
    return Context(RULES, state, orders, answers, Dealt(faces))
