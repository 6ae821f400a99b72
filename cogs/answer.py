"""/answer: answer the channel's waiting question by typing (an option, a unit, a point, ...)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import AideBot, Served
from bot.delivery import post_report
from bot.presentation.choices import offer_labelled, pending_answers
from bot.presentation.gm import answered_text
from bot.presentation.questions import (
    open_questions_reply,
    private_answered_note,
    private_answered_text,
)
from bot.presentation.replies import place_of

# The questions open now.
open_questions = offer_labelled(lambda s, place, _: s.lookups.open_questions(place))


@app_commands.guild_only()
class AnswerCog(Served, commands.Cog):
    """The typed way to answer a question; buttons and menus are the other."""

    @app_commands.command(name="answer", description="Answer the waiting question")
    @app_commands.describe(
        answer="An option (offered as you type), a point x,y, a number or a facing; none: see it",
        reason="For a GM answering for a side: why (kept on the record)",
        question="Which question, when several are open",
    )
    @app_commands.autocomplete(answer=pending_answers, question=open_questions)
    async def answer(
        self,
        interaction: discord.Interaction,
        answer: app_commands.Range[str, 1, 100] | None = None,
        reason: app_commands.Range[str, 1, 200] | None = None,
        question: str | None = None,
    ) -> None:
        """Answer, then post what follows; with no answer, show the open questions privately
        (a private question's words and buttons only to its player)."""
        user, why, place = interaction.user.id, reason or "", place_of(interaction)
        # refuses another side's private one
        shown = await self.services.lookups.questions_for(place)
        if answer is None:
            text, view = open_questions_reply(shown)
            if view is None:
                await interaction.response.send_message(text, ephemeral=True)
            else:
                await interaction.response.send_message(text, view=view, ephemeral=True)
            return
        # Deferred before the work (an answer may resolve the step); a refused answer is
        # told privately all the same (the public "thinking…" is dropped for it).
        private = any(decision.private for decision, _ in shown)  # the answer is the side's own
        await interaction.response.defer(ephemeral=private)
        report = await self.services.play.answer_here(place, user, answer, why, question)
        if private:
            reply = private_answered_text(user, answer, why)
            await interaction.followup.send(reply, ephemeral=True)
            await interaction.followup.send(private_answered_note(user))
        else:
            await interaction.followup.send(answered_text(user, answer, why))
        if report is not None:  # None: other questions of the step are still open
            await post_report(self.bot, report)


async def setup(bot: AideBot) -> None:
    """Load /answer."""
    await bot.add_cog(AnswerCog(bot))
