"""Hail Caesar order kinds and their previews: what an order will do, or why it cannot."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace

from shapely import Point as ShapelyPoint

from rules_core import orders as common
from rules_core import profile
from rules_core.codec import Json, number_or
from rules_core.geometry import Footprint, facing_towards, quarter, range_from_front
from rules_core.orders import (
    Illegal,
    Instead,
    Order,
    OrderKind,
    Param,
    Preview,
    Verdict,
    another_step,
    condition,
    other_kinds,
    point_param,
    shorter,
)
from rules_core.rulesets.hail_caesar import broken, measure, morale, tables
from rules_core.rulesets.hail_caesar.profiles import FORMATIONS
from rules_core.rulesets.hail_caesar.status import ADVANCED, CASUALTIES, DISORDERED, RANK
from rules_core.rulesets.hail_caesar.tables import modifier, no_ranged_dice, weapon_range
from rules_core.state import BattleState, Leader, Point, Unit
from rules_core.toolkit import enemy_target, engaged, g, param_number, zone_words
from rules_core.zone_fit import explained

MODES = ("order", "initiative")
COMMANDS = ("units", "division", "follow_me", "rally", "courage")
FREE_MOVERS = frozenset({"baggage", "wagons"})
# What a broken division's unit refused an ordered move may be given instead.
BROKEN_INSTEAD = (other_kinds("retire", "hold"),)

ORDER_KINDS = (
    common.PLACE,
    OrderKind(
        "move",
        "Move",
        params=(*common.TO_AND_FACING, Param("option", "choice", False, MODES)),
    ),
    OrderKind(
        "charge",
        "Charge",
        params=(Param("target", "unit"), Param("option", "choice", False, MODES)),
    ),
    OrderKind("form", "Change formation", params=(Param("option", "choice", True, FORMATIONS),)),
    OrderKind("retire", "Retire (broken division)", params=(Param("to", "point"),)),
    OrderKind("hold", "Hold"),
    OrderKind(
        "command",
        "Give orders",
        actor="leader",
        params=(
            Param("option", "choice", False, COMMANDS),
            Param("target", "unit", False),
            Param("to", "point", False),
        ),
    ),
    OrderKind("general_advance", "General Advance", actor="leader"),
    OrderKind(
        "shoot",
        "Shoot",
        params=(Param("target", "unit"), Param("option", "choice", False, ("extreme_range",))),
    ),
)

Params = Mapping[str, Json]


def preview(state: BattleState, order: Order, params: Params) -> Verdict:
    """Dispatch to the check for the order's kind."""
    check = _CHECKS.get(order.kind)
    return Preview(order, "holds") if check is None else check(state, order, params)


def checked(kind: str) -> bool:
    """Whether orders of this kind have a check of their own (the others simply hold)."""
    return kind in _CHECKS


# -- who may move, and how ------------------------------------------------------------------


def superseded(state: BattleState, unit: Unit, params: Params) -> Unit | None:
    """The enemy whose nearness supersedes orders (12" formed, 6" open order), if any."""
    reach = param_number(params, "open_order_proximity" if _open(unit) else "proximity")
    near = measure.enemies_within(state, unit, reach)
    return min(near, key=lambda e: measure.gap(unit, e)) if near else None


def may_use_initiative(state: BattleState, unit: Unit, params: Params) -> bool:
    """Within 12" of an enemy (formed, seen or not), or seeing one (open order)."""
    reach = param_number(params, "initiative_range")
    return bool(measure.enemies_within(state, unit, reach, seen=_open(unit)))


def mode(state: BattleState, unit: Unit, order: Order, params: Params) -> str:
    """How a unit moves: "initiative" or "order", or why neither is allowed (text)."""
    wanted = order.params.get("option")
    enemy = superseded(state, unit, params)
    if enemy is not None and wanted != "order":
        return "initiative"
    if enemy is not None:
        return f"{enemy.name} is within proximity, so {unit.name} may only use its initiative"
    if wanted == "initiative" and not may_use_initiative(state, unit, params):
        return f"{unit.name} is not close enough to the enemy to use its initiative"
    return "initiative" if wanted == "initiative" else "order"


def unable(state: BattleState, unit: Unit) -> str:
    """Why the unit may not move in the command step at all, or ""."""
    subject = state.cursor.subject
    if subject is not None and subject.id != unit.group:
        return f"{unit.name} belongs to another division: order it in that division's turn"
    if DISORDERED.of(unit):
        return f"{unit.name} is disordered and cannot move"
    if engaged(state, unit):
        return f"{unit.name} is fighting hand-to-hand"
    if ADVANCED.of(unit):
        return f"{unit.name} has already moved in the General Advance"
    return ""


