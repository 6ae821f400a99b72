"""Posting play to the campaign channel: step results with the map, questions, reminders."""

from __future__ import annotations

import io
import logging
import re
from typing import TYPE_CHECKING, Any

import discord

from bot.rendering.render import MapOptions, render_map_async
from bot.services.endings import ArmyLosses, EndReport
from bot.services.play import Reminder
from bot.services.stages import DecisionView, StageReport

if TYPE_CHECKING:
    from bot.client import AideBot

log = logging.getLogger(__name__)
SUMMARY_LINES = 12
DECIDE_ID = re.compile(r"decide:(?P<battle>\d+):(?P<stage>\d+):(?P<option>[\w:.-]{1,60})")


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
        title, text = f"⚔️ {battle.name} begins", "\n".join(shown) or "The armies stand ready."
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
    png = await render_map_async(report.battle.state, report.events, options)
    return discord.File(io.BytesIO(png), filename="map.png")


class DecisionButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=DECIDE_ID.pattern):
    """One answer to a question; its custom id carries the battle, stage and option, so the
    button still works after the bot restarts."""

    def __init__(self, battle_id: int, stage: int, option: str, label: str = "") -> None:
        super().__init__(
            discord.ui.Button(
                label=(label or option)[:80],
                style=discord.ButtonStyle.primary,
                custom_id=f"decide:{battle_id}:{stage}:{option}",
            )
        )
        self.battle_id, self.stage, self.option = battle_id, stage, option

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button[Any], match: re.Match[str]
    ) -> DecisionButton:
        """Rebuild the button from a click."""
        return cls(int(match["battle"]), int(match["stage"]), match["option"], item.label or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        """Answer the question and post what follows."""
        from bot.presentation.replies import report_error

        bot: AideBot = interaction.client  # type: ignore[assignment]
        bot.open_questions.pop(self.battle_id, None)  # this click closes it
        try:
            report = await bot.services.play.answer(
                self.battle_id, self.stage, interaction.user.id, None, self.option
            )
        except Exception as error:
            await report_error(interaction, error)
            return
        await interaction.response.edit_message(
            content=f"Answered by {interaction.user.mention}: **{self.item.label}**", view=None
        )
        await post_report(bot, report)


def decision_view(decision: DecisionView) -> discord.ui.View:
    """Buttons, one per option, for a pending question."""
    view = discord.ui.View(timeout=None)
    for option, label in decision.options[:25]:
        view.add_item(DecisionButton(decision.battle_id, decision.stage, option, label))
    return view


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
    return posted


async def _post_report(bot: AideBot, report: StageReport) -> None:
    """Post one resolved step to the campaign channel: summary, full log, map, question."""
    await close_question(bot, report.battle.id, f"closed: {report.trigger}")
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
    await channel.send(embeds=embeds, files=files)
    decision = report.decision
    if decision is not None and report.ended is None:
        who = mentions(decision.user_ids)
        bot.open_questions[report.battle.id] = await channel.send(
            f"{who}: {plain(decision.question)} (default **{decision.default}** "
            f"{timestamp(decision.deadline_at)})",
            view=decision_view(decision),
            allowed_mentions=only_pinging(decision.user_ids),
        )


async def close_question(bot: AideBot, battle_id: int, why: str) -> None:
    """Take the buttons off a battle's last question once something else has answered it."""
    message = bot.open_questions.pop(battle_id, None)
    if message is None:
        return
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
    await channel.send(
        f"⏰ {mentions(reminder.user_ids)}: orders for **{name}** "
        f"({title}) are due {timestamp(reminder.deadline_at)}. "
        "Use `/order …`, then `/order done`.",
        allowed_mentions=only_pinging(reminder.user_ids),
    )


async def announce(bot: AideBot, outcome: StageReport | Reminder | None) -> None:
    """Post whatever a deadline produced."""
    if isinstance(outcome, StageReport):
        await post_report(bot, outcome)
    elif isinstance(outcome, Reminder):
        await post_reminder(bot, outcome)
