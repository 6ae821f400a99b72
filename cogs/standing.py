"""/standing: list, set and clear standing instructions; each is answered privately."""

from __future__ import annotations

from collections.abc import Callable

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import AideBot, Served
from bot.delivery import post_report
from bot.presentation.choices import battle_sides, offer_labelled, offer_labelled_for
from bot.presentation.replies import place_of, reply_privately
from bot.presentation.standing import (
    recommend_view,
    recommended_text,
    standing_cleared_text,
    standing_list_text,
    standing_set_text,
)
from bot.slash import Callback, SlashCommand, subcommand

Ref = app_commands.Range[str, 1, 100]

# The questions the rules ask again and again; only the user's own units.
standing_topics = offer_labelled(lambda s, place, _: s.standing.topics(place))
standing_units = offer_labelled(lambda s, place, user: s.standing.units(place, user))
# The chosen topic's answers and conditions.
topic_choices = offer_labelled_for(
    "topic", lambda s, place, topic: s.standing.choices(place, topic)
)
topic_conditions = offer_labelled_for(
    "topic", lambda s, place, topic: s.standing.conditions(place, topic)
)


def standing_command(
    name: str, description: str, **helps: str
) -> Callable[[Callback], SlashCommand]:
    """A /standing subcommand on instructions by topic and unit (set, clear): the topics and the
    user's own units offered as typed alike; ``helps`` are its parameters' descriptions."""
    offered = {"topic": standing_topics, "unit": standing_units, "side": battle_sides}
    return subcommand(name, description, helps, offered)


@app_commands.guild_only()
class StandingCog(
    Served, commands.GroupCog, group_name="standing", group_description="Standing instructions"
):
    """How your side, or one of your units, answers a recurring question without waiting."""

    @app_commands.command(name="list", description="Your standing instructions")
    async def list_(self, interaction: discord.Interaction) -> None:
        """List the instructions the user may see."""
        await reply_privately(interaction, self.services.standing.shown, standing_list_text)

    @app_commands.command(
        name="recommended", description="What an experienced player sets; accept them all"
    )
    async def recommended(self, interaction: discord.Interaction) -> None:
        """Show the ruleset's recommended instructions, with the button that sets them all."""
        place = place_of(interaction)
        await interaction.response.defer(ephemeral=True)
        found = await self.services.standing.recommended(place, interaction.user.id)
        text = recommended_text(found.views)
        if found.side_id:
            view = recommend_view(found.battle_id, found.side_id)
            await interaction.followup.send(text, view=view, ephemeral=True)
        else:
            await interaction.followup.send(text, ephemeral=True)

    @standing_command(
        "set",
        "Answer a kind of question in advance",
        topic="The kind of question (offered as you type)",
        choice="How to answer it",
        condition="Only when this holds (blank: always)",
        unit="Only for this unit of yours (blank: your whole side)",
        side="The side (a GM, or a player of several sides)",
    )
    @app_commands.autocomplete(choice=topic_choices, condition=topic_conditions)
    async def set_(
        self,
        interaction: discord.Interaction,
        topic: Ref,
        choice: Ref,
        condition: Ref | None = None,
        unit: Ref | None = None,
        side: Ref | None = None,
    ) -> None:
        """Set (or replace) a standing instruction."""
        await reply_privately(
            interaction,
            self.services.standing.set,
            standing_set_text,
            topic,
            choice,
            condition or "",
            unit,
            side,
        )
        # a question it covers may be open
        report = await self.services.standing.answer_open(place_of(interaction))
        if report is not None:
            await post_report(self.bot, report)

    @standing_command(
        "clear",
        "Take back standing instructions",
        topic="Only those about this kind of question",
        unit="Only those for this unit",
        side="Only those of this side (a GM may clear anyone's)",
    )
    async def clear(
        self,
        interaction: discord.Interaction,
        topic: Ref | None = None,
        unit: Ref | None = None,
        side: Ref | None = None,
    ) -> None:
        """Clear standing instructions."""
        await reply_privately(
            interaction, self.services.standing.clear, standing_cleared_text, topic, unit, side
        )


async def setup(bot: AideBot) -> None:
    """Load /standing."""
    await bot.add_cog(StandingCog(bot))
