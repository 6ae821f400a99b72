"""The odds of a charge, a melee, a shot or a rally test, from the pools the resolvers roll."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules_core.odds import (
    Dist,
    Odds,
    OddsQuery,
    OddsTable,
    Refused,
    bands,
    needs_target,
    rolls_of,
    units_of,
)
from rules_core.orders import Illegal, Order
from rules_core.rulesets.skirmish import tables
from rules_core.rulesets.skirmish.rolls import melee_roll, rally_roll
from rules_core.rulesets.skirmish.status import CHARGED, STATUSES, WOUNDS
from rules_core.state import BattleState, Unit
from rules_core.status import Scope
from rules_core.toolkit import enemies_in_contact

if TYPE_CHECKING:
    from rules_core.rulesets.skirmish.rules import SkirmishRules


def odds(rules: SkirmishRules, state: BattleState, query: OddsQuery) -> Odds | Refused | None:
    """The odds of what a player asks: a charge, a melee, a shot or a rally test."""
    found = units_of(state, query)
    if isinstance(found, Refused):
        return found
    unit, target = found
    if query.kind == "test":
        spec = rally_roll(unit)
        table = OddsTable.of("Result", bands(spec.distribution(), tables.RALLY))
        return Odds(f"Rally test: {unit.name}", (table,), rolls_of((spec,)))
    if query.kind not in ("charge", "shoot", "melee"):
        return None
    if target is None:
        return needs_target(query)
    if query.kind == "shoot":
        verdict = rules.preview(state, Order(unit.id, "shoot", {"target": target.id}))
        if isinstance(verdict, Illegal):
            return Refused(verdict.reason)
        _, shot = rules.shot_roll(state, unit, target)
        hits = shot.distribution()
        title = f"Shooting: {unit.name} at {target.name}"
        return Odds(title, (OddsTable.counts("Hits", hits, "hit"), _fate(target, hits)),
                    rolls_of((shot,)))  # fmt: skip
    note: tuple[str, ...] = ()
    if query.kind == "charge":
        state = STATUSES.apply(state, Scope.UNIT, unit.id, {CHARGED.key: True})
        unit, target = state.unit(unit.id), state.unit(target.id)
        note = (f"as if {unit.name} charged home and {target.name} stood (it may evade)",)
    elif target not in enemies_in_contact(state, unit):
        return Refused(f"{unit.name} is not in contact with {target.name}")
    mine, theirs = melee_roll(unit, target), melee_roll(target, unit)
    dealt, taken = mine.distribution(), theirs.distribution()
    margin = dealt - taken
    result = OddsTable.of(
        f"Result for {unit.name}",
        (
            ("wins", margin.where(lambda d: d > 0)),
            ("draws", margin.chance(0)),
            ("loses", margin.where(lambda d: d < 0)),
        ),
    )
    return Odds(
        f"Melee: {unit.name} against {target.name}",
        (result, _fate(target, dealt), _fate(unit, taken)),
        rolls_of((mine, theirs)),
        note,
    )


def _fate(unit: Unit, hits: Dist) -> OddsTable:
    """What the hits do to a unit: untouched, disordered with wounds, or destroyed."""
    stamina = unit.get("stamina", 1)
    assert isinstance(stamina, int)
    wounds = WOUNDS.of(unit)
    return OddsTable.of(
        f"{unit.name} ({wounds} of {stamina} wounds)",
        (
            ("unhurt", hits.chance(0)),
            ("wounded and disordered", hits.where(lambda h: 0 < h < stamina - wounds)),
            ("destroyed", hits.where(lambda h: h > 0 and h >= stamina - wounds)),
        ),
    )
