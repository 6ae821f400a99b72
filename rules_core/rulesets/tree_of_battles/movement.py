"""Move distances and moving: march, normal and fast moves, rough ground, obstacles, lines."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace

from rules_core import paths
from rules_core.context import Context
from rules_core.dice import Modifier, Purpose
from rules_core.geometry import (
    EPSILON,
    TOUCH,
    Footprint,
    Point,
    edge_distance,
    facing_towards,
    overlapping,
)
from rules_core.geometry import near as units_near
from rules_core.rulesets.tree_of_battles import measure, tables
from rules_core.rulesets.tree_of_battles import units as u
from rules_core.rulesets.tree_of_battles.status import STATIONARY
from rules_core.state import BattleState, TerrainFeature, Unit
from rules_core.toolkit import landing_on

HALF = tables.MOVE_DIE_SF


@dataclass(frozen=True)
class Dice:
    """The dice of a move: AvD, the mounted D6, and the per-die adjustments in ½ SF."""

    avd: int
    d6: bool
    skirmish_bonus: bool
    rough: bool

    @property
    def count(self) -> int:
        """Dice rolled in all."""
        return self.avd + (1 if self.d6 else 0)

    def reach(self) -> tuple[float, float]:
        """The shortest and longest distance these dice can give, in SF."""
        per_die = (per_die_halves("skirmish_array") if self.skirmish_bonus else 0) + (
            per_die_halves("rough_terrain") if self.rough else 0
        )
        low = 2 * self.avd + (1 if self.d6 else 0) + per_die * self.count
        high = 5 * self.avd + (6 if self.d6 else 0) + per_die * self.count
        return max(0.0, low * HALF), max(0.0, high * HALF)

    def words(self) -> str:
        """The dice as the sheet writes them: ``2 AvD + D6 x ½ SF``."""
        text = f"{self.avd} AvD" + (" + D6" if self.d6 else "") + " x ½ SF"
        if self.skirmish_bonus:
            text += ", +½ SF a die"
        if self.rough:
            text += ", -½ SF a die in rough ground"
        return text


def per_die_halves(row: str) -> int:
    """A Move Distances row's "for each die" adjustment, in the ½ SF the dice count in."""
    cell = tables.MOVE_DISTANCES.lookup(row, "foot")
    assert isinstance(cell, int | float)
    return round(cell / HALF)


def manoeuvre_dps(row: str) -> int:
    """The DPs a row of the Manoeuvre table gives."""
    dps = tables.MANOEUVRES.lookup(row, "dps")
    assert isinstance(dps, int)
    return dps


def manoeuvre_spared(row: str) -> tuple[str, ...]:
    """The arrays (or grades) a row of the Manoeuvre table spares its DPs."""
    return tuple(str(tables.MANOEUVRES.lookup(row, "spared")).split(","))


def normal_dice(unit: Unit, count: int, option: str, rough: bool) -> Dice:
    """The dice of a normal move: 1 or 2 AvD, the optional D6 and skirmish bonus if taken."""
    d6 = u.mounted(unit) and option in ("extra_d6", "all")
    bonus = u.array(unit) == "skirmish" and option in ("skirmish_bonus", "all")
    return Dice(max(1, min(2, count)), d6, bonus, rough)


def fast_dice(unit: Unit) -> Dice:
    """A fast move: "use max dice and all optional additions"."""
    return Dice(2, u.mounted(unit), u.array(unit) == "skirmish", False)


