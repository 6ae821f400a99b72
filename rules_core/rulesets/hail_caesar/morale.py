"""Hits, morale saves, casualties, shaken, break tests and what their results do.

Shooting and hand-to-hand share these. Pools hit on a score (4+ by default) moved by the
to-hit modifiers; each hit is saved on the target's morale save moved by the save modifiers.
Both are shown in the roll's label; break tests are 2D6 rolls with their modifiers.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rules_core import paths, profile
from rules_core.codec import Json
from rules_core.context import Context
from rules_core.dice import Modifier, Purpose, Roll
from rules_core.events import StatusChanged
from rules_core.geometry import facing_towards
from rules_core.odds import Dist, RollSpec
from rules_core.rulesets.hail_caesar import measure, tables
from rules_core.rulesets.hail_caesar.status import (
    BROKEN_DIVISIONS,
    CASUALTIES,
    DIVISION_UNITS,
    LOST,
    SHAKEN,
)
from rules_core.rulesets.hail_caesar.tables import BREAK_AS, break_tables, modifier
from rules_core.rulesets.hail_caesar.topics import HOLD_OR_RETREAT, HOLD_WORDS
from rules_core.state import BattleState, Unit
from rules_core.tables import ScoreTable
from rules_core.toolkit import g, param_number
from rules_core.unit_questions import options_of, unit_question

GIVE_GROUND = {"give_ground", "give_ground_disordered", "give_ground_disordered_alone"}
RETREATS = {"retreat", "retreat_disordered"}


def describe(modifiers: Sequence[Modifier]) -> str:
    """Modifiers as words for a roll label, e.g. "+1 charging, -1 disordered"."""
    return ", ".join(m.describe() for m in modifiers) or "no modifiers"


def attack_roll(
    label: str,
    dice: int,
    modifiers: Sequence[Modifier],
    params: Mapping[str, Json],
    purpose: Purpose | None = None,
) -> RollSpec | None:
    """An attack pool (None without dice); it needs the base score moved by the modifiers."""
    if dice <= 0:
        return None
    base = int(param_number(params, "hit_score"))
    need = min(6, max(2, base - sum(m.value for m in modifiers)))
    text = f"{label} (hits on {base}+, {describe(modifiers)} → {need}+)"
    return RollSpec(text, dice, mode="pool", target=need, purpose=purpose)


def attack(ctx: Context, label: str, dice: int, modifiers: Sequence[Modifier]) -> Roll | None:
    """Roll an attack pool; the score needed is the base score moved by the modifiers."""
    spec = attack_roll(label, dice, modifiers, ctx.params)
    return None if spec is None else spec.roll(ctx.dice)


def save_roll(target: Unit, hits: int, modifiers: Sequence[Modifier]) -> RollSpec | None:
    """The morale saves against ``hits`` (one or more); None when no hit can be saved."""
    save = profile.number(target, "morale")
    need = save - sum(m.value for m in modifiers)
    if save <= 0 or need > 6:
        return None
    need = max(2, need)
    text = f"Morale saves: {target.name} (save {save}+, {describe(modifiers)} → {need}+)"
    why = Purpose(target.id, "morale saves")
    return RollSpec(text, hits, mode="pool", target=need, purpose=why)


def saves(ctx: Context, target: Unit, hits: int, modifiers: Sequence[Modifier]) -> int:
    """Roll the target's morale saves against hits; returns the casualties (unsaved hits)."""
    if hits <= 0:
        return 0
    spec = save_roll(target, hits, modifiers)
    return hits if spec is None else hits - spec.roll(ctx.dice).total


def casualties(target: Unit, hits: Dist, modifiers: Sequence[Modifier]) -> Dist:
    """The casualties a distribution of hits causes once the target's saves are rolled."""

    def unsaved(count: int) -> Dist:
        spec = save_roll(target, count, modifiers) if count > 0 else None
        if spec is None:
            return Dist.certain(max(0, count))
        return spec.distribution().map(lambda saved: count - saved)

    return hits.then(unsaved)


def save_rows(state: BattleState, target: Unit, weapon: str = "") -> list[tuple[str, str]]:
    """The rows of the morale-save table that apply, each with the reason the log gives."""
    rows: list[tuple[str, str]] = []
    kinds = measure.terrain_kinds_at(state, target)
    if target.formation in ("square", "wedge"):
        rows.append(("square_or_wedge", target.formation))
    if kinds & {"wood", "dense_wood"}:
        rows.append(("cover", "cover"))
    if target.formation == "testudo":
        rows.append(("testudo", "testudo"))
    if "village" in kinds:
        rows.append(("buildings", "buildings"))
    if "fortification" in kinds:
        rows.append(("fortifications", "fortifications"))
    if weapon == "light_artillery":
        rows.append(("light_artillery", "hit by light artillery"))
    if weapon in ("medium_artillery", "heavy_artillery"):
        rows.append(("medium_or_heavy_artillery", "hit by medium or heavy artillery"))
    if target.formation == "column":
        rows.append(("column", "column"))
    return rows


