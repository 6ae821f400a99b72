"""Heroic Age's hints to the AI general (#36): a rest recovers a unit (a rally); a charge's
result bands name a win as "victory" or "success"; a unit turned away from the enemy changes
direction (a ``manoeuvre``) before it can advance. Its army is lost when ``loss_share`` of its
units are broken, destroyed or Shaken: the general reads how many are."""

from collections.abc import Mapping

from rules_core.codec import Json
from rules_core.general_hints import DEFAULT_ROLES, GeneralHints, Weights
from rules_core.rulesets.heroic_age import ending
from rules_core.rulesets.heroic_age import units as u
from rules_core.state import BattleState, Unit
from rules_core.toolkit import param_number


def breaking(state: BattleState, side: str, params: Mapping[str, Json]) -> float:
    """Units lost against the army's loss share (1: the army is lost)."""
    if ending.army_lost(state, side, params):
        return 1.0
    lost, started = ending.units_lost(state, side)
    needed = param_number(params, "loss_share") * started
    return min(lost / needed, 1.0) if needed > 0 else 0.0


def worn(state: BattleState, unit: Unit) -> float:
    """1 for a unit one step above Shaken (``present``): a loss more counts it lost."""
    del state
    return 1.0 if u.level(unit) == "present" else 0.0


HINTS = GeneralHints(
    roles={**DEFAULT_ROLES, "rest": "rally", "manoeuvre": "face"},
    params={"manoeuvre": {"option": "change_direction"}},
    weights=Weights(charge=2.5, rally=0.2),
    win_words=("victory", "success"),
    lose_words=("set back", "defeat"),
    breaking=breaking,
    worn=worn,
)
