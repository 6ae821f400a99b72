"""The odds of a charge, a hand-to-hand round, a shot or a break test, from the rolls the
resolvers make: attack pools, the morale saves against each number of hits, and the 2D6 break
test a loser takes with the difference against it."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from rules_core import odds as od
from rules_core.chances_kit import Answers, answer, banded_odds
from rules_core.codec import Json
from rules_core.orders import Illegal, Order
from rules_core.rulesets.hail_caesar import combat, measure, morale, orders, shooting
from rules_core.rulesets.hail_caesar.status import CHARGED, STATUSES
from rules_core.state import BattleState, Unit
from rules_core.status import Scope
from rules_core.toolkit import param_number

Params = Mapping[str, Json]
TESTS = ("hand_to_hand", "ranged")  # /odds test option: the break test after which


def odds(state: BattleState, query: od.OddsQuery, params: Params) -> od.Odds | od.Refused | None:
    """The odds of what a player asks: a charge, a round of hand-to-hand, a shot, a break test."""

    def test(unit: Unit, target: Unit | None, option: str) -> od.Odds:
        """A break test: after shooting (option ``ranged``) or hand-to-hand."""
        return break_odds(params, unit, "ranged" if option == "ranged" else "hand_to_hand")

    def charge(unit: Unit, target: Unit) -> od.Odds:
        """The first round, as if the charge went home now."""
        charged = STATUSES.apply(state, Scope.UNIT, unit.id, {CHARGED.key: True})
        note = f"as if {unit.name} charged home from where it stands (before closing shots)"
        return round_odds(charged, params, charged.unit(unit.id), charged.unit(target.id), note)

    return answer(
        state,
        query,
        Answers(
            test,
            shoot=lambda unit, target: shot_odds(state, params, unit, target, query.option),
            melee=lambda unit, target: round_odds(state, params, unit, target, ""),
            charge=charge,
        ),
    )


def round_odds(state: BattleState, params: Params, a: Unit, b: Unit, note: str) -> od.Odds:
    """One round: each side's casualties, who wins, and the loser's break test."""
    reach = param_number(params, "support_distance")
    specs, lost = [], []
    for unit, enemy in ((a, b), (b, a)):
        spec = combat.attack_roll(state, params, unit, enemy, measure.supports(state, unit, reach))
        hits = od.Dist.certain(0) if spec is None else spec.distribution()
        specs += [] if spec is None else [spec]
        lost.append(morale.casualties(enemy, hits, morale.save_modifiers(state, enemy)))
    lost_b, lost_a = lost
    difference = lost_b - lost_a  # > 0: a inflicted more and wins
    result = od.OddsTable.of(
        f"Result for {a.name}",
        (
            ("wins", difference.where(lambda d: d > 0)),
            ("draws", difference.chance(0)),
            ("loses", difference.where(lambda d: d < 0)),
        ),
    )
    notes: tuple[str, ...] = (note,) if note else ()
    notes += ("shattering at double stamina and casualties passed to supports are not shown",)
    return od.Odds(
        f"Hand-to-hand: {a.name} against {b.name}",
        (
            result,
            od.OddsTable.counts(f"Casualties on {b.name}", lost_b, "casualty", "casualties"),
            od.OddsTable.counts(f"Casualties on {a.name}", lost_a, "casualty", "casualties"),
            _tested(params, a, difference),
            _tested(params, b, difference.map(lambda d: -d)),
        ),
        od.rolls_of(specs),
        notes,
    )


def _tested(params: Params, unit: Unit, difference: od.Dist) -> od.OddsTable:
    """A unit's break test after the round, by how much it won or lost (``difference`` is its
    margin): the chance of each result, and of taking no test."""
    table = morale.break_table(params, unit, "hand_to_hand")
    found: dict[str, Fraction] = {}
    for margin, chance in difference.items():
        loser = unit.id if margin < 0 else None if margin == 0 else "the enemy"
        why, mods = combat.test_reason(unit, loser, abs(margin))
        if not why:
            found["no test"] = found.get("no test", Fraction(0)) + chance
            continue
        for label, p in od.bands(morale.break_roll(unit, mods, why).distribution(), table):
            found[label] = found.get(label, Fraction(0)) + chance * p
    order = ["no test", *(od.band_label(b) for b in table.bands)]
    return od.OddsTable.of(
        f"{unit.name}'s break test", ((k, found[k]) for k in order if k in found)
    )


def shot_odds(
    state: BattleState, params: Params, shooter: Unit, target: Unit, option: str
) -> od.Odds | od.Refused:
    """The hits and casualties of a shot, if the order would be accepted now."""
    given: dict[str, Json] = {"option": option} if option else {}
    order = Order(shooter.id, "shoot", {"target": target.id, **given})
    verdict = orders.preview(state, order, params)
    if isinstance(verdict, Illegal):
        return od.Refused(verdict.reason)
    seen = measure.sight(state, shooter, target)
    extra = ("extreme range",) if option == "extreme_range" else ()
    _, spec = shooting.shot_roll(state, params, shooter, target, seen.partial, extra)
    if spec is None:
        return od.Refused(f"{shooter.name} has no ranged dice at that range")
    hits = spec.distribution()
    weapon = str(shooter.get("weapon", "none"))
    mods = morale.save_modifiers(state, target, weapon, True)
    lost = morale.casualties(target, hits, mods)
    return od.Odds(
        f"Shooting: {shooter.name} at {target.name}",
        (
            od.OddsTable.counts("Hits", hits, "hit"),
            od.OddsTable.counts(f"Casualties on {target.name}", lost, "casualty", "casualties"),
        ),
        od.rolls_of((spec,)),
        ("the break test a shot may trigger is not shown",),
    )


def break_odds(params: Params, unit: Unit, test: str) -> od.Odds:
    """A break test with no modifiers (a loser's test takes the difference off)."""
    spec = morale.break_roll(unit, (), "asked")
    table = morale.break_table(params, unit, test)
    lost_by = "a unit that lost a combat takes -1 for each casualty it lost by"
    return banded_odds(f"{table.name}: {unit.name}", spec, table, (lost_by,))
