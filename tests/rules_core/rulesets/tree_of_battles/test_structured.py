"""Tree of Battles: every roll names its purpose; shots and combats log typed results (#39)."""

from __future__ import annotations

import pytest

from rules_core import registry
from rules_core.events import MeleeResolved, ShotResolved
from rules_core.rulesets.tree_of_battles import tables
from tests.rules_core.rulesets.tree_of_battles.script import play
from tests.rules_core.scripted import Played
from tests.rules_core.structured import check_results, seen, unexplained_rolls


@pytest.fixture(scope="module")
def played() -> Played:
    rules = registry.get("tree_of_battles").rules
    assert rules is not None
    return play(rules)


def test_every_roll_says_who_rolls_and_for_what(played: Played) -> None:
    assert unexplained_rolls(played.result.events) == []


def test_every_shot_and_combat_has_its_typed_result(played: Played) -> None:
    counted = check_results(played.result.events)
    assert counted.shots and counted.melees
    events = seen(played.result.events)
    shots = [e for e in events if isinstance(e, ShotResolved)]
    assert shots and all((e.next == "dps") == (e.hits > 0) for e in shots)
    combats = [e for e in events if isinstance(e, MeleeResolved)]
    for e in combats:
        band = tables.COMBAT_RESULTS.lookup(e.score)
        assert (e.row, e.next) == (band.row, band.result)
        scores = dict(e.hits)
        if e.winner is not None:
            assert e.loser is not None and scores[e.winner] > scores[e.loser]
    assert any(e.winner is not None for e in combats)
