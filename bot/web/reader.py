"""Who reads a war-table page: the campaign, the member (or a spectator) and their seat now."""

from __future__ import annotations

from dataclasses import dataclass

from bot.services.campaigns import Place
from bot.services.seats import Seat


@dataclass(frozen=True)
class Reader:
    """A request's reader, found by the link service on every request (never cached).

    ``user_id`` is None for a spectator link (the public view of an open campaign); ``place``
    is the campaign's channel with ``user_id`` set, so the services read through it exactly as
    for a slash command of that member."""

    campaign_id: int
    user_id: int | None
    place: Place
    seat: Seat
