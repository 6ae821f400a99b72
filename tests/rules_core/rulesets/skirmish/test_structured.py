"""Skirmish: every roll names its purpose and every shot and melee its typed result (#39)."""

from __future__ import annotations

import pytest

from rules_core import registry
from rules_core.events import MeleeResolved, ShotResolved
from tests.rules_core.rulesets.skirmish.script import play
from tests.rules_core.scripted import Played
from tests.rules_core.structured import check_results, seen, unexplained_rolls


@pytest.fixture(scope="module")
def played() -> Played:
    rules = registry.get("skirmish").rules
    assert rules is not None
    return play(rules)


def test_every_roll_says_who_rolls_and_for_what(played: Played) -> None:
    assert unexplained_rolls(played.result.events) == []


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
