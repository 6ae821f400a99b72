"""/gm: the GM's tools during play; every change is posted publicly with its reason."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.checks import is_gm
from bot.client import AideBot
from bot.presentation.announce import post_report
from bot.presentation.gm import (
    UNDO_QUESTION,
    change_text,
    forced_text,
    ruled_text,
)
from bot.presentation.replies import ask_confirmation, labelled_choices, matching_choices, place_of

Reason = app_commands.Range[str, 1, 200]
WHY = "Why: posted with the change for everyone to read"


@app_commands.guild_only()
class GmCog(commands.GroupCog, group_name="gm", group_description="GM tools during a battle"):
    """GM-only commands; the services refuse anyone else."""

    def __init__(self, bot: AideBot) -> None:
        self.bot = bot
        self.gm = bot.services.gm
        self.battles = bot.services.battles
        self.lookups = bot.services.lookups

    @app_commands.command(name="pause", description="Stop the clock")
    @is_gm()
    @app_commands.describe(reason=WHY)
    async def pause(self, interaction: discord.Interaction, reason: Reason) -> None:
        """Pause the battle."""
        change = await self.gm.pause(place_of(interaction), interaction.user.id, reason)
        await interaction.response.send_message(change_text(change))

    @app_commands.command(name="resume", description="Start the clock again")
    @is_gm()
    @app_commands.describe(reason=WHY + " (default: resumed)")
    async def resume(self, interaction: discord.Interaction, reason: Reason = "resumed") -> None:
        """Resume the battle."""
        change = await self.gm.resume(place_of(interaction), interaction.user.id, reason)
        await interaction.response.send_message(change_text(change))

    @app_commands.command(name="extend", description="Push the current deadline back")
    @is_gm()
    @app_commands.describe(hours="How many hours to add", reason=WHY)
    async def extend(
        self,
        interaction: discord.Interaction,
        hours: app_commands.Range[float, 0.1, 720.0],
        reason: Reason,
    ) -> None:
        """Extend the deadline."""
        change = await self.gm.extend(place_of(interaction), interaction.user.id, hours, reason)
        await interaction.response.send_message(change_text(change))

    @app_commands.command(name="force", description="Resolve the current step now")
    @is_gm()
    async def force(self, interaction: discord.Interaction) -> None:
        """Resolve now with defaults for missing orders."""
        place = place_of(interaction)
        await self.battles.check_gm(place, interaction.user.id)  # refuse before answering publicly
        await interaction.response.defer()
        report = await self.gm.force(place, interaction.user.id)
        await interaction.followup.send(forced_text(interaction.user.id, report.title))
        await post_report(self.bot, report)

    @app_commands.command(name="set", description="Set a status field of a unit")
    @is_gm()
    @app_commands.describe(
        unit="The unit", field="e.g. disordered, dps, wounds", value="New value", reason=WHY
    )
    async def set_(
        self,
        interaction: discord.Interaction,
        unit: str,
        field: app_commands.Range[str, 1, 40],
        value: app_commands.Range[str, 1, 60],
        reason: Reason,
    ) -> None:
        """Set a unit's status."""
        change = await self.gm.set_status(
            place_of(interaction), interaction.user.id, unit, field, value, reason
        )
        await interaction.response.send_message(change_text(change))

    @set_.autocomplete("field")
    async def field_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """Offer the unit status keys the ruleset declares."""
        return matching_choices(await self.lookups.status_fields(place_of(interaction)), current)

    @app_commands.command(name="move", description="Move or turn a unit")
    @is_gm()
    @app_commands.describe(
        unit="The unit", at="New centre `x,y`", facing="Compass degrees", reason=WHY
    )
    async def move(
        self,
        interaction: discord.Interaction,
        unit: str,
        at: app_commands.Range[str, 3, 40],
        reason: Reason,
        facing: app_commands.Range[float, 0, 360] | None = None,
    ) -> None:
        """Move a unit."""
        change = await self.gm.move(
            place_of(interaction), interaction.user.id, unit, at, facing, reason
        )
        await interaction.response.send_message(change_text(change))

    @app_commands.command(name="ruling", description="Answer the waiting question as GM")
    @is_gm()
    @app_commands.describe(choice="The answer")
    async def ruling(self, interaction: discord.Interaction, choice: str) -> None:
        """Answer a pending decision."""
        place = place_of(interaction)
        await self.battles.check_gm(place, interaction.user.id)  # refuse before answering publicly
        await interaction.response.defer()
        report = await self.gm.ruling(place, interaction.user.id, choice)
        await interaction.followup.send(ruled_text(interaction.user.id, choice))
        await post_report(self.bot, report)

    @ruling.autocomplete("choice")
    async def choice_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """Offer the answers of the waiting question."""
        options = await self.lookups.pending_options(place_of(interaction))
        return labelled_choices(options, current)

    @app_commands.command(name="undo", description="Go back to the start of the previous step")
    @is_gm()
    @app_commands.describe(reason=WHY)
    async def undo(self, interaction: discord.Interaction, reason: Reason) -> None:
        """Ask to confirm, then undo."""
        place, user = place_of(interaction), interaction.user
        view = await self.battles.check_gm(place, user.id)

        async def do_undo() -> tuple[str, str | None]:
            change, report = await self.gm.undo(place, user.id, reason)
            channel = self.bot.get_partial_messageable(view.channel_id)
            await channel.send(change_text(change))
            await post_report(self.bot, report)
            return "Undone.", None

        await ask_confirmation(interaction, UNDO_QUESTION, do_undo)

    @set_.autocomplete("unit")
    @move.autocomplete("unit")
    async def unit_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """Offer every unit on the table."""
        place, user = place_of(interaction), interaction.user.id
        names = await self.lookups.units_on_table(place, user, own=True)
        names += await self.lookups.units_on_table(place, user, own=False)
        return matching_choices(sorted(set(names)), current)


async def setup(bot: AideBot) -> None:
    """Load the GM commands."""
    await bot.add_cog(GmCog(bot))
