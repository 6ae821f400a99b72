"""The words and files of /campaign map: imports, sealed moves, campaign turns, the map."""

from __future__ import annotations

import io

import discord

from bot.presentation.battles import set_up_steps
from bot.presentation.formatting import plain
from bot.services.battle_state import SetUp
from bot.services.campaign_map import MapPicture, MapView, MoveInfo, PendingMove, TurnReport

MAP_FILE = "campaign_map.png"


def map_file(png: bytes) -> discord.File:
    """The map image as an attachment."""
    return discord.File(io.BytesIO(png), filename=MAP_FILE)


def map_imported_text(user_id: int, picture: MapPicture) -> str:
    """Said in the channel when a GM imports a map."""
    held = sum(1 for r in picture.regions if r.name in picture.holders)
    # The sides players join with: before anyone has joined, the map's names set them.
    by = ", ".join(f"**{plain(side)}**" for side in dict.fromkeys(picture.holders.values()))
    return (
        f"<@{user_id}> imported the campaign map **{plain(picture.name)}**: "
        f"{len(picture.regions)} regions, {held} held (by {by}). Players: "
        "`/campaign map move army:<yours> to:<region>` (sealed until the GM's "
        "`/campaign map turn`)."
    )


def _where(start: str | None) -> str:
    return f"**{plain(start)}**" if start else "off the map"


def move_text(info: MoveInfo) -> str:
    """The private answer to /campaign map move."""
    if info.cancelled:
        return (
            f"**{plain(info.army)}** stays in {_where(info.start)} this campaign turn "
            f"({info.turn}); its move is cancelled."
        )
    again = " (replacing your earlier move)" if info.replaced else ""
    return (
        f"Sealed{again}: **{plain(info.army)}** marches from {_where(info.start)} to "
        f"**{plain(info.to)}** when the GM resolves campaign turn {info.turn}. Only you see this."
    )


def _move_line(move: PendingMove) -> str:
    return f"• **{plain(move.army)}**: {_where(move.start)} → **{plain(move.to)}**"


def picture_lines(picture: MapPicture) -> list[str]:
    """Who holds each region and which armies stand there."""
    here: dict[str, list[str]] = {}
    for marker in picture.armies:
        here.setdefault(marker.region, []).append(
            f"{plain(marker.name)} ({plain(marker.side)}, {marker.units_left}/{marker.units} units)"
        )
    lines = []
    for region in picture.regions:
        holder = picture.holders.get(region.name)
        held = f"held by **{plain(holder)}**" if holder else "held by nobody"
        armies = f" · armies: {', '.join(here[region.name])}" if region.name in here else ""
        lines.append(f"• **{plain(region.name)}** {held}{armies}")
    return lines


def map_view_text(view: MapView) -> str:
    """The private answer to /campaign map show, with the asker's own sealed moves."""
    picture = view.picture
    lines = [f"🗺️ **{plain(picture.name)}** · campaign turn {picture.turn}"]
    lines += [_settled_line(s.battle, s.region, s.holder) for s in view.settled]
    lines += picture_lines(picture)
    if view.mine:
        lines.append("Your sealed moves for this turn:")
        lines += [_move_line(m) for m in view.mine]
    else:
        lines.append("You have no sealed moves for this turn.")
    return "\n".join(lines)[:2000]


def _settled_line(battle: str, region: str, holder: str | None) -> str:
    if holder is None:
        return f"⚔️ **{plain(battle)}** was a draw: **{plain(region)}** keeps its holder."
    return f"⚔️ **{plain(battle)}** is over: **{plain(holder)}** holds **{plain(region)}**."


def turn_question(map_name: str, turn: int, moves: int) -> str:
    """Asked before a GM resolves a campaign turn."""
    return (
        f"Resolve campaign turn {turn} of **{plain(map_name)}**? {moves} sealed move(s) will "
        "be revealed and made; armies of different sides that meet in a region will fight."
    )


def turn_texts(report: TurnReport) -> tuple[str, str]:
    """The GM's private line and the channel's post for a resolved campaign turn."""
    lines = [f"🗺️ **Campaign turn {report.turn}** of **{plain(report.picture.name)}** resolved."]
    lines += [_settled_line(s.battle, s.region, s.holder) for s in report.settled]
    if report.moves:
        lines.append("Moves:")
        lines += [_move_line(m) for m in report.moves]
    else:
        lines.append("No army moved.")
    lines += [f"🚩 **{plain(side)}** takes **{plain(region)}**." for region, side in report.taken]
    if report.battle and report.battle_region:
        steps = set_up_steps(report.set_up or SetUp.BY_HAND)
        lines.append(
            f"⚔️ Armies meet in **{plain(report.battle_region)}**: the battle "
            f"**{plain(report.battle)}** is set up; {steps}."
        )
    for region in report.waiting:
        lines.append(
            f"⚔️ Armies also meet in **{plain(region)}**; that battle waits its turn "
            "(the GM creates it with `/battle create` once the other has ended)."
        )
    lines += picture_lines(report.picture)
    return f"Campaign turn {report.turn} resolved.", "\n".join(lines)[:2000]
