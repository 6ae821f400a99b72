"""The Movement step: both sides move at once, checked along their paths.

A ``move`` order gives a path of points and a final facing (and may form or leave march
column). What it costs, in inches of the unit's move (Normal, or March Column in march
column), by the Movement table (``movement_tables.MOVEMENT``):

- the path's length; in Difficult Terrain each inch costs Normal / Difficult rate (a march
  column is not affected by difficult terrain; n/a: it may not enter); the units whose row says
  "and disorder" become (at least) Disordered when they move through it;
- each Linear Obstacle crossed: "Full move", "½ move" (half the Normal move) or "Crossing
  points" (only over a bridge or ford: a hedge or wall may not be crossed); march columns pay
  too, except where the whole path follows a road;
- the turn: the change of facing from start to end, up to 90° ("Full move", "½ move", "Free"
  or "n/a"); more than 90° counts as two turns (``turn_over_90``);
- forming or leaving march column: ``formation_change`` of the Normal move.

A "Full move" item is the whole move: the unit may then go no further than
``full_move_reach`` inches (plus its own depth when it is a crossing, to get across). The
ground is what the unit's whole base sweeps along the path (``terrain.trace_footprint``): an
inch of the move is in difficult terrain while any part of the base is in it, an obstacle is
crossed where any part of the base goes over it, and a front edge only touching either is not
in it. The path's length is the centre's. The direction of travel is free (a unit may step
back or sideways keeping its facing); its wing's order limits it (``wing_order_moves``).

Both sides move at once: the moves are carried out one by one, alternating between the sides,
each checked along its path against where the others stand by then; a move that meets an
enemy stops in contact, and that unit is the attacker in the melee. Pursuers off the table
may ``return`` within ``return_distance`` of where they left once sound. Routed units on the
table rout again (``routers_keep_routing``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, replace

from shapely.geometry import Point as ShapelyPoint

from rules_core.codec import Json, number_or
from rules_core.context import Context
from rules_core.geometry import Footprint, edge_distance, facing_towards, within
from rules_core.orders import Illegal, Order, Preview, Verdict, path_param, point_param, shorter
from rules_core.paths import ENEMY, barred_ground, sweep
from rules_core.plugin import Parameter
from rules_core.rulesets.pike_and_shot import movement_tables as mt
from rules_core.rulesets.pike_and_shot import moves
from rules_core.rulesets.pike_and_shot.cohesion import defends_obstacle
from rules_core.rulesets.pike_and_shot.kept import engaged, nearest_enemy
from rules_core.rulesets.pike_and_shot.status import (
    COHESION,
    DEFENDING_OBSTACLE,
    ENGAGED,
    IN_DIFFICULT,
    LEFT_IN_PURSUIT,
    MARCH_COLUMN,
    WING_ORDER,
    worse,
)
from rules_core.rulesets.pike_and_shot.status import (
    COVER as COVER_HELD,  # COVER here: terrain to cover
)
from rules_core.state import OFF_TABLE, BattleState, Point, Unit
from rules_core.terrain import (
    PathReport,
    areas_near,
    feature_shape,
    poses_along,
    trace_footprint,
)
from rules_core.toolkit import checked_orders, within_of_exit

SILENT = "not on the sheet (see the package README)"
COVER: dict[str, Json] = {
    "wood": "cover",
    "dense_wood": "cover",
    "village": "buildings",
    "fortification": "fortifications",
}
WING_MOVES: dict[str, Json] = {"attack": "any", "hold": "not_closer", "withdraw": "away"}
PARAMETERS = (
    Parameter("turn_over_90", 2, "a turn of more than 90° costs this many turns", SILENT),
    Parameter(
        "full_move_reach",
        2.0,
        'inches a unit may still move when a turn or crossing is its "Full move"',
        SILENT,
    ),
    Parameter(
        "formation_change", 0.5, "share of the Normal move to form or leave march column", SILENT
    ),
    Parameter(
        "wing_order_moves",
        WING_MOVES,
        "what each wing order allows: any move; not_closer (no move toward the enemy); away "
        "(only moves that end further from the nearest enemy; standing still is allowed)",
        SILENT,
    ),
    Parameter(
        "wing_order_enforcement",
        "enforce",
        "enforce: moves against the wing's order are refused; gm: allowed with a note for the "
        "GM to rule on",
        SILENT,
    ),
    Parameter(
        "return_distance", 6.0, "a pursuer comes back within this of where it left", "the sheet"
    ),
    Parameter(
        "routers_keep_routing", True, "routed units on the table rout again each Movement", SILENT
    ),
    Parameter(
        "cover_terrain",
        COVER,
        "terrain kinds a unit inside holds as cover, buildings or fortifications",
        SILENT,
    ),
)


@dataclass(frozen=True)
class Costed:
    """What a move costs, and whether it may be made."""

    problem: str | None
    used: float
    allowance: float
    notes: tuple[str, ...]
    difficult: bool  # it moves through difficult terrain (and may be disordered)


def _params_list(params: Mapping[str, Json], name: str) -> tuple[str, ...]:
    value = params.get(name, ())
    return tuple(str(v) for v in value) if isinstance(value, list | tuple) else ()


def _angle(a: float, b: float) -> float:
    return abs((b - a + 180.0) % 360.0 - 180.0)


def cost(
    state: BattleState,
    unit: Unit,
    points: list[Point],
    facing: float,
    formation: str,
    params: Mapping[str, Json],
) -> Costed:
    """The cost of a move along ``points`` (from where the unit stands) ending at ``facing``."""
    refused = column_problem(unit, params)
    if refused is not None:
        return Costed(refused, 0.0, 0.0, (), False)
    normal = mt.normal_rate(unit, params)
    column = MARCH_COLUMN.of(unit)
    allowance = mt.rate(unit, params)
    notes: list[str] = []
    path = [(unit.x, unit.y), *points]
    report = trace_footprint(poses_along(Footprint.of(unit), path), state.terrain)
    on_road = column and report.all_on_road
    used, ok = moves.terrain_cost(
        unit, path, state, params, ignore_difficult=column, ignore_obstacles=on_road
    )
    if not ok:
        return Costed(
            "it may not cross that ground here (see the Movement table)", used, allowance, (), False
        )
    difficult = moves.difficult_length(report, params) > 1e-9 and not column
    if used > report.length + 1e-9:
        notes.append(f'terrain costs {used - report.length:g}"')
    problem, extra, fulls = _turn_and_form(unit, facing, formation, params, notes)
    if extra:
        used += extra
    if problem is not None:
        return Costed(problem, used, allowance, (), difficult)
    obstacle_full = _full_obstacles(unit, report, params, on_road)
    fulls += obstacle_full
    if obstacle_full:
        used -= normal * obstacle_full
    if fulls:
        reach = number_or(params.get("full_move_reach"), 2.0)
        if obstacle_full:
            reach += unit.depth  # enough to get its whole depth across
        if fulls > 1:
            return Costed(
                "two Full-move turns or crossings in one move", used, allowance, (), difficult
            )
        if not within(used, reach):
            return Costed(
                f'a Full-move turn or crossing leaves only {reach:g}" of move ({used:g}" asked)',
                used,
                allowance,
                tuple(notes),
                difficult,
            )
        notes.append("the turn or crossing is its whole move")
        return Costed(None, used, allowance, tuple(notes), difficult)
    if used > allowance + 1e-9:
        words = f'the move costs {round(used, 1):g}" of its {allowance:g}"'
        return Costed(words, used, allowance, tuple(notes), difficult)
    return Costed(None, used, allowance, tuple(notes), difficult)


def _turn_and_form(
    unit: Unit, facing: float, formation: str, params: Mapping[str, Json], notes: list[str]
) -> tuple[str | None, float, int]:
    """What turning to ``facing`` and taking ``formation`` add to a move: why it may not (or
    None), the inches they cost (so far, when refused) and the Full-move turns; each cost is
    noted in ``notes``."""
    normal = mt.normal_rate(unit, params)
    column = MARCH_COLUMN.of(unit)
    used, fulls = 0.0, 0
    turn = _angle(unit.facing, facing)
    if turn > 1e-6:
        rule = mt.cell(unit, "turn", params)
        times = int(number_or(params.get("turn_over_90"), 2)) if turn > 90 + 1e-6 else 1
        if rule == mt.NA:
            return "it may not turn (n/a on the Movement table)", used, fulls
        if rule == mt.FULL:
            fulls += times
        elif rule == mt.HALF:
            used += normal / 2 * times
            notes.append(f'turning {turn:g}° costs {normal / 2 * times:g}"')
    wanted = {"keep": column, "line": False, "march_column": True}.get(formation, column)
    if wanted != column:
        if wanted and mt.march_rate(unit, params) is None:
            return "it has no March Column (n/a)", used, fulls
        share = number_or(params.get("formation_change"), 0.5)
        used += normal * share
        notes.append(f'{"forming" if wanted else "leaving"} march column costs {normal * share:g}"')
    return None, used, fulls


def column_problem(unit: Unit, params: Mapping[str, Json]) -> str | None:
    """Why a unit in march column may not move at all: its row's March Column is n/a (only a
    state made before that was refused has one), or None."""
    if not MARCH_COLUMN.of(unit):
        return None
    problem = mt.no_march_column(mt.row_of(unit, params))
    return None if problem is None else f"it is in march column, but {problem}; a GM must end it"


def _full_obstacles(
    unit: Unit, report: PathReport, params: Mapping[str, Json], on_road: bool
) -> int:
    """How many crossings cost a Full move."""
    if on_road or mt.cell(unit, "linear_obstacle", params) != mt.FULL:
        return 0
    obstacles = _params_list(params, "linear_obstacles")
    return report.crossed(obstacles) - report.crossed_via(("bridge",))


def order_problem(
    state: BattleState, unit: Unit, points: list[Point], params: Mapping[str, Json]
) -> str | None:
    """Why the unit's wing order forbids ending a move at ``points[-1]``, or None."""
    wing = next((g for g in state.groups if g.id == unit.group), None)
    order = WING_ORDER.of(wing) if wing is not None else "attack"
    rules = params.get("wing_order_moves", WING_MOVES)
    assert isinstance(rules, Mapping)
    rule = str(rules.get(order or "hold", "any"))
    enemy = nearest_enemy(state, unit)
    if rule == "any" or enemy is None:
        return None
    here = edge_distance(Footprint.of(unit), Footprint.of(enemy))
    there = edge_distance(Footprint.of(unit).moved_to(points[-1]), Footprint.of(enemy))
    if rule == "not_closer" and there < here - 1e-6:
        return f"its wing is under Hold orders: no move toward the enemy ({enemy.name})"
    if rule == "away" and there <= here + 1e-6:
        return f"its wing is under Withdraw orders: it may only move away from {enemy.name}"
    return None


