"""Declaring slash commands: one callback serving several subcommands.

discord.py reads a command's parameters from its callback's signature, so subcommands that take
the same parameters and do the same with them (hold and rally, /gm move and on-table)
share one callback; each is declared with its own name, help and autocompletes, and the
callback tells them apart by the name it was invoked under.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine, Mapping
from typing import Any, Concatenate

import discord
from discord import app_commands

from bot.checks import is_gm
from bot.presentation.choices import Complete

Callback = Callable[Concatenate[Any, discord.Interaction, ...], Coroutine[Any, Any, None]]
SlashCommand = app_commands.Command[Any, ..., None]


def subcommand(
    name: str,
    description: str,
    helps: Mapping[str, str],
    offers: Mapping[str, Complete] | None = None,
    *,
    gm_only: bool = False,
) -> Callable[[Callback], SlashCommand]:
    """A (sub)command from a callback: its parameters' ``helps`` and autocompletes (``offers``);
    ``gm_only``: only a GM of the channel's campaign may run it (``is_gm``)."""

    def declare(callback: Callback) -> SlashCommand:
        command: SlashCommand = app_commands.Command(
            name=name, description=description, callback=callback
        )
        app_commands.describe(**helps)(command)
        app_commands.autocomplete(**(offers or {}))(command)
        return is_gm()(command) if gm_only else command

    return declare


def command_name(interaction: discord.Interaction) -> str:
    """The name the running (sub)command was invoked under, for a callback that serves several."""
    assert interaction.command is not None  # a command's callback runs for its command
    return interaction.command.name
