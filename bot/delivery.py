"""Delivering play to Discord: step results with the map, questions, reminders, through the
outbox (each result posted once, again after a restart or a Discord failure).

Above the presentation package, which words every post, and below the client, which it
reaches only through ``Poster``: what posting needs of the bot.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Collection
from typing import Any, Protocol

import discord

from bot.presentation.announce import (
    SUMMARY_LINES,
    call_to_arms_embed,
    channel_text,
    dm_text,
    end_embed,
    map_file,
    post_nonce,
    private_lines,
    private_step_text,
    record_file,
    report_embed,
)
from bot.presentation.formatting import mentions, only_pinging, plain, timestamp
from bot.presentation.general import ai_orders_text
from bot.presentation.questions import Click, decision_view, is_open_private_note
from bot.presentation.replies import place_of, report_error
from bot.presentation.standing import accepted_text, recommend_view
from bot.services import Services
from bot.services.ai_seat import is_ai
from bot.services.endings import EndReport
from bot.services.play import Reminder
from bot.services.stages import DecisionView, StageReport

log = logging.getLogger(__name__)
AI_MOST_STEPS = 400  # steps the AI plays in one go at most (AI against AI ends long before)


class News(Protocol):
    """Where open war-table pages hear that a battle changed (``bot.web.live.Hub``)."""

    def publish(self, battle_id: int) -> None:
        """Tell the pages open on this battle that it changed."""


class Poster(Protocol):
    """What delivering posts needs of the bot (``bot.client.AideBot`` is one)."""

    services: Services
    outbox_lock: asyncio.Lock
    open_questions: dict[int, list[discord.Message]]  # battle id → its open question posts
    questions_known: set[int]  # battles whose open question posts this process knows

    @property
    def web_hub(self) -> News:
        """The war table's hub, told of each change after its commit."""

    @property
    def user(self) -> discord.ClientUser | None:
        """The bot's own user, once logged in."""

    def get_partial_messageable(self, id: int) -> discord.PartialMessageable:
        """A channel to send to by its id."""

    def get_user(self, id: int, /) -> discord.User | None:
        """A user from the cache."""

    async def fetch_user(self, user_id: int, /) -> discord.User:
        """A user from Discord."""


async def post_report(bot: Poster, report: StageReport) -> None:
    """Post a resolved step (and any earlier result still unposted) through the outbox;
    then the steps the AI general plays at once for the sides it holds (#36)."""
    bot.web_hub.publish(report.battle.id)  # committed: pages need not wait for Discord
    await flush_outbox(bot, report)
    await _post_ai_reasons(bot, report)
    await ai_plays(bot, report.battle.id)


async def ai_plays(bot: Poster, battle_id: int) -> None:
    """The steps the AI general plays at once for the sides it holds, each posted (#36)."""
    for _ in range(AI_MOST_STEPS):
        following = await bot.services.general.next_step(battle_id)
        if following is None:
            return
        bot.web_hub.publish(following.battle.id)
        await flush_outbox(bot, following)
        await _post_ai_reasons(bot, following)


async def _post_ai_reasons(bot: Poster, report: StageReport) -> None:
    """The AI's orders of the step the report resolved, with their reasons, for everyone."""
    if report.trigger == "start" or report.battle.state.pending is not None:
        return  # stopped at a question: the step's orders stay sealed until it resolves
    explained = await bot.services.general.explained(report.battle.id, report.stage - 1)
    if explained:
        channel = bot.get_partial_messageable(report.battle.channel_id)
        await channel.send(ai_orders_text(explained))


async def flush_outbox(bot: Poster, fresh: StageReport | None = None) -> int:
    """Post every result not yet marked posted, oldest first, marking each once it is out;
    stop at the first Discord failure (the next flush retries). How many were posted."""
    posted = 0
    async with bot.outbox_lock:
        for battle_id, stage in await bot.services.outbox.pending():
            known = fresh is not None and (fresh.battle.id, fresh.stage) == (battle_id, stage)
            report = fresh if known else await bot.services.outbox.rebuild(battle_id, stage)
            if report is not None:
                try:
                    await _post_report(bot, report)
                except discord.HTTPException:
                    log.warning(
                        "stage %s of battle %s unposted; retried later",
                        stage,
                        battle_id,
                        exc_info=True,
                    )
                    return posted
            await bot.services.outbox.mark_posted(battle_id, stage)
            posted += 1
        for battle_id in await bot.services.outbox.pending_ends():
            rebuilt = await bot.services.outbox.end_report(battle_id)
            if rebuilt is not None:
                try:
                    await _post_end(bot, battle_id, *rebuilt)
                except discord.HTTPException:
                    log.warning(
                        "end of battle %s unposted; retried later", battle_id, exc_info=True
                    )
                    return posted
            await bot.services.outbox.mark_end_posted(battle_id)
            posted += 1
    return posted


