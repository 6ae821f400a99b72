"""Hail Caesar measurements in inches: move rates, sight, proximity, charges and free paths."""

from __future__ import annotations

import math
import threading
from collections import OrderedDict
from dataclasses import replace
from typing import NamedTuple

from rules_core import paths, toolkit
from rules_core.geometry import (
    EPSILON,
    Footprint,
    Point,
    around,
    boxes_apart,
    contact_edge,
    edge_distance,
    facing_towards,
    interpenetrated,
    near,
    overlapping,
    quarter,
    within,
)
from rules_core.rulesets.hail_caesar import kept, tables
from rules_core.rulesets.hail_caesar.apart import swept_apart
from rules_core.rulesets.hail_caesar.tables import FAST_IN_OPEN_ORDER, MOVE_ROW, SIX, TWELVE
from rules_core.state import BattleState, TerrainFeature, Unit
from rules_core.terrain import Sight, areas_near, feature_shape, line_of_sight
from rules_core.toolkit import gap as gap  # re-exported: the ruleset measures through here
from rules_core.toolkit import nearest_enemy as nearest_enemy

# Hills, woods and buildings block sight (the sheet's Visibility section).
SIGHT_BLOCKERS = frozenset({"hill", "wood", "dense_wood", "village"})
OPEN_ORDER = "open_order"
# Offsets of a charger's facing from its target's, by the target's edge it touches.
EDGE_TURN = {"front": 180.0, "rear": 0.0, "left": 90.0, "right": 270.0}
SLIDE_STEP = 0.1  # inches a charger slides along its target's edge at a time to find room


def rate(unit: Unit) -> float:
    """Inches in one move, from the Moving Units Table by troop type and formation."""
    row = MOVE_ROW.get(unit.type, SIX)
    if unit.type in FAST_IN_OPEN_ORDER and unit.formation == OPEN_ORDER:
        row = TWELVE
    value = tables.MOVING_UNITS.lookup(row, "inches")  # at call time: a swapped table moves
    assert isinstance(value, int)
    return float(value)


def sight(state: BattleState, viewer: Unit, target: Unit) -> Sight:
    """Sight from the viewer's centre-front; hills, woods, buildings and units block it."""
    # As ``toolkit.sight``, but only the units whose boxes meet the box of every sight line are
    # handed on (``line_of_sight`` drops the others unseen): a box test over the state's kept
    # table instead of a footprint for every unit on it, for each shot and charge judged.
    here, there = Footprint.of(viewer), Footprint.of(target)
    ends = (here.front_centre, (there.x, there.y), *there.corners())
    xs, ys = [p[0] for p in ends], [p[1] for p in ends]
    lines = (min(xs), min(ys), max(xs), max(ys))
    others = tuple(
        (u.id, Footprint.of(u))
        for u in near(state.units_on_table, lines, EPSILON)
        if u.id not in (viewer.id, target.id)
    )
    terrain = state.terrain
    return kept.sight(
        terrain,
        (here, there, others),
        lambda: line_of_sight(here, there, terrain, others, SIGHT_BLOCKERS),
    )


def enemies_within(state: BattleState, unit: Unit, reach: float, seen: bool = False) -> list[Unit]:
    """Enemy units within ``reach`` inches edge to edge, optionally only those it can see."""
    here, limit = Footprint.of(unit), reach + EPSILON
    found = [
        e
        for e in near(state.units_on_table, here.bounds, limit)
        if e.side != unit.side
        and not boxes_apart(here, Footprint.of(e), limit)
        and within(gap(unit, e), reach)
    ]
    return [e for e in found if sight(state, unit, e).clear] if seen else found


def edge_touched(unit: Unit, other: Unit) -> str:
    """Which edge of ``unit`` the other unit touches (front if unclear)."""
    return contact_edge(Footprint.of(unit), Footprint.of(other)) or "front"


def charge_pose(charger: Unit, target: Unit, slide: float = 0.0) -> tuple[Footprint, str]:
    """Where a charger ends touching its target, and the target's edge it strikes.

    The edge is the target's quarter the charger's centre stands in; the charger faces
    squarely into it, centred on it or ``slide`` inches along it (to the target's right for
    its front edge, as the target sees it).
    """
    aim = Footprint.of(target)
    edge = quarter(aim, (charger.x, charger.y))
    half = charger.depth / 2
    offsets = {
        "front": (aim.depth / 2 + half, slide),
        "rear": (-aim.depth / 2 - half, slide),
        "left": (slide, -aim.frontage / 2 - half),
        "right": (slide, aim.frontage / 2 + half),
    }
    ahead, across = offsets[edge]
    centre = aim.at(ahead, across)
    facing = (target.facing + EDGE_TURN[edge]) % 360
    return Footprint.of(charger).moved_to(centre, facing), edge


