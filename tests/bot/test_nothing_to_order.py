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


async def test_a_side_with_nothing_it_could_order_is_not_waited_for(
    services: Services, place: Place
) -> None:
    await deployed_battle(services, place)
    opened = await services.play.start(place, GM)
    assert opened.battle.waiting_for == (ALICE, BOB)  # Deployment: both sides
    for unit in ("Blue Warriors", "Blue Slingers", "Blue Riders"):
        await services.gm.take_off(place, GM, unit, "gone scouting")
    # No unit of Blue's stands on the table to be placed again: only Red is waited for, and
    # Red's word alone resolves the step, with nobody said to have missed their orders.
    view = await services.battles.view(place)
    assert view.waiting_step == "Deployment" and view.waiting_for == (ALICE,)
    done = await services.play.confirm(place, ALICE)
    assert done.report is not None and done.report.title.startswith("Set-up · Deployment")
    assert done.report.missing == ()


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
    await until_carol_is_called(services, calls, turn=1)
    carols = [call for call in calls if call.user_id == CAROL]
    # Called in the set-up for her command's deployment later in it (no deadline yet: her
    # part comes after the others' steps open now), then in turn 1.
    assert carols[0].deadline_at is None
    for call in carols:
        assert call.steps and all(part in words for words in call.steps), call.steps
    alices = [call.steps for call in calls if call.user_id == DEMO_ALICE][-1]  # turn 1's
    assert any("Caesar's command" in words for words in alices), alices
    assert not [words for call in calls if call.user_id == DEMO_ALICE for words in call.steps
                if part in words]  # fmt: skip
