"""The Combat step's rolls: who a unit counts as, its combat dice at an enemy (the Combat dice
table and its modifiers) and the target's saving throws, rolled by the step and read by the odds.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rules_core.codec import Json
from rules_core.context import Context
from rules_core.dice import Modifier, Purpose
from rules_core.events import TestResolved
from rules_core.geometry import Footprint, quarter, range_from_front, within
from rules_core.odds import RollSpec
from rules_core.rulesets.pike_and_shot import cohesion as co
from rules_core.rulesets.pike_and_shot import kept, profiles
from rules_core.rulesets.pike_and_shot import status as st
from rules_core.rulesets.pike_and_shot import tables as t
from rules_core.state import BattleState, Unit

# -- who is what -----------------------------------------------------------------------------


def mounted(unit: Unit) -> bool:
    """Mounted: cavalry, and dragoons that are not dismounted (``profiles.is_mounted``)."""
    return profiles.is_mounted(unit)


def size(unit: Unit) -> str:
    """tercio, double, brigade or company (``cohesion.size``)."""
    return co.size(unit)


def company(unit: Unit) -> bool:
    """A company (a sub-unit)."""
    return profiles.is_company(unit)


def infantry(unit: Unit) -> bool:
    """Foot: not mounted and not artillery (dismounted dragoons are foot)."""
    return not mounted(unit) and unit.type not in t.ARTILLERY


def dice_row(unit: Unit) -> str:
    """The Combat dice row a unit reads (dismounted dragoons read the detachments' row)."""
    if unit.type == "dragoons" and st.DISMOUNTED.of(unit):
        return "dismounted_dragoons"
    return unit.type if unit.type in t.COMBAT_DICE.rows else "infantry_brigade"


def shooting_range(unit: Unit) -> float:
    """The unit's range in inches (0: it does not shoot; a march column never does)."""
    if st.MARCH_COLUMN.of(unit):
        return 0.0
    value = t.COMBAT_DICE.lookup(dice_row(unit), "range")
    return float(value) if isinstance(value, int | float) else 0.0


def attacked_edge(target: Unit, attacker: Unit, combat: str = "melee") -> str:
    """The target's edge the attacker fights: in melee the edge it touches ("" if none), in
    shooting the quarter of the target the shooter stands in."""
    here = Footprint.of(target)
    if combat == "shooting":
        return quarter(here, (attacker.x, attacker.y))
    return kept.touching_edge(here, Footprint.of(attacker)) or ""


# -- the dice --------------------------------------------------------------------------------


def _dice_mod(row: str, times: int = 1) -> Modifier:
    return Modifier(t.whole(t.DICE_MODIFIERS, row, "dice") * times, t.sheet(t.DICE_MODIFIERS, row))


def dice_modifiers(unit: Unit, enemy: Unit, combat: str) -> list[Modifier]:
    """Every modifier to the number of d6 a unit rolls at ``enemy`` in ``combat`` ("shooting"
    or "melee"), with the sheet's words; a row counts only in the combats it names."""
    state = st.cohesion(unit)
    found: list[tuple[str, bool]] = [
        ("flank", attacked_edge(enemy, unit, combat) in ("left", "right")),
        ("pike_vs_mounted", st.PIKE.of(unit) and mounted(enemy)),
        (
            "veteran_volley",
            unit.type in t.VOLLEY_TYPES and unit.quality == "veteran" and state == "sound",
        ),
        (
            "veteran_cavalry",
            unit.quality == "veteran" and unit.type in t.CAVALRY_TYPES and unit.type != "dragoons",
        ),
        ("lance", st.LANCE.of(unit) and st.cohesion(enemy) != "sound"),
        ("disrupted", state == "disrupted"),
        ("company_march_column", st.MARCH_COLUMN.of(unit) and company(unit)),
        ("brigade_march_column", st.MARCH_COLUMN.of(unit) and not company(unit)),
        ("routed", state == "routed"),
    ]
    return [
        _dice_mod(row)
        for row, applies in found
        if applies and t.DICE_MODIFIERS.lookup(row, "combats") in ("all", combat)
    ]


def base_dice(unit: Unit, combat: str) -> int:
    """The Combat dice table's number for the unit (0 for the sheet's "-")."""
    value = t.COMBAT_DICE.lookup(dice_row(unit), combat)
    return int(value) if isinstance(value, int) else 0


def dice_count(unit: Unit, enemy: Unit, combat: str) -> tuple[int, int, list[Modifier]]:
    """(dice rolled, the table's dice, the modifiers). A march column in melee rolls at least
    the "March Columns" row's die; otherwise a unit whose dice fall to 0 rolls none."""
    base = base_dice(unit, combat)
    mods = dice_modifiers(unit, enemy, combat)
    count = base + sum(m.value for m in mods) if base else 0
    if combat == "melee" and st.MARCH_COLUMN.of(unit):
        floor = base_dice_of_row("march_column", "melee")
        if count < floor:
            mods.append(Modifier(floor - count, "'Rabble' infantry and March Columns | 1 die"))
            count = floor
    return max(0, count), base, mods


def base_dice_of_row(row: str, combat: str) -> int:
    """The combat dice table's base dice for ``row`` in ``combat`` (0 if none)."""
    value = t.COMBAT_DICE.lookup(row, combat)
    return int(value) if isinstance(value, int) else 0


def attack_roll(unit: Unit, enemy: Unit, combat: str) -> RollSpec | None:
    """The unit's combat dice at ``enemy`` (None: no dice), hits on 4+; rolled by the step and
    read by the odds."""
    count, base, mods = dice_count(unit, enemy, combat)
    if count <= 0:
        return None
    row = t.sheet(t.COMBAT_DICE, dice_row(unit)).split(" | ")[0]
    label = (
        f"{combat.title()}: {unit.name} at {enemy.name} ({row}: {base} dice; hits on {t.HIT_ON}+)"
    )
    why = Purpose(unit.id, combat, enemy.id, row)
    return RollSpec(
        label, base, mode="pool", target=t.HIT_ON, dice_modifiers=tuple(mods), purpose=why
    )


# -- the saves -------------------------------------------------------------------------------


def on_high_ground(state: BattleState, unit: Unit, params: Mapping[str, Json]) -> bool:
    """The unit's centre stands on terrain of the ``uphill_terrain`` kinds."""
    kinds = co.kinds(params, "uphill_terrain")
    return co.in_terrain(state, unit, kinds)


def close_range(shooter: Unit, target: Unit, params: Mapping[str, Json]) -> bool:
    """Within ``close_range_share`` of the shooter's range (from its front edge)."""
    share = float(co.num(params, "close_range_share", 0.5))
    apart = range_from_front(Footprint.of(shooter), Footprint.of(target))
    return within(apart, shooting_range(shooter) * share)


def save_modifiers(
    state: BattleState, target: Unit, attacker: Unit, combat: str, params: Mapping[str, Json]
) -> list[Modifier]:
    """Every saving-throw modifier of ``target`` against hits from ``attacker``."""
    level = st.cohesion(target)
    edge = attacked_edge(target, attacker, combat)
    shooting = combat == "shooting"
    artillery = attacker.type in t.ARTILLERY
    close = shooting and close_range(attacker, target, params)
    found: list[tuple[str, bool]] = [
        ("veteran", target.quality == "veteran"),
        (
            "poor_attacker",
            attacker.quality == "raw" or st.cohesion(attacker) in ("disordered", "disrupted"),
        ),
        ("armoured_cavalry", st.ARMOURED.of(target) and mounted(target)),
        (
            "uphill",
            on_high_ground(state, target, params) and not on_high_ground(state, attacker, params),
        ),
        ("cover", st.COVER.of(target) in ("cover", "buildings", "fortifications")),
        ("close_range", close and not artillery),
        ("close_artillery", close and artillery),
        ("disordered", level == "disordered"),
        ("disrupted", level == "disrupted"),
        ("flank", edge in ("left", "right")),
        ("rear", edge == "rear"),
    ]
    table = t.SAVE_MODIFIERS
    return [
        Modifier(t.whole(table, row, "dice"), t.sheet(table, row))
        for row, applies in found
        if applies and table.lookup(row, "combats") in ("all", combat)
    ]


def save_roll(
    state: BattleState, target: Unit, attacker: Unit, combat: str, params: Mapping[str, Json]
) -> RollSpec | None:
    """The target's saving dice against ``attacker``'s hits (None: no dice), saving on 4+."""
    base = t.whole(t.SAVING_DICE, size(target), "dice")
    mods = save_modifiers(state, target, attacker, combat, params)
    if base + sum(m.value for m in mods) <= 0:
        return None
    row = t.sheet(t.SAVING_DICE, size(target)).split(" | ")[0]
    label = f"Saves: {target.name} ({row}: {base} dice; saves on {t.SAVE_ON}+)"
    why = Purpose(target.id, "saves", attacker.id, row)
    return RollSpec(
        label, base, mode="pool", target=t.SAVE_ON, dice_modifiers=tuple(mods), purpose=why
    )


def _note_no_dice(ctx: Context, unit: Unit, what: str, spec_mods: Sequence[Modifier]) -> None:
    mods = "; ".join(m.describe() for m in spec_mods) or "none"
    ctx.emit(TestResolved(unit.id, f"{what}: no dice left ({mods})", 0, False, "0 dice", False))


def hits_and_saves(ctx: Context, attacker: Unit, target: Unit, combat: str) -> tuple[int, int, int]:
    """Roll the attacker's dice and the target's saves: (hits, saves, unsaved)."""
    spec = attack_roll(attacker, target, combat)
    if spec is None:
        _, _, mods = dice_count(attacker, target, combat)
        _note_no_dice(ctx, attacker, f"{combat.title()} of {attacker.name}", mods)
        return 0, 0, 0
    hits = spec.roll(ctx.dice).total
    if not hits:
        return 0, 0, 0
    save = save_roll(ctx.state, target, attacker, combat, ctx.params)
    if save is None:
        mods = save_modifiers(ctx.state, target, attacker, combat, ctx.params)
        _note_no_dice(ctx, target, f"Saves of {target.name}", mods)
        return hits, 0, hits
    saved = min(hits, save.roll(ctx.dice).total)
    return hits, saved, hits - saved
