"""/army: import, show, list and remove army lists."""

from __future__ import annotations

import builtins

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import AideBot, Served
from bot.errors import InvalidInput, UserError
from bot.presentation.formatting import (
    army_embed,
    army_imported_text,
    army_list_text,
    army_remove_question,
    army_removed_texts,
)
from bot.presentation.replies import ask_confirmation, matching_choices, place_of, reply_with
from bot.presentation.rosters import (
    LOAD_NEEDS_NAME,
    export_file,
    export_text,
    sample_file,
    samples_text,
    template_file,
    template_text,
)
from bot.services.armies import MAX_ROSTER_BYTES


@app_commands.guild_only()
class ArmyCog(Served, commands.GroupCog, group_name="army", group_description="Manage army lists"):
    """Army list commands for this channel's campaign."""

    @app_commands.command(name="import", description="Import your army list (JSON or YAML file)")
    @app_commands.describe(file="A .json or .yaml roster with a name and a list of units")
    async def import_(self, interaction: discord.Interaction, file: discord.Attachment) -> None:
        """Validate and store an army list; re-importing your own army replaces it."""
        if file.size > MAX_ROSTER_BYTES:
            raise InvalidInput(f"`{file.filename}` is too large: at most 256 KiB.")
        place = place_of(interaction)
        await interaction.response.defer()  # public on success; a refusal replaces it privately
        content = await file.read()
        info = await self.services.armies.import_roster(
            place, interaction.user.id, content, file.filename
        )
        await interaction.followup.send(army_imported_text(interaction.user.id, info))

    @app_commands.command(name="show", description="Show an army list")
    @app_commands.describe(name="The army's name")
    async def show(self, interaction: discord.Interaction, name: str) -> None:
        """Show one army, privately."""
        info = await self.services.armies.show(place_of(interaction), interaction.user.id, name)
        await interaction.response.send_message(embed=army_embed(info), ephemeral=True)

    @app_commands.command(name="export", description="Download an army list as a file to edit")
    @app_commands.describe(name="The army's name")
    async def export(self, interaction: discord.Interaction, name: str) -> None:
        """Send one army as a YAML file /army import takes back, privately."""
        info = await self.services.armies.show(place_of(interaction), interaction.user.id, name)
        await interaction.response.send_message(
            export_text(info.name), file=export_file(info.name, info.roster), ephemeral=True
        )

    @app_commands.command(name="list", description="List the armies of this campaign")
    async def list(self, interaction: discord.Interaction) -> None:
        """List every army with its owner, privately."""
        await reply_with(interaction, army_list_text, self.services.armies.list, ephemeral=True)

    @app_commands.command(name="remove", description="Delete an army list (its owner or a GM)")
    @app_commands.describe(name="The army's name")
    async def remove(self, interaction: discord.Interaction, name: str) -> None:
        """Ask to confirm, then delete the army."""
        place, user = place_of(interaction), interaction.user
        info = await self.services.armies.check_can_remove(place, user.id, name)

        async def do_remove() -> tuple[str, str | None]:
            removed = await self.services.armies.remove(place, user.id, name)
            return army_removed_texts(user.id, removed)

        await ask_confirmation(interaction, army_remove_question(info), do_remove)

    @app_commands.command(name="template", description="Download an army list file to fill in")
    async def template(self, interaction: discord.Interaction) -> None:
        """Send the campaign ruleset's army template, every field explained, privately."""
        ruleset = (await self.services.armies.samples(place_of(interaction))).ruleset
        await interaction.response.send_message(
            template_text(ruleset), file=template_file(ruleset), ephemeral=True
        )

    @app_commands.command(name="sample", description="Download or load the ruleset's sample armies")
    @app_commands.describe(
        name="One sample army (all of them when left out)",
        load="Import it as your army instead of downloading it",
    )
    async def sample(
        self, interaction: discord.Interaction, name: str | None = None, load: bool = False
    ) -> None:
        """Send sample armies privately, or import one as the player's army."""
        place, user_id = place_of(interaction), interaction.user.id
        if load:
            if name is None:
                raise InvalidInput(LOAD_NEEDS_NAME)
            info = await self.services.armies.import_sample(place, user_id, name)
            await interaction.response.send_message(army_imported_text(user_id, info))
            return
        found = await self.services.armies.samples(place)
        armies = list(found.armies) if name is None else [found.named(name)]
        files = [sample_file(a) for a in armies]
        text = samples_text(found.ruleset, [str(a["name"]) for a in armies])
        await interaction.response.send_message(text, files=files, ephemeral=True)

    @sample.autocomplete("name")
    async def sample_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> builtins.list[app_commands.Choice[str]]:
        """Offer the ruleset's sample army names."""
        try:
            found = await self.services.armies.samples(place_of(interaction))
        except UserError:
            return []
        return matching_choices([str(a["name"]) for a in found.armies], current)

    @show.autocomplete("name")
    @export.autocomplete("name")
    @remove.autocomplete("name")
    async def name_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> builtins.list[app_commands.Choice[str]]:
        """Offer the campaign's army names."""
        return matching_choices(await self.services.armies.names(place_of(interaction)), current)


async def setup(bot: AideBot) -> None:
    """Load the army commands."""
    await bot.add_cog(ArmyCog(bot))