def preview(state: BattleState, order: Order, params: Mapping[str, Json]) -> Verdict:
    """A move, hold or return order checked now (its path against the table as it stands)."""
    unit = state.unit(order.actor)
    if order.kind == "hold":
        return Preview(order, f"{unit.name} holds")
    if order.kind == "return":
        return _return_preview(state, unit, order, params)
    stuck = _unable_to_move(state, unit)
    if stuck is not None:
        return Illegal(order, stuck)
    points = move_points(order)
    if not points:
        return Illegal(order, "a move needs where to: `x` and `y`, or a `path` (`x,y x,y …`)")
    facing = number_or(order.params.get("facing", unit.facing), unit.facing) % 360
    formation = str(order.params.get("formation", "keep"))
    costed = cost(state, unit, points, facing, formation, params)
    if costed.problem is not None:
        # Too far for its allowance: the way forward is a shorter move.
        far = (shorter(costed.allowance),) if costed.used > costed.allowance + 1e-9 else ()
        return Illegal(order, f"{unit.name}: {costed.problem}", far)
    problem = order_problem(state, unit, points, params)
    notes = list(costed.notes)
    if problem is not None:
        if params.get("wing_order_enforcement") != "gm":
            return Illegal(order, f"{unit.name}: {problem}")
        notes.append(f"{problem}: the GM may rule")
    poses = _poses(unit, points)
    barred = barred_ground(state, poses, impassable=_params_list(params, "impassable_terrain"))
    if barred is not None:
        return Illegal(order, f"{unit.name} may not enter {barred.name or barred.kind}")
    blocked = _first_block(state, unit, points)
    if blocked is not None and blocked[0] != ENEMY:
        return Illegal(order, f"{unit.name}'s path is blocked by {blocked[1]}")
    if blocked is not None:
        notes.append(f"it will stop in contact with {blocked[1]} (the attacker in melee)")
    if costed.difficult and mt.cell(unit, "disorder", params) is True:
        notes.append("difficult terrain will disorder it")
    summary = f'{unit.name} moves {round(costed.used, 1):g}" of its {costed.allowance:g}"'
    return Preview(order, summary, tuple(notes))


