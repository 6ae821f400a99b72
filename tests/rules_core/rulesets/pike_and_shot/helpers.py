"""Building pike-and-shot states and contexts with dice dealt in order (shared by the tests of
both halves of the ruleset)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from rules_core.codec import Json
from rules_core.context import Context
from rules_core.decisions import Answer
from rules_core.orders import Order
from rules_core.rulesets.pike_and_shot.rules import PikeAndShotRules
from rules_core.rulesets.pike_and_shot.sample import sample_battle
from rules_core.state import BattleState, TerrainFeature
from rules_core.steps import Cursor
from tests.rules_core.dealing import DealtThenThrees as Dealt

RULES = PikeAndShotRules()
SIDES = ("royalists", "parliament")
# Sample unit ids: royalists1 Wilmot's Horse (cavalry), royalists2 Usher's Dragoons,
# royalists3 Astley's Tercio (veteran), royalists4 Gerard's Foot, royalists5 Belasyse's Foot
# (raw), royalists6 Royal Train (field artillery), royalists7 Byron's Horse (veteran),
# royalists8 Lifeguard of Horse (armoured); parliament1 Balfour's Horse (veteran), parliament2
# Meldrum's Tercio, parliament3 Essex's Foot, parliament4 Holles's Redcoats (raw), parliament5
# London Trained Bands (rabble), parliament6 Parliament's Guns (infantry guns), parliament7
# Ramsay's Horse, parliament8 Fielding's Horse (irregular cavalry).


def at(
    step: str,
    terrain: Sequence[TerrainFeature] = (),
    **moves: tuple[float, float, float],
) -> BattleState:
    """The sample battle in a step of turn 1 with only the units named placed (x, y, facing)
    and only the terrain given."""
    state = replace(sample_battle(), cursor=Cursor(1, "main", step, SIDES), terrain=tuple(terrain))
    for unit in state.units:
        if unit.id not in moves:
            state = state.without_unit(unit.id)
    for key, (x, y, facing) in moves.items():
        state = state.with_unit(replace(state.unit(key), x=x, y=y, facing=facing))
    return state


def status(state: BattleState, key: str, **changes: Json) -> BattleState:
    """The state with one unit's status changed."""
    return state.with_unit(state.unit(key).with_status(**changes))


def wing_order(state: BattleState, group: str, order: str) -> BattleState:
    """The state with one wing's order set."""
    wing = state.group(group)
    return state.with_group(replace(wing, status={**wing.status, "wing_order": order}))


def context(
    state: BattleState,
    faces: Sequence[int] = (),
    orders: Sequence[Order] = (),
    answers: Sequence[Answer] = (),
) -> Context:
    """A context on the state whose dice come up as ``faces``."""
    return Context(RULES, state, orders, answers, Dealt(faces))
