"""Autocomplete callbacks several cogs share: each asks the lookups and offers what matches."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, Protocol, TypeVar, cast

import discord
from discord import app_commands

from bot.presentation.battles import feature_choices
from bot.presentation.replies import labelled_choices, matching_choices, place_of
from bot.services import Services
from bot.services.campaigns import Place
from bot.services.lookups import LookupService
from bot.services.shapes import SHAPES
from rules_core.state import TERRAIN_KINDS

Choices = list[app_commands.Choice[str]]
T = TypeVar("T")
Complete = Callable[[discord.Interaction, str], Coroutine[Any, Any, Choices]]
# What an autocomplete asks: the services, where the command is used and who types.
Fetch = Callable[[Services, Place, int], Awaitable[list[str]]]
FetchLabelled = Callable[[Services, Place, int], Awaitable[list[tuple[str, str]]]]
# What an autocomplete asks that depends on another parameter: what is typed in it instead of who.
FetchFor = Callable[[Services, Place, str], Awaitable[list[tuple[str, str]]]]


class _HasServices(Protocol):
    """The bot as these callbacks see it: its services (no import of the client)."""

    services: Services


def _services(interaction: discord.Interaction) -> Services:
    return cast(_HasServices, interaction.client).services


def _lookups(interaction: discord.Interaction) -> LookupService:
    return _services(interaction).lookups


def offer_names(fetch: Fetch) -> Complete:
    """An autocomplete callback offering the names ``fetch`` finds that match what is typed."""

    async def complete(interaction: discord.Interaction, current: str) -> Choices:
        names = await fetch(_services(interaction), place_of(interaction), interaction.user.id)
        return matching_choices(names, current)

    return complete


def offer_labelled(fetch: FetchLabelled) -> Complete:
    """An autocomplete callback offering the (value, label) pairs ``fetch`` finds."""

    async def complete(interaction: discord.Interaction, current: str) -> Choices:
        pairs = await fetch(_services(interaction), place_of(interaction), interaction.user.id)
        return labelled_choices(pairs, current)

    return complete


def offer_labelled_for(parameter: str, fetch: FetchFor) -> Complete:
    """An autocomplete callback offering the (value, label) pairs ``fetch`` finds for what is
    already typed in another ``parameter`` of the command (blank: "")."""

    async def complete(interaction: discord.Interaction, current: str) -> Choices:
        typed = str(getattr(interaction.namespace, parameter, None) or "")
        pairs = await fetch(_services(interaction), place_of(interaction), typed)
        return labelled_choices(pairs, current)

    return complete


# The player's own units; the other sides' units.
own_units = offer_names(lambda s, place, user: s.lookups.units_on_table(place, user, own=True))
enemy_units = offer_names(lambda s, place, user: s.lookups.units_on_table(place, user, own=False))
# The steps of this turn the player's side acts in, with their subjects.
turn_steps = offer_labelled(lambda s, place, user: s.lookups.turn_steps(place, user))
# The battle's sides (the value is the side's id).
battle_sides = offer_labelled(lambda s, place, _: s.lookups.battle_sides(place))
# What /odds test and /odds shoot take as their option.
odds_tests = offer_names(lambda s, place, user: s.lookups.odds_options(place, user, "test"))
shot_options = offer_names(lambda s, place, user: s.lookups.odds_options(place, user, "shoot"))
# The answers of the waiting question.
pending_answers = offer_labelled(lambda s, place, _: s.lookups.pending_options(place))


def named_actors(kind: str) -> Complete:
    """Offer every unit, leader or group (``kind``) on the table, by name; the value is its id."""
    return offer_labelled(lambda s, place, _: s.lookups.named_actors(place, kind))


async def terrain_features(interaction: discord.Interaction, current: str) -> Choices:
    """Offer the terrain on the table."""
    features = await _lookups(interaction).terrain_choices(place_of(interaction))
    return feature_choices(features, current)


TERRAIN_CHOICES = [app_commands.Choice(name=k.replace("_", " "), value=k) for k in TERRAIN_KINDS]
SHAPE_CHOICES = [app_commands.Choice(name=s, value=s) for s in SHAPES]


def terrain_parameters(shape: str, **helps: str) -> Callable[[T], T]:
    """The help and choices of a piece of terrain's kind, shape, at and size, alike in every
    command that lays terrain; ``shape`` explains the shapes, ``helps`` the command's own."""
    described = app_commands.describe(
        kind="What it is",
        shape=shape,
        at="Points `x,y x,y …`, or the centre `x,y`",
        size="Radius, or width,depth",
        **helps,
    )
    offered = app_commands.choices(kind=TERRAIN_CHOICES, shape=SHAPE_CHOICES)

    def decorate(command: T) -> T:
        return described(offered(command))

    return decorate