def roll_distance(ctx: Context, unit: Unit, what: str, dice: Dice) -> tuple[float, tuple[int, ...]]:
    """Roll a move's dice; the distance in SF and the faces rolled (modifiers are in ½ SF)."""
    per_die: list[Modifier] = []
    if dice.skirmish_bonus:
        per_die.append(Modifier(per_die_halves("skirmish_array"), "skirmish array: +½ SF"))
    if dice.rough:
        per_die.append(Modifier(per_die_halves("rough_terrain"), "rough terrain: -½ SF"))
    mods = [Modifier(m.value * dice.avd, m.reason + " a die") for m in per_die]
    why = Purpose(unit.id, what)
    roll = ctx.dice.avd(f"{what}: {unit.name}, {dice.avd} AvD x ½ SF", dice.avd, mods, why)
    halves, faces = roll.total, roll.faces
    if dice.d6:
        extra = ctx.dice.d6(f"{what}: {unit.name}, mounted D6 x ½ SF", per_die, why)
        halves, faces = halves + extra.total, faces + extra.faces
    return max(0.0, halves * HALF), faces


def rough_on(state: BattleState, start: Footprint, end: Point) -> tuple[bool, bool]:
    """Whether a base moved straight to ``end`` enters rough ground, and dense woods."""
    report = measure.base_report(state, start, end)
    return bool(report.length_in(measure.DIFFICULT)), bool(report.length_in(measure.DENSE))


def road_move(state: BattleState, unit: Unit, end: Point) -> bool:
    """True if a move may use the road rate: in column, beginning and ending on a road."""
    start = (unit.x, unit.y)
    return (
        u.array(unit) == "column" and measure.on_road(state, start) and measure.on_road(state, end)
    )


def barrier(state: BattleState, poses: list[Footprint]) -> TerrainFeature | None:
    """The impassable ground a move through these poses would cross, or None.

    The sheet has no impassable terrain of its own: ground of the ``impassable`` kind (a lake,
    cliffs) stops every move, and a chosen move may not cross it to a point beyond.
    """
    return paths.barred_ground(state, poses)


def barrier_problem(state: BattleState, unit: Unit, end: Point, facing: float) -> str | None:
    """Why a chosen move straight to ``end`` may not go: its path crosses impassable ground."""
    here = Footprint.of(unit)
    poses = [here, here.moved_to(end, unit.facing), here.moved_to(end, facing)]
    found = barrier(state, poses)
    return None if found is None else f"the path crosses {terrain_name(found)}, impassable ground"


def terrain_name(feature: TerrainFeature) -> str:
    """A terrain feature as the log and the refusals name it."""
    return feature.name or feature.id


def final_facing(unit: Unit, end: Point, facing: float | None) -> float:
    """The facing after a move: as ordered, else kept if within 45° of the heading, else wheeled."""
    if facing is not None:
        return facing % 360
    if math.dist((unit.x, unit.y), end) < 1e-9:
        return unit.facing
    heading = facing_towards((unit.x, unit.y), end)
    turn = abs((heading - unit.facing + 180) % 360 - 180)
    return unit.facing if turn <= 45 else heading


def go(
    ctx: Context, unit: Unit, end: Point, length: float, facing: float, note: str, halt: bool = True
) -> float:
    """Move towards ``end`` up to ``length`` SF, halting at exactly 1 SF from enemy to the front."""
    start = Footprint.of(unit)
    heading = facing_towards((unit.x, unit.y), end) if math.dist((unit.x, unit.y), end) else 0.0
    wanted = min(length, math.dist((unit.x, unit.y), end))
    state = ctx.state
    friends = {f.id for f in state.units_of(unit.side)}
    # Nearer than the halt distance: exactly at it is where a halt stops (the shared tolerance).
    nearer = tables.HALT_SF - EPSILON
    limit = halt_at(state, unit, start.moved_to((unit.x, unit.y), facing), heading, wanted)
    limit = limit if halt else wanted

    acceptable = _judge(state, unit, start, (heading, limit), facing, nearer if halt else None)
    # Impassable ground stops it exactly where its front reaches it; the rest is searched.
    barred_at = paths.ground_stop(state, start, heading, wanted)
    limit = limit if barred_at is None else min(limit, barred_at)
    moved = measure.farthest(start, heading, limit, acceptable)
    moved = 0.0 if moved <= TOUCH + EPSILON else moved  # within rounding: no move
    stop = start.moved_to((unit.x, unit.y), heading).advanced(moved)
    # A halt is computed exactly: rounding the position could carry it beyond 1 SF.
    where = (stop.x, stop.y)
    if not moved == limit < wanted:
        moved, where = _settled(start, heading, moved, acceptable)
    ahead = _barrier_ahead(state, start, heading, wanted, facing) if moved + 1e-6 < wanted else None
    if moved <= 1e-6 and _crowded(state, unit, start.moved_to((unit.x, unit.y), facing)):
        facing = unit.facing  # no room even to turn where it stands: it keeps its facing
    notes = [note] + (
        ["halts 1 SF from the enemy to its front"]
        if halt and moved + 1e-6 < wanted and ahead is None
        else []
    )
    if ahead is not None:
        notes.append(f"stops short of {terrain_name(ahead)}, impassable ground")
    if moved <= 1e-6 and abs((facing - unit.facing + 180) % 360 - 180) < 1e-6:
        return 0.0
    ctx.move(unit.id, [(unit.x, unit.y), where], facing, notes)
    if moved > 1e-6:
        passage_of_lines(ctx, unit, start, Footprint.of(ctx.state.unit(unit.id)), friends)
    return moved


