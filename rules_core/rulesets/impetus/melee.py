"""Melee: fought at once inside the charging unit's activation; a drawn melee is fought again
when either unit next activates.

Each unit rolls one die per point of its current VBU, plus the impetus bonus of a unit that
charged (``impact``: nullified or reduced by the sheet's rows), the general modifiers, the
depth bonus, pilum/PBW, and +1 in a second or further new melee (a pursuit's) if not exhausted;
each supporting unit rolls half its dice. Each 6 is a hit and each pair of 5s a hit. Both take
a cohesion test with the hits they took (``tables.COHESION_MELEE``). The unit that lost more
VBU loses: it retreats by the D6 table, and the winner pursues by it (an impetuous unit
re-rolls a die that gives no pursuit); a pursuer that reaches the loser fights it again as a
new melee. Both moves are checked along their path (enemies, friends, impassable ground, the
table edge: ``retreat``, ``pursue``, README_combat.md). Equal losses: a drawn melee, marked to
be fought again. Fatigue: a fresh unit that fought is no longer fresh; a unit that fights a
second new melee in one activation is exhausted. Other enemies touching either unit join the
melee (``joining``, ``_resolve_many``): each contact is a fight.

``resolve(ctx, attacker, defender, *, impact)`` returns "attacker", "defender" or "draw" (the
side that won). ``melee_roll`` builds each unit's roll; the odds read the same roll.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from weakref import WeakKeyDictionary

from rules_core import paths
from rules_core.codec import Json
from rules_core.context import Context
from rules_core.dice import Modifier, Purpose
from rules_core.events import MeleeFought, MeleeResolved, TestResolved
from rules_core.geometry import Footprint, contact_edge, edge_distance, in_contact, overlapping
from rules_core.odds import RollSpec
from rules_core.rulesets.impetus import (
    cohesion,
    displacement,
    generals,
    interpenetration,
    profiles,
    protection,
    tables,
)
from rules_core.rulesets.impetus.groups import can_group as _can_group
from rules_core.rulesets.impetus.shooting import hits_row
from rules_core.rulesets.impetus.status import (
    CHARGED,
    CLOSED_RANKS,
    DISORDERED,
    FRESHNESS,
    FRESHNESS_ORDER,
    MELEE_PENDING,
    MELEE_WITH,
    ROUTED,
)
from rules_core.state import BattleState, Unit
from rules_core.tables import GridTable

Params = Mapping[str, Json]
ATTACKER = "attacker"
DEFENDER = "defender"
DRAW = "draw"
RETREAT, ROUTED_AWAY, FOUGHT_AGAIN = "retreat", "routed", "fought_again"  # a round's next step
MAX_NEW_MELEES = 3  # pursuits into new melees in one charge (a guard; the table rarely allows 2)
ROUGH = {"rough": "broken", "wood": "difficult", "dense_wood": "difficult", "marsh": "difficult"}
DEFENDED = ("village", "fortification")  # "Defending ... Village, Fortification"
WATER = ("river", "stream")  # "Defending River Bank": against an enemy in the water
DISCIPLINE_LEVELS = {"A": 3, "B": 2, "C": 1}
NEAR = 0.05  # H: units this close count as in contact for support and flanks
STEP = 0.05  # H: the step retreats and pushes are checked at
MAX_SHOVE = 12.0  # H: the furthest a retreat goes on to clear friends


@dataclass(frozen=True)
class Fight:
    """What one unit brings to a melee: charging, receiving a charge, a new melee."""

    charging: bool = False
    receiving: bool = False
    new_melee: bool = False


# -- ground ---------------------------------------------------------------------------------


def ground(state: BattleState, unit: Unit) -> str | None:
    """ "broken" or "difficult" if the unit's centre stands in such ground, else None (a
    feature's ``grade`` property, else its kind: rough is broken; wood, marsh difficult)."""
    from shapely.geometry import Point as ShapelyPoint

    from rules_core.terrain import feature_shape

    here = ShapelyPoint(unit.x, unit.y)
    found: str | None = None
    for feature in state.terrain:
        grade = feature.properties.get("grade") or ROUGH.get(feature.kind)
        if grade in ("broken", "difficult") and feature_shape(feature).intersects(here):
            if grade == "difficult":
                return "difficult"
            found = "broken"
    return found


