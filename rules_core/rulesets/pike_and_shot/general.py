"""Pike and Shot's hints to the AI general (#36): a move advances, a return falls back."""

from rules_core.general_hints import DEFAULT_ROLES, GeneralHints, Weights

HINTS = GeneralHints(
    roles={**DEFAULT_ROLES, "return": "retire"},
    weights=Weights(advance=0.6, shoot=0.8),
)
