"""Hail Caesar odds against every face the resolvers can roll: a round's casualties and
result (attack pools, then the saves against each number of hits), shots, break tests."""

from __future__ import annotations

import random
from dataclasses import replace
from fractions import Fraction

import pytest

from rules_core import registry
from rules_core.context import Context
from rules_core.dice import faces_of
from rules_core.events import TestResolved
from rules_core.odds import OddsQuery, band_label
from rules_core.rulesets.hail_caesar import combat, measure, morale, shooting
from rules_core.rulesets.hail_caesar.status import CHARGED, STATUSES
from rules_core.state import BattleState
from rules_core.status import Scope
from tests.rules_core.dealing import Dealt, explore, table, tally

RULES = registry.get("hail_caesar").rules
assert RULES is not None


def sample(**profiles: dict[str, object]) -> BattleState:
    """The sample battle, some units' profiles changed (small pools keep the tree small)."""
    state = RULES.sample_battle()
    assert state is not None
    units = tuple(
        replace(u, profile={**u.profile, **profiles[u.id]}) if u.id in profiles else u
        for u in state.units
    )
    return replace(state, units=units)


def counted(value: int, noun: str, plural: str) -> str:
    return f"{value} {noun if value == 1 else plural}"


@pytest.mark.parametrize(
    "profiles",
    [
        {"r5": {"clash": 1}, "g1": {"clash": 1, "size": "standard"}},
        {"r5": {"clash": 1, "morale": 0}, "g1": {"clash": 1, "morale": 6, "size": "standard"}},
    ],
    ids=["saves both ways", "no save against a 6+ save"],
)
def test_round_odds_match_every_attack_and_save(profiles: dict[str, dict[str, object]]) -> None:
    state = sample(**profiles, r6={"short": 0}, g2={"short": 0})  # no supports: a small tree
    odds = RULES.odds(state, OddsQuery("charge", "r5", "g1"))
    charged = STATUSES.apply(state, Scope.UNIT, "r5", {CHARGED.key: True})
    a, b = charged.unit("r5"), charged.unit("g1")
    reach = RULES.parameter_values(state.parameters)["support_distance"]
    assert isinstance(reach, int | float)
    helpers = {u.id: measure.supports(charged, u, reach) for u in (a, b)}

    def round_of(rng: random.Random) -> tuple[int, int]:
        ctx = Context(RULES, charged, (), (), rng)
        hits_a = combat.attacks(ctx, a, b, helpers[a.id])
        hits_b = combat.attacks(ctx, b, a, helpers[b.id])
        lost_b = morale.saves(ctx, b, hits_a, morale.save_modifiers(charged, b))
        lost_a = morale.saves(ctx, a, hits_b, morale.save_modifiers(charged, a))
        return lost_a, lost_b

    found = explore(round_of)
    on = {"a": dict[str, Fraction](), "b": dict[str, Fraction](), "result": {}}
    for (lost_a, lost_b), chance in found.items():  # type: ignore[misc]
        for key, lost in (("a", lost_a), ("b", lost_b)):
            label = counted(lost, "casualty", "casualties")
            on[key][label] = on[key].get(label, Fraction(0)) + chance
        result = "wins" if lost_b > lost_a else "loses" if lost_a > lost_b else "draws"
        on["result"][result] = on["result"].get(result, Fraction(0)) + chance
    assert table(odds, f"Casualties on {b.name}") == on["b"]
    assert table(odds, f"Casualties on {a.name}") == on["a"]
    assert table(odds, f"Result for {a.name}") == on["result"]


