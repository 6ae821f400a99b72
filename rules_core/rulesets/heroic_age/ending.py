"""The end of each turn (this turn's marks cleared) and of the battle (the sheet gives no
victory condition: an army whose units are all broken, destroyed or Shaken, or whose
commander-in-chief is killed with no leader left, is lost; else a turn limit)."""

from __future__ import annotations

from collections.abc import Mapping

from rules_core.codec import Json
from rules_core.context import Context
from rules_core.rulesets.heroic_age import units as u
from rules_core.rulesets.heroic_age.lps import new_allowance
from rules_core.rulesets.heroic_age.status import (
    BROKEN,
    CINC_KILLED,
    START_UNITS,
    STATUSES,
)
from rules_core.state import BattleState
from rules_core.status import stored
from rules_core.toolkit import param_number


def end_turn(ctx: Context) -> None:
    """Clear what lasts one turn; retiring units may reform next turn."""
    start = ctx.state
    # Contact is judged on the state as the turn ends: the changes below are statuses only,
    # so no unit moves or leaves (and each later state would be searched afresh).
    in_contact = {x.id: bool(u.engaged_with(start, x)) for x in start.units}
    for unit in list(start.units):
        engaged = in_contact[unit.id]
        changes: dict[str, Json] = {
            "charged": False,
            "charge_combat": False,
            "refights": 0,
            "stationary": True,
            "control": None,
            "aggression_changed_by": None,
            "retiring": False,
            "advanced_in_leadership": False,
            "in_combat": engaged,
        }
        if not engaged:
            changes["combat_result"] = None
        kept = {k: v for k, v in changes.items() if stored(STATUSES.get(k), unit) != v}
        if kept:
            ctx.set_status(unit.id, None, **kept)
    new_allowance(ctx)


def army_lost(state: BattleState, side: str, params: Mapping[str, Json]) -> bool:
    """Whether a side has lost: its units broken, destroyed or Shaken (``loss_share`` of those
    it started with), or its commander-in-chief killed with no leader left."""
    the_side = state.side(side)
    if CINC_KILLED.of(the_side) and not any(ld.side == side for ld in state.leaders):
        return True
    lost, started = units_lost(state, side)
    if not started:
        return False
    return lost >= param_number(params, "loss_share") * started - 1e-9


def units_lost(state: BattleState, side: str) -> tuple[int, int]:
    """The side's units broken, destroyed or Shaken, and the units it started with."""
    started = START_UNITS.of(state.side(side)) or len(state.units_of(side))
    standing = [x for x in state.units_of(side) if not BROKEN.of(x) and u.level(x) != "shaken"]
    return started - len(standing), started
