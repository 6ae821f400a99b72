"""The Command phase: rally elite, General Advance, and each division's orders.

A division's turn runs in the sheet's order: the general may ride somewhere and join a unit
(Follow me!, Rally, Where Is Your Courage?), units within reach of the enemy use their
initiative, then order tests give one to three moves, and after a failed order units in
column, tiny units and baggage make their free move and a broken division's units retire.
"""

from __future__ import annotations

from dataclasses import replace

from rules_core import profile
from rules_core.codec import Json
from rules_core.context import Context
from rules_core.decisions import Decision, Option
from rules_core.dice import Modifier, Purpose, Roll
from rules_core.events import OrderRejected, StatusChanged, TestResolved, log_length
from rules_core.geometry import distance
from rules_core.orders import Order, point_param
from rules_core.rulesets.hail_caesar import broken, morale, movement
from rules_core.rulesets.hail_caesar.orders import (
    distance_penalty,
    free_mover,
    leader_of,
    mode,
    superseded,
)
from rules_core.rulesets.hail_caesar.status import (
    CASUALTIES,
    DISORDERED,
    GRANTED_MOVES,
    NO_FREE_MOVE,
    RANK,
    REROLL_TURN,
    SHAKEN,
)
from rules_core.rulesets.hail_caesar.tables import blunder_table, order_table
from rules_core.rulesets.hail_caesar.topics import REROLL, REROLL_WORDS
from rules_core.state import Leader, Unit
from rules_core.tables import Band, ScoreTable
from rules_core.toolkit import checked_orders, engaged

BLUNDER = -1
UNIT_KINDS = ("move", "charge", "form", "retire")


def resolve_rally(ctx: Context) -> None:
    """Rally Elite: each disordered elite unit of the side tests to lose its disorder."""
    for unit in ctx.state.units_of(ctx.side or ""):
        elite = profile.number(unit, "elite")
        if not elite or not DISORDERED.of(unit):
            continue
        table = ScoreTable(
            f"Rally elite ({elite}+)",
            (Band(None, elite - 1, "disordered", "stays disordered"), Band(elite, None, "rallied")),
        )
        roll = ctx.dice.d6(f"Rally elite: {unit.name}", purpose=Purpose(unit.id, "rally elite"))
        if ctx.test(unit.id, table.name, roll, table, ("rallied",)).result == "rallied":
            ctx.set_status(unit.id, "rallied (elite)", disordered=False)


def resolve_army(ctx: Context) -> None:
    """General Advance: one test with no distance modifiers, then one move for every unit."""
    order = next((o for o in checked_orders(ctx, ("general_advance",))), None)
    if order is None:
        return
    leader = ctx.state.leader(order.actor)
    moves = order_test(ctx, leader, leader.id, "General Advance", [])
    if moves <= 0:
        return
    broken = morale.broken_divisions(ctx.state, leader.side)
    for unit in ctx.state.units_of(leader.side, on_table=True):
        blocked = DISORDERED.of(unit) or engaged(ctx.state, unit)
        if blocked or unit.group in broken or superseded(ctx.state, unit, ctx.params):
            continue
        movement.forward(ctx, unit, "General Advance")
        ctx.set_status(unit.id, "General Advance", advanced=True)


def resolve_orders(ctx: Context) -> None:
    """One division's orders, in the sheet's order."""
    division = ctx.subject.id if ctx.subject else ""
    leader = leader_of(ctx.state, division)
    orders = [
        o for o in checked_orders(ctx, UNIT_KINDS) if ctx.state.unit(o.actor).group == division
    ]
    modes = {o.actor: _mode(ctx, o) for o in orders}
    command = _command(ctx, leader)
    option = str(command.params.get("option", "units")) if command else "units"
    skip: set[str] = set()
    if leader is not None and command is not None:
        skip = _general_first(ctx, leader, command, orders)
    for order in orders:
        if modes[order.actor] == "initiative" and order.actor not in skip:
            _initiative(ctx, order)
            skip.add(order.actor)
    for order in orders:
        granted = GRANTED_MOVES.of(ctx.state.unit(order.actor))
        if granted and order.actor not in skip:
            movement.carry_out(ctx, order, granted, "ordered move")
            skip.add(order.actor)
    pending = _unbroken(ctx, [o for o in orders if o.actor not in skip and o.kind != "retire"])
    done = option in ("follow_me", "rally", "courage")
    failed = _ordered(ctx, leader, pending, option == "division", done)
    for order in failed:
        unit = ctx.state.unit(order.actor)
        if order.kind == "move" and free_mover(unit) and not NO_FREE_MOVE.of(unit):
            movement.carry_out(ctx, order, 1, "free move after a failed order")
    for order in orders:
        if order.kind == "retire" and order.actor not in skip:
            movement.carry_out(ctx, order, 1, "retirement (broken division)")


