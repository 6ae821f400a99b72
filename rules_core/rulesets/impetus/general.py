"""Impetus's hints to the AI general (#36): a move goes ``forward`` (as far as the rules
allow), a group's charge is a charge; the army breaks at ``army_break_share`` of its starting
VBU lost (the general reads how near it is); the odds count hits and VBU lost, so the general weighs
losses more than a named win, and an advance into the enemy's reach is costly (a weaker
army that walks into the enemy's missiles loses: a small head start for the drill's moves).
The moves are the general's own drill (``general_drill``): measured to end just within the
unit's charge reach, a second move only where its test is nearly sure to pass."""

from collections.abc import Mapping

from rules_core.codec import Json
from rules_core.general_hints import DEFAULT_ROLES, GeneralHints, Weights
from rules_core.rulesets.impetus.ending import lost_vbu
from rules_core.rulesets.impetus.general_drill import drill
from rules_core.rulesets.impetus.status import START_VBU
from rules_core.state import BattleState
from rules_core.toolkit import param_number


def breaking(state: BattleState, side: str, params: Mapping[str, Json]) -> float:
    """VBU lost against the army's break point (1: the army breaks)."""
    start = START_VBU.of(state.side(side))
    if start <= 0:
        return 0.0
    needed = param_number(params, "army_break_share") * start
    return min(lost_vbu(state, side) / max(needed, 1e-9), 1.0)


HINTS = GeneralHints(
    roles={**DEFAULT_ROLES, "group_move": "advance", "group_charge": "charge"},
    params={"move": {"manoeuvre": "forward"}, "group_move": {"manoeuvre": "forward"}},
    weights=Weights(inflicted=0.5, suffered=0.6, advance=0.3, threat=0.3, drill=0.1),
    breaking=breaking,
    drill=drill,
)
