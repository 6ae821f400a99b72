"""Moves the rules make, not the players: recoil, rout, pursuit, advance into vacated ground.

Called by the Combat step and by movement. Each returns what happened in a word:

- ``recoil(ctx, unit, away_from, inches=4)``: moves the unit ``inches`` directly away from the
  enemy (a unit, or a point such as the shooter's position), facing it. Returns "recoiled",
  "eliminated" (no 5" gap between enemy units to pass), "blocked" (stopped short by impassable
  ground or the table edge: it stays where it got to).
- ``rout_move(ctx, unit, away_from)``: the March Column rate (Normal where that is n/a), facing
  away, paying terrain costs; passes between enemy units with a 5" gap or is eliminated;
  leaving the table puts it off the table for good (``left_in_rout``). Returns "routed",
  "eliminated", "off_table" or "blocked".
- ``pursue(ctx, unit, target)``: the Normal rate towards the target, paying terrain costs; stops
  in contact (the pursuer is the attacker next melee) or follows it off the table
  (``left_in_pursuit``: may come back within 6" of where it left once sound). Returns
  "contact", "pursued", "off_table" or "blocked".
- ``advance_into(ctx, unit, vacated)``: one winning unit may advance into the ground the
  loser (``vacated``: the loser as it stood before it moved) left, then change facing: two
  questions to the winner's side (topics ``advance_into`` and ``advance_facing``). Returns
  True if it advanced.
- ``attacked_on(defender, attacker)``: "front", "flank" or "rear" from the contact geometry.
- ``remove_from_battle(ctx, unit_id, reason)``: destroyed: off the table, cohesion
  "destroyed" (kept in the state so fatigue and General Will count it).

Friends are passed through, and so are enemies with a 5" gap between them: a retreat never
ends on another unit, it goes on until clear.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import replace

from rules_core.codec import Json
from rules_core.context import Context
from rules_core.decisions import Option
from rules_core.geometry import (
    EPSILON,
    Footprint,
    facing_towards,
    overlap_area,
    overlapping,
)
from rules_core.paths import EDGE, ENEMY, FRIEND, TERRAIN, barred_ground, ground_stop, sweep
from rules_core.rulesets.pike_and_shot import movement_tables as mt
from rules_core.rulesets.pike_and_shot.kept import nearest_enemy, touching_edge
from rules_core.rulesets.pike_and_shot.topics import (
    ADVANCE,
    ADVANCE_FACING,
    ADVANCE_WORDS,
    FACING_WORDS,
)
from rules_core.state import LINEAR_KINDS, WATER_KINDS, BattleState, Point, Unit
from rules_core.terrain import PathReport, poses_along, trace_footprint
from rules_core.unit_questions import options_of, unit_question

Source = Unit | Point
PASSAGE = 5.0  # the sheet: a retreat passes between enemy brigades with a 5-inch gap


def _centre(source: Source) -> Point:
    if isinstance(source, Unit):
        if not source.on_table and source.left_at is not None:
            return source.left_at
        return (source.x, source.y)
    return (float(source[0]), float(source[1]))


def heading_away(unit: Unit, away_from: Source) -> float:
    """The compass heading directly away from the source (backwards if it is on top)."""
    cx, cy = _centre(away_from)
    if math.dist((cx, cy), (unit.x, unit.y)) < 1e-9:
        return (unit.facing + 180.0) % 360
    return facing_towards((cx, cy), (unit.x, unit.y))


def remove_from_battle(ctx: Context, unit_id: str, reason: str) -> None:
    """The unit is destroyed: taken off the table, its cohesion "destroyed"."""
    unit = ctx.state.unit(unit_id)
    ctx.set_status(unit_id, reason, cohesion="destroyed", pursuing=False)
    if unit.on_table:
        ctx.take_off_table(unit_id, reason)


def recoil(ctx: Context, unit: Unit, away_from: Source, inches: float = 4.0) -> str:
    """Recoil ``inches`` directly away from ``away_from``, facing it."""
    heading = heading_away(unit, away_from)
    facing = (heading + 180.0) % 360
    result = _retreat(ctx, unit, heading, inches, facing, rout=False)
    if result != "eliminated":
        ctx.set_status(unit.id, None, recoiled=True)
    return "recoiled" if result == "moved" else result


def rout_move(ctx: Context, unit: Unit, away_from: Source) -> str:
    """A rout move: March Column rate (Normal if n/a), facing away, paying terrain."""
    params = ctx.params
    length = mt.march_rate(unit, params) or mt.normal_rate(unit, params)
    heading = heading_away(unit, away_from)
    result = _retreat(ctx, unit, heading, length, heading, rout=True)
    return "routed" if result == "moved" else result


def _retreat(
    ctx: Context, unit: Unit, heading: float, length: float, facing: float, *, rout: bool
) -> str:
    """A recoil or rout along ``heading``: 5" gaps between enemies, friends passed."""
    params = ctx.params
    impassable = _kinds(params, "impassable_terrain")
    if rout:
        length = _affordable(ctx.state, unit, heading, length, facing, params)
    # The strip for the 5" gap may be narrower than the base: the whole base meets the ground.
    base = Footprint.of(unit).moved_to((unit.x, unit.y), facing)
    grounded = ground_stop(ctx.state, base, heading, length, impassable=impassable)
    length = length if grounded is None else grounded
    narrow = replace(unit, frontage=min(unit.frontage, PASSAGE) - 2e-3, facing=facing)
    swept = sweep(
        ctx.state,
        narrow,
        heading,
        length,
        facing=facing,
        friends_pass=True,
        impassable=impassable,
        leaves_table=rout,
    )
    if swept.blocker is not None and swept.blocker.kind == ENEMY:
        blocker = ctx.state.unit(swept.blocker.id)
        remove_from_battle(
            ctx, unit.id, f'no {PASSAGE:g}" gap to retreat past {blocker.name}: eliminated'
        )
        return "eliminated"
    reached = swept.reached
    if swept.blocker is not None and swept.blocker.kind == FRIEND:
        reached = length  # friends are passed: it goes its full distance, then on until clear
    end = _clear_of_units(ctx.state, unit, heading, reached, facing)
    start = (unit.x, unit.y)
    notes = ("recoils" if not rout else "routs",)
    ctx.move(unit.id, [start, end], facing, notes)
    moved = ctx.state.unit(unit.id)
    if rout and not _on_table(ctx.state, moved):
        ctx.set_status(unit.id, "routed off the table: never returns", left_in_rout=True)
        ctx.take_off_table(unit.id, "routed off the table")
        return "off_table"
    if grounded is not None or (
        swept.blocker is not None and swept.blocker.kind in (TERRAIN, EDGE)
    ):
        return "blocked"
    return "moved"


