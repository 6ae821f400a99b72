"""The map benchmark: ``python -m bench.maps`` renders a busy battle and prints the figures.

The scene is a 72 by 48 inch table with 120 units, 30 terrain features, leaders, badges and
a step's moves, shots and combats, drawn 1600 by 1067 pixels. Targets: a median of at most
80 ms and a PNG of at most 400 KB; and at least five times faster than matplotlib drawing the
same scene (matplotlib is only needed for that comparison: ``pip install -e ".[compare]"``).
``python -m bench`` reports the same render as rows of its table (``figures``).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass

from bench.report import Figure
from bot.rendering import text
from bot.rendering.map_layer import forget_grounds
from bot.rendering.render import MapOptions, render_map
from rules_core.codec import Json
from rules_core.events import Event, ShotFired, StatusChanged, UnitMoved
from rules_core.geometry import Footprint
from rules_core.state import (
    TERRAIN_KINDS,
    Battlefield,
    BattleState,
    Leader,
    Side,
    TerrainFeature,
    Unit,
)
from rules_core.steps import Cursor

WIDTH, HEIGHT = 1600, 1067
TARGET_MS, TARGET_KB, TARGET_RATIO = 80.0, 400.0, 5.0


def _terrain(rng: random.Random, count: int) -> tuple[TerrainFeature, ...]:
    """``count`` features cycling through every kind, scattered over the middle of the table."""
    features = []
    for index in range(count):
        kind = TERRAIN_KINDS[index % len(TERRAIN_KINDS)]
        x, y = rng.uniform(4, 68), rng.uniform(14, 34)
        if kind in ("river", "stream", "road", "linear_obstacle"):
            length = 30 if kind in ("river", "road") else 10
            points = tuple((x + dx, y + rng.uniform(-2, 2)) for dx in range(0, length, 5))
            style = ("hedge", "wall", "stakes")[index % 3]
            features.append(
                TerrainFeature(f"t{index}", kind, points, f"{kind} {index}", {"type": style})
            )
            continue
        r = rng.uniform(3, 6)
        ring = tuple(
            (x + r * rng.uniform(0.8, 1.2) * c, y + r * rng.uniform(0.8, 1.2) * s)
            for c, s in (
                (1, 0),
                (0.7, 0.7),
                (0, 1),
                (-0.7, 0.7),
                (-1, 0),
                (-0.7, -0.7),
                (0, -1),
                (0.7, -0.7),
            )
        )
        features.append(
            TerrainFeature(f"t{index}", kind, ring, f"{kind.replace('_', ' ')} {index}")
        )
    return tuple(features)


def _units(rng: random.Random, per_side: int) -> tuple[Unit, ...]:
    """Each side's units in ranks of twelve along its own edge, with assorted status."""
    units = []
    for side, base, facing in (("blue", 3.0, 0.0), ("orange", 45.0, 180.0)):
        for index in range(per_side):
            rank, file = divmod(index, 12)
            y = base + rank * 3.5 * (1 if facing == 0 else -1)
            status: dict[str, Json] = {}
            if index % 3 == 0:
                status["dps"] = index % 4 + 1
            if index % 5 == 0:
                status["disordered"] = True
            if index % 7 == 0:
                status["casualties"] = index % 6 + 1
            units.append(
                Unit(
                    f"{side}{index}", f"{side.title()} band {index + 1}", side, f"{side}_g",
                    "warband", "B", 3.0, 1.5, 4 + file * 5.8 + rng.uniform(-0.3, 0.3), y,
                    facing + rng.uniform(-10, 10), stands=3, status=status,
                )
            )  # fmt: skip
    return tuple(units)


def busy_battle(seed: int = 7) -> tuple[BattleState, tuple[Event, ...]]:
    """The benchmark scene: a state mid-battle and the events of its last step."""
    rng = random.Random(seed)
    units = _units(rng, 60)
    sides = (Side("blue", "Blue", {"edge": "south"}), Side("orange", "Orange", {"edge": "north"}))
    leaders = tuple(
        Leader(f"l{i}", f"General {i + 1}", side, None, 8 + i * 18, y, points=3, wounds=i % 2)
        for i, (side, y) in enumerate(
            (("blue", 1.0), ("blue", 1.0), ("blue", 1.0)) + (("orange", 47.0),) * 3
        )
    )
    state = BattleState(
        "bench", "bench", Battlefield(72.0, 48.0, "inch", 25.4),  # shared status keys only
        Cursor(3, "main", "movement", ("blue", "orange")), sides,
        leaders=leaders, units=units, terrain=_terrain(rng, 30),
    )  # fmt: skip
    return state, _events(units)


