"""How the bot answers: where a command was used, ephemeral errors, confirmation buttons."""

from __future__ import annotations

import logging
import secrets
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar, TypeVarTuple

import discord
from discord import app_commands

from bot.errors import HandedAway, NotYourGroup, RefusedOrder, UserError
from bot.presentation.refusals import refused_text
from bot.services.campaigns import Place
from bot.services.names import name_key

log = logging.getLogger("bot.errors")

ConfirmAction = Callable[[], Awaitable[tuple[str, str | None]]]
T = TypeVar("T")
Args = TypeVarTuple("Args")


def place_of(interaction: discord.Interaction) -> Place:
    """The server and campaign channel of an interaction (a thread counts as its parent)."""
    if interaction.guild_id is None:
        raise UserError("Use this command in a server channel, not in direct messages.")
    channel = interaction.channel
    channel_id = interaction.channel_id
    if isinstance(channel, discord.Thread) and channel.parent_id is not None:
        channel_id = channel.parent_id
    if channel_id is None:
        raise UserError("I cannot tell which channel this was used in.")
    return Place(interaction.guild_id, channel_id, interaction.user.id)


async def reply_here(
    interaction: discord.Interaction,
    text: Callable[[T], str],
    work: Callable[[Place, *Args], Awaitable[T]],
    *args: *Args,
    ephemeral: bool = False,
) -> T:
    """Do ``work`` (with ``args``) where the command was used and answer with its ``text``:
    the flow of most commands (a service call, then what it did in words)."""
    done = await work(place_of(interaction), *args)
    await interaction.response.send_message(text(done), ephemeral=ephemeral)
    return done


async def reply_with(
    interaction: discord.Interaction,
    text: Callable[[T], str],
    work: Callable[[Place, int, *Args], Awaitable[T]],
    *args: *Args,
    ephemeral: bool = False,
) -> T:
    """``reply_here`` for work done as the user who used the command (its id passed first)."""
    user_id = interaction.user.id
    return await reply_here(interaction, text, work, user_id, *args, ephemeral=ephemeral)


async def reply_privately(
    interaction: discord.Interaction,
    work: Callable[[Place, int, *Args], Awaitable[T]],
    text: Callable[[T], str],
    *args: *Args,
) -> T:
    """Do ``work`` (with ``args``) for the user where the command was used and answer with its
    ``text``, privately; deferred first, as the work may take longer than Discord waits (3 s)."""
    place = place_of(interaction)
    await interaction.response.defer(ephemeral=True)
    done = await work(place, interaction.user.id, *args)
    await interaction.followup.send(text(done), ephemeral=True)
    return done


def matching_choices(names: list[str], current: str) -> list[app_commands.Choice[str]]:
    """Autocomplete choices: the names containing what was typed so far, at most 25."""
    typed = name_key(current)
    return [app_commands.Choice(name=n, value=n) for n in names if typed in name_key(n)][:25]


def labelled_choices(pairs: list[tuple[str, str]], current: str) -> list[app_commands.Choice[str]]:
    """Autocomplete for (id, label) pairs: the label shown, the id given, matched on both."""
    typed = name_key(current)
    return [
        app_commands.Choice(name=label, value=value)
        for value, label in pairs
        if typed in name_key(f"{value} {label}")
    ][:25]


def not_your_group_text(error: NotYourGroup) -> str:
    """Who to ask instead: the player commanding the unit's group."""
    if error.actor == error.group:  # a group's (or the side's) own order
        return f"**{error.actor}** is commanded by <@{error.commander_id}>."
    return f"**{error.actor}** is in **{error.group}**, which <@{error.commander_id}> commands."


def handed_away_text(error: HandedAway) -> str:
    """Who plays the side now, and how the player gets it back."""
    return (
        f"**{error.side}** is handed over to <@{error.holder_id}> until a GM hands it back to "
        f"you (`/battle hand-over side:{error.side} member:@you`); meanwhile `/battle status` "
        "shows where the battle stands."
    )


def unwrap(error: BaseException) -> BaseException:
    """The exception a command raised, under discord.py's CommandInvokeError."""
    if isinstance(error, app_commands.CommandInvokeError):
        return error.original
    return error


