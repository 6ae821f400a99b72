"""/help and /rules: how play runs, and the ruleset's tables as its sheet prints them."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import AideBot, Served
from bot.presentation.choices import Choices, offer_names
from bot.presentation.command_docs import command_docs
from bot.presentation.help import TOPIC_TITLES, command_text, topic_text
from bot.presentation.reference import NO_CAMPAIGN, help_messages, table_text, tables_text
from bot.presentation.replies import matching_choices, place_of
from bot.services.reference import tables_of

# The ruleset's table names.
table_names = offer_names(lambda s, place, _: s.reference.table_names(place))
TOPIC_CHOICES = [app_commands.Choice(name=title, value=key) for key, title in TOPIC_TITLES.items()]


class ReferenceCog(Served, commands.Cog):
    """Help and the ruleset reference, answered privately."""

    @app_commands.command(name="help", description="How a battle runs, a command, or a topic")
    @app_commands.guild_only()
    @app_commands.describe(
        command="One command's options and an example (offered as you type)",
        topic="One feature explained",
    )
    @app_commands.choices(topic=TOPIC_CHOICES)
    async def help(
        self, interaction: discord.Interaction, command: str | None = None, topic: str | None = None
    ) -> None:
        """The game loop and the tour; or one command; or one topic."""
        if command is not None:
            texts = [command_text(command_docs(self.bot.tree.walk_commands()), command)]
        else:
            ruleset = await self.services.reference.ruleset_here(place_of(interaction))
            texts = [topic_text(topic, ruleset)] if topic else help_messages(ruleset)
        first, *more = texts
        await interaction.response.send_message(first, ephemeral=True)
        for text in more:
            await interaction.followup.send(text, ephemeral=True)

    @help.autocomplete("command")
    async def command_autocomplete(self, _: discord.Interaction, current: str) -> Choices:
        """Offer every command and subcommand by its path."""
        paths = list(command_docs(self.bot.tree.walk_commands()))
        return matching_choices(paths, current.lstrip("/"))

    @app_commands.command(name="rules", description="A table of this campaign's ruleset sheet")
    @app_commands.guild_only()
    @app_commands.describe(table="The table to show (all their names when left out)")
    @app_commands.autocomplete(table=table_names)
    async def rules(self, interaction: discord.Interaction, table: str | None = None) -> None:
        """Show one table, or list the table names."""
        place = place_of(interaction)
        if table is None:
            found = await self.services.reference.ruleset_here(place)
            text = NO_CAMPAIGN if found is None else tables_text(found, list(tables_of(found)))
        else:
            text = table_text(*await self.services.reference.table(place, table))
        await interaction.response.send_message(text, ephemeral=True)


async def setup(bot: AideBot) -> None:
    """Load /help and /rules."""
    await bot.add_cog(ReferenceCog(bot))
