"""Hand-to-hand combat: who fights whom, every factor on the sheet, and the result by difference."""

from __future__ import annotations

from dataclasses import dataclass

from rules_core import profile
from rules_core.context import Context
from rules_core.dice import Modifier, Purpose
from rules_core.events import MeleeFought, MeleeResolved
from rules_core.odds import RollSpec
from rules_core.rulesets.tree_of_battles import losses, measure, tables
from rules_core.rulesets.tree_of_battles import units as u
from rules_core.rulesets.tree_of_battles.status import (
    CHARGED,
    FOUGHT_MELEE,
    MELEE_WITH,
    NOBLE,
    PURSUING,
)
from rules_core.state import BattleState, Unit
from rules_core.tables import Band
from rules_core.toolkit import contact_pairs, enemies_in_contact


@dataclass(frozen=True)
class Outcome:
    """One side's result of a combat."""

    unit: str
    enemy: str
    band: Band
    charge: bool


def _factor(key: str) -> int:
    value = tables.COMBAT_FACTORS.lookup(key, "value")
    assert isinstance(value, int)
    return value


def pairs(state: BattleState) -> list[tuple[str, str]]:
    """Each combat once: a contingent and the enemy it fights, in the state's order.

    A mêlée from a previous turn still in contact is fought first, whichever side is listed
    first: a contingent charging into it reinforces it ("+1 Mêlée reinforced this turn", and
    the enemy is "outnumbered") rather than fighting a charge combat of its own ("Troops in
    mêlée from a previous turn must also stand to receive"). Then each contingent fights its
    front contact first.
    """
    going = _ongoing(state)
    busy = {unit for pair in going for unit in pair}
    found = going + contact_pairs(
        state, prefer=lambda unit, e: measure.quarter_of(unit, e) == "front", busy=busy
    )
    order = {unit.id: n for n, unit in enumerate(state.units_on_table)}
    return sorted(found, key=lambda pair: order[pair[0]])


def _ongoing(state: BattleState) -> list[tuple[str, str]]:
    """The mêlées from a previous turn whose two sides are still in contact, each once."""
    found: list[tuple[str, str]] = []
    for unit in state.units_on_table:
        other = MELEE_WITH.of(unit)
        if not other or any(other in pair for pair in found):
            continue
        for enemy in enemies_in_contact(state, unit):
            if enemy.id == other and MELEE_WITH.of(enemy) == unit.id:
                found.append((unit.id, other))
    return found


def charge_combat(a: Unit, b: Unit) -> bool:
    """A charge combat: either side charged this turn and they have not fought before."""
    charged = CHARGED.of(a) or CHARGED.of(b)
    return charged and MELEE_WITH.of(a) != b.id and MELEE_WITH.of(b) != a.id


def _stands(units: list[Unit]) -> int:
    return sum(u.stands_left(x) for x in units)


def outnumbering(state: BattleState, unit: Unit, enemy: Unit) -> Modifier | None:
    """-1 if outnumbered, -2 at least 2:1, -3 at 3:1 or more (stands in contact)."""
    mine = _stands([f for f in enemies_in_contact(state, enemy) if f.side == unit.side] or [unit])
    theirs = _stands(enemies_in_contact(state, unit) or [enemy])
    if theirs >= 3 * mine:
        return Modifier(_factor("outnumbered_3"), "outnumbered 3:1+")
    if theirs >= 2 * mine:
        return Modifier(_factor("outnumbered_2"), "outnumbered at least 2:1")
    if theirs > mine:
        return Modifier(_factor("outnumbered"), "outnumbered")
    return None


def factors(state: BattleState, unit: Unit, enemy: Unit, charge: bool) -> list[Modifier]:
    """Every combat factor on the sheet that applies; starred ones only in charge combats."""
    found = [Modifier(profile.number(unit, "combat_factor"), "combat factor (profile)")]
    found += _grade(unit) + _ground(state, unit, enemy) + _formation(unit, enemy)
    found += _momentum(state, unit, enemy, charge) + _nobles(state, unit)
    crowd = outnumbering(state, unit, enemy)
    if crowd is not None:
        found.append(crowd)
    if u.array(unit) in ("column", "skirmish", "disarray"):
        found.append(Modifier(_factor("array"), f"in {u.array(unit)}"))
    if charge and u.dps(unit):
        found.append(
            Modifier(
                _factor("dp") * min(u.dps(unit), tables.MAX_DP_FACTOR),
                f"DPs (max {_factor('dp') * tables.MAX_DP_FACTOR})*",
            )
        )
    if u.casualties(unit):
        found.append(Modifier(_factor("casualty") * u.casualties(unit), "casualties"))
    return [m for m in found if m.value]


def _grade(unit: Unit) -> list[Modifier]:
    if unit.quality in ("A", "B"):
        return [Modifier(_factor("grade_ab"), f"{unit.quality} grade")]
    return [Modifier(_factor("grade_d"), "D grade")] if unit.quality == "D" else []


def _ground(state: BattleState, unit: Unit, enemy: Unit) -> list[Modifier]:
    found: list[Modifier] = []
    here, there = (
        measure.areas_at(state, (unit.x, unit.y)),
        measure.areas_at(state, (enemy.x, enemy.y)),
    )
    if "hill" in here and "hill" not in there:
        found.append(Modifier(_factor("ground"), "advantage of ground (uphill)"))
    if "fortification" in here and not CHARGED.of(unit):
        found.append(Modifier(_factor("fortification"), "defending fortification"))
    return found