def _unable_to_move(state: BattleState, unit: Unit) -> str | None:
    """Why the unit, as it stands, may not be ordered to move (off the table, broken, in melee)."""
    if unit.location == OFF_TABLE:
        return f"{unit.name} is off the table"
    level = COHESION.of(unit)
    if level in ("routed", "destroyed"):
        return f"{unit.name} is {level}: it cannot be ordered"
    if engaged(state, unit) or ENGAGED.of(unit):
        return f"{unit.name} is engaged in melee and may not move"
    return None


def _poses(unit: Unit, points: list[Point]) -> list[Footprint]:
    start = Footprint.of(unit)
    return [start, *(start.moved_to(p) for p in points)]


def _leg(here: Unit, point: Point) -> tuple[float, float] | None:
    """The heading and length of one leg of a path from where the unit stands, None if the
    point is where it stands."""
    length = math.dist((here.x, here.y), point)
    if length < 1e-9:
        return None
    return facing_towards((here.x, here.y), point), length


def _first_block(state: BattleState, unit: Unit, points: list[Point]) -> tuple[str, str] | None:
    """What first stops the unit along its path now: (kind, name), or None."""
    here = unit
    for point in points:
        leg = _leg(here, point)
        if leg is None:
            continue
        swept = sweep(state, here, *leg, facing=here.facing)
        if swept.blocker is not None:
            key = swept.blocker.id
            name = (
                state.unit(key).name
                if swept.blocker.kind in ("enemy", "friend")
                else (key or "the table edge")
            )
            return swept.blocker.kind, name
        here = replace(here, x=point[0], y=point[1])
    return None


