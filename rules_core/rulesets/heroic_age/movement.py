"""The Movement phase: broken units flee, control tests, moves on shared dice, fatigue,
manoeuvres, rest and reform, and the DP for an enemy advancing before the signal."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from rules_core.context import Context
from rules_core.dice import Modifier, Purpose
from rules_core.geometry import Footprint, facing_towards
from rules_core.odds import RollSpec
from rules_core.orders import Order, point_param
from rules_core.rulesets.heroic_age import after, gods, measure, tables
from rules_core.rulesets.heroic_age import units as u
from rules_core.rulesets.heroic_age.moves import Thrown, retire_move, throw, travel
from rules_core.rulesets.heroic_age.status import (
    ADVANCE_SIGNALLED,
    BROKEN,
    CONTROL,
    DPS,
    IN_COMBAT,
    LAST_MOVE,
    PURSUING,
    RAIN_UNTIL_TURN,
    RETIRING,
    STATIONARY,
    UNFORMED,
)
from rules_core.state import BattleState, Unit
from rules_core.status import stored
from rules_core.toolkit import checked_orders, g, landing_on

MOVING_KINDS = ("move", "manoeuvre", "rest", "hold")


def resolve(ctx: Context) -> None:
    """The whole Movement phase, sides in the initiative's order."""
    flee_broken(ctx)
    orders = {o.actor: o for o in checked_orders(ctx, MOVING_KINDS)}
    before = {x.id: (x.x, x.y) for x in ctx.state.units}
    for side in ctx.state.cursor.side_order:
        for unit in list(ctx.state.units_of(side)):
            if u.alive(ctx.state, unit.id) and needs_control_test(ctx, unit):
                control_test(ctx, unit, orders.get(unit.id))
        _move_side(ctx, side, orders)
    _rest(ctx, before)
    _enemy_advancing(ctx, before)


# -- control tests -----------------------------------------------------------------------------


def needs_control_test(ctx: Context, unit: Unit) -> bool:
    """More than 2" from a leader, or pursuing (to cease pursuit); not broken or in combat."""
    return control_due(ctx.state, unit)


def control_due(state: BattleState, unit: Unit) -> bool:
    """Whether the unit takes a control test as it stands (``needs_control_test``)."""
    if BROKEN.of(unit) or RETIRING.of(unit) or u.engaged_with(state, unit):
        return False
    if PURSUING.of(unit):
        return True
    reach = tables.CONTROL_RANGE
    friends = [ld for ld in state.leaders if ld.side == unit.side]
    return not any(u.leader_within(state, ld, unit, reach) for ld in friends)


def control_modifiers(unit: Unit, a_grade: int) -> list[Modifier]:
    """The control test's modifiers: levels above Present, Shaken, an A grade's choice."""
    table = tables.CONTROL_MODIFIERS
    found = []
    above = u.level_index(unit) - 1
    if above > 0:
        each = tables.whole(table, "above_present", "modifier")
        found.append(Modifier(each * above, f"{above} level(s) above Present"))
    if u.level(unit) == "shaken":
        found.append(Modifier(tables.whole(table, "shaken", "modifier"), "Shaken"))
    if unit.quality == "A" and a_grade:
        size = tables.whole(table, "a_grade", "modifier")
        chose = "+" if a_grade > 0 else "-"
        found.append(Modifier(size if a_grade > 0 else -size, f"A grade chose {chose}1"))
    return found


def a_grade_choice(order: Order | None) -> int:
    """An A grade's optional +1 or -1 on its control test, from its order's ``a_grade``."""
    value = order.params.get("a_grade", 0) if order else 0
    return int(value) if isinstance(value, int | float) and value in (-1, 1) else 0


def control_roll(unit: Unit, a_grade: int) -> RollSpec:
    """The control test: 1 AvD with its modifiers; rolled in the Movement phase and read by
    the odds."""
    why = "to cease pursuit" if PURSUING.of(unit) else 'more than 2" from a leader'
    label = f"Control test: {unit.name} ({why})"
    mods = tuple(control_modifiers(unit, a_grade))
    return RollSpec(label, 1, "AvD", modifiers=mods, purpose=Purpose(unit.id, "control test"))


