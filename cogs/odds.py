"""/odds: the exact chances of a charge, a shot, a melee, a test or one of your orders,
answered privately with a table and a bar chart."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TypeVarTuple

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import AideBot, Served
from bot.presentation.choices import enemy_units, odds_tests, own_units, shot_options
from bot.presentation.odds import odds_file, odds_text
from bot.presentation.replies import place_of
from bot.services.campaigns import Place
from bot.services.odds import OddsAnswer
from bot.slash import command_name, subcommand

Args = TypeVarTuple("Args")
UNIT_HELP = "Your unit"
TARGET_HELP = "The enemy unit"
# Your unit against an enemy one: the help and the autocompletes of /odds charge and melee.
AGAINST = {"unit": UNIT_HELP, "target": TARGET_HELP}
UNITS = {"unit": own_units, "target": enemy_units}


@app_commands.guild_only()
class OddsCog(Served, commands.GroupCog, group_name="odds", group_description="Exact chances"):
    """Each subcommand asks the ruleset for the chances on what your side can see."""

    async def _answer(
        self,
        interaction: discord.Interaction,
        work: Callable[[Place, int, *Args], Awaitable[OddsAnswer]],
        *args: *Args,
    ) -> None:
        """Work out the odds as the user, privately: deferred first, as it may take a while."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        answer = await work(place_of(interaction), interaction.user.id, *args)
        await interaction.followup.send(odds_text(answer), file=odds_file(answer), ephemeral=True)

    @app_commands.command(name="order", description="The chances of one of your orders")
    @app_commands.describe(number="Its place in /orders mine (1 is the first)")
    async def order(
        self, interaction: discord.Interaction, number: app_commands.Range[int, 1, 200]
    ) -> None:
        """The chances of an order given for this step or planned for a later one."""
        await self._answer(interaction, self.services.odds.of_order, number)

    async def _against(self, interaction: discord.Interaction, unit: str, target: str) -> None:
        """The chances of your unit against an enemy one, as the subcommand names (charge: the
        combat it would bring, as if it went home from where they stand; melee: the next
        round of a combat your unit is in)."""
        await self._answer(
            interaction, self.services.odds.ask, command_name(interaction), unit, target
        )

    charge = subcommand("charge", "The chances if your unit charges", AGAINST, UNITS)(_against)

    @app_commands.command(name="shoot", description="The chances if your unit shoots")
    @app_commands.describe(
        unit=UNIT_HELP, target=TARGET_HELP, option="A choice the shoot order takes, if any"
    )
    @app_commands.autocomplete(unit=own_units, target=enemy_units, option=shot_options)
    async def shoot(
        self, interaction: discord.Interaction, unit: str, target: str, option: str | None = None
    ) -> None:
        """Hits, losses or DPs of a shot."""
        await self._answer(interaction, self.services.odds.ask, "shoot", unit, target, option)

    melee = subcommand("melee", "The chances of a melee already joined", AGAINST, UNITS)(_against)

    @app_commands.command(name="test", description="The chances of your unit's test")
    @app_commands.describe(
        unit=UNIT_HELP,
        option="Which test, where the ruleset has several (Heroic Age: an A grade's +1 or -1)",
    )
    @app_commands.autocomplete(unit=own_units, option=odds_tests)
    async def test(
        self, interaction: discord.Interaction, unit: str, option: str | None = None
    ) -> None:
        """A control, break or rally test, whichever the ruleset takes."""
        await self._answer(interaction, self.services.odds.ask, "test", unit, None, option)


async def setup(bot: AideBot) -> None:
    """Load the cog."""
    await bot.add_cog(OddsCog(bot))