def _inside(state: BattleState, unit: Unit, kinds: tuple[str, ...]) -> bool:
    from shapely.geometry import Point as ShapelyPoint

    from rules_core.terrain import feature_shape

    here = ShapelyPoint(unit.x, unit.y)
    return any(f.kind in kinds and feature_shape(f).intersects(here) for f in state.terrain)


def _in_water(state: BattleState, unit: Unit) -> bool:
    """Whether the unit's centre stands in a river or stream (its line with the battle's
    ``river_width``, as the pre-battle lays it)."""
    from shapely.geometry import Point as ShapelyPoint

    from rules_core.rulesets.impetus.prebattle import params_of
    from rules_core.terrain import feature_shape

    width = params_of(state)["river_width"]
    half = float(width) / 2 if isinstance(width, int | float) else 1.0
    here = ShapelyPoint(unit.x, unit.y)
    return any(f.kind in WATER and feature_shape(f).distance(here) <= half for f in state.terrain)


def _entirely_difficult(state: BattleState, unit: Unit) -> bool:
    from shapely.geometry import Polygon

    from rules_core.terrain import feature_shape

    shape = Polygon(Footprint.of(unit).corners())
    for feature in state.terrain:
        grade = feature.properties.get("grade") or ROUGH.get(feature.kind)
        if grade == "difficult" and feature_shape(feature).buffer(1e-6).covers(shape):
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
    )  # fmt: skip
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
    frontal = contact_edge(Footprint.of(target), Footprint.of(charger)) in (None, "front")
    checks = {
        "foot_v_pole": profiles.foot(charger) and _pole(target),
        "cavalry_v_guard": kind in tables.REDUCED_CHARGERS and other in tables.GUARD_TYPES,
        "not_fresh": FRESHNESS.of(charger) == "no_longer_fresh"
        and kind not in tables.NOT_FRESH_EXCEPT,
        "closed_ranks": other in ("FP", "FL") and CLOSED_RANKS.of(target) and frontal
        and profiles.mounted(charger) and kind != "EL",
    }  # fmt: skip
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
    for other in state.units_of(unit.side):
        if other.id == unit.id or not other.on_table:
            continue
        there = Footprint.of(other)
        if edge_distance(here, there) <= NEAR and contact_edge(here, there) == edge:
            found.append(other)
    return found


def _engaged(state: BattleState, unit: Unit) -> bool:
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
        if turned <= 45 and not _engaged(state, friend):
            found.append(friend)
    return found


def _flanked(state: BattleState, unit: Unit, enemy: Unit) -> str | None:
    """The edge of ``unit`` the enemy touches if it is a flank or the rear."""
    edge = contact_edge(Footprint.of(unit), Footprint.of(enemy))
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
        mods.append(Modifier(value * levels, f"{text} ({profiles.discipline(unit)} against "
                                             f"{profiles.discipline(enemy)})"))  # fmt: skip
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
    if profiles.large(unit) and _flanked(state, unit, enemy):
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
    return RollSpec(f"Melee support: {friend.name}", full, mode="pool", target=tables.HIT_FACE,
                    dice_modifiers=mods, purpose=why)  # fmt: skip


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
    edge = _flanked(state, unit, enemy)
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


# -- the melee ------------------------------------------------------------------------------


def _roll_side(ctx: Context, unit: Unit, enemy: Unit, fight: Fight) -> int:
    hits = 0
    spec = melee_roll(ctx.state, unit, enemy, fight)
    if spec.n + sum(m.value for m in spec.dice_modifiers) > 0:
        hits, words = hits_row(spec.roll(ctx.dice))
        ctx.emit(TestResolved(enemy.id, f"hits from {unit.name}", hits, hits > 0, words, False))
    for friend in supports(ctx.state, unit):
        extra = support_roll(ctx.state, friend, unit)
        if math.floor(profiles.current_vbu(friend) * tables.SUPPORT_SHARE) <= 0:
            continue
        more, words = hits_row(extra.roll(ctx.dice))
        ctx.emit(TestResolved(enemy.id, f"hits from {friend.name} (support)", more, more > 0,
                              words, False))  # fmt: skip
        hits += more
    return hits


