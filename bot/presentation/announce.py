"""Posting play to the campaign channel: step results with the map, questions, reminders."""

from __future__ import annotations

import hashlib
import io
import logging
from collections import Counter
from collections.abc import Collection
from typing import TYPE_CHECKING, Any

import discord

from bot.presentation.questions import (
    decision_view,
    is_open_private_note,
    private_note,
    private_question_text,
    question_text,
)
from bot.rendering.render import MapOptions, render_map_async
from bot.services.endings import ArmyLosses, EndReport
from bot.services.plans import CallToArms
from bot.services.play import Reminder
from bot.services.stages import DecisionView, StageReport
from rules_core import secrets
from rules_core.render import Renderer

if TYPE_CHECKING:
    from bot.client import AideBot

log = logging.getLogger(__name__)
SUMMARY_LINES = 12


def timestamp(when: Any, style: str = "R") -> str:
    """A Discord timestamp that each reader sees in their own time zone."""
    return "no deadline" if when is None else f"<t:{int(when.timestamp())}:{style}>"


def mentions(user_ids: Any) -> str:
    """Mentions of users, or "nobody"."""
    return ", ".join(f"<@{u}>" for u in user_ids) or "nobody"


def plain(name: str) -> str:
    """A name typed by a user, shown as typed: its markdown and mentions made inert."""
    return discord.utils.escape_mentions(discord.utils.escape_markdown(name))


def only_pinging(user_ids: Any) -> discord.AllowedMentions:
    """Mentions limited to the people a message means to ping."""
    users = [discord.Object(id=u) for u in user_ids]
    return discord.AllowedMentions(everyone=False, roles=False, users=users)


READY_IN_RESERVE = "The armies wait in reserve: the set-up steps place the terrain and the units."


def report_embed(report: StageReport) -> discord.Embed:
    """The short summary of a resolved step and what happens next."""
    battle = report.battle
    shown = list(report.lines[:SUMMARY_LINES])
    if len(report.lines) > SUMMARY_LINES:
        shown.append(f"… {len(report.lines) - SUMMARY_LINES} more lines in the attached log")
    text = "\n".join(shown) or "Nothing happened."
    if report.missing:
        text = f"No orders from {', '.join(report.missing)}: defaults applied.\n" + text
    title = f"{battle.name} — {report.title}"
    if report.trigger == "start":
        reserve = bool(battle.state.units) and not battle.state.units_on_table
        ready = READY_IN_RESERVE if reserve else "The armies stand ready."
        title, text = f"⚔️ {battle.name} begins", "\n".join(shown) or ready
    embed = discord.Embed(
        title=title[:256],
        description=text[:4000],
        colour=discord.Colour.dark_green(),
    )
    embed.set_footer(text=f"Resolved: {report.trigger}")
    if report.ended is None:
        embed.add_field(name="Now", value=battle.waiting_step, inline=True)
        embed.add_field(name="Waiting for", value=mentions(battle.waiting_for), inline=True)
        embed.add_field(name="Deadline", value=timestamp(battle.deadline_at), inline=True)
    return embed


def end_embed(ended: EndReport) -> discord.Embed:
    """The end of a battle: result, losses and the revealed seed."""
    embed = discord.Embed(
        title=f"🏁 {ended.battle_name}: {ended.result}", colour=discord.Colour.gold()
    )
    losses = "\n".join(loss_line(loss) for loss in ended.losses)
    embed.add_field(name="Losses", value=losses[:1024] or "—", inline=False)
    embed.add_field(name="Seed (revealed)", value=f"`{ended.seed}`", inline=False)
    embed.set_footer(text="Check every roll: python -m rules_core.verify record.json")
    return embed


def loss_line(loss: ArmyLosses) -> str:
    """``Red Host lost Red Horse, Red Foot.``, or that it lost nothing."""
    return f"{loss.army} lost {', '.join(loss.lost) if loss.lost else 'nothing'}."


def record_file(ended: EndReport) -> discord.File:
    """The battle record as an attachment."""
    return discord.File(io.BytesIO(ended.record), filename="record.json")