def _events(units: tuple[Unit, ...]) -> tuple[Event, ...]:
    events: list[Event] = []
    for unit in units[:30]:
        start = Footprint.of(unit).advanced(-4)
        events.append(UnitMoved(unit.id, ((start.x, start.y), (unit.x, unit.y)), 4.0, unit.facing))
    for shooter, target in zip(units[12:22], units[60:70], strict=True):
        events.append(ShotFired(shooter.id, target.id))
    events.append(StatusChanged(units[0].id, "disordered", None, True, "shot"))
    return tuple(events)


@dataclass(frozen=True)
class Timing:
    """Medians over several renders: wall-clock and CPU milliseconds, and the output's size."""

    wall_ms: float
    cpu_ms: float
    size: int


def timed(render: Callable[[], bytes], runs: int) -> Timing:
    """Render ``runs`` times and take the medians."""
    walls, cpus, size = [], [], 0
    for _ in range(runs):
        wall, cpu = time.perf_counter(), time.process_time()
        size = len(render())
        walls.append((time.perf_counter() - wall) * 1000)
        cpus.append((time.process_time() - cpu) * 1000)
    return Timing(statistics.median(walls), statistics.median(cpus), size)


def ours(state: BattleState, events: tuple[Event, ...]) -> Callable[[], bytes]:
    """Our renderer at the benchmark size."""
    options = MapOptions(width=WIDTH, height=HEIGHT)
    return lambda: render_map(state, events, options)


def cold(render: Callable[[], bytes]) -> Callable[[], bytes]:
    """The renderer with its kept text and ground emptied first, as for a battle's first map."""

    def run() -> bytes:
        text.rendered.cache_clear()
        text.width.cache_clear()
        forget_grounds()
        return render()

    return run


def matplotlib_version(state: BattleState, events: tuple[Event, ...]) -> Callable[[], bytes] | None:
    """The same scene drawn with matplotlib (Agg), or None if matplotlib is not installed."""
    try:
        from bench.maps_matplotlib import renderer  # lazy: matplotlib is optional
    except ImportError:
        return None
    return renderer(state, events, WIDTH, HEIGHT)


def main(argv: list[str] | None = None) -> int:
    """Print the figures; exit 1 if a target is missed."""
    parser = argparse.ArgumentParser(
        prog="python -m bench.maps", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--runs", type=int, default=21, help="renders per measurement")
    runs = parser.parse_args(argv).runs
    state, events = busy_battle()
    render = ours(state, events)
    render()  # the first render loads the fonts
    warm, first = timed(render, runs), timed(cold(render), max(runs // 3, 3))
    kb = warm.size / 1024
    features = len(state.terrain)
    print(f"scene: {WIDTH}x{HEIGHT} px, {len(state.units)} units, {features} terrain features")
    print(f"ours: median {warm.wall_ms:.1f} ms (target <= {TARGET_MS:g}), CPU {warm.cpu_ms:.1f} ms")
    print(f"ours: PNG {kb:.0f} KB (target <= {TARGET_KB:g} KB)")
    print(f"ours, a battle's first map (nothing kept): median {first.wall_ms:.1f} ms")
    ok = warm.wall_ms <= TARGET_MS and kb <= TARGET_KB
    other = matplotlib_version(state, events)
    if other is None:
        print("matplotlib comparison skipped: matplotlib is not installed (pip install matplotlib)")
        return 0 if ok else 1
    theirs = timed(other, max(runs // 3, 3))
    ratio = theirs.wall_ms / warm.wall_ms
    print(f"matplotlib: median {theirs.wall_ms:.1f} ms, PNG {theirs.size / 1024:.0f} KB")
    print(f"ours is {ratio:.1f} times faster (target >= {TARGET_RATIO:g})")
    print(f"ours, a battle's first map, is {theirs.wall_ms / first.wall_ms:.1f} times faster")
    return 0 if ok and ratio >= TARGET_RATIO else 1


def figures(runs: int) -> list[Figure]:
    """Median render time and PNG size of the busy 120-unit map, warm and cold."""
    state, events = busy_battle()
    render = ours(state, events)
    render()  # the first render loads the fonts
    warm = timed(render, runs)
    first = timed(cold(render), max(runs // 3, 1))
    kb = warm.size / 1024
    return [
        Figure(
            "map 120 units: render median",
            warm.wall_ms,
            "ms",
            f"<= {TARGET_MS:g} ms",
            warm.wall_ms <= TARGET_MS,
        ),
        Figure("map 120 units: first map (nothing kept)", first.wall_ms, "ms"),
        Figure("map 120 units: PNG size", kb, "KB", f"<= {TARGET_KB:g} KB", kb <= TARGET_KB),
    ]


if __name__ == "__main__":
    raise SystemExit(main())