def leader_of(state: BattleState, division: str) -> Leader | None:
    """The general of a division: the group's leader, else a leader placed in it."""
    for group in state.groups:
        if group.id == division and group.leader:
            return next((ld for ld in state.leaders if ld.id == group.leader), None)
    return next((ld for ld in state.leaders if ld.group == division), None)


def distance_penalty(leader: Leader, unit: Unit, params: Params) -> int:
    """Order-test distance modifier: -1 for each full step (12") from general to unit."""
    apart = Footprint.of(unit).polygon.distance(_point(leader))
    return -int(apart // param_number(params, "command_distance_step"))


def _point(leader: Leader) -> ShapelyPoint:
    return ShapelyPoint(leader.x, leader.y)


def _test_note(state: BattleState, unit: Unit, params: Params) -> str:
    leader = leader_of(state, unit.group)
    if leader is None:
        return "its division has no general: only initiative and free moves"
    penalty = distance_penalty(leader, unit, params)
    extra = f", {penalty} for distance" if penalty else ""
    return f"order test by {leader.name} (Leadership {leader.points}{extra})"


def _open(unit: Unit) -> bool:
    return unit.formation == measure.OPEN_ORDER


def free_mover(unit: Unit) -> bool:
    """Units in column, tiny units, baggage and wagons move once even when orders fail."""
    return unit.formation == "column" or unit.get("size") == "tiny" or unit.type in FREE_MOVERS


def _broken_initiative(
    state: BattleState, unit: Unit, order: Order, params: Params
) -> tuple[str, ...]:
    """The warning on an initiative order that would take a broken division's unit nearer
    the enemy: the GM rules on it (``broken``)."""
    return broken.preview_note(state, unit, order, params.get("broken_initiative_ruling"))


def _broken_note(state: BattleState, unit: Unit) -> tuple[str, ...]:
    if unit.group in morale.broken_divisions(state, unit.side):
        return ("its division is broken: it moves only under Where Is Your Courage",)
    return ()


def broken_problem(state: BattleState, unit: Unit) -> str:
    """Why a unit of a broken division may not take an ordered move at all, or "": only the
    army commander's Where Is Your Courage? moves it, and he gives it only in his own
    division's turn (``_command``)."""
    if unit.group not in morale.broken_divisions(state, unit.side):
        return ""
    leader = leader_of(state, unit.group)
    if leader is not None and RANK.of(leader) == "army":
        return ""
    return (
        f"{unit.name}'s division is broken: it may only retire (Where Is Your Courage? is the "
        "army commander's, and he does not lead this division)"
    )


# -- previews -----------------------------------------------------------------------------


def place(state: BattleState, order: Order, zone: Sequence[Point] | None) -> Verdict:
    """A deployment order: on the table, inside the band of y its side's ``zone`` spans."""
    unit = state.unit(order.actor)
    x, y = point_param(order, "to")
    facing = number_or(order.params.get("facing", unit.facing), 0.0)
    pose = Footprint.of(unit).moved_to((x, y), facing)
    ys = [corner[1] for corner in zone or ()]
    low, high = (min(ys), max(ys)) if ys else (0.0, 1e9)
    if not measure.on_table(state, pose) or not all(low <= cy <= high for _, cy in pose.corners()):
        where = zone_words(state, unit.side, zone) if zone else "the table"
        where = explained(where, zone, pose, state.battlefield.measure) if zone else where
        return Illegal(order, f"({g(x)}, {g(y)}) is outside {where}")
    return Preview(order, f"deploys at ({g(x)}, {g(y)}) facing {g(facing)}°")


def _move(state: BattleState, order: Order, params: Params) -> Verdict:
    ready = _ready(state, order, params)
    if isinstance(ready, Illegal):
        return ready
    unit, how = ready
    end = point_param(order, "to")
    length = math.dist((unit.x, unit.y), end)
    moves = max(1, math.ceil(length / measure.rate(unit) - 1e-9))
    limit = 1 if how == "initiative" else 3
    if moves > limit:
        most = f'{limit} move{"s" if limit > 1 else ""} of {g(measure.rate(unit))}"'
        why = f'{g(length)}" needs {moves} moves; it may make at most {most}'
        return Illegal(order, why, (shorter(limit * measure.rate(unit)),))
    here = (unit.x, unit.y)
    heading = facing_towards(here, end) if end != here else unit.facing  # as movement.move_to
    facing = number_or(order.params.get("facing", heading), 0.0)
    pose = Footprint.of(unit).moved_to(end, facing)
    # The unit moves turned to its heading, then faces as ordered (movement.move_to).
    keep_off = param_number(params, "enemy_keep_off")
    near = measure.turn_too_close(state, unit, heading, keep_off)  # the turn comes first
    if near:
        why = f'{unit.name} would turn within {g(keep_off)}" of {near}'
        return Illegal(order, why, (condition(_unturned(unit, near)),))
    reason = _blocked(state, unit, pose, params, Footprint.of(unit).moved_to(end, heading))
    if reason:
        return Illegal(order, reason)
    stuck = _no_room(state, order, unit, heading, (end, moves), params)
    if stuck is not None:
        return stuck
    summary = f'moves {g(length)}" to ({g(end[0])}, {g(end[1])}): {_moves(moves)}'
    if how == "initiative":
        summary += " on its initiative (no order test)"
    fails = ("if the order fails it still makes one move",) if free_mover(unit) else ()
    return _tested(state, order, params, (unit, how), summary, fails)


def _no_room(
    state: BattleState,
    order: Order,
    unit: Unit,
    heading: float,
    goal: tuple[Point, int],
    params: Params,
) -> Illegal | None:
    """Why a move to ``goal`` (a point, and the moves it needs) may find no room to turn and go
    where the unit stands, whatever number of moves up to those it is given; else None."""
    # Asked of the same search the move makes (measure.reach), for each number of moves an
    # order test may give: so a move the check accepts never stays put for want of room.
    end, moves = goal
    keep_off = param_number(params, "enemy_keep_off")
    for given in range(1, moves + 1):
        length = given * measure.rate(unit)
        beside = measure.reach(state, unit, end, length, heading, keep_off).beside
        if beside:
            why = f"{unit.name} has no room to turn towards that point where it stands"
            first = (
                f"move {unit.name} without turning first: a point straight ahead or behind it "
                f"keeps its facing of {g(unit.facing)}°; once clear of {beside} it has room to turn"
            )
            return Illegal(order, f"{why}: it would swing into {beside}", (condition(first),))
    return None


def _unturned(unit: Unit, near: str) -> str:
    """What makes a move that would turn too near an enemy legal: no turn, or a charge."""
    return (
        f"move {unit.name} without turning: a point straight ahead or behind it keeps its "
        f"facing of {g(unit.facing)}°; or charge {near}"
    )


def _ready(state: BattleState, order: Order, params: Params) -> tuple[Unit, str] | Illegal:
    """The unit an order is for and how it acts (on an order or its initiative), or why it
    may not."""
    unit = state.unit(order.actor)
    problem = unable(state, unit)
    how = mode(state, unit, order, params)
    if problem or how not in MODES:
        return Illegal(order, problem or how, _its_turn(state, unit))
    return unit, how


def _its_turn(state: BattleState, unit: Unit) -> tuple[Instead, ...]:
    """The way forward for a unit ordered in another division's turn: this step, in its own
    division's turn."""
    subject = state.cursor.subject
    return (another_step(state.cursor.step),) if subject and subject.id != unit.group else ()


def _tested(
    state: BattleState,
    order: Order,
    params: Params,
    ready: tuple[Unit, str],
    summary: str,
    fails: tuple[str, ...] = (),
) -> Verdict:
    """The preview of an order ``ready`` to go: on its initiative as ``summary`` says; else
    refused to a broken division, or with the order test it takes (``fails``: what a failed
    test still lets it do)."""
    unit, how = ready
    if how == "initiative":
        return Preview(order, summary, _broken_initiative(state, unit, order, params))
    if broken_problem(state, unit):
        return Illegal(order, broken_problem(state, unit), BROKEN_INSTEAD)
    notes = _broken_note(state, unit) + fails
    return Preview(order, f"{summary}, {_test_note(state, unit, params)}", notes)


def _moves(count: int) -> str:
    return f"needs {count} move{'s' if count > 1 else ''}"


def _blocked(
    state: BattleState, unit: Unit, pose: Footprint, params: Params, moving: Footprint | None = None
) -> str:
    """Why a move to ``pose`` may not be made; ``moving`` is the unit as it arrives, turned to
    its heading, if it turns to ``pose`` there."""
    if not measure.on_table(state, pose):
        return "the move would leave the table"
    through = measure.blocker(state, unit, pose)
    if through:
        return f"{unit.name} would pass through {through}"
    ground = measure.barrier(state, unit, *((moving,) if moving else ()), pose)
    if ground is not None:
        return measure.barrier_words(ground)
    near = measure.too_close(state, unit, pose, param_number(params, "enemy_keep_off"))
    if near:
        return (
            f'{unit.name} would end within {g(param_number(params, "enemy_keep_off"))}" of {near}'
        )
    return ""


def _charge(state: BattleState, order: Order, params: Params) -> Verdict:
    unit = state.unit(order.actor)
    target = enemy_target(state, unit, order)
    problem = unable(state, unit) or (target if isinstance(target, str) else "")
    how = mode(state, unit, order, params)
    if problem or how not in MODES or isinstance(target, str):
        return Illegal(order, problem or how, _its_turn(state, unit))
    if not measure.sight(state, unit, target).clear:
        return Illegal(order, f"{unit.name} cannot see {target.name}")
    room = measure.charge_room(state, unit, target)
    if room is None:
        crowd = measure.crowded(state, unit, measure.charge_pose(unit, target)[0], (target.id,))
        return Illegal(order, f"no room to charge {target.name}: {crowd} is in the way")
    pose, edge = room
    through = measure.blocker(state, unit, pose, (target.id,))
    if through:
        return Illegal(order, f"{unit.name} would pass through {through}")
    ground = measure.barrier(state, unit, pose)
    if ground is not None:
        return Illegal(order, measure.barrier_words(ground))
    length = measure.charge_distance(unit, target, state)
    moves = max(1, math.ceil(length / measure.rate(unit) - 1e-9))
    if moves > (1 if how == "initiative" else 3):
        return Illegal(order, f'{target.name} is {g(length)}" away: {_moves(moves)}, too many')
    summary = f'charges the {edge} of {target.name}, {g(length)}" away: {_moves(moves)}'
    if how == "initiative":
        notes = _broken_initiative(state, unit, order, params)
        return Preview(order, summary + " on its initiative (no order test)", notes)
    if broken_problem(state, unit):
        return Illegal(order, broken_problem(state, unit), BROKEN_INSTEAD)
    return Preview(
        order, f"{summary}, {_test_note(state, unit, params)}", _broken_note(state, unit)
    )


def _form(state: BattleState, order: Order, params: Params) -> Verdict:
    ready = _ready(state, order, params)
    if isinstance(ready, Illegal):
        return ready
    unit, how = ready
    wanted = order.params["option"]
    if wanted == unit.formation:
        return Illegal(order, f"{unit.name} is already in {wanted}")
    summary = f"changes formation to {wanted} (one move)"
    if how == "initiative":
        summary += " on its initiative"
    return _tested(state, order, params, (unit, how), summary)


def _retire(state: BattleState, order: Order, params: Params) -> Verdict:
    unit = state.unit(order.actor)
    problem = unable(state, unit)
    if problem:
        return Illegal(order, problem)
    if unit.group not in morale.broken_divisions(state, unit.side):
        return Illegal(order, f"{unit.name}'s division is not broken")
    end = point_param(order, "to")
    length = math.dist((unit.x, unit.y), end)
    if length > measure.rate(unit) + 1e-9:
        return Illegal(order, f'a retirement is one move of {g(measure.rate(unit))}"')
    enemy = measure.nearest_enemy(state, unit)
    pose = Footprint.of(unit).moved_to(end)
    if enemy is not None:
        after = pose.polygon.distance(Footprint.of(enemy).polygon)
        if after < measure.gap(unit, enemy) - 1e-6:
            return Illegal(order, f"a retirement may not go nearer to {enemy.name}")
    heading = facing_towards((unit.x, unit.y), end)
    keep_off = param_number(params, "enemy_keep_off")
    near = measure.turn_too_close(state, unit, heading, keep_off) if length > 1e-9 else ""
    if near:  # the move turns first (movement.move_to), as an ordered move does
        why = f'{unit.name} would turn within {g(keep_off)}" of {near}'
        straight = f"retire {unit.name} straight back: a point behind it needs no turn"
        return Illegal(order, why, (condition(straight),))
    turned = Footprint.of(unit).moved_to(end, heading)
    reason = _blocked(state, unit, pose, params, turned if length > 1e-9 else None)
    if reason:
        return Illegal(order, reason)
    stuck = _no_room(state, order, unit, heading, (end, 1), params) if length > 1e-9 else None
    if stuck is not None:
        return stuck
    return Preview(order, f'retires {g(length)}" to ({g(end[0])}, {g(end[1])}), no order test')


def _command(state: BattleState, order: Order, params: Params) -> Verdict:
    leader = state.leader(order.actor)
    subject = state.cursor.subject
    if subject is not None and leader.group != subject.id:
        return Illegal(order, f"{leader.name} does not command this division")
    option = str(order.params.get("option", "units"))
    if option in ("units", "division"):
        words = "one test for each ordered unit" if option == "units" else "one test for all"
        return Preview(order, f"{leader.name} gives orders to his division: {words}")
    key = order.params.get("target")
    friends = state.units_of(leader.side, on_table=True)
    unit = next((u for u in friends if u.id == key), None)
    if unit is None:
        return Illegal(order, f"{option} needs a friendly unit as target")
    return _join(state, order, leader, unit, option, params)


def _join(
    state: BattleState, order: Order, leader: Leader, unit: Unit, option: str, params: Params
) -> Verdict:
    where = point_param(order, "to") if "to" in order.params else (leader.x, leader.y)
    apart = Footprint.of(unit).polygon.distance(_point(replace(leader, x=where[0], y=where[1])))
    if apart > param_number(params, "join_range") + 1e-9:
        return Illegal(order, f'{unit.name} is {g(apart)}" from {leader.name}, beyond 12"')
    if option == "follow_me" and unit.group != leader.group:
        return Illegal(order, f"{unit.name} is not in {leader.name}'s division")
    if option == "rally" and CASUALTIES.of(unit) < param_number(params, "rally_min_hits"):
        return Illegal(
            order, f"{unit.name} has not received {g(param_number(params, 'rally_min_hits'))} hits"
        )
    if option == "courage":
        if RANK.of(leader) != "army":
            return Illegal(order, "only the army commander gives Where Is Your Courage")
        if unit.group not in morale.broken_divisions(state, unit.side):
            return Illegal(order, f"{unit.name}'s division is not broken")
    words = {
        "follow_me": "Follow me! (three moves if the test passes)",
        "rally": "Rally (one casualty recovered for each move the test gives)",
        "courage": "Where Is Your Courage? (the unit may take its order)",
    }[option]
    return Preview(order, f"{leader.name} joins {unit.name}: {words}; he gives no other order")


def _general_advance(state: BattleState, order: Order, params: Params) -> Verdict:
    leader = state.leader(order.actor)
    if RANK.of(leader) != "army":
        return Illegal(order, "only the army commander may order a General Advance")
    return Preview(
        order, "General Advance: one order test with no distance modifiers; one move for all"
    )


def _shoot(state: BattleState, order: Order, params: Params) -> Verdict:
    unit = state.unit(order.actor)
    target = enemy_target(state, unit, order)
    if isinstance(target, str):
        return Illegal(order, target)
    reach = weapon_range(str(unit.get("weapon", "none")))
    if not reach or not (profile.number(unit, "short") or profile.number(unit, "long")):
        return Illegal(order, f"{unit.name} has no ranged attack")
    if engaged(state, unit):
        return Illegal(order, f"{unit.name} is fighting hand-to-hand")
    if no_ranged_dice(unit.formation):
        return Illegal(order, f"{unit.name} cannot shoot in {unit.formation}")
    if quarter(Footprint.of(unit), (target.x, target.y)) != "front":
        return Illegal(order, f"{target.name} is not to {unit.name}'s front")
    apart = range_from_front(Footprint.of(unit), Footprint.of(target))
    if apart > reach + 1e-9:
        return Illegal(order, f'{target.name} is {g(apart)}" away, beyond {g(reach)}" range')
    closer = _closer(state, unit, target, apart)
    if closer:
        return Illegal(order, f"{closer} is closer: a unit shoots at the closest enemy it sees")
    seen = measure.sight(state, unit, target)
    band = "short" if apart <= param_number(params, "short_range") else "long"
    summary = f'shoots at {target.name}, {g(apart)}" away: {band} range'
    if not seen.clear:
        return Preview(order, summary, ("no line of sight by the geometry: the GM will rule",))
    obscured = modifier(tables.TO_HIT_RANGED, "partly_obscured")
    return Preview(
        order, summary, (f"partly obscured: {obscured:+d} to hit",) if seen.partial else ()
    )


def _closer(state: BattleState, unit: Unit, target: Unit, apart: float) -> str:
    for enemy in state.enemies_of(unit.side, on_table=True):
        if enemy.id == target.id or quarter(Footprint.of(unit), (enemy.x, enemy.y)) != "front":
            continue
        there = range_from_front(Footprint.of(unit), Footprint.of(enemy))
        if there < apart - 0.5 and measure.sight(state, unit, enemy).clear:
            return enemy.name
    return ""


_CHECKS: dict[str, Callable[[BattleState, Order, Params], Verdict]] = {
    "move": _move,
    "charge": _charge,
    "form": _form,
    "retire": _retire,
    "command": _command,
    "general_advance": _general_advance,
    "shoot": _shoot,
}
