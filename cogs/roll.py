"""/roll: ad-hoc dice with every die shown."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import AideBot, Served
from bot.presentation.formatting import roll_reply


class RollCog(Served, commands.Cog):
    """Dice anyone can roll, anywhere."""

    @app_commands.command(name="roll", description="Roll dice: 2d6, d6+1, 3avd, 6d6>=4, 4d6kh3")
    @app_commands.describe(
        expression="e.g. 2d6, d6+1, 3avd (average dice), 6d6>=4 (count 4+), 4d6kh3 (keep 3)",
        label="What the roll is for (shown with the result)",
    )
    async def roll(
        self,
        interaction: discord.Interaction,
        expression: app_commands.Range[str, 1, 100],
        label: app_commands.Range[str, 1, 80] = "Roll",
    ) -> None:
        """Roll and show every die."""
        roll = self.services.dice.roll(expression, label)
        await interaction.response.send_message(roll_reply(interaction.user.id, roll))


async def setup(bot: AideBot) -> None:
    """Load the dice command."""
    await bot.add_cog(RollCog(bot))