def _return_preview(
    state: BattleState, unit: Unit, order: Order, params: Mapping[str, Json]
) -> Verdict:
    if unit.location != OFF_TABLE or not LEFT_IN_PURSUIT.of(unit):
        return Illegal(order, f"{unit.name} is not off the table in pursuit")
    if COHESION.of(unit) != "sound":
        return Illegal(order, f"{unit.name} must be sound to return (it is {COHESION.of(unit)})")
    at = point_param(order, "to")
    reach = number_or(params.get("return_distance"), 6.0)
    if not within_of_exit(unit, at, reach):
        return Illegal(order, f'{unit.name} must return within {reach:g}" of where it left')
    return Preview(order, f"{unit.name} returns to the table at ({at[0]:g}, {at[1]:g})")


# -- resolution ------------------------------------------------------------------------------


def resolve(ctx: Context) -> None:
    """Returns, then every move (alternating sides), then routers rout again."""
    for order in checked_orders(ctx, ("return",)):
        unit = ctx.state.unit(order.actor)
        facing = number_or(order.params.get("facing", unit.facing), unit.facing)
        moves.come_back(ctx, unit, point_param(order, "to"), facing)
    chosen = {o.actor: o for o in checked_orders(ctx, ("move",))}
    for unit_id in _alternating(ctx.state, list(chosen)):
        unit = ctx.state.unit(unit_id)
        if not unit.on_table or engaged(ctx.state, unit):
            continue
        _carry_out(ctx, unit, chosen[unit_id])
    if ctx.params.get("routers_keep_routing") is True:
        for unit in list(ctx.state.units_on_table):
            current = ctx.state.unit(unit.id)
            if current.on_table and COHESION.of(current) == "routed":
                enemy = nearest_enemy(ctx.state, current)
                source = enemy if enemy is not None else _behind(current)
                moves.rout_move(ctx, current, source)
    for unit in ctx.state.units_on_table:
        _note_ground(ctx, unit)


