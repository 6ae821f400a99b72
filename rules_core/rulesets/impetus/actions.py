"""What an activated command's units do, one step each: rally, move, shoot, charge.

Units act in roster order inside each step. A unit that rallies does nothing else in that
activation. Each move after a unit's first in the activation needs a discipline test
(``discipline.test(kind="second_move", moves=n)``); failing it the unit is disordered, does not
make that move and makes no more (a Genius general's command has one such test passed free each
activation: his "free SC", see ``generals``). A move is checked along its path when it is made
(``orders.move_problem``): a move that became illegal is refused, and the unit's later moves
with it. A charge moves the unit straight at its target into contact, after the target's
reactions (``reactions.offer(trigger="charged")``); the melee is fought at once
(``melee.resolve(impact=True)``).
"""

from __future__ import annotations

import math

from rules_core.codec import Json
from rules_core.context import Context
from rules_core.events import OrderRejected
from rules_core.geometry import EPSILON, Footprint, boxes_apart
from rules_core.orders import Illegal, Order
from rules_core.rulesets.impetus import (
    contact,
    discipline,
    displacement,
    generals,
    groups,
    melee,
    reactions,
    shooting,
)
from rules_core.rulesets.impetus import movement_tables as mt
from rules_core.rulesets.impetus import orders as unit_orders
from rules_core.rulesets.impetus import tables as combat_tables
from rules_core.rulesets.impetus.profiles import impetuous, troop_type
from rules_core.rulesets.impetus.status import (
    CHARGED,
    DISORDERED,
    MOVES,
    RALLIED,
)
from rules_core.state import Unit
from rules_core.toolkit import checked_orders, reject_gone


def _alive(ctx: Context, unit_id: str) -> Unit | None:
    """The first unit on the table with this id, or None."""
    try:
        first = ctx.state.unit(unit_id)
    except KeyError:
        return None  # no unit of this id at all
    if first.on_table:
        return first  # the first of its id stands on the table: a scan finds it first too
    return next((u for u in ctx.state.units_on_table if u.id == unit_id), None)


def rally(ctx: Context) -> None:
    """Each ordered disordered unit takes a rally DT; passing, it is no longer disordered."""
    for order in checked_orders(ctx, ("rally",)):
        unit = ctx.state.unit(order.actor)
        result = discipline.test(ctx, unit, "rally")
        if result.passed:
            ctx.set_status(unit.id, "rallied", disordered=False)
        ctx.set_status(unit.id, None, rallied=True)  # it does nothing else this activation


def _unit_moves(ctx: Context, kind: str = "move") -> dict[str, list[Order]]:
    found: dict[str, list[Order]] = {}
    for order in ctx.orders:
        if order.kind == kind:
            found.setdefault(order.actor, []).append(order)
    return found


def move(ctx: Context) -> None:
    """Group moves first (``group_moves``), then each unit's moves in turn, each checked
    when it is made; once a unit (a group: each member) has made its moves, the enemies that
    may react to it are offered opportunity fire or a charge
    (``reactions.offer(trigger="moved")``)."""
    free_sc = _free_second_move(ctx)
    for unit_id, moves in sorted(
        _unit_moves(ctx, "group_move").items(), key=lambda kv: _rank(ctx, kv[0])
    ):
        moved = group_moves(ctx, unit_id, moves, free_sc)
        free_sc = free_sc and not any(MOVES.of(u) > 1 for u in _command(ctx))
        for member in moved:
            _offer_moved(ctx, member)
    for unit_id, moves in sorted(_unit_moves(ctx).items(), key=lambda kv: _rank(ctx, kv[0])):
        _moves(ctx, unit_id, moves, free_sc)
        free_sc = free_sc and not any(MOVES.of(u) > 1 for u in _command(ctx))
        _offer_moved(ctx, unit_id)


def _offer_moved(ctx: Context, unit_id: str) -> None:
    """Opportunity reactions to a unit that has moved."""
    mover = _alive(ctx, unit_id)
    if mover is None or not MOVES.of(mover):
        return
    for enemy in [u for u in ctx.state.units_on_table if u.side != mover.side]:
        mover = _alive(ctx, unit_id)
        fresh = _alive(ctx, enemy.id)
        if mover is None or fresh is None or unit_orders.in_melee(mover):
            break
        if not unit_orders.in_melee(fresh) and not _beyond_reactions(ctx, fresh, mover):
            reactions.offer(ctx, "moved", fresh, mover)


SHOT_REACH = max(reach for _, reach, _ in combat_tables.RANGE_BANDS)


def _beyond_reactions(ctx: Context, unit: Unit, mover: Unit) -> bool:
    """Whether the mover stands surely beyond every range band and the unit's charge reach,
    so that no reaction is allowed (``reactions.allowed`` would offer only "none"): their
    boxes are further apart than either, so their bases are too."""
    extra = ctx.params.get("charge_reach_extra", 0.0)
    charge = 0.0
    if troop_type(unit) not in ("ART", "W"):
        charge = mt.distance(unit, "charge") + float(extra if isinstance(extra, int | float) else 0)
    reach = max(SHOT_REACH, charge) + EPSILON
    return boxes_apart(Footprint.of(unit), Footprint.of(mover), reach + EPSILON)


