"""/battle: create a battle, lay terrain, deploy, start, look at it, end it."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.checks import is_gm
from bot.client import AideBot, Served
from bot.delivery import ai_plays, post_ended, post_report
from bot.errors import Conflict, InvalidInput, UserError
from bot.presentation.aftermath import (
    replay_attachment,
    replay_caption,
    report_caption,
    report_files,
    too_large_text,
)
from bot.presentation.ai_choices import holder_choices
from bot.presentation.battles import (
    LOG_INLINE_LIMIT,
    RECORD_CAPTION,
    assigned_text,
    battle_list_text,
    begun_text,
    deployed_many_text,
    deployed_text,
    end_question,
    ended_text,
    laid_text,
    log_file,
    log_text,
    map_attachment,
    next_steps,
    no_reach_text,
    record_attachment,
    removed_text,
    rolled_terrain_text,
    terrain_text,
    unit_sheet_text,
)
from bot.presentation.choices import (
    named_actors,
    offer_names,
    terrain_features,
    terrain_parameters,
)
from bot.presentation.formatting import battle_embed
from bot.presentation.general import hand_over_text
from bot.presentation.hands import hand_text
from bot.presentation.replies import (
    ask_confirmation,
    matching_choices,
    place_of,
    reply_here,
    reply_privately,
    reply_with,
)
from bot.presentation.web import link_text, revoked_link_text
from bot.rendering import MapOptions, Reach, SideView, render_map_async
from bot.rendering.overlays import measured
from bot.rendering.replay import UPLOAD_LIMIT, ReplayTooLarge, render_replay_async
from bot.services.armies import MAX_ROSTER_BYTES
from bot.services.battle_state import BattleView, find_unit
from bot.services.campaigns import Place
from bot.services.data_files import shown_name
from bot.services.shapes import TypedTerrain, zoom_area

# The campaign's armies.
campaign_armies = offer_names(lambda s, place, _: s.armies.names(place))
campaign_sides = offer_names(lambda s, place, _: s.campaigns.side_names(place))


def map_options(
    view: BattleView, user_id: int, zoom: str | None, unit: str | None, reach: str, fog: bool
) -> MapOptions:
    """The map's options from the command's: an area, a unit's reach, one side's view."""
    area = None if zoom is None else zoom_area(zoom, view.state.battlefield)
    shown = None
    if unit is not None:
        found = find_unit(view.state, unit)
        shown = measured(view.state, Reach(found.id, reach))
        if not shown.distance:
            raise InvalidInput(no_reach_text(found.name, reach))
    side_view = None
    if fog:
        sides = (
            view.seat.sides
            if view.seat is not None
            else [s.side_id for s in view.sides if s.owner_id == user_id]
        )
        if not sides:
            raise InvalidInput("You have no side in this battle, so there is no view of yours.")
        side_view = SideView(sides[0])
    return MapOptions(area=area, reach=shown, side_view=side_view)


DEPLOY_FILE_HELP = "JSON or YAML: a list of {unit, at: [x, y], facing}"
FROM_ARMY_HELP = "true: place units where their army list's `at` puts them (no file)"
Upload = discord.Attachment  # short, so the signature stays on one line


@app_commands.guild_only()
class BattleCog(
    Served, commands.GroupCog, group_name="battle", group_description="Set up and run battles"
):
    """Battle commands for this channel's campaign."""

    terrain = app_commands.Group(name="terrain", description="Lay out the table's terrain")

    @app_commands.command(name="create", description="Start setting up a battle (GMs only)")
    @is_gm()
    @app_commands.describe(
        name="The battle's name",
        army_a="The first army (its owner plays that side)",
        army_b="The second army",
        width="Table width in the ruleset's measure (default: the ruleset's usual table)",
        depth=(
            "Table depth in the ruleset's measure (default: its usual table); zones are at most "
            "a third of it"
        ),
        scale="Millimetres in one unit of the ruleset's measure (e.g. your base width)",
        ai_side="A side the AI general plays, answering at once (a solo battle)",
    )
    @app_commands.autocomplete(
        army_a=campaign_armies, army_b=campaign_armies, ai_side=campaign_sides
    )
    async def create(
        self,
        interaction: discord.Interaction,
        name: app_commands.Range[str, 1, 100],
        army_a: str,
        army_b: str,
        width: app_commands.Range[float, 6, 400] | None = None,
        depth: app_commands.Range[float, 6, 400] | None = None,
        scale: app_commands.Range[float, 1, 1000] | None = None,
        ai_side: app_commands.Range[str, 1, 100] | None = None,
    ) -> None:
        """Create the battle; sides come from the two armies (one played by the AI, if named)."""
        view = await self.services.battles.create(
            place_of(interaction),
            interaction.user.id,
            name,
            [army_a, army_b],
            width,
            depth,
            scale,
            ai_side,
        )
        embed = battle_embed(view)
        embed.set_footer(text=next_steps(view))
        await interaction.response.send_message(embed=embed)

    @app_commands.command(
        name="assign", description="Give a division, wing or command to a player (GMs only)"
    )
    @is_gm()
    @app_commands.describe(
        group="The division, wing or command", member="A player of that group's side"
    )
    @app_commands.autocomplete(group=named_actors("group"))
    async def assign(
        self, interaction: discord.Interaction, group: str, member: discord.Member
    ) -> None:
        """Assign a group to one of its side's players; only they order it from now on."""
        await reply_with(interaction, assigned_text, self.services.battles.assign, group, member.id)

    @app_commands.command(
        name="hand-over",
        description="Give a side to a GM or another player, e.g. while its player is away (GMs)",
    )
    @is_gm()
    @app_commands.describe(
        side="The battle's side (offered as you type)",
        member="Who plays it from now on: you or another GM, a player, or ai (the AI general)",
    )
    @app_commands.autocomplete(member=holder_choices)
    async def hand_over(
        self, interaction: discord.Interaction, side: str, member: app_commands.Range[str, 1, 40]
    ) -> None:
        """Give a side to someone else (or the AI); the previous player stays in the campaign."""
        handed = await reply_with(
            interaction, hand_over_text, self.services.battles.hand_over_to, side, member
        )
        await ai_plays(self.bot, handed.battle_id)  # its orders at once if its side is awaited

    @terrain.command(name="add", description="Lay a piece of terrain (GMs, during set-up)")
    @is_gm()
    @terrain_parameters(
        shape="polygon/line: points in `at`; circle: centre in `at`, radius in `size`; "
        "rectangle: centre in `at`, width,depth in `size`",
        name="A name to show on the map",
    )
    async def terrain_add(
        self,
        interaction: discord.Interaction,
        kind: str,
        shape: str,
        at: app_commands.Range[str, 3, 400],
        size: app_commands.Range[str, 1, 40] | None = None,
        name: app_commands.Range[str, 1, 60] | None = None,
    ) -> None:
        """Lay terrain."""
        piece = TypedTerrain(kind, shape, at, size, name)
        await reply_with(interaction, laid_text, self.services.battles.add_terrain, piece)

    @terrain.command(name="remove", description="Take a piece of terrain away (GMs, set-up)")
    @is_gm()
    @app_commands.describe(feature="The terrain's id or name")
    @app_commands.autocomplete(feature=terrain_features)
    async def terrain_remove(self, interaction: discord.Interaction, feature: str) -> None:
        """Remove terrain."""
        await reply_with(interaction, removed_text, self.services.battles.remove_terrain, feature)

    @terrain.command(name="list", description="List the terrain on the table")
    async def terrain_list(self, interaction: discord.Interaction) -> None:
        """List terrain, privately."""
        await reply_here(interaction, terrain_text, self.services.lookups.terrain, ephemeral=True)

    @terrain.command(name="roll", description="Roll the terrain on the ruleset's terrain table")
    @is_gm()
    async def terrain_roll(self, interaction: discord.Interaction) -> None:
        """Roll terrain and lay it; the rolls are posted for everyone."""
        await reply_with(interaction, rolled_terrain_text, self.services.battles.roll_terrain)

    @app_commands.command(name="deploy", description="Place one of your units (set-up)")
    @app_commands.describe(
        unit="Your unit", at="Where its centre goes: `x,y`", facing="Compass degrees, 0 = up"
    )
    async def deploy(
        self,
        interaction: discord.Interaction,
        unit: str,
        at: app_commands.Range[str, 3, 40],
        facing: app_commands.Range[float, 0, 360] | None = None,
    ) -> None:
        """Deploy a unit."""
        await reply_privately(
            interaction, self.services.battles.deploy, deployed_text, unit, at, facing
        )

    @deploy.autocomplete("unit")
    async def roster_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """Offer the units you may deploy, undeployed first."""
        units = await self.services.lookups.roster_units(place_of(interaction), interaction.user.id)
        ordered = sorted(units, key=lambda u: u[2])
        names = [f"{name}" for _, name, _ in ordered]
        return matching_choices(names, current)

    @app_commands.command(name="deploy-file", description="Place many units from a file (set-up)")
    @app_commands.describe(file=DEPLOY_FILE_HELP, from_army=FROM_ARMY_HELP)
    async def deploy_file(
        self, interaction: discord.Interaction, file: Upload | None = None, from_army: bool = False
    ) -> None:
        """Deploy from a file, or from the army lists' places; all or nothing."""
        if (file is None) == (not from_army):
            raise InvalidInput(
                "Give either `file:` (a list of `{unit, at: [x, y], facing}`) or "
                "`from_army:true` (the places your army list gives), not both."
                if file is not None
                else "Give `file:` (a list of `{unit, at: [x, y], facing}`) or "
                "`from_army:true` to place units where their army list's `at` puts them."
            )
        if file is None:
            await reply_privately(
                interaction, self.services.battles.deploy_from_army, deployed_many_text
            )
            return
        if file.size > MAX_ROSTER_BYTES:
            raise InvalidInput(f"`{shown_name(file.filename)}` is too large: at most 256 KiB.")

        async def deploy_many(place: Place, user_id: int) -> int:
            content = await file.read()  # reading the file takes a while: after the deferral
            return await self.services.battles.deploy_many(place, user_id, content, file.filename)

        await reply_privately(interaction, deploy_many, deployed_many_text)

    @app_commands.command(name="start", description="Start the battle (GMs only)")
    @is_gm()
    async def start(self, interaction: discord.Interaction) -> None:
        """Begin play: publish the seed's hash and announce the first step."""
        place = place_of(interaction)
        # refuse before answering publicly
        await self.services.battles.check_gm(place, interaction.user.id)
        await interaction.response.defer()
        report = await self.services.play.start(place, interaction.user.id)
        await interaction.followup.send(begun_text(report))
        await post_report(self.bot, report)

    @app_commands.command(name="list", description="The campaign's battles and where each stands")
    async def list_(self, interaction: discord.Interaction) -> None:
        """List the campaign's battles, privately."""
        await reply_here(interaction, battle_list_text, self.services.battles.list, ephemeral=True)

    @app_commands.command(name="table", description="Your private link to the live war table")
    @app_commands.describe(
        revoke="true: end your old links (one leaked?) and get a new one",
        spectator="true: the public link of an open campaign, to share with anyone watching",
    )
    async def table(
        self, interaction: discord.Interaction, revoke: bool = False, spectator: bool = False
    ) -> None:
        """Answer privately with a link to the battle in a browser, in your own view."""
        links = self.services.web_links
        if revoke:
            await reply_privately(interaction, links.revoke, revoked_link_text, spectator)
        else:
            await reply_privately(interaction, links.issue, link_text, spectator)

    @app_commands.command(name="status", description="Where the battle stands")
    async def status(self, interaction: discord.Interaction) -> None:
        """Show the battle card."""
        view = await self.services.battles.view(place_of(interaction))
        await interaction.response.send_message(embed=battle_embed(view))

    @app_commands.command(name="unit", description="One unit's profile, status and position")
    @app_commands.describe(name="The unit (offered as you type)")
    @app_commands.autocomplete(name=named_actors("unit"))
    async def unit(self, interaction: discord.Interaction, name: str) -> None:
        """Show one unit's state in words, privately."""
        await reply_with(
            interaction, unit_sheet_text, self.services.unit_sheet.sheet, name, ephemeral=True
        )

    @app_commands.command(name="map", description="Post the current map")
    @app_commands.describe(
        zoom="Only this area, by two corners: `x0,y0 x1,y1` in the ruleset's measure",
        unit="Outline how far this unit can move or shoot",
        reach="What to outline for the unit: its move (default) or its shooting range",
        fog="Only what your side can see, sent privately to you",
    )
    @app_commands.choices(
        reach=[
            app_commands.Choice(name="move", value="move"),
            app_commands.Choice(name="range", value="range"),
        ]
    )
    @app_commands.autocomplete(unit=named_actors("unit"))
    async def map(
        self,
        interaction: discord.Interaction,
        zoom: app_commands.Range[str, 7, 60] | None = None,
        unit: str | None = None,
        reach: str = "move",
        fog: bool = False,
    ) -> None:
        """Render and post the map, zoomed, with a unit's reach, or as one side sees it."""
        place = place_of(interaction)
        view = await self.services.battles.view(place)
        options = map_options(view, interaction.user.id, zoom, unit, reach, fog)
        await interaction.response.defer(ephemeral=fog)
        png = await render_map_async(view.state, (), options)
        await interaction.followup.send(file=map_attachment(png), ephemeral=fog)

    @app_commands.command(name="log", description="The full log of one turn")
    @app_commands.describe(turn="Turn number (0 is set-up)")
    async def log(
        self, interaction: discord.Interaction, turn: app_commands.Range[int, 0, 1000]
    ) -> None:
        """Send one turn's log, privately."""
        text = log_text(await self.services.records.log(place_of(interaction), turn), turn)
        if len(text) <= LOG_INLINE_LIMIT:
            await interaction.response.send_message(text, ephemeral=True)
        else:
            await interaction.response.send_message(file=log_file(text, turn), ephemeral=True)

    @app_commands.command(name="hand", description="Your cards and those face up")
    async def hand(self, interaction: discord.Interaction) -> None:
        """Send the reader's view of the battle's cards, privately."""
        await reply_here(interaction, hand_text, self.services.hands.hand, ephemeral=True)

    @app_commands.command(name="record", description="The battle record as JSON, to verify")
    async def record(self, interaction: discord.Interaction) -> None:
        """Send the record, privately."""
        data = await self.services.records.record(place_of(interaction))
        await interaction.response.send_message(
            RECORD_CAPTION, file=record_attachment(data), ephemeral=True
        )

    @app_commands.command(name="replay", description="An animated replay of the battle so far")
    async def replay(self, interaction: discord.Interaction) -> None:
        """Send the replay GIF: to everyone once the battle has ended, privately before."""
        replay = await self.services.aftermath.replay(place_of(interaction))
        await interaction.response.defer(ephemeral=not replay.finished)
        limit = min(UPLOAD_LIMIT, interaction.filesize_limit)
        try:
            image = await render_replay_async(replay.frames, limit)
        except ReplayTooLarge as error:
            raise Conflict(too_large_text(error)) from error
        await interaction.followup.send(
            replay_caption(replay, image),
            file=replay_attachment(image),
            ephemeral=not replay.finished,
        )

    @app_commands.command(name="report", description="The after-action report of the ended battle")
    async def report(self, interaction: discord.Interaction) -> None:
        """Post the report with the maps at the start and the end, and the record."""
        report = await self.services.aftermath.report(place_of(interaction))
        await interaction.response.defer()
        start = await render_map_async(report.first.state)
        last = report.last
        options = MapOptions(lost=last.lost, gone=last.gone, after=last.title)
        end = await render_map_async(last.state, last.events, options)
        await interaction.followup.send(
            report_caption(report), files=report_files(report, start, end)
        )

    @app_commands.command(name="end", description="End the battle (GMs only)")
    @is_gm()
    @app_commands.describe(winner="The winning side; leave empty for a draw", reason="Why")
    async def end(
        self,
        interaction: discord.Interaction,
        reason: app_commands.Range[str, 1, 200],
        winner: str | None = None,
    ) -> None:
        """Ask to confirm, then end the battle and post the result with the record."""
        place, user = place_of(interaction), interaction.user
        view = await self.services.battles.check_gm(place, user.id)

        async def do_end() -> tuple[str, str | None]:
            ended = await self.services.gm.end(place, user.id, winner, reason)
            await post_ended(self.bot, view.id, view.channel_id, ended)
            return ended_text(ended.battle_name), None

        await ask_confirmation(interaction, end_question(view, winner), do_end)

    @end.autocomplete("winner")
    @hand_over.autocomplete("side")
    async def side_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """Offer the battle's sides (none to whoever may not see the battle)."""
        try:
            view = await self.services.battles.view(place_of(interaction))
        except UserError:
            return []
        return matching_choices([s.name for s in view.sides], current)


async def setup(bot: AideBot) -> None:
    """Load the battle commands."""
    await bot.add_cog(BattleCog(bot))
