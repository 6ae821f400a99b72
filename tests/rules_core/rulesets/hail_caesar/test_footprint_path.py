"""Ground under the whole base along a move, not under its centre line (#39 item 2)."""

from __future__ import annotations

import pytest

from rules_core.orders import Illegal
from rules_core.rulesets.hail_caesar import movement
from tests.rules_core.footprints import beside, laid
from tests.rules_core.rulesets.hail_caesar.test_impassable import context, judge, moved, placed


def test_impassable_ground_under_one_corner_bars_the_move_and_stops_it_at_its_edge() -> None:
    state = placed((), r1=(20.0, 8.0, 0.0))
    cohort = state.unit("r1")
    state = laid(state, beside(cohort, "impassable", 1.5))
    front = cohort.y + cohort.depth / 2
    refused = judge(state, "r1", "move", to=[20, 12])
    assert isinstance(refused, Illegal) and "impassable ground" in refused.reason
    ctx = context(state)
    movement.move_to(ctx, ctx.state.unit("r1"), (20.0, 12.0), 1, None, "ordered")
    after = ctx.state.unit("r1")
    assert after.y + after.depth / 2 == pytest.approx(front + 1.5, abs=1e-3)
    assert "stops short of brush, impassable ground" in moved(ctx, "r1").notes
