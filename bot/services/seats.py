"""Who a user is in a campaign and its battle: a GM, a player of some sides, an observer or an
outsider; and so what they may read.

A campaign is open (anyone in the server may watch: an outsider reads what an observer reads)
or closed (only its members read anything; ``campaigns.require_reader`` refuses the rest).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from bot.db.models import Battle, Campaign, Role
from bot.services.campaigns import find_member, is_closed
from rules_core.secrets import Viewer


class SeatKind(enum.StrEnum):
    """Where a user sits: at the GM's table, on a side, in the gallery, or outside."""

    GM = "gm"
    PLAYER = "player"
    OBSERVER = "observer"
    OUTSIDER = "outsider"


@dataclass(frozen=True)
class Seat:
    """A user's seat in a campaign (and its battle, when given): the sides they play there are
    battle side ids (owned, joined by name, or commanding a group of)."""

    kind: SeatKind
    sides: tuple[str, ...] = ()
    closed: bool = False  # the campaign is closed

    @property
    def is_gm(self) -> bool:
        """Whether the user is a GM (who sees everything, even while playing a side)."""
        return self.kind is SeatKind.GM

    @property
    def may_read(self) -> bool:
        """Whether the user may see anything of the campaign: members always, outsiders only
        of an open one."""
        return not (self.closed and self.kind is SeatKind.OUTSIDER)

    def viewer(self) -> Viewer:
        """The rules core's viewer for this seat: the GM sees all, a player their first side,
        everyone else (observers, outsiders of an open campaign) the public view."""
        if self.is_gm:
            return Viewer.game_master()
        if self.sides:
            return Viewer.of_side(self.sides[0])
        return Viewer.public()


def seat_of(campaign: Campaign, user_id: int, battle: Battle | None = None) -> Seat:
    """The user's seat in a loaded campaign (members loaded) and, given, its battle (sides
    loaded): a GM, a player with the battle's sides they play, an observer or an outsider."""
    closed = is_closed(campaign)
    member = find_member(campaign, user_id)
    joined = member.side if member is not None and member.role is not Role.OBSERVER else None
    sides: tuple[str, ...] = ()
    if battle is not None:
        sides = tuple(
            s.side_id
            for s in sorted(battle.sides, key=lambda s: s.side_id)
            if s.owner_id == user_id
            or (joined is not None and s.name == joined and user_id not in (s.handed_away or ()))
            or user_id in (s.commanders or {}).values()
        )
    if member is not None and member.role is Role.GM:
        return Seat(SeatKind.GM, sides, closed)
    if sides or (member is not None and member.role is Role.PLAYER):
        return Seat(SeatKind.PLAYER, sides, closed)
    if member is not None:
        return Seat(SeatKind.OBSERVER, (), closed)
    return Seat(SeatKind.OUTSIDER, (), closed)