def error_text(interaction: discord.Interaction, error: BaseException) -> str:
    """What the user is told about an error; unexpected ones are logged with a reference."""
    original = unwrap(error)
    if isinstance(original, NotYourGroup):
        return not_your_group_text(original)
    if isinstance(original, HandedAway):
        return handed_away_text(original)
    if isinstance(original, RefusedOrder):
        return refused_text(original)
    if isinstance(original, UserError):
        return original.message
    if isinstance(original, app_commands.TransformerError):
        value = within_limit(str(original.value), 100)
        return f"I could not read `{value}` as {original.type.name.lower()}."
    if isinstance(original, app_commands.NoPrivateMessage):
        return "Use this command in a server channel, not in direct messages."
    if isinstance(original, app_commands.CheckFailure):
        return str(original) or "You cannot use this command here."
    ref = secrets.token_hex(4)
    command = interaction.command.qualified_name if interaction.command else "component"
    log.error("unhandled error in %s (ref %s)", command, ref, exc_info=original)
    return f"Something went wrong (ref `{ref}`). The error has been logged; please tell a GM."


MESSAGE_LIMIT = 2000  # Discord refuses longer message contents


def within_limit(text: str, limit: int = MESSAGE_LIMIT) -> str:
    """The text cut to what Discord delivers, marked with an ellipsis where cut."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


async def send_ephemeral(interaction: discord.Interaction, text: str) -> None:
    """Answer privately, whether or not the interaction was already answered.

    After a public defer the first followup would fill the channel's "thinking…" message
    for everyone to see, whatever its ephemeral flag: that placeholder is deleted first,
    so the answer comes as a message of its own that only the user sees.
    """
    text = within_limit(text)
    try:
        if interaction.response.is_done():
            await drop_public_thinking(interaction)
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)
    except discord.HTTPException:
        log.exception("could not deliver an error message")


async def drop_public_thinking(interaction: discord.Interaction) -> None:
    """Delete the interaction's public "thinking…" placeholder, if it still shows one."""
    if interaction.response.type is not discord.InteractionResponseType.deferred_channel_message:
        return
    original = await interaction.original_response()
    if original.flags.loading and not original.flags.ephemeral:
        await original.delete()


async def report_error(interaction: discord.Interaction, error: BaseException) -> None:
    """Tell the user what went wrong, privately."""
    await send_ephemeral(interaction, error_text(interaction, error))


class ConfirmView(discord.ui.View):
    """Confirm / Cancel buttons for something destructive; only the asker may press them."""

    def __init__(self, user_id: int, action: ConfirmAction, *, timeout: float = 120) -> None:
        super().__init__(timeout=timeout)
        self.user_id = user_id
        self.action = action
        self.message: discord.InteractionMessage | None = None

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        """Only the user who asked may confirm or cancel."""
        if interaction.user.id == self.user_id:
            return True
        await send_ephemeral(interaction, "Only the person who asked can confirm or cancel this.")
        return False

    @discord.ui.button(label="Confirm", style=discord.ButtonStyle.danger)
    async def confirm(
        self, interaction: discord.Interaction, _button: discord.ui.Button[ConfirmView]
    ) -> None:
        """Do it: the private prompt becomes the result, and the channel is told."""
        self.stop()
        private, public = await self.action()
        await interaction.response.edit_message(content=private, view=None)
        if public:
            await interaction.followup.send(public)

    @discord.ui.button(label="Cancel", style=discord.ButtonStyle.secondary)
    async def cancel(
        self, interaction: discord.Interaction, _button: discord.ui.Button[ConfirmView]
    ) -> None:
        """Leave everything as it is."""
        self.stop()
        await interaction.response.edit_message(content="Cancelled; nothing changed.", view=None)

    async def on_timeout(self) -> None:
        """Say that nothing happened once the buttons expire."""
        if self.message is not None:
            try:
                await self.message.edit(content="Timed out; nothing changed.", view=None)
            except discord.HTTPException:
                log.info("could not edit an expired confirmation")

    async def on_error(
        self, interaction: discord.Interaction, error: Exception, _item: discord.ui.Item[Any]
    ) -> None:
        """Errors in a button go through the same reporting as commands."""
        await report_error(interaction, error)


async def ask_confirmation(
    interaction: discord.Interaction, question: str, action: ConfirmAction
) -> None:
    """Send a private question with Confirm / Cancel buttons that runs the action."""
    view = ConfirmView(interaction.user.id, action)
    await interaction.response.send_message(question, view=view, ephemeral=True)
    view.message = await interaction.original_response()
