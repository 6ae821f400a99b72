"""Shared pieces of every ruleset's "stop at d, then act within d" property test (#39 item 1).

Each ruleset's ``test_stop_then_act.py`` places a mover and an enemy at a random gap and angle,
makes the move that stops at the sheet's distance, and asks the ruleset's own judge whether the
action that needs "within" that distance is legal. These helpers place the pair and judge.
"""

from __future__ import annotations

from dataclasses import replace

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from rules_core.geometry import Footprint
from rules_core.orders import Order, Preview
from rules_core.plugin import Rules
from rules_core.state import BattleState

# Few examples (the CI budget), no deadline (shapely's first calls are slow), and the same
# examples every run so a failure found once is found again.
EXAMPLES = settings(
    max_examples=25,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)


def gaps(low: float, high: float) -> st.SearchStrategy[float]:
    """Random gaps (front edge to the enemy's near edge) between ``low`` and ``high``."""
    return st.floats(low, high, allow_nan=False, allow_infinity=False)


def turns(limit: float) -> st.SearchStrategy[float]:
    """Random angles in degrees up to ``limit`` either way."""
    return st.floats(-limit, limit, allow_nan=False, allow_infinity=False)


def placed_ahead(
    state: BattleState,
    mover: str,
    enemy: str,
    gap: float,
    *,
    across: float = 0.0,
    turn: float = 0.0,
    at: tuple[float, float, float] | None = None,
) -> BattleState:
    """``enemy`` placed ``gap`` beyond ``mover``'s front edge (``across`` to its right), facing
    back at it turned ``turn`` degrees; ``mover`` first put at ``at`` (x, y, facing) if given."""
    if at is not None:
        x, y, facing = at
        state = state.with_unit(replace(state.unit(mover), x=x, y=y, facing=facing))
    here = Footprint.of(state.unit(mover))
    other = state.unit(enemy)
    centre = here.at(here.depth / 2 + gap + other.depth / 2, across)
    facing = (here.facing + 180 + turn) % 360
    return state.with_unit(replace(other, x=centre[0], y=centre[1], facing=facing))


def assert_legal(rules: Rules, state: BattleState, order: Order) -> None:
    """The ruleset's own judge accepts ``order`` (its refusal is the failure's message)."""
    verdict = rules.judge(state, order)
    assert isinstance(verdict, Preview), getattr(verdict, "reason", verdict)
