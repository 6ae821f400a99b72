"""#40 orders that cannot matter are not asked, through the services over a real SQLite file:
a step in which a side has nothing it could order does not wait for it, a deployment step with
every unit placed says why it is there, and a player's call to arms lists only their own
steps on a shared side."""

from __future__ import annotations

import random

import pytest

from bot.db.session import Database
from bot.demo import PLAYERS as DEMO_PLAYERS
from bot.presentation.announce import report_embed
from bot.services import Services
from bot.services.campaigns import Place
from bot.services.plans import CallToArms
from tests.bot.battle_setup import START, deployed_battle
from tests.bot.test_shared_side_rulesets import CAROL, shared, until_carol_is_called
from tests.conftest import ALICE, BOB, GM
from tests.e2e.fake_clock import FakeClock

DEMO_ALICE = DEMO_PLAYERS[0]  # the demo's side a, Caesar's Legions


@pytest.fixture
def services(db: Database) -> Services:
    """Services on the fake clock."""
    return Services.build(db, rng=random.Random(1), clock=FakeClock(START))


async def to_first_movement(services: Services, place: Place) -> int:
    """Start the Skirmish battle, confirm deployment and let the initiative's winner go first:
    the winner's Movement; the winner's player."""
    await deployed_battle(services, place)
    await services.play.start(place, GM)
    await services.play.confirm(place, ALICE)
    report = (await services.play.confirm(place, BOB)).report
    assert report is not None and report.decision is not None  # first or second?
    asked = report.decision
    (winner,) = asked.user_ids
    report = await services.play.answer(
        asked.battle_id, asked.stage, winner, asked.decision_id, "first"
    )
    assert report is not None and report.battle.waiting_step == "Movement"
    assert report.battle.waiting_for == (winner,)
    return winner


async def test_a_shooting_step_with_no_target_in_reach_does_not_wait(
    services: Services, place: Place
) -> None:
    first = await to_first_movement(services, place)
    second, side = (ALICE, "Blue") if first == BOB else (BOB, "Red")
    # The armies stand 20 inches and more apart: once the first side has held, none of its
    # units could shoot, so its Shooting step resolves at once and the other's Movement opens.
    moved = (await services.play.confirm(place, first)).report
    assert moved is not None
    assert moved.battle.waiting_step == "Movement" and moved.battle.waiting_for == (second,)
    assert f"— Turn 1: Shooting ({side}) —" in moved.lines
    assert moved.missing == ()  # nobody is said to have missed orders they could not give


async def test_a_deployment_step_with_every_unit_placed_says_why_it_is_there(
    services: Services, place: Place
) -> None:
    await deployed_battle(services, place)
    opened = await services.play.start(place, GM)
    assert opened.battle.waiting_step == "Deployment" and opened.battle.adjusting
    fields = {f.name: f.value for f in report_embed(opened).fields}
    assert "only for moving one of yours within your deployment zone" in fields["Why this step"]
    await services.play.confirm(place, ALICE)
    report = (await services.play.confirm(place, BOB)).report
    assert report is not None and not report.battle.adjusting  # a question now
    assert "Why this step" not in {f.name for f in report_embed(report).fields}


async def test_impetus_calls_a_player_to_arms_for_their_own_commands_only(
    services: Services,
) -> None:
    part = await shared(services, "impetus", "a_labienus")  # Carol: Labienus's command
    calls: list[CallToArms] = []
    await until_carol_is_called(services, calls)
    carols = calls[-1].steps
    assert calls[-1].user_id == CAROL
    assert carols and all(part in words for words in carols), carols
    alices = [call.steps for call in calls if call.user_id == DEMO_ALICE][-1]  # turn 1's
    assert any("Caesar's command" in words for words in alices), alices
    assert not [words for words in alices if part in words], alices
