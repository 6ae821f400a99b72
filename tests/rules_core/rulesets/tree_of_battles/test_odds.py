"""Tree of Battles odds against every face the resolvers can roll: combat results, the DPs
of missile and artillery shots, and control tests."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules_core import registry
from rules_core.context import Context
from rules_core.dice import faces_of
from rules_core.events import TestResolved
from rules_core.odds import OddsQuery, band_label
from rules_core.rulesets.tree_of_battles import combat, shooting, tables
from rules_core.rulesets.tree_of_battles.status import CHARGED, STATUSES
from rules_core.state import BattleState, Unit
from rules_core.status import Scope
from tests.rules_core.dealing import Dealt, table, tally

RULES = registry.get("tree_of_battles").rules
assert RULES is not None


def sample() -> BattleState:
    state = RULES.sample_battle()
    assert state is not None
    return state


def changed(state: BattleState, unit_id: str, **fields: object) -> BattleState:
    """The state with one unit's fields replaced."""
    units = tuple(replace(u, **fields) if u.id == unit_id else u for u in state.units)  # type: ignore[arg-type]
    return replace(state, units=units)


def die_of(unit: Unit) -> tuple[int, ...]:
    """The faces of a contingent's combat die, as the sheet gives it."""
    chivalrous = unit.get("chivalrous", False)
    return faces_of("AvD" if unit.quality == "A" and not chivalrous else "D6")


@pytest.mark.parametrize(
    ("charger", "target", "quality"),
    [("f1", "e1", None), ("e1", "f1", "A"), ("f3", "e4", None)],
    ids=["horse charges archers", "A-grade archers (AvD) charge horse", "foot on foot"],
)
def test_charge_odds_match_every_pair_of_dice(
    charger: str, target: str, quality: str | None
) -> None:
    state = sample()
    if quality:
        state = changed(state, charger, quality=quality)
    odds = RULES.odds(state, OddsQuery("charge", charger, target))
    charged = STATUSES.apply(state, Scope.UNIT, charger, {CHARGED.key: True})
    a, b = charged.unit(charger), charged.unit(target)

    def fight(rng: Dealt) -> tuple[str, str]:
        first, second = combat.fight(Context(RULES, charged, (), (), rng), a, b)
        return band_label(first.band), band_label(second.band)

    found = tally([die_of(a), die_of(b)], fight)
    for index, name in enumerate((a.name, b.name)):
        mine: dict[str, object] = {}
        for outcome, chance in found.items():
            assert isinstance(outcome, tuple)
            mine[outcome[index]] = mine.get(outcome[index], 0) + chance  # type: ignore[operator]
        assert table(odds, f"{name}'s result") == mine


def placed_in_front(state: BattleState, shooter: str, target: str, gap: float) -> BattleState:
    """The target moved ``gap`` SF straight in front of the shooter, facing it."""
    s, t = state.unit(shooter), state.unit(target)
    ahead = 1 if s.facing == 0 else -1  # the sample's armies face straight up or down
    y = s.y + ahead * (s.depth / 2 + gap + t.depth / 2)
    return changed(state, target, x=s.x, y=y, facing=(s.facing + 180) % 360)


@pytest.mark.parametrize(
    ("shooter", "target", "gap"),
    [("e1", "f6", 1.0), ("e1", "f1", 3.0), ("f4", "e2", 2.0)],
    ids=["archers at skirmishers, close", "archers at horse", "crossbows at armour"],
)
def test_missile_odds_match_every_face_of_the_pool(shooter: str, target: str, gap: float) -> None:
    state = placed_in_front(sample(), shooter, target, gap)
    params = RULES.parameter_values(state.parameters)
    shot = shooting.plan(state, state.unit(shooter), state.unit(target), params)
    assert isinstance(shot, shooting.Shot), shot
    odds = RULES.odds(state, OddsQuery("shoot", shooter, target))

    def fire(rng: Dealt) -> str:
        dps = shooting.resolve(Context(RULES, state, (), (), rng), shot)
        return f"{dps} DP" if dps == 1 else f"{dps} DPs"

    dice = shot.dice if shot.need() <= 6 else 0
    assert table(odds, "DPs caused") == tally([faces_of("D6")] * dice, fire)


def test_artillery_odds_add_up_every_gun() -> None:
    state = placed_in_front(sample(), "f5", "e4", 3.0)
    state = changed(state, "f5", stands=2)
    params = RULES.parameter_values(state.parameters)
    shot = shooting.plan(state, state.unit("f5"), state.unit("e4"), params)
    assert isinstance(shot, shooting.Shot) and shot.artillery and shot.dice == 2, shot
    odds = RULES.odds(state, OddsQuery("shoot", "f5", "e4"))

    def fire(rng: Dealt) -> str:
        dps = shooting.resolve(Context(RULES, state, (), (), rng), shot)
        return f"{dps} DP" if dps == 1 else f"{dps} DPs"

    assert table(odds, "DPs caused") == tally([faces_of("D6")] * 2, fire)


@pytest.mark.parametrize("unit_id", ["e1", "f4", "e6"], ids=["B grade", "mercenary", "D grade"])
def test_control_test_odds_match_every_face(unit_id: str) -> None:
    from rules_core.rulesets.tree_of_battles import control

    state = sample()
    odds = RULES.odds(state, OddsQuery("test", unit_id))

    def test(rng: Dealt) -> str:
        ctx = Context(RULES, state, (), (), rng)
        control.control_test(ctx, state.unit(unit_id), "out_of_command")
        score = next(e.score for e in ctx.events if isinstance(e, TestResolved))
        return band_label(tables.CONTROL_TEST.lookup(score))

    assert table(odds, "Result") == tally([faces_of("D6")], test)


def test_a_shot_out_of_range_is_refused_with_the_reason() -> None:
    found = RULES.odds(sample(), OddsQuery("shoot", "e1", "f1"))
    assert "beyond" in getattr(found, "reason", "")
