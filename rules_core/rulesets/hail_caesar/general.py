"""Hail Caesar's hints to the AI general (#36): its kinds' roles are the usual names; a
charge is won or lost ("wins", "loses"), and a division that keeps its line fights best. Its
army breaks when ``army_break_share`` of its divisions are broken: the general reads how many
are."""

from collections.abc import Mapping

from rules_core.codec import Json
from rules_core.general_hints import DEFAULT_ROLES, GeneralHints, Weights
from rules_core.rulesets.hail_caesar.morale import broken_divisions, divisions_of
from rules_core.state import BattleState
from rules_core.toolkit import param_number


def breaking(state: BattleState, side: str, params: Mapping[str, Json]) -> float:
    """Broken divisions against the army's break point (1: the army breaks)."""
    divisions = divisions_of(state, side)
    if not state.units_of(side) or not divisions:
        return 1.0
    needed = param_number(params, "army_break_share") * len(divisions)
    return min(len(broken_divisions(state, side)) / max(needed, 1e-9), 1.0)


HINTS = GeneralHints(
    roles={**DEFAULT_ROLES, "retire": "retire"},
    weights=Weights(charge=2.5, lose=1.5, flank=0.4),
    win_words=("wins",),
    lose_words=("loses",),
    breaking=breaking,
)
