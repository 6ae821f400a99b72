"""Impetus's hints to the AI general (#36): a move goes ``forward`` (as far as the rules
allow), a group's charge is a charge; the odds count hits and VBU lost, so the general weighs
losses more than a named win."""

from rules_core.general_hints import DEFAULT_ROLES, GeneralHints, Weights

HINTS = GeneralHints(
    roles={**DEFAULT_ROLES, "group_move": "advance", "group_charge": "charge"},
    params={"move": {"manoeuvre": "forward"}, "group_move": {"manoeuvre": "forward"}},
    weights=Weights(inflicted=0.5, suffered=0.5),
)
