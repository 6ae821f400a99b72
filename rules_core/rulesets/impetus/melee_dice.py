"""What each unit rolls in a melee: the ground, the impetus bonus, the sheet's modifiers,
supports, depth and pilum, and the cohesion test's modifiers (``melee`` fights with them;
the odds read the same rolls)."""

from __future__ import annotations

import math
from dataclasses import dataclass

from shapely.geometry import Point as ShapelyPoint
from shapely.geometry import Polygon

from rules_core.dice import Modifier, Purpose
from rules_core.geometry import Footprint, edge_distance, in_contact, near
from rules_core.odds import RollSpec
from rules_core.rulesets.impetus import (
    cohesion,
    generals,
    profiles,
    protection,
    spots,
    tables,
)
from rules_core.rulesets.impetus.edges import touching_edge
from rules_core.rulesets.impetus.groups import can_group as _can_group
from rules_core.rulesets.impetus.prebattle import params_of
from rules_core.rulesets.impetus.status import (
    CLOSED_RANKS,
    DISORDERED,
    FRESHNESS,
)
from rules_core.state import BattleState, Unit
from rules_core.tables import GridTable
from rules_core.terrain import feature_shape

ROUGH = {"rough": "broken", "wood": "difficult", "dense_wood": "difficult", "marsh": "difficult"}


DEFENDED = ("village", "fortification")  # "Defending ... Village, Fortification"


WATER = ("river", "stream")  # "Defending River Bank": against an enemy in the water


DISCIPLINE_LEVELS = {"A": 3, "B": 2, "C": 1}


NEAR = 0.05  # H: units this close count as in contact for support and flanks


@dataclass(frozen=True)
class Fight:
    """What one unit brings to a melee: charging, receiving a charge, a new melee."""

    charging: bool = False
    receiving: bool = False
    new_melee: bool = False


# -- ground ---------------------------------------------------------------------------------


def ground(state: BattleState, unit: Unit) -> str | None:
    """The ground "broken" or "difficult" if the unit's centre stands in such ground, else None
    (a feature's ``grade`` property, else its kind: rough is broken; wood, marsh difficult)."""
    found: str | None = None
    for feature in state.terrain:
        grade = feature.properties.get("grade") or ROUGH.get(feature.kind)
        if grade in ("broken", "difficult") and spots.holds(feature, unit.x, unit.y):
            if grade == "difficult":
                return "difficult"
            found = "broken"
    return found


def _inside(state: BattleState, unit: Unit, kinds: tuple[str, ...]) -> bool:
    return any(f.kind in kinds and spots.holds(f, unit.x, unit.y) for f in state.terrain)


def _in_water(state: BattleState, unit: Unit) -> bool:
    """Whether the unit's centre stands in a river or stream (its line with the battle's
    ``river_width``, as the pre-battle lays it)."""
    width = params_of(state)["river_width"]
    half = float(width) / 2 if isinstance(width, int | float) else 1.0
    here = ShapelyPoint(unit.x, unit.y)
    return any(
        f.kind in WATER
        and spots.box_within(f, unit.x, unit.y, half)
        and feature_shape(f).distance(here) <= half
        for f in state.terrain
    )


def _entirely_difficult(state: BattleState, unit: Unit) -> bool:
    footprint = Footprint.of(unit)
    shape = Polygon(footprint.corners())
    for feature in state.terrain:
        grade = feature.properties.get("grade") or ROUGH.get(feature.kind)
        if (
            grade == "difficult"
            and spots.box_covers(feature, footprint.bounds, 1e-6)
            and feature_shape(feature).buffer(1e-6).covers(shape)
        ):
            return True
    return False


# -- the impetus bonus ----------------------------------------------------------------------


def _pole(unit: Unit) -> bool:
    return any(w in tables.POLE_WEAPONS for w in profiles.weapons(unit))


def _camels(unit: Unit) -> bool:
    return unit.profile.get("camels") is True


def _stakes(unit: Unit) -> bool:
    return unit.profile.get("stakes") is True or unit.profile.get("pavise") is True