def _still_legal(ctx: Context, unit_id: str, order: Order) -> Unit | None:
    """The ordered unit, if it is still on the table and the order still legal where it now
    stands (a refusal is logged with its reason); None otherwise."""
    unit = _alive(ctx, unit_id)
    if unit is None:
        reject_gone(ctx, order)
        return None
    verdict = ctx.rules.judge(ctx.state, order)
    if isinstance(verdict, Illegal):
        ctx.emit(OrderRejected(order.actor, order.kind, verdict.reason))
        return None
    return unit


def group_moves(ctx: Context, unit_id: str, moves: list[Order], free_sc: bool) -> list[str]:
    """A group's moves ordered through one member, in the order given: each checked when it
    is made (``orders.group_move_problem``); a further move takes one DT for the group
    (``discipline.tester``: the worst member by default), failing it every member is disordered
    and the group moves no more. Returns the ids of the members that moved."""
    moved: list[str] = []
    for order in moves:
        unit = _still_legal(ctx, unit_id, order)
        if unit is None:
            break
        group = groups.group_of(ctx.state, unit, ctx.params)
        assert group is not None  # the verdict checked it
        units = groups.members(ctx.state, group)
        done = max(MOVES.of(m) for m in units)
        if done >= 1:
            if free_sc and done == 1:
                free_sc = False
            else:
                who = discipline.tester(ctx.state, units, unit, done + 1, ctx.params)
                result = discipline.test(ctx, who, "second_move", moves=done + 1)
                if not result.passed:
                    for member in units:
                        ctx.set_status(
                            member.id,
                            f"{group.label} failed its test for a further move",
                            disordered=True,
                        )
                    break
        carry_out_group(ctx, units, unit, order)
        moved += [m.id for m in units if m.id not in moved]
    return moved


def carry_out_group(ctx: Context, units: list[Unit], ordered: Unit, order: Order) -> None:
    """Make one checked group move: every member by the same rigid motion
    (``groups.group_plan``); ground or a backwards move may disorder a member."""
    kind = str(order.params.get("manoeuvre"))
    side = order.params.get("side")
    length = order.number("distance", 0.0)
    poses = groups.group_plan(units, ordered, kind, length, str(side) if side else None)
    for member in units:
        x, y, facing, _, _ = poses[member.id]
        _arrive(
            ctx,
            member,
            kind,
            (x, y, facing),
            f"group {kind.replace('_', ' ')}",
            unit_orders.GROUP_PREFIX + kind,
        )


def _command(ctx: Context) -> list[Unit]:
    subject = ctx.subject
    return [u for u in ctx.state.units_on_table if subject is not None and u.group == subject.id]


def _moves(ctx: Context, unit_id: str, moves: list[Order], free_sc: bool) -> None:
    """One unit's moves of this activation, in the order given."""
    for order in moves:
        unit = _still_legal(ctx, unit_id, order)
        if unit is None:
            break
        done = MOVES.of(unit)
        if done >= 1:
            if free_sc and done == 1:
                free_sc = False
            else:
                result = discipline.test(ctx, unit, "second_move", moves=done + 1)
                if not result.passed:
                    ctx.set_status(unit.id, "failed the test for a further move", disordered=True)
                    break
        kind = str(order.params.get("manoeuvre"))
        if mt.needs_dt(unit, kind):
            result = discipline.test(ctx, unit, "second_move", moves=1, about_face=True)
            if not result.passed:
                ctx.set_status(unit.id, "may not about face", moves=done + 1)
                continue
        carry_out(ctx, unit, order)


def _rank(ctx: Context, unit_id: str) -> int:
    ids = [u.id for u in ctx.state.units]
    return ids.index(unit_id) if unit_id in ids else len(ids)


def _free_second_move(ctx: Context) -> bool:
    subject = ctx.subject
    general = generals.general_of(ctx.state, subject.id) if subject is not None else None
    return general is not None and "free_sc" in generals.initiative_effects(general)


def carry_out(ctx: Context, unit: Unit, order: Order) -> None:
    """Make one checked move: the unit goes where the order takes it; ground or a backwards
    move may disorder it."""
    kind = str(order.params.get("manoeuvre"))
    x, y, facing, _, _ = unit_orders.plan(unit, order)
    _arrive(ctx, unit, kind, (x, y, facing), kind.replace("_", " "), kind)


