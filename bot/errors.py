"""Errors a service raises when the user must be told something; the text is shown as is."""

from __future__ import annotations

from dataclasses import dataclass


class UserError(Exception):
    """Something the user did or asked for cannot be done; the message says why."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class NotFound(UserError):
    """The thing the user named does not exist (here)."""


class PermissionDenied(UserError):
    """The user may not do this."""


class Conflict(UserError):
    """The request clashes with the current state (already joined, name taken, …)."""


class InvalidInput(UserError):
    """The user's input is malformed; the message lists every problem."""


@dataclass(frozen=True)
class Way:
    """A way forward for a refused order as its player reads it: ``names`` are the ``step:``
    values to use (``step``), step titles of a later turn (``later``), unit names
    (``targets``), order kinds (``kinds``) or who may be given it (``actors``); ``distance``
    is how far it may go; ``words`` what would make it legal (``condition``)."""

    kind: str
    names: tuple[str, ...] = ()
    distance: float = 0.0
    words: str = ""


class RefusedOrder(InvalidInput):
    """The rules refused an order: why (``message``), and what to do instead (``ways``,
    worded by the presentation)."""

    def __init__(self, message: str, ways: tuple[Way, ...]) -> None:
        super().__init__(message)
        self.ways = ways


class NotYourGroup(PermissionDenied):
    """A player ordered a unit of a group another player of their side commands."""

    def __init__(self, actor: str, group: str, commander_id: int) -> None:
        super().__init__(f"**{actor}** is in **{group}**, which another player commands.")
        self.actor, self.group, self.commander_id = actor, group, commander_id


class HandedAway(PermissionDenied):
    """A player acted for a side a GM handed to someone else (``/battle hand-over``)."""

    def __init__(self, side: str, holder_id: int) -> None:
        super().__init__(
            f"**{side}** is handed over to another player until a GM hands it back to you."
        )
        self.side, self.holder_id = side, holder_id


class ClosedCampaign(PermissionDenied):
    """Someone who is not a member asked about a closed campaign: they are told nothing else."""

    def __init__(self, campaign: str) -> None:
        super().__init__(f"**{campaign}** is a closed campaign: ask its GM to admit you.")
        self.campaign = campaign


NO_QUESTION = (
    "No question is waiting for an answer; questions come as a step resolves, and "
    "`/battle status` says what the battle waits for."
)
