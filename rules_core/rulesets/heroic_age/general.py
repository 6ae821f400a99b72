"""Heroic Age's hints to the AI general (#36): a rest recovers a unit (a rally); a charge's
result bands name a win as "victory" or "success"."""

from rules_core.general_hints import DEFAULT_ROLES, GeneralHints, Weights

HINTS = GeneralHints(
    roles={**DEFAULT_ROLES, "rest": "rally"},
    weights=Weights(charge=2.5, rally=0.2),
    win_words=("victory", "success"),
    lose_words=("set back", "defeat"),
)