SETTLE_STEPS = 5  # 0.001 SF steps back at most before a move is given up as no move


def _settled(
    start: Footprint, heading: float, moved: float, acceptable: Callable[[Footprint], bool]
) -> tuple[float, Point]:
    """The move's length and where it is placed, rounded to 0.001 SF, stepped back 0.001 SF
    at a time until the rounded pose itself is acceptable (found by the AI fuzzer: a pose
    that only touched a neighbour could round onto it, e.g. Tree of Battles seeds 3, 25, 26)."""
    for _ in range(SETTLE_STEPS):
        stop = start.moved_to((start.x, start.y), heading).advanced(moved)
        where = (round(stop.x, 3), round(stop.y, 3))
        if moved <= 0 or acceptable(start.moved_to(where)):
            return moved, where
        moved = max(0.0, math.floor(moved * 1000 - 1) / 1000)
    return 0.0, (start.x, start.y)


def _judge(
    state: BattleState,
    unit: Unit,
    start: Footprint,
    way: tuple[float, float],
    facing: float,
    nearer: float | None,
) -> Callable[[Footprint], bool]:
    """Whether a pose on the way (its base moved straight ahead of ``start`` up to ``length``)
    may be stopped at: on the table, through no enemy, across no barrier, on nobody, and (if
    it halts, ``nearer`` given) closing on no enemy to its front but the one there already.

    The units are looked at once for the whole corridor the move may use, not per pose: the
    poses the search tries all lie in it, so what each check finds is the same.
    """
    (heading, length), side = way, unit.side
    friends = {f.id for f in state.units_of(side)}
    ahead_now = measure.enemy_to_front(state, start, side, nearer) if nearer is not None else None
    local = measure.Corridor.of(state, start, heading, length, nearer or 0.0, friends | {unit.id})

    def acceptable(pose: Footprint) -> bool:
        turned = pose.moved_to((pose.x, pose.y), facing)
        # The cheaper tests first (one failing is enough): a pose on another unit is the
        # commonest, passing through an enemy the dearest.
        if not measure.on_table(state, turned) or _crowded_among(local.units, unit.id, turned):
            return False
        if barrier(state, [start, pose, turned]) is not None:
            return False
        if local.passes_through(start, pose):
            return False
        near = None if nearer is None else measure.front_enemy(local.units, turned, side, nearer)
        if near is None:
            return True
        closing = edge_distance(turned, Footprint.of(near)) < edge_distance(
            start, Footprint.of(near)
        )
        return near is ahead_now and not closing

    return acceptable


def _barrier_ahead(
    state: BattleState, start: Footprint, heading: float, wanted: float, facing: float
) -> TerrainFeature | None:
    """The impassable ground that stopped a move short of the ``wanted`` distance, or None."""
    full = start.moved_to((start.x, start.y), heading).advanced(wanted)
    full = full.moved_to((full.x, full.y), start.facing)
    return barrier(state, [start, full, full.moved_to((full.x, full.y), facing)])


