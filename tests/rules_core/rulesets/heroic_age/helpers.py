"""Building heroic-age states and contexts with dice dealt in order."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from rules_core.codec import Json
from rules_core.context import Context
from rules_core.decisions import Answer
from rules_core.orders import Order
from rules_core.rulesets.heroic_age.rules import HeroicAgeRules
from rules_core.rulesets.heroic_age.sample import sample_battle
from rules_core.state import BattleState
from rules_core.steps import Cursor

RULES = HeroicAgeRules()


class Dealt(random.Random):
    """A random stream that deals the given faces in order (D6 and AvD alike), then 3s."""

    def __init__(self, faces: Sequence[int]) -> None:
        super().__init__(0)
        self.faces = list(faces)

    def randint(self, a: int, b: int) -> int:
        return self.faces.pop(0) if self.faces else 3

    def choice(self, seq: Sequence[Any]) -> Any:
        return self.faces.pop(0) if self.faces else seq[1]


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
