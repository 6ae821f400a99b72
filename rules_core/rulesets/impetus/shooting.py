"""Shooting: one die per point of the shooter's VBU, changed by the shooting table's row for
its weapon, class, range band and target, and by every situational modifier; each 6 is a hit
and each pair of 5s is a hit; a target that is hit takes a cohesion test after shooting.

``resolve(ctx, shooter, target)`` carries out one unit's shooting at a target (the caller has
checked the order with ``problem``). ``shot_roll`` builds the roll (its dice and
every modifier to their number, with the table row) and the odds read the same roll.

Set by play (``reactions`` passes them; both default to False):
  ``reaction``  shooting as opportunity (reaction) fire: -1
  ``defensive`` defensive fire at a charger (the cohesion test's -1 for guns)

Everything else is found from the state (``protection``): the movement phases the shooter
made (its ``moves``), indirect shooting (no sight line), a target that has evaded this turn
(its ``evades``), cover, fortifications, a big target (a large unit, a W, a member of a group
in column, ``groups.in_column``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from fractions import Fraction

from rules_core.codec import Json
from rules_core.context import Context
from rules_core.dice import Modifier, Purpose, Roll
from rules_core.events import ShotFired, ShotResolved
from rules_core.geometry import Footprint, edge_distance, quarter, range_from_front
from rules_core.odds import Dist, RollSpec
from rules_core.rulesets.impetus import cohesion, groups, profiles, protection, tables
from rules_core.rulesets.impetus.status import DISORDERED, EVADES, MELEE_WITH, MOVES, ROUTED
from rules_core.state import BattleState, Unit

Params = Mapping[str, Json]


def weapon_row(unit: Unit) -> str | None:
    """The shooting table's row for the unit's weapon and class (``missile_class``, default
    B), or None if it has no shooting weapon."""
    weapon = profiles.missile(unit)
    if not weapon:
        return None
    grade = profiles.missile_class(unit)
    try:
        return tables.shooting_row(weapon, grade)
    except KeyError:
        return tables.shooting_row(weapon, "A")


def front(shooter: Unit, target: Unit) -> bool:
    """Whether the target stands before the shooter's front (not to its side or rear)."""
    return quarter(Footprint.of(shooter), (target.x, target.y)) == "front"


def distance(shooter: Unit, target: Unit) -> float:
    """The range in H: from the shooter's front edge, or edge to edge to its side or rear."""
    if front(shooter, target):
        return range_from_front(Footprint.of(shooter), Footprint.of(target))
    return edge_distance(Footprint.of(shooter), Footprint.of(target))


def problem(state: BattleState, shooter: Unit, target: Unit) -> str | None:
    """Why ``shooter`` may not shoot at ``target``, or None."""
    row = weapon_row(shooter)
    if row is None:
        return f"{shooter.name} has no shooting weapon"
    if target.side == shooter.side:
        return f"{target.name} is a friend"
    if ROUTED.of(shooter) or ROUTED.of(target):
        return "a routed unit neither shoots nor is shot at"
    if _in_melee(shooter):
        return f"{shooter.name} is in melee"
    if _in_melee(target):
        return f"{target.name} is in melee: no shooting into a melee"
    apart = distance(shooter, target)
    band = tables.range_band(apart)
    if band is None:
        return f"{target.name} is {apart:.1f}H away: beyond 12H"
    column = tables.shooting_column(band[0], profiles.mounted(target))
    if tables.cell(tables.SHOOTING, row, column) is None:
        return f"{tables.text(tables.SHOOTING, row)} cannot shoot at {band[1]}"
    return None


def _in_melee(unit: Unit) -> bool:
    found = MELEE_WITH.of(unit)
    return isinstance(found, list) and bool(found)


def _mod(row: str) -> tuple[int, str]:
    value = tables.cell(tables.SHOOTING_MODIFIERS, row, "dice")
    assert value is not None
    return value, tables.reason(tables.SHOOTING_MODIFIERS, row)


