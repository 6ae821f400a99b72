"""Hail Caesar's hints to the AI general (#36): its kinds' roles are the usual names; a
charge is won or lost ("wins", "loses"), and a division that keeps its line fights best."""

from rules_core.general_hints import DEFAULT_ROLES, GeneralHints, Weights

HINTS = GeneralHints(
    roles={**DEFAULT_ROLES, "retire": "retire"},
    weights=Weights(charge=2.5, lose=1.5, flank=0.4),
    win_words=("wins",),
    lose_words=("loses",),
)
