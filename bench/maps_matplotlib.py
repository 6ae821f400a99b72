"""The benchmark scene drawn with matplotlib, for comparison only (matplotlib is not a dependency).

It draws what our map draws, in the same colours: grid, terrain areas and bands, unit
footprints with their front edges, haloed labels with status text, leaders, move arrows and
shot lines, a title and edge numbers.
"""

from __future__ import annotations

import io
from collections.abc import Callable

from matplotlib import patheffects
from matplotlib.axes import Axes
from matplotlib.figure import Figure  # a bare Figure draws with Agg, no pyplot needed
from matplotlib.patches import Polygon

from bot.rendering.scene import side_styles
from bot.rendering.style import COMPARISON_AREAS as AREA
from bot.rendering.style import COMPARISON_LINES as LINE
from bot.rendering.style import TABLE, TERRAIN_COLOURS
from rules_core.events import Event, UnitMoved
from rules_core.geometry import Footprint
from rules_core.state import BattleState

C = {key: tuple(v / 255 for v in rgb) for key, rgb in TERRAIN_COLOURS.items()}
HALO = [patheffects.withStroke(linewidth=3, foreground="white")]


def _rgb(colour: tuple[int, int, int]) -> tuple[float, float, float]:
    red, green, blue = colour
    return (red / 255, green / 255, blue / 255)


def renderer(
    state: BattleState, events: tuple[Event, ...], width: int, height: int
) -> Callable[[], bytes]:
    """A function drawing the scene to PNG bytes with matplotlib."""
    return lambda: _draw(state, events, width, height)


def _draw(state: BattleState, events: tuple[Event, ...], width: int, height: int) -> bytes:
    figure = Figure(figsize=(width / 100, height / 100), dpi=100)
    axes = figure.add_axes((0.04, 0.05, 0.92, 0.88))
    table = state.battlefield
    axes.set_xlim(0, table.width)
    axes.set_ylim(0, table.depth)
    axes.set_aspect("equal")
    axes.set_facecolor(_rgb(TABLE))
    axes.set_xticks(range(0, int(table.width) + 1, 12))
    axes.set_yticks(range(0, int(table.depth) + 1, 12))
    axes.set_xticks(range(0, int(table.width) + 1), minor=True)
    axes.set_yticks(range(0, int(table.depth) + 1), minor=True)
    axes.grid(which="both", color="#ddd8c0", linewidth=0.5)
    _terrain(axes, state)
    _units(axes, state)
    _events(axes, state, events)
    figure.suptitle(f"{state.battle_id} · Turn {state.cursor.turn}", x=0.02, ha="left")
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png")
    return buffer.getvalue()


def _terrain(axes: Axes, state: BattleState) -> None:
    for feature in state.terrain:
        if feature.kind in LINE:
            colour, width = LINE[feature.kind]
            xs, ys = zip(*feature.points, strict=True)
            axes.plot(xs, ys, color=C[colour], linewidth=width, solid_capstyle="butt")
        else:
            fill = C[AREA[feature.kind]]
            axes.add_patch(Polygon(feature.points, closed=True, facecolor=fill, edgecolor="#555"))


def _units(axes: Axes, state: BattleState) -> None:
    styles = side_styles(state)
    for unit in state.units:
        style = styles[unit.side]
        corners = Footprint.of(unit).corners()
        axes.add_patch(
            Polygon(corners, closed=True, facecolor=_rgb(style.fill), edgecolor=_rgb(style.edge))
        )
        (ax, ay), (bx, by) = corners[0], corners[1]
        axes.plot((ax, bx), (ay, by), color="black", linewidth=2)
        words = " ".join(f"{k}:{v}" for k, v in unit.status.items())
        label = f"{unit.name}\n{words}" if words else unit.name
        axes.text(unit.x, unit.y - 1.6, label, ha="center", va="top", fontsize=9,
                  fontweight="bold", color=_rgb(style.text), path_effects=HALO)  # fmt: skip
    for leader in state.leaders:
        axes.plot(
            leader.x, leader.y, marker="*", markersize=14, color=_rgb(styles[leader.side].fill)
        )
        axes.text(
            leader.x,
            leader.y - 1,
            leader.name,
            ha="center",
            va="top",
            fontsize=9,
            path_effects=HALO,
        )


def _events(axes: Axes, state: BattleState, events: tuple[Event, ...]) -> None:
    units = {unit.id: unit for unit in state.units}
    for event in events:
        if isinstance(event, UnitMoved):
            (x0, y0), (x1, y1) = event.path[0], event.path[-1]
            axes.annotate("", (x1, y1), (x0, y0), arrowprops={"arrowstyle": "->", "lw": 2})
        shooter, target = getattr(event, "shooter", None), getattr(event, "target", None)
        if shooter in units and target in units:
            a, b = units[shooter], units[target]
            axes.plot((a.x, b.x), (a.y, b.y), linestyle="--", color="#aa143c", linewidth=2)
