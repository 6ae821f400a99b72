"""The odds of a shot, a melee and the tests, from the rolls the Combat step and the tests make:
the combat dice (``combat.attack_roll``), the saves (``combat.save_roll``), the Disorder Test
(``cohesion.disorder_roll``) and the Impetuous Pursuit test (``combat.pursuit_roll``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction

from rules_core import odds as od
from rules_core.chances_kit import banded_odds
from rules_core.codec import Json
from rules_core.rulesets.pike_and_shot import cohesion as co
from rules_core.rulesets.pike_and_shot import combat
from rules_core.rulesets.pike_and_shot import tables as t
from rules_core.rulesets.pike_and_shot.kept import enemies_in_contact
from rules_core.rulesets.pike_and_shot.status import cohesion
from rules_core.state import BattleState, Unit

Params = Mapping[str, Json]
TESTS = ("disorder", "pursuit", "fatigue", "general_will")  # /odds test option


def odds(state: BattleState, query: od.OddsQuery, params: Params) -> od.Odds | od.Refused | None:
    """The odds of what a player asks: a shot, the melee a unit is in, a Disorder Test or an
    Impetuous Pursuit test (option ``pursuit``, with the routers as target)."""
    found = od.units_of(state, query)
    if isinstance(found, od.Refused):
        return found
    unit, target = found
    if query.kind == "test":
        return test_odds(state, params, unit, target, query.option)
    if query.kind not in ("shoot", "melee"):
        return None
    if query.kind == "shoot":
        if target is None:
            return od.needs_target(query)
        why = combat.firing_problem(state, unit, target)
        return od.Refused(why) if why else shot_odds(state, params, unit, target)
    return melee_odds(state, params, unit)


def unsaved(
    state: BattleState, params: Params, unit: Unit, enemy: Unit, kind: str
) -> tuple[od.Dist, list[od.RollSpec]]:
    """The unsaved hits one unit inflicts on ``enemy``: its hits less the enemy's saves."""
    attack = combat.attack_roll(unit, enemy, kind)
    if attack is None:
        return od.Dist.certain(0), []
    save = combat.save_roll(state, enemy, unit, kind, params)
    hits = attack.distribution()
    if save is None:
        return hits, [attack]
    lost = (hits - save.distribution()).map(lambda v: max(0, v))
    return lost, [attack, save]


def shot_odds(state: BattleState, params: Params, shooter: Unit, target: Unit) -> od.Odds:
    """Unsaved hits, then the Shooting Results row against the target's state now."""
    lost, specs = unsaved(state, params, shooter, target, "shooting")
    column = cohesion(target)
    column = column if column in t.SHOOTING_RESULTS.columns else "routed"
    merged: dict[str, Fraction] = {}
    for hits, chance in lost.items():
        if hits == 0:
            label = "0 hits: no effect"
        else:
            band = t.SHOOTING_ROWS.lookup(hits)
            outcome = str(t.SHOOTING_RESULTS.lookup(band.result, column))
            label = f"{band.text}: {outcome.replace('_', ' ')}"
        merged[label] = merged.get(label, Fraction(0)) + chance
    return od.Odds(
        f"Shooting: {shooter.name} at {target.name}",
        (
            od.OddsTable.counts("Unsaved hits", lost, "hit"),
            od.OddsTable.of(f"Result against a {column} unit", merged.items()),
        ),
        od.rolls_of(specs),
        (
            "all firing is simultaneous: other shots at the same target land first or after",
            "a disrupted target hit once takes a Disorder Test: it routs on a fail, recoils "
            "on a pass",
        ),
    )


def side_dist(
    state: BattleState, params: Params, units: Sequence[Unit]
) -> tuple[od.Dist, list[od.RollSpec]]:
    """A side's score: the unsaved hits of each unit at the enemy it fights."""
    total = od.Dist.certain(0)
    specs: list[od.RollSpec] = []
    for unit in units:
        enemy = combat.opponent(state, unit)
        if enemy is None:
            continue
        lost, rolled = unsaved(state, params, unit, enemy, "melee")
        total = total + lost
        specs += rolled
    return total, specs


