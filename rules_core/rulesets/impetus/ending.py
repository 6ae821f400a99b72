"""The end of a turn and of the battle: the army break (a parameter; see the README).

The published army-break rule of the 2nd edition is not on the sheet and was not found in
public sources. The default follows Impetus 1's demoralisation comparison: an army breaks when
the VBU it has lost (losses of units still fighting, and the whole VBU of units routed or
destroyed) reaches ``army_break_share`` of the VBU it started with.
"""

from __future__ import annotations

from collections.abc import Mapping

from rules_core.codec import Json
from rules_core.context import Context
from rules_core.rulesets.impetus.profiles import current_vbu
from rules_core.rulesets.impetus.status import ARMY_BROKEN, LOST_VBU, ROUTED, START_VBU
from rules_core.state import BattleState


def lost_vbu(state: BattleState, side: str) -> int:
    """VBU the side has lost: its start less what its units on the table still have."""
    left = sum(
        current_vbu(u)
        for u in state.units
        if u.side == side and u.location != "off" and not ROUTED.of(u)
    )
    return max(0, START_VBU.of(state.side(side)) - left)


def broken(state: BattleState, side: str, params: Mapping[str, Json]) -> bool:
    """Whether the side's losses reach the break share of its starting VBU."""
    start = START_VBU.of(state.side(side))
    share = params.get("army_break_share", 0.5)
    if start <= 0 or not isinstance(share, int | float):
        return False
    return ARMY_BROKEN.of(state.side(side)) or lost_vbu(state, side) >= share * start


def end_turn(ctx: Context) -> None:
    """Each side's VBU lost is recorded; a side past its break point is broken."""
    for side in ctx.state.sides:
        lost = lost_vbu(ctx.state, side.id)
        if lost != LOST_VBU.of(side):
            ctx.set_side_status(side.id, f"{lost} VBU lost of {START_VBU.of(side)}", lost_vbu=lost)
        if broken(ctx.state, side.id, ctx.params) and not ARMY_BROKEN.of(ctx.state.side(side.id)):
            ctx.set_side_status(side.id, "the army breaks", army_broken=True)
