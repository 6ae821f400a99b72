"""Ground under the whole base along a move, not under its centre line (#39 item 2)."""

from __future__ import annotations

from rules_core.orders import Illegal, Preview
from rules_core.plugin import Rules
from tests.rules_core.footprints import beside, laid
from tests.rules_core.rulesets.tree_of_battles.test_impassable import (
    VANGUARD,
    judge,
    placed,
    rules,
)

__all__ = ["rules"]  # the fixture


def test_mounted_may_not_take_a_corner_of_their_base_into_dense_woods(rules: Rules) -> None:
    # "Mounted may not enter dense woods": Vendôme's Horse facing south, a dense wood 1 SF
    # before its right front corner, its centre line clear of the wood.
    state = placed("tactical", (), f1=VANGUARD)
    state = laid(state, beside(state.unit("f1"), "dense_wood", 1.0))
    into = judge(rules, state, "f1", "move", to=[12, 9])
    assert isinstance(into, Illegal) and into.reason == "mounted may not enter dense woods"
    # Up to the wood's edge, its front touching it, is not entering it.
    assert isinstance(judge(rules, state, "f1", "move", to=[12, 11]), Preview)


def test_foot_whose_base_enters_a_wood_roll_for_rough_ground(rules: Rules) -> None:
    state = placed("tactical", (), f2=VANGUARD)
    state = laid(state, beside(state.unit("f2"), "wood", 1.0))
    found = judge(rules, state, "f2", "move", to=[12, 9])
    assert isinstance(found, Preview)
    assert any("rough" in note for note in found.notes), found.notes


def test_a_hedge_under_a_corner_of_the_base_is_crossed(rules: Rules) -> None:
    state = placed("tactical", (), f2=VANGUARD)
    state = laid(state, beside(state.unit("f2"), "linear_obstacle", 1.0))
    found = judge(rules, state, "f2", "move", to=[12, 9])
    assert isinstance(found, Preview) and "crosses a minor obstacle" in found.notes