async def post_ended(bot: Poster, battle_id: int, channel_id: int, ended: EndReport) -> None:
    """Post a battle's end (a GM ended it) through the outbox: once, and again after a
    restart or a Discord failure if it did not go out."""
    bot.web_hub.publish(battle_id)
    async with bot.outbox_lock:
        try:
            await _post_end(bot, battle_id, channel_id, ended)
        except discord.HTTPException:
            log.warning("end of battle %s unposted; retried later", battle_id, exc_info=True)
            return
        await bot.services.outbox.mark_end_posted(battle_id)


async def _post_end(bot: Poster, battle_id: int, channel_id: int, ended: EndReport) -> None:
    """The end embed with the record, to the campaign channel."""
    channel = bot.get_partial_messageable(channel_id)
    await channel.send(embed=end_embed(ended), file=record_file(ended), nonce=f"end.{battle_id}")


async def _post_report(bot: Poster, report: StageReport) -> None:
    """Post one resolved step to the campaign channel: summary, full log, map, question."""
    # Its own questions stay open: posted before a restart, they are this post's again.
    battle, questions = report.battle, report.questions
    asking = {channel_text(report, decision) for decision in questions}
    asking |= {dm_text(report, decision) for decision in questions if decision.private}
    players = {side.owner_id for side in battle.sides}
    await close_question(
        bot, battle.id, f"closed: {report.trigger}", battle.channel_id, asking, players
    )
    channel = bot.get_partial_messageable(report.battle.channel_id)
    files = []
    try:
        files.append(await map_file(report))
    except Exception:  # a result without its map is better than no result
        log.warning("posting battle %s without its map", report.battle.id, exc_info=True)
    if len(report.lines) > SUMMARY_LINES:
        files.append(discord.File(io.BytesIO("\n".join(report.lines).encode()), "log.txt"))
    embeds = [report_embed(report)]
    if report.ended is not None:
        embeds.append(end_embed(report.ended))
        files.append(record_file(report.ended))
    await channel.send(embeds=embeds, files=files, nonce=post_nonce(report, "result"))
    await send_private_lines(bot, report)
    if report.ended is None:
        await post_calls(channel, report)
        await send_calls(bot, report)
        await post_questions(bot, channel, report)


async def post_calls(channel: Any, report: StageReport) -> None:
    """Post one call to arms for each player whose part of the turn has just opened."""
    for number, call in enumerate(report.calls):
        # The offer of the recommended instructions: a button that lives on after a restart.
        offer = {"view": recommend_view(report.battle.id, call.side_id)} if call.recommend else {}
        await channel.send(
            mentions((call.user_id,)),
            embed=call_to_arms_embed(call),
            allowed_mentions=only_pinging((call.user_id,)),
            nonce=post_nonce(report, f"c{number}"),  # once, if the outbox posts it again
            **offer,
        )


async def send_calls(bot: Poster, report: StageReport) -> None:
    """The call to arms again by direct message, to each player who asked for it
    (``/campaign dm``); one who takes no direct messages still has the channel's."""
    for number, call in enumerate(report.calls):
        if not call.by_dm:
            continue
        nonce = post_nonce(report, f"dc{number}")
        embed = call_to_arms_embed(call)
        # The same accept button as the channel's call: it finds the battle by its id.
        offer = {"view": recommend_view(report.battle.id, call.side_id)} if call.recommend else {}
        await direct_message(
            bot, call.user_id, "their call to arms", embed=embed, nonce=nonce, **offer
        )