def halt_at(
    state: BattleState, unit: Unit, pose: Footprint, heading: float, length: float
) -> float:
    """How far a move (its final facing ``pose`` at the start) goes before an enemy first comes
    exactly 1 SF to its front, in closed form: "Must halt at 1 SF from enemy to their front"."""
    # Only enemies near the ground the move may cover can be met (the table's boxes are kept).
    x0, y0, x1, y1 = pose.bounds
    box = (x0 - length, y0 - length, x1 + length, y1 + length)
    nearby = units_near(state.units_on_table, box, tables.HALT_SF)
    enemies = [e for e in nearby if e.side != unit.side]
    found = paths.front_reached(pose, heading, length, enemies, tables.HALT_SF)
    return length if found is None else found


def _crowded(state: BattleState, unit: Unit, pose: Footprint) -> bool:
    """True if a pose of the unit would stand on another contingent."""
    return _crowded_among(state.units_on_table, unit.id, pose)


def _crowded_among(units: tuple[Unit, ...], unit_id: str, pose: Footprint) -> bool:
    """True if a pose of a unit would stand on another of these contingents."""
    return any(
        u.id != unit_id and overlapping(pose, Footprint.of(u))
        for u in units_near(units, pose.bounds)
    )


def terrain_dps(ctx: Context, unit: Unit, start: Point, faces: tuple[int, ...]) -> None:
    """DPs for moving through rough ground and across obstacles."""
    now = ctx.state.unit(unit.id)
    report = measure.base_report(ctx.state, Footprint.of(unit).moved_to(start), (now.x, now.y))
    loose = u.array(unit) in u.LOOSE_ARRAYS
    if report.length_in(measure.DIFFICULT):
        if not loose and u.array(unit) != "skirmish":
            u.add_dps(ctx, unit.id, tables.ROUGH_TERRAIN_DP, "moved in rough terrain in good array")
        if not u.mounted(unit) and u.armour(unit) == 2 and tables.FULL_HARNESS_DIE in faces:
            why = "foot in full harness rolled a 4 in rough terrain"
            u.add_dps(ctx, unit.id, tables.FULL_HARNESS_DP, why)
    crossed = measure.obstacles_crossed(report, ctx.state.terrain)
    if crossed["minor"] and u.array(unit) not in manoeuvre_spared("minor_obstacle"):
        u.add_dps(ctx, unit.id, manoeuvre_dps("minor_obstacle"), "crossed a minor obstacle")
    if crossed["defensive"] and u.mounted(unit):
        why = "mounted crossing a defensive obstacle"
        u.add_dps(ctx, unit.id, manoeuvre_dps("defensive_obstacle"), why)
    if crossed["major"]:
        major = manoeuvre_dps("major_obstacle")
        dps = tables.MAJOR_OBSTACLE_FULL_HARNESS_DPS if u.armour(unit) == 2 else major
        u.add_dps(ctx, unit.id, dps, "crossed a major obstacle")


def wheel_dps(ctx: Context, unit: Unit, facing: float) -> None:
    """Wheel: 1 DP in 6 SF of enemy, no penalty if column, skirmish or disarray."""
    if abs((facing - unit.facing + 180) % 360 - 180) < 1e-6:
        return
    within = tables.MANOEUVRES.lookup("wheel", "enemy_within")
    assert isinstance(within, float)
    spared = u.array(unit) in manoeuvre_spared("wheel")
    if spared or not measure.enemy_within(ctx.state, unit, within):
        return
    u.add_dps(ctx, unit.id, manoeuvre_dps("wheel"), "wheeled within 6 SF of the enemy")


