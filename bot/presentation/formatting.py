"""Embeds and lines the cogs send: plain data in, Discord objects out."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import discord

from bot.db.models import CampaignStatus
from bot.services.ai_seat import AI_NAME, AI_TITLE, is_ai
from bot.services.armies import ArmyInfo
from bot.services.battle_state import BattleView, SideView
from bot.services.campaigns import CampaignInfo
from rules_core.dice import Roll
from rules_core.registry import Ruleset, all_rulesets
from rules_core.render import absent_units

STATUS_COLOURS = {
    CampaignStatus.LOBBY: discord.Colour.blurple(),
    CampaignStatus.ACTIVE: discord.Colour.green(),
    CampaignStatus.PAUSED: discord.Colour.orange(),
    CampaignStatus.FINISHED: discord.Colour.dark_grey(),
}
NO_ONE = "—"  # a card's empty field: a dash, where a sentence says "nobody"
UNIT_DETAIL_KEYS = ("type", "grade", "quality", "size", "stands", "status")


def timestamp(when: Any, style: str = "R") -> str:
    """A Discord timestamp that each reader sees in their own time zone."""
    return "no deadline" if when is None else f"<t:{int(when.timestamp())}:{style}>"


def mentions(user_ids: Iterable[int], nobody: str = "nobody") -> str:
    """Mentions of users joined by commas, or ``nobody`` when there are none."""
    return ", ".join(AI_NAME if is_ai(u) else f"<@{u}>" for u in user_ids) or nobody


def plain(name: str) -> str:
    """A name typed by a user, shown as typed: its markdown and mentions made inert."""
    return discord.utils.escape_mentions(discord.utils.escape_markdown(name))


def only_pinging(user_ids: Any) -> discord.AllowedMentions:
    """Mentions limited to the people a message means to ping."""
    users = [discord.Object(id=u) for u in user_ids]
    return discord.AllowedMentions(everyone=False, roles=False, users=users)


def ruleset_choice_name(ruleset: Ruleset) -> str:
    """A ruleset as /campaign create offers it, saying when it cannot fight battles yet."""
    return ruleset.name if ruleset.rules is not None else f"{ruleset.name} (no battles yet)"


def ruleset_words(ruleset_id: str, ruleset_name: str) -> str:
    """The ruleset line of a campaign card, with a warning when it cannot fight battles."""
    line = f"Ruleset: **{ruleset_name}** (`{ruleset_id}`)"
    found = next((r for r in all_rulesets(include_unlisted=True) if r.id == ruleset_id), None)
    if found is not None and found.rules is None:
        line += (
            "\nThis ruleset cannot fight battles yet: campaigns, armies and `/roll` work, "
            "`/battle create` does not."
        )
    return line


def campaign_embed(info: CampaignInfo, title: str | None = None) -> discord.Embed:
    """The campaign card: ruleset, status, GMs, sides, observers and armies."""
    embed = discord.Embed(
        title=title or info.name,
        description=ruleset_words(info.ruleset_id, info.ruleset_name),
        colour=STATUS_COLOURS[info.status],
    )
    embed.add_field(name="Status", value=info.status.value.capitalize())
    embed.add_field(name="Channel", value=f"<#{info.channel_id}>")
    embed.add_field(
        name="Visibility", value="Closed: members only" if info.closed else "Open: anyone may watch"
    )
    embed.add_field(name="GM", value=mentions(info.gms, NO_ONE), inline=False)
    for side, players in info.sides().items():
        embed.add_field(name=f"Side: {side}", value=mentions(players, NO_ONE))
    observers = [m.user_id for m in info.members if m.role.value == "observer"]
    if observers:
        embed.add_field(name="Observers", value=mentions(observers, NO_ONE), inline=False)
    armies = ", ".join(info.army_names) or "none yet — players use `/army import`"
    embed.add_field(name="Armies", value=armies[:1024], inline=False)
    return embed


def campaign_line(info: CampaignInfo) -> str:
    """One line of `/campaign list`."""
    return (
        f"**{info.name}** — {info.ruleset_name}, {info.status.value}"
        f"{', closed' if info.closed else ''}, in <#{info.channel_id}> "
        f"({len(info.members)} member{'s' if len(info.members) != 1 else ''})"
    )


def unit_line(index: int, unit: dict[str, Any]) -> str:
    """One unit of an army list with the details the sheet grades it by."""
    details = [f"{k} {unit[k]}" for k in UNIT_DETAIL_KEYS if unit.get(k) not in (None, "")]
    suffix = f" — {', '.join(details)}" if details else ""
    return f"{index}. {unit.get('name', '?')}{suffix}"


def army_embed(info: ArmyInfo) -> discord.Embed:
    """An army list: owner and one line per unit."""
    lines = [unit_line(i, u) for i, u in enumerate(info.units, start=1)]
    text = "\n".join(lines)
    if len(text) > 4000:
        text = text[:3990].rsplit("\n", 1)[0] + "\n…"
    embed = discord.Embed(title=info.name, description=text, colour=discord.Colour.dark_gold())
    embed.add_field(name="Owner", value=f"<@{info.owner_id}>")
    embed.add_field(name="Units", value=str(len(info.units)))
    embed.set_footer(text=f"Campaign: {info.campaign_name}")
    return embed


def roll_text(roll: Roll) -> str:
    """A roll as one line with every die shown."""
    return f"🎲 {roll.describe()}"


def side_text(view: BattleView, side: SideView) -> str:
    """A side on the battle card: its player and army, then its declared side-level state."""
    lines = [
        f"{AI_TITLE if is_ai(side.owner_id) else f'<@{side.owner_id}>'} — {side.army_name}",
        *view.side_state.get(side.side_id, ()),
        *(discord.utils.escape_markdown(line) for line in absent_units(view.state, side.side_id)),
    ]
    return "\n".join(lines)[:1024]


def battle_embed(view: BattleView) -> discord.Embed:
    """The battle card: status, sides, where play stands, who must act, the deadline."""
    embed = discord.Embed(
        title=f"{view.name} ({view.status.value})",
        description=f"Campaign **{view.campaign_name}**, `{view.ruleset_id}`",
        colour=discord.Colour.dark_red(),
    )
    for side in view.sides:
        embed.add_field(name=side.name, value=side_text(view, side))
    field = view.state.battlefield
    embed.add_field(name="Table", value=f"{field.width:g} × {field.depth:g} {field.measure}")
    embed.add_field(name="Now", value=view.waiting_step, inline=False)
    if view.waiting_for:
        embed.add_field(name="Waiting for", value=mentions(view.waiting_for, NO_ONE))
    if view.deadline_at is not None:
        embed.add_field(name="Deadline", value=f"<t:{int(view.deadline_at.timestamp())}:R>")
    units = len(view.state.units_on_table)
    embed.set_footer(
        text=f"{units} units on the table · dice seed SHA-256 {view.seed_sha256[:16]}…"
    )
    return embed


def roll_reply(user_id: int, roll: Roll) -> str:
    """The public answer to ``/roll``: who rolled, then every die."""
    return f"<@{user_id}> {roll_text(roll)}"


def army_imported_text(user_id: int, info: ArmyInfo) -> str:
    """The public note that a player imported or replaced an army."""
    verb = "updated" if info.replaced else "imported"
    return f"<@{user_id}> {verb} **{info.name}** ({len(info.units)} units)."


def army_list_text(infos: list[ArmyInfo]) -> str:
    """The campaign's armies, one a line with owner and size."""
    lines = [f"**{i.name}** — <@{i.owner_id}>, {len(i.units)} units" for i in infos]
    return ("\n".join(lines) or "No armies yet: players use `/army import`.")[:2000]


def army_remove_question(info: ArmyInfo) -> str:
    """The question asked before deleting an army."""
    return f"Delete the army **{info.name}** of <@{info.owner_id}>?"


def army_removed_texts(user_id: int, info: ArmyInfo) -> tuple[str, str]:
    """The private and the public answer once an army is deleted."""
    return f"Removed **{info.name}**.", f"<@{user_id}> removed **{info.name}**."
