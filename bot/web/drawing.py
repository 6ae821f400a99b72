"""The war table's map: the same scene as the PNG maps (``bot.rendering``), written as SVG.

The table alone (no title bar, legend or panel: the page shows those as HTML), sized by a
``viewBox`` so the browser zooms it, with each unit's group marked for the page's script: its
side, a focus stop for the keyboard and its name as a tooltip. ``data-table`` on the ``<svg>``
says how its units (px) map to the table's (the ruleset's measure, y up) for the page's script.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterable
from html import escape

from bot.rendering.map_layer import table_pieces
from bot.rendering.render import MapOptions, lay_out
from bot.rendering.replay import Frame
from bot.rendering.scene import build_scene
from bot.rendering.svg import scene_svg
from bot.rendering.view import View
from rules_core.state import BattleState

UNIT_GROUP = re.compile(r'<g class="unit" data-owner="([^"]*)">')
SVG_HEAD = '<svg xmlns="http://www.w3.org/2000/svg"'


def table_svg(frame: Frame, element_id: str = "map") -> str:
    """One frame's table (its state, with its step's moves, shots and combats) as SVG."""
    scene = build_scene(frame.state, frame.events, None, None, frame.lost)
    view = lay_out(scene, MapOptions(lost=frame.lost, gone=frame.gone), frame.events).view
    svg = scene_svg(table_pieces(scene, view), (view.width, view.height))
    head = (
        f'{SVG_HEAD} id="{element_id}" viewBox="0 0 {view.width} {view.height}" '
        f'preserveAspectRatio="xMidYMid meet" {table_mapping(view)} role="img" '
        'aria-label="The battle map">'
    )
    svg = head + svg[svg.index(">") + 1 :]
    return marked_units(svg, frame.state)


def table_mapping(view: View) -> str:
    """The SVG's mapping to the table: ``data-table="x0 y0 scale"``, the table point at the
    SVG's origin and pixels per unit of measure (the table's y grows up, the SVG's down)."""
    left, top = view.area[0], view.area[3]
    return f'data-table="{left:g} {top:g} {view.scale:.6g}"'


async def table_svg_async(frame: Frame, element_id: str = "map") -> str:
    """``table_svg`` in a worker thread, so drawing never blocks the bot's event loop."""
    return await asyncio.to_thread(table_svg, frame, element_id)


def marked_units(svg: str, state: BattleState) -> str:
    """The SVG with each unit's group given its side, a focus stop and its name as a title."""
    units = {escape(u.id): u for u in state.units}

    def marked(found: re.Match[str]) -> str:
        unit = units.get(found.group(1))
        if unit is None:
            return found.group(0)
        side, name = escape(unit.side), escape(unit.name)
        return f'{found.group(0)[:-1]} data-side="{side}" tabindex="0"><title>{name}</title>'

    return UNIT_GROUP.sub(marked, svg)


def drawn_units(svg: str, units: Iterable[str]) -> list[str]:
    """The ids of these units that the SVG draws (for the cards: none for a unit not drawn)."""
    return [u for u in units if f'class="unit" data-owner="{escape(u)}"' in svg]