def _clear_of_units(
    state: BattleState, unit: Unit, heading: float, reached: float, facing: float
) -> Point:
    """Where a retreat ends: ``reached`` along the heading, or further until it stands clear
    of every friend and enemy (never on top of one: a base wider than the 5" strip that
    found the gap may still end on the enemies it passed between)."""
    fx, fy = math.sin(math.radians(heading)), math.cos(math.radians(heading))
    others = [
        (u.side == unit.side, Footprint.of(u)) for u in state.units_on_table if u.id != unit.id
    ]
    distance = reached
    for _ in range(60):
        end = (round(unit.x + fx * distance, 6), round(unit.y + fy * distance, 6))
        pose = Footprint.of(unit).moved_to(end, facing)
        if not any(_on_top(pose, other, friend) for friend, other in others):
            return end
        distance += 0.5
    return (round(unit.x + fx * reached, 6), round(unit.y + fy * reached, 6))


def _on_top(pose: Footprint, other: Footprint, friend: bool) -> bool:
    """A friend is left by any share of ground; an enemy may still touch it, edge to edge."""
    return overlap_area(pose, other) > 1e-6 if friend else overlapping(pose, other)


def _on_table(state: BattleState, unit: Unit) -> bool:
    table = state.battlefield
    return all(
        -1e-6 <= x <= table.width + 1e-6 and -1e-6 <= y <= table.depth + 1e-6
        for x, y in Footprint.of(unit).corners()
    )


def _kinds(params: Mapping[str, Json], name: str) -> tuple[str, ...]:
    value = params.get(name, ())
    return tuple(str(v) for v in value) if isinstance(value, list | tuple) else ()


