"""How set-up, the battle's start, its log and its record read."""

from __future__ import annotations

import io
import re

import discord
from discord import app_commands

from bot.presentation.replies import labelled_choices
from bot.services.battle_state import BattleView, SetUp
from bot.services.battles import Assignment, BattleSummary, HandOver, TerrainRoll
from bot.services.records import LoggedStep
from bot.services.stages import StageReport
from bot.services.unit_sheet import UnitSheet
from rules_core.state import TerrainFeature, Unit

# What readies a battle in set-up, by how its ruleset sets up; {commands} in braces.
SET_UP_STEPS = {
    SetUp.ROLLED: "GM: {battle terrain roll} (or {battle terrain add}), players: {battle deploy}, "
    "then {battle start}",
    SetUp.BY_HAND: "GM: {battle terrain add}, players: {battle deploy}, then {battle start}",
    SetUp.IN_RULES: "GM: {battle start}; the sides then place terrain and units by orders in "
    "the ruleset's set-up steps",
}
RECORD_CAPTION = "The battle record (the seed is included once the battle has ended):"
LOG_INLINE_LIMIT = 1900


def set_up_steps(way: SetUp, marked: bool = True) -> str:
    """What the GM and players do next to ready a battle set up ``way``: commands in code
    marks, or plain (``marked=False``) for an embed's footer, which shows no markdown."""
    return re.sub(r"\{([^}]*)\}", (r"`/\1`" if marked else r"/\1"), SET_UP_STEPS[way])


def next_steps(view: BattleView) -> str:
    """The footer of a new battle's card: what readies it, as its ruleset sets up."""
    return f"Next: {set_up_steps(view.set_up, marked=False)}"


def assigned_text(assignment: Assignment) -> str:
    """The answer to ``/battle assign``: who now commands the group, and who did before."""
    before = assignment.previous_id
    was = "" if before in (None, assignment.user_id) else f" (instead of <@{before}>)"
    return (
        f"<@{assignment.user_id}> now commands **{assignment.group_name}** of "
        f"**{assignment.side_name}**{was}: only they order it, and each step waits for them."
    )


def handed_over_text(handed: HandOver) -> str:
    """The public answer to ``/battle hand-over``: who plays the side now, and how to undo it."""
    groups = ", ".join(f"**{g}**" for g in handed.groups)
    also = f", with {groups}," if groups else ""
    who = "GM " if handed.to_gm else ""
    return (
        f"{who}<@{handed.user_id}> now plays **{handed.side_name}**{also} instead of "
        f"<@{handed.previous_id}>: each step and question of the side waits for them. "
        f"<@{handed.previous_id}> keeps their place in the campaign; a GM hands the side back "
        f"with `/battle hand-over side:{handed.side_name} member:@them`."
    )


def laid_text(feature: TerrainFeature) -> str:
    """The answer to laying terrain."""
    return f"Laid **{feature.name}** ({feature.kind.replace('_', ' ')}, `{feature.id}`)."


def rolled_terrain_text(rolled: TerrainRoll) -> str:
    """The public answer to rolling terrain: every roll, then each piece laid and where."""
    lines = [f"**{discord.utils.escape_markdown(rolled.table)}**"]
    lines += [f"🎲 {roll.describe()}" for roll in rolled.rolls]
    for feature in rolled.laid:
        xs, ys = [x for x, _ in feature.points], [y for _, y in feature.points]
        middle = f"{(min(xs) + max(xs)) / 2:g},{(min(ys) + max(ys)) / 2:g}"
        lines.append(
            f"Laid **{discord.utils.escape_markdown(feature.name)}** "
            f"({feature.kind.replace('_', ' ')}, `{feature.id}`) at {middle}"
        )
    if not rolled.laid:
        lines.append("No terrain laid.")
    if rolled.left_out:
        names = ", ".join(discord.utils.escape_markdown(n) for n in rolled.left_out)
        lines.append(f"No room left for: {names} (lay it with `/battle terrain add`).")
    lines.append("Move or remove pieces with `/battle terrain remove` and `/battle terrain add`.")
    return "\n".join(lines)[:2000]


def removed_text(feature: TerrainFeature) -> str:
    """The answer to removing terrain."""
    return f"Removed **{feature.name}** (`{feature.id}`)."


def terrain_text(features: list[TerrainFeature]) -> str:
    """The terrain on the table, one feature a line with its first points."""
    lines = [
        f"`{f.id}` **{f.name}** — {f.kind.replace('_', ' ')}, "
        + " ".join(f"{x:g},{y:g}" for x, y in f.points[:8])
        for f in features
    ]
    return ("\n".join(lines) or "No terrain yet: `/battle terrain add`.")[:2000]


