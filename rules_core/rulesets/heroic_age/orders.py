"""Order kinds for every player action of the sheet (leader actions: ``leadership.ORDER_KINDS``)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from rules_core import orders as common
from rules_core.codec import Json, number_or
from rules_core.geometry import Footprint, facing_towards, near
from rules_core.orders import Illegal, Order, OrderKind, Param, Preview, Verdict, point_param
from rules_core.rulesets.heroic_age import charges, measure, missiles, movement, tables
from rules_core.rulesets.heroic_age import units as u
from rules_core.rulesets.heroic_age.status import BROKEN, RETIRING
from rules_core.state import BattleState, Point, Unit
from rules_core.toolkit import g, param_number, zone_words
from rules_core.zone_fit import explained

YES_NO = ("no", "yes")
MANOEUVRE_OPTIONS = (
    "change_direction",
    "about_face",
    "side_step",
    "embark",
    "form_up",
)

UNIT_ORDER_KINDS = (
    common.PLACE,
    OrderKind(
        "move",
        "Move (1 AvD, + optional D6) towards a point",
        params=(
            Param("to", "point"),
            Param("extra_d6", "choice", False, YES_NO),  # declared before the roll
            Param("stop_short", "choice", False, YES_NO),  # declared before the roll
            Param("a_grade", "number", False),  # an A grade's +1 or -1 on a control test
        ),
    ),
    OrderKind(
        "manoeuvre",
        "Manoeuvre",
        params=(
            Param("option", "choice", True, MANOEUVRE_OPTIONS),
            Param("to", "point", False),  # where a change of direction faces, a side-step goes
            Param("a_grade", "number", False),
        ),
    ),
    OrderKind("rest", "Rest and reform (stay stationary to remove a DP)"),
    common.SHOOT,
    OrderKind("charge", "Declare a charge", params=(Param("target", "unit"),)),
    OrderKind("hold", "Hold"),
)


def place(state: BattleState, order: Order, zone: Sequence[Point] | None) -> Verdict:
    """A deployment order: on the table, inside the side's deployment zone."""
    unit = state.unit(order.actor)
    x, y = point_param(order, "to")
    facing = number_or(order.params.get("facing", unit.facing), 0.0)
    pose = Footprint.of(unit).moved_to((x, y), facing)
    table = state.battlefield
    ys = [corner[1] for corner in zone or ()]
    low, high = (min(ys), max(ys)) if ys else (0.0, table.depth)
    inside = all(
        0 <= cx <= table.width and low - 1e-9 <= cy <= high + 1e-9 for cx, cy in pose.corners()
    )
    if not inside:
        where = zone_words(state, unit.side, zone) if zone else "the table"
        where = explained(where, zone, pose, table.measure) if zone else where
        return Illegal(order, f"({g(x)}, {g(y)}) is outside {where}")
    return Preview(order, f"deploys at ({g(x)}, {g(y)}) facing {g(facing)}°")


def preview(state: BattleState, order: Order, params: Mapping[str, Json]) -> Verdict:
    """What a unit's order will do, or why it is illegal."""
    unit = state.unit(order.actor)
    found = _problem(state, unit, order, params)
    if found:
        return Illegal(order, found)
    return Preview(order, _summary(state, unit, order))


