"""The map renderer: a battle state and the last step's events in, PNG bytes out.

The table is drawn at one scale on its own image (so nothing spills into the margins),
then framed with a title bar, labelled edges, a scale bar, a compass and a legend. The
finished picture is mapped onto a fixed palette, which keeps the PNG small and quick to
write, and the same state always gives the same bytes.
"""

from __future__ import annotations

import asyncio
import io
from collections.abc import Iterable
from dataclasses import dataclass

from PIL import Image, ImageDraw

from bot.rendering import frame, legend
from bot.rendering.badges import badges_for, statuses_of
from bot.rendering.fog import SideView
from bot.rendering.map_layer import draw_table
from bot.rendering.overlays import Reach
from bot.rendering.scene import Scene, build_scene, title_words
from bot.rendering.style import PAPER, SideStyle, palette_image
from bot.rendering.terrain import obstacle_style
from bot.rendering.text import shifted
from bot.rendering.view import Area, View, fit
from rules_core.events import Event
from rules_core.render import absent_units
from rules_core.state import BattleState, Unit
from rules_core.status import Scope, describe_state

TITLE_HEIGHT = 44
FURNITURE_WIDTH = 360  # scale bar and compass, left of the legend
FURNITURE_HEIGHT = 150
SIDE_BY_SIDE = 1200  # px: narrower maps put the legend under the scale bar and compass
PAD = 14


MAX_TABLE_HEIGHT = 4000  # pixels: a tall narrow area is drawn narrower, never taller


@dataclass(frozen=True)
class MapOptions:
    """How to draw a map: size in pixels, a zoomed area, one side's view, a unit's reach."""

    width: int = 1600
    height: int | None = None  # None: as tall as the table needs at full width
    area: Area | None = None  # x0, y0, x1, y1 in the ruleset's measure; None is the table
    side_view: SideView | None = None
    reach: Reach | None = None
    lost: tuple[Unit, ...] = ()  # units gone during the step: pale, where they last stood
    legend: bool = True
    after: str = ""  # the step just resolved ("Turn 1 · Shooting"): the title names it
    compress_level: int = 3  # zlib: level 6 saves a fifth of the bytes, 1.7 times slower


@dataclass(frozen=True)
class Layout:
    """Where the parts of the picture go."""

    size: tuple[int, int]
    view: View
    origin: tuple[int, int]  # top-left pixel of the table image
    strip_top: int
    legend_rows: list[list[legend.Entry]]
    legend_at: tuple[int, int]


def render_map(
    state: BattleState, events: Iterable[Event] = (), options: MapOptions | None = None
) -> bytes:
    """The map of a battle as PNG bytes."""
    options = options or MapOptions()
    return encode(render_image(state, events, options), options.compress_level)


async def render_map_async(
    state: BattleState, events: Iterable[Event] = (), options: MapOptions | None = None
) -> bytes:
    """``render_map`` in a worker thread, so drawing never blocks the bot's event loop."""
    return await asyncio.to_thread(render_map, state, tuple(events), options)


def render_image(state: BattleState, events: Iterable[Event], options: MapOptions) -> Image.Image:
    """The map as a palette image."""
    scene = build_scene(state, events, options.side_view, options.reach, options.lost)
    layout = lay_out(scene, options)
    canvas = Image.new("RGB", layout.size, PAPER)
    with shifted(layout.origin):  # the table's texts are recorded where the canvas has them
        table = draw_table(scene, layout.view)
    canvas.paste(table, layout.origin)
    draw_frame(canvas, scene, layout, options)
    return canvas.quantize(palette=palette_image(), dither=Image.Dither.NONE)


def encode(image: Image.Image, compress_level: int = 3) -> bytes:
    """PNG bytes with fixed settings and no metadata, so equal images give equal bytes."""
    buffer = io.BytesIO()
    image.save(buffer, "PNG", optimize=False, compress_level=compress_level)
    return buffer.getvalue()


def legend_entries(scene: Scene) -> list[legend.Entry]:
    """Legend entries for what this map shows."""
    state = scene.state
    entries = [legend.side_entry(s.name, scene.style(s.id)) for s in state.sides]
    entries += side_state_entries(scene)
    entries += absent_entries(scene)
    if scene.ghosts:
        style = scene.style(scene.ghosts[0].side)
        words = "" if scene.side_view is not None else "lost this step"
        entries.append(legend.side_entry("enemy", style, ghost=True, label=words))
    if scene.leaders:
        entries.append(legend.leader_entry(scene.style(scene.leaders[0].side)))
    entries += legend.terrain_entries(state.terrain, obstacle_style)
    entries += _zone_entries(scene)
    entries += _mark_entries(scene)
    entries += _badge_entries(scene)
    return entries


def side_state_entries(scene: Scene) -> list[legend.Entry]:
    """One entry per side with declared side- or group-level state to show."""
    state = scene.state
    # Leaders' state is drawn as badges by their markers; a side's and its wings' has no marker.
    described = describe_state(statuses_of(state.ruleset), state, (Scope.SIDE, Scope.GROUP))
    return [
        legend.side_state_entry(
            f"{side.name}: {'; '.join(described[side.id])}", scene.style(side.id)
        )
        for side in state.sides
        if side.id in described
    ]


