"""Impetus: every roll names its purpose; every shot, melee and reaction its typed result (#39)."""

from __future__ import annotations

import pytest

from rules_core.events import (
    DecisionAnswered,
    DecisionRequested,
    MeleeResolved,
    ReactionResolved,
    ShotResolved,
)
from rules_core.rulesets.impetus import melee, reactions, shooting
from tests.rules_core.scripted import Played
from tests.rules_core.structured import check_results, scripted, seen


@pytest.fixture(scope="module")
def played() -> Played:
    return scripted("impetus")


def test_every_shot_and_melee_has_its_typed_result(played: Played) -> None:
    counted = check_results(played.result.events)
    assert counted.shots and counted.melees
    events = seen(played.result.events)
    shots = [e for e in events if isinstance(e, ShotResolved)]
    assert all(e.hits == e.score and e.next in ("", shooting.COHESION_TEST) for e in shots)
    assert all(e.hits > 0 for e in shots if e.next) and any(e.next for e in shots)
    melees = [e for e in events if isinstance(e, MeleeResolved)]
    assert any(e.winner is not None for e in melees)
    for e in melees:
        assert (e.winner is None) == e.row.endswith("a drawn melee")
        assert e.passed == (e.winner == e.subject)  # the attacker's result: won or not
        if e.winner is None:
            assert e.next == melee.FOUGHT_AGAIN
        else:
            assert e.next in (melee.RETREAT, melee.ROUTED_AWAY)


def test_every_reaction_chosen_has_its_typed_result(played: Played) -> None:
    events = seen(played.result.events)
    asked = {
        e.decision.id: e.decision.unit
        for e in events
        if isinstance(e, DecisionRequested)
        and e.decision.topic in (reactions.CHARGE_REACTION, reactions.OPPORTUNITY)
    }
    chosen = [
        (asked[e.decision], e.choice)
        for e in events
        if isinstance(e, DecisionAnswered) and e.decision in asked and e.choice != reactions.NONE
    ]
    results = [e for e in events if isinstance(e, ReactionResolved) and not e.test]
    assert chosen and [(e.reactor, e.reaction) for e in results] == chosen
    for e in results:
        assert e.outcome == ("passed" if e.passed else "failed")
        assert e.next == (e.reaction if e.passed else reactions.NONE)
    assert {"passed", "failed"} <= {e.outcome for e in results}
