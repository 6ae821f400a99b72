"""/campaign map: the campaign's strategic map, a subgroup of /campaign in its own file."""

from __future__ import annotations

import asyncio

import discord
from discord import app_commands
from discord.ext import commands

from bot.checks import is_gm
from bot.client import AideBot, Served
from bot.errors import InvalidInput
from bot.presentation.campaign_map import (
    map_file,
    map_imported_text,
    map_view_text,
    move_text,
    turn_question,
    turn_texts,
)
from bot.presentation.choices import offer_names
from bot.presentation.replies import ask_confirmation, place_of, reply_with
from bot.rendering.campaign_map import render_map
from bot.services.map_files import MAX_BACKGROUND_BYTES, MAX_MAP_BYTES

# The asker's own armies; the map's regions.
own_armies = offer_names(lambda s, place, user: s.armies.names(place, owner_id=user))
regions = offer_names(lambda s, place, _: s.campaign_map.region_names(place))


class MapGroup(
    Served,
    app_commands.Group,
    name="map",
    description="The campaign's strategic map of regions",
):
    """The /campaign map subcommands."""

    @app_commands.command(name="import", description="Import the campaign map file (GMs only)")
    @is_gm()
    @app_commands.describe(
        file="A .yaml or .json map: regions with name, at or polygon, adjacent",
        background="A PNG or JPEG under the regions; the map file's coordinates are its pixels",
    )
    async def import_(
        self,
        interaction: discord.Interaction,
        file: discord.Attachment,
        background: discord.Attachment | None = None,
    ) -> None:
        """Validate and store the map (replacing the old one), and show it."""
        if file.size > MAX_MAP_BYTES:
            raise InvalidInput(
                f"`{file.filename}` is too large: at most {MAX_MAP_BYTES // 1024} KiB."
            )
        if background is not None and background.size > MAX_BACKGROUND_BYTES:
            raise InvalidInput(
                f"`{background.filename}` is too large: a background is at most "
                f"{MAX_BACKGROUND_BYTES // 1024**2} MiB."
            )
        content = await file.read()
        picture_file = (
            None if background is None else (await background.read(), background.filename)
        )
        picture = await self.services.campaign_map.import_map(
            place_of(interaction), interaction.user.id, content, file.filename, picture_file
        )
        png = await asyncio.to_thread(render_map, picture)
        await interaction.response.send_message(
            map_imported_text(interaction.user.id, picture), file=map_file(png)
        )

    @app_commands.command(name="show", description="The campaign map and your sealed moves")
    async def show(self, interaction: discord.Interaction) -> None:
        """The map image and who holds what, privately, with the asker's own pending moves."""
        view = await self.services.campaign_map.show(place_of(interaction), interaction.user.id)
        png = await asyncio.to_thread(render_map, view.picture)
        await interaction.response.send_message(
            map_view_text(view), file=map_file(png), ephemeral=True
        )

    @app_commands.command(name="move", description="March your army to an adjacent region")
    @app_commands.describe(army="One of your armies", to="An adjacent region (where it is: stay)")
    @app_commands.autocomplete(army=own_armies, to=regions)
    async def move(
        self,
        interaction: discord.Interaction,
        army: app_commands.Range[str, 1, 100],
        to: app_commands.Range[str, 1, 40],
    ) -> None:
        """Seal a move for this campaign turn; only its owner sees it until the turn."""
        await reply_with(
            interaction, move_text, self.services.campaign_map.move, army, to, ephemeral=True
        )

    @app_commands.command(name="turn", description="Resolve the campaign turn (GMs only)")
    @is_gm()
    async def turn(self, interaction: discord.Interaction) -> None:
        """Ask to confirm, then make every sealed move, set up a battle where armies meet and
        post the map."""
        place, user = place_of(interaction), interaction.user
        name, number, moves = await self.services.campaign_map.check_can_resolve(place, user.id)
        channel = self.bot.get_partial_messageable(place.channel_id)

        async def do_turn() -> tuple[str, str | None]:
            report = await self.services.campaign_map.resolve_turn(place, user.id, number)
            png = await asyncio.to_thread(render_map, report.picture)
            private, public = turn_texts(report)
            await channel.send(public, file=map_file(png))
            return private, None

        await ask_confirmation(interaction, turn_question(name, number, moves), do_turn)


async def setup(bot: AideBot) -> None:
    """Add /campaign map to the /campaign group (cogs.campaign loads first: names sort)."""
    campaign = bot.get_cog("CampaignCog")
    assert isinstance(campaign, commands.GroupCog) and campaign.app_command is not None
    campaign.app_command.add_command(MapGroup(bot))
