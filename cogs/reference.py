"""/help and /rules: how play runs, and the ruleset's tables as its sheet prints them."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import AideBot, Served
from bot.presentation.choices import offer_names
from bot.presentation.reference import help_messages, table_text, tables_text
from bot.presentation.replies import place_of
from bot.services.reference import tables_of

# The ruleset's table names.
table_names = offer_names(lambda s, place, _: s.reference.table_names(place))


class ReferenceCog(Served, commands.Cog):
    """Help and the ruleset reference, answered privately."""

    @app_commands.command(name="help", description="How a battle runs and this campaign's orders")
    @app_commands.guild_only()
    async def help(self, interaction: discord.Interaction) -> None:
        """The game loop, then the campaign's steps and the orders each accepts."""
        ruleset = await self.services.reference.ruleset_here(place_of(interaction))
        first, *more = help_messages(ruleset)
        await interaction.response.send_message(first, ephemeral=True)
        for text in more:
            await interaction.followup.send(text, ephemeral=True)

    @app_commands.command(name="rules", description="A table of this campaign's ruleset sheet")
    @app_commands.guild_only()
    @app_commands.describe(table="The table to show (all their names when left out)")
    @app_commands.autocomplete(table=table_names)
    async def rules(self, interaction: discord.Interaction, table: str | None = None) -> None:
        """Show one table, or list the table names."""
        place = place_of(interaction)
        if table is None:
            found = await self.services.reference.ruleset_here(place)
            text = (
                help_messages(None)[0]
                if found is None
                else tables_text(found, list(tables_of(found)))
            )
        else:
            text = table_text(*await self.services.reference.table(place, table))
        await interaction.response.send_message(text, ephemeral=True)


async def setup(bot: AideBot) -> None:
    """Load /help and /rules."""
    await bot.add_cog(ReferenceCog(bot))
