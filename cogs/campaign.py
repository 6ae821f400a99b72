"""/campaign: create, inspect, join and run campaigns."""

from __future__ import annotations

import builtins

import discord
from discord import app_commands
from discord.ext import commands

from bot.checks import is_gm
from bot.client import AideBot, Served
from bot.presentation.campaigns import (
    admitted_text,
    close_question,
    closed_texts,
    deadlines_text,
    dm_calls_text,
    gm_added_text,
    gm_removed_text,
    joined_text,
    left_text,
    member_removed_texts,
    remove_member_question,
    rule_reset_text,
    rule_set_text,
    sheet_pages,
    visibility_text,
    watching_text,
)
from bot.presentation.choices import offer_names
from bot.presentation.formatting import campaign_embed, campaign_line, ruleset_choice_name
from bot.presentation.replies import ask_confirmation, matching_choices, place_of
from bot.slash import command_name, subcommand
from rules_core.registry import all_rulesets

RULESET_CHOICES = [
    app_commands.Choice(name=ruleset_choice_name(r), value=r.id) for r in all_rulesets()
][:25]
# The ruleset's parameter names.
parameter_names = offer_names(lambda s, place, _: s.parameters.names(place))


@app_commands.guild_only()
class CampaignCog(
    Served,
    commands.GroupCog,
    group_name="campaign",
    group_description="Create, join and run campaigns",
):
    """Campaign commands; each one works on the campaign of the channel it is used in."""

    gm = app_commands.Group(name="gm", description="Add or remove the campaign's GMs")
    rules = app_commands.Group(name="rules", description="The ruleset's parameters here")

    @app_commands.command(name="create", description="Start a campaign in this channel as its GM")
    @app_commands.describe(name="The campaign's name", ruleset="The rules it is played with")
    @app_commands.choices(ruleset=RULESET_CHOICES)
    async def create(
        self, interaction: discord.Interaction, name: app_commands.Range[str, 1, 100], ruleset: str
    ) -> None:
        """Create a campaign here; the creator is its first GM."""
        info = await self.services.campaigns.create(
            place_of(interaction), interaction.user.id, name, ruleset
        )
        embed = campaign_embed(info, title=f"New campaign: {info.name}")
        embed.set_footer(text="Players: /campaign join side:<your side> · then /army import")
        await interaction.response.send_message(embed=embed)

    @app_commands.command(name="info", description="Show this channel's campaign")
    async def info(self, interaction: discord.Interaction) -> None:
        """Show the campaign card."""
        info = await self.services.campaigns.info(place_of(interaction))
        await interaction.response.send_message(embed=campaign_embed(info))

    @app_commands.command(name="list", description="List the campaigns of this server")
    async def list(self, interaction: discord.Interaction) -> None:
        """List open campaigns of this server, privately."""
        place = place_of(interaction)
        infos = await self.services.campaigns.list(place.guild_id, user_id=interaction.user.id)
        text = "\n".join(campaign_line(i) for i in infos) or "No campaigns yet: `/campaign create`."
        await interaction.response.send_message(text[:2000], ephemeral=True)

    @app_commands.command(name="join", description="Join this channel's campaign")
    @app_commands.describe(side="Your side or faction; leave empty to watch as an observer")
    async def join(
        self, interaction: discord.Interaction, side: app_commands.Range[str, 1, 50] | None = None
    ) -> None:
        """Join as a player on a side, or as an observer."""
        info = await self.services.campaigns.join(place_of(interaction), interaction.user.id, side)
        await interaction.response.send_message(joined_text(interaction.user.id, info.name, side))

    @app_commands.command(name="watch", description="Watch this channel's open campaign")
    async def watch(self, interaction: discord.Interaction) -> None:
        """Join as an observer (a closed campaign admits observers through its GM)."""
        info = await self.services.campaigns.join(place_of(interaction), interaction.user.id, None)
        await interaction.response.send_message(watching_text(interaction.user.id, info.name))

    @app_commands.command(name="dm", description="Get your calls to arms by direct message too")
    @app_commands.describe(on="true: also by direct message; false: only in the channel")
    async def dm(self, interaction: discord.Interaction, on: bool) -> None:
        """Turn calls to arms by direct message on or off for oneself."""
        info = await self.services.campaigns.set_dm_calls(
            place_of(interaction), interaction.user.id, on
        )
        await interaction.response.send_message(dm_calls_text(info.name, on), ephemeral=True)

    @app_commands.command(name="visibility", description="Open or close the campaign (GMs only)")
    @is_gm()
    @app_commands.describe(visibility="open: anyone may watch; closed: only its members see it")
    @app_commands.choices(
        visibility=[
            app_commands.Choice(name="open: anyone in the server may watch", value="open"),
            app_commands.Choice(name="closed: members and admitted observers only", value="closed"),
        ]
    )
    async def visibility(self, interaction: discord.Interaction, visibility: str) -> None:
        """Set who may see the campaign."""
        info = await self.services.campaigns.set_visibility(
            place_of(interaction), interaction.user.id, visibility
        )
        await interaction.response.send_message(
            visibility_text(interaction.user.id, info.name, info.closed)
        )

    async def _member_role(self, interaction: discord.Interaction, member: discord.Member) -> None:
        """Admit a member as an observer, or make one a GM or not (/campaign admit, gm add, gm
        remove: the same call and the same kind of public note, by the invoked name)."""
        change, text = {
            "admit": (self.services.campaigns.admit, admitted_text),
            "add": (self.services.campaigns.add_gm, gm_added_text),
            "remove": (self.services.campaigns.remove_gm, gm_removed_text),
        }[command_name(interaction)]
        info = await change(place_of(interaction), interaction.user.id, member.id)
        await interaction.response.send_message(text(member.id, interaction.user.id, info.name))

    admit = subcommand(
        "admit",
        "Admit someone as an observer (GMs only)",
        {"member": "Who may see the campaign; they join a side themselves"},
        gm_only=True,
    )(_member_role)

    @join.autocomplete("side")
    async def side_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> builtins.list[app_commands.Choice[str]]:
        """Offer the sides already chosen."""
        return matching_choices(
            await self.services.campaigns.side_names(place_of(interaction)), current
        )

    @app_commands.command(name="leave", description="Leave this channel's campaign")
    async def leave(self, interaction: discord.Interaction) -> None:
        """Leave the campaign."""
        info = await self.services.campaigns.leave(place_of(interaction), interaction.user.id)
        await interaction.response.send_message(left_text(interaction.user.id, info.name))

    @app_commands.command(
        name="remove", description="Remove a player or observer from the campaign (GMs only)"
    )
    @is_gm()
    @app_commands.describe(member="Who leaves the campaign (their side becomes GM-run)")
    async def remove(self, interaction: discord.Interaction, member: discord.Member) -> None:
        """Ask the GM to confirm, then remove the member; what they ran passes to the GM."""
        place, user = place_of(interaction), interaction.user
        name = await self.services.campaigns.check_can_remove_member(place, user.id, member.id)

        async def do_remove() -> tuple[str, str | None]:
            removal = await self.services.campaigns.remove_member(place, user.id, member.id)
            return member_removed_texts(removal)

        await ask_confirmation(interaction, remove_member_question(member.id, name), do_remove)

    gm_add = subcommand(
        "add",
        "Make a member a GM of this campaign (GMs only)",
        {"member": "Who becomes a GM"},
        gm_only=True,
    )(_member_role)
    gm_remove = subcommand(
        "remove",
        "Take the GM role from a member (GMs only)",
        {"member": "Who stops being a GM"},
        gm_only=True,
    )(_member_role)
    gm.add_command(gm_add)
    gm.add_command(gm_remove)

    @app_commands.command(name="deadlines", description="Set the deadline policy (GMs only)")
    @is_gm()
    @app_commands.describe(
        step_hours="Hours players have for each step (default 48)",
        reminders="Hours before the deadline to remind the late, e.g. 24,1",
        question_hours="Hours to answer a question before its default applies (default 24)",
        missing="At a deadline, missing orders: the ruleset's defaults, a GM decides, or the AI",
    )
    @app_commands.choices(
        missing=[
            app_commands.Choice(name="the ruleset's default orders", value="default"),
            app_commands.Choice(name="a GM decides (no automatic resolution)", value="gm"),
            app_commands.Choice(name="the AI stand-in gives the missing orders", value="ai"),
        ]
    )
    async def deadlines(
        self,
        interaction: discord.Interaction,
        step_hours: app_commands.Range[float, 0.25, 1440.0] | None = None,
        reminders: app_commands.Range[str, 1, 40] | None = None,
        question_hours: app_commands.Range[float, 0.25, 1440.0] | None = None,
        missing: str | None = None,
    ) -> None:
        """Change the deadline policy; it applies from the next step."""
        policy = await self.services.campaigns.set_deadlines(
            place_of(interaction),
            interaction.user.id,
            step_hours,
            reminders,
            question_hours,
            missing,
        )
        await interaction.response.send_message(deadlines_text(interaction.user.id, policy))

    @rules.command(name="show", description="The ruleset's parameters and their values here")
    @app_commands.describe(name="Only this parameter, with its whole table")
    @app_commands.autocomplete(name=parameter_names)
    async def rules_show(self, interaction: discord.Interaction, name: str | None = None) -> None:
        """List the parameters privately: value here, the ruleset's value, description, source."""
        sheet = await self.services.parameters.sheet(place_of(interaction), name)
        first, *rest = sheet_pages(sheet, full=name is not None)
        await interaction.response.send_message(first, ephemeral=True)
        for page in rest:
            await interaction.followup.send(page, ephemeral=True)

    @rules.command(name="set", description="Change a ruleset parameter here (GMs only)")
    @app_commands.describe(
        name="The parameter (see /campaign rules show)",
        value="A number, true/false, or JSON shaped like the ruleset's value for a table",
    )
    @app_commands.autocomplete(name=parameter_names)
    @is_gm()
    async def rules_set(
        self,
        interaction: discord.Interaction,
        name: app_commands.Range[str, 1, 60],
        value: app_commands.Range[str, 1, 1000],
    ) -> None:
        """Override one parameter for the battles created from now on."""
        row = await self.services.parameters.override(
            place_of(interaction), interaction.user.id, name, value
        )
        await interaction.response.send_message(rule_set_text(interaction.user.id, row))

    @rules.command(name="reset", description="Use the ruleset's own value again (GMs only)")
    @app_commands.describe(name="The parameter to reset")
    @app_commands.autocomplete(name=parameter_names)
    @is_gm()
    async def rules_reset(
        self, interaction: discord.Interaction, name: app_commands.Range[str, 1, 60]
    ) -> None:
        """Take a parameter's override away."""
        row = await self.services.parameters.reset(place_of(interaction), interaction.user.id, name)
        await interaction.response.send_message(rule_reset_text(interaction.user.id, row))

    @app_commands.command(name="close", description="Finish this channel's campaign (GMs only)")
    @is_gm()
    async def close(self, interaction: discord.Interaction) -> None:
        """Ask the GM to confirm, then finish the campaign."""
        place, user = place_of(interaction), interaction.user
        info = await self.services.campaigns.check_can_close(place, user.id)

        async def do_close() -> tuple[str, str | None]:
            closed = await self.services.campaigns.close(place, user.id)
            return closed_texts(user.id, closed.name)

        await ask_confirmation(interaction, close_question(info.name), do_close)


async def setup(bot: AideBot) -> None:
    """Load the campaign commands."""
    await bot.add_cog(CampaignCog(bot))
