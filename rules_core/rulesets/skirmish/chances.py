"""The odds of a charge, a melee, a shot or a rally test, from the pools the resolvers roll."""

from __future__ import annotations

from typing import Protocol

from rules_core import odds as od
from rules_core.chances_kit import Answers, answer, banded_odds
from rules_core.orders import Illegal, Order, Verdict
from rules_core.rulesets.skirmish import tables
from rules_core.rulesets.skirmish.rolls import melee_roll, rally_roll
from rules_core.rulesets.skirmish.status import CHARGED, STATUSES, WOUNDS
from rules_core.state import BattleState, Unit
from rules_core.status import Scope


class SkirmishRules(Protocol):
    """What the odds read of the skirmish rules (a protocol, so the rules, which import this
    module, are not imported back)."""

    def preview(self, state: BattleState, order: Order) -> Verdict:
        """The verdict on an order."""
        ...

    def shot_roll(
        self, state: BattleState, shooter: Unit, target: Unit
    ) -> tuple[float, od.RollSpec]:
        """The range to a target and the shooter's pool at it."""
        ...


def odds(
    rules: SkirmishRules, state: BattleState, query: od.OddsQuery
) -> od.Odds | od.Refused | None:
    """The odds of what a player asks: a charge, a melee, a shot or a rally test."""

    def charge(unit: Unit, target: Unit) -> od.Odds:
        """The melee as if the charge went home and the target stood."""
        charged = STATUSES.apply(state, Scope.UNIT, unit.id, {CHARGED.key: True})
        unit, target = charged.unit(unit.id), charged.unit(target.id)
        note = f"as if {unit.name} charged home and {target.name} stood (it may evade)"
        return melee_odds(unit, target, (note,))

    return answer(
        state,
        query,
        Answers(
            lambda unit, target, option: rally_odds(unit),
            shoot=lambda unit, target: shot_odds(rules, state, unit, target),
            melee=lambda unit, target: melee_odds(unit, target, ()),
            charge=charge,
        ),
    )


def rally_odds(unit: Unit) -> od.Odds:
    """A rally test's results."""
    spec = rally_roll(unit)
    return banded_odds(f"Rally test: {unit.name}", spec, tables.RALLY)


def shot_odds(
    rules: SkirmishRules, state: BattleState, unit: Unit, target: Unit
) -> od.Odds | od.Refused:
    """A shot's hits and what they do to the target, if the unit may shoot at it."""
    verdict = rules.preview(state, Order(unit.id, "shoot", {"target": target.id}))
    if isinstance(verdict, Illegal):
        return od.Refused(verdict.reason)
    _, shot = rules.shot_roll(state, unit, target)
    hits = shot.distribution()
    title = f"Shooting: {unit.name} at {target.name}"
    tables_ = (od.OddsTable.counts("Hits", hits, "hit"), _fate(target, hits))
    return od.Odds(title, tables_, od.rolls_of((shot,)))


def melee_odds(unit: Unit, target: Unit, note: tuple[str, ...]) -> od.Odds:
    """A melee's result for the unit and what the hits do to each side."""
    mine, theirs = melee_roll(unit, target), melee_roll(target, unit)
    dealt, taken = mine.distribution(), theirs.distribution()
    margin = dealt - taken
    result = od.OddsTable.of(
        f"Result for {unit.name}",
        (
            ("wins", margin.where(lambda d: d > 0)),
            ("draws", margin.chance(0)),
            ("loses", margin.where(lambda d: d < 0)),
        ),
    )
    return od.Odds(
        f"Melee: {unit.name} against {target.name}",
        (result, _fate(target, dealt), _fate(unit, taken)),
        od.rolls_of((mine, theirs)),
        note,
    )


def _fate(unit: Unit, hits: od.Dist) -> od.OddsTable:
    """What the hits do to a unit: untouched, disordered with wounds, or destroyed."""
    stamina = unit.get("stamina", 1)
    assert isinstance(stamina, int)
    wounds = WOUNDS.of(unit)
    return od.OddsTable.of(
        f"{unit.name} ({wounds} of {stamina} wounds)",
        (
            ("unhurt", hits.chance(0)),
            ("wounded and disordered", hits.where(lambda h: 0 < h < stamina - wounds)),
            ("destroyed", hits.where(lambda h: h > 0 and h >= stamina - wounds)),
        ),
    )