def _tire(ctx: Context, unit_id: str, new_melee: bool) -> None:
    """Fresh -> no longer fresh after a melee; exhausted after a second new melee."""
    if not cohesion.alive(ctx.state, unit_id):
        return
    now = FRESHNESS.of(ctx.state.unit(unit_id)) or "fresh"
    floor = "exhausted" if new_melee else "no_longer_fresh"
    after = max(now, floor, key=FRESHNESS_ORDER.index)
    if after != now:
        why = "a second new melee in one activation" if new_melee else "fought a melee"
        ctx.set_status(unit_id, why, freshness=after)


def _mark(ctx: Context, a: str, b: str, drawn: bool) -> None:
    for me, other in ((a, b), (b, a)):
        if not cohesion.alive(ctx.state, me):
            continue
        unit = ctx.state.unit(me)
        listed = MELEE_WITH.of(unit)
        enemies = [str(x) for x in listed] if isinstance(listed, list) else []
        if drawn:
            enemies = sorted({*enemies, other})
            ctx.set_status(me, "drawn melee: fought again when either unit next activates",
                           melee_pending=True, melee_with=list(enemies))  # fmt: skip
        else:
            left = [x for x in enemies if x != other and cohesion.alive(ctx.state, x)]
            ctx.set_status(me, None, melee_pending=bool(left) and MELEE_PENDING.of(unit),
                           melee_with=list(left))  # fmt: skip


def resolve(
    ctx: Context,
    attacker: Unit,
    defender: Unit,
    *,
    impact: bool,
    new_melee: bool = False,
    depth_left: int = MAX_NEW_MELEES,
) -> str:
    """Fight one melee round; returns the side that won it or "draw"."""
    fought = _FOUGHT.setdefault(ctx, set())
    if not impact and frozenset((attacker.id, defender.id)) in fought:
        return DRAW  # fought already in this activation, in a melee of more than two units
    ctx.emit(MeleeFought(attacker.id, defender.id))
    # A countercharge (``reactions``) marks the charged unit of the side not acting as charged.
    countercharge = (
        impact and CHARGED.of(defender) and ctx.side is not None and defender.side != ctx.side
    )
    if countercharge and CHARGED.of(defender):
        ctx.set_status(defender.id, None, charged=False)
    attacking = Fight(charging=impact, new_melee=new_melee)
    defending = Fight(charging=impact and countercharge, receiving=impact and not countercharge)
    joining_a = joining(ctx.state, defender, attacker)
    joining_d = joining(ctx.state, attacker, defender)
    if joining_a or joining_d:
        return _resolve_many(ctx, attacker, defender, joining_a, joining_d, attacking, defending,
                             depth_left)  # fmt: skip
    fought.add(frozenset((attacker.id, defender.id)))
    hits_on_defender = _roll_side(ctx, attacker, defender, attacking)
    hits_on_attacker = _roll_side(ctx, defender, attacker, defending)
    lost = {attacker.id: 0, defender.id: 0}
    routed = {attacker.id: False, defender.id: False}
    for unit, enemy, hits in ((attacker, defender, hits_on_attacker),
                              (defender, attacker, hits_on_defender)):  # fmt: skip
        if hits <= 0 or not cohesion.alive(ctx.state, unit.id):
            continue
        now = ctx.state.unit(unit.id)
        mods = cohesion_modifiers(ctx.state, now, ctx.state.unit(enemy.id) if cohesion.alive(
            ctx.state, enemy.id) else enemy)  # fmt: skip
        found = cohesion.test(ctx, now, hits, mods, cohesion.MELEE, f"melee with {enemy.name}")
        lost[unit.id], routed[unit.id] = found.lost, found.routed
    result = _result(lost, routed, attacker.id, defender.id)
    row = (f"{attacker.name} lost {lost[attacker.id]} VBU, {defender.name} lost "
           f"{lost[defender.id]} VBU: " + {ATTACKER: f"{attacker.name} wins",
           DEFENDER: f"{defender.name} wins", DRAW: "a drawn melee"}[result])  # fmt: skip
    scored = ((attacker.id, hits_on_defender), (defender.id, hits_on_attacker))
    _melee_result(ctx, attacker, defender, result, lost[defender.id] - lost[attacker.id], row,
                  scored)  # fmt: skip
    _tire(ctx, attacker.id, new_melee)
    _tire(ctx, defender.id, False)
    _mark(ctx, attacker.id, defender.id, result == DRAW)
    if result == DRAW:
        return result
    winner, loser = (attacker, defender) if result == ATTACKER else (defender, attacker)
    if cohesion.alive(ctx.state, loser.id):
        retreat(ctx, ctx.state.unit(loser.id), winner)
    if cohesion.alive(ctx.state, winner.id) and depth_left > 0:
        pursue(ctx, ctx.state.unit(winner.id), loser.id, depth_left)
    return result