def nullified_by(state: BattleState, charger: Unit, target: Unit) -> str | None:
    """The first "IMPACT BONUS NULLIFIED" row that holds, or None."""
    kind, other = profiles.troop_type(charger), profiles.troop_type(target)
    rough = ground(state, charger) or ground(state, target)
    light = other == "S" or (other == "FL" and not profiles.impetuous(target))
    steady = other in ("W", "EL") or _camels(target) or (profiles.foot(target) and _pole(target))
    excepted = ((kind == "EL" or _camels(charger)) and _camels(target)) or (
        kind == "EL" and other == "EL"
    )
    checks = {
        "exhausted": FRESHNESS.of(charger) == "exhausted",
        "foot_v_mounted": profiles.foot(charger) and profiles.mounted(target),
        "mounted_v_steady": profiles.mounted(charger) and steady and not excepted,
        "el_v_light": kind == "EL" and light,
        "fortified": protection.fortification(state, target, charger) is not None,
        "rough": kind != "FL" and rough is not None,
        "fl_rough_v_light": kind == "FL" and rough is not None and light,
        "stakes": profiles.mounted(charger) and _stakes(target),
    }
    return next((row for row, holds in checks.items() if holds), None)


def impact_bonus(state: BattleState, charger: Unit, target: Unit) -> tuple[int, str]:
    """The charger's impetus bonus after the sheet's nullifying and reducing rows, and the
    words that show how it was reached."""
    bonus = profiles.impetus(charger)
    words = f"impetus bonus {bonus}"
    if bonus <= 0:
        return 0, words
    row = nullified_by(state, charger, target)
    if row is not None:
        return 0, f"{words}, nullified: {tables.text(tables.IMPACT_NULLIFIED, row)}"
    kind, other = profiles.troop_type(charger), profiles.troop_type(target)
    frontal = touching_edge(Footprint.of(target), Footprint.of(charger)) in (None, "front")
    checks = {
        "foot_v_pole": profiles.foot(charger) and _pole(target),
        "cavalry_v_guard": kind in tables.REDUCED_CHARGERS and other in tables.GUARD_TYPES,
        "not_fresh": FRESHNESS.of(charger) == "no_longer_fresh"
        and kind not in tables.NOT_FRESH_EXCEPT,
        "closed_ranks": other in ("FP", "FL")
        and CLOSED_RANKS.of(target)
        and frontal
        and profiles.mounted(charger)
        and kind != "EL",
    }
    for row, holds in checks.items():
        if not holds:
            continue
        top = tables.cell(tables.IMPACT_REDUCED, row, "max")
        by = tables.cell(tables.IMPACT_REDUCED, row, "by")
        before = bonus
        bonus = min(bonus, top) if top is not None else max(0, bonus + (by or 0))
        if bonus != before:
            words += f", {before}→{bonus}: {tables.text(tables.IMPACT_REDUCED, row)}"
    return bonus, words


# -- the dice -------------------------------------------------------------------------------


def _mod(table: GridTable, row: str, column: str = "dice") -> tuple[int, str]:
    value = tables.cell(table, row, column)
    assert value is not None
    return value, tables.reason(table, row)


def _friends_touching(state: BattleState, unit: Unit, edge: str) -> list[Unit]:
    here = Footprint.of(unit)
    found = []
    # only units whose boxes come within NEAR can be that close (the same, in roster order)
    for other in near(state.units_on_table, here.bounds, gap=NEAR):
        if other.id == unit.id or other.side != unit.side:
            continue
        there = Footprint.of(other)
        if edge_distance(here, there) <= NEAR and touching_edge(here, there) == edge:
            found.append(other)
    return found


def engaged(state: BattleState, unit: Unit) -> bool:
    """Whether the unit touches an enemy on the table."""
    here = Footprint.of(unit)
    return any(
        e.on_table and in_contact(here, Footprint.of(e)) for e in state.enemies_of(unit.side)
    )


def supports(state: BattleState, unit: Unit) -> list[Unit]:
    """Friends touching its rear, facing its way and not themselves in melee (pikes count
    their rear ranks as depth instead)."""
    if "pike" in profiles.weapons(unit):
        return []
    found = []
    for friend in _friends_touching(state, unit, "rear"):
        turned = abs((friend.facing - unit.facing + 180) % 360 - 180)
        if turned <= 45 and not engaged(state, friend):
            found.append(friend)
    return found


