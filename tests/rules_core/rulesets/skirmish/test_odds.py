"""Skirmish odds against every face the resolvers can roll: melee, shooting and rally."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from rules_core import registry
from rules_core.context import Context
from rules_core.dice import Dice, faces_of
from rules_core.odds import OddsQuery, band_label
from rules_core.rulesets.skirmish import rules as skirmish
from rules_core.rulesets.skirmish import tables
from rules_core.rulesets.skirmish.rolls import rally_roll
from rules_core.rulesets.skirmish.rules import SkirmishRules
from rules_core.rulesets.skirmish.status import CHARGED, STATUSES
from rules_core.state import BattleState
from rules_core.status import Scope
from tests.rules_core.dealing import Dealt, table, tally

RULES = registry.get("skirmish").rules
assert isinstance(RULES, SkirmishRules)


def sample() -> BattleState:
    state = RULES.sample_battle()
    assert state is not None
    return state


def fates(hits: int, stamina: int) -> str:
    return "unhurt" if not hits else "destroyed" if hits >= stamina else "wounded and disordered"


def test_charge_odds_match_every_face_of_both_pools() -> None:
    state = sample()
    odds = RULES.odds(state, OddsQuery("charge", "r2", "b1"))
    charged = STATUSES.apply(state, Scope.UNIT, "r2", {CHARGED.key: True})
    a, b = charged.unit("r2"), charged.unit("b1")

    def melee(rng: Dealt) -> tuple[int, int]:
        ctx = Context(RULES, charged, (), (), rng)
        return skirmish._fight(ctx, a, b), skirmish._fight(ctx, b, a)

    found = tally([faces_of("D6")] * (1 + 3), melee)
    result: dict[str, Fraction] = {}
    mine: dict[str, Fraction] = {}
    theirs: dict[str, Fraction] = {}
    for (dealt, taken), chance in found.items():  # type: ignore[misc]
        key = "wins" if dealt > taken else "loses" if taken > dealt else "draws"
        result[key] = result.get(key, Fraction(0)) + chance
        fate_b, fate_a = fates(dealt, 3), fates(taken, 2)
        theirs[fate_b] = theirs.get(fate_b, Fraction(0)) + chance
        mine[fate_a] = mine.get(fate_a, Fraction(0)) + chance
    assert table(odds, "Result for Red Archers") == result
    assert table(odds, "Blue Warriors (0 of 3 wounds)") == theirs
    assert table(odds, "Red Archers (0 of 2 wounds)") == mine


def test_shooting_odds_match_every_face_of_the_pool() -> None:
    state = sample()
    archers = state.unit("r2")
    moved = replace(state.unit("b2"), x=archers.x, y=archers.y + 8.0)
    state = replace(state, units=tuple(moved if u.id == "b2" else u for u in state.units))
    odds = RULES.odds(state, OddsQuery("shoot", "r2", "b2"))
    _, spec = RULES.shot_roll(state, archers, state.unit("b2"))

    def shoot(rng: Dealt) -> str:
        hits = spec.roll(Dice(rng)).total
        return f"{hits} hit" if hits == 1 else f"{hits} hits"

    assert table(odds, "Hits") == tally([faces_of("D6")] * 3, shoot)


def test_rally_odds_match_every_face() -> None:
    state = sample()
    odds = RULES.odds(state, OddsQuery("test", "r1"))

    def rally(rng: Dealt) -> str:
        roll = rally_roll(state.unit("r1")).roll(Dice(rng))
        return band_label(tables.RALLY.lookup(roll.total))

    assert table(odds, "Result") == tally([faces_of("D6")], rally)


def test_a_shot_beyond_range_is_refused() -> None:
    found = RULES.odds(sample(), OddsQuery("shoot", "r2", "b2"))
    assert "beyond" in getattr(found, "reason", "")
