"""/gm: the GM's tools during play; every change is posted publicly with its reason."""

from __future__ import annotations

from collections.abc import Callable

import discord
from discord import app_commands
from discord.ext import commands

from bot.checks import is_gm
from bot.client import AideBot, Served
from bot.delivery import post_report
from bot.errors import NotFound
from bot.presentation.choices import (
    Complete,
    offer_labelled,
    offer_names,
    pending_answers,
    terrain_features,
    terrain_parameters,
)
from bot.presentation.gm import (
    UNDO_QUESTION,
    change_text,
    forced_text,
    ruled_text,
)
from bot.presentation.questions import private_answered_note
from bot.presentation.replies import ask_confirmation, matching_choices, place_of, reply_with
from bot.services.shapes import TypedTerrain
from bot.slash import Callback, SlashCommand, command_name, subcommand

Reason = app_commands.Range[str, 1, 200]
WHY = "Why: posted with the change for everyone to read"

# The units off the table or in reserve; every unit, leader, group and side (by id).
absent_units = offer_names(lambda s, place, _: s.lookups.absent_units(place))
gm_targets = offer_labelled(lambda s, place, _: s.lookups.gm_targets(place))


def gm_command(
    name: str, description: str, offers: dict[str, Complete] | None = None, **helps: str
) -> Callable[[Callback], SlashCommand]:
    """A /gm subcommand: GMs only, and its ``reason`` explained as posted with the change unless
    ``helps`` words it otherwise; ``helps`` and ``offers`` are its own parameters' descriptions
    and autocompletes."""
    return subcommand(name, description, {"reason": WHY} | helps, offers, gm_only=True)


