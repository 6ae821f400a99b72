"""The unit orders of an activation and their checks: rally, move, shoot, charge, hold.

A move is given relative to where the unit stands when it is made, so a unit's several moves
of one activation (``move`` combines, up to four) each read alike when planned ahead:
``manoeuvre`` (forward, wheel, sideways, oblique, backwards, about_face), ``distance`` in H
(for a wheel: how far its outer front corner travels) and ``side`` (left or right: the
direction of a sideways or oblique move or a wheel; a quarter turn for an about face, which
otherwise turns 180°).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import replace

from rules_core import paths
from rules_core.codec import Json, number_or
from rules_core.geometry import Footprint, edge_distance, near, overlapping, within
from rules_core.orders import Illegal, Order, OrderKind, Param, Preview, Verdict
from rules_core.rulesets.impetus import groups, interpenetration, shooting, tables
from rules_core.rulesets.impetus import movement_tables as mt
from rules_core.rulesets.impetus.groups import GROUP_MANOEUVRES
from rules_core.rulesets.impetus.profiles import troop_type
from rules_core.rulesets.impetus.status import (
    DISORDERED,
    LAST_MANOEUVRE,
    MELEE_WITH,
    MOVES,
    RALLIED,
)
from rules_core.state import ON_TABLE, BattleState, Unit
from rules_core.terrain import PathReport, poses_along, trace_footprint

UNIT_ORDER_KINDS = (
    OrderKind("rally", "Rally"),
    OrderKind(
        "move",
        "Move",
        params=(
            Param("manoeuvre", "choice", choices=mt.MANOEUVRE_IDS),
            Param("distance", "number", required=False),
            Param("side", "choice", required=False, choices=("left", "right")),
        ),
        combines=True,
        limit=4,
    ),
    OrderKind(
        "group_move",
        "Group move",
        params=(
            Param("manoeuvre", "choice", choices=GROUP_MANOEUVRES),
            Param("distance", "number", required=False),
            Param("side", "choice", required=False, choices=("left", "right")),
        ),
        combines=True,
        limit=4,
    ),
    OrderKind("shoot", "Shoot", params=(Param("target", "unit"),)),
    OrderKind("charge", "Charge", params=(Param("target", "unit"),)),
    OrderKind("group_charge", "Group charge", params=(Param("target", "unit"),)),
    OrderKind("hold", "Hold"),
)


def in_melee(unit: Unit) -> bool:
    """Whether the unit is locked in a melee."""
    found = MELEE_WITH.of(unit)
    return isinstance(found, list) and bool(found)


def active_problem(state: BattleState, unit: Unit) -> str | None:
    """Why this unit may not act now (not its command's activation, not on the table)."""
    subject = state.cursor.subject
    if subject is None or unit.group != subject.id:
        return f"{unit.name} is not in the command activating now"
    if unit.location != ON_TABLE:
        return f"{unit.name} is not on the table"
    return None


# -- moves ----------------------------------------------------------------------------------


def plan(unit: Unit, order: Order) -> tuple[float, float, float, float, float]:
    """Where a move order takes the unit: (x, y, facing, heading, length moved); a wheel
    pivots on the inner front corner (``groups.group_plan`` of a group of one)."""
    kind = str(order.params.get("manoeuvre", "forward"))
    length = order.number("distance", 0.0)
    side = order.params.get("side")
    return groups.group_plan([unit], unit, kind, length, str(side) if side else None)[unit.id]


def ground(
    state: BattleState, unit: Unit, points: list[tuple[float, float]], params: Mapping[str, Json]
) -> str:
    """The worst ground the unit's base goes over along a path: normal, broken or difficult."""
    report = trace_footprint(poses_along(Footprint.of(unit), points), state.terrain)
    crossed = {kind for kind, length in _kinds(state, report) if length > 0}
    difficult = set(_words(params.get("difficult_terrain")))
    broken = set(_words(params.get("broken_terrain")))
    if crossed & difficult:
        return "difficult"
    if crossed & broken:
        return "broken"
    return "normal"


def _kinds(state: BattleState, report: PathReport) -> list[tuple[str, float]]:
    found = [(inside.kind, inside.length) for inside in report.inside]
    found += [(crossing.kind, float(crossing.times)) for crossing in report.crossings]
    return found


def _words(value: Json) -> list[str]:
    return [str(v) for v in value] if isinstance(value, list) else []


def move_problem(
    state: BattleState, unit: Unit, order: Order, params: Mapping[str, Json]
) -> str | None:
    """Why a move order may not be carried out from where the unit stands, or None."""
    kind = str(order.params.get("manoeuvre"))
    disordered = DISORDERED.of(unit)
    if in_melee(unit):
        return f"{unit.name} is in melee"
    if not mt.may_make(unit, kind, disordered):
        return f"{unit.name} is disordered and may not move {kind.replace('_', ' ')}"
    moves = MOVES.of(unit)
    limit = int(number_or(params.get("max_moves"), 4))
    if moves >= limit:
        return f"{unit.name} has made {moves} moves, the most in one activation"
    capped = _capped(unit, moves)
    if capped is not None:
        return capped
    ended = _ended_by_last(unit)
    if ended is not None:
        return ended
    if kind == "about_face":
        return None if moves == 0 else "an about face must be the first and only move"
    if moves >= 1 and not mt.further_allowed(unit, kind, disordered):
        return f"a {kind.replace('_', ' ')} may not be a second or further move for {unit.name}"
    length = order.number("distance", 0.0)
    if length <= 0:
        return "give the distance in H"
    widest = mt.widest_wheel(unit)
    if (
        kind == "wheel"
        and widest is not None
        and math.degrees(length / unit.frontage) > widest[0] + 1e-9
    ):
        return f"{unit.name} wheels at most {widest[0]:g}° ({widest[1]})"
    x, y, facing, heading, _ = plan(unit, order)
    where = ground(state, unit, [(unit.x, unit.y), (x, y)], params)
    if mt.parse(mt.cell(unit, where))[0] is None:
        return f"{troop_type(unit)} may not enter {where} terrain"
    most = mt.allowance(unit, kind, where)
    if not within(length, most):
        return f"a {kind.replace('_', ' ')} of {unit.name} is at most {most:g}H in {where} ground"
    return path_problem(state, unit, (x, y), facing, heading, length, kind)


def _ended_by_last(unit: Unit) -> str | None:
    """Why the unit's last manoeuvre this activation leaves it no further move, or None."""
    last = LAST_MANOEUVRE.of(unit)
    if last.startswith(GROUP_PREFIX):
        return f"{unit.name} moved with its group this activation: it makes no moves of its own"
    if last == "about_face" or (last and not mt.further_allowed(unit, last, False)):
        words = last.replace("_", " ")
        return f"{unit.name} may move no further after its {words} this activation"
    return None


def _capped(unit: Unit, moves: int) -> str | None:
    """Why a unit whose moves a ``MOVE_LIMITS`` row caps may make no further move, or None
    (checked before any discipline test: no test gives it another)."""
    most = mt.most_moves(unit)
    if most is None or moves < most[0]:
        return None
    return f"{unit.name} has made its {moves} move{'s' if moves != 1 else ''} ({most[1]})"


def path_problem(
    state: BattleState,
    unit: Unit,
    end: tuple[float, float],
    facing: float,
    heading: float,
    length: float,
    kind: str,
) -> str | None:
    """Enemies, friends that may not be passed, impassable ground, the edge, along the path."""
    here = Footprint.of(unit)
    there = here.moved_to(end, facing)
    barred = paths.barred_ground(state, [here, there])
    if barred is not None:
        return f"the path crosses {barred.name or barred.id}, impassable ground"
    table = state.battlefield
    if not all(0 <= cx <= table.width and 0 <= cy <= table.depth for cx, cy in there.corners()):
        return "the move would leave the table"
    if kind != "wheel":
        swept = paths.sweep(state, unit, heading, length, facing=facing, friends_pass=True)
        if swept.blocker is not None and swept.blocker.kind == "enemy":
            return "the move would contact an enemy: charge it instead"
        for friend_id in swept.passed:
            friend = state.unit(friend_id)
            if not may_pass(unit, friend):
                return f"{unit.name} may not pass through {friend.name}"
    for other in near(state.units_on_table, there.bounds):  # only those can overlap
        if other.id != unit.id and overlapping(there, Footprint.of(other)):
            return f"the move would end on {other.name}"
    return None


# -- group moves ------------------------------------------------------------------------------

GROUP_PREFIX = "group_"  # last_manoeuvre of a unit that moved with its group ("group_forward")


def group_move_problem(
    state: BattleState, unit: Unit, order: Order, params: Mapping[str, Json]
) -> str | None:
    """Why a group move order may not be carried out from where the group stands, or None:
    the group, the Group Move row for every member, each member's Who, moves made and further
    moves, the slowest member's allowance, and every member's path (``path_problem``, its own
    group left out)."""
    kind = str(order.params.get("manoeuvre"))
    group = groups.group_of(state, unit, params)
    if group is None:
        return (
            f"{unit.name} is not formed in a group (units of its command that can group, "
            "touching side by side or front to rear, facing the same way)"
        )
    units = groups.members(state, group)
    words = kind.replace("_", " ")
    for member in units:
        if not groups.may_group_move(member, kind):
            allowed = mt.manoeuvre(kind, "group_move_except")
            listed = [str(a) for a in allowed] if isinstance(allowed, list) else []
            only = f" (only {', '.join(listed)})" if listed else ""
            article = "an" if words[0] in "aeiou" else "a"
            return (
                f"{article} {words} is not a group move for {member.name} "
                f"({troop_type(member)}){only}"
            )
    limit = int(number_or(params.get("max_moves"), 4))
    done = max(MOVES.of(m) for m in units)
    for member in units:
        problem = _member_problem(member, kind, done, limit)
        if problem is not None:
            return problem
    length = order.number("distance", 0.0)
    if length <= 0:
        return "give the distance in H"
    side = order.params.get("side")
    poses = groups.group_plan(units, unit, kind, length, str(side) if side else None)
    return _group_path_problem(state, units, poses, kind, length, params)


def _member_problem(member: Unit, kind: str, done: int, limit: int) -> str | None:
    """Why one member may not make the group's move: melee, a rally, disorder, a move of its
    own, the group's moves made, or a further move its row forbids; or None."""
    words = kind.replace("_", " ")
    if in_melee(member):
        return f"{member.name} of the group is in melee"
    if RALLIED.of(member):
        return f"{member.name} of the group rallied in this activation"
    disordered = DISORDERED.of(member)
    if not mt.may_make(member, kind, disordered):
        return f"{member.name} of the group is disordered and may not move {words}"
    last = LAST_MANOEUVRE.of(member)
    if last and not last.startswith(GROUP_PREFIX):
        return f"{member.name} has moved on its own this activation"
    if MOVES.of(member) != done:
        return f"{member.name} has not made the group's moves this activation"
    if done >= limit:
        return f"the group has made {done} moves, the most in one activation"
    capped = _capped(member, done)
    if capped is not None:
        return capped
    if done >= 1:
        made = last.removeprefix(GROUP_PREFIX)
        if made and not mt.further_allowed(member, made, False):
            return (
                f"{member.name} may move no further after its group's "
                f"{made.replace('_', ' ')} this activation"
            )
        if not mt.further_allowed(member, kind, disordered):
            why = " (it is disordered)" if disordered else ""
            return f"a {words} may not be a further move for {member.name}{why}"
    return None


def _group_path_problem(
    state: BattleState,
    units: list[Unit],
    poses: Mapping[str, groups.Pose],
    kind: str,
    length: float,
    params: Mapping[str, Json],
) -> str | None:
    """Each member's ground, the slowest member's allowance, then each member's path (its own
    group left out): the first problem, or None."""
    words = kind.replace("_", " ")
    alone = groups.without(state, [m.id for m in units])
    slowest: tuple[float, str, str] | None = None
    for member in units:
        x, y, facing, heading, _ = poses[member.id]
        where = ground(state, member, [(member.x, member.y), (x, y)], params)
        if mt.parse(mt.cell(member, where))[0] is None:
            return f"{member.name} ({troop_type(member)}) may not enter {where} terrain"
        most = mt.allowance(member, kind, where)
        if slowest is None or most < slowest[0]:
            slowest = (most, member.name, where)
    assert slowest is not None
    if not within(length, slowest[0]):
        most, name, where = slowest
        return f"the group's {words} is at most {most:g}H: {name} is its slowest ({where} ground)"
    for member in units:
        x, y, facing, heading, _ = poses[member.id]
        blocked = path_problem(_with(alone, member), member, (x, y), facing, heading, length, kind)
        if blocked is not None:
            return f"{member.name} cannot go: {blocked}"
    return None


def _with(state: BattleState, unit: Unit) -> BattleState:
    """The state with one unit put back (the member whose path is checked)."""
    return replace(state, units=(*state.units, unit))


def group_move_options(
    state: BattleState,
    unit_id: str | None,
    side: str = "",
    params: Mapping[str, Json] | None = None,
) -> list[str]:
    """The manoeuvres a group move order may name, for an option autocomplete: those the
    Group Move row allows for every member of the unit's group (none when it stands alone);
    without a unit, those allowed to any group of ``side`` in the command activating now."""
    unit = next((u for u in state.units_on_table if u.id == unit_id), None)
    if unit is not None:
        return groups.manoeuvres_for(state, unit, params)
    subject = state.cursor.subject
    found: set[str] = set()
    for group in groups.groups_of(state, params):
        if group.side == side and subject is not None and group.command == subject.id:
            found |= set(groups.manoeuvres_for(state, state.unit(group.members[0]), params))
    return [k for k in GROUP_MANOEUVRES if k in found]


def may_pass(mover: Unit, friend: Unit) -> bool:
    """Voluntary interpenetration, as the sheet lists it."""
    return interpenetration.voluntary(mover, friend)


# -- judging --------------------------------------------------------------------------------


def preview(state: BattleState, order: Order, params: Mapping[str, Json]) -> Verdict:
    """Each unit order checked against the state as it stands."""
    unit = state.unit(order.actor)
    problem = active_problem(state, unit)
    if problem is None:
        problem = _problem(state, unit, order, params)
    if problem is not None:
        return Illegal(order, problem)
    return Preview(order, _words_for(state, unit, order))


def _problem(
    state: BattleState, unit: Unit, order: Order, params: Mapping[str, Json]
) -> str | None:
    if order.kind == "rally":
        return None if DISORDERED.of(unit) else f"{unit.name} is not disordered"
    if RALLIED.of(unit) and order.kind != "hold":
        return f"{unit.name} rallied in this activation and does nothing else"
    if order.kind == "move":
        return move_problem(state, unit, order, params)
    if order.kind == "group_move":
        return group_move_problem(state, unit, order, params)
    if order.kind == "group_charge":
        return group_charge_problem(state, unit, order, params)
    if order.kind in ("shoot", "charge"):
        target = next((u for u in state.units_on_table if u.id == order.params.get("target")), None)
        if target is None or target.side == unit.side:
            return "the target must be an enemy unit on the table"
        if in_melee(unit):
            return f"{unit.name} is in melee"
        if order.kind == "shoot":
            if LAST_MANOEUVRE.of(unit) == "about_face":
                return f"{unit.name} turned about this activation and may not shoot"
            return shoot_problem(state, unit, target)
        return charge_problem(state, unit, target, params)
    return None


def group_charge_targets(
    state: BattleState, unit: Unit, target: Unit, params: Mapping[str, Json]
) -> list[tuple[Unit, Unit | None]]:
    """Who charges whom when ``unit``'s group charges ``target``: the ordered unit its
    target; every other member the nearest enemy it may charge (the one in front of it);
    None for a member that can charge no one (the group's charge is fragmented)."""
    group = groups.group_of(state, unit, params)
    if group is None:
        return []
    foes = [f for f in state.units_on_table if f.side != unit.side]
    chosen: list[tuple[Unit, Unit | None]] = []
    for member in groups.members(state, group):
        if member.id == unit.id:
            chosen.append((member, target))
            continue
        able = (
            []
            if in_melee(member)
            else [f for f in foes if charge_problem(state, member, f, params) is None]
        )
        near = min(able, key=lambda f: math.dist((member.x, member.y), (f.x, f.y)), default=None)
        chosen.append((member, near))
    return chosen


def group_charge_problem(
    state: BattleState, unit: Unit, order: Order, params: Mapping[str, Json]
) -> str | None:
    """A group charge needs a group, its members out of melee and not rallied, and the
    ordered unit able to charge the target (the others charge what they can reach)."""
    target = next((u for u in state.units_on_table if u.id == order.params.get("target")), None)
    if target is None or target.side == unit.side:
        return "the target must be an enemy unit on the table"
    group = groups.group_of(state, unit, params)
    if group is None:
        return (
            f"{unit.name} is not formed in a group (units of its command that can group, "
            "touching side by side or front to rear, facing the same way)"
        )
    for member in groups.members(state, group):
        if in_melee(member):
            return f"{member.name} of the group is in melee"
        if RALLIED.of(member):
            return f"{member.name} of the group rallied in this activation"
    return charge_problem(state, unit, target, params)


def shoot_problem(state: BattleState, unit: Unit, target: Unit) -> str | None:
    """A shooter needs a weapon that reaches the target (``shooting.problem``)."""
    return shooting.problem(state, unit, target)


def charge_problem(
    state: BattleState, unit: Unit, target: Unit, params: Mapping[str, Json]
) -> str | None:
    """A charge needs the target ahead and within the unit's charge move."""
    if troop_type(unit) == "ART":
        return "artillery does not charge"
    bearing = math.degrees(math.atan2(target.x - unit.x, target.y - unit.y)) % 360
    off = abs((bearing - unit.facing + 180) % 360 - 180)
    if off > 45:
        return f"{target.name} is not ahead of {unit.name}"
    extra = params.get("charge_reach_extra", 0.0)
    reach = mt.distance(unit, "charge") + float(extra if isinstance(extra, int | float) else 0)
    gap = edge_distance(Footprint.of(unit), Footprint.of(target))
    if not within(gap, reach):
        return f"{target.name} is {gap:.1f}H away, beyond a charge of {reach:g}H"
    return None


def _words_for(state: BattleState, unit: Unit, order: Order) -> str:
    if order.kind == "group_move":
        group = groups.group_of(state, unit)
        kind = str(order.params.get("manoeuvre")).replace("_", " ")
        length = order.params.get("distance")
        side = order.params.get("side")
        bits = [kind, f"{length:g}H" if isinstance(length, int | float) else "", str(side or "")]
        who = groups.describe(state, group) if group is not None else unit.name
        return f"group {who}: {' '.join(b for b in bits if b)}"
    if order.kind == "move":
        kind = str(order.params.get("manoeuvre")).replace("_", " ")
        length = order.params.get("distance")
        side = order.params.get("side")
        bits = [kind, f"{length:g}H" if isinstance(length, int | float) else "", str(side or "")]
        return f"{unit.name}: {' '.join(b for b in bits if b)}"
    if order.kind == "group_charge":
        target = state.unit(str(order.params["target"]))
        group = groups.group_of(state, unit)
        who = groups.describe(state, group) if group is not None else unit.name
        pairs = group_charge_targets(state, unit, target, {})
        each = "; ".join(
            f"{m.name} charges {t.name}" if t is not None else f"{m.name} cannot charge"
            for m, t in pairs
        )
        return f"group {who} charges: {each}"
    if order.kind in ("shoot", "charge"):
        target = state.unit(str(order.params["target"]))
        return f"{unit.name} {order.kind}s {target.name}"
    return f"{unit.name}: {order.kind}"


def has_business(state: BattleState, side: str, step: str, params: Mapping[str, Json]) -> bool:
    """Whether a side has anything to order in this step of an activation."""
    subject = state.cursor.subject
    if subject is None or subject.side != side:
        return False
    mine = [u for u in state.units_on_table if u.group == subject.id and not RALLIED.of(u)]
    if step == "rally":
        return any(DISORDERED.of(u) for u in mine)
    if step == "move":
        return any(not in_melee(u) for u in mine)
    if step == "shoot":
        reach = max(band[1] for band in tables.RANGE_BANDS)
        return any(
            shoot_problem(state, u, f) is None
            for u in mine
            if not in_melee(u)
            for f in _foes_within(state, u, side, reach)
        )
    if step == "charge":
        extra = params.get("charge_reach_extra", 0.0)
        more = float(extra if isinstance(extra, int | float) else 0)
        return any(
            charge_problem(state, u, f, params) is None
            for u in mine
            if not in_melee(u)
            for f in _foes_within(state, u, side, mt.distance(u, "charge") + more)
        )
    return True


def _foes_within(state: BattleState, unit: Unit, side: str, reach: float) -> list[Unit]:
    """The enemies of ``side`` whose boxes come within ``reach`` of the unit's: no other can
    be shot at or charged (its edges are farther), so they need not be judged."""
    near_by = near(state.units_on_table, Footprint.of(unit).bounds, reach)
    return [f for f in near_by if f.side != side]
