"""Sample battles: each side's army placed from its army file, on a table in inches.

The rulesets' ``sample`` modules hold their armies' places, terrain and names; this builds the
battle from them the same way for each.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from rules_core.codec import Json
from rules_core.forces import placed_units
from rules_core.hooks import Forces
from rules_core.state import Battlefield, BattleState, Group, Leader, Side, TerrainFeature, Unit
from rules_core.steps import Cursor

# One side's placed pieces: its units, leaders and groups.
Army = tuple[list[Unit], list[Leader], list[Group]]
Places = Sequence[tuple[float, float]]  # where each unit stands (x, y), in army file order


def placed_army(
    data: Mapping[str, Json],
    side: str,
    places: Places,
    facing: float,
    forces: Callable[[Mapping[str, Json], str], Forces],
    make: Callable[[Mapping[str, Json], str], Unit],
) -> Army:
    """The units (made by ``make``, set at ``places`` facing ``facing``), leaders and groups
    (from ``forces``) of one army file."""
    groups, leaders = forces(data, side)
    return placed_units(data, side, places, facing, make), list(leaders), list(groups)


def sample_state(
    battle_id: str,
    ruleset: str,
    table: tuple[float, float],
    armies: Sequence[tuple[Side, Army]],
    terrain: tuple[TerrainFeature, ...],
    groups: Sequence[Group] = (),
    step: str = "",
    parameters: Mapping[str, Json] | None = None,
    status: Mapping[str, Json] | None = None,
) -> BattleState:
    """A battle in its setup of ``armies`` (each side with its pieces) on a table of ``table``
    inches, at ``step``; ``groups`` come before the armies' own."""
    sides = tuple(side for side, _ in armies)
    return BattleState(
        battle_id=battle_id,
        ruleset=ruleset,
        battlefield=Battlefield(*table, "inch", 25.4),
        cursor=Cursor(0, "setup", step, tuple(side.id for side in sides)),
        sides=sides,
        groups=(*groups, *(group for _, army in armies for group in army[2])),
        leaders=tuple(leader for _, army in armies for leader in army[1]),
        units=tuple(unit for _, army in armies for unit in army[0]),
        terrain=terrain,
        parameters=parameters or {},
        status=status or {},
    )