def passage_of_lines(
    ctx: Context, unit: Unit, start: Footprint, end: Footprint, friends: set[str]
) -> None:
    """Passage of lines: no penalty if one is stationary and one skirmish; else 1 DP each."""
    passed = measure.blockers(
        ctx.state, unit, [start, end], {e.id for e in ctx.state.enemies_of(unit.side)}
    )
    for other in passed:
        if other.id not in friends:
            continue
        spared = (u.skirmishers(unit) or u.array(unit) == "skirmish") and STATIONARY.of(other)
        spared = spared or (
            (u.skirmishers(other) or u.array(other) == "skirmish") and STATIONARY.of(unit)
        )
        if spared:
            continue
        each = manoeuvre_dps("passage_of_lines")
        u.add_dps(ctx, unit.id, each, f"passage of lines through {other.name}")
        extra = tables.PASSAGE_BY_MOUNTED_EXTRA_DP if u.mounted(unit) else 0
        u.add_dps(ctx, other.id, each + extra, f"passage of lines by {unit.name}")


def away_from(unit: Unit, threat: Point) -> float:
    """The heading straight away from a threat."""
    if math.dist((unit.x, unit.y), threat) < 1e-9:
        return (unit.facing + 180) % 360
    return facing_towards(threat, (unit.x, unit.y))


def impassable(unit: Unit) -> frozenset[str]:
    """Terrain a contingent may not enter: "Mounted may not enter dense woods"."""
    return measure.DENSE if u.mounted(unit) else frozenset()


def flight(
    state: BattleState, unit: Unit, threat: Point, length: float, leaves_table: bool
) -> paths.Sweep:
    """A fast move straight away from a threat, turned to face away, checked along its path.

    Friends are passed through (the sheet's passage of lines) but never ended on; enemies and
    ground the contingent may not enter stop it; the edge stops it unless it may leave the table.
    """
    heading = away_from(unit, threat)
    move = paths.sweep(
        state,
        unit,
        heading,
        length,
        facing=heading,
        friends_pass=True,
        impassable=impassable(unit),
        leaves_table=leaves_table,
    )
    return _clear_of_the_left_behind(state, unit, move)


def _clear_of_the_left_behind(state: BattleState, unit: Unit, move: paths.Sweep) -> paths.Sweep:
    """The flight, or no flight at all if it would end on a unit its turned start overlapped.

    The sweep leaves behind a unit the base overlaps only by turning to go; stopped short
    (by something else) before it is clear of that unit, it would end on it (found by the AI
    fuzzer, seeds 7, 12, 14: skirmishers evading onto the crossbowmen beside them). Every pose
    nearer the start overlaps it too (both bases are convex), so the sheet's "If unable to
    retire, remain in place" is followed: it stays where it stands, unturned.
    """
    end = move.end.moved_to((round(move.end.x, 3), round(move.end.y, 3)))  # as ``carry`` puts it
    other = landing_on(state, unit, end)
    if other is None:
        return move
    kind = paths.FRIEND if other.side == unit.side else paths.ENEMY
    return replace(move, reached=0.0, blocker=paths.Blocker(kind, other.id), passed=())


def carry(ctx: Context, unit: Unit, move: paths.Sweep, note: str) -> None:
    """Move a contingent to where a checked move stops, paying for any passage of lines."""
    if move.reached <= 1e-6:
        return
    end = move.end
    ctx.move(unit.id, [(unit.x, unit.y), (round(end.x, 3), round(end.y, 3))], end.facing, [note])
    if move.passed:
        friends = {f.id for f in ctx.state.units_of(unit.side)}
        passage_of_lines(ctx, unit, move.start, Footprint.of(ctx.state.unit(unit.id)), friends)


def in_the_way(state: BattleState, blocker: paths.Blocker | None) -> str:
    """What stopped a move, for the log."""
    if blocker is None:
        return "nothing"
    if blocker.kind == paths.EDGE:
        return "the table edge"
    if blocker.kind == paths.TERRAIN:
        return next((f.name or f.id for f in state.terrain if f.id == blocker.id), blocker.id)
    return state.unit(blocker.id).name
