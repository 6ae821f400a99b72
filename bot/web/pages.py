"""What a war-table page shows, drawn for one reader.

Every byte comes from the services in the reader's own view (``table_view.gather``): the
page, the map, ``state.json`` and the replay's frames never hold more than that member's
slash commands would show them. Nothing is filtered in the browser.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from typing import Any

from bot.errors import Conflict, NotFound
from bot.services import Services
from bot.services.battle_state import rules_of
from bot.services.web_links import Reader
from bot.web import html
from bot.web.cards import unit_card
from bot.web.drawing import drawn_units, table_svg, table_svg_async
from bot.web.names import Namer
from bot.web.table_view import Table, gather, panels, seen_place, unmarked
from rules_core.secrets import Viewer

NO_FRAME = "The replay has stages {first} to {last}; there is no stage {number}."


async def table_page(
    services: Services, reader: Reader, csrf: str = "", names: Namer | None = None
) -> str:
    """The page's HTML for this reader (a friendly page when no battle is in play); with the
    session's ``csrf`` token, the page also writes (its order panel); players named by
    ``names``."""
    try:
        table = await gather(services, reader, names)
    except NotFound as error:
        return html.no_battle_html(unmarked(str(error)))
    return await asyncio.to_thread(_page_of, table, csrf)


async def map_svg(services: Services, reader: Reader) -> str:
    """The battle as SVG, in the reader's view, with the last resolved step's marks."""
    table = await gather(services, reader)
    return await table_svg_async(table.frame)


async def table_state(
    services: Services, reader: Reader, names: Namer | None = None
) -> dict[str, Any]:
    """Everything the page shows, as JSON-ready data, in the reader's view: the live page's
    one fetch when the battle changes (the map under ``map``, drawn from the same read)."""
    table = await gather(services, reader, names)
    return await asyncio.to_thread(_state_of, table)


# Drawn in a worker thread: the map and the cards of 120 units are 30-40 ms of CPU each,
# which would hold the bot's event loop (and every command waiting on it) for as long.
def _page_of(table: Table, csrf: str = "") -> str:
    svg = table_svg(table.frame)
    return html.page_html(state_of(table, svg), svg, csrf)


def _state_of(table: Table) -> dict[str, Any]:
    svg = table_svg(table.frame)
    return {**state_of(table, svg), "map": svg}


async def replay_index(services: Services, reader: Reader) -> dict[str, Any]:
    """The stored stages of the battle the reader may replay (whole once it has ended)."""
    try:
        replay = await services.aftermath.replay(seen_place(reader))
    except Conflict:  # no step resolved yet: nothing to replay
        return {"frames": [], "finished": False}
    frames = [
        {"number": n, "title": frame.title or "Before the first step"}
        for n, frame in enumerate(replay.frames)
    ]
    return {"battle": replay.battle_name, "frames": frames, "finished": replay.finished}


async def replay_frame(services: Services, reader: Reader, number: int) -> str:
    """One stage of the replay as SVG, in the reader's view (``NotFound`` past its end)."""
    replay = await services.aftermath.replay(seen_place(reader))
    if not 0 <= number < len(replay.frames):
        raise NotFound(NO_FRAME.format(first=0, last=len(replay.frames) - 1, number=number))
    return await table_svg_async(replay.frames[number])


def state_of(table: Table, svg: str) -> dict[str, Any]:
    """The page's data: the battle, a card for each unit the map draws, the panels, the
    replay's length and a version that changes whenever any of it does."""
    view = table.view
    rules = rules_of(view.ruleset_id)
    sides = {s.side_id: s.name for s in view.sides}
    viewer = view.seat.viewer() if view.seat is not None else Viewer.public()
    state = table.frame.state
    drawn = set(drawn_units(svg, [u.id for u in state.units]))
    units = [
        unit_card(state, unit, rules.statuses, sides, viewer, table.orders)
        for unit in state.units
        if unit.id in drawn
    ]
    data: dict[str, Any] = {
        "battle": {
            "id": view.id,
            "name": view.name,
            "status": view.status.value,
            "turn": state.cursor.turn,
            "summary": summary(table),
            "orders": orderable(table),
        },
        "units": units,
        "panels": panels(table),
        "replay": {"frames": table.stages},
    }
    text = json.dumps(data, sort_keys=True, default=str)
    digest = hashlib.sha256(text.encode() + svg.encode()).hexdigest()[:16]
    data["version"] = f"{view.id}:{view.stage}:{digest}"
    return data


def orderable(table: Table) -> dict[str, Any]:
    """Whose units the reader's page offers orders for (the services still decide): every
    side's for a GM, their own sides' for a player, none for a spectator or an observer."""
    seat = table.view.seat
    if table.user_id is None or seat is None:
        return {"gm": False, "sides": []}
    return {"gm": seat.is_gm, "sides": list(seat.sides)}


def summary(table: Table) -> str:
    """The line under the page's title: campaign, ruleset, where play stands, the reader."""
    view = table.view
    seat = view.seat
    if table.user_id is None or seat is None:
        reading = "the public view (spectator)"
    elif seat.is_gm:
        reading = "the GM's view: everything"
    elif seat.sides:
        reading = f"{view.side_name(seat.sides[0])}'s view"
    else:
        reading = "the public view"
    return (
        f"{view.campaign_name} · {view.ruleset_id} · turn {view.state.cursor.turn} · "
        f"{view.waiting_step} · you see {reading}"
    )