def control_test(ctx: Context, unit: Unit, order: Order | None) -> str:
    """1 AvD with modifiers on the Control Test table; the result is kept in ``control``."""
    roll = control_roll(unit, a_grade_choice(order)).roll(ctx.dice)
    roll = gods.reroll(ctx, unit.side, f"control test of {unit.name}", roll)
    band = ctx.test(unit.id, "Control test", roll, tables.CONTROL_TEST, ())
    pursuing = PURSUING.of(unit)
    if band.result == "halt":
        if u.level(unit) == "shaken":
            ctx.set_status(unit.id, band.text, control="retire", pursuing=False)
            retire_move(ctx, unit.id, "control test: Shaken retire")
        else:
            ctx.set_status(unit.id, band.text, control="halt", pursuing=False)
    elif band.result == "free":
        ctx.set_status(unit.id, band.text, control="free", pursuing=False)
    elif pursuing:
        ctx.set_status(unit.id, band.text, control="continue")
    else:
        ctx.set_status(unit.id, band.text, control="blood_lust", aggression="blood lust")
    return str(CONTROL.of(ctx.state.unit(unit.id))) if u.alive(ctx.state, unit.id) else "gone"


# -- moves -------------------------------------------------------------------------------------


def _move_side(ctx: Context, side: str, orders: dict[str, Order]) -> None:
    """One side's moves: forced ones first, then ordered moves on shared dice, manoeuvres."""
    groups: dict[tuple[str, int, bool], list[tuple[Unit, Order]]] = {}
    for unit in list(ctx.state.units_of(side)):
        if not u.alive(ctx.state, unit.id):
            continue
        unit = ctx.state.unit(unit.id)
        how = CONTROL.of(unit)
        if how in ("halt", "retire") or BROKEN.of(unit) or u.engaged_with(ctx.state, unit):
            continue
        if how == "blood_lust":
            _blood_lust_advance(ctx, unit)
            continue
        if how == "continue" and PURSUING.of(unit):
            after.pursue_on(ctx, unit.id)
            continue
        order = orders.get(unit.id)
        if order is None or order.kind in ("hold", "rest"):
            continue
        if order.kind == "manoeuvre":
            manoeuvre(ctx, unit, order)
            continue
        groups.setdefault(_dice_group(ctx, unit, order), []).append((unit, order))
    for key, members in groups.items():
        roll = _move_roll(ctx, side, [m[0] for m in members], extra=key[2])
        for unit, order in members:
            if u.alive(ctx.state, unit.id):
                ordered_move(ctx, ctx.state.unit(unit.id), order, roll)


def _dice_group(ctx: Context, unit: Unit, order: Order) -> tuple[str, int, bool]:
    """Units within 2" of their leader moving the same way share dice; others roll alone."""
    extra = order.params.get("extra_d6") == "yes"
    end = point_param(order, "to")
    heading = round(facing_towards((unit.x, unit.y), end) / 45) % 8
    leader = u.own_leader(ctx.state, unit)
    if leader is not None and u.within(u.leader_gap(ctx.state, leader, unit), tables.LEADER_GROUP):
        return (leader.id, heading, extra)
    return (unit.id, heading, extra)


def _move_roll(ctx: Context, side: str, movers: Sequence[Unit], *, extra: bool) -> Thrown:
    """1 AvD, with the optional D6 if declared before the roll; the Seven may re-roll each."""
    names = ", ".join(x.name for x in movers)
    avd = tables.whole(tables.MOVE, "move", "avd")
    d6 = tables.whole(tables.MOVE, "move", "optional_d6") if extra else 0
    return throw(ctx, side, f"Move: {names}", avd, d6, Purpose(movers[0].id, "move"))


