"""Hail Caesar: every roll names its purpose and every shot and melee its typed result (#39)."""

from __future__ import annotations

import pytest

from rules_core.context import Suspended
from rules_core.events import MeleeResolved, ShotResolved
from rules_core.rulesets.hail_caesar import command
from tests.rules_core.rulesets.hail_caesar.test_mechanics import context
from tests.rules_core.scripted import Played
from tests.rules_core.structured import check_results, scripted, seen


@pytest.fixture(scope="module")
def played() -> Played:
    return scripted("hail_caesar")


def test_every_shot_and_melee_has_its_typed_result(played: Played) -> None:
    counted = check_results(played.result.events)
    assert counted.shots and counted.melees
    events = seen(played.result.events)
    shots = [e for e in events if isinstance(e, ShotResolved)]
    assert all(e.row in ("short", "long") and 0 <= e.score <= e.hits for e in shots)
    melees = [e for e in events if isinstance(e, MeleeResolved)]
    decided = [e for e in melees if e.winner is not None]
    assert decided and all(e.next == "break_test" for e in decided)
    for e in decided:
        caused = dict(e.hits)
        assert e.loser is not None and caused[e.winner] > caused[e.loser]
        assert e.row == f"lost by {caused[e.winner] - caused[e.loser]}"


def test_a_result_logged_as_data_only_leaves_the_re_roll_question_id_as_it_was() -> None:
    # answers in a record are keyed by question id (the re-roll's counts the events before it):
    # a closing shot's ShotResolved, logged as data only, must not change it
    def asked(after_silent: bool) -> str:
        ctx = context([5, 5])
        if after_silent:
            ctx.emit(ShotResolved("g1", "", 1, True, "short", False, "r4", "g1", 1, ""))
        with pytest.raises(Suspended) as stop:
            command.order_test(ctx, ctx.state.leader("rom_legate"), "r1", "order", [])
        return stop.value.decision.id

    assert asked(after_silent=True) == asked(after_silent=False)
