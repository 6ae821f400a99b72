"""The words of play posted to the campaign channel: step results with the map, calls to arms,
questions and private lines (``bot.delivery`` posts them)."""

from __future__ import annotations

import hashlib
import io
from collections import Counter

import discord

from bot.presentation.formatting import mentions, plain, timestamp
from bot.presentation.questions import private_note, private_question_text, question_text
from bot.rendering.render import MapOptions, render_map_async
from bot.services.endings import ArmyLosses, EndReport
from bot.services.plans import CallToArms
from bot.services.stages import DecisionView, StageReport
from rules_core import secrets
from rules_core.render import Renderer

SUMMARY_LINES = 12


READY_IN_RESERVE = "The armies wait in reserve: the set-up steps place the terrain and the units."
ADJUSTING = (
    "Every unit is already on the table: this step is only for moving one of yours within "
    "your deployment zone (`/order place`). Nothing to change? `/order done`, and the battle "
    "goes on as soon as every side has."
)


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
        if battle.adjusting:
            embed.add_field(name="Why this step", value=ADJUSTING, inline=False)
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
    options = MapOptions(lost=report.lost, gone=report.gone, after=report.title)
    public = secrets.Viewer.public()  # the channel sees the public view
    shown = secrets.view(report.battle.state, public)
    png = await render_map_async(shown, secrets.visible_events(report.events, public), options)
    return discord.File(io.BytesIO(png), filename="map.png")


def post_nonce(report: StageReport, part: str) -> str:
    """The same for every attempt to post one part of one result (``result``, ``q0``, ``q1``…):
    Discord keeps one message per nonce, so a post accepted just before a crash, and posted
    again by the outbox after the restart, shows once."""
    what = "\n".join(
        (str(report.battle.id), str(report.stage), report.title, report.trigger, *report.lines)
    )
    return f"{part}.{hashlib.sha256(what.encode()).hexdigest()}"[:25]


def call_to_arms_embed(call: CallToArms) -> discord.Embed:
    """One player's call to arms: every step of the turn they may plan now, with the
    deadline; one message for the whole turn."""
    steps = "\n".join(f"• {plain(step)}" for step in call.steps)
    groups = ", ".join(f"**{plain(name)}**" for name in call.part)
    yours = f"You command {groups} of **{plain(call.side_name)}**. " if call.part else ""
    opens = (
        f"Your part of the turn opens; orders are due {timestamp(call.deadline_at)}. "
        if not call.later
        else "Your part of this turn comes after the others' steps now open. Plan it now and "
        "the battle will not stop for you when it comes; orders you leave out are asked then. "
    )
    text = (
        f"{yours}{opens}You can plan all of it now:\n{steps}\n"
        "Give each order with its `step` option (`ask_me:true` to be asked if it cannot be "
        "carried out), then `/order done turn:true`; `/orders mine` lists your plan. To plan "
        "the next turn too, pick its steps (`Next turn: …`), then `/order done next_turn:true`."
    )
    if call.stands:
        text = (
            f"{yours}Your plan for this turn, made last turn, stands: its steps resolve "
            f"without waiting for you. To change it before a step resolves, give or withdraw "
            f"orders with that `step` (`/orders mine` lists your plan):\n{steps}"
        )
    if call.recommend:
        text += (
            "\n\nNew to these rules? **Accept the recommended instructions** (below, or "
            "`/standing recommended`) answers for your side, at once, the questions an "
            "experienced player answers the same way every time."
        )
    title = f"📯 Call to arms: {call.side_name}"
    return discord.Embed(title=title[:256], description=text[:4000], colour=discord.Colour.red())


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


def private_step_text(battle_name: str, title: str, lines: list[str]) -> str:
    """A step's private lines as their side reads them in a direct message."""
    shown = "\n".join(lines)
    return f"🔒 **{battle_name}** — {title} (only your side sees this):\n{shown}"
