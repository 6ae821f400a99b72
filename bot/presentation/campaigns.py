"""How campaign commands read: joins, GMs, deadline policy, the ruleset's parameter sheet."""

from __future__ import annotations

import json

from bot.services.campaigns import Removal
from bot.services.parameters import ParameterRow, ParameterSheet
from bot.services.settings import DeadlinePolicy
from rules_core.codec import Json

LONG_VALUE = 60  # longer values (tables) are summarised in the list and shown in full alone
MESSAGE_LIMIT = 1900


def value_text(value: Json, *, full: bool = True) -> str:
    """A parameter's value as code; a long table is summarised unless shown in full."""
    shown = json.dumps(value, ensure_ascii=False)
    if full or len(shown) <= LONG_VALUE:
        return f"`{shown}`"
    if isinstance(value, list):
        return f"a table of {len(value)} rows"
    return f"a value of {len(shown)} characters"


def row_text(row: ParameterRow, *, full: bool = False) -> str:
    """One parameter: its value here, the ruleset's value when changed, what it is, its source."""
    value = value_text(row.value, full=full)
    if row.overridden:
        value += f" (ruleset: {value_text(row.default, full=full)})"
    source = f" · source: {row.source}" if row.source else ""
    return f"• **{row.name}** = {value} — {row.description}{source}"


def sheet_pages(sheet: ParameterSheet, *, full: bool) -> list[str]:
    """The parameter sheet as messages short enough for Discord."""
    head = (
        f"**{sheet.ruleset_name}** parameters for **{sheet.campaign_name}** "
        "(a change applies to battles created after it):"
    )
    if not sheet.rows:
        return [f"{head}\nThis ruleset has no parameters yet."]
    pages = [head]
    for row in sheet.rows:
        line = row_text(row, full=full)[:MESSAGE_LIMIT]
        if len(pages[-1]) + len(line) + 1 > MESSAGE_LIMIT:
            pages.append(line)
        else:
            pages[-1] += "\n" + line
    pages[-1] += "\nGMs: `/campaign rules set`, `/campaign rules reset`."
    return pages


def policy_text(policy: DeadlinePolicy) -> str:
    """The deadline policy in one line."""
    reminders = ", ".join(f"{hours:g}" for hours in policy.reminder_hours) or "none"
    missing = "a GM decides" if policy.missing == "gm" else "the ruleset's defaults"
    return (
        f"steps {policy.step_hours:g} h, questions {policy.decision_hours:g} h, "
        f"reminders {reminders} h before, missing orders: {missing}"
    )


def watching_text(user_id: int, campaign: str) -> str:
    """Someone watches an open campaign as an observer."""
    return f"<@{user_id}> is watching **{campaign}** as an observer."


def dm_calls_text(campaign: str, on: bool) -> str:
    """A member turned calls to arms by direct message on or off."""
    if on:
        return (
            f"Your calls to arms in **{campaign}** will also come by direct message "
            "(if your privacy settings let this server's members message you)."
        )
    return f"Your calls to arms in **{campaign}** come only in the campaign's channel."


def joined_text(user_id: int, campaign: str, side: str | None) -> str:
    """A member joined, on a side or as an observer."""
    role = f"on side **{side}**" if side else "as an observer"
    return f"<@{user_id}> joined **{campaign}** {role}."


def visibility_text(user_id: int, campaign: str, closed: bool) -> str:
    """A GM opened or closed the campaign: what it means for who sees it."""
    if closed:
        return (
            f"<@{user_id}> closed **{campaign}**: only its GMs, players and the observers a GM "
            "admits (`/campaign admit`) see anything of it now; anyone else asking is refused. "
            "Posts in this channel are still read by whoever Discord lets read the channel: "
            "keep a closed campaign in a private channel."
        )
    return (
        f"<@{user_id}> opened **{campaign}**: anyone in the server may watch it now "
        "(`/campaign watch`) and read its status, map, log and record as observers do."
    )


def admitted_text(member_id: int, by_id: int, campaign: str) -> str:
    """A GM admitted someone as an observer."""
    return (
        f"<@{member_id}> is admitted to **{campaign}** as an observer (by <@{by_id}>); "
        "to play a side: `/campaign join side:<side>`."
    )


def left_text(user_id: int, campaign: str) -> str:
    """A member left."""
    return f"<@{user_id}> left **{campaign}**."


def gm_added_text(member_id: int, by_id: int, campaign: str) -> str:
    """A member became a GM."""
    return f"<@{member_id}> is now a GM of **{campaign}** (added by <@{by_id}>)."


def gm_removed_text(member_id: int, by_id: int, campaign: str) -> str:
    """A member stopped being a GM."""
    return f"<@{member_id}> is no longer a GM of **{campaign}** (removed by <@{by_id}>)."


def deadlines_text(user_id: int, policy: DeadlinePolicy) -> str:
    """The deadline policy changed."""
    return (
        f"Deadline policy updated by <@{user_id}> ({policy_text(policy)}); "
        "it applies from the next step."
    )


def rule_set_text(user_id: int, row: ParameterRow) -> str:
    """A GM overrode a parameter (or set it back to the ruleset's value)."""
    value, default = value_text(row.value, full=False), value_text(row.default, full=False)
    what = f"{value} (ruleset: {default})" if row.overridden else f"the ruleset's {default}"
    return f"<@{user_id}> set **{row.name}** to {what}; battles created from now on use it."


def rule_reset_text(user_id: int, row: ParameterRow) -> str:
    """A GM took an override away."""
    return (
        f"<@{user_id}> reset **{row.name}** to the ruleset's "
        f"{value_text(row.default, full=False)}; battles created from now on use it."
    )


def close_question(campaign: str) -> str:
    """The confirmation asked before closing a campaign."""
    return (
        f"Close **{campaign}**? It is marked finished and no more orders are taken. "
        "This cannot be undone."
    )


def closed_texts(user_id: int, campaign: str) -> tuple[str, str]:
    """What the GM is told, and what the channel is told, once a campaign is closed."""
    return (
        f"Closed **{campaign}**.",
        f"🏁 **{campaign}** has been closed by <@{user_id}>. "
        "This channel is free for a new campaign.",
    )


def remove_member_question(member_id: int, campaign: str) -> str:
    """The confirmation asked before a GM removes a member."""
    return (
        f"Remove <@{member_id}> from **{campaign}**? Their armies, and any side of the open "
        "battle they own, pass to you (GM-run: you give its orders); groups they command go "
        "back to their side's owner. They can join again later."
    )


def member_removed_texts(removal: Removal) -> tuple[str, str]:
    """What the GM is told, and what the channel is told, once a member is removed."""
    parts = []
    if removal.battle_sides:
        parts.append(
            "GM-run from now on: "
            + ", ".join(f"**{s}**" for s in removal.battle_sides)
            + f" (orders by <@{removal.gm_id}>)"
        )
    if removal.armies:
        parts.append("armies now the GM's: " + ", ".join(f"**{a}**" for a in removal.armies))
    if removal.groups:
        parts.append(
            "back with their side's owner: " + ", ".join(f"**{g}**" for g in removal.groups)
        )
    tail = f" {'; '.join(parts)}." if parts else ""
    return (
        f"Removed <@{removal.user_id}> from **{removal.campaign_name}**.",
        f"<@{removal.user_id}> was removed from **{removal.campaign_name}** by "
        f"<@{removal.gm_id}>.{tail}",
    )