async def direct_message(bot: Poster, user_id: int, what: str, **message: Any) -> Any | None:
    """Send a member a direct message; None if they take none (Discord's Forbidden) or it
    failed: what it carried is also in the channel, ``/answer`` or ``/battle log``."""
    if is_ai(user_id):  # the AI general reads no messages (#36)
        return None
    try:
        user = bot.get_user(user_id) or await bot.fetch_user(user_id)
        return await user.send(**message)
    except discord.Forbidden:
        log.info("user %s takes no direct messages: %s not sent", user_id, what)
    except discord.HTTPException:
        log.warning("could not send user %s %s", user_id, what, exc_info=True)
    return None


async def post_questions(bot: Poster, channel: Any, report: StageReport) -> None:
    """Post each open question with its buttons or menus; remember them to close later."""
    posted = []
    named = len(report.questions) > 1
    for number, decision in enumerate(report.questions):
        pings = only_pinging(decision.user_ids)
        nonce = post_nonce(report, f"q{number}")
        text = channel_text(report, decision)
        if decision.private:  # the channel learns only that it waits; its player, privately
            posted.append(await channel.send(text, allowed_mentions=pings, nonce=nonce))
            posted += await send_private_question(bot, report, decision, named, number)
            continue
        view = decision_view(decision, named=named)
        sent = await (
            channel.send(text, view=view, allowed_mentions=pings, nonce=nonce)
            if view
            else channel.send(text, allowed_mentions=pings, nonce=nonce)
        )
        posted.append(sent)
    bot.open_questions[report.battle.id] = posted
    bot.questions_known.add(report.battle.id)


async def send_private_lines(bot: Poster, report: StageReport) -> None:
    """Each side's player gets, in a direct message, what only their side sees of the step;
    a member who takes no direct messages reads it in their ``/battle log``."""
    for side in report.battle.sides:
        own = private_lines(report, side.side_id)
        if not own:
            continue
        text = private_step_text(plain(report.battle.name), report.title, own)
        nonce = post_nonce(report, "dl")
        await direct_message(
            bot, side.owner_id, "their private lines", content=text[:2000], nonce=nonce
        )


async def send_private_question(
    bot: Poster, report: StageReport, decision: DecisionView, named: bool, number: int = 0
) -> list[Any]:
    """The private question with its buttons in a direct message to each of its players; a
    member who does not accept direct messages is skipped (the channel note and ``/answer``
    remain). The messages sent, to close with the channel's."""
    text = dm_text(report, decision)
    sent = []
    for user_id in decision.user_ids:
        view = decision_view(decision, named=named)
        nonce = post_nonce(report, f"dq{number}")  # once, if the outbox posts it again
        buttons = {"view": view} if view else {}
        message = await direct_message(
            bot, user_id, "their private question", content=text, nonce=nonce, **buttons
        )
        if message is not None:
            sent.append(message)
    return sent


QUESTION_LOOKBACK = 50  # channel messages searched for questions an earlier process posted


async def questions_left_open(
    bot: Poster, battle_id: int, channel_id: int, user_ids: Collection[int] = ()
) -> list[Any]:
    """This battle's question posts that still show buttons, and private questions' notes
    not yet closed, among the channel's latest messages, and its private questions still
    showing buttons among the latest direct messages to ``user_ids``: those an earlier
    process posted before a restart (it kept them in memory)."""
    prefix = f"decide:{battle_id}:"
    found = []
    for channel in await _question_channels(bot, channel_id, user_ids):
        try:
            async for message in channel.history(limit=QUESTION_LOOKBACK):
                if bot.user is None or message.author.id != bot.user.id:
                    continue
                ids = [
                    getattr(child, "custom_id", None) or ""
                    for row in message.components
                    for child in getattr(row, "children", [row])
                ]
                if any(i.startswith(prefix) for i in ids) or is_open_private_note(message.content):
                    found.append(message)
        except discord.HTTPException:
            log.info("could not look for open questions of battle %s", battle_id)
    return found


async def _question_channels(bot: Poster, channel_id: int, user_ids: Collection[int]) -> list[Any]:
    """The battle's channel and the direct message channels of these users."""
    channels: list[Any] = [bot.get_partial_messageable(channel_id)]
    for user_id in (u for u in user_ids if not is_ai(u)):
        try:
            user = bot.get_user(user_id) or await bot.fetch_user(user_id)
            channels.append(user.dm_channel or await user.create_dm())
        except discord.HTTPException:
            log.info("could not open the direct messages of user %s", user_id)
    return channels


