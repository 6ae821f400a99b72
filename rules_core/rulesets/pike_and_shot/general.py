"""Pike and Shot's hints to the AI general (#36): a move advances, a return falls back. A
wing's order is left to the drill (Hold until the enemy comes within 16", then Attack): a
wing sent to Attack at once lost 11 of 18 decided games against a side holding its ground
(``python -m bot ai-bench``), as the attacker comes on piecemeal."""

from rules_core.general_hints import DEFAULT_ROLES, GeneralHints, Weights

HINTS = GeneralHints(
    roles={**DEFAULT_ROLES, "return": "retire"},
    weights=Weights(advance=0.6, shoot=0.8),
)
