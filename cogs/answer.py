"""/answer: answer the channel's waiting question by typing (an option, a unit, a point, ...)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import AideBot
from bot.presentation.announce import post_report
from bot.presentation.gm import answered_text
from bot.presentation.replies import labelled_choices, place_of


@app_commands.guild_only()
class AnswerCog(commands.Cog):
    """The typed way to answer a question; buttons and menus are the other."""

    def __init__(self, bot: AideBot) -> None:
        self.bot = bot
        self.play = bot.services.play
        self.lookups = bot.services.lookups

    @app_commands.command(name="answer", description="Answer the waiting question")
    @app_commands.describe(
        answer="An option (offered as you type), or a point x,y, a number or a facing",
        reason="For a GM answering for a side: why (kept on the record)",
        question="Which question, when several are open",
    )
    async def answer(
        self,
        interaction: discord.Interaction,
        answer: app_commands.Range[str, 1, 100],
        reason: app_commands.Range[str, 1, 200] | None = None,
        question: str | None = None,
    ) -> None:
        """Answer, then post what follows."""
        user, why, place = interaction.user.id, reason or "", place_of(interaction)
        # Answered before replying, as a button is: a refused answer is told privately.
        report = await self.play.answer_here(place, user, answer, why, question)
        await interaction.response.send_message(answered_text(user, answer, why))
        if report is not None:  # None: other questions of the step are still open
            await post_report(self.bot, report)

    @answer.autocomplete("answer")
    async def answer_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """Offer the question's options that match what is typed (any number of them)."""
        options = await self.lookups.pending_options(place_of(interaction))
        return labelled_choices(options, current)

    @answer.autocomplete("question")
    async def question_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """Offer the questions open now."""
        questions = await self.lookups.open_questions(place_of(interaction))
        return labelled_choices(questions, current)


async def setup(bot: AideBot) -> None:
    """Load /answer."""
    await bot.add_cog(AnswerCog(bot))
