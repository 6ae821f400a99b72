"""Tree of Battles: every roll names its purpose; shots and combats log typed results (#39)."""

from __future__ import annotations

import pytest

from rules_core.events import MeleeResolved, ShotResolved
from rules_core.rulesets.tree_of_battles import tables
from tests.rules_core.scripted import Played
from tests.rules_core.structured import check_results, scripted, seen


@pytest.fixture(scope="module")
def played() -> Played:
    return scripted("tree_of_battles")


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