def flanked_by(state: BattleState, unit: Unit, enemy: Unit) -> str | None:
    """The edge of ``unit`` the enemy touches if it is a flank or the rear."""
    edge = touching_edge(Footprint.of(unit), Footprint.of(enemy))
    return edge if edge in ("left", "right", "rear") else None


def dice_modifiers(
    state: BattleState, unit: Unit, enemy: Unit, fight: Fight
) -> tuple[int, list[Modifier]]:
    """The dice (current VBU) and every change to their number, each with the sheet's row."""
    mods: list[Modifier] = []
    if fight.charging:
        bonus, words = impact_bonus(state, unit, enemy)
        mods.append(Modifier(bonus, words))
    if DISORDERED.of(unit):
        mods.append(Modifier(*_mod(tables.MELEE_MODIFIERS, "disordered")))
    general = generals.attached_general(state, unit)
    if general is not None:
        text = tables.reason(tables.MELEE_MODIFIERS, "general")
        mods.append(Modifier(generals.melee_modifier(general), f"{general.name}: {text}"))
    value, text = _mod(tables.MELEE_MODIFIERS, "supported_flank")
    for edge in ("left", "right"):
        if any(_can_group(unit, f) for f in _friends_touching(state, unit, edge)):
            mods.append(Modifier(value, f"{text} ({edge})"))
    levels = (
        DISCIPLINE_LEVELS[profiles.discipline(unit)] - DISCIPLINE_LEVELS[profiles.discipline(enemy)]
    )
    if levels > 0:
        value, text = _mod(tables.MELEE_MODIFIERS, "better_discipline")
        mods.append(
            Modifier(
                value * levels,
                f"{text} ({profiles.discipline(unit)} against {profiles.discipline(enemy)})",
            )
        )
    pikes = "pike" in profiles.weapons(unit)
    rough = ground(state, unit) == "difficult"
    if (profiles.mounted(unit) or pikes) and (rough or _entirely_difficult(state, enemy)):
        mods.append(Modifier(*_mod(tables.MELEE_MODIFIERS, "rough")))
    if profiles.troop_type(unit) == "CGP" and profiles.foot(enemy):
        mods.append(Modifier(*_mod(tables.MELEE_MODIFIERS, "cgp_v_infantry")))
    mods += depth(state, unit, enemy, rough)
    mods += pilum(unit, fight)
    if fight.new_melee and FRESHNESS.of(unit) != "exhausted":
        mods.append(Modifier(*_mod(tables.MELEE_MODIFIERS, "new_melee")))
    return profiles.current_vbu(unit), mods


def depth(state: BattleState, unit: Unit, enemy: Unit, difficult: bool) -> list[Modifier]:
    """The depth bonus: the first row naming the unit (pikes: for each rear rank unit in line
    behind it); none for an LU contacted to flank or rear, nor pikes in difficult terrain."""
    if profiles.large(unit) and flanked_by(state, unit, enemy):
        return []
    row = _depth_row(unit, enemy)
    if row is None:
        return []
    value, text = _mod(tables.DEPTH, row)
    if tables.DEPTH.lookup(row, "per_rank") is not True:  # a flat row
        return [Modifier(value, text)]
    ranks = 0 if difficult else _rear_ranks(state, unit)
    if not ranks:
        return []
    return [Modifier(value * ranks, f"{text} ({ranks} rear rank{'s' if ranks > 1 else ''})")]


def _depth_row(unit: Unit, enemy: Unit) -> str | None:
    """The sheet's depth row for the unit against that enemy: it names troops, not large
    units (README_combat.md: no published rule limits the flat rows to LUs)."""
    vs_mounted = profiles.mounted(enemy)
    kind = profiles.troop_type(unit)
    weapons = profiles.weapons(unit)
    if "pike" in weapons:
        return "pikes_v_mounted" if vs_mounted else "pikes_v_foot"
    if kind == "FP" and any(w in ("long_spear", "polearm") for w in weapons):
        return "spears_v_mounted" if vs_mounted else "spears_v_foot"
    if kind in ("FP", "FL") and profiles.impetuous(unit):
        return "impetuous_foot"
    if kind in ("CP1", "CP2") and profiles.foot(enemy):
        return "cp_v_foot"
    return None


