"""The issue's targets applied to the engine's figures."""

from __future__ import annotations

from dataclasses import dataclass

from bench.engine import Played
from bench.report import Figure

TURN_MS = 50.0  # one full turn at 2 x 60 units, engine time p50
TARGET_UNITS = 120
LINEAR_SLACK = 1.2  # #37: cost per unit from 12 to 240 units grows at most this much


def engine_targets(played: list[Played]) -> list[Figure]:
    """Per-turn p50 and the largest single call of every battle, with growth per ruleset."""
    figures = []
    for p in played:
        name = f"engine {p.ruleset} {p.units} units: full turn p50"
        near = abs(p.units - TARGET_UNITS) <= 10
        if not p.turns:  # the battle ended before a whole turn: nothing to compare
            figures.append(Figure(f"{name}: no full turn, the battle {p.ended}", 0.0, "ms"))
        else:
            target = f"<= {TURN_MS:g} ms" if near else ""
            figures.append(Figure(name, p.p50, "ms", target, p.p50 <= TURN_MS if near else None))
        largest = f"engine {p.ruleset} {p.units} units: largest single call"
        figures.append(Figure(largest, p.largest, "ms"))
    timed = [p for p in played if p.turns]  # growth only between battles that played a turn
    figures += [
        _growth(p, timed)
        for p in timed
        if p is _largest(p.ruleset, timed)
        and len({q.units for q in timed if q.ruleset == p.ruleset}) > 1
    ]
    return figures


def _largest(ruleset: str, played: list[Played]) -> Played:
    """The battle of a ruleset with the most units."""
    return max((p for p in played if p.ruleset == ruleset), key=lambda p: p.units)


def _growth(big: Played, played: list[Played]) -> Figure:
    """How much more a unit costs per turn in the biggest battle than in the smallest."""
    small = min((p for p in played if p.ruleset == big.ruleset), key=lambda p: p.units)
    ratio = _per_unit(big) / _per_unit(small) if _per_unit(small) else 0.0
    name = f"engine {big.ruleset}: cost per unit, {big.units} vs {small.units} units"
    return Figure(name, ratio, "x", f"<= {LINEAR_SLACK:g} x", ratio <= LINEAR_SLACK)


def _per_unit(p: Played) -> float:
    """Turn time per unit."""
    return p.p50 / p.units if p.units else 0.0


@dataclass(frozen=True)
class Target:
    """One of #37's (or #34's) targets: the figure that shows it (found by a part of its name)."""

    key: str
    name: str
    target: str
    measured_by: str


# Every target of #37 (the engine's turn per ruleset is ``engine_targets``'s). A target no
# figure measured is still printed, as "not measured" with the reason, so the table is the
# whole list: a figure whose name contains ``key`` fills the slot.
ISSUE_TARGETS = (
    Target("loop CPU per command", "loop CPU per command: p50", "<= 3 ms", "bench.live"),
    Target("burst of 100 (SQLite): p99", "interaction burst of 100 (SQLite): p99",
           "<= 300 ms", "bench.live"),
    Target("burst of 100 (PostgreSQL): p99", "interaction burst of 100 (PostgreSQL): p99",
           "<= 300 ms", "bench.live with TEST_POSTGRES_URL set"),
    Target("/orders mine", "/orders mine with a full turn's plan", "<= 20 ms",
           "bench.orders_mine"),
    Target("bot process resident memory", "bot process resident memory, 1,000 campaigns and "
           "100 battles", "<= 150 MB", "bench.live"),
    Target("engine worker resident memory", "engine worker resident memory", "<= 80 MB",
           "bench.live"),
    Target("replay GIF", "a 60-step replay GIF: CPU", "<= 3 s",
           "bench.replay"),
    Target("last handler began", "1,000 deadlines due at once: last handler began late",
           "<= 1000 ms", "bench.live"),
    Target("largest single loop callback", "largest single loop callback while a 120-unit "
           "battle resolves", "<= 20 ms", "bench.loop_lag"),
    # #34's war table
    Target("war table first page (120 units): server CPU", "war table first page (120 units): "
           "server CPU", "<= 300 ms", "bench.web"),
    Target("war table first page (120 units): HTML", "war table first page (120 units): HTML "
           "with its SVG", "<= 400 KB", "bench.web"),
    Target("war table update reaching an open page: p50", "war table update reaching an open "
           "page: p50", "<= 100 ms", "bench.web"),
    Target("war table: longest loop callback", "war table: longest loop callback while pages "
           "are served", "<= 20 ms", "bench.web"),
    # #35's war table, planning by pointing
    Target("war table judgement while dragging (120 units)", "war table judgement while "
           "dragging (120 units): server CPU p50", "<= 50 ms", "bench.web_judge"),
)  # fmt: skip


def with_slots(figures: list[Figure], skipped: dict[str, str] | None = None) -> list[Figure]:
    """The figures, then a "not measured" line for each #37 target none of them shows (why:
    ``skipped`` by the target's key, else the part of the benchmark that measures it)."""
    skipped = skipped or {}
    missing = [t for t in ISSUE_TARGETS if not any(t.key in f.name for f in figures)]
    return figures + [
        Figure(
            f"{t.name}: not measured ({skipped.get(t.key, 'needs ' + t.measured_by)})",
            0.0,
            "",
            t.target,
            None,
        )
        for t in missing
    ]