def charge_room(state: BattleState, charger: Unit, target: Unit) -> tuple[Footprint, str] | None:
    """Where a charger has room to strike its target, or None if it has none.

    The sheet is silent on crowded targets; the plain reading taken here: a charger may not
    end on another unit, friend or enemy, so it slides along the target's edge (its centre
    staying opposite that edge) to the nearest place where it overlaps no one but the target;
    with no such place the charge cannot be made.
    """
    centred, edge = charge_pose(charger, target)
    aim = Footprint.of(target)
    half_edge = (aim.frontage if edge in ("front", "rear") else aim.depth) / 2
    steps = int(half_edge / SLIDE_STEP + EPSILON)
    for step in range(steps + 1):
        for slide in (step * SLIDE_STEP, -step * SLIDE_STEP) if step else (0.0,):
            pose = centred if not step else charge_pose(charger, target, slide)[0]
            if not crowded(state, charger, pose, (target.id,)):
                return pose, edge
    return None


def crowded(state: BattleState, unit: Unit, pose: Footprint, spare: tuple[str, ...] = ()) -> str:
    """The first other unit a pose would overlap (more than a touch), or "" if none."""
    for other in near(state.units_on_table, pose.bounds):
        if other.id != unit.id and other.id not in spare and overlapping(pose, Footprint.of(other)):
            return other.name
    return ""


def charge_distance(charger: Unit, target: Unit, state: BattleState | None = None) -> float:
    """How far a charger travels (its centre, and so its front) to its place at the target
    (where it has room, given the state; else centred on the target's edge)."""
    room = None if state is None else charge_room(state, charger, target)
    pose, _ = charge_pose(charger, target) if room is None else room
    return math.dist((charger.x, charger.y), (pose.x, pose.y))


def blocker(state: BattleState, unit: Unit, end: Footprint, spare: tuple[str, ...] = ()) -> str:
    """The first unit a move to ``end`` passes through, or "" if none."""
    skip = {unit.id, *spare}
    poses = [Footprint.of(unit), end]
    others = [
        (u.name, there)
        for u in near(state.units_on_table, around(poses))
        if u.id not in skip and not swept_apart(poses[0], end, there := Footprint.of(u))
    ]  # units a line shows apart share no ground: shapely builds the ground for the others
    found = interpenetrated(poses, others) if others else ()
    return found[0] if found else ""


def too_close(
    state: BattleState, unit: Unit, end: Footprint, keep_off: float, spare: tuple[str, ...] = ()
) -> str:
    """The first enemy a move would end within ``keep_off`` inches of, or "" if none."""
    # Only units whose boxes come within ``keep_off`` of the pose's box can be too close (a
    # box test over the state's kept table, in its order: the same first enemy as a scan).
    for enemy in near(state.units_on_table, end.bounds, keep_off):
        if enemy.side == unit.side or enemy.id in spare:
            continue
        there = Footprint.of(enemy)
        if boxes_apart(end, there, keep_off):
            continue  # farther than the boxes' gap, so not too close
        if edge_distance(end, there) < keep_off - EPSILON:
            return enemy.name
    return ""


def on_table(state: BattleState, pose: Footprint) -> bool:
    """True if the whole footprint lies on the table."""
    field = state.battlefield
    return all(
        -EPSILON <= x <= field.width + EPSILON and -EPSILON <= y <= field.depth + EPSILON
        for x, y in pose.corners()
    )


def barrier(state: BattleState, unit: Unit, *poses: Footprint) -> TerrainFeature | None:
    """The impassable ground a move from where the unit stands through ``poses`` would cross.

    The sheet names no impassable terrain and has no river rule: ground of the ``impassable``
    kind (a lake, cliffs) stops every move, along its whole path, while rivers, streams, bridges,
    fords and gentle hills are open ground for movement.
    """
    return paths.barred_ground(state, [Footprint.of(unit), *poses])


def barrier_words(feature: TerrainFeature) -> str:
    """Why a move may not cross impassable ground."""
    return f"the path crosses {feature.name or feature.id}, impassable ground"


