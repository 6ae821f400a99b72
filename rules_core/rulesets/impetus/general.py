"""Impetus's hints to the AI general (#36): a move goes ``forward`` (as far as the rules
allow), a group's charge is a charge; the odds count hits and VBU lost, so the general weighs
losses more than a named win, and an advance into the enemy's reach is costly (a weaker
army that walks into the enemy's missiles loses: a small head start for the drill's moves)."""

from rules_core.general_hints import DEFAULT_ROLES, GeneralHints, Weights

HINTS = GeneralHints(
    roles={**DEFAULT_ROLES, "group_move": "advance", "group_charge": "charge"},
    params={"move": {"manoeuvre": "forward"}, "group_move": {"manoeuvre": "forward"}},
    weights=Weights(inflicted=0.5, suffered=0.6, advance=0.3, threat=0.3, drill=0.1),
)
