"""Charges: restrictions, reach, the charged side's responses, and contact."""

from __future__ import annotations

from rules_core.context import Context
from rules_core.decisions import QUICK_HOURS, Option
from rules_core.geometry import Footprint, near, overlapping, quarter, within
from rules_core.rulesets.tree_of_battles import losses, measure, movement, retreats, tables
from rules_core.rulesets.tree_of_battles import units as u
from rules_core.rulesets.tree_of_battles.status import (
    BROKEN,
    CONTROL,
    IN_COMBAT,
    MELEE_WITH,
    PURSUING,
)
from rules_core.rulesets.tree_of_battles.topics import CHARGE_RESPONSE, RESPONSE_WORDS
from rules_core.state import BattleState, Unit
from rules_core.toolkit import engaged, g
from rules_core.unit_questions import unit_question


def charge_dice(state: BattleState, charger: Unit, target: Unit) -> movement.Dice:
    """A charge uses the full normal move: 2 AvD x ½ SF, mounted + D6; -½ SF a die in rough."""
    end = measure.contact_pose(charger, target)
    rough, _ = movement.rough_on(state, Footprint.of(charger), (end.x, end.y))
    return movement.Dice(2, u.mounted(charger), False, rough)


def problem(state: BattleState, charger: Unit, target: Unit) -> str | None:
    """Why a contingent may not charge this target, or None (the sheet's restrictions)."""
    if target.side == charger.side:
        return f"{target.name} is a friendly contingent"
    barred = _barred(charger)
    if barred:
        return f"{charger.name} may not charge: {barred}"
    if engaged(state, charger):
        return f"{charger.name} is already in combat"
    limited = charger.type in tables.LIMITED_CHARGERS or u.missile(charger) == "archers"
    exposed = measure.quarter_of(target, charger) != "front"
    soft = u.array(target) in ("skirmish", "disarray")
    if limited and not PURSUING.of(charger) and not (soft or exposed):
        where = "skirmish array, disarray, or an exposed flank or rear"
        return f"{charger.name} may only charge enemy in {where}"
    if quarter(Footprint.of(charger), (target.x, target.y)) != "front":
        return f"{target.name} is not to {charger.name}'s front"
    end = measure.contact_pose(charger, target)
    _, dense = movement.rough_on(state, Footprint.of(charger), (end.x, end.y))
    if dense and u.mounted(charger):
        return "mounted may not enter dense woods"
    ground = movement.barrier(state, [Footprint.of(charger), end])
    if ground is not None:
        return f"the path crosses {movement.terrain_name(ground)}, impassable ground"
    room = _room(state, charger, target, end)
    if room:
        return room
    need = measure.distance_to_contact(charger, target)
    reach = charge_dice(state, charger, target).reach()[1]
    if not within(need, reach):
        return f"{target.name} is {g(need)} SF away, beyond the {g(reach)} SF the charge can reach"
    return None


def may_charge(state: BattleState, charger: Unit, target: Unit) -> bool:
    """True if ``problem`` finds nothing, the cheap geometry asked first: a target not to the
    front, or beyond the longest the charge could reach on any ground, is refused whatever
    else ``problem`` would say first."""
    if target.side == charger.side:
        return False
    if quarter(Footprint.of(charger), (target.x, target.y)) != "front":
        return False
    mounted = u.mounted(charger)
    longest = max(movement.Dice(2, mounted, False, rough).reach()[1] for rough in (False, True))
    if not within(measure.distance_to_contact(charger, target), longest):
        return False
    return problem(state, charger, target) is None


def room_problem(state: BattleState, unit: Unit, target: Unit) -> str:
    """Why a contingent cannot move to the target's face (a charge, a follow-up), or ""."""
    return _room(state, unit, target, measure.contact_pose(unit, target))


def _room(state: BattleState, charger: Unit, target: Unit, end: Footprint) -> str:
    """Why the charger cannot reach the target's face: a contingent on the way or in the spot."""
    others = [
        x for x in near(state.units_on_table, end.bounds) if x.id not in (charger.id, target.id)
    ]
    for other in others:
        if overlapping(end, Footprint.of(other)):
            return f"no room to contact {target.name}: {other.name} is in the way"
    passed = measure.blockers(state, charger, [Footprint.of(charger), end], {target.id})
    return f"{charger.name} would pass through {passed[0].name}" if passed else ""