async def map_file(report: StageReport) -> discord.File:
    """The map after the step, with the step's moves, shots and combats drawn."""
    options = MapOptions(lost=report.lost, after=report.title)
    public = secrets.Viewer.public()  # the channel sees the public view
    shown = secrets.view(report.battle.state, public)
    png = await render_map_async(shown, secrets.visible_events(report.events, public), options)
    return discord.File(io.BytesIO(png), filename="map.png")


def post_nonce(report: StageReport, part: str) -> str:
    """The same for every attempt to post one part of one result (``result``, ``q0``, ``q1``…):
    Discord keeps one message per nonce, so a post accepted just before a crash, and posted
    again by the outbox after the restart, shows once."""
    what = "\n".join((str(report.battle.id), str(report.stage), report.title, report.trigger,
                      *report.lines))  # fmt: skip
    return f"{part}.{hashlib.sha256(what.encode()).hexdigest()}"[:25]


async def post_report(bot: AideBot, report: StageReport) -> None:
    """Post a resolved step (and any earlier result still unposted) through the outbox."""
    await flush_outbox(bot, report)


async def flush_outbox(bot: AideBot, fresh: StageReport | None = None) -> int:
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
                    log.warning("stage %s of battle %s unposted; retried later", stage, battle_id,
                                exc_info=True)  # fmt: skip
                    return posted
            await bot.services.outbox.mark_posted(battle_id, stage)
            posted += 1
        for battle_id in await bot.services.outbox.pending_ends():
            rebuilt = await bot.services.outbox.end_report(battle_id)
            if rebuilt is not None:
                try:
                    await _post_end(bot, battle_id, *rebuilt)
                except discord.HTTPException:
                    log.warning("end of battle %s unposted; retried later", battle_id,
                                exc_info=True)  # fmt: skip
                    return posted
            await bot.services.outbox.mark_end_posted(battle_id)
            posted += 1
    return posted


async def post_ended(bot: AideBot, battle_id: int, channel_id: int, ended: EndReport) -> None:
    """Post a battle's end (a GM ended it) through the outbox: once, and again after a
    restart or a Discord failure if it did not go out."""
    async with bot.outbox_lock:
        try:
            await _post_end(bot, battle_id, channel_id, ended)
        except discord.HTTPException:
            log.warning("end of battle %s unposted; retried later", battle_id, exc_info=True)
            return
        await bot.services.outbox.mark_end_posted(battle_id)


async def _post_end(bot: AideBot, battle_id: int, channel_id: int, ended: EndReport) -> None:
    """The end embed with the record, to the campaign channel."""
    channel = bot.get_partial_messageable(channel_id)
    await channel.send(embed=end_embed(ended), file=record_file(ended), nonce=f"end.{battle_id}")


async def _post_report(bot: AideBot, report: StageReport) -> None:
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


def call_to_arms_embed(call: CallToArms) -> discord.Embed:
    """One player's call to arms: every step of the turn they may plan now, with the
    deadline; one message for the whole turn."""
    steps = "\n".join(f"• {plain(step)}" for step in call.steps)
    groups = ", ".join(f"**{plain(name)}**" for name in call.part)
    yours = f"You command {groups} of **{plain(call.side_name)}**. " if call.part else ""
    text = (
        f"{yours}Your part of the turn opens; orders are due {timestamp(call.deadline_at)}. "
        f"You can plan all of it now:\n{steps}\n"
        "Give each order with its `step` option (`ask_me:true` to be asked if it cannot be "
        "carried out), then `/order done turn:true`; `/orders mine` lists your plan."
    )
    title = f"📯 Call to arms: {call.side_name}"
    return discord.Embed(title=title[:256], description=text[:4000], colour=discord.Colour.red())


async def post_calls(channel: Any, report: StageReport) -> None:
    """Post one call to arms for each player whose part of the turn has just opened."""
    for number, call in enumerate(report.calls):
        await channel.send(
            mentions((call.user_id,)),
            embed=call_to_arms_embed(call),
            allowed_mentions=only_pinging((call.user_id,)),
            nonce=post_nonce(report, f"c{number}"),  # once, if the outbox posts it again
        )


