"""Autocomplete callbacks several cogs share: each asks the lookups and offers what matches."""

from __future__ import annotations

from typing import Protocol, cast

import discord
from discord import app_commands

from bot.presentation.battles import feature_choices
from bot.presentation.replies import labelled_choices, matching_choices, place_of
from bot.services import Services
from bot.services.lookups import LookupService
from bot.services.shapes import SHAPES
from rules_core.state import TERRAIN_KINDS

Choices = list[app_commands.Choice[str]]


class _HasServices(Protocol):
    """The bot as these callbacks see it: its services (no import of the client)."""

    services: Services


def _lookups(interaction: discord.Interaction) -> LookupService:
    return cast(_HasServices, interaction.client).services.lookups


async def own_units(interaction: discord.Interaction, current: str) -> Choices:
    """Offer only the player's own units."""
    names = await _lookups(interaction).units_on_table(
        place_of(interaction), interaction.user.id, own=True
    )
    return matching_choices(names, current)


async def enemy_units(interaction: discord.Interaction, current: str) -> Choices:
    """Offer the other sides' units."""
    names = await _lookups(interaction).units_on_table(
        place_of(interaction), interaction.user.id, own=False
    )
    return matching_choices(names, current)


async def turn_steps(interaction: discord.Interaction, current: str) -> Choices:
    """Offer the steps of this turn the player's side acts in, with their subjects."""
    steps = await _lookups(interaction).turn_steps(place_of(interaction), interaction.user.id)
    return labelled_choices(steps, current)


async def terrain_features(interaction: discord.Interaction, current: str) -> Choices:
    """Offer the terrain on the table."""
    features = await _lookups(interaction).terrain_choices(place_of(interaction))
    return feature_choices(features, current)


TERRAIN_CHOICES = [app_commands.Choice(name=k.replace("_", " "), value=k) for k in TERRAIN_KINDS]
SHAPE_CHOICES = [app_commands.Choice(name=s, value=s) for s in SHAPES]