# The pairs of units that fought a round in one resolution (an activation's step): a drawn
# melee of more than two units is fought again once, not once for each pair.
_FOUGHT: WeakKeyDictionary[Context, set[frozenset[str]]] = WeakKeyDictionary()


def _melee_result(
    ctx: Context,
    attacker: Unit,
    defender: Unit,
    result: str,
    score: int,
    row: str,
    scored: tuple[tuple[str, int], ...],
) -> None:
    """Log the round's result ("melee result" for the attacker: the VBU lost, the winner) with
    the hits each side scored and what comes next: the loser retreats (or has routed), a draw
    is fought again."""
    if result == DRAW:
        winner, loser, next_ = None, None, FOUGHT_AGAIN
    else:
        winner, loser = (attacker, defender) if result == ATTACKER else (defender, attacker)
        next_ = RETREAT if cohesion.alive(ctx.state, loser.id) else ROUTED_AWAY
    ctx.emit(MeleeResolved(
        attacker.id, "melee result", score, result == ATTACKER, row, False,
        None if winner is None else winner.id, None if loser is None else loser.id, scored, next_,
    ))  # fmt: skip


def joining(state: BattleState, unit: Unit, enemy: Unit) -> list[Unit]:
    """The other enemies of ``unit`` in contact with it (edge to edge), besides ``enemy``:
    they join its melee with ``enemy``."""
    here = Footprint.of(unit)
    return [
        other
        for other in state.units_on_table
        if other.side != unit.side and other.id != enemy.id and not ROUTED.of(other)
        and contact_edge(here, Footprint.of(other)) is not None
    ]  # fmt: skip


def _front_enemy(state: BattleState, unit: Unit, first: Unit, others: list[Unit]) -> Unit:
    """The enemy a unit in contact with several rolls its dice against: ``first`` if it stands
    to its front or none does, else the one to its front."""
    here = Footprint.of(unit)
    if contact_edge(here, Footprint.of(first)) == "front":
        return first
    return next((o for o in others if contact_edge(here, Footprint.of(o)) == "front"), first)


def extra_roll(state: BattleState, unit: Unit, enemy: Unit, params: Params) -> RollSpec:
    """The roll of a further unit in a melee of more than two (``melee_extra_dice``): half its
    dice as a supporting unit, or its own full roll."""
    if displacement.setting(params, "melee_extra_dice") == "full":
        return melee_roll(state, unit, enemy, Fight())
    full = profiles.current_vbu(unit)
    half = math.floor(full * tables.SUPPORT_SHARE)
    why = f"Supporting Units roll half dice (a further unit in the melee with {enemy.name})"
    label = f"Melee: {unit.name} (VBU {full}) against {enemy.name}"
    mods = (Modifier(half - full, why),)
    purpose = Purpose(unit.id, "melee", enemy.id, "further unit")
    return RollSpec(label, full, mode="pool", target=tables.HIT_FACE, dice_modifiers=mods,
                    purpose=purpose)  # fmt: skip


def _roll_at(ctx: Context, spec: RollSpec, roller: Unit, target: Unit) -> int:
    if spec.n + sum(m.value for m in spec.dice_modifiers) <= 0:
        return 0
    hits, words = hits_row(spec.roll(ctx.dice))
    ctx.emit(TestResolved(target.id, f"hits from {roller.name}", hits, hits > 0, words, False))
    return hits


