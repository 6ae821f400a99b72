"""The odds of a charge, a combat, a shot or a control test, from the rolls the resolvers make."""

from __future__ import annotations

from collections.abc import Mapping

from rules_core import odds as od
from rules_core.chances_kit import Answers, answer, banded_odds
from rules_core.codec import Json
from rules_core.rulesets.tree_of_battles import combat, control, shooting, tables
from rules_core.rulesets.tree_of_battles.status import CHARGED, STATUSES
from rules_core.state import BattleState, Unit
from rules_core.status import Scope


def odds(
    state: BattleState, query: od.OddsQuery, params: Mapping[str, Json]
) -> od.Odds | od.Refused | None:
    """The odds of what a player asks: a charge, a combat, a shot or a control test."""

    def shoot(unit: Unit, target: Unit) -> od.Odds | od.Refused:
        """The shot, if the contingent may shoot at the target."""
        shot = shooting.plan(state, unit, target, params)
        return od.Refused(shot) if isinstance(shot, str) else shot_odds(shot)

    def melee(unit: Unit, target: Unit) -> od.Odds:
        """The combat the two are in, as it stands."""
        return combat_odds(state, unit, target, combat.charge_combat(unit, target), ())

    return answer(
        state,
        query,
        Answers(
            lambda unit, target, option: control_odds(state, unit, option or "out_of_command"),
            shoot,
            melee,
            charge=lambda unit, target: charge_odds(state, unit, target),
        ),
    )


def charge_odds(state: BattleState, unit: Unit, target: Unit) -> od.Odds:
    """A charge combat as if the charge went home now, from where both stand."""
    charged = STATUSES.apply(state, Scope.UNIT, unit.id, {CHARGED.key: True})
    note = (
        f"as if {unit.name} charged home from where it stands; responses (counter-charge, "
        "evade), shooting at chargers and the ground where they meet may change it"
    )
    return combat_odds(charged, charged.unit(unit.id), charged.unit(target.id), True, (note,))


def combat_odds(
    state: BattleState, unit: Unit, enemy: Unit, charge: bool, notes: tuple[str, ...]
) -> od.Odds:
    """Both combat rolls, and each side's result band by the difference of the scores."""
    mine = combat.combat_roll(state, unit, enemy, charge)
    theirs = combat.combat_roll(state, enemy, unit, charge)
    difference = mine.distribution() - theirs.distribution()
    kind = "Charge combat" if charge else "Mêlée"
    return od.Odds(
        f"{kind}: {unit.name} against {enemy.name}",
        (
            od.OddsTable.of(f"{unit.name}'s result", od.bands(difference, tables.COMBAT_RESULTS)),
            od.OddsTable.of(
                f"{enemy.name}'s result",
                od.bands(difference.map(lambda v: -v), tables.COMBAT_RESULTS),
            ),
        ),
        od.rolls_of((mine, theirs)),
        notes,
    )


def shot_odds(shot: shooting.Shot) -> od.Odds:
    """The DPs a shot causes: a pool of missile dice, or each gun's result added up."""
    title = f"Shooting: {shot.shooter.name} at {shot.target.name} ({shot.band} range)"
    if shot.artillery:
        table = shooting.gun_table(shot)
        one = shooting.gun_roll(shot, 1)
        per_gun = one.distribution().map(lambda v: shooting.gun_dps(table.lookup(v).result))
        dps = per_gun.times(shot.dice)
        rolls = (*od.rolls_of((one,)), f"one such roll for each of {shot.dice} guns")
        return od.Odds(title, (od.OddsTable.counts("DPs caused", dps, "DP"),), rolls)
    spec = shooting.missile_roll(shot)
    if spec is None:
        return od.Odds(
            title,
            (od.OddsTable.counts("DPs caused", od.Dist.certain(0), "DP"),),
            (f"needs {shot.need()}+ on a D6: no hit possible",),
        )
    caused = od.OddsTable.counts("DPs caused", spec.distribution(), "DP")
    return od.Odds(title, (caused,), od.rolls_of((spec,)))


def control_odds(state: BattleState, unit: Unit, cause: str) -> od.Odds | od.Refused:
    """A control test's result bands, each asked "+/-" adjustment taking its default."""
    if cause not in tables.CONTROL_TRIGGERS.rows:
        return od.Refused(f"no control test for {cause!r}")
    spec = control.control_roll(state, unit, cause)
    rows = control.adjustments(state, unit)
    score = spec.distribution().map(lambda v: control.default_adjusted(v, rows))
    notes = tuple(
        f"the +/-{control.value(row)} adjustment ({row.replace('_', ' ')}) is taken as "
        "its default, steering towards 3-4"
        for row in rows
    )
    title = f"Control test: {unit.name} ({cause.replace('_', ' ')})"
    return banded_odds(title, spec, tables.CONTROL_TEST, notes, score)