def terrain_cost(
    unit: Unit,
    points: list[Point],
    state: BattleState,
    params: Mapping[str, Json],
    *,
    ignore_difficult: bool = False,
    ignore_obstacles: bool = False,
    budget: float | None = None,
) -> tuple[float, bool]:
    """The inches of move a path costs the unit (each inch of difficult terrain Normal /
    Difficult rate inches; a linear obstacle its crossing cost: a "Full move" is the whole of
    ``budget``, the Normal move unless given, "½ move" half of it), and whether it may be
    crossed at all. The ground is what the unit's whole base goes over, not its centre line;
    ground its row bars (n/a, crossing points) it may not enter but may always leave."""
    poses = poses_along(Footprint.of(unit), points)
    report = trace_footprint(poses, state.terrain)
    barred = barred_kinds(
        unit, params, difficult=not ignore_difficult, obstacles=not ignore_obstacles
    )
    if barred and barred_ground(state, poses, impassable=barred) is not None:
        return report.length, False
    normal = mt.normal_rate(unit, params)
    whole = normal if budget is None else budget
    cost = report.length
    difficult = difficult_length(report, params)
    slow = mt.cell(unit, "difficult", params)
    if difficult > 1e-9 and not ignore_difficult and isinstance(slow, int | float):
        cost += difficult * (normal / float(slow) - 1.0)
    obstacles = _kinds(params, "linear_obstacles")
    bridged = report.crossed_via(("bridge",), [k for k in obstacles if k in WATER_KINDS])
    crossed = report.crossed(obstacles) - bridged
    if crossed > 0 and not ignore_obstacles:
        rule = mt.cell(unit, "linear_obstacle", params)
        if rule == mt.FULL:
            cost += whole * crossed
        elif rule == mt.HALF:
            cost += whole / 2 * crossed
    return cost, True


def difficult_length(report: PathReport, params: Mapping[str, Json]) -> float:
    """The inches of a move during which any part of the base is in difficult terrain (none
    for a turn in place: the base stands in it, it does not move through it)."""
    if report.length <= EPSILON:
        return 0.0
    return report.length_in(_kinds(params, "difficult_terrain"))


def _affordable(
    state: BattleState,
    unit: Unit,
    heading: float,
    length: float,
    facing: float,
    params: Mapping[str, Json],
) -> float:
    """How far along ``heading`` (its base turned to ``facing``) a rout or pursuit of ``length``
    inches of move gets once it pays for terrain: ground it may not enter stops its front edge
    exactly there; within that the cost is bisected."""
    turned = replace(unit, facing=facing)
    base, impassable = Footprint.of(turned), _kinds(params, "impassable_terrain")
    barred = ground_stop(
        state, base, heading, length, impassable=(*impassable, *barred_kinds(unit, params))
    )
    # Ground no unit may enter is left to the sweep, which reports it as what blocked the move.
    beyond = ground_stop(state, base, heading, length, impassable=impassable)
    first = barred is not None and (beyond is None or barred < beyond - EPSILON)
    reach = barred if first and barred is not None else length
    fx, fy = math.sin(math.radians(heading)), math.cos(math.radians(heading))

    def fits(distance: float) -> bool:
        end = (unit.x + fx * distance, unit.y + fy * distance)
        cost, ok = terrain_cost(turned, [(unit.x, unit.y), end], state, params, budget=length)
        return ok and cost <= length + 1e-9

    if fits(reach):
        return reach
    low, high = 0.0, reach
    for _ in range(30):
        middle = (low + high) / 2
        low, high = (middle, high) if fits(middle) else (low, middle)
    return low


def barred_kinds(
    unit: Unit, params: Mapping[str, Json], *, difficult: bool = True, obstacles: bool = True
) -> tuple[str, ...]:
    """The terrain kinds its row of the Movement table bars the unit's base from (impassable
    ground, which bars every unit, aside): difficult terrain where it says n/a, linear
    obstacles where it crosses only at crossing points (water then at a bridge or ford)."""
    found: tuple[str, ...] = ()
    if difficult and not isinstance(mt.cell(unit, "difficult", params), int | float):
        found += _kinds(params, "difficult_terrain")
    if obstacles and mt.cell(unit, "linear_obstacle", params) == mt.CROSSING_POINTS:
        found += tuple(k for k in _kinds(params, "linear_obstacles") if k in LINEAR_KINDS)
    return found


def pursue(ctx: Context, unit: Unit, target: Unit) -> str:
    """An impetuous pursuit: the Normal rate towards the target, paying terrain."""
    params = ctx.params
    aim = _centre(target)
    heading = facing_towards((unit.x, unit.y), aim)
    length = _affordable(ctx.state, unit, heading, mt.normal_rate(unit, params), heading, params)
    swept = sweep(
        ctx.state,
        unit,
        heading,
        length,
        facing=heading,
        impassable=_kinds(params, "impassable_terrain"),
        leaves_table=True,
    )
    end = swept.end
    ctx.move(unit.id, [(unit.x, unit.y), (round(end.x, 6), round(end.y, 6))], heading, ("pursues",))
    ctx.set_status(unit.id, "impetuous pursuit", pursuing=True, pursuit_target=target.id)
    moved = ctx.state.unit(unit.id)
    if not _on_table(ctx.state, moved):
        ctx.set_status(unit.id, "pursued off the table", left_in_pursuit=True)
        ctx.take_off_table(unit.id, 'pursued off the table (may return within 6" once sound)')
        return "off_table"
    if swept.blocker is not None and swept.blocker.kind == ENEMY:
        ctx.set_status(unit.id, "moved into contact in pursuit", attacker=True)
        return "contact"
    return "pursued" if swept.blocker is None else "blocked"