def dice_modifiers(
    state: BattleState, shooter: Unit, target: Unit, *, reaction: bool = False
) -> tuple[int, list[Modifier], str, str]:
    """The dice (current VBU), every change to their number with its reason, the table row
    used and the range band's key."""
    row = weapon_row(shooter)
    assert row is not None
    weapon = row.split(".")[0]
    artillery = weapon == "artillery"
    apart = distance(shooter, target)
    found = tables.range_band(apart)
    assert found is not None
    band, heading = found
    column = tables.shooting_column(band, profiles.mounted(target))
    value = tables.cell(tables.SHOOTING, row, column)
    assert value is not None
    against = "Any" if band == "extreme" else ("Mtd." if profiles.mounted(target) else "Foot")
    table_text = f"shooting table: {tables.text(tables.SHOOTING, row)}, {heading} {against}"
    mods = [Modifier(value, f"{table_text} ({apart:.1f}H)")]
    moves = MOVES.of(shooter)
    free = profiles.troop_type(shooter) in tables.FREE_FIRST_MOVE or (
        profiles.foot(shooter) and weapon == "javelin"
    )
    penalised = max(0, moves - 1) if free else moves
    if penalised:
        value, text = _mod("moved")
        mods.append(
            Modifier(value * penalised, f"{text} ({moves} move{'s' if moves != 1 else ''})")
        )
    if DISORDERED.of(shooter):
        mods.append(Modifier(*_mod("disordered")))
    if profiles.troop_type(shooter) != "S" and protection.indirect(state, shooter, target):
        mods.append(Modifier(*_mod("indirect")))
    if profiles.troop_type(target) in tables.LIGHT_TARGETS:
        mods.append(
            Modifier(*_mod("light_target_short" if band == "short" else "light_target_far"))
        )
    mods += _protection(state, shooter, target, artillery)
    if EVADES.of(target):
        mods.append(Modifier(*_mod("evaders")))
    # the target's group counts only against artillery: formed only then
    formed = groups.group_of(state, target, state.parameters) if artillery else None
    in_column = formed is not None and formed.formation == "column"
    big = profiles.large(target) or target.type == "W"
    if artillery and (big or in_column):
        value, text = _mod("artillery_big_target")
        if in_column and not big:
            assert formed is not None
            text = f"{text} ({target.name} is in {groups.describe(state, formed)})"
        mods.append(Modifier(value, text))
    if reaction:
        mods.append(Modifier(*_mod("reaction")))
    base = profiles.current_vbu(shooter)
    if not front(shooter, target) and shooter.type != "W":
        total = base + sum(m.value for m in mods)
        kept = math.ceil(max(0, total) / 2)
        mods.append(Modifier(kept - total, f"{tables.HALVE_FROM_SIDE.lstrip('- ')} (round up)"))
    return base, mods, row, band


def _protection(state: BattleState, shooter: Unit, target: Unit, artillery: bool) -> list[Modifier]:
    """Fortifications, else cover: a target behind a fortification piece takes its row
    (artillery its own), not the cover row as well; the cover row is for non-artillery."""
    piece = protection.fortification(state, target, shooter)
    if piece is not None:
        value, text = _mod("artillery_fortified" if artillery else "fortified")
        return [Modifier(value, f"{text} ({piece.name or piece.id})")]
    why = protection.cover(state, target, shooter)
    if why is None or artillery:
        return []
    value, text = _mod("cover")
    return [Modifier(value, f"{text} ({target.name} {why})")]


def dice_count(base: int, mods: list[Modifier]) -> int:
    """The dice left once every modifier applies (0 or fewer: no shooting)."""
    return base + sum(m.value for m in mods)


def shot_roll(
    state: BattleState, shooter: Unit, target: Unit, *, reaction: bool = False
) -> RollSpec:
    """The shooter's roll at the target (its dice, 6s counted: pairs of 5s are counted from
    the faces); rolled by ``resolve`` and read by the odds."""
    base, mods, _row, band = dice_modifiers(state, shooter, target, reaction=reaction)
    label = f"Shooting: {shooter.name} (VBU {base}) at {target.name}"
    why = Purpose(shooter.id, "reaction fire" if reaction else "shooting", target.id, band)
    return RollSpec(
        label, base, mode="pool", target=tables.HIT_FACE, dice_modifiers=tuple(mods), purpose=why
    )


def hits_of(faces: tuple[int, ...]) -> tuple[int, int, int]:
    """Hits from the faces: (sixes, pairs of fives, hits)."""
    sixes = sum(1 for f in faces if f == tables.HIT_FACE)
    pairs = sum(1 for f in faces if f == tables.PAIR_FACE) // 2
    return sixes, pairs, sixes + pairs


