"""Pike and Shot's hints to the AI general (#36): a move advances, a return falls back, and a
wing is ordered to attack (a wing left on Hold waits for an enemy who may never come)."""

from rules_core.general_hints import DEFAULT_ROLES, GeneralHints, Weights

HINTS = GeneralHints(
    roles={**DEFAULT_ROLES, "return": "retire", "wing_order": "advance"},
    params={"wing_order": {"order": "attack"}},
    weights=Weights(advance=0.6, shoot=0.8),
)