def _formation(unit: Unit, enemy: Unit) -> list[Modifier]:
    found: list[Modifier] = []
    if u.ranks(unit) > u.ranks(enemy):
        found.append(Modifier(_factor("deeper"), "deeper formation"))
    return found


def _momentum(state: BattleState, unit: Unit, enemy: Unit, charge: bool) -> list[Modifier]:
    """Pursuing, reinforcement, armour, chivalrous charge and pikes."""
    found: list[Modifier] = []
    if PURSUING.of(unit):
        key = "pursuing_mounted" if u.mounted(unit) else "pursuing"
        found.append(Modifier(_factor(key), "mounted pursuing" if u.mounted(unit) else "pursuing"))
    helpers = [
        f for f in enemies_in_contact(state, enemy) if f.side == unit.side and f.id != unit.id
    ]
    if not charge and any(CHARGED.of(f) for f in helpers):
        found.append(Modifier(_factor("reinforced"), "mêlée reinforced this turn"))
    if not charge and u.armour(unit) > u.armour(enemy):
        found.append(Modifier(_factor("armour"), "heavier armour (mêlée)"))
    if u.mounted(unit) and u.chivalrous(unit) and CHARGED.of(unit):
        found.append(Modifier(_factor("chivalrous_charge"), "mounted chivalrous charge"))
    facing = measure.quarter_of(unit, enemy) == "front"
    if charge and unit.type == "pikemen" and u.array(unit) == "good" and facing:
        key = "pikes_mounted" if u.mounted(enemy) else "pikes"
        found.append(
            Modifier(
                _factor(key),
                "pikemen in good array facing mounted*"
                if u.mounted(enemy)
                else "pikemen in good array*",
            )
        )
    return found


def _nobles(state: BattleState, unit: Unit) -> list[Modifier]:
    nobles = [ld for ld in u.leaders_with(state, unit) if NOBLE.of(ld)]
    if not nobles:
        return []
    best = max(ld.points for ld in nobles)
    if best >= tables.NOBLE_MANY_CPS:
        return [Modifier(_factor("noble_4cp"), "noble fighting with 4 CPs or more")]
    return [Modifier(_factor("noble"), "noble fighting")]


WON = ("victory", "success")  # the results that win a combat


def combat_roll(state: BattleState, unit: Unit, enemy: Unit, charge: bool) -> RollSpec:
    """The combat roll: one AvD for non-chivalrous A grade, else one D6, with every factor."""
    kind = "charge" if charge else "mêlée"
    label = f"Combat ({kind}): {unit.name} against {enemy.name}"
    die = "AvD" if unit.quality == "A" and not u.chivalrous(unit) else "D6"
    mods = tuple(factors(state, unit, enemy, charge))
    return RollSpec(
        label, 1, die, modifiers=mods, purpose=Purpose(unit.id, "combat", enemy.id, kind)
    )


def score(ctx: Context, unit: Unit, enemy: Unit, charge: bool) -> int:
    """Make a contingent's combat roll; its total."""
    return combat_roll(ctx.state, unit, enemy, charge).roll(ctx.dice).total


def fight(ctx: Context, a: Unit, b: Unit) -> tuple[Outcome, Outcome]:
    """One combat: both roll, each reads its difference in the results table."""
    charge = charge_combat(a, b)
    ctx.emit(MeleeFought(a.id, b.id))
    first, second = score(ctx, a, b, charge), score(ctx, b, a, charge)
    results = []
    scores = ((a.id, first), (b.id, second))
    winner, loser = _decided(a.id, b.id, first - second)
    for unit, enemy, diff in ((a, b, first - second), (b, a, second - first)):
        band = tables.COMBAT_RESULTS.lookup(diff)
        won = band.result in WON
        test = f"Combat result against {enemy.name} (difference)"
        ctx.emit(
            MeleeResolved(
                unit.id, test, diff, won, band.row, False, winner, loser, scores, band.result
            )
        )
        results.append(Outcome(unit.id, enemy.id, band, charge))
    return results[0], results[1]


def _decided(a: str, b: str, diff: int) -> tuple[str | None, str | None]:
    """The winner and loser of a combat by the results table (an inconclusive one has none)."""
    if tables.COMBAT_RESULTS.lookup(diff).result in WON:
        return a, b
    if tables.COMBAT_RESULTS.lookup(-diff).result in WON:
        return b, a
    return None, None


def apply_losses(ctx: Context, outcome: Outcome, archers_charged: bool) -> None:
    """The DPs and casualties of a result, and the state the moves after combat read."""
    unit = ctx.state.unit(outcome.unit)
    result = outcome.band.result
    dps = tables.COMBAT_LOSSES.lookup(result, "dps")
    hurt = tables.COMBAT_LOSSES.lookup(result, "casualties")
    assert isinstance(dps, int) and isinstance(hurt, int)
    if result == "inconclusive" and archers_charged:
        dps = tables.INCONCLUSIVE_MOUNTED_ON_ARCHERS_DPS
    u.add_dps(ctx, unit.id, dps, f"combat: {result.replace('_', ' ')}")
    u.mark(
        ctx,
        unit.id,
        in_combat=True,
        combat_result=result,
        combat_enemy=outcome.enemy,
        melee_with=outcome.enemy,
        fought_melee=FOUGHT_MELEE.of(unit) or not outcome.charge,
    )
    if hurt:
        losses.casualties(ctx, unit, hurt, f"combat: {result}")


def mounted_charged_archers(unit: Unit, enemy: Unit) -> bool:
    """Mounted who charged archers (for the inconclusive 2 DPs)."""
    return u.mounted(unit) and CHARGED.of(unit) and u.missile(enemy) == "archers"