def hits_row(roll: Roll) -> tuple[int, str]:
    """The hits a roll gives and the words that show them."""
    sixes, pairs, hits = hits_of(roll.kept_faces)
    words = (
        f"{sixes} six{'es' if sixes != 1 else ''} + {pairs} pair{'s' if pairs != 1 else ''} of 5s"
    )
    return (
        hits,
        f"{words} = {hits} hit{'s' if hits != 1 else ''} (each 6 a hit, each pair of 5s a hit)",
    )


def hits_dist(n: int) -> Dist:
    """The exact distribution of hits from ``n`` dice (6s and pairs of 5s)."""
    if n <= 0:
        return Dist.certain(0)
    sixth = Fraction(1, 6)
    states: dict[tuple[int, int], Fraction] = {(0, 0): Fraction(1)}
    for _ in range(n):
        nxt: dict[tuple[int, int], Fraction] = {}
        for (hits, five), p in states.items():
            for key, q in (
                ((hits + 1, five), sixth),
                ((hits + five, 1 - five), sixth),
                ((hits, five), 1 - 2 * sixth),
            ):
                nxt[key] = nxt.get(key, Fraction(0)) + p * q
        states = nxt
    found: dict[int, Fraction] = {}
    for (hits, _five), p in states.items():
        found[hits] = found.get(hits, Fraction(0)) + p
    return Dist(found)


def cohesion_modifiers(
    state: BattleState, shooter: Unit, target: Unit, band: str, *, defensive: bool = False
) -> list[Modifier]:
    """The modifiers of the target's cohesion test after this shooting."""
    table = tables.COHESION_SHOOTING
    row = weapon_row(shooter)
    weapon = row.split(".")[0] if row else ""
    mods: list[Modifier] = []

    def add(key: str) -> None:
        value = tables.cell(table, key, "modifier")
        assert value is not None
        mods.append(Modifier(value, tables.reason(table, key)))

    if DISORDERED.of(target):
        add("disordered")
    mods += cohesion.general_modifier(state, target, "general", cohesion.SHOOTING)
    if profiles.troop_type(target) in tables.STEADY_TARGETS and weapon != "artillery":
        add("steady_target")
    if band == "short" and weapon in tables.SHORT_LIGHT_WEAPONS:
        add("short_light")
    if band in ("long", "extreme"):
        if weapon == "long_bow":
            add("long_longbow")
        elif weapon != "artillery":
            add("long_other")
    if defensive and weapon in tables.GUNS:
        add("defensive_guns")
    return mods


COHESION_TEST = "cohesion_test"  # what a shot's hits bring next (``ShotResolved.next``)


def resolve(
    ctx: Context, shooter: Unit, target: Unit, *, reaction: bool = False, defensive: bool = False
) -> int:
    """One unit shoots at a target: the roll, the hits, the target's cohesion test. Returns
    the hits."""
    base, mods, _row, band = dice_modifiers(ctx.state, shooter, target, reaction=reaction)
    ctx.emit(ShotFired(shooter.id, target.id, round(distance(shooter, target), 2)))
    if dice_count(base, mods) <= 0:
        why = ", ".join(m.describe() for m in mods)
        row = f"VBU {base} {why}: no dice left, no shooting"
        ctx.emit(
            ShotResolved(
                shooter.id, "shooting dice", 0, False, row, False, shooter.id, target.id, 0, ""
            )
        )
        return 0
    roll = shot_roll(ctx.state, shooter, target, reaction=reaction).roll(ctx.dice)
    hits, words = hits_row(roll)
    tested = hits > 0 and cohesion.alive(ctx.state, target.id)
    next_ = COHESION_TEST if tested else ""
    ctx.emit(
        ShotResolved(
            target.id,
            f"hits from {shooter.name}",
            hits,
            hits > 0,
            words,
            False,
            shooter.id,
            target.id,
            hits,
            next_,
        )
    )
    if tested:
        found = ctx.state.unit(target.id)
        cmods = cohesion_modifiers(ctx.state, shooter, found, band, defensive=defensive)
        cohesion.test(ctx, found, hits, cmods, cohesion.SHOOTING, f"shot by {shooter.name}")
    return hits
