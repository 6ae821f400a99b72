"""Charges: declared (Blood Lust charges automatically), tested retinues first within each
contingent, then follower bands from right to left; chargers that pass move into contact."""

from __future__ import annotations

from rules_core import paths
from rules_core.context import Context
from rules_core.dice import Modifier, Purpose
from rules_core.events import OrderRejected
from rules_core.geometry import Footprint, facing_towards, near, overlapping, within_to_front
from rules_core.odds import RollSpec
from rules_core.rulesets.heroic_age import gods, measure, tables
from rules_core.rulesets.heroic_age import units as u
from rules_core.rulesets.heroic_age.status import BROKEN, DPS, RETIRING, UNFORMED
from rules_core.state import BattleState, Unit
from rules_core.toolkit import checked_orders


def problem(state: BattleState, charger: Unit, target: Unit, charge_reach: float) -> str | None:
    """Why ``charger`` may not charge ``target``, or None."""
    found = standing_problem(state, charger, target)
    if found is not None:
        return found
    # within_to_front counts exactly at the reach (the shared tolerance)
    if not within_to_front(Footprint.of(charger), Footprint.of(target), charge_reach):
        return f"{target.name} is not within {charge_reach:g}\" to {charger.name}'s front"
    return None


def standing_problem(state: BattleState, charger: Unit, target: Unit) -> str | None:
    """Why ``charger`` may not charge ``target`` wherever they stood, or None."""
    if target.side == charger.side:
        return f"{target.name} is a friend"
    if BROKEN.of(charger) or RETIRING.of(charger):
        return f"{charger.name} is broken or retiring"
    if u.engaged_with(state, charger):
        return f"{charger.name} is already in combat"
    if u.level(charger) == "shaken":
        return f"{charger.name} is Shaken"
    return None


def _right_to_left(unit: Unit) -> float:
    """How far right the unit stands, seen from its own side's facing (larger is further right)."""
    rx, ry = measure.heading_vector(unit.facing + 90)
    return unit.x * rx + unit.y * ry


def test_order(state: BattleState, declared: dict[str, str]) -> list[str]:
    """Chargers in testing order: sides in initiative order; in each contingent the retinues
    first, then follower bands from right to left."""
    found: list[str] = []
    for side in state.cursor.side_order:
        mine = [x for x in state.units_of(side) if x.id in declared]
        groups = list(dict.fromkeys(x.group for x in mine))
        for group in groups:
            members = [x for x in mine if x.group == group]
            retinues = [x for x in members if x.type == "retinue"]
            bands = sorted(
                (x for x in members if x.type != "retinue"), key=_right_to_left, reverse=True
            )
            found += [x.id for x in (*retinues, *bands)]
    return found


def modifiers(state: BattleState, unit: Unit, charging: set[str]) -> list[Modifier]:
    """Every charge test modifier that applies, with its reason (the sheet's words)."""
    table = tables.CHARGE_MODIFIERS
    checks = {
        "retinue_with_leader": unit.type == "retinue" and bool(u.leaders_with(state, unit)),
        "ready_for_battle": u.level(unit) == "ready for battle",
        "friend_charging": any(
            u.alive(state, f)
            and u.gap_within(state, unit, state.unit(f), tables.CHARGE_FRIEND_RANGE)
            for f in charging
            if f != unit.id and state.unit(f).side == unit.side
        ),
        "unformed_or_dps": UNFORMED.of(unit) or DPS.of(unit) >= tables.CHARGE_DPS_THRESHOLD,
        "a_grade": unit.quality == "A",
        "d_grade": unit.quality == "D",
        "battle_standard": u.standard_within(state, unit, tables.STANDARD_RANGE) is not None,
    }
    return [
        Modifier(tables.whole(table, row, "modifier"), str(table.lookup(row, "sheet")))
        for row, applies in checks.items()
        if applies
    ]


def charge_roll(state: BattleState, charger: Unit, target: Unit, charging: set[str]) -> RollSpec:
    """The charge test: 1 D6 with every modifier that applies (``charging``: the units that
    have already passed theirs); rolled by the charges step and read by the odds."""
    label = f"Charge test: {charger.name} at {target.name}"
    mods = tuple(modifiers(state, charger, charging))
    return RollSpec(label, 1, modifiers=mods, purpose=Purpose(charger.id, "charge test", target.id))


def resolve(ctx: Context, charge_reach: float) -> None:
    """Declared and automatic charges, tested in order; passes move into contact."""
    declared = {o.actor: str(o.params["target"]) for o in checked_orders(ctx, ("charge",))}
    for unit in ctx.state.units:
        if unit.id in declared or u.level(unit) != "blood lust":
            continue
        enemy = measure.enemy_to_front(ctx.state, unit, charge_reach)
        if enemy is not None and problem(ctx.state, unit, enemy, charge_reach) is None:
            declared[unit.id] = enemy.id
    charging: set[str] = set()
    for charger_id in test_order(ctx.state, declared):
        target_id = declared[charger_id]
        if not (u.alive(ctx.state, charger_id) and u.alive(ctx.state, target_id)):
            continue
        charger, target = ctx.state.unit(charger_id), ctx.state.unit(target_id)
        if problem(ctx.state, charger, target, charge_reach):
            continue
        blood_lust = u.level(charger) == "blood lust"
        passed = blood_lust or _test(ctx, charger, target, charging)
        if passed and _contact(ctx, charger, target):
            charging.add(charger_id)
        elif not passed:
            dps = tables.FAILED_CHARGE_DPS
            u.add_dps(ctx, charger_id, dps, f"failed attempt to charge {target.name}", "morale")


def _test(ctx: Context, charger: Unit, target: Unit, charging: set[str]) -> bool:
    """1 D6 with every modifier on the Charge Test table."""
    roll = charge_roll(ctx.state, charger, target, charging).roll(ctx.dice)
    roll = gods.reroll(ctx, charger.side, f"charge test of {charger.name}", roll)
    band = ctx.test(charger.id, "Charge test", roll, tables.CHARGE_TEST, ("charge",))
    return band.result == "charge"


def _contact(ctx: Context, charger: Unit, target: Unit) -> bool:
    """The charger moves straight at the target until it touches it; a charger that would end
    on a unit (turned to face its target beside a friend, or into the target itself) stays
    where it is."""
    heading = facing_towards((charger.x, charger.y), (target.x, target.y))
    length = u.gap(ctx.state, charger, target) + 3.0
    swept = paths.sweep(ctx.state, charger, heading, length, facing=heading)
    end = swept.end
    there = Footprint.of(charger).moved_to((end.x, end.y), heading)
    # The sweep leaves behind units its turned start pose overlaps, but a short charge may
    # never get clear of them: two bases on each other is no place to fight from.
    for other in near(ctx.state.units_on_table, there.bounds):  # only those whose boxes meet
        if other.id != charger.id and overlapping(there, Footprint.of(other)):
            why = f"the charge on {target.name}: turning to face it puts it on {other.name}"
            ctx.emit(OrderRejected(charger.id, "charge", why))
            return False
    ctx.move(
        charger.id, [(charger.x, charger.y), (end.x, end.y)], heading, (f"charges {target.name}",)
    )
    why = (
        "Blood Lust charges automatically"
        if u.level(charger) == "blood lust"
        else "charge test passed"
    )
    ctx.set_status(
        charger.id,
        f"charges {target.name} ({why})",
        charged=True,
        charge_combat=True,
        stationary=False,
    )
    if swept.blocker is not None and swept.blocker.kind == paths.ENEMY:
        hit = swept.blocker.id
        ctx.set_status(hit, None, charge_combat=True)
    return True
