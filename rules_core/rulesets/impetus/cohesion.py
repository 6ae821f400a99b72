"""Cohesion tests, VBU losses, routs and the risk to generals.

The cohesion test (published procedure, ``README_combat.md``): the critical number is the
unit's current VBU less the hits it took, plus the sheet's modifiers (``tables.COHESION_
SHOOTING`` after shooting, ``tables.COHESION_MELEE`` in melee), at least ``ct_min_critical``.
1D6 at or under it passes (a 1 always does) and disorders the unit, or costs 1 VBU if it was
already disordered; above it fails (a 6 always does): the unit loses the difference (at least
``ct_min_loss``) and is disordered. A unit with no VBU left routs.

Risk for general: "if 6 on cohesion, roll again. Shooting kills with 6, melee with 5 or 6 if in
melee (with a 6 his command tests)": a general attached to the unit rolls on
``tables.RISK_SHOOTING`` or ``tables.RISK_MELEE``; a Brave general re-rolls a risk roll that
kills him ("Reroll Risk if success"); killed with a 6, every unit of his command takes a
discipline test (``general_lost``, the generic modifiers only), failing it is disordered.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from rules_core.codec import Json
from rules_core.context import Context
from rules_core.dice import Modifier, Purpose
from rules_core.odds import Dist
from rules_core.rulesets.impetus import discipline, generals, profiles, tables
from rules_core.rulesets.impetus.status import DISORDERED, KILLED, LOST_VBU, ROUTED
from rules_core.shared_status import LOSSES
from rules_core.state import BattleState, Leader, Unit
from rules_core.tables import Band, ScoreTable

Params = Mapping[str, Json]
SHOOTING = "shooting"
MELEE = "melee"


@dataclass(frozen=True)
class Cohesion:
    """A cohesion test's outcome: the die, the critical number, VBU lost, routed."""

    passed: bool
    die: int
    critical: int
    lost: int
    routed: bool


def critical(vbu_now: int, hits: int, mods: list[Modifier], params: Params) -> int:
    """VBU - hits + modifiers, at least ``ct_min_critical``."""
    low = discipline.param(params, "ct_min_critical")
    return max(low, vbu_now - hits + sum(m.value for m in mods))


def table_for(number: int, params: Params, why: str = "") -> ScoreTable:
    """The test as a table of the D6: at or under the critical number passes; a 1 always
    passes and a 6 always fails."""
    low = discipline.param(params, "ct_natural_pass")
    fail = discipline.param(params, "ct_natural_fail")
    top = 6 if fail <= 0 else fail - 1
    passing = max(low, min(number, top))
    made = f" (critical number {number}: {why})" if why else ""
    bands = [
        Band(1, passing, "pass", f"passed: disordered, or 1 VBU lost if already disordered{made}")
    ]
    if passing < 6:
        text = f"failed: lose the difference (at least 1) and disordered{made}"
        bands.append(Band(passing + 1, 6, "fail", text))
    return ScoreTable("Cohesion test", tuple(bands))


def loss_for(die: int, number: int, params: Params) -> int:
    """VBU lost by a failed test: the difference, at least ``ct_min_loss``."""
    return max(discipline.param(params, "ct_min_loss"), die - number)


def outcome_dist(number: int, disordered: bool, params: Params) -> Dist:
    """The VBU the test costs (the odds): 0 or 1 on a pass (1 if already disordered), the
    difference on a failure."""
    table = table_for(number, params)

    def lost(face: int) -> int:
        if table.lookup(face).result == "pass":
            return 1 if disordered else 0
        return loss_for(face, number, params)

    return Dist.die("D6").map(lost)


def describe(vbu_now: int, hits: int, mods: list[Modifier]) -> str:
    """The critical number's make-up: "VBU 5 - 2 hits +1 General attached"."""
    parts = [f"VBU {vbu_now} - {hits} hit{'s' if hits != 1 else ''}"]
    parts += [m.describe() for m in mods]
    return " ".join(parts)


