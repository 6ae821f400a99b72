"""Skirmish: every roll names its purpose and every shot and melee its typed result (#39)."""

from __future__ import annotations

import pytest

from rules_core.events import MeleeResolved, ShotResolved
from tests.rules_core.scripted import Played
from tests.rules_core.structured import check_results, scripted, seen


@pytest.fixture(scope="module")
def played() -> Played:
    return scripted("skirmish")


def test_every_shot_and_melee_has_its_typed_result(played: Played) -> None:
    counted = check_results(played.result.events)
    assert counted.shots and counted.melees
    events = seen(played.result.events)
    shots = [e for e in events if isinstance(e, ShotResolved)]
    assert all(e.row in ("short", "long") for e in shots)
    assert all((e.next == "wounds") == (e.hits > 0) for e in shots)
    melees = [e for e in events if isinstance(e, MeleeResolved)]
    decided = [e for e in melees if e.winner is not None]
    assert decided and all(e.next == "falls_back" for e in decided)
    for e in decided:
        hits = dict(e.hits)
        assert e.loser is not None and hits[e.winner] > hits[e.loser]