def feature_choices(features: list[TerrainFeature], current: str) -> list[app_commands.Choice[str]]:
    """Autocomplete for a terrain feature: name and id shown, the id given."""
    return labelled_choices([(f.id, f"{f.name} ({f.id})") for f in features], current)


def deployed_text(unit: Unit) -> str:
    """The private answer to deploying a unit."""
    return f"**{unit.name}** deployed at ({unit.x:g}, {unit.y:g}), facing {unit.facing:g}°."


def deployed_many_text(count: int) -> str:
    """The private answer to a deployment file."""
    return f"Deployed {count} units."


def begun_text(report: StageReport) -> str:
    """The public note that a battle has begun, with the hash of its dice seed."""
    return (
        f"⚔️ **{report.battle.name}** has begun. The dice seed's SHA-256 is "
        f"`{report.battle.seed_sha256}`; the seed is revealed when the battle ends."
    )


def end_question(view: BattleView, winner: str | None) -> str:
    """The question a GM confirms before ending a battle."""
    return (
        f"End **{view.name}** now ({'winner: ' + winner[:100] if winner else 'a draw'})? "
        "Losses are written back to the armies and the seed is revealed."
    )


def ended_text(battle_name: str) -> str:
    """The private answer once a battle has been ended."""
    return f"Ended **{battle_name}**."


def log_text(steps: list[LoggedStep], turn: int) -> str:
    """One turn's log: each step's title and trigger, missing orders, then its events."""
    lines: list[str] = []
    for step in steps:
        lines.append(f"**{step.title}** ({step.trigger})")
        if step.missing:
            lines.append(f"No orders from {', '.join(step.missing)}: defaults applied.")
        lines += step.lines
    return "\n".join(lines) or f"Nothing has been resolved in turn {turn} yet."


def log_file(text: str, turn: int) -> discord.File:
    """A log too long for a message, as a text file."""
    return discord.File(io.BytesIO(text.encode()), f"turn-{turn}.txt")


def record_attachment(data: bytes) -> discord.File:
    """The battle record as a JSON attachment."""
    return discord.File(io.BytesIO(data), "record.json")


def map_attachment(png: bytes) -> discord.File:
    """A rendered map as a PNG attachment."""
    return discord.File(io.BytesIO(png), "map.png")


def battle_list_text(battles: list[BattleSummary]) -> str:
    """/battle list: the campaign's battles, newest first, each with where it stands."""
    if not battles:
        return "No battles in this campaign yet: a GM starts one with `/battle create`."
    return "\n".join(_battle_line(b) for b in battles)[:2000]


def _battle_line(battle: BattleSummary) -> str:
    """One battle: name, sides, and its state in words."""
    sides = " against ".join(battle.sides)
    status = battle.status.value
    if status == "setup":
        where = "setting up (terrain and deployment)"
    elif status == "finished":
        where = f"over: {battle.result}" if battle.result else "over"
    else:
        where = f"turn {battle.turn}, {battle.step}" if battle.turn else battle.step
        if status == "paused":
            where += ", paused by a GM"
        elif battle.deadline_at is not None:
            where += f", orders due <t:{int(battle.deadline_at.timestamp())}:R>"
    return f"**{battle.name}** — {sides}: {where}"


def no_reach_text(unit: str, kind: str) -> str:
    """Why a unit's reach cannot be outlined: it has no move or no missile weapon."""
    if kind == "range":
        return (
            f"**{unit}** has no missile weapon, so there is no range to outline; try `reach:move`."
        )
    return f"**{unit}** cannot move, so there is no move to outline."


def _value(value: object) -> str:
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def unit_sheet_text(sheet: UnitSheet) -> str:
    """``/battle unit``: one unit's profile, status in words and position, privately."""
    words = sheet.type.replace("_", " ")
    quality = f", {sheet.quality}" if sheet.quality else ""
    formation = f", in {sheet.formation.replace('_', ' ')}" if sheet.formation else ""
    group = "" if sheet.group_name == sheet.side_name else f", {sheet.group_name}"
    lines = [
        f"**{sheet.name}** (`{sheet.unit_id}`) — {sheet.side_name}{group}",
        f"{words}{quality}; {sheet.stands} stand(s){formation}; "
        f"{sheet.frontage:g} × {sheet.depth:g} {sheet.measure}",
        f"At ({sheet.x:g}, {sheet.y:g}), facing {sheet.facing:g}°",
    ]
    if sheet.leaders:
        lines.append("With it: " + ", ".join(sheet.leaders))
    lines.append("Status: " + ("; ".join(sheet.status) if sheet.status else "nothing marked"))
    if sheet.profile:
        shown = ", ".join(f"{k.replace('_', ' ')} {_value(v)}" for k, v in sheet.profile)
        lines.append(f"Profile: {shown}")
    if sheet.secret:
        lines.append("Your side's secrets: " + "; ".join(sheet.secret))
    return "\n".join(lines)[:2000]
