"""Ground under the whole base along a move, not under its centre line (#39 item 2)."""

from __future__ import annotations

from rules_core.rulesets.heroic_age import movement
from rules_core.rulesets.heroic_age.status import UNFORMED
from tests.rules_core.footprints import beside, laid
from tests.rules_core.rulesets.heroic_age.helpers import at, context


def moved(kind: str, ahead: float, length: float) -> bool:
    """Whether saxons1, moved straight ahead, ends unformed with ground of ``kind`` under
    the right quarter of its front from ``ahead`` before it."""
    state = at("movement", saxons1=(10.0, 4.0, 0.0))
    state = laid(state, beside(state.unit("saxons1"), kind, ahead))
    ctx = context(state)
    unit = ctx.state.unit("saxons1")
    movement.travel(ctx, unit, 0.0, length, 0.0, "moves")
    return bool(UNFORMED.of(ctx.state.unit("saxons1")))


def test_a_base_going_into_a_wood_its_centre_line_misses_moves_unformed() -> None:
    assert moved("wood", 1.0, 3.0)
    assert not moved("wood", 1.0, 1.0)  # its front only reaches the wood's edge


def test_a_base_crossing_a_hedge_at_one_corner_moves_unformed() -> None:
    assert moved("linear_obstacle", 1.0, 3.0)