def save_modifiers(
    state: BattleState, target: Unit, weapon: str = "", ranged: bool = False
) -> list[Modifier]:
    """The morale-save modifiers: the rows that apply, each number from the sheet's table.

    The sheet prints the table twice, under hand-to-hand and under ranged attacks; each
    attack reads its own copy.
    """
    table = tables.MORALE_SAVE_MODIFIERS_RANGED if ranged else tables.MORALE_SAVE_MODIFIERS
    return [Modifier(modifier(table, row), why) for row, why in save_rows(state, target, weapon)]


def add_casualties(ctx: Context, unit_id: str, count: int, reason: str) -> int:
    """Add casualties up to the unit's stamina (shaken at stamina); returns the excess."""
    if count <= 0 or not alive(ctx.state, unit_id):
        return 0
    unit = ctx.state.unit(unit_id)
    stamina = profile.number(unit, "stamina", 6)
    before = CASUALTIES.of(unit)
    after = min(stamina, before + count)
    changes: dict[str, int | bool] = {"casualties": after}
    if after >= stamina:
        changes["shaken"] = True
    ctx.set_status(unit_id, reason, **changes)
    check_divisions(ctx, reason)
    return before + count - after


def alive(state: BattleState, unit_id: str) -> bool:
    """True if the unit is still on the table."""
    return state.owner("unit", unit_id) is not None  # by id, kept per state: no scan


def remove(ctx: Context, unit_id: str, reason: str) -> None:
    """Take a broken or shattered unit off the table, counting it against its division."""
    if not alive(ctx.state, unit_id):
        return
    unit = ctx.state.unit(unit_id)
    side = ctx.state.side(unit.side)
    lost: dict[str, Json] = dict(_mapping(LOST.of(side)))
    lost[unit.group] = _mapping(LOST.of(side)).get(unit.group, 0) + 1
    ctx.set_side_status(side.id, None, lost=lost)
    ctx.destroy(unit_id, reason)
    check_divisions(ctx, reason)


def _mapping(value: object) -> dict[str, int]:
    if not isinstance(value, dict):
        return {}
    return {str(k): int(v) for k, v in value.items() if isinstance(v, int)}


def division_counts(state: BattleState, side: str, division: str) -> tuple[int, int]:
    """A division's units lost or shaken, and its units at the start.

    The start is the count ``prepare`` kept, so units taken off by other means (a GM) count
    as lost too; a state that never went through ``prepare`` counts the lost and present.
    """
    kept = state.side(side)
    lost = _mapping(LOST.of(kept)).get(division, 0)
    present = [u for u in state.units_of(side) if u.group == division]
    shaken = sum(1 for u in present if SHAKEN.of(u))
    total = max(_mapping(DIVISION_UNITS.of(kept)).get(division, 0), lost + len(present))
    return total - len(present) + shaken, total


def _tallies(state: BattleState) -> dict[str, dict[str, list[int]]]:
    """Each side's divisions, in roster order, with their units present and shaken: every
    side's counts from one pass over the units."""
    found: dict[str, dict[str, list[int]]] = {}
    for unit in state.units:
        tally = found.setdefault(unit.side, {}).setdefault(unit.group, [0, 0])
        tally[0] += 1
        tally[1] += SHAKEN.of(unit)
    return found


def divisions_of(state: BattleState, side: str) -> list[str]:
    """Every division a side began with, in roster order."""
    kept = state.side(side)
    found = list(_mapping(DIVISION_UNITS.of(kept)))
    found += [u.group for u in state.units_of(side)]
    found += list(_mapping(LOST.of(kept)))
    return list(dict.fromkeys(found))


def broken_divisions(state: BattleState, side: str) -> list[str]:
    """The side's divisions already marked broken (a GM's ``/gm status`` types them as text:
    division ids, comma-separated)."""
    value = BROKEN_DIVISIONS.of(state.side(side))
    if isinstance(value, str):
        return [part.strip() for part in value.split(",") if part.strip()]
    return [str(v) for v in value] if isinstance(value, list) else []


def check_divisions(ctx: Context, reason: str) -> None:
    """Mark divisions broken once more than the parameter's share of units is lost or shaken."""
    share = ctx.number("division_break_share")
    # Counted for every division at once (marking one broken changes no count), in the order
    # of ``divisions_of``: its start counts, then divisions present, then those lost.
    tallies = _tallies(ctx.state)
    for side in ctx.state.sides:
        broken = broken_divisions(ctx.state, side.id)
        present = tallies.get(side.id, {})
        lost, started = _mapping(LOST.of(side)), _mapping(DIVISION_UNITS.of(side))
        for division in dict.fromkeys([*started, *present, *lost]):
            here, shaken = present.get(division, (0, 0))
            total = max(started.get(division, 0), lost.get(division, 0) + here)
            bad = total - here + shaken
            if division not in broken and total and bad > share * total:
                broken.append(division)
                marked: list[Json] = list(broken)
                ctx.set_side_status(side.id, None, broken_divisions=marked)
                why = f"{reason}: {bad} of its {total} units lost or shaken"
                ctx.emit(StatusChanged(division, "broken", False, True, why))