def _resolve_many(
    ctx: Context,
    attacker: Unit,
    defender: Unit,
    joining_a: list[Unit],
    joining_d: list[Unit],
    attacking: Fight,
    defending: Fight,
    depth_left: int,
) -> str:
    """A melee of more than two units: each contact is a fight. The attacker and the defender
    each roll once (with their rear supports) against the enemy to their front (their charge's
    target, the one who charged them, if it is there or none is); each further unit rolls
    against the one of them it touches (``extra_roll``). A unit takes every hit rolled at it
    and one cohesion test (the flank or rear modifier if any enemy touches it there). The side
    that lost more VBU (a routed attacker or defender first) loses: each of its units
    retreats from the enemy it fought; the winning one of the two pursues the losing one."""
    state = ctx.state
    a_target = _front_enemy(state, attacker, defender, joining_d)
    d_target = _front_enemy(state, defender, attacker, joining_a)
    hits: dict[str, int] = {}
    facing: dict[str, list[Unit]] = {}  # each unit's enemies in this melee

    def meet(a: Unit, b: Unit) -> None:
        facing.setdefault(a.id, []).append(b)
        facing.setdefault(b.id, []).append(a)

    for unit, target, fight in ((attacker, a_target, attacking), (defender, d_target, defending)):
        got = _roll_at(ctx, melee_roll(ctx.state, unit, target, fight), unit, target)
        for friend in supports(ctx.state, unit):
            if math.floor(profiles.current_vbu(friend) * tables.SUPPORT_SHARE) <= 0:
                continue
            got += _roll_at(ctx, support_roll(ctx.state, friend, unit), friend, target)
        hits[target.id] = hits.get(target.id, 0) + got
    meet(attacker, defender)
    for extras, core in ((joining_a, defender), (joining_d, attacker)):
        for unit in extras:
            got = _roll_at(ctx, extra_roll(ctx.state, unit, core, ctx.params), unit, core)
            hits[core.id] = hits.get(core.id, 0) + got
            meet(unit, core)
    side_a = [attacker, *joining_a]
    side_d = [defender, *joining_d]
    lost: dict[str, int] = {}
    routed: dict[str, bool] = {}
    for unit in (*side_a, *side_d):
        taken = hits.get(unit.id, 0)
        if taken <= 0 or not cohesion.alive(ctx.state, unit.id):
            continue
        now = ctx.state.unit(unit.id)
        foes = facing.get(unit.id, [])
        enemy = next((f for f in foes if _flanked(ctx.state, now, f)), foes[0])
        mods = cohesion_modifiers(ctx.state, now, enemy)
        names = ", ".join(f.name for f in foes)
        found = cohesion.test(ctx, now, taken, mods, cohesion.MELEE, f"melee with {names}")
        lost[unit.id], routed[unit.id] = found.lost, found.routed
    total_a = sum(lost.get(u.id, 0) for u in side_a)
    total_d = sum(lost.get(u.id, 0) for u in side_d)
    broke_a, broke_d = routed.get(attacker.id, False), routed.get(defender.id, False)
    if broke_a != broke_d:
        result = DEFENDER if broke_a else ATTACKER
    else:
        result = DRAW if total_a == total_d else (ATTACKER if total_a < total_d else DEFENDER)
    names_a = " and ".join(u.name for u in side_a)
    names_d = " and ".join(u.name for u in side_d)
    row = (f"{names_a} lost {total_a} VBU, {names_d} lost {total_d} VBU: "
           + {ATTACKER: f"{names_a} win{'s' if len(side_a) == 1 else ''}",
              DEFENDER: f"{names_d} win{'s' if len(side_d) == 1 else ''}",
              DRAW: "a drawn melee"}[result])  # fmt: skip
    scored = (
        (attacker.id, sum(hits.get(u.id, 0) for u in side_d)),
        (defender.id, sum(hits.get(u.id, 0) for u in side_a)),
    )
    _melee_result(ctx, attacker, defender, result, total_d - total_a, row, scored)
    fought = _FOUGHT.setdefault(ctx, set())
    for unit in (*side_a, *side_d):
        _tire(ctx, unit.id, attacking.new_melee and unit.id == attacker.id)
        for foe in facing.get(unit.id, []):
            fought.add(frozenset((unit.id, foe.id)))
    for unit in side_a:
        for foe in facing.get(unit.id, []):
            _mark(ctx, unit.id, foe.id, result == DRAW)
    if result == DRAW:
        return result
    winners, losers = (side_a, side_d) if result == ATTACKER else (side_d, side_a)
    for unit in losers:
        if not cohesion.alive(ctx.state, unit.id):
            continue
        foes = [f for f in facing.get(unit.id, []) if f in winners]
        if foes:
            retreat(ctx, ctx.state.unit(unit.id), foes[0])
    winner, loser = winners[0], losers[0]
    if cohesion.alive(ctx.state, winner.id) and depth_left > 0:
        pursue(ctx, ctx.state.unit(winner.id), loser.id, depth_left)
    return result