def _problem(
    state: BattleState, unit: Unit, order: Order, params: Mapping[str, Json]
) -> str | None:
    engaged = bool(u.engaged_with(state, unit))
    choice = order.params.get("a_grade")
    if choice is not None and choice not in (-1, 0, 1):
        return "the A grade's control test choice (number) is +1, -1 or 0"
    if choice and unit.quality != "A":
        return "only an A grade may add or take 1 from its control test"
    if order.kind in ("move", "manoeuvre", "charge", "shoot") and (
        BROKEN.of(unit) or RETIRING.of(unit)
    ):
        return f"{unit.name} is broken or retiring"
    if order.kind == "move":
        return _move_problem(unit, order, engaged)
    if order.kind == "manoeuvre":
        turned = movement.turned_to(unit, order)
        return movement.manoeuvre_problem(unit, str(order.params["option"]), engaged) or (
            None if turned is None else movement.turn_problem(state, unit, turned)
        )
    if order.kind == "shoot":
        target = state.unit(str(order.params["target"])) if _is_unit(state, order) else None
        if target is None:
            return "no such target"
        return missiles.problem(state, unit, target)
    if order.kind == "charge":
        target = state.unit(str(order.params["target"])) if _is_unit(state, order) else None
        if target is None:
            return "no such target"
        return charges.problem(state, unit, target, param_number(params, "charge_reach"))
    return None


def _move_problem(unit: Unit, order: Order, engaged: bool) -> str | None:
    """Why the unit may not move to the order's point (None: it may)."""
    if engaged:
        return f"{unit.name} is in combat"
    end = point_param(order, "to")
    if math.dist((unit.x, unit.y), end) < 1e-6:
        return "the point is where the unit stands"
    heading = facing_towards((unit.x, unit.y), end)
    if measure.angle_between(heading, unit.facing) > 45:
        return (
            f"{unit.name} faces {g(unit.facing)}°; a move more than 45° off its front needs "
            "a change of direction (manoeuvre) first"
        )
    if order.params.get("stop_short") == "yes" and u.level(unit) == "blood lust":
        return "a unit in Blood Lust may not stop short"
    return None


def _is_unit(state: BattleState, order: Order) -> bool:
    return u.alive(state, str(order.params.get("target")))


def _summary(state: BattleState, unit: Unit, order: Order) -> str:
    if order.kind == "move":
        extra = order.params.get("extra_d6") == "yes"
        dice = '1 AvD + 1 D6 (2-11")' if extra else '1 AvD (2-5")'
        short = (
            " stopping at the point if reached" if order.params.get("stop_short") == "yes" else ""
        )
        x, y = point_param(order, "to")
        return f"{unit.name} moves towards ({g(x)}, {g(y)}), {dice}, full distance{short}"
    if order.kind == "manoeuvre":
        option = str(order.params["option"])
        return f"{unit.name}: {tables.MANOEUVRES.lookup(option, 'sheet')}"
    if order.kind == "shoot":
        return f"{unit.name} shoots at {state.unit(str(order.params['target'])).name}"
    if order.kind == "charge":
        target = state.unit(str(order.params["target"])).name
        mods = charges.modifiers(state, unit, set())
        if u.level(unit) == "blood lust":
            return f"{unit.name} charges {target} (Blood Lust: automatically)"
        total = sum(m.value for m in mods)
        return f"{unit.name} declares a charge at {target}: needs 4+ on a D6 {total:+d}"
    if order.kind == "rest":
        return f"{unit.name} stays to rest and reform"
    return f"{unit.name} holds"


def has_business(state: BattleState, side: str, step: str, params: Mapping[str, Json]) -> bool:
    """Whether a side has anything to order in a step (else the step does not wait for it)."""
    mine = [x for x in state.units_of(side) if not BROKEN.of(x)]
    if step == "deploy" or step not in ("movement", "missiles", "charges"):
        return True
    if step == "movement":
        return any(not u.engaged_with(state, x) and not RETIRING.of(x) for x in mine)
    if step == "missiles":
        return any(missiles.has_choice(state, x) for x in mine if missiles.shoots(x))
    reach = param_number(params, "charge_reach")
    return any(
        u.level(x) != "blood lust"
        and any(
            charges.problem(state, x, e, reach) is None
            # only enemies whose boxes come within charge reach can be charged (a box test,
            # asked of the state's units: ``near`` keeps their boxes)
            for e in near(state.units, Footprint.of(x).bounds, reach + measure.EPS)
            if e.side != side
        )
        for x in mine
    )
