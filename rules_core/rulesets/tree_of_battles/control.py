"""Control tests: when they are taken, their modifiers, and what each result makes troops do."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from rules_core import profile
from rules_core.context import Context
from rules_core.decisions import GM, Decision, Option
from rules_core.dice import Modifier, Purpose
from rules_core.events import StatusChanged, TestResolved
from rules_core.geometry import EPSILON, Footprint, boxes_apart, edge_distance, within, zone
from rules_core.odds import RollSpec
from rules_core.rulesets.tree_of_battles import losses, measure, retreats, tables
from rules_core.rulesets.tree_of_battles import units as u
from rules_core.rulesets.tree_of_battles.status import (
    BROKEN,
    CONTROLLED_BY,
    IN_COMBAT,
    LOOTING,
    PURSUING,
    RANK,
    SHOT_BY_ARTILLERY,
)
from rules_core.rulesets.tree_of_battles.topics import CONTROL_ADJUST, TREACHERY, TREACHERY_WORDS
from rules_core.state import BattleState, Leader, Unit

TOUCHING = 0.01  # SF: contingents this close form a continuous line
REAR_SUPPORT = 2.0  # SF behind a contingent in which friends count as "to the rear"
ADJUST_SIGN = {"plus": 1, "minus": -1, "none": 0}


def in_command(state: BattleState, unit: Unit) -> bool:
    """Within 1 SF of a captain or 2 SF of a marshal, or in a continuous line joined to one."""
    line = _line_of(state, unit)
    for leader in state.leaders:
        if leader.side != unit.side:
            continue
        rank = RANK.of(leader)
        reach = tables.COMMAND_RANGE.get(rank, 1.0)
        where = losses.leader_position(state, leader)
        if any(_commands(leader, where, member, reach) for member in line):
            return True
    return False


def _commands(leader: Leader, where: Footprint, member: Unit, reach: float) -> bool:
    """``losses.leader_gap`` within ``reach``, the leader standing ``where``: bases whose boxes
    are farther apart are not (never nearer than their boxes), so they are not measured."""
    if leader.attached_to == member.id:
        return True
    there = Footprint.of(member)
    return not boxes_apart(where, there, reach + EPSILON) and within(
        edge_distance(where, there), reach
    )


def _line_of(state: BattleState, unit: Unit) -> list[Unit]:
    """The contingent and every friend joined to it by contingents touching side by side."""
    line, todo, joined = [unit], [unit], {unit.id}
    friends = [f for f in state.units_of(unit.side, on_table=True) if f.id != unit.id]
    while todo:
        here = Footprint.of(todo.pop())
        for friend in friends:
            if friend.id in joined:
                continue
            there = Footprint.of(friend)
            # Boxes farther apart than the touch are bases farther apart: no need to measure.
            if not boxes_apart(here, there, TOUCHING) and edge_distance(here, there) <= TOUCHING:
                line.append(friend)
                todo.append(friend)
                joined.add(friend.id)
    return line


def must_test_out_of_command(state: BattleState, unit: Unit) -> bool:
    """The first case: beyond command range (baggage and broken contingents never test)."""
    return unit.type != "baggage" and not BROKEN.of(unit) and not in_command(state, unit)


def may_restrain(state: BattleState, unit: Unit) -> bool:
    """Pursuing or looting, or chivalrous within 6 SF of enemy: it may ask to test."""
    if PURSUING.of(unit) or LOOTING.of(unit):
        return True
    chivalrous = u.chivalrous(unit) and not IN_COMBAT.of(unit) and not BROKEN.of(unit)
    return chivalrous and measure.enemy_within(state, unit, tables.CHIVALROUS_RANGE)


def value(key: str) -> int:
    """A control-test modifier from its table; a "+/-1" cell gives its size (the sign is chosen)."""
    cell = tables.CONTROL_MODIFIERS.lookup(key, "value")
    if isinstance(cell, str):
        return int(cell.removeprefix("+/-"))
    assert isinstance(cell, int)
    return cell


def modifiers(state: BattleState, unit: Unit, shooting: bool) -> list[Modifier]:
    """The modifiers the state decides: chivalrous, D grade or mercenary, friends to the rear."""
    found: list[Modifier] = []
    if u.chivalrous(unit):
        found.append(Modifier(value("chivalrous"), "chivalrous"))
    if unit.quality == "D":
        found.append(Modifier(value("d_grade"), "D grade"))
    elif profile.flag(unit, "mercenary"):
        found.append(Modifier(value("mercenary"), "mercenary"))
    if shooting:
        behind = zone(Footprint.of(unit), "rear", REAR_SUPPORT)
        backed = any(
            behind.intersects(Footprint.of(f).polygon)
            for f in state.units_of(unit.side, on_table=True)
            if f.id != unit.id
        )
        size = value("rear_support")
        found.append(
            Modifier(
                size if backed else -size,
                "friendly troops to the rear" if backed else "no friendly troops to the rear",
            )
        )
    return found


def _default_adjust(score: int) -> str:
    """Steer towards the "act as player wishes" band (3-4 on the sheet)."""
    free = next(band for band in tables.CONTROL_TEST.bands if band.result == "free")
    if free.low is not None and score < free.low:
        return "plus"
    return "minus" if free.high is not None and score > free.high else "none"


def _adjust(ctx: Context, unit: Unit, score: int, key: str, who: str, why: str) -> int:
    """Ask whether a "+/-" modifier (the table's row ``key``) raises or lowers the score."""
    size = value(key)
    options = (Option("plus", f"+{size}"), Option("minus", f"-{size}"), Option("none", "no change"))
    question = f"Control test for {unit.name} scored {score}: {why}?"
    choice = ctx.ask(
        Decision(
            f"control:{unit.id}:{key}",
            question,
            options,
            _default_adjust(score),
            who,
            topic=CONTROL_ADJUST,
            unit=unit.id,
        )
    )
    return ADJUST_SIGN[choice] * size


def control_roll(state: BattleState, unit: Unit, cause: str) -> RollSpec:
    """The control test's D6 with the modifiers the state decides (the "+/-" ones are asked)."""
    label = f"Control test: {unit.name} ({cause.replace('_', ' ')})"
    mods = tuple(modifiers(state, unit, cause == "shooting"))
    return RollSpec(label, 1, modifiers=mods, purpose=Purpose(unit.id, "control test", row=cause))


def adjustments(state: BattleState, unit: Unit) -> tuple[str, ...]:
    """The table rows of the "+/-" adjustments a control test will ask about, in order."""
    found = ["a_grade"] if unit.quality == "A" and not u.chivalrous(unit) else []
    leader_id = CONTROLLED_BY.of(unit)
    if leader_id and any(ld.id == leader_id for ld in state.leaders):
        found.append("leader")
    return tuple(found)


def default_adjusted(score: int, rows: Sequence[str]) -> int:
    """The score after each asked adjustment takes its default answer (steering to 3-4)."""
    for key in rows:
        score += ADJUST_SIGN[_default_adjust(score)] * value(key)
    return score


def control_test(ctx: Context, unit: Unit, cause: str) -> str:
    """Take a control test; returns the outcome now in the contingent's ``control`` status."""
    shooting = cause == "shooting"
    why = tables.CONTROL_TRIGGERS.lookup(cause, "sheet")
    score = control_roll(ctx.state, unit, cause).roll(ctx.dice).total
    for key in adjustments(ctx.state, unit):
        if key == "a_grade":
            why = "+/-1 as a non-chivalrous A grade"
            score += _adjust(ctx, unit, score, key, unit.side, why)
        else:
            leader = ctx.state.leader(str(CONTROLLED_BY.of(unit)))
            why = f"+/-1 for {leader.name} exerting control"
            score += _adjust(ctx, unit, score, key, leader.side, why)
    band = tables.CONTROL_TEST.lookup(score)
    ctx.emit(TestResolved(unit.id, f"Control test ({why})", score, band.result == "free", band.row))
    if cause == "stop_pursuit":
        return _stop_pursuit(ctx, unit, band.result)
    outcome = outcome_of(unit, band.result, shooting)
    u.set_flags(ctx, unit.id, f"control test {band.scores}", control=outcome)
    _carry_out(ctx, unit, outcome, band.result)
    return outcome


def outcome_of(unit: Unit, result: str, shooting: bool) -> str:
    """What a result makes this contingent do, clause by clause of the sheet."""
    if result == "halt":
        return "retire" if shooting else "halt"
    if result == "halt_2":
        by_guns = SHOT_BY_ARTILLERY.of(unit)
        return "retire" if unit.quality == "D" and by_guns else "halt"
    if result == "free":
        return "free"
    if u.chivalrous(unit):
        return "charge_a" if result == "advance" else "charge_a_max"
    if unit.quality == "D" or (result == "advance_max" and shooting):
        return "advance"
    return "repeat"


def _stop_pursuit(ctx: Context, unit: Unit, result: str) -> str:
    """In pursuit or looting: continue on all results except 3-4."""
    if result != "free":
        u.set_flags(ctx, unit.id, tables.CONTROL_PURSUIT, control="continue")
        return "continue"
    u.set_flags(
        ctx, unit.id, "control test 3-4: stops", pursuing=False, looting=False, control="free"
    )
    return "free"


def _carry_out(ctx: Context, unit: Unit, outcome: str, result: str) -> None:
    """Retire at once; a failed test (1-) in a civil war asks the GM about treachery."""
    if outcome == "retire":
        retreats.retire(ctx, unit, retreats.threat_of(ctx, unit), "control test")
    civil_war = ctx.params.get("civil_war") is True
    if (
        result == "halt"
        and civil_war
        and not profile.flag(unit, "mercenary")
        and u.alive(ctx.state, unit.id)
    ):
        treachery(ctx, ctx.state.unit(unit.id))


def treachery(ctx: Context, unit: Unit) -> None:
    """The treachery test: the sheet names it but not its procedure, so the GM rules."""
    options = tuple(Option(key, label) for key, label in TREACHERY_WORDS.items())
    question = f"{unit.name} failed a control test in a civil war: rule on its treachery test"
    asked = Decision(
        f"treachery:{unit.id}", question, options, "loyal", GM, topic=TREACHERY, unit=unit.id
    )
    choice = ctx.ask(asked)
    if choice == "leaves":
        losses.destroy(ctx, unit, "leaves the field (treachery)")
    elif choice == "defects":
        other = next(s.id for s in ctx.state.sides if s.id != unit.side)
        ctx.state = ctx.state.with_unit(replace(unit, side=other))
        ctx.emit(StatusChanged(unit.id, "side", unit.side, other, "treachery"))