def test_shot_odds_match_every_hit_and_save() -> None:
    state = sample(r4={"short": 2, "long": 2})
    archers, target = state.unit("r4"), state.unit("g3")
    moved = replace(target, x=archers.x, y=archers.y + 6.0)  # 4" from front edge to front edge
    state = replace(state, units=tuple(moved if u.id == "g3" else u for u in state.units))
    state = replace(
        state,
        units=tuple(
            replace(u, profile={**u.profile, "morale": 5}) if u.id == "g3" else u
            for u in state.units
        ),
    )
    odds = RULES.odds(state, OddsQuery("shoot", "r4", "g3"))
    params = RULES.parameter_values(state.parameters)
    shooter, target = state.unit("r4"), state.unit("g3")
    partial = measure.sight(state, shooter, target).partial

    def volley(rng: random.Random) -> tuple[int, int]:
        ctx = Context(RULES, state, (), (), rng)
        _, spec = shooting.shot_roll(state, params, shooter, target, partial, ())
        assert spec is not None
        hits = spec.roll(ctx.dice).total
        mods = morale.save_modifiers(state, target, str(shooter.get("weapon")), True)
        return hits, morale.saves(ctx, target, hits, mods)

    found = explore(volley)
    hits: dict[str, Fraction] = {}
    lost: dict[str, Fraction] = {}
    for (h, c), chance in found.items():  # type: ignore[misc]
        hits[counted(h, "hit", "hits")] = hits.get(counted(h, "hit", "hits"), Fraction(0)) + chance
        key = counted(c, "casualty", "casualties")
        lost[key] = lost.get(key, Fraction(0)) + chance
    assert table(odds, "Hits") == hits
    assert table(odds, f"Casualties on {target.name}") == lost


@pytest.mark.parametrize("unit_id", ["r1", "r5", "g3"], ids=["infantry", "cavalry", "skirmishers"])
def test_break_test_odds_match_every_pair_of_dice(unit_id: str) -> None:
    state = sample()
    odds = RULES.odds(state, OddsQuery("test", unit_id))
    unit = state.unit(unit_id)
    chart = morale.break_table(RULES.parameter_values(state.parameters), unit, "hand_to_hand")

    def test(rng: Dealt) -> str:
        ctx = Context(RULES, state, (), (), rng)
        morale.break_test(ctx, unit, "hand_to_hand", (), "asked")
        score = next(e.score for e in ctx.events if isinstance(e, TestResolved))
        return band_label(chart.lookup(score))

    assert table(odds, "Result") == tally([faces_of("D6")] * 2, test)


def test_a_unit_without_ranged_dice_is_refused() -> None:
    found = RULES.odds(sample(), OddsQuery("shoot", "r1", "g1"))
    assert getattr(found, "reason", "")


def test_the_losers_break_test_matches_every_round_and_every_test_die() -> None:
    """Both rounds' pools and saves, then the break test the real rule gives (the loser tests
    at minus the difference): every die of all of them enumerated."""
    profiles = {
        "r5": {"clash": 1, "morale": 0},
        "g1": {"clash": 1, "morale": 6, "size": "standard"},
    }
    state = sample(**profiles, r6={"short": 0}, g2={"short": 0})
    odds = RULES.odds(state, OddsQuery("charge", "r5", "g1"))
    charged = STATUSES.apply(state, Scope.UNIT, "r5", {CHARGED.key: True})
    a, b = charged.unit("r5"), charged.unit("g1")
    params = RULES.parameter_values(state.parameters)
    chart = morale.break_table(params, b, "hand_to_hand")

    def round_then_test(rng: random.Random) -> str:
        ctx = Context(RULES, charged, (), (), rng)
        hits_a, hits_b = combat.attacks(ctx, a, b, []), combat.attacks(ctx, b, a, [])
        lost_b = morale.saves(ctx, b, hits_a, morale.save_modifiers(charged, b))
        lost_a = morale.saves(ctx, a, hits_b, morale.save_modifiers(charged, a))
        loser = a.id if lost_a > lost_b else b.id if lost_b > lost_a else None
        why, mods = combat.test_reason(b, loser, abs(lost_a - lost_b))
        if not why:
            return "no test"
        morale.break_test(ctx, b, "hand_to_hand", mods, why)
        score = next(e.score for e in ctx.events if isinstance(e, TestResolved))
        return band_label(chart.lookup(score))

    assert table(odds, f"{b.name}'s break test") == explore(round_then_test)
