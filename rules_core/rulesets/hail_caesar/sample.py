"""A sample battle: the sample Roman and Gallic armies across a 60" by 48" table.

Editable defaults for tests and demonstrations, not a balanced scenario. The battle sets
the units out where ``ROMANS_AT`` and ``GAULS_AT`` say (16" deployment bands on its larger
table); the army files' own ``at`` fit the usual 48 x 36" table of ``/battle create``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules_core.rulesets.hail_caesar.profiles import leader_from_entry, load_army, unit_from_entry
from rules_core.samples import Army, sample_state
from rules_core.state import BattleState, Group, Leader, Side, TerrainFeature, Unit

WIDTH, DEPTH = 60.0, 48.0
TERRAIN = (
    TerrainFeature("hill1", "hill", ((2, 18), (12, 18), (12, 28), (2, 28)), "Gergovia Hill"),
    TerrainFeature("wood1", "wood", ((50, 20), (58, 20), (58, 28), (50, 28)), "Sacred Grove"),
)
# Where the sample battle sets each unit out, by name: x, y in inches, facing in degrees.
ROMANS_AT = {
    "First Cohort": (20, 8, 0),
    "Second Cohort": (28, 8, 0),
    "Third Cohort": (24, 3, 0),
    "Cretan Archers": (24, 14, 0),
    "Gallic Horse": (40, 8, 0),
    "Numidians": (48, 8, 0),
}
GAULS_AT = {
    "Arverni Warband": (20, 40, 180),
    "Carnutes Warband": (28, 40, 180),
    "Slingers": (24, 34, 180),
    "Noble Horse": (40, 40, 180),
    "Young Riders": (48, 40, 180),
}
Place = tuple[float, float, float]


def army_pieces(
    data: dict[str, Any], side: str, prefix: str, places: Mapping[str, Place] | None = None
) -> Army:
    """The units, generals and divisions of one army file, placed by name in ``places``
    (else where the file's ``at`` says)."""
    leaders = [leader_from_entry(entry, side) for entry in data.get("leaders", [])]
    units: list[Unit] = []
    for index, entry in enumerate(data["units"], start=1):
        unit = unit_from_entry(entry, f"{prefix}{index}", side, str(entry["division"]))
        x, y, facing = (places or {}).get(str(entry["name"])) or entry.get("at", [0, 0, 0])
        units.append(_at(unit, float(x), float(y), float(facing)))
    groups = []
    for division in dict.fromkeys(u.group for u in units):
        leader = next((ld for ld in leaders if ld.group == division), None)
        chief = leader.id if leader else None
        groups.append(Group(division, _title(division), side, "division", chief))
    placed = [_beside(ld, [u for u in units if u.group == ld.group]) for ld in leaders]
    return units, placed, groups


def _at(unit: Unit, x: float, y: float, facing: float) -> Unit:
    from dataclasses import replace

    return replace(unit, x=x, y=y, facing=facing)


def _beside(leader: Leader, units: list[Unit]) -> Leader:
    """A general placed behind the middle of his division."""
    from dataclasses import replace

    if not units:
        return leader
    x = sum(u.x for u in units) / len(units)
    y = sum(u.y for u in units) / len(units)
    back = -3.0 if units[0].facing == 0 else 3.0
    return replace(leader, x=round(x, 2), y=round(y + back, 2))


def _title(division: str) -> str:
    return division.split("_", 1)[-1].replace("_", " ").title()


def sample_battle(battle_id: str = "hail-caesar-1") -> BattleState:
    """A ready-to-begin battle: Legio IX against the Arverni, already deployed."""
    armies = (
        (
            Side("rom", "Legio IX", {"deploy_zone": [0, 16]}),
            army_pieces(load_army("romans"), "rom", "r", ROMANS_AT),
        ),
        (
            Side("gau", "Arverni", {"deploy_zone": [32, 48]}),
            army_pieces(load_army("gauls"), "gau", "g", GAULS_AT),
        ),
    )
    return sample_state(battle_id, "hail_caesar", (WIDTH, DEPTH), armies, TERRAIN, step="deploy")