def turn_too_close(state: BattleState, unit: Unit, facing: float, keep_off: float) -> str:
    """The enemy that turning in place to ``facing`` would bring within ``keep_off``, or ""."""
    # A move stops where it first comes within the keep-off, and its turn comes first; a unit
    # already that near (pushed there) may still turn to move away.
    here = Footprint.of(unit)
    if facing % 360 == here.facing % 360 or too_close(state, unit, here, keep_off):
        return ""
    return too_close(state, unit, here.moved_to((unit.x, unit.y), facing), keep_off)


class Reach(NamedTuple):
    """Where a move gets to, and the unit beside it that left it no room to turn and go
    (``beside``, "" if none: then it stands unturned where it stood)."""

    pose: Footprint
    beside: str = ""


def reachable(
    state: BattleState, unit: Unit, goal: Point, length: float, facing: float, keep_off: float
) -> Footprint:
    """The farthest pose towards ``goal`` within ``length`` (see ``reach``)."""
    return reach(state, unit, goal, length, facing, keep_off).pose


def reach(
    state: BattleState, unit: Unit, goal: Point, length: float, facing: float, keep_off: float
) -> Reach:
    """The farthest pose towards ``goal`` within ``length`` that passes through nobody and
    ends no nearer an enemy than ``keep_off`` (a stop there is computed exactly); where the
    turn to ``facing`` alone would come that near, or with no room to turn and go where it
    stands, the unit as it stands, unturned. The order check asks it too (orders._move)."""
    if turn_too_close(state, unit, facing, keep_off):
        return Reach(Footprint.of(unit))
    start = (unit.x, unit.y)
    whole = math.dist(start, goal)
    share = 1.0 if within(whole, length) else length / whole
    if whole > EPSILON and facing % 360 == unit.facing % 360:
        # Going straight, impassable ground stops it exactly where its front reaches it.
        pose = Footprint.of(unit)
        barred_at = paths.ground_stop(state, pose, facing_towards(start, goal), whole * share)
        share = share if barred_at is None else barred_at / whole

    def at(part: float) -> Footprint:
        return Footprint.of(unit).moved_to(_rounded(_between(start, goal, part)), facing)

    def fits(pose: Footprint) -> bool:
        return (
            on_table(state, pose)
            and not blocker(state, unit, pose)
            and not too_close(state, unit, pose, keep_off)
            and barrier(state, unit, pose) is None
        )

    kept = _kept_off(state, unit, goal, share * whole, facing, keep_off)
    if kept is not None:  # not rounded: rounding could carry it beyond the keep-off
        share = kept / whole
        exact = Footprint.of(unit).moved_to(_between(start, goal, share), facing)
        if fits(exact):
            return Reach(exact)
    if fits(at(share)):
        return Reach(at(share))
    low, high = 0.0, share
    for _ in range(30):
        middle = (low + high) / 2
        low, high = (middle, high) if fits(at(middle)) else (low, middle)
    # The search never tries its start: turned where it stands, the base may already be on a
    # unit beside it (found by the AI fuzzer, seed 5: an initiative move's turn swung onto a
    # friend). Then it has no room to go, and stays as it stands, unturned. (One already
    # within the keep-off may still turn to move away, as ``turn_too_close`` allows.)
    stop = at(low)
    beside = crowded(state, unit, stop) or blocker(state, unit, stop)
    return Reach(Footprint.of(unit), beside) if beside else Reach(stop)


def _kept_off(
    state: BattleState, unit: Unit, goal: Point, length: float, facing: float, keep_off: float
) -> float | None:
    """How far a move towards ``goal`` (turned to ``facing`` as it goes) gets before an enemy
    first comes exactly ``keep_off`` from it, in closed form; None if none does on the way."""
    if length <= EPSILON:
        return None
    pose = Footprint.of(unit).moved_to((unit.x, unit.y), facing)
    heading = facing_towards((unit.x, unit.y), goal)
    path = around([pose, pose.moved_to(_between((unit.x, unit.y), goal, 1.0), facing)])
    stops = [
        paths.gap_reached(pose, heading, length, Footprint.of(e), keep_off)
        for e in near(state.enemies_of(unit.side, on_table=True), path, keep_off)
    ]
    return min((s for s in stops if s is not None), default=None)


def shifted(unit: Unit, direction: str, length: float) -> Point:
    """The point ``length`` inches from the unit's centre to its front, back, left or right."""
    here = Footprint.of(unit)
    ahead, across = {
        "forward": (length, 0.0),
        "back": (-length, 0.0),
        "left": (0.0, -length),
        "right": (0.0, length),
    }[direction]
    return here.at(ahead, across)


