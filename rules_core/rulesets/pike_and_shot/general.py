"""Pike and Shot's hints to the AI general (#36): a move advances, a return falls back. A
wing's order is left to the drill (Hold until the enemy comes within 16", then Attack): a
wing sent to Attack at once lost 11 of 18 decided games against a side holding its ground
(``python -m bot ai-bench``), as the attacker comes on piecemeal. The army breaks when its
General Will fails: the general reads the chance of failing it from the General Will table at
the brigades routed now."""

from collections.abc import Mapping

from rules_core.codec import Json
from rules_core.general_hints import DEFAULT_ROLES, GeneralHints, Weights
from rules_core.rulesets.pike_and_shot import tables
from rules_core.rulesets.pike_and_shot.cohesion import (
    army_brigades,
    general_will_table,
    routed_brigades,
)
from rules_core.rulesets.pike_and_shot.general_drill import drill
from rules_core.rulesets.pike_and_shot.status import GENERAL_WILL
from rules_core.state import BattleState

DIE = 6  # the General Will roll is a d6: "equal to or less than the number" passes


def breaking(state: BattleState, side: str, params: Mapping[str, Json]) -> float:
    """The chance the side's General Will fails if tested now (1: it has failed)."""
    if GENERAL_WILL.of(state.side(side)) == "failed" or not state.units_of(side, on_table=True):
        return 1.0
    routed = routed_brigades(state, side, params)
    cell, _, _ = tables.general_will_cell(
        routed, army_brigades(state, side), general_will_table(params)
    )
    if cell in ("pass", "fail"):
        return float(cell == "fail")
    target = int(cell) if isinstance(cell, int | float | str) else 0
    return min(max(DIE - target, 0), DIE) / DIE


# Moves are the drill's alone (``general_drill``: the army closes as one line); the search
# weighs the wings' orders, shots and returns.
ROLES = {k: v for k, v in DEFAULT_ROLES.items() if k not in ("move", "hold")}

HINTS = GeneralHints(
    roles={**ROLES, "return": "retire", "wing_order": "advance"},
    params={"wing_order": {"order": "attack"}},
    weights=Weights(advance=0.6, shoot=0.8),
    breaking=breaking,
    drill=drill,
)