def advance_into(ctx: Context, unit: Unit, vacated: Unit) -> bool:
    """The winner may advance into the ground ``vacated`` (the loser before it moved), then
    change facing. Asks the unit's side twice; returns True if it advanced."""
    question = f"{unit.name} may advance into the ground {vacated.name} left"
    key, options = f"advance:{unit.id}:{vacated.id}", options_of(ADVANCE_WORDS)
    choice = ctx.ask(unit_question(key, question, options, "advance", (unit, vacated), ADVANCE))
    if choice != "advance":
        return False
    heading = facing_towards((unit.x, unit.y), (vacated.x, vacated.y))
    swept = sweep(
        ctx.state,
        unit,
        heading,
        vacated.depth,
        facing=unit.facing,
        impassable=_kinds(ctx.params, "impassable_terrain"),
    )
    end = swept.end
    ctx.move(
        unit.id,
        [(unit.x, unit.y), (round(end.x, 6), round(end.y, 6))],
        unit.facing,
        ("advances into the vacated ground",),
    )
    moved = ctx.state.unit(unit.id)
    facings = facing_options(ctx.state, moved)
    default = "face_enemy" if "face_enemy" in facings else "keep"
    options = tuple(Option(k, f"{FACING_WORDS[k]} ({v:g}°)") for k, v in facings.items())
    question = f"{unit.name} may change facing after advancing"
    key, pair = f"facing:{unit.id}:{vacated.id}", (unit, vacated)
    picked = ctx.ask(unit_question(key, question, options, default, pair, ADVANCE_FACING))
    facing = facings[picked]
    if abs((facing - moved.facing + 180) % 360 - 180) > 1e-9:
        ctx.move(unit.id, [(moved.x, moved.y)], facing, ("changes facing",))
    return True


def facing_options(state: BattleState, unit: Unit) -> dict[str, float]:
    """The facings a unit may take after advancing: keep, 90° left or right, or towards the
    nearest enemy (when there is one and it is not straight ahead); none that would turn its
    base onto another unit."""
    found = {
        "keep": unit.facing % 360,
        "left": (unit.facing - 90) % 360,
        "right": (unit.facing + 90) % 360,
    }
    enemy = nearest_enemy(state, unit)
    if enemy is not None:
        towards = float(round(facing_towards((unit.x, unit.y), (enemy.x, enemy.y)))) % 360
        if abs((towards - unit.facing + 180) % 360 - 180) > 1e-6:
            found = {"face_enemy": towards, **found}
    return {k: v for k, v in found.items() if k == "keep" or not _turns_onto(state, unit, v)}


def _turns_onto(state: BattleState, unit: Unit, facing: float) -> bool:
    """Whether the unit turned where it stands to ``facing`` would overlap another unit.

    The sheet: the winner "may advance into the vacated ground and make a facing change"; the
    change turns it in place, and no move ends on another unit (found by the AI's games:
    tests/bot/test_ai_fuzz.py, seed 18, a horse turning onto the enemy it had pushed back).
    """
    turned = Footprint.of(replace(unit, facing=facing))
    return any(
        other.id != unit.id and overlapping(turned, Footprint.of(other))
        for other in state.units_on_table
    )


def attacked_on(defender: Unit, attacker: Unit) -> str | None:
    """Which of the defender's edges the attacker touches, by the contact geometry: "front",
    "flank" (left or right) or "rear"; None when they do not touch."""
    edge = touching_edge(Footprint.of(defender), Footprint.of(attacker))
    if edge in ("left", "right"):
        return "flank"
    return edge


def come_back(ctx: Context, unit: Unit, at: Point, facing: float) -> None:
    """A pursuer returns to the table (checked by the caller: sound, within 6")."""
    ctx.return_to_table(unit.id, at, facing, "returns from its pursuit")
    ctx.set_status(
        unit.id, "back on the table", left_in_pursuit=False, pursuing=False, pursuit_target=""
    )