def absent_entries(scene: Scene) -> list[legend.Entry]:
    """The panel of units not on the table: per side, those off the table (where and when
    they left) and those in reserve; a side view leaves out the enemy's reserves."""
    state, view = scene.state, scene.side_view
    entries = []
    for side in state.sides:
        reserve = view is None or view.side == side.id
        for line in absent_units(state, side.id, reserve=reserve):
            entries.append(legend.absent_entry(f"{side.name} — {line}", scene.style(side.id)))
    return entries


def _zone_entries(scene: Scene) -> list[legend.Entry]:
    """During set-up, the dashed line ending each side's deployment zone."""
    if scene.state.cursor.segment != "setup":
        return []
    sides = [s for s in scene.state.sides if scene.zones.get(s.id)]
    return [legend.zone_entry(s.name, scene.style(s.id)) for s in sides]


def _mark_entries(scene: Scene) -> list[legend.Entry]:
    entries = []
    if scene.marks.moves:
        entries.append(legend.move_entry())
    if scene.marks.laid:
        entries.append(legend.terrain_change_entry(laid=True))
    if scene.marks.lifted:
        entries.append(legend.terrain_change_entry(laid=False))
    if scene.marks.shots:
        entries.append(legend.shot_entry())
    if scene.marks.combats or scene.contacts:
        entries.append(legend.contact_entry())
    if scene.reach is not None:
        entries.append(legend.reach_entry(f"{scene.reach.kind} of one unit"))
    return entries


def _badge_entries(scene: Scene) -> list[legend.Entry]:
    shown = badges_for(scene.state.ruleset)
    used: dict[str, legend.Entry] = {}
    # As on the units' labels: the formation field, unless a status of that name is kept.
    holders = [{"formation": u.formation, **u.status} for u in scene.units] + [
        {**leader.status, "wounds": leader.wounds} for leader in scene.leaders
    ]
    for status in holders:
        for key, value in status.items():
            badge = shown.get(key)
            if badge is not None and key not in used and badge.text(value) is not None:
                used[key] = legend.badge_entry(badge, value)
    return [used[key] for key in shown if key in used]


def lay_out(scene: Scene, options: MapOptions) -> Layout:
    """Fit the table between the title bar and the strip of scale bar, compass and legend."""
    table = scene.state.battlefield
    area = options.area or (0.0, 0.0, table.width, table.depth)
    margin = _margin(area)
    rows, strip, legend_at = _legend_strip(scene, options)
    room = (
        MAX_TABLE_HEIGHT
        if options.height is None
        else options.height - TITLE_HEIGHT - 2 * margin - strip
    )
    view = View(area, fit(area, options.width - 2 * margin, room))
    height = options.height or TITLE_HEIGHT + 2 * margin + view.height + strip
    spare = height - TITLE_HEIGHT - 2 * margin - view.height - strip
    origin = ((options.width - view.width) // 2, TITLE_HEIGHT + margin + spare // 2)
    strip_top = origin[1] + view.height + margin
    at = (legend_at[0], strip_top + legend_at[1])
    return Layout((options.width, height), view, origin, strip_top, rows, at)


def _legend_strip(
    scene: Scene, options: MapOptions
) -> tuple[list[list[legend.Entry]], int, tuple[int, int]]:
    """The legend's rows, the strip's height and the legend's place in the strip: beside
    the scale bar and compass on a wide map, under them on a narrow one."""
    beside = options.width >= SIDE_BY_SIDE
    left = FURNITURE_WIDTH + PAD if beside else PAD
    rows = legend.rows(legend_entries(scene), options.width - left - PAD) if options.legend else []
    tall = len(rows) * legend.ROW
    if beside:
        return rows, max(FURNITURE_HEIGHT, tall + 2 * PAD), (left, PAD)
    return rows, FURNITURE_HEIGHT + tall + PAD, (left, FURNITURE_HEIGHT)


def _margin(area: Area) -> int:
    """Room around the table for the edge numbers and the deployment bands."""
    widest = max(len(f"{value:g}") for value in area)
    return max(30, 10 * widest + 14)


def draw_frame(canvas: Image.Image, scene: Scene, layout: Layout, options: MapOptions) -> None:
    """Title bar, labelled edges, deployment bands, scale bar, compass and legend."""
    draw = ImageDraw.Draw(canvas)
    state, view = scene.state, layout.view
    left, right = title_words(state, scene.side_view, options.after)
    frame.draw_title(draw, layout.size[0], TITLE_HEIGHT, left, right)
    grid = frame.grid_for(view.scale)
    deploys = _deploys(scene)
    whole = options.area is None
    if whole:
        frame.draw_deploy_edges(draw, view, layout.origin, {e: s for e, _, s in deploys})
    frame.draw_edges(draw, view, grid, layout.origin)
    top = layout.strip_top + PAD
    table = state.battlefield
    frame.draw_scale_bar(draw, PAD + 6, top, view, grid, table.measure, table.mm_per_measure)
    frame.draw_compass(draw, (PAD + 40, top + 92), deploys)
    if layout.legend_rows:
        legend.draw_legend(canvas, *layout.legend_at, layout.legend_rows)


def _deploys(scene: Scene) -> list[tuple[str, str, SideStyle]]:
    """Each side's edge, leaving out edges two sides would share (a guess gone wrong)."""
    edges = {
        side.id: frame.side_edge(scene.state, side.id, scene.zones.get(side.id))
        for side in scene.state.sides
    }
    taken = [edge for edge in edges.values() if edge is not None]
    return [
        (edge, side.name, scene.style(side.id))
        for side in scene.state.sides
        if (edge := edges[side.id]) is not None and taken.count(edge) == 1
    ]
