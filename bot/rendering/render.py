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

from bot.rendering import frame, legend, panel
from bot.rendering.badges import badges_for, statuses_of, terrain_words_of
from bot.rendering.fog import SideView
from bot.rendering.map_layer import draw_table
from bot.rendering.overlays import Reach
from bot.rendering.scene import Scene, build_scene, title_words
from bot.rendering.style import PAPER, SideStyle, palette_image
from bot.rendering.terrain import obstacle_style
from bot.rendering.text import shifted
from bot.rendering.text import width as text_width
from bot.rendering.view import Area, View, fit
from rules_core.events import Event
from rules_core.render import Gone, absent_lists, gone_words
from rules_core.state import BattleState, Unit
from rules_core.status import Scope, describe_state

TITLE_HEIGHT = 44
TITLE_LINE = 28  # px more for a title's second line
FURNITURE_WIDTH = 360  # scale bar and compass, left of the legend (wider if its words need it)
FURNITURE_HEIGHT = 150
SIDE_BY_SIDE = 1200  # px: narrower maps put the legend under the scale bar and compass
PAD = 14


HEADINGS = ("", "Lost", "Off the table", "In reserve")  # the panel's order within a side
MAX_TABLE_HEIGHT = 4000  # pixels: a tall narrow area is drawn narrower, never taller


@dataclass(frozen=True)
class MapOptions:
    """How to draw a map: size in pixels, a zoomed area, one side's view, a unit's reach."""

    width: int = 1600
    height: int | None = None  # None: as tall as the table needs at full width
    area: Area | None = None  # x0, y0, x1, y1 in the ruleset's measure; None is the table
    side_view: SideView | None = None
    reach: Reach | None = None
    lost: tuple[Unit, ...] = ()  # units gone during the step: its marks point at them
    gone: tuple[Gone, ...] = ()  # every unit the battle lost so far; () lists the step's ``lost``
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
    title: tuple[str, ...]  # the title bar's left half, one or two lines
    panel: panel.Panel
    panel_top: int
    furniture: int  # px from the left the scale bar and compass take

    @property
    def title_height(self) -> int:
        """The title bar's height: one line, or two for a long title."""
        return TITLE_HEIGHT + TITLE_LINE * (len(self.title) - 1)


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


# Pictures of the parts of a map's frame that stay the same from one map of a battle to the
# next (edges, deployment bands, scale bar, compass), by what they depend on: a replay keeps
# one for all its frames, so those parts are drawn once.
Chrome = dict[str, Image.Image]


def render_image(
    state: BattleState, events: Iterable[Event], options: MapOptions, chrome: Chrome | None = None
) -> Image.Image:
    """The map as a palette image; with ``chrome``, the frame's fixed parts are drawn once
    into it and copied for the next map of the same layout (their texts are not recorded)."""
    events = tuple(events)
    scene = build_scene(state, events, options.side_view, options.reach, options.lost)
    layout = lay_out(scene, options, events)
    if chrome is None:
        canvas = Image.new("RGB", layout.size, PAPER)
    else:
        canvas = _chrome(chrome, scene, layout, options).copy()
    with shifted(layout.origin):  # the table's texts are recorded where the canvas has them
        table = draw_table(scene, layout.view)
    canvas.paste(table, layout.origin)
    draw_frame(canvas, scene, layout, options, fixed=chrome is None)
    return canvas.quantize(palette=palette_image(), dither=Image.Dither.NONE)


def _chrome(kept: Chrome, scene: Scene, layout: Layout, options: MapOptions) -> Image.Image:
    """The page with the frame's fixed parts for this layout, drawn the first time it is asked."""
    table = scene.state.battlefield
    fixed = (layout.size, layout.view, layout.origin, layout.strip_top, _deploys(scene))
    key = repr((*fixed, options.area is None, table.measure, table.mm_per_measure))
    image = kept.get(key)
    if image is None:
        image = Image.new("RGB", layout.size, PAPER)
        draw_fixed(ImageDraw.Draw(image), scene, layout, options)
        kept[key] = image
    return image


def encode(image: Image.Image, compress_level: int = 3) -> bytes:
    """PNG bytes with fixed settings and no metadata, so equal images give equal bytes."""
    buffer = io.BytesIO()
    image.save(buffer, "PNG", optimize=False, compress_level=compress_level)
    return buffer.getvalue()


