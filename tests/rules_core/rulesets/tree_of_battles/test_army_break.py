"""Tree of Battles' army break (``army_break_share``): the sheet gives none, so RULESETS.md's
stated default holds, an army breaks when half the fighting contingents it began with (rounded
up) are broken or gone, with its threshold a parameter a campaign may change (1: every one, the
default before round 48, which battles begun under it keep)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules_core import registry
from rules_core.plugin import Rules
from rules_core.rulesets.tree_of_battles import general
from rules_core.rulesets.tree_of_battles.forces import prepare
from rules_core.rulesets.tree_of_battles.sample import sample_battle
from rules_core.state import BattleState


@pytest.fixture(scope="module")
def rules() -> Rules:
    found = registry.get("tree_of_battles").rules
    assert found is not None
    return found


def with_share(state: BattleState, share: float | None) -> BattleState:
    parameters = dict(state.parameters)
    if share is not None:
        parameters["army_break_share"] = share
    return replace(state, parameters=parameters)


def fighting(state: BattleState, side: str) -> list[str]:
    return [x.id for x in state.units_of(side) if x.type != "baggage"]


def broken(state: BattleState, ids: list[str]) -> BattleState:
    for unit_id in ids:
        state = state.with_unit(state.unit(unit_id).with_status(broken=True))
    return state


def gone(state: BattleState, ids: list[str]) -> BattleState:
    return replace(state, units=tuple(x for x in state.units if x.id not in ids))


def test_the_default_breaks_an_army_at_exactly_half_its_contingents(rules: Rules) -> None:
    state = prepare(sample_battle())
    french = fighting(state, "french")
    assert len(french) == 6
    assert rules.parameter_values(state.parameters)["army_break_share"] == 0.5
    # 2 of 6 broken is short of half; the third (3 of 6, exactly half) breaks the army.
    two = broken(state, french[:2])
    assert not rules.army_broken(two, "french")
    assert rules.outcome(two) is None
    three = broken(state, french[:3])
    assert rules.army_broken(three, "french")
    assert not rules.army_broken(three, "english")
    outcome = rules.outcome(three)
    assert outcome is not None and outcome.winner == "english"


def test_the_default_half_of_an_odd_army_is_rounded_up(rules: Rules) -> None:
    state = prepare(sample_battle())
    english = fighting(state, "english")
    assert len(english) == 5
    # 2 of 5 (0.4) is short of half; 3 of 5 (0.6) is the first count at or past it.
    assert not rules.army_broken(broken(state, english[:2]), "english")
    assert rules.army_broken(gone(broken(state, english[:2]), english[2:3]), "english")


def test_a_share_of_one_breaks_an_army_only_when_every_contingent_is_broken_or_gone(
    rules: Rules,
) -> None:
    state = with_share(prepare(sample_battle()), 1.0)
    french = fighting(state, "french")
    all_but_one = broken(state, french[:-1])
    assert not rules.army_broken(all_but_one, "french")
    assert rules.outcome(all_but_one) is None
    every_one = gone(broken(state, french[:-1]), french[-1:])  # the last destroyed
    assert rules.army_broken(every_one, "french")
    assert not rules.army_broken(every_one, "english")
    outcome = rules.outcome(every_one)
    assert outcome is not None and outcome.winner == "english"


@pytest.mark.parametrize("share", [0.5, 0.75, 1.0])
def test_a_campaign_share_breaks_the_army_at_that_share_of_those_it_began_with(
    rules: Rules, share: float
) -> None:
    state = with_share(prepare(sample_battle()), share)
    french = fighting(state, "french")
    needed = -int(-share * len(french) // 1)  # contingents lost at the break: share, rounded up
    short = gone(broken(state, french[: needed - 2]), french[needed - 2 : needed - 1])
    assert not rules.army_broken(short, "french")
    # Destroyed contingents leave the state and still count against those it began with.
    at_break = gone(broken(state, french[: needed - 1]), french[needed - 1 : needed])
    assert rules.army_broken(at_break, "french")
    assert general.breaking(at_break, "french", rules.parameter_values(at_break.parameters)) == 1.0


def test_baggage_never_counts_for_the_break(rules: Rules) -> None:
    state = with_share(prepare(sample_battle()), 0.5)
    baggage = [x.id for x in state.units_of("english") if x.type == "baggage"]
    english = fighting(state, "english")
    assert len(baggage) == 1 and len(english) == 5
    # 2 of 5 contingents broken is short of half; counted with the baggage, 3 of 6 would be half.
    assert not rules.army_broken(broken(state, baggage + english[:2]), "english")
    assert rules.army_broken(broken(state, english[:3]), "english")