def _result(lost: dict[str, int], routed: dict[str, bool], a: str, d: str) -> str:
    if routed[a] != routed[d]:
        return DEFENDER if routed[a] else ATTACKER
    if lost[a] == lost[d]:
        return DRAW
    return ATTACKER if lost[a] < lost[d] else DEFENDER


def troop_column(unit: Unit) -> str:
    """The retreat and pursuit table's column: CL, mounted or foot."""
    if profiles.troop_type(unit) == "CL":
        return "cl"
    return "mounted" if profiles.mounted(unit) else "foot"


def _away(from_unit: Unit, unit: Unit) -> tuple[float, float]:
    dx, dy = unit.x - from_unit.x, unit.y - from_unit.y
    size = math.hypot(dx, dy) or 1.0
    return dx / size, dy / size


def retreat(ctx: Context, loser: Unit, winner: Unit) -> float:
    """The loser retreats by the D6 table, straight away from the winner, keeping its facing;
    the path is checked along its length.

    A friend in the way (involuntary interpenetration): T, CL, non-impetuous FL and units
    that may pass it voluntarily are placed behind it; others push it back and disorder it
    (a W is pushed back, not disordered). An enemy, impassable ground, a friend in melee, or a
    friend that cannot be passed or pushed clear (the place behind it or its push blocked)
    stops the retreat where it touches: the unit loses ``retreat_blocked_loss`` VBU, and is
    destroyed if it cannot even start (published). Reaching the table edge it is lost
    (``retreat_off_table`` "lost") or stops there as if blocked ("stop")."""
    column = troop_column(loser)
    roll = ctx.dice.d6(
        f"Retreat: {loser.name} ({column})", purpose=Purpose(loser.id, "retreat", winner.id, column)
    )
    distance = tables.distance_row(roll.total, "retreat", column) or 0
    ctx.emit(TestResolved(loser.id, "retreat", roll.total, True,
                          f"{roll.total}: retreat {distance}H ({column})", False))  # fmt: skip
    ux, uy = _away(winner, loser)
    heading = displacement.heading_of((ux, uy))
    state = ctx.state
    clear = displacement.without_friends(state, loser, heading, float(distance))
    length = clear.reached
    blocked: str | None = None
    if clear.blocker is not None:
        blocked = _blocker_words(state, clear.blocker)
    notes = [f"retreats {distance}H from {winner.name}"]
    pushes: list[tuple[Unit, bool]] = []
    for friend in _in_the_way(state, loser, (ux, uy), length):
        how = interpenetration.retreat_through(loser, friend)
        stop: str | None = None
        if _engaged(state, friend):
            stop = f"{friend.name}, in melee"
        elif how == "pass":
            behind = _clear_of(loser, friend, (ux, uy), length)
            beyond = displacement.without_friends(state, loser, heading, behind)
            if beyond.blocker is not None and beyond.reached < behind - 1e-6:
                stop = f"{friend.name} (no room behind it: {_blocker_words(state, beyond.blocker)})"
            else:
                length = behind
                notes.append(f"passes through {friend.name}")
        else:
            end = Footprint.of(loser).moved_to((loser.x + ux * length, loser.y + uy * length))
            shove = _clear_of(friend, None, (ux, uy), 0.0, end)
            pushed = displacement.without_friends(state, friend, heading, shove)
            if pushed.blocker is not None and pushed.reached < shove - 1e-6:
                stop = f"{friend.name} (it cannot be pushed back)"
            else:
                pushes.append((friend, how == "push"))
        if stop is not None:
            length = min(length, displacement.reach_to(state, loser, heading, length, friend))
            blocked = stop
            pushes = [(f, d) for f, d in pushes if _touched(loser, f, (ux, uy), length)]
            break
    edge = clear.blocker is not None and clear.blocker.kind == paths.EDGE and blocked is not None
    lost = displacement.setting(ctx.params, "retreat_off_table") == "lost"
    if edge and length >= clear.reached - 1e-6 and lost:
        ctx.emit(TestResolved(loser.id, "retreat", roll.total, False,
                              f"{loser.name} retreats off the table: lost", False))  # fmt: skip
        cohesion.rout(ctx, loser.id, "retreated off the table edge")
        return round(length, 3)
    if blocked is not None and length < displacement.START:
        ctx.emit(TestResolved(loser.id, "retreat", roll.total, False,
                              f"{loser.name} cannot even start its retreat ({blocked} in the way):"
                              " destroyed", False))  # fmt: skip
        cohesion.rout(ctx, loser.id, f"its retreat is blocked by {blocked}")
        return 0.0
    end_point = (round(loser.x + ux * length, 3), round(loser.y + uy * length, 3))
    if blocked is not None:
        notes.append(f"stopped by {blocked}")
    ctx.move(loser.id, [(loser.x, loser.y), end_point], loser.facing, notes)
    for friend, disorder in pushes:
        end = Footprint.of(loser).moved_to((loser.x + ux * length, loser.y + uy * length))
        shove = _clear_of(friend, None, (ux, uy), 0.0, end)
        there = (friend.x + ux * shove, friend.y + uy * shove)
        ctx.move(friend.id, [(friend.x, friend.y), there], friend.facing,
                 [f"pushed back {shove:.1f}H by {loser.name}'s retreat"])  # fmt: skip
        if disorder and not DISORDERED.of(friend):
            ctx.set_status(friend.id, f"pushed back by {loser.name}'s retreat", disordered=True)
    if blocked is not None:
        loss = int(displacement.number(ctx.params, "retreat_blocked_loss"))
        ctx.emit(TestResolved(loser.id, "retreat", roll.total, False,
                              f"{loser.name}'s retreat stopped after {length:.3g}H by {blocked}: "
                              f"-{loss} VBU", False))  # fmt: skip
        if loss > 0:
            cohesion.lose(ctx, loser.id, loss, f"retreat stopped by {blocked}")
    return round(length, 3)