def _initiative(ctx: Context, order: Order) -> None:
    """One initiative move; a broken division's unit advances only if the GM allows it."""
    unit = ctx.state.unit(order.actor)
    if broken.in_broken_division(ctx.state, unit) and not broken.gm_allows(ctx, unit, order):
        ctx.emit(OrderRejected(order.actor, order.kind, broken.refusal(unit)))
        return
    movement.carry_out(ctx, order, 1, "initiative move")


def _unbroken(ctx: Context, orders: list[Order]) -> list[Order]:
    """The orders still waiting for an order test; those of a broken division's units that no
    Where Is Your Courage? gave moves are refused, saying so (the preview warned of it)."""
    broken = morale.broken_divisions(ctx.state, ctx.side or "")
    kept = []
    for order in orders:
        unit = ctx.state.unit(order.actor)
        if unit.group not in broken:
            kept.append(order)
            continue
        why = f"{unit.name}'s division is broken and no Where Is Your Courage? gave it moves"
        ctx.emit(OrderRejected(order.actor, order.kind, why))
    return kept


def _mode(ctx: Context, order: Order) -> str:
    if order.kind == "retire":
        return "retire"
    return mode(ctx.state, ctx.state.unit(order.actor), order, ctx.params)


def _command(ctx: Context, leader: Leader | None) -> Order | None:
    if leader is None:
        return None
    found = [o for o in checked_orders(ctx, ("command",)) if o.actor == leader.id]
    return found[0] if found else Order(leader.id, "command", {})


def _general_first(ctx: Context, leader: Leader, command: Order, orders: list[Order]) -> set[str]:
    """The general rides to his point, then joins a unit if his order says so."""
    if "to" in command.params:
        x, y = point_param(command, "to")
        ctx.state = ctx.state.with_leader(replace(leader, x=x, y=y, attached_to=None))
        ctx.emit(StatusChanged(leader.id, "position", [leader.x, leader.y], [x, y], "rides"))
        leader = ctx.state.leader(leader.id)
    option = str(command.params.get("option", "units"))
    target = command.params.get("target")
    if option not in ("follow_me", "rally", "courage") or not isinstance(target, str):
        return set()
    unit = ctx.state.unit(target)
    _join(ctx, leader, unit)
    words = {"follow_me": "Follow me!", "rally": "Rally", "courage": "Where Is Your Courage?"}
    moves = order_test(ctx, ctx.state.leader(leader.id), unit.id, words[option], [])
    return _joined(ctx, option, unit, moves, orders)


def _join(ctx: Context, leader: Leader, unit: Unit) -> None:
    ctx.state = ctx.state.with_leader(replace(leader, x=unit.x, y=unit.y, attached_to=unit.id))
    ctx.emit(StatusChanged(leader.id, "attached_to", leader.attached_to, unit.id, "joins"))


def _joined(ctx: Context, option: str, unit: Unit, moves: int, orders: list[Order]) -> set[str]:
    """What a joined unit does with the test's result; returns the units already handled."""
    own = next((o for o in orders if o.actor == unit.id), None)
    if option == "rally":
        if moves > 0:
            left = max(0, CASUALTIES.of(unit) - moves)
            changes: dict[str, Json] = {"casualties": left}
            if SHAKEN.of(unit) and left < profile.number(unit, "stamina", 6):
                changes["shaken"] = False
            ctx.set_status(unit.id, "rallied", **changes)
        return {unit.id}
    if option == "courage":
        if moves > 0:
            ctx.set_status(unit.id, "Where Is Your Courage?", granted_moves=moves)
        return set()
    if moves == BLUNDER:
        return {unit.id}
    if moves > 0 and own is not None:
        movement.carry_out(ctx, own, 3, "Follow me!")
    elif moves == 0:
        ctx.set_status(unit.id, "Follow me! failed: no free move", no_free_move=True)
    return {unit.id}


