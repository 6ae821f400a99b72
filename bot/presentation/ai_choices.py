"""Autocomplete of ``/battle hand-over member:``: the campaign's GMs and players, and the AI
general (#36)."""

from __future__ import annotations

from typing import Protocol, cast

import discord
from discord import app_commands

from bot.presentation.replies import labelled_choices, place_of
from bot.services import Services
from bot.services.ai_seat import AI_GENERAL


class _HasServices(Protocol):
    """The bot as this callback sees it: its services."""

    services: Services


AI_CHOICE = ("ai", "AI general (the bot plays the side)")


async def holder_choices(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """The AI general first, then each GM and player by their name in the server."""
    services = cast(_HasServices, interaction.client).services
    pairs = [AI_CHOICE]
    for user_id in await services.general.holders(place_of(interaction)):
        if user_id == AI_GENERAL:
            continue
        found = interaction.guild.get_member(user_id) if interaction.guild else None
        pairs.append((str(user_id), found.display_name if found else str(user_id)))
    return labelled_choices(pairs, current)