def _blocker_words(state: BattleState, blocker: paths.Blocker) -> str:
    if blocker.kind == paths.EDGE:
        return "the table edge"
    if blocker.kind == paths.TERRAIN:
        feature = next((t for t in state.terrain if t.id == blocker.id), None)
        name = (feature.name or feature.id) if feature is not None else blocker.id
        return f"impassable ground ({name})"
    return state.unit(blocker.id).name


def _touched(unit: Unit, friend: Unit, way: tuple[float, float], length: float) -> bool:
    """Whether the unit, moved ``length`` along ``way``, overlaps the friend."""
    pose = Footprint.of(unit).moved_to((unit.x + way[0] * length, unit.y + way[1] * length))
    return overlapping(pose, Footprint.of(friend))


def _in_the_way(
    state: BattleState, unit: Unit, way: tuple[float, float], length: float
) -> list[Unit]:
    """Friends the unit's footprint would overlap somewhere along its retreat, nearest first."""
    here = Footprint.of(unit)
    found: dict[str, tuple[float, Unit]] = {}
    steps = max(1, int(length / STEP))
    for n in range(1, steps + 1):
        gone = length * n / steps
        pose = here.moved_to((unit.x + way[0] * gone, unit.y + way[1] * gone))
        for friend in state.units_of(unit.side):
            if friend.id == unit.id or not friend.on_table or friend.id in found:
                continue
            if overlapping(pose, Footprint.of(friend)):
                found[friend.id] = (gone, friend)
    return [friend for _, friend in sorted(found.values(), key=lambda item: item[0])]


