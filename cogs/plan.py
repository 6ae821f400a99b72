"""/plan change: change an order planned for a later step (whether you are asked if it cannot
be carried out, the order its alternatives are tried in); answered privately. The war table's
plan panel does the same through the same service."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import AideBot, Served
from bot.presentation.choices import own_units, turn_steps
from bot.presentation.orders import planned_text
from bot.presentation.replies import reply_privately
from bot.services.plan_edits import PlanEdit
from bot.slash import subcommand

Which = app_commands.Range[int, 1, 50]
HELPS = {
    "step": "The later step of this turn (or the next) the order is planned for",
    "unit": "Your unit, leader, group or side with an order planned for that step",
    "ask": "True: ask me if none of it can be carried out; false: use the default",
    "earlier": "Try this alternative (1 = tried first) one place earlier",
    "later": "Try this alternative (1 = tried first) one place later",
    "which": "Which of its planned orders there (1 = first); default the last",
}


@app_commands.guild_only()
class PlanCog(Served, commands.GroupCog, group_name="plan", group_description="Planned orders"):
    """Changes to orders planned for later steps (``/order … step:`` plans them)."""

    @subcommand(
        "change",
        "Change a planned order: ask me if it cannot be done, or reorder its alternatives",
        HELPS,
        {"step": turn_steps, "unit": own_units},
    )
    async def change(
        self,
        interaction: discord.Interaction,
        step: str,
        unit: str,
        ask: bool | None = None,
        earlier: Which | None = None,
        later: Which | None = None,
        which: Which | None = None,
    ) -> None:
        """Change a planned order's ``ask_me`` or the order of its alternatives."""
        edit = PlanEdit(ask, earlier, later, which)
        change = self.services.plan_edits.change
        await reply_privately(interaction, change, planned_text, step, unit, edit)


async def setup(bot: AideBot) -> None:
    """Load /plan."""
    await bot.add_cog(PlanCog(bot))
