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

from bot.presentation.choices import Complete

Callback = Callable[Concatenate[Any, discord.Interaction, ...], Coroutine[Any, Any, None]]
SlashCommand = app_commands.Command[Any, ..., None]


def subcommand(
    name: str,
    description: str,
    helps: Mapping[str, str],
    offers: Mapping[str, Complete] | None = None,
) -> Callable[[Callback], SlashCommand]:
    """A (sub)command from a callback: its parameters' ``helps`` and autocompletes (``offers``)."""

    def declare(callback: Callback) -> SlashCommand:
        command: SlashCommand = app_commands.Command(
            name=name, description=description, callback=callback
        )
        app_commands.describe(**helps)(command)
        return app_commands.autocomplete(**(offers or {}))(command)

    return declare


def command_name(interaction: discord.Interaction) -> str:
    """The name the running (sub)command was invoked under, for a callback that serves several."""
    assert interaction.command is not None  # a command's callback runs for its command
    return interaction.command.name