def _barred(charger: Unit) -> str:
    """The sheet's "May not charge if ..." clause that applies, or ""."""
    if u.array(charger) in tables.NO_CHARGE_ARRAYS:
        return f"in {u.array(charger)} array"
    if charger.type in tables.NO_CHARGE_TYPES or u.missile(charger) in tables.NO_CHARGE_TYPES:
        return f"{charger.type.replace('_', ' ')} may not charge"
    if CONTROL.of(charger) == "halt":
        return "halt reaction from a control test"
    if BROKEN.of(charger) or charger.type == "baggage":
        return "routing" if BROKEN.of(charger) else "baggage"
    return ""


def summary(state: BattleState, charger: Unit, target: Unit) -> str:
    """What a legal charge will do."""
    dice = charge_dice(state, charger, target)
    low, high = dice.reach()
    need = measure.distance_to_contact(charger, target)
    face = measure.quarter_of(target, charger)
    where = "" if face == "front" else f" in the {face if face == 'rear' else face + ' flank'}"
    return (
        f"charges {target.name}{where}, {g(need)} SF away: {dice.words()} ({g(low)}-{g(high)} SF)"
        + joins(state, charger, target)
    )


def joins(state: BattleState, charger: Unit, target: Unit) -> str:
    """What a charge into an enemy already in mêlée with a friend fights, for its preview."""
    friend = MELEE_WITH.of(target)
    if not friend or not u.alive(state, friend) or state.unit(friend).side != charger.side:
        return ""
    # combat.pairs: the mêlée goes on, reinforced ("+1 Mêlée reinforced this turn").
    return (
        f"; {target.name} is in mêlée with {state.unit(friend).name}: the charge reinforces"
        " that mêlée (+1 Mêlée reinforced this turn, and its stands count against"
        f" {target.name} for outnumbering) and fights no charge combat of its own"
    )


def responses(state: BattleState, target: Unit, charger: Unit) -> list[str]:
    """The responses open to a charged contingent, first the sheet's preferred one."""
    if IN_COMBAT.of(target) and engaged(state, target):
        return ["stand"]
    loose = target.type in (*tables.LIMITED_CHARGERS[2:], "foot_skirmishers", "mounted_skirmishers")
    if u.array(target) == "disarray" and (loose or target.quality == "D"):
        return ["break"]
    if target.type in ("foot_skirmishers", "artillery"):
        return ["stand", "evade"] if _may_stand(state, target, charger) else ["evade"]
    if target.type in ("light_horse", "mounted_skirmishers"):
        chargers_ok = u.skirmishers(charger) or u.mounted(charger)
        return ["counter_charge", "evade"] if chargers_ok else ["evade"]
    if target.type in ("men_at_arms", "dismounted_men_at_arms"):
        return ["stand", "counter_charge"]
    return ["stand"]


def _may_stand(state: BattleState, target: Unit, charger: Unit) -> bool:
    """In, or separated by, difficult terrain or an obstacle; or charged by skirmishers only."""
    if u.skirmishers(charger):
        return True
    if measure.areas_at(state, (target.x, target.y)) & measure.DIFFICULT:
        return True
    report = measure.path_report(state, (charger.x, charger.y), (target.x, target.y))
    crossed = sum(measure.obstacles_crossed(report, state.terrain).values())
    return bool(report.length_in(measure.DIFFICULT)) or crossed > 0


def respond(ctx: Context, target: Unit, charger: Unit) -> str:
    """Ask the charged side's player how the contingent responds (a default if only one)."""
    allowed = responses(ctx.state, target, charger)
    if len(allowed) == 1:
        return allowed[0]
    default = "evade" if target.type == "foot_skirmishers" and "evade" in allowed else allowed[0]
    options = tuple(Option(key, RESPONSE_WORDS[key]) for key in allowed)
    question = f"{charger.name} charges {target.name}: how does it respond?"
    key, pair = f"response:{target.id}", (target, charger)
    return ctx.ask(
        unit_question(key, question, options, default, pair, CHARGE_RESPONSE, QUICK_HOURS)
    )


