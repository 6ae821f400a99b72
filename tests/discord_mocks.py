"""Discord objects for cog tests: mocks whose ``spec_set`` comes from discord.py's own classes,
so a misspelt attribute or method fails the test."""

from __future__ import annotations

from typing import Any
from unittest.mock import MagicMock

import discord
from discord import app_commands

from bot.presentation.replies import report_error
from tests.conftest import CHANNEL, GUILD


def member(user_id: int) -> MagicMock:
    """A server member as discord.py would pass it to a command."""
    mock = MagicMock(spec_set=discord.Member)
    mock.id = user_id
    mock.mention = f"<@{user_id}>"
    return mock


def make_interaction(user_id: int, *, guild_id: int | None = GUILD) -> MagicMock:
    """An interaction from a user in the campaign channel (or a DM when guild_id is None)."""
    interaction = MagicMock(spec_set=discord.Interaction)
    interaction.user = member(user_id)
    interaction.guild_id = guild_id
    interaction.channel_id = CHANNEL
    interaction.channel = MagicMock(spec_set=discord.TextChannel)
    interaction.response = MagicMock(spec_set=discord.InteractionResponse)
    response = interaction.response
    response.is_done.side_effect = lambda: bool(
        response.defer.await_count or response.send_message.await_count
    )
    interaction.followup = MagicMock(spec_set=discord.Webhook)
    interaction.command = None
    return interaction


def attachment(content: bytes, filename: str) -> MagicMock:
    """A file a user attached to a command."""
    mock = MagicMock(spec_set=discord.Attachment)
    mock.filename = filename
    mock.size = len(content)
    mock.read.return_value = content
    return mock


async def invoke(
    command: app_commands.Command[Any, ..., Any], cog: Any, i: MagicMock, **kw: Any
) -> None:
    """Run a command's callback; an error goes through the tree's handler as it would live."""
    i.command = command  # as live: a callback serving several commands reads which one runs
    try:
        await command.callback(cog, i, **kw)
    except Exception as error:
        await report_error(i, app_commands.CommandInvokeError(command, error))


def reply(interaction: MagicMock) -> tuple[str, dict[str, Any]]:
    """The text and keyword arguments of the answer the command sent: its one response, or,
    after a deferral, its one followup."""
    if interaction.response.defer.await_count:
        interaction.response.send_message.assert_not_awaited()
        interaction.followup.send.assert_awaited_once()
        args, kwargs = interaction.followup.send.await_args
    else:
        interaction.response.send_message.assert_awaited_once()
        args, kwargs = interaction.response.send_message.await_args
    return (args[0] if args else kwargs.get("content") or ""), kwargs