def _arrive(
    ctx: Context, unit: Unit, kind: str, pose: tuple[float, float, float], note: str, last: str
) -> None:
    """One unit's move made: it goes to ``pose``; ground or a backwards move may disorder
    it; its moves and last manoeuvre are kept."""
    x, y, facing = pose
    where = unit_orders.ground(ctx.state, unit, [(unit.x, unit.y), (x, y)], ctx.params)
    ctx.move(unit.id, [(unit.x, unit.y), (x, y)], facing, (note,))
    reason = None
    if mt.disorders(unit, kind) and not DISORDERED.of(unit):
        reason = "disordered by moving backwards"
    elif mt.parse(mt.cell(unit, where))[1] and not DISORDERED.of(unit):
        reason = f"disordered by {where} ground"
    if reason is not None:
        ctx.set_status(unit.id, reason, disordered=True)
    ctx.set_status(unit.id, None, moves=MOVES.of(unit) + 1, last_manoeuvre=last)


def shoot(ctx: Context) -> None:
    """Each ordered unit shoots at its target (``shooting.resolve``)."""
    for order in checked_orders(ctx, ("shoot",)):
        unit = _alive(ctx, order.actor)
        target = _alive(ctx, str(order.params["target"]))
        if unit is None or target is None:
            continue
        shooting.resolve(ctx, unit, target)
        if _alive(ctx, unit.id) is not None:
            ctx.set_status(unit.id, None, shot=True)


def charge(ctx: Context) -> None:
    """Each ordered unit charges: the target reacts, the charger moves into contact, and the
    melee is fought at once. Then frenzy: an impetuous unit of the command that could charge
    an enemy and was not ordered to takes a frenzy DT; failing it, it charges the nearest."""
    for order in checked_orders(ctx, ("group_charge",)):
        group_charge(ctx, order)
    for order in checked_orders(ctx, ("charge",)):
        unit = _alive(ctx, order.actor)
        target = _alive(ctx, str(order.params["target"]))
        if unit is not None and target is not None:
            charge_one(ctx, unit, target)
    for unit in _command(ctx):
        fresh = _alive(ctx, unit.id)
        if fresh is None or not impetuous(fresh) or CHARGED.of(fresh) or RALLIED.of(fresh):
            continue
        if unit_orders.in_melee(fresh):
            continue
        foes = [
            f
            for f in ctx.state.units_on_table
            if f.side != fresh.side
            and unit_orders.charge_problem(ctx.state, fresh, f, ctx.params) is None
        ]
        if not foes:
            continue
        short = fragmented(ctx, fresh)
        facts: dict[str, Json] = {"fragmented": True, "fragmented_by": short} if short else {}
        if discipline.test(ctx, fresh, "frenzy", **facts).passed:
            continue
        nearest = min(foes, key=lambda f: math.dist((fresh.x, fresh.y), (f.x, f.y)))
        charge_one(ctx, fresh, nearest)


def group_charge(ctx: Context, order: Order) -> None:
    """A group charges: whom each member charges is fixed as the order is carried out
    (``orders.group_charge_targets``); each charge then goes as a unit's, one after another.
    A member that can charge no one stays, and is named: the group's charge is fragmented."""
    unit, target = _alive(ctx, order.actor), _alive(ctx, str(order.params["target"]))
    if unit is None or target is None:
        return
    for member, foe in unit_orders.group_charge_targets(ctx.state, unit, target, ctx.params):
        if foe is None:
            ctx.emit(
                OrderRejected(
                    member.id,
                    "group_charge",
                    f"{member.name} can charge no enemy: the group's charge is fragmented",
                )
            )
            continue
        moved, hit = _alive(ctx, member.id), _alive(ctx, foe.id)
        if moved is not None and hit is not None and not CHARGED.of(moved):
            charge_one(ctx, moved, hit)


def fragmented(ctx: Context, unit: Unit) -> str | None:
    """The frenzy DT's "Group charging is Fragmented": the name of a member of the unit's
    group that could not charge with it (no enemy within its reach, or locked in melee), or
    None (a whole group, or no group)."""
    group = groups.group_of(ctx.state, unit, ctx.params)
    if group is None:
        return None
    foes = [f for f in ctx.state.units_on_table if f.side != unit.side]
    for member in groups.members(ctx.state, group):
        if member.id == unit.id:
            continue
        able = not unit_orders.in_melee(member) and any(
            unit_orders.charge_problem(ctx.state, member, f, ctx.params) is None for f in foes
        )
        if not able:
            return member.name
    return None


def charge_one(ctx: Context, unit: Unit, target: Unit) -> None:
    """One charge: the target's reaction, contact, the melee."""
    if unit_orders.in_melee(unit):
        return
    reaction = reactions.offer(ctx, "charged", target, unit)
    moved, hit = _alive(ctx, unit.id), _alive(ctx, target.id)
    if moved is None or hit is None:
        return
    if unit_orders.charge_problem(ctx.state, moved, hit, ctx.params) is not None:
        if reaction != "evasion" or not displacement.charge_on(ctx, moved, hit):
            if reaction != "evasion":
                ctx.emit(OrderRejected(moved.id, "charge", f"{hit.name} is out of reach now"))
            return
        moved = ctx.state.unit(unit.id)
    if not contact.contact(ctx, moved, hit):
        return
    moved, hit = _alive(ctx, unit.id), _alive(ctx, target.id)
    if moved is not None and hit is not None:
        melee.resolve(ctx, moved, hit, impact=True)