def legend_entries(scene: Scene) -> list[legend.Entry]:
    """Legend entries for what this map shows."""
    state = scene.state
    entries = [legend.side_entry(s.name, scene.style(s.id)) for s in state.sides]
    if scene.ghosts:
        entries.append(legend.side_entry("enemy", scene.style(scene.ghosts[0].side), ghost=True))
    if scene.leaders:
        entries.append(legend.leader_entry(scene.style(scene.leaders[0].side)))
    owners = {s.id: (s.name, scene.style(s.id).fill) for s in state.sides}
    words = terrain_words_of(state.ruleset)
    entries += legend.terrain_entries(state.terrain, obstacle_style, owners, words)
    entries += _zone_entries(scene)
    entries += _mark_entries(scene)
    entries += _badge_entries(scene)
    return entries


def panel_columns(
    scene: Scene, events: Iterable[Event] = (), when: str = "", gone: tuple[Gone, ...] = ()
) -> list[panel.Column]:
    """The side panel: per side its declared side- and group-level state, the units it lost
    (``gone`` over the battle, else those of the step, why and ``when``), those off the table
    and (not the enemy's, in a side view) in reserve; then the battle's own state. Sides
    with nothing to say are left out."""
    state = scene.state
    statuses = statuses_of(state.ruleset)
    # Leaders' state is drawn as badges by their markers; a side's and its wings' has no marker.
    described = describe_state(statuses, state, (Scope.SIDE, Scope.GROUP))
    when = when or f"turn {state.cursor.turn}"
    gone = gone or tuple(Gone(u.side, *gone_words(u, events, when)) for u in scene.lost)
    columns = []
    for side in state.sides:
        items = [("", words) for words in described.get(side.id, [])]
        items += [(lost.heading, lost.line) for lost in gone if lost.side == side.id]
        reserve = scene.side_view is None or scene.side_view.side == side.id
        for head, listed in absent_lists(state, side.id, reserve):
            items += (
                [(head, ", ".join(listed))] if head == "In reserve" else [(head, n) for n in listed]
            )
        items.sort(key=lambda item: HEADINGS.index(item[0]))
        style = scene.style(side.id)
        if items:
            columns.append(panel.Column(side.name, style.text, style, tuple(items)))
    # The battle's name is the title's already.
    names = _names(state)  # "activates next: Labienus's command", not its id
    status = {k: names.get(v, v) if isinstance(v, str) else v for k, v in state.status.items()}
    status.pop("name", None)
    battle = statuses.describe(Scope.BATTLE, status, names)
    return columns + ([panel.battle_column(battle)] if battle else [])


def _names(state: BattleState) -> dict[str, str]:
    """Every side's, group's, unit's and leader's name by id, for state that names them."""
    names = {side.id: side.name for side in state.sides}
    names |= {group.id: group.name for group in state.groups}
    names |= {leader.id: leader.name for leader in state.leaders}
    return names | {unit.id: unit.name for unit in state.units}


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