def test(
    ctx: Context, unit: Unit, hits: int, mods: list[Modifier], situation: str, source: str
) -> Cohesion:
    """Take a cohesion test for ``hits`` from ``source`` and apply it; the risk to an
    attached general on a 6."""
    vbu_now = profiles.current_vbu(unit)
    number = critical(vbu_now, hits, mods, ctx.params)
    why = describe(vbu_now, hits, mods)
    label = f"Cohesion test ({situation}): {unit.name}, critical number {number}"
    roll = ctx.dice.d6(label, purpose=Purpose(unit.id, "cohesion test", row=situation))
    table = table_for(number, ctx.params, why)
    band = ctx.test(unit.id, f"cohesion test ({situation})", roll, table, ("pass",))
    die = roll.total
    general = generals.attached_general(ctx.state, unit)
    if band.result == "pass":
        if DISORDERED.of(unit):
            lost = 1
            routed = lose(ctx, unit.id, 1, f"cohesion test passed while disordered ({source})")
        else:
            lost, routed = 0, False
            ctx.set_status(unit.id, f"cohesion test passed ({source})", disordered=True)
    else:
        lost = loss_for(die, number, ctx.params)
        routed = lose(ctx, unit.id, lost, f"cohesion test failed by {die - number} ({source})")
        if not routed:
            ctx.set_status(unit.id, f"cohesion test failed ({source})", disordered=True)
    if general is not None and die == tables.RISK_TRIGGER:
        risk(ctx, general, situation, unit.name)
    return Cohesion(band.result == "pass", die, number, lost, routed)


def lose(ctx: Context, unit_id: str, n: int, reason: str) -> bool:
    """The unit loses ``n`` VBU (its side's tally too); with none left it routs. True if it
    routed."""
    unit = ctx.state.unit(unit_id)
    n = min(n, profiles.current_vbu(unit))
    ctx.set_status(unit_id, reason, losses=LOSSES.of(unit) + n)
    _tally(ctx, unit.side, n, reason)
    if profiles.current_vbu(ctx.state.unit(unit_id)) <= 0:
        rout(ctx, unit_id, f"no VBU left ({reason})")
        return True
    return False


def _tally(ctx: Context, side: str, n: int, reason: str) -> None:
    if n:
        before = LOST_VBU.of(ctx.state.side(side))
        ctx.set_side_status(side, reason, lost_vbu=before + n)


def rout(ctx: Context, unit_id: str, reason: str) -> None:
    """The unit routs: its remaining VBU counts as lost, any general leaves it, it is gone."""
    unit = ctx.state.unit(unit_id)
    left = profiles.current_vbu(unit)
    if left:
        ctx.set_status(unit_id, reason, losses=LOSSES.of(unit) + left)
        _tally(ctx, unit.side, left, f"{unit.name} routed")
    ctx.set_status(unit_id, reason, routed=True)
    for leader in ctx.state.leaders:
        if leader.attached_to == unit_id:
            ctx.move_leader(leader.id, [(unit.x, unit.y)], [f"{unit.name} routed"])
    ctx.destroy(unit_id, f"{unit.name} routed: {reason}")


def risk(ctx: Context, general: Leader, situation: str, unit_name: str) -> str:
    """A 6 on the cohesion test of his unit: the risk roll; returns its result."""
    table = tables.RISK_SHOOTING if situation == SHOOTING else tables.RISK_MELEE
    label = f"Risk for general ({situation}): {general.name} with {unit_name}"
    roll = ctx.dice.d6(label, purpose=Purpose(general.id, "risk for general", row=situation))
    band = ctx.test(general.id, "risk for general", roll, table, ("safe",))
    if band.result != "safe" and "reroll_risk_if_success" in generals.special(general):
        again = Purpose(general.id, "risk for general (Brave re-roll)", row=situation)
        roll = ctx.dice.d6(f"{label}: Brave, re-rolled", purpose=again)
        band = ctx.test(general.id, "risk for general (Brave re-roll)", roll, table, ("safe",))
    if band.result == "safe":
        return band.result
    ctx.set_leader_status(general.id, f"killed: {band.row} ({tables.RISK_SHEET})", killed=True)
    leader = ctx.state.leader(general.id)
    if leader.attached_to is not None:
        ctx.move_leader(general.id, [(leader.x, leader.y)], ["killed"])
    if band.result == "killed_command_tests":
        for unit in list(ctx.state.units_of(general.side)):
            if unit.group == general.group and unit.on_table and not ROUTED.of(unit):
                result = discipline.test(ctx, unit, "general_lost")
                if not result.passed:
                    ctx.set_status(unit.id, f"{general.name} killed: test failed", disordered=True)
    return band.result


def alive(state: BattleState, unit_id: str) -> bool:
    """Whether the unit is still on the table and has not routed."""
    found = next((u for u in state.units if u.id == unit_id), None)
    return found is not None and found.on_table and not ROUTED.of(found)


def general_modifier(state: BattleState, unit: Unit, row: str, table_name: str) -> list[Modifier]:
    """The "+1 General attached" of a cohesion table: the general's CT column (traits too)."""
    general = generals.attached_general(state, unit)
    if general is None or KILLED.of(general):
        return []
    table = tables.COHESION_SHOOTING if table_name == SHOOTING else tables.COHESION_MELEE
    value = generals.ct_modifier(general)
    return [Modifier(value, f"{general.name}: {tables.reason(table, row)}")]