async def send_calls(bot: AideBot, report: StageReport) -> None:
    """The call to arms again by direct message, to each player who asked for it
    (``/campaign dm``); one who takes no direct messages still has the channel's."""
    for number, call in enumerate(report.calls):
        if not call.by_dm:
            continue
        nonce = post_nonce(report, f"dc{number}")
        embed = call_to_arms_embed(call)
        await direct_message(bot, call.user_id, "their call to arms", embed=embed, nonce=nonce)


async def direct_message(bot: AideBot, user_id: int, what: str, **message: Any) -> Any | None:
    """Send a member a direct message; None if they take none (Discord's Forbidden) or it
    failed: what it carried is also in the channel, ``/answer`` or ``/battle log``."""
    try:
        user = bot.get_user(user_id) or await bot.fetch_user(user_id)
        return await user.send(**message)
    except discord.Forbidden:
        log.info("user %s takes no direct messages: %s not sent", user_id, what)
    except discord.HTTPException:
        log.warning("could not send user %s %s", user_id, what, exc_info=True)
    return None


def channel_text(report: StageReport, decision: DecisionView) -> str:
    """What the channel shows of an open question: the question, or a private one's note."""
    who = mentions(decision.user_ids)
    if decision.private:
        return private_note(who, plain(report.battle.side_name(decision.side)))
    return question_text(decision, who, timestamp(decision.deadline_at))


def dm_text(report: StageReport, decision: DecisionView) -> str:
    """A private question as its player reads it in a direct message."""
    return private_question_text(
        plain(report.battle.name), decision, timestamp(decision.deadline_at)
    )


async def post_questions(bot: AideBot, channel: Any, report: StageReport) -> None:
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


def private_lines(report: StageReport, side_id: str) -> list[str]:
    """The lines of a step only one side reads (its draws, its secrets), left out of the
    channel's summary: that side's view of the events less the public one."""
    state, lost = report.battle.state, {unit.id: unit.name for unit in report.lost}
    public_renderer = Renderer.for_state(state)
    renderer = Renderer.for_state(state, viewer=secrets.Viewer.of_side(side_id))
    for named in (public_renderer, renderer):  # units that left the table keep their names
        named.names.update(lost)
    seen = renderer.lines(report.events)
    public = Counter(public_renderer.lines(report.events))
    own = []
    for line in seen:
        if public[line] > 0:
            public[line] -= 1
        elif line:
            own.append(line)
    return own


async def send_private_lines(bot: AideBot, report: StageReport) -> None:
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


def private_step_text(battle_name: str, title: str, lines: list[str]) -> str:
    """A step's private lines as their side reads them in a direct message."""
    shown = "\n".join(lines)
    return f"🔒 **{battle_name}** — {title} (only your side sees this):\n{shown}"


async def send_private_question(
    bot: AideBot, report: StageReport, decision: DecisionView, named: bool, number: int = 0
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
    bot: AideBot, battle_id: int, channel_id: int, user_ids: Collection[int] = ()
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


async def _question_channels(bot: AideBot, channel_id: int, user_ids: Collection[int]) -> list[Any]:
    """The battle's channel and the direct message channels of these users."""
    channels: list[Any] = [bot.get_partial_messageable(channel_id)]
    for user_id in user_ids:
        try:
            user = bot.get_user(user_id) or await bot.fetch_user(user_id)
            channels.append(user.dm_channel or await user.create_dm())
        except discord.HTTPException:
            log.info("could not open the direct messages of user %s", user_id)
    return channels


async def close_question(
    bot: AideBot,
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


async def post_reminder(bot: AideBot, reminder: Reminder) -> None:
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


async def announce(bot: AideBot, outcome: StageReport | Reminder | None) -> None:
    """Post whatever a deadline produced."""
    if isinstance(outcome, StageReport):
        await post_report(bot, outcome)
    elif isinstance(outcome, Reminder):
        await post_reminder(bot, outcome)