@app_commands.guild_only()
class GmCog(
    Served, commands.GroupCog, group_name="gm", group_description="GM tools during a battle"
):
    """GM-only commands; the services refuse anyone else."""

    @gm_command("pause", "Stop the clock")
    async def pause(self, interaction: discord.Interaction, reason: Reason) -> None:
        """Pause the battle."""
        await reply_with(interaction, change_text, self.services.gm.pause, reason)

    @gm_command("resume", "Start the clock again", reason=WHY + " (default: resumed)")
    async def resume(self, interaction: discord.Interaction, reason: Reason = "resumed") -> None:
        """Resume the battle."""
        await reply_with(interaction, change_text, self.services.gm.resume, reason)

    @gm_command("extend", "Push the current deadline back", hours="How many hours to add")
    async def extend(
        self,
        interaction: discord.Interaction,
        hours: app_commands.Range[float, 0.1, 720.0],
        reason: Reason,
    ) -> None:
        """Extend the deadline."""
        await reply_with(interaction, change_text, self.services.gm.extend, hours, reason)

    @app_commands.command(name="force", description="Resolve the current step now")
    @is_gm()
    async def force(self, interaction: discord.Interaction) -> None:
        """Resolve now with defaults for missing orders."""
        place = place_of(interaction)
        # Refuse before answering publicly; the step open now is the one the GM forces.
        seen = await self.services.battles.check_gm(place, interaction.user.id)
        await interaction.response.defer()
        report = await self.services.gm.force(place, interaction.user.id, seen.stage)
        await interaction.followup.send(forced_text(interaction.user.id, report.title))
        await post_report(self.bot, report)

    terrain = app_commands.Group(name="terrain", description="Change the terrain mid-battle")

    @gm_command(
        "set",
        "Set a field of a unit, leader, group or side",
        {"unit": gm_targets},
        unit="A unit, leader, group or side",
        field="e.g. disordered, dps, wounds; a leader's points or wounds",
        value="New value",
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
        await reply_with(
            interaction, change_text, self.services.gm.set_status, unit, field, value, reason
        )

    @set_.autocomplete("field")
    async def field_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """Offer the fields of what is being set (a unit's by default)."""
        holder = getattr(interaction.namespace, "unit", None) or None
        fields = await self.services.lookups.status_fields(place_of(interaction), holder)
        return matching_choices(fields, current)

    async def _put_unit(
        self,
        interaction: discord.Interaction,
        unit: str,
        at: app_commands.Range[str, 3, 40],
        reason: Reason,
        facing: app_commands.Range[float, 0, 360] | None = None,
    ) -> None:
        """Move a unit on the table, or put one off it back on (/gm move, /gm on-table)."""
        put = (
            self.services.gm.move
            if command_name(interaction) == "move"
            else self.services.gm.bring_back
        )
        await reply_with(interaction, change_text, put, unit, at, facing, reason)

    move = gm_command(
        "move",
        "Move or turn a unit",
        unit="The unit",
        at="New centre `x,y`",
        facing="Compass degrees",
    )(_put_unit)

    @gm_command(
        "off-table",
        "Take a unit off the table, not lost",
        unit="The unit (it keeps counting for its army)",
    )
    async def off_table(self, interaction: discord.Interaction, unit: str, reason: Reason) -> None:
        """Take a unit off the table."""
        await reply_with(interaction, change_text, self.services.gm.take_off, unit, reason)

    on_table = gm_command(
        "on-table",
        "Put a unit off the table back on it",
        {"unit": absent_units},
        unit="A unit off the table or in reserve",
        at="Its centre `x,y`",
        facing="Compass degrees (default: as it was)",
    )(_put_unit)

    @gm_command(
        "ruling",
        "Answer the waiting question as GM",
        {"choice": pending_answers},
        choice="The answer",
        reason="Why the GM answers (kept on the record)",
    )
    async def ruling(
        self, interaction: discord.Interaction, choice: str, reason: Reason | None = None
    ) -> None:
        """Answer a pending decision, for any side."""
        place = place_of(interaction)
        # refuse before answering publicly
        await self.services.battles.check_gm(place, interaction.user.id)
        # A private question's answer is its side's: the GM's ruling on it is told privately.
        try:
            private = any(d.private for d, _ in await self.services.lookups.questions_for(place))
        except NotFound:
            private = False  # the ruling itself says why it cannot be given
        await interaction.response.defer(ephemeral=private)
        report = await self.services.gm.ruling(place, interaction.user.id, choice, reason or "")
        ruled = ruled_text(interaction.user.id, choice, reason or "")
        await interaction.followup.send(ruled, ephemeral=private)
        if private:
            await interaction.followup.send(private_answered_note(interaction.user.id))
        if report is not None:  # None: other questions of the step are still open
            await post_report(self.bot, report)

    @gm_command("undo", "Go back to the start of the previous step")
    async def undo(self, interaction: discord.Interaction, reason: Reason) -> None:
        """Ask to confirm, then undo."""
        place, user = place_of(interaction), interaction.user
        view = await self.services.battles.check_gm(place, user.id)

        async def do_undo() -> tuple[str, str | None]:
            change, report = await self.services.gm.undo(place, user.id, reason)
            channel = self.bot.get_partial_messageable(view.channel_id)
            await channel.send(change_text(change))
            await post_report(self.bot, report)
            return "Undone.", None

        await ask_confirmation(interaction, UNDO_QUESTION, do_undo)

    @terrain.command(name="add", description="Lay a piece of terrain mid-battle")
    @is_gm()
    @terrain_parameters(shape="polygon, line, circle or rectangle", reason=WHY)
    async def terrain_add(
        self,
        interaction: discord.Interaction,
        kind: str,
        shape: str,
        at: app_commands.Range[str, 3, 400],
        reason: Reason,
        size: app_commands.Range[str, 1, 40] | None = None,
    ) -> None:
        """Lay terrain, on the record."""
        piece = TypedTerrain(kind, shape, at, size)
        await reply_with(interaction, change_text, self.services.gm.lay_terrain, piece, reason)

    @terrain.command(name="remove", description="Take a piece of terrain away mid-battle")
    @is_gm()
    @app_commands.describe(feature="The terrain's id or name", reason=WHY)
    @app_commands.autocomplete(feature=terrain_features)
    async def terrain_remove(
        self, interaction: discord.Interaction, feature: str, reason: Reason
    ) -> None:
        """Lift terrain, on the record."""
        await reply_with(interaction, change_text, self.services.gm.lift_terrain, feature, reason)

    @off_table.autocomplete("unit")
    @move.autocomplete("unit")
    async def unit_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """Offer every unit on the table."""
        place, user = place_of(interaction), interaction.user.id
        names = await self.services.lookups.units_on_table(place, user, own=True)
        names += await self.services.lookups.units_on_table(place, user, own=False)
        return matching_choices(sorted(set(names)), current)


async def setup(bot: AideBot) -> None:
    """Load the GM commands."""
    await bot.add_cog(GmCog(bot))