def _behind(unit: Unit) -> Point:
    forward = Footprint.of(unit).forward
    return (unit.x + forward[0], unit.y + forward[1])


def _alternating(state: BattleState, ids: list[str]) -> list[str]:
    """Unit ids taken one per side in turn (the side order first), roster order within."""
    by_side = {
        side: [i for i in ids if state.unit(i).side == side] for side in state.cursor.side_order
    }
    found: list[str] = []
    while any(by_side.values()):
        for side in state.cursor.side_order:
            if by_side[side]:
                found.append(by_side[side].pop(0))
    return found


def move_points(order: Order) -> list[tuple[float, float]]:
    """A move's points: its path's, then its destination (`to`) if given and not the path's end."""
    points = list(path_param(order, "path")) if "path" in order.params else []
    if "to" in order.params:
        to = point_param(order, "to")
        if not points or points[-1] != to:
            points.append(to)
    return points


def _carry_out(ctx: Context, unit: Unit, order: Order) -> None:
    """One move along its path: stops at anything in the way; contact with an enemy makes it
    the attacker."""
    params = ctx.params
    points = move_points(order)
    facing = number_or(order.params.get("facing", unit.facing), unit.facing) % 360
    formation = str(order.params.get("formation", "keep"))
    costed = cost(ctx.state, unit, points, facing, formation, params)
    here = unit
    walked: list[Point] = [(unit.x, unit.y)]
    contact: str | None = None
    stopped = False
    for point in points:
        leg = _leg(here, point)
        if leg is None:
            continue
        swept = sweep(
            ctx.state,
            here,
            *leg,
            facing=here.facing,
            impassable=_params_list(params, "impassable_terrain"),
        )
        end = (round(swept.end.x, 6), round(swept.end.y, 6))
        walked.append(end)
        here = replace(here, x=end[0], y=end[1])
        if swept.blocker is not None:
            stopped = True
            if swept.blocker.kind == ENEMY:
                contact = swept.blocker.id
            break
    final = here.facing if stopped else facing
    notes = ["stops in contact" if contact else "stops short" if stopped else "moves"]
    ctx.move(unit.id, walked, final, tuple(notes))
    ctx.set_status(unit.id, None, moved=True)
    wanted = {"keep": MARCH_COLUMN.of(unit), "line": False, "march_column": True}.get(
        formation, MARCH_COLUMN.of(unit)
    )
    if wanted != MARCH_COLUMN.of(unit):
        ctx.set_status(unit.id, "changes formation", march_column=wanted)
    if contact is not None:
        enemy = ctx.state.unit(contact)
        ctx.set_status(unit.id, f"moved into contact with {enemy.name}", attacker=True)
    if costed.difficult and mt.cell(unit, "disorder", params) is True:
        level = COHESION.of(ctx.state.unit(unit.id))
        if level == "sound":
            ctx.set_status(unit.id, "moved through difficult terrain", cohesion=worse(level))


def _note_ground(ctx: Context, unit: Unit) -> None:
    """In difficult terrain, in cover, buildings or behind fortifications: from the ground
    under its centre; defending a linear obstacle: from one just in front of it."""
    params = ctx.params
    spot = ShapelyPoint(unit.x, unit.y)
    kinds = {
        f.kind
        for f in areas_near(ctx.state.terrain, (unit.x, unit.y))
        if feature_shape(f).intersects(spot)
    }
    difficult = bool(kinds & set(_params_list(params, "difficult_terrain")))
    cover_map = params.get("cover_terrain", COVER)
    assert isinstance(cover_map, Mapping)
    ranks = ("", "cover", "buildings", "fortifications")
    found = [str(cover_map[k]) for k in kinds if k in cover_map]
    cover = max(found, key=lambda c: ranks.index(c) if c in ranks else 0, default="")
    changes: dict[str, Json] = {}
    if IN_DIFFICULT.of(unit) != difficult:
        changes["in_difficult"] = difficult
    if COVER_HELD.of(unit) != cover:
        changes["cover"] = cover
    defends = defends_obstacle(ctx.state, unit, params)
    if DEFENDING_OBSTACLE.of(unit) != defends:
        changes["defending_obstacle"] = defends
    if changes:
        ctx.set_status(unit.id, None, **changes)