def execute(ctx: Context, charger: Unit, target: Unit, response: str) -> None:
    """Carry out one charge after the target's response."""
    face = measure.quarter_of(target, charger)
    threat = (charger.x, charger.y)
    u.mark(ctx, target.id, charged_by=charger.id)
    u.set_flags(ctx, target.id, f"charged by {charger.name}", response=response)
    if response == "break":
        retreats.rout(ctx, target, threat, f"charged in disarray by {charger.name}")
    elif response == "evade":
        _evade(ctx, target, threat)
    elif response == "counter_charge":
        _counter(ctx, charger, target)
    if not u.alive(ctx.state, target.id) or not u.alive(ctx.state, charger.id):
        return
    target, charger = ctx.state.unit(target.id), ctx.state.unit(charger.id)
    if _close(ctx, charger, target) and face != "front" and response == "stand":
        u.add_dps(ctx, target.id, _dps("flank_or_rear"), "charged from behind the flank or rear")


def _dps(cause: str) -> int:
    """The DPs a cause gives, from the sheet's "Cause of DPs" table."""
    dps = tables.CAUSES_OF_DPS.lookup(cause, "dps")
    assert isinstance(dps, int)
    return dps


def _evade(ctx: Context, target: Unit, threat: tuple[float, float]) -> None:
    """Evade: a fast move away from the charger (gunners leave their guns)."""
    if target.type == "artillery":
        losses.destroy(ctx, target, "the gunners evade and abandon their guns")
        return
    length, _ = movement.roll_distance(ctx, target, "Fast move (evade)", movement.fast_dice(target))
    # The sheet gives an evade no penalty for being blocked: it stops short of what is in its
    # way, passing friends; like a rout it may run off the table.
    move = movement.flight(ctx.state, target, threat, length, leaves_table=True)
    if measure.on_table(ctx.state, move.end):
        movement.carry(ctx, target, move, "evades")
    else:
        ctx.destroy(target.id, "evades off the table")
    u.mark(ctx, target.id, stationary=False)


def _counter(ctx: Context, charger: Unit, target: Unit) -> None:
    """Counter-charge: the target meets the charger halfway and counts as charging."""
    half = measure.gap(charger, target) / 2
    facing = measure.contact_pose(target, charger).facing
    movement.go(ctx, target, (charger.x, charger.y), half, facing, "counter-charges", halt=False)
    u.set_flags(
        ctx, target.id, "counter-charges", charged=True, counter_charged=True, stationary=False
    )
    if u.mounted(target) and not u.mounted(charger):
        u.add_dps(
            ctx,
            charger.id,
            _dps("foot_charged_by_mounted"),
            "foot who charged contacted by mounted",
        )


def _close(ctx: Context, charger: Unit, target: Unit) -> bool:
    """Roll the charge move and close: contact if it reaches, else it falls short."""
    dice = charge_dice(ctx.state, charger, target)
    length, faces = movement.roll_distance(ctx, charger, "Charge", dice)
    need = measure.distance_to_contact(charger, target)
    u.mark(ctx, charger.id, charged=True, stationary=False)
    start = (charger.x, charger.y)
    pose = measure.contact_pose(charger, target)
    # Another contingent may have reached the spot since the charge was declared (a second
    # charger at the same face): then, as when it is declared, there is no room to contact.
    # Impassable ground on the way (put there after the charge was declared) stops it short.
    room = _room(ctx.state, charger, target, pose)
    clear = movement.barrier(ctx.state, [Footprint.of(charger), pose]) is None
    if within(need, length) and not room and clear:
        ctx.move(charger.id, [start, (pose.x, pose.y)], pose.facing, ["charges home"])
        movement.terrain_dps(ctx, charger, start, faces)
        return True
    short = f"{room}: the charge falls short" if room else "the charge falls short"
    movement.go(ctx, charger, (pose.x, pose.y), length, pose.facing, short, halt=False)
    movement.terrain_dps(ctx, charger, start, faces)
    return False