def break_table(params: Mapping[str, Json], unit: Unit, test: str) -> ScoreTable:
    """The hand-to-hand or ranged break-test table for the unit's troop type."""
    rows = params[f"break_test_{test}"]
    troop = BREAK_AS.get(unit.type, "infantry")
    return break_tables(rows, "Break test" if test == "hand_to_hand" else "Ranged break test")[
        troop
    ]


def break_roll(unit: Unit, modifiers: Sequence[Modifier], why: str) -> RollSpec:
    """A break test's 2D6 with its modifiers."""
    purpose = Purpose(unit.id, "break test", row=why)
    return RollSpec(
        f"Break test: {unit.name} ({why})", 2, modifiers=tuple(modifiers), purpose=purpose
    )


def break_test(ctx: Context, unit: Unit, test: str, modifiers: Sequence[Modifier], why: str) -> str:
    """Roll a break test (2D6) on the hand-to-hand or ranged table for the unit's troop type."""
    table = break_table(ctx.params, unit, test)
    roll = break_roll(unit, modifiers, why).roll(ctx.dice)
    band = ctx.test(unit.id, table.name, roll, table, ("hold",))
    return band.result


def fall_back(ctx: Context, unit_id: str, enemy: Unit, length: float, note: str) -> bool:
    """Move a unit directly away from an enemy, keeping its facing; False if it left the table.

    The path is checked as it goes: a unit in the way stops it short, even one standing
    between it and the table edge, so only a clear path carries a unit off the table.
    """
    unit = ctx.state.unit(unit_id)
    heading = facing_towards((enemy.x, enemy.y), (unit.x, unit.y))
    move = paths.sweep(ctx.state, unit, heading, length, leaves_table=True)
    if not measure.on_table(ctx.state, move.end):
        remove(ctx, unit_id, f"{note} off the table")
        return False
    notes = [note]
    if move.blocker is not None:
        notes.append(f'stops short after {g(move.reached)}": {_way(ctx, move.blocker)}')
    end = (round(move.end.x, 4), round(move.end.y, 4))
    ctx.move(unit_id, [(unit.x, unit.y), end], unit.facing, tuple(notes))
    return True


def _way(ctx: Context, blocker: paths.Blocker) -> str:
    """The unit in a retreating unit's way."""
    return f"{ctx.state.unit(blocker.id).name} in the way"


def disorder(ctx: Context, unit_id: str, reason: str) -> None:
    """Put a disorder marker on a unit still on the table."""
    if alive(ctx.state, unit_id):
        ctx.set_status(unit_id, reason, disordered=True)


def apply_hand_to_hand(
    ctx: Context, unit_id: str, result: str, enemy: Unit, helpers: Sequence[str]
) -> str:
    """Carry out a hand-to-hand break-test result; returns "broken", "moved" or "held"."""
    unit = ctx.state.unit(unit_id)
    shaken = SHAKEN.of(unit)
    if result == "break" or (result.startswith("break_if_shaken") and shaken):
        remove(ctx, unit_id, "breaks")
        return "broken"
    if result == "hold":
        return "held"
    length = ctx.number("give_ground_distance")
    disordered = result != "give_ground"
    together = result in ("give_ground", "give_ground_disordered", "break_if_shaken")
    for key in (unit_id, *(helpers if together else ())):
        moved = alive(ctx.state, key) and fall_back(ctx, key, enemy, length, "gives ground")
        if moved and disordered and (key == unit_id or result == "break_if_shaken"):
            disorder(ctx, key, "gives ground disordered")
    return "moved"


def apply_ranged(ctx: Context, unit_id: str, result: str, shooter: Unit) -> None:
    """Carry out a ranged break-test result: hold, retreat, break, or the player's choice."""
    unit = ctx.state.unit(unit_id)
    if result == "break_if_shaken_retreat":
        result = "break" if SHAKEN.of(unit) else "retreat_disordered"
    if result == "break_if_casualties":
        result = "break" if CASUALTIES.of(unit) else "retreat_disordered"
    if result == "hold_disordered_or_retreat":
        result = _hold_or_retreat(ctx, unit, shooter)
    if result == "break":
        remove(ctx, unit_id, "breaks under fire")
    elif result in RETREATS:
        if fall_back(ctx, unit_id, shooter, measure.rate(unit), "retreats") and (
            result == "retreat_disordered"
        ):
            disorder(ctx, unit_id, "retreats disordered")
    elif result == "hold_disordered":
        disorder(ctx, unit_id, "holds its ground disordered")


def _hold_or_retreat(ctx: Context, unit: Unit, shooter: Unit) -> str:
    question = f"{unit.name}: hold its ground disordered or retreat in good order?"
    key, options = f"hold_or_retreat:{unit.id}", options_of(HOLD_WORDS)
    return ctx.ask(
        unit_question(key, question, options, "hold_disordered", (unit, shooter), HOLD_OR_RETREAT)
    )