def _ordered(
    ctx: Context, leader: Leader | None, pending: list[Order], together: bool, done: bool
) -> list[Order]:
    """Order tests for the pending orders; returns the orders that got no move."""
    if leader is None or done or not pending:
        return pending
    if together:
        penalty = min(
            distance_penalty(leader, ctx.state.unit(o.actor), ctx.params) for o in pending
        )
        mods = _distance(penalty)
        moves = order_test(ctx, leader, leader.id, "division order", mods)
        return _execute(ctx, pending, moves)
    for index, order in enumerate(pending):
        unit = ctx.state.unit(order.actor)
        mods = _distance(distance_penalty(leader, unit, ctx.params))
        moves = order_test(ctx, leader, unit.id, "order", mods)
        _execute(ctx, [order], moves)
        if moves <= 0:
            return pending[index:] if moves == 0 else pending[index + 1 :]
    return []


def _distance(penalty: int) -> list[Modifier]:
    return [Modifier(penalty, "distance from the general")] if penalty else []


def _execute(ctx: Context, orders: list[Order], moves: int) -> list[Order]:
    """Carry out orders with the moves a test gave (or blunder); the failed ones are returned."""
    if moves == 0:
        return orders
    for order in orders:
        if moves == BLUNDER:
            _blunder(ctx, ctx.state.unit(order.actor))
        else:
            movement.carry_out(ctx, order, moves, f"ordered: {moves} move{'s' * (moves > 1)}")
    return []


def _blunder(ctx: Context, unit: Unit) -> None:
    table = blunder_table(ctx.params["blunder_table"])
    roll = ctx.dice.d6(f"Blunder: {unit.name}", purpose=Purpose(unit.id, "blunder"))
    band = ctx.test(unit.id, "Blunder", roll, table, ())
    movement.blunder(ctx, unit, band.result)


def order_test(ctx: Context, leader: Leader, subject: str, what: str, mods: list[Modifier]) -> int:
    """2D6 against the leader's Leadership: 1-3 moves, 0 if failed, BLUNDER on double six."""
    leadership = leader.points or int(ctx.number("default_leadership"))
    table = order_table(leadership, ctx.params["order_test_moves"])
    why = Purpose(leader.id, "order test", subject, what)
    roll = ctx.dice.two_d6(f"Order test: {leader.name}, {what}", mods, why)
    moves = _judge(ctx, subject, table, roll)
    if moves <= 0 and _reroll_allowed(ctx, leader, subject):
        roll = ctx.dice.reroll(roll, [0, 1], f"Order test re-rolled: {leader.name}, {what}")
        moves = _judge(ctx, subject, table, roll)
    return moves


def _judge(ctx: Context, subject: str, table: ScoreTable, roll: Roll) -> int:
    if roll.faces == (6, 6):
        ctx.emit(TestResolved(subject, table.name, roll.total, False, "double six: a blunder"))
        return BLUNDER
    band = ctx.test(subject, table.name, roll, table, ("1", "2", "3"))
    return int(band.result)


def _reroll_allowed(ctx: Context, leader: Leader, subject: str) -> bool:
    """The army commander's re-roll: once a turn, for himself or a general within 12"."""
    side = ctx.state.side(leader.side)
    used = REROLL_TURN.of(side) == ctx.state.cursor.turn
    chief = army_commander(ctx, leader.side)
    if used or chief is None:
        return False
    if distance((chief.x, chief.y), (leader.x, leader.y)) > ctx.number("join_range") + 1e-9:
        return False
    options = tuple(Option(key, label) for key, label in REROLL_WORDS.items())
    question = f"{chief.name} may have {leader.name}'s order test re-rolled (once a turn)."
    key = f"reroll:{leader.id}:{subject}:{log_length(ctx.events)}"
    asked = Decision(key, question, options, "keep", leader.side, topic=REROLL)
    if ctx.ask(asked) != "reroll":
        return False
    ctx.set_side_status(side.id, None, reroll_turn=ctx.state.cursor.turn)
    return True


def detach_generals(ctx: Context, side: str) -> None:
    """Generals who joined units this turn leave them at its end."""
    for leader in ctx.state.leaders:
        if leader.side == side and leader.attached_to:
            ctx.state = ctx.state.with_leader(replace(leader, attached_to=None))
            ctx.emit(StatusChanged(leader.id, "attached_to", leader.attached_to, None, "leaves"))


def army_commander(ctx: Context, side: str) -> Leader | None:
    """The side's army commander, if it has one."""
    chiefs = [ld for ld in ctx.state.leaders if ld.side == side and RANK.of(ld) == "army"]
    return chiefs[0] if chiefs else None
