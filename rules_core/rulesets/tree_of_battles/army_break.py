"""Tree of Battles' army break: the sheet gives none, so RULESETS.md's stated default with its
threshold as a parameter (``army_break_share``): an army breaks when that share of the fighting
contingents it began with is broken or gone (by default half, rounded up). The rules decide
with it (``Rules.army_broken``); the AI general reads how near it is (``general.breaking``)."""

from __future__ import annotations

from collections.abc import Callable

from rules_core.rulesets.tree_of_battles.status import BROKEN, START_CONTINGENTS
from rules_core.state import BattleState, Unit

SLACK = 1e-9  # a share reached exactly counts as reached


def not_broken(unit: Unit) -> bool:
    """A contingent the army break counts as standing: not broken."""
    return not BROKEN.of(unit)


def fighting(state: BattleState, side: str) -> list[Unit]:
    """The side's fighting contingents (its baggage is none)."""
    return [x for x in state.units_of(side) if x.type != "baggage"]


def lost_share(
    state: BattleState, side: str, standing: Callable[[Unit], bool] = not_broken
) -> float:
    """The share of the side's fighting contingents not ``standing`` (1: none stand),
    against those it began with (a destroyed contingent leaves the state)."""
    now = fighting(state, side)
    standing_now = [x for x in now if standing(x)]
    if not standing_now:
        return 1.0
    started = max(START_CONTINGENTS.of(state.side(side)), len(now))
    return 1.0 - len(standing_now) / started


def broken(state: BattleState, side: str, share: float) -> bool:
    """Whether ``share`` of the side's fighting contingents are broken or gone."""
    return lost_share(state, side) >= share - SLACK
