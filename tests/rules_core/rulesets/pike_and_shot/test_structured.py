"""Pike and Shot: every roll names its purpose and every shot and melee its typed result (#39)."""

from __future__ import annotations

import pytest

from rules_core.events import MeleeResolved, ShotResolved
from rules_core.rulesets.pike_and_shot import tables
from tests.rules_core.scripted import Played
from tests.rules_core.structured import check_results, scripted, seen


@pytest.fixture(scope="module")
def played() -> Played:
    return scripted("pike_and_shot")


def test_every_shot_and_melee_has_its_typed_result(played: Played) -> None:
    counted = check_results(played.result.events)
    assert counted.shots and counted.melees
    events = seen(played.result.events)
    shots = [e for e in events if isinstance(e, ShotResolved)]
    assert all((e.next == "") == (e.hits == 0) or not e.test for e in shots)
    assert any(e.next for e in shots)
    melees = [e for e in events if isinstance(e, MeleeResolved)]
    for e in melees:
        scores = dict(e.hits)
        assert e.row == tables.MELEE_RESULTS.lookup(e.score).row
        assert e.next == tables.MELEE_RESULTS.lookup(e.score).result
        if e.winner is not None:
            assert e.loser is not None and scores[e.winner] > scores[e.loser]
    assert any(e.winner is not None for e in melees)