def away_from(unit: Unit, other: Unit, length: float) -> Point:
    """The point ``length`` inches from the unit directly away from another unit."""
    heading = facing_towards((other.x, other.y), (unit.x, unit.y))
    return Footprint.of(unit).moved_to((unit.x, unit.y), heading).at(length, 0.0)


def terrain_kinds_at(state: BattleState, unit: Unit) -> set[str]:
    """The kinds of area terrain the unit's centre stands in."""
    # Asked for both fighters of every attack and every save: kept per table and spot (a
    # state's terrain is a tuple of frozen features that never changes within a battle).
    terrain, spot = state.terrain, (unit.x, unit.y)
    with _KINDS_LOCK:
        kept = _KINDS.get(id(terrain))
        found = kept[1].get(spot) if kept is not None and kept[0] is terrain else None
    if found is None:
        found = _kinds_at(terrain, spot)
        with _KINDS_LOCK:
            if kept is None or kept[0] is not terrain:
                kept = _KINDS[id(terrain)] = (terrain, {})
                while len(_KINDS) > _KINDS_KEPT:
                    _KINDS.popitem(last=False)
            kept[1][spot] = found
    return set(found)


def _kinds_at(terrain: tuple[TerrainFeature, ...], point: Point) -> frozenset[str]:
    """The kinds of area terrain covering a point."""
    from shapely import Point as ShapelyPoint

    spot = ShapelyPoint(*point)
    return frozenset(f.kind for f in areas_near(terrain, point) if feature_shape(f).covers(spot))


_KINDS: OrderedDict[int, tuple[tuple[TerrainFeature, ...], dict[Point, frozenset[str]]]]
_KINDS = OrderedDict()
_KINDS_KEPT = 8  # tables kept (each holding its tuple, so that its id is not reused meanwhile)
_KINDS_LOCK = threading.Lock()


def supports(state: BattleState, unit: Unit, reach: float) -> list[Unit]:
    """Friendly units behind or beside this one within ``reach``, not fighting themselves."""
    here = Footprint.of(unit)
    found = []
    for friend in near(state.units_on_table, here.bounds, reach + EPSILON):
        if friend.side != unit.side or friend.id == unit.id:
            continue
        if not within(gap(unit, friend), reach) or toolkit.engaged(state, friend):
            continue  # the cheaper test first: the same units either way
        if quarter(here, (friend.x, friend.y)) != "front":
            found.append(friend)
    return found


def face(unit: Unit, target: Unit) -> float:
    """The facing that turns a unit towards another."""
    return facing_towards((unit.x, unit.y), (target.x, target.y))


def placed(unit: Unit, pose: Footprint) -> Unit:
    """The unit moved to a footprint's position and facing."""
    return replace(unit, x=pose.x, y=pose.y, facing=pose.facing)


def _between(a: Point, b: Point, share: float) -> Point:
    return (a[0] + (b[0] - a[0]) * share, a[1] + (b[1] - a[1]) * share)


def _rounded(point: Point) -> Point:
    return (round(point[0], 4), round(point[1], 4))


def sized_dice(state: BattleState, unit: Unit, value: int, ranged: bool) -> tuple[int, list[str]]:
    """A combat or ranged value moved by the unit-size and formation tables (hand-to-hand or
    ranged), with the reasons the log gives."""
    # Tables are looked up through the module at call time so a swapped-in table drives play.
    if ranged:
        size, formation, column = tables.UNIT_SIZE_RANGED, tables.FORMATION_RANGED, "ranged_value"
    else:
        size, formation = tables.UNIT_SIZE_HAND_TO_HAND, tables.FORMATION_HAND_TO_HAND
        column = "combat_value"
    notes: list[str] = []
    row = str(unit.get("size", "standard"))
    dice = value
    if row in size.rows:
        dice = tables.dice_after(dice, size.lookup(row, column))
        if row != "standard":  # the sheet's baseline, never named in a label
            notes.append(f"{row} unit")
    if "village" in terrain_kinds_at(state, unit):
        dice = tables.dice_after(dice, formation.lookup("buildings", column))
        notes.append("in buildings")
    elif unit.formation in formation.rows:
        dice = tables.dice_after(dice, formation.lookup(unit.formation, column))
        notes.append(unit.formation)
    return dice, notes
