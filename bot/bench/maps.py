"""The map benchmark (``bot.rendering.bench``) as figures of the table."""

from __future__ import annotations

from bot.bench.report import Figure
from bot.rendering import bench


def figures(runs: int) -> list[Figure]:
    """Median render time and PNG size of the busy 120-unit map, warm and cold."""
    state, events = bench.busy_battle()
    render = bench.ours(state, events)
    render()  # the first render loads the fonts
    warm = bench.timed(render, runs)
    cold = bench.timed(bench.cold(render), max(runs // 3, 1))
    kb = warm.size / 1024
    ms_target, kb_target = bench.TARGET_MS, bench.TARGET_KB
    return [
        Figure(
            "map 120 units: render median",
            warm.wall_ms,
            "ms",
            f"<= {ms_target:g} ms",
            warm.wall_ms <= ms_target,
        ),
        Figure("map 120 units: first map (nothing kept)", cold.wall_ms, "ms"),
        Figure("map 120 units: PNG size", kb, "KB", f"<= {kb_target:g} KB", kb <= kb_target),
    ]