def melee_odds(state: BattleState, params: Params, unit: Unit) -> od.Odds | od.Refused:
    """The melee the unit is in: every unit joined in it, both sides."""
    if not enemies_in_contact(state, unit):
        return od.Refused(f"{unit.name} is not in contact with the enemy")
    melee = next(m for m in combat.melees(state) if unit.id in (*m.first, *m.second))
    mine_ids, theirs_ids = (
        (melee.first, melee.second) if unit.id in melee.first else (melee.second, melee.first)
    )
    mine = [state.unit(x) for x in mine_ids]
    theirs = [state.unit(x) for x in theirs_ids]
    a, a_specs = side_dist(state, params, mine)
    b, b_specs = side_dist(state, params, theirs)
    difference = a - b
    name = " and ".join(x.name for x in mine)
    labelled: dict[str, Fraction] = {}
    for value, chance in difference.items():
        band = t.MELEE_RESULTS.lookup(abs(value))
        who = "stand-off" if value == 0 else ("you win: " if value > 0 else "you lose: ")
        label = who if value == 0 else who + band.result.replace("_", " ")
        labelled[label] = labelled.get(label, Fraction(0)) + chance
    order = [
        "you win: destruction",
        "you win: rout",
        "you win: recoil",
        "stand-off",
        "you lose: recoil",
        "you lose: rout",
        "you lose: destruction",
    ]
    return od.Odds(
        f"Melee: {name} against {' and '.join(x.name for x in theirs)}",
        (
            od.OddsTable.counts(f"{name}: unsaved hits inflicted", a, "hit"),
            od.OddsTable.of("Result", ((k, labelled[k]) for k in order if k in labelled)),
        ),
        od.rolls_of([*a_specs, *b_specs]),
        ("shooting earlier in the step may change the units' state before the melee",),
    )


def test_odds(
    state: BattleState, params: Params, unit: Unit, target: Unit | None, option: str
) -> od.Odds | od.Refused:
    """A Disorder Test (option ``disorder``, the default) or an Impetuous Pursuit test after
    ``target`` (option ``pursuit``)."""
    choice = option or "disorder"
    if choice not in TESTS:
        return od.Refused(f"the test is one of: {', '.join(TESTS)}")
    if choice == "fatigue":
        wing = next((g for g in state.groups if g.id == unit.group), None)
        if wing is None:
            return od.Refused(f"{unit.name} is in no wing")
        spec = co.fatigue_roll(state, wing)
        stays = ("a wing once Fatigued stays so",)
        return banded_odds(f"Fatigue: {wing.name}", spec, t.FATIGUE_TEST, stays)
    if choice == "general_will":
        return will_odds(state, params, unit.side)
    if choice == "pursuit":
        if target is None:
            return od.Refused("name the routers the unit would pursue")
        spec = combat.pursuit_roll(state, unit, target, params)
        table = t.PURSUIT_TEST
        notes = (
            ()
            if combat.must_test(state, unit, target)
            else (
                f"{unit.name} would not test as things stand (disrupted, in melee, or the routers "
                f'beyond {t.PURSUIT_RANGE:g}" or out of sight): the odds are as if it did',
            )
        )
        title = f"Impetuous pursuit: {unit.name} after {target.name}"
    else:
        spec = co.disorder_roll(state, unit, params)
        table = t.DISORDER_TEST
        notes = ("under artillery fire (-1) is counted only in the Combat step",)
        title = f"Disorder test: {unit.name}"
    return banded_odds(title, spec, table, notes)


def will_odds(state: BattleState, params: Params, side: str) -> od.Odds:
    """The army's General Will test as things stand: its cell and the chance of a good
    resolve (a d6 equal to or less than the cell)."""
    routed = co.routed_brigades(state, side, params)
    size_now = co.army_brigades(state, side)
    cell, row, column = t.general_will_cell(routed, size_now, co.general_will_table(params))
    if cell in ("pass", "fail"):
        good = Fraction(1 if cell == "pass" else 0)
    else:
        target = int(cell) if isinstance(cell, int | float | str) else 0
        good = co.general_will_roll(state, side).distribution().where(lambda v: v <= target)
    words = f"{routed} routed brigades in an army of {size_now} (row {row}, column {column})"
    notes = (
        ()
        if co.must_test(state, side)
        else ("the army tests only at the end of a turn in which it has a Fatigued wing",)
    )
    return od.Odds(
        f"General Will: {state.side(side).name}",
        (
            od.OddsTable.of(
                f"Result: {words}, cell {cell}",
                (("resolve good", good), ("resolve fails", 1 - good)),
            ),
        ),
        (),
        notes,
    )