async def close_question(
    bot: Poster,
    battle_id: int,
    why: str,
    channel_id: int | None = None,
    asking: Collection[str] = (),
    players: Collection[int] = (),
) -> None:
    """Take the buttons off a battle's open questions once something else has answered them
    (those posted before a restart too, found in the channel and the ``players``' direct
    messages, except those still ``asking``: the texts of the questions open now)."""
    open_now = bot.open_questions.pop(battle_id, [])
    if battle_id not in bot.questions_known and channel_id is not None:
        bot.questions_known.add(battle_id)
        known = {m.id for m in open_now}
        open_now += [
            m
            for m in await questions_left_open(bot, battle_id, channel_id, players)
            if m.id not in known and m.content not in asking
        ]
    for message in open_now:
        try:
            await message.edit(content=f"{message.content}\n({why})", view=None)
        except discord.HTTPException:
            log.info("could not close question %s of battle %s", message.id, battle_id)


async def post_reminder(bot: Poster, reminder: Reminder) -> None:
    """Ping only those who have not yet given orders."""
    channel = bot.get_partial_messageable(reminder.channel_id)
    name, title = plain(reminder.battle_name), plain(reminder.title)
    if reminder.late is not None:
        await channel.send(
            f"⌛ {mentions(reminder.user_ids)}: the deadline for **{name}** "
            f"({title}) has passed; still waiting for {mentions(reminder.late)}. "
            "This campaign leaves it to a GM: `/gm force` or `/gm extend`.",
            allowed_mentions=only_pinging(reminder.user_ids),
        )
        return
    missing = "".join(
        f"\n{mentions((user,))}, still missing: {'; '.join(plain(step) for step in steps)}."
        for user, steps in reminder.missing
        if len(steps) > 1
    )
    await channel.send(
        f"⏰ {mentions(reminder.user_ids)}: orders for **{name}** "
        f"({title}) are due {timestamp(reminder.deadline_at)}. "
        f"Use `/order …`, then `/order done`.{missing}",
        allowed_mentions=only_pinging(reminder.user_ids),
    )


async def announce(bot: Poster, outcome: StageReport | Reminder | None) -> None:
    """Post whatever a deadline produced."""
    if isinstance(outcome, StageReport):
        await post_report(bot, outcome)
    elif isinstance(outcome, Reminder):
        await post_reminder(bot, outcome)


async def answer_click(bot: Poster, interaction: discord.Interaction, click: Click) -> None:
    """Answer from a click or a pick, close that question and post what follows (once every
    open question is answered)."""
    message_id = interaction.message.id if interaction.message else None
    battle_id = click.battle_id
    left = [m for m in bot.open_questions.get(battle_id, []) if m.id != message_id]
    bot.open_questions[battle_id] = left  # a click on a question closes it (as it always has)
    play = bot.services.play
    try:
        report = await play.answer(
            battle_id, click.stage, interaction.user.id, click.decision, click.choice
        )
    except Exception as error:
        await report_error(interaction, error)
        return
    bot.web_hub.publish(battle_id)  # the answer is in (the step it ends publishes again)
    await interaction.response.edit_message(
        content=f"Answered by {interaction.user.mention}: **{click.shown}**", view=None
    )
    if report is not None:
        await post_report(bot, report)


async def accept_recommended(
    bot: Poster, interaction: discord.Interaction, battle_id: int, side_id: str
) -> None:
    """The call to arms' button: set the recommended instructions for the player's side, say
    so privately, and carry the battle on through a question they answer, if one is open."""
    standing = bot.services.standing
    try:
        place = (  # the call to arms may have come by direct message
            place_of(interaction)
            if interaction.guild_id is not None
            else await standing.place_of_battle(battle_id, interaction.user.id)
        )
        views = await standing.accept_recommended(place, interaction.user.id, side_id, battle_id)
    except Exception as error:
        await report_error(interaction, error)
        return
    bot.web_hub.publish(battle_id)
    await interaction.response.send_message(accepted_text(views), ephemeral=True)
    report = await standing.answer_open(place)
    if report is not None:
        await post_report(bot, report)