def fatigue(ctx: Context, unit: Unit, faces: Sequence[int], why: str) -> None:
    """Formed units take 1 DP each time a 5 or 6 (4-6 in heavy rain) is thrown."""
    if UNFORMED.of(unit) or not u.alive(ctx.state, unit.id):
        return
    rain = RAIN_UNTIL_TURN.of(ctx.state) >= ctx.state.cursor.turn > 0
    table = tables.FATIGUE_RAIN if rain else tables.FATIGUE
    count = sum(1 for face in faces if table.lookup(face).result == "dp")
    if count:
        rows = ", ".join(
            table.lookup(face).row for face in faces if table.lookup(face).result == "dp"
        )
        u.add_dps(ctx, unit.id, count * tables.FATIGUE_DPS, f"fatigue ({why}: {rows})", "fatigue")


def ordered_move(ctx: Context, unit: Unit, order: Order, roll: Thrown) -> None:
    """A move towards a point: the full distance, short only where declared before the roll."""
    end = point_param(order, "to")
    heading = facing_towards((unit.x, unit.y), end)
    length = roll.inches
    if order.params.get("stop_short") == "yes" and u.level(unit) != "blood lust":
        to_point = ((end[0] - unit.x) ** 2 + (end[1] - unit.y) ** 2) ** 0.5
        length = min(length, to_point)
    facing = unit.facing if measure.angle_between(heading, unit.facing) <= 45 else heading
    gone = travel(ctx, unit, heading, length, facing, f'moves ({g(roll.inches)}" rolled)')
    if gone > measure.EPS:
        fatigue(ctx, ctx.state.unit(unit.id), roll.faces, "move")


def flee_broken(ctx: Context) -> None:
    """Broken units move away again; one that outdistances pursuit is eliminated."""
    for unit in list(ctx.state.units):
        if u.alive(ctx.state, unit.id) and BROKEN.of(unit):
            after.flee(ctx, unit.id)


def _blood_lust_advance(ctx: Context, unit: Unit) -> None:
    """Control test 5+: advance towards the nearest enemy (charging if within 2"), otherwise
    repeat the last move."""
    enemy = u.nearest_enemy(ctx.state, unit)
    if enemy is not None:
        heading = facing_towards((unit.x, unit.y), (enemy.x, enemy.y))
        roll = _move_roll(ctx, unit.side, [unit], extra=True)
        gone = travel(ctx, unit, heading, roll.inches, heading, "advances in blood lust")
        if gone > measure.EPS:
            fatigue(ctx, ctx.state.unit(unit.id), roll.faces, "blood lust advance")
        return
    last = LAST_MOVE.of(unit)
    if isinstance(last, list) and len(last) == 3:
        dx, dy, facing = (float(v) for v in last if isinstance(v, int | float))
        heading = facing_towards((0.0, 0.0), (dx, dy))
        travel(ctx, unit, heading, (dx * dx + dy * dy) ** 0.5, facing, "repeats its last move")


# -- manoeuvres --------------------------------------------------------------------------------


def manoeuvre_problem(unit: Unit, option: str, engaged: bool) -> str | None:
    """Why a unit may not make a manoeuvre, or None."""
    grades = str(tables.MANOEUVRES.lookup(option, "grades"))
    if unit.quality not in grades:
        return f"only {' & '.join(grades)} grades may {option.replace('_', ' ')}"
    if option == "form_up" and engaged:
        return "may not form up in combat"
    if option == "form_up" and not UNFORMED.of(unit):
        return "is not unformed"
    return None


def manoeuvre(ctx: Context, unit: Unit, order: Order) -> None:
    """Change direction, about face, side-step, embark or form up, by the Manoeuvre table."""
    option = str(order.params["option"])
    row = tables.MANOEUVRES.lookup(option, "sheet")
    if manoeuvre_problem(unit, option, bool(u.engaged_with(ctx.state, unit))):
        return
    turned = turned_to(unit, order)
    if turned is not None:
        if turn_problem(ctx.state, unit, turned):
            return  # the ground was free when the order was given (``turn_problem``)
        ctx.move(unit.id, [(unit.x, unit.y)], turned, (str(row),))
    elif option == "side_step":
        shift = tables.number(tables.MANOEUVRES, "side_step", "shift")
        to = order.params.get("to")
        if isinstance(to, list | tuple) and len(to) == 2:
            end = point_param(order, "to")
            heading = facing_towards((unit.x, unit.y), end)
            gap = ((end[0] - unit.x) ** 2 + (end[1] - unit.y) ** 2) ** 0.5
            travel(ctx, unit, heading, min(gap, shift), unit.facing, str(row), keep_off=False)
    elif option == "form_up":
        ctx.set_status(unit.id, str(row), unformed=False)
    ctx.set_status(unit.id, None, stationary=False)
    if tables.MANOEUVRES.lookup(option, "unformed") is True:
        ctx.set_status(unit.id, str(row), unformed=True)