def lay_out(scene: Scene, options: MapOptions, events: Iterable[Event] = ()) -> Layout:
    """Fit the table between the title bar and the strip of scale bar, compass, legend and
    side panel."""
    table = scene.state.battlefield
    area = options.area or (0.0, 0.0, table.width, table.depth)
    margin = _margin(area)
    title = frame.title_lines(
        *title_words(scene.state, scene.side_view, options.after), options.width
    )
    top = TITLE_HEIGHT + TITLE_LINE * (len(title) - 1)
    strip = _strip(scene, options, events)
    room = (
        MAX_TABLE_HEIGHT
        if options.height is None
        else options.height - top - 2 * margin - strip.height
    )
    view = View(area, fit(area, options.width - 2 * margin, room))
    height = options.height or top + 2 * margin + view.height + strip.height
    spare = height - top - 2 * margin - view.height - strip.height
    origin = ((options.width - view.width) // 2, top + margin + spare // 2)
    strip_top = origin[1] + view.height + margin
    at = (strip.legend_at[0], strip_top + strip.legend_at[1])
    return Layout(
        (options.width, height),
        view,
        origin,
        strip_top,
        strip.rows,
        at,
        title,
        strip.panel,
        strip_top + strip.panel_top,
        strip.furniture,
    )


@dataclass(frozen=True)
class _Strip:
    """The strip under the table, its places relative to its top."""

    rows: list[list[legend.Entry]]
    legend_at: tuple[int, int]
    panel: panel.Panel
    panel_top: int
    furniture: int

    @property
    def height(self) -> int:
        """The strip's height: the panel's foot, or the legend's and the compass's."""
        return self.panel_top + (self.panel.height + PAD if self.panel.height else 0)


def _strip(scene: Scene, options: MapOptions, events: Iterable[Event]) -> _Strip:
    """The legend beside the scale bar and compass on a wide map, under them on a narrow one;
    the side panel across the foot."""
    beside = options.width >= SIDE_BY_SIDE
    furniture = _furniture(scene, options.width, beside)
    left = furniture + PAD if beside else PAD
    entries = legend_entries(scene) if options.legend else []
    rows = legend.rows(entries, options.width - left - PAD)
    tall = len(rows) * legend.ROW
    at = (left, PAD) if beside else (left, FURNITURE_HEIGHT)
    above = max(FURNITURE_HEIGHT, tall + 2 * PAD) if beside else FURNITURE_HEIGHT + tall + PAD
    columns = panel_columns(scene, events, options.after, options.gone) if options.legend else []
    side = panel.lay_out(columns, PAD, options.width - 2 * PAD)
    return _Strip(rows, at, side, above, furniture)


def _furniture(scene: Scene, width: int, beside: bool) -> int:
    """How far from the left the scale bar and compass reach: far enough for the words of
    each side's edge, which never take more than half a wide map (or a narrow one's width)."""
    room = _compass_room(width, beside)
    widest = max(
        (text_width(frame.edge_words(n, e), frame.EDGE_TEXT) for e, n, _ in _deploys(scene)),
        default=0.0,
    )
    return max(FURNITURE_WIDTH, round(frame.COMPASS_WORDS + PAD + min(widest, room)) + PAD)


def _compass_room(width: int, beside: bool) -> float:
    """The pixels the compass's words may take."""
    return (width // 2 if beside else width - PAD) - frame.COMPASS_WORDS - PAD


def _margin(area: Area) -> int:
    """Room around the table for the edge numbers and the deployment bands."""
    widest = max(len(f"{value:g}") for value in area)
    return max(30, 10 * widest + 14)


def draw_frame(
    canvas: Image.Image, scene: Scene, layout: Layout, options: MapOptions, fixed: bool = True
) -> None:
    """Title bar, labelled edges, deployment bands, scale bar, compass, legend and panel
    (without ``fixed``, the edges, bands, scale bar and compass are on the canvas already)."""
    draw = ImageDraw.Draw(canvas)
    right = title_words(scene.state, scene.side_view, options.after)[1]
    frame.draw_title(draw, layout.size[0], layout.title_height, layout.title, right)
    if fixed:
        draw_fixed(draw, scene, layout, options)
    if layout.legend_rows:
        legend.draw_legend(canvas, *layout.legend_at, layout.legend_rows)
    panel.draw_panel(draw, layout.panel, layout.panel_top)


def draw_fixed(
    draw: ImageDraw.ImageDraw, scene: Scene, layout: Layout, options: MapOptions
) -> None:
    """The parts of the frame that depend on the table and the layout alone: labelled edges,
    deployment bands, scale bar and compass (none of them over the table or the title)."""
    state, view = scene.state, layout.view
    grid = frame.grid_for(view.scale)
    deploys = _deploys(scene)
    whole = options.area is None
    if whole:
        frame.draw_deploy_edges(draw, view, layout.origin, {e: s for e, _, s in deploys})
    frame.draw_edges(draw, view, grid, layout.origin)
    top = layout.strip_top + PAD
    table = state.battlefield
    frame.draw_scale_bar(draw, PAD + 6, top, view, grid, table.measure, table.mm_per_measure)
    room = _compass_room(layout.size[0], layout.size[0] >= SIDE_BY_SIDE)
    frame.draw_compass(draw, (PAD + 40, top + 92), deploys, room)


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
