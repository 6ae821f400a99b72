"""Named checks for slash commands, as decorators: ``@is_gm()`` on every GM-only command.

A check answers early and privately; the service behind the command still refuses on its own,
so a command that forgets its check, or a caller that is not a command, stays safe.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

import discord
from discord import app_commands

from bot.errors import UserError
from bot.presentation.replies import place_of

if TYPE_CHECKING:
    from bot.client import AideBot

T = TypeVar("T")


class NotGm(app_commands.CheckFailure):
    """The user is not a GM of this channel's campaign; the message says so."""


async def gm_predicate(interaction: discord.Interaction[Any]) -> bool:
    """True for a GM of the channel's campaign; otherwise NotGm with the service's words."""
    bot: AideBot = interaction.client
    try:
        await bot.services.campaigns.check_gm(place_of(interaction), interaction.user.id)
    except UserError as error:
        raise NotGm(error.message) from error
    return True


def is_gm() -> Callable[[T], T]:
    """Only a GM of the channel's campaign may run the command.

    Deliberately no ``default_member_permissions``: the GM is a role in our campaign, not a
    Discord permission, and hiding the command behind one (say Manage Server) would take it
    away from a campaign's GM who is not a server admin. Every member sees the command; a
    non-GM gets a private refusal.
    """
    return app_commands.check(gm_predicate)