def _clear_of(
    mover: Unit,
    other: Unit | None,
    way: tuple[float, float],
    start: float,
    fixed: Footprint | None = None,
) -> float:
    """How far along ``way`` ``mover`` must go (from ``start``) to overlap ``other`` (or the
    ``fixed`` footprint) no more."""
    block = fixed if fixed is not None else Footprint.of(other) if other is not None else None
    assert block is not None
    here = Footprint.of(mover)
    gone = start
    for _ in range(int(MAX_SHOVE / STEP)):
        pose = here.moved_to((mover.x + way[0] * gone, mover.y + way[1] * gone))
        if not overlapping(pose, block):
            return round(gone, 3)
        gone += STEP
    return round(gone, 3)


def pursuit_distance(ctx: Context, winner: Unit) -> int:
    """The pursuit die (an impetuous unit re-rolls one that gives none)."""
    column = troop_column(winner)
    why = Purpose(winner.id, "pursuit", row=column)
    roll = ctx.dice.d6(f"Pursuit: {winner.name} ({column})", purpose=why)
    distance = tables.distance_row(roll.total, "pursuit", column)
    if distance is None and profiles.impetuous(winner):
        words = f"{roll.total}: no pursuit ({tables.IMPETUOUS_REROLL})"
        ctx.emit(TestResolved(winner.id, "pursuit", roll.total, False, words, False))
        again = Purpose(winner.id, "pursuit (impetuous re-roll)", row=column)
        roll = ctx.dice.d6(f"Pursuit: {winner.name} ({column}), impetuous re-roll", purpose=again)
        distance = tables.distance_row(roll.total, "pursuit", column)
    words = f"{roll.total}: " + (f"pursue {distance}H ({column})" if distance else "no pursuit")
    ctx.emit(TestResolved(winner.id, "pursuit", roll.total, bool(distance), words, False))
    return distance or 0


def pursue(ctx: Context, winner: Unit, loser_id: str, depth_left: int) -> None:
    """The winner follows the loser by the pursuit table, checked along its path: it passes
    friends it may interpenetrate voluntarily but stops on contact with any other ("Pursuit:
    If not allowed stop on contact"), never ends on a friend, and stops at impassable ground
    and the table edge. Reaching the loser (stopped by it, or going exactly the gap and ending
    touching it), a new melee; meeting another enemy it stops on contact
    (``pursuit_fresh_enemy`` "stop") or fights it as a new melee ("fight")."""
    if profiles.troop_type(winner) in ("ART", "W"):
        return
    if not cohesion.alive(ctx.state, loser_id):
        return
    distance = pursuit_distance(ctx, winner)
    if distance <= 0:
        return
    loser = ctx.state.unit(loser_id)
    heading = displacement.heading_of(_away(winner, loser))
    found = displacement.travel(ctx.state, winner, heading, float(distance),
                                lambda f: interpenetration.pursuit_may_pass(winner, f))  # fmt: skip
    end = found.end
    notes = [f"pursues {loser.name} {found.reached:.3g}H"]
    blocker = found.blocker
    met = (
        ctx.state.unit(blocker.id)
        if blocker is not None and blocker.kind in (paths.ENEMY, paths.FRIEND)
        else None
    )
    if met is None and displacement.ends_touching(found, loser):
        met = loser  # a pursuit of exactly the gap reaches the loser: a new melee
    if met is not None and met.id != loser_id:
        notes.append(f"stops on contact with {met.name}")
    elif blocker is not None and met is None:
        notes.append(f"stops at {_blocker_words(ctx.state, blocker)}")
    ctx.move(winner.id, [(winner.x, winner.y), (round(end.x, 3), round(end.y, 3))],
             winner.facing, notes)  # fmt: skip
    moved = ctx.state.unit(winner.id)
    if met is None or met.side == winner.side or not cohesion.alive(ctx.state, met.id):
        return
    if met.id != loser_id and displacement.setting(ctx.params, "pursuit_fresh_enemy") != "fight":
        return
    resolve(ctx, moved, ctx.state.unit(met.id), impact=True, new_melee=True,
            depth_left=depth_left - 1)  # fmt: skip
