"""Order kinds for every player action, and the previews that explain them or say why not."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import TypeVar

from rules_core import orders as common
from rules_core.codec import Json
from rules_core.geometry import Footprint, boxes_apart, facing_towards, within
from rules_core.orders import Illegal, Order, OrderKind, Param, Preview, Verdict, point_param
from rules_core.rulesets.tree_of_battles import (
    charges,
    command,
    control,
    measure,
    movement,
    shooting,
    tables,
)
from rules_core.rulesets.tree_of_battles import units as u
from rules_core.rulesets.tree_of_battles.status import BROKEN, CONTROL, IN_COMBAT, LOOTING, PURSUING
from rules_core.state import BattleState, Point, Unit
from rules_core.toolkit import engaged, g, landing_on

MOVE_OPTIONS = ("plain", "extra_d6", "skirmish_bonus", "all", "road")
ARRAY_CHANGES = {
    "column": "column",
    "skirmish": "skirmish",
    "square": "square",
    "good_array": "good",
}
MANOEUVRE_OPTIONS = (
    "rally",
    *ARRAY_CHANGES,
    "exchange_ranks",
    "about_face",
    "change_frontage",
    "mount",
    "dismount",
    "pass_gap",
)
FORCED = {
    "halt": "halts this turn (control test)",
    "charge_a": "must advance to and charge the nearest A grade (control test 5)",
    "charge_a_max": "must advance at max speed and charge the nearest A grade (control test 6+)",
    "advance": "must advance to the nearest enemy (control test)",
    "repeat": "must repeat its last move (control test)",
    "full_speed": "is chivalry within 6 SF of the enemy: advances at full speed (no control test)",
}

ORDER_KINDS = (
    OrderKind(
        "leader_move",
        "Move (1 CP): join or influence a contingent",
        "leader",
        (Param("target", "unit", False), Param("to", "point", False)),
    ),
    OrderKind(
        "steady", "Steady (2 CPs): remove 2 DPs within 1 SF", "leader", (Param("target", "unit"),)
    ),
    OrderKind(
        "control",
        "Control (2 CPs): influence a control test within 1 SF",
        "leader",
        (Param("target", "unit"),),
    ),
    OrderKind(
        "new_orders", "Issue or listen to new orders (2 CPs)", "leader", (Param("text", "text"),)
    ),
    OrderKind("restrain", "Take a control test: stop pursuing or looting, or hold chivalry back"),
    OrderKind("march", "March move (foot 4 SF, mounted 6 SF)", params=common.TO_AND_FACING),
    common.SHOOT,
    OrderKind(
        "move",
        "Normal move (1 or 2 AvD x ½ SF)",
        params=(
            Param("to", "point"),
            Param("count", "number", False),
            Param("option", "choice", False, MOVE_OPTIONS),
            Param("facing", "number", False),
            Param("target", "unit", False),
        ),
    ),
    OrderKind(
        "manoeuvre",
        "Manoeuvre",
        params=(
            Param("option", "choice", True, MANOEUVRE_OPTIONS),
            Param("count", "number", False),
            Param("to", "point", False),
        ),
    ),
    OrderKind("charge", "Charge", params=(Param("target", "unit"),)),
    OrderKind("hold", "Hold"),
)


def preview(state: BattleState, order: Order, params: Mapping[str, Json]) -> Verdict:
    """Check an order against the state: what it will do, or why it cannot."""
    if order.kind in command.ACTIONS:
        leader = state.leader(order.actor)
        found = command.problem(state, leader, order)
        return (
            Illegal(order, found)
            if found
            else Preview(order, command.summary(state, leader, order))
        )
    unit = state.unit(order.actor)
    if order.kind == "hold":
        return Preview(order, f"{unit.name} holds")
    checks = {
        "restrain": _restrain,
        "march": _march,
        "shoot": _shoot,
        "move": _move,
        "manoeuvre": _manoeuvre,
        "charge": _charge,
    }
    verdict = checks[order.kind](state, unit, order, params)
    return Illegal(order, verdict) if isinstance(verdict, str) else verdict


def _restrain(
    state: BattleState, unit: Unit, order: Order, params: Mapping[str, Json]
) -> Verdict | str:
    if not control.may_restrain(state, unit):
        return f"{unit.name} is neither pursuing, looting nor chivalrous within 6 SF of the enemy"
    return Preview(order, f"{unit.name} takes a control test to stop or hold back")


def moving_problem(state: BattleState, unit: Unit) -> str | None:
    """Why a contingent may not be ordered to move this turn, or None."""
    if engaged(state, unit) or IN_COMBAT.of(unit):
        return f"{unit.name} is in combat"
    if unit.type == "baggage":
        return "the baggage train does not manoeuvre"
    for flag, words in (
        (BROKEN, "is routing"),
        (PURSUING, "is pursuing"),
        (LOOTING, "is looting"),
    ):
        if flag.of(unit):
            return f"{unit.name} {words} and moves on its own (a control test may stop it)"
    forced = FORCED.get(CONTROL.of(unit))
    return f"{unit.name} {forced}" if forced else None


T = TypeVar("T")
Params = Mapping[str, Json]
Check = Callable[[BattleState, Unit, Order, Params], Verdict | str]


def _given(
    find: Callable[[BattleState, Unit, Order], T | str],
) -> Callable[[Callable[[BattleState, Unit, Order, Params, T], Verdict | str]], Check]:
    """Makes an order's check run on what ``find`` reads from the order (the point a move goes
    to, the contingent it targets), or refuse the order with the reason ``find`` gives."""

    def wrap(check: Callable[[BattleState, Unit, Order, Params, T], Verdict | str]) -> Check:
        """The check, given what the order names."""

        def run(state: BattleState, unit: Unit, order: Order, params: Params) -> Verdict | str:
            """Why the order fails before its check, else the check."""
            found = find(state, unit, order)
            return found if isinstance(found, str) else check(state, unit, order, params, found)

        return run

    return wrap


def _bound_for(state: BattleState, unit: Unit, order: Order) -> Point | str:
    """The point a move order takes the contingent to, or why it may not move."""
    return moving_problem(state, unit) or point_param(order, "to")


def _aimed_at(state: BattleState, unit: Unit, order: Order) -> Unit | str:
    """The contingent an order targets, or why there is none."""
    return _target(state, order)


@_given(_bound_for)
def _march(
    state: BattleState, unit: Unit, order: Order, params: Mapping[str, Json], end: Point
) -> Verdict | str:
    limit = tables.MOVE_DISTANCES.lookup("march", "mounted" if u.mounted(unit) else "foot")
    assert isinstance(limit, float)
    length = math.dist((unit.x, unit.y), end)
    if not within(length, limit):
        return f"{g(length)} SF is beyond the {g(limit)} SF march move"
    clear = tables.MARCH_CLEAR_SF
    if measure.enemy_within(state, unit, clear):
        return f"{unit.name} begins within {g(clear)} SF of the enemy: no march move"
    facing = order.number("facing", unit.facing)
    pose = Footprint.of(unit).moved_to(end, facing)
    if any(
        not boxes_apart(Footprint.of(e), pose, clear)
        and within(Footprint.of(e).polygon.distance(pose.polygon), clear)
        for e in state.enemies_of(unit.side, on_table=True)
    ):
        return f"the march would end within {g(clear)} SF of the enemy"
    there = landing_on(state, unit, pose)
    if there is not None:
        # Found by the AI fuzzer (seed 29): a march ordered onto a friend 0.5 SF deep.
        return f"{there.name} stands there: a march may not end on another contingent"
    blocked = _ground_problem(state, unit, order, end)
    if blocked:
        return blocked
    return Preview(order, f"marches {g(length)} SF to ({g(end[0])}, {g(end[1])})")


def _ground_problem(state: BattleState, unit: Unit, order: Order, end: Point) -> str | None:
    """Dense woods a mounted unit may not enter, or a barrier the move would cross turned as
    it ends (as tactical.march turns it: as ordered, else kept or wheeled to the heading)."""
    _, dense = movement.rough_on(state, Footprint.of(unit), end)
    if dense and u.mounted(unit):
        return "mounted may not enter dense woods"
    return movement.barrier_problem(state, unit, end, _turned(unit, end, order))


def _turned(unit: Unit, end: Point, order: Order) -> float:
    """The facing a move ends in: as ordered, else kept or wheeled to the heading."""
    given = order.params.get("facing")
    return movement.final_facing(
        unit, end, float(given) if isinstance(given, int | float) else None
    )


@_given(_aimed_at)
def _shoot(
    state: BattleState, unit: Unit, order: Order, params: Mapping[str, Json], target: Unit
) -> Verdict | str:
    shot = shooting.plan(state, unit, target, params)
    return shot if isinstance(shot, str) else Preview(order, f"shoots {shooting.describe(shot)}")


def _target(state: BattleState, order: Order) -> Unit | str:
    key = order.params.get("target")
    try:
        return state.unit(key) if isinstance(key, str) else f"no contingent {key!r} on the table"
    except KeyError:
        return f"no contingent {key!r} on the table"


def move_dice(state: BattleState, unit: Unit, order: Order) -> movement.Dice | str:
    """The dice a normal move order asks for, or why they are not allowed."""
    count = order.params.get("count", 2)
    option = str(order.params.get("option", "plain"))
    if count not in (1, 2):
        return "a normal move is 1 or 2 AvD"
    if option in ("extra_d6", "all") and not u.mounted(unit):
        return "only mounted may add the optional D6"
    if option == "skirmish_bonus" and u.array(unit) != "skirmish":
        return "only troops in skirmish array add ½ SF a die"
    end = point_param(order, "to")
    rough, _ = movement.rough_on(state, Footprint.of(unit), end)
    return movement.normal_dice(unit, int(count), option, rough)


@_given(_bound_for)
def _move(
    state: BattleState, unit: Unit, order: Order, params: Mapping[str, Json], end: Point
) -> Verdict | str:
    blocked = _ground_problem(state, unit, order, end)
    if blocked:
        return blocked
    length = math.dist((unit.x, unit.y), end)
    if order.params.get("option") == "road":
        if not movement.road_move(state, unit, end):
            return "a road move needs a column beginning and ending on a road"
        return Preview(order, f"moves up to 5 SF along the road to ({g(end[0])}, {g(end[1])})")
    dice = move_dice(state, unit, order)
    if isinstance(dice, str):
        return dice
    low, high = dice.reach()
    notes = _move_notes(state, unit, end, order, dice)
    span = f"({g(low)}-{g(high)} SF)"
    where = f"({g(end[0])}, {g(end[1])}), {g(length)} SF away"
    summary = f"moves {dice.words()} {span} toward {where}"
    return Preview(order, summary, tuple(notes))


def _move_notes(
    state: BattleState, unit: Unit, end: tuple[float, float], order: Order, dice: movement.Dice
) -> list[str]:
    notes: list[str] = []
    if dice.rough:
        dp = "" if u.array(unit) in u.LOOSE_ARRAYS else "; 1 DP"
        notes.append(f"enters rough ground: -½ SF a die{dp}")
    crossed = measure.obstacles_crossed(
        measure.base_report(state, Footprint.of(unit), end), state.terrain
    )
    notes += [
        f"crosses a {kind} obstacle" for kind, n in crossed.items() if n and kind != "defensive"
    ]
    turned = _turned(unit, end, order)
    if abs((turned - unit.facing + 180) % 360 - 180) > 1e-6:
        within = tables.MANOEUVRES.lookup("wheel", "enemy_within")
        assert isinstance(within, float)
        spared = u.array(unit) in movement.manoeuvre_spared("wheel")
        spared = spared or not measure.enemy_within(state, unit, within)
        dps = movement.manoeuvre_dps("wheel")
        cost = f": {dps} DP{'s' if dps != 1 else ''} within {g(within)} SF of the enemy"
        notes.append(f"wheels to face {round(turned)}°" + ("" if spared else cost))
    if "target" in order.params and not u.skirmishers(unit):
        notes.append("only skirmishers may shoot during their move: the target is ignored")
    return notes


def _manoeuvre(
    state: BattleState, unit: Unit, order: Order, params: Mapping[str, Json]
) -> Verdict | str:
    found = moving_problem(state, unit)
    option = str(order.params["option"])
    if found and not (
        option == "rally" and CONTROL.of(unit) != "halt" and not engaged(state, unit)
    ):
        return found
    key = "change_array" if option in ARRAY_CHANGES else option
    reason = manoeuvre_problem(state, unit, option, order)
    if reason:
        return reason
    if "to" in order.params and tables.MANOEUVRES.lookup(key, "move"):
        crossed = movement.barrier_problem(state, unit, point_param(order, "to"), unit.facing)
        if crossed:
            return crossed
    share = tables.MANOEUVRES.lookup(key, "move")
    words = tables.MANOEUVRES.lookup(key, "sheet")
    half = " and moves the other ½" if "to" in order.params and share else ""
    return Preview(order, f"{option.replace('_', ' ')}{half}", (str(words),))


def manoeuvre_problem(state: BattleState, unit: Unit, option: str, order: Order) -> str | None:
    """Why this manoeuvre is not open to the contingent, or None."""
    if option == "rally":
        if u.array(unit) != "disarray":
            return f"{unit.name} is not in disarray"
        if BROKEN.of(unit) or PURSUING.of(unit) or engaged(state, unit):
            return "the cause of the disarray has not ceased"
    if option in ARRAY_CHANGES and u.array(unit) in (ARRAY_CHANGES[option], "disarray"):
        return f"{unit.name} is in {u.array(unit)}"
    if option in ("mount", "dismount") and unit.type not in (
        "men_at_arms",
        "dismounted_men_at_arms",
    ):
        return "only men at arms mount and dismount"
    if (option == "mount" and u.mounted(unit)) or (option == "dismount" and not u.mounted(unit)):
        return f"{unit.name} is already {'mounted' if u.mounted(unit) else 'on foot'}"
    if option == "change_frontage":
        count = order.params.get("count")
        if not isinstance(count, int) or not 1 <= count <= u.stands_left(unit):
            return f"give the new frontage in stands (count, 1 to {u.stands_left(unit)})"
    return None


@_given(_aimed_at)
def _charge(
    state: BattleState, unit: Unit, order: Order, params: Mapping[str, Json], target: Unit
) -> Verdict | str:
    found = charges.problem(state, unit, target)
    return found if found else Preview(order, charges.summary(state, unit, target))


def heading_to(unit: Unit, end: tuple[float, float]) -> float:
    """The compass heading of a move."""
    return facing_towards((unit.x, unit.y), end)