def turned_to(unit: Unit, order: Order) -> float | None:
    """The facing a manoeuvre turns the unit to in place, or None for one that does not turn:
    a change of direction faces the order's point, an about face turns it round."""
    option = order.params.get("option")
    if option == "about_face":
        return unit.facing + 180
    if option != "change_direction":
        return None
    if order.params.get("to") is not None:
        return facing_towards((unit.x, unit.y), point_param(order, "to"))
    return unit.facing


def turn_problem(state: BattleState, unit: Unit, facing: float) -> str | None:
    """Why the unit may not turn in place to ``facing``: its base would end over another unit.

    The sheet: "Change Direction: become unformed. Move stands independently into new
    position"; its stands move, and as a move may not end on another unit (``moves.travel``),
    neither may they (found by the AI's games, tests/bot/test_ai_fuzz.py).
    """
    turned = Footprint.of(replace(unit, facing=facing))
    other = landing_on(state, unit, turned)
    if other is None:
        return None
    return f"{unit.name} cannot turn there: its base would end over {other.name}"


# -- rest and reform; the enemy advancing --------------------------------------------------------


def rest_problem(ctx: Context, unit: Unit) -> str | None:
    """Why a stationary unit may not remove a DP this turn (Rest and Reform by grade)."""
    row = unit.quality if unit.quality in tables.REST.rows else "C"
    if tables.REST.lookup(row, "not_in_combat") is True and (
        u.engaged_with(ctx.state, unit) or IN_COMBAT.of(unit)
    ):
        return "in combat"
    beyond = tables.REST.lookup(row, "beyond")
    if isinstance(beyond, int | float):
        near = u.nearest_enemy(ctx.state, unit)
        if near is not None and u.gap_within(ctx.state, unit, near, float(beyond)):
            return f'within {beyond:g}" of the enemy'
    return None


def _rest(ctx: Context, before: dict[str, tuple[float, float]]) -> None:
    """Units that stayed stationary remove DPs by their grade's row."""
    for unit in list(ctx.state.units):
        if not DPS.of(unit) or BROKEN.of(unit) or RETIRING.of(unit):
            continue
        if before.get(unit.id) != (unit.x, unit.y) or stored(STATIONARY, unit) is False:
            continue
        if rest_problem(ctx, unit) is None:
            row = unit.quality if unit.quality in tables.REST.rows else "C"
            dps = tables.whole(tables.REST, row, "dps")
            u.add_dps(
                ctx, unit.id, -dps, f"rest and reform: {tables.REST.lookup(row, 'sheet')}", "rest"
            )


def _enemy_advancing(ctx: Context, before: dict[str, tuple[float, float]]) -> None:
    """1 DP for each unit with enemy advancing towards it in 8" before it signalled the advance."""
    reach = tables.number(tables.DP_CAUSES, "enemy_advancing", "within")
    dps = tables.whole(tables.DP_CAUSES, "enemy_advancing", "dps")
    for unit in list(ctx.state.units):
        if ADVANCE_SIGNALLED.of(unit) or not u.alive(ctx.state, unit.id):
            continue
        for enemy in ctx.state.enemies_of(unit.side):
            start = before.get(enemy.id)
            if start is None or start == (enemy.x, enemy.y):
                continue
            was = ((start[0] - unit.x) ** 2 + (start[1] - unit.y) ** 2) ** 0.5
            now = ((enemy.x - unit.x) ** 2 + (enemy.y - unit.y) ** 2) ** 0.5
            if now < was and u.gap_within(ctx.state, unit, enemy, reach):
                u.add_dps(
                    ctx,
                    unit.id,
                    dps,
                    f'{enemy.name} advanced within {reach:g}" before it signalled the advance',
                    "morale",
                )
                break
