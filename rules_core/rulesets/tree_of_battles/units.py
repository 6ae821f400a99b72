"""A contingent's values and state (grade, array, DPs, casualties), and the changes to them."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from rules_core import profile
from rules_core.codec import Json
from rules_core.context import Context
from rules_core.rulesets.tree_of_battles.status import ARRAY, CASUALTIES, DPS, MOUNTED, RANKS
from rules_core.state import BattleState, Leader, Unit
from rules_core.status import Scope

ARMOUR_ORDER = ("unarmoured", "armoured", "full_harness")
LOOSE_ARRAYS = ("column", "skirmish", "disarray")  # spared rough-terrain and wheel DPs


def array(unit: Unit) -> str:
    """The contingent's array: good, column, skirmish, square or disarray."""
    return ARRAY.of(unit) or unit.formation or "good"


def dps(unit: Unit) -> int:
    """Disorder points (DPs) the contingent carries."""
    return DPS.of(unit)


def casualties(unit: Unit) -> int:
    """Casualties taken; each costs a stand."""
    return CASUALTIES.of(unit)


def stands_left(unit: Unit) -> int:
    """Stands still in the contingent."""
    return max(0, unit.stands - casualties(unit))


def front_stands(unit: Unit) -> int:
    """Stands in the front rank (one per SF of frontage), never more than are left."""
    return max(1, min(round(unit.frontage), stands_left(unit)))


def ranks(unit: Unit) -> int:
    """Ranks of stands, front to rear."""
    return max(1, RANKS.of(unit))


def mounted(unit: Unit) -> bool:
    """True for horse."""
    return MOUNTED.of(unit)


def missile(unit: Unit) -> str:
    """The missile kind: archers, crossbowmen, hand_gunners, skirmishers, artillery or none."""
    return profile.text(unit, "missile", "none")


def chivalrous(unit: Unit) -> bool:
    """True for chivalrous troops."""
    return profile.flag(unit, "chivalrous")


def armour(unit: Unit) -> int:
    """Armour class as a number: 0 unarmoured, 1 armoured, 2 full harness."""
    found = profile.text(unit, "armour", "unarmoured")
    return ARMOUR_ORDER.index(found) if found in ARMOUR_ORDER else 0


def foot_skirmishers(unit: Unit) -> bool:
    """True for foot skirmishers (the troop type)."""
    return unit.type == "foot_skirmishers"


def skirmishers(unit: Unit) -> bool:
    """True for skirmishers, foot or mounted (the troop type)."""
    return unit.type in ("foot_skirmishers", "mounted_skirmishers")


def grade_rank(grade: str) -> int:
    """A grade as a number, A highest."""
    return "DCBA".index(grade) if grade in ("A", "B", "C", "D") else 1


def understrength(unit: Unit, share: float) -> bool:
    """True when fewer than ``share`` of the contingent's stands are left."""
    return stands_left(unit) < unit.stands * share


def one_dp_per_stand(unit: Unit) -> bool:
    """True when the contingent carries at least 1 DP per stand in its front rank."""
    return dps(unit) >= front_stands(unit)


def leaders_with(state: BattleState, unit: Unit) -> tuple[Leader, ...]:
    """Leaders fighting with (attached to) a contingent."""
    return tuple(ld for ld in state.leaders if ld.attached_to == unit.id)


def alive(state: BattleState, unit_id: str) -> bool:
    """True if the contingent is still on the table."""
    try:
        state.unit(unit_id)
    except KeyError:
        return False
    return True


def add_dps(ctx: Context, unit_id: str, count: int, reason: str) -> None:
    """Give a contingent DPs (never below 0), logged with the reason."""
    if count == 0 or not alive(ctx.state, unit_id):
        return
    unit = ctx.state.unit(unit_id)
    ctx.set_status(unit_id, reason, dps=max(0, dps(unit) + count))


def add_casualties(ctx: Context, unit_id: str, count: int, reason: str) -> None:
    """Give a contingent casualties; with no stands left it is destroyed."""
    if count <= 0 or not alive(ctx.state, unit_id):
        return
    unit = ctx.state.unit(unit_id)
    ctx.set_status(unit_id, reason, casualties=casualties(unit) + count)
    if stands_left(ctx.state.unit(unit_id)) == 0:
        ctx.destroy(unit_id, f"no stands left ({reason})")


def set_array(ctx: Context, unit_id: str, new: str, reason: str) -> None:
    """Change a contingent's array, keeping its formation field in step."""
    ctx.set_status(unit_id, reason, array=new)
    unit = ctx.state.unit(unit_id)
    ctx.state = ctx.state.with_unit(replace(unit, formation=new))


def set_flags(ctx: Context, unit_id: str, reason: str, **changes: Json) -> None:
    """Set status fields of a contingent if it is still on the table."""
    if alive(ctx.state, unit_id):
        ctx.set_status(unit_id, reason, **changes)


def mark(ctx: Context, unit_id: str, **changes: Json) -> None:
    """Set bookkeeping marks (moved, shot at, charged this turn) without a log line each."""
    if alive(ctx.state, unit_id):
        ctx.set_status(unit_id, None, **changes)


def mark_all(ctx: Context, marks: Mapping[str, Mapping[str, Json]]) -> None:
    """``mark`` for many contingents at once: one new state rather than one per contingent
    (each new state costs a pass over every unit, so marking them all one by one grows as
    the square of the units)."""
    for changes in marks.values():
        ctx.rules.statuses.check(Scope.UNIT, changes)
    found = {k: v for k, v in marks.items() if alive(ctx.state, k)}
    if found:
        units = tuple(
            unit.with_status(**found[unit.id]) if unit.id in found else unit
            for unit in ctx.state.units
        )
        ctx.state = replace(ctx.state, units=units)
