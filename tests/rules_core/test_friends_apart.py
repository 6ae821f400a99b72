"""No two friendly units overlap at the end of any step of the rulesets' scripted battles
(issue 19: charges and rules-computed moves must not end on a friend)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from itertools import combinations

import pytest

from rules_core.geometry import Footprint, overlapping
from rules_core.plugin import Rules
from rules_core.record import BattleRecord
from rules_core.registry import get
from rules_core.state import BattleState
from rules_core.verify import replayed
from tests.rules_core.rulesets.hail_caesar import script as hail_caesar
from tests.rules_core.rulesets.heroic_age import script as heroic_age
from tests.rules_core.rulesets.impetus import helpers as impetus
from tests.rules_core.rulesets.pike_and_shot import script as pike_and_shot
from tests.rules_core.rulesets.skirmish import script as skirmish
from tests.rules_core.rulesets.tree_of_battles import script as tree_of_battles
from tests.rules_core.scripted import Played

SCRIPTS: dict[str, tuple[Callable[[Rules], Played], bytes]] = {
    "hail_caesar": (hail_caesar.play, hail_caesar.SEED),
    "tree_of_battles": (tree_of_battles.play, tree_of_battles.SEED),
    "heroic_age": (heroic_age.play, heroic_age.SEED),
    "skirmish": (skirmish.play, skirmish.SEED),
    "pike_and_shot": (pike_and_shot.play, pike_and_shot.SEED),
    "impetus": (lambda rules: impetus.play(), impetus.GOLDEN_SEED),
}


def friends_overlapping(state: BattleState) -> list[str]:
    """Pairs of units of one side standing on each other (deeper than a touch)."""
    return [
        f"{a.name} / {b.name}"
        for a, b in combinations(state.units_on_table, 2)
        if a.side == b.side and overlapping(Footprint.of(a), Footprint.of(b))
    ]


def overlaps_by_step(states: Iterable[BattleState]) -> list[str]:
    """Each step that ends with friends overlapping, and which."""
    found = []
    for state in states:
        pairs = friends_overlapping(state)
        if pairs:
            cursor = state.cursor
            found.append(f"turn {cursor.turn} {cursor.step}: {', '.join(pairs)}")
    return found


@pytest.mark.parametrize("ruleset", sorted(SCRIPTS))
def test_no_friends_overlap_after_any_step_of_the_scripted_battle(ruleset: str) -> None:
    play, seed = SCRIPTS[ruleset]
    rules = get(ruleset).rules
    assert rules is not None
    played = play(rules)
    record = BattleRecord.start(played.first, seed).extended(played.result.entries)
    states = list(replayed(json.loads(json.dumps(record.revealed(seed).to_dict()))))
    assert len(states) == len(played.result.entries) + 1
    assert overlaps_by_step(states) == []