def _rear_ranks(state: BattleState, unit: Unit) -> int:
    """Pike units in line behind it: the one touching its rear, the one touching that one's
    rear, and so on (a large unit's own rear rank counts one more)."""
    ranks = 1 if profiles.large(unit) else 0
    seen = {unit.id}
    line = [unit]
    while line:
        line = [
            f
            for u in line
            for f in _friends_touching(state, u, "rear")
            if f.id not in seen and "pike" in profiles.weapons(f)
        ]
        line = list({f.id: f for f in line}.values())  # one touching two counts once
        seen.update(f.id for f in line)
        ranks += len(line)
    return ranks


def pilum(unit: Unit, fight: Fight) -> list[Modifier]:
    """Pilum or PBW, charging or receiving a charge."""
    column = "charging" if fight.charging else ("receiving" if fight.receiving else "")
    if not column:
        return []
    for weapon in ("pilum", "pbw"):
        if weapon in profiles.weapons(unit):
            value = tables.cell(tables.PILUM, weapon, column)
            assert value is not None
            label = "Pilum" if weapon == "pilum" else "PBW"
            words = "charging" if column == "charging" else "receiving charge"
            return [Modifier(value, f"{label} {words}")]
    return []


def melee_roll(state: BattleState, unit: Unit, enemy: Unit, fight: Fight) -> RollSpec:
    """The unit's melee dice against the enemy (6s counted; pairs of 5s are read from the
    faces), rolled by ``resolve`` and read by the odds."""
    base, mods = dice_modifiers(state, unit, enemy, fight)
    label = f"Melee: {unit.name} (VBU {base}) against {enemy.name}"
    why = Purpose(unit.id, "melee", enemy.id)
    return RollSpec(
        label, base, mode="pool", target=tables.HIT_FACE, dice_modifiers=tuple(mods), purpose=why
    )


def support_roll(state: BattleState, friend: Unit, unit: Unit) -> RollSpec:
    """A supporting unit's half dice."""
    full = profiles.current_vbu(friend)
    half = math.floor(full * tables.SUPPORT_SHARE)
    mods = (Modifier(half - full, f"Supporting Units roll half dice (supporting {unit.name})"),)
    why = Purpose(friend.id, "melee support", row=f"supporting {unit.id}")
    return RollSpec(
        f"Melee support: {friend.name}",
        full,
        mode="pool",
        target=tables.HIT_FACE,
        dice_modifiers=mods,
        purpose=why,
    )


def cohesion_modifiers(state: BattleState, unit: Unit, enemy: Unit) -> list[Modifier]:
    """The modifiers of the unit's cohesion test in this melee."""
    table = tables.COHESION_MELEE
    mods: list[Modifier] = []

    def add(row: str, note: str = "") -> None:
        value = tables.cell(table, row, "modifier")
        assert value is not None
        mods.append(Modifier(value, tables.reason(table, row) + note))

    if DISORDERED.of(unit):
        add("disordered")
    edge = flanked_by(state, unit, enemy)
    pikes = "pike" in profiles.weapons(unit)
    if edge is not None and (edge == "rear" or not pikes):
        add("flank_rear", f" ({edge})")
    if profiles.troop_type(unit) in tables.CAVALRY_V_FP and profiles.troop_type(enemy) == "FP":
        add("cavalry_v_fp")
    if profiles.foot(unit) and CLOSED_RANKS.of(unit):
        add("closed_ranks")
    mods += cohesion.general_modifier(state, unit, "general", cohesion.MELEE)
    fortified = protection.fortification(state, unit, enemy) is not None  # in or behind one
    defended = fortified or (_inside(state, unit, DEFENDED) and not _inside(state, enemy, DEFENDED))
    higher = _inside(state, unit, ("hill", "gentle_hill")) and not _inside(
        state, enemy, ("hill", "gentle_hill")
    )
    # a river bank: the enemy stands in the water (crossing it) and the unit on the bank
    bank = _in_water(state, enemy) and not _in_water(state, unit)
    if defended or higher or bank:
        add("defending")
    return mods
