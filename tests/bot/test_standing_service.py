"""Standing instructions through the services: who may set what, and a turn nobody is asked in.

The Tree of Battles at Agincourt, laid out and played as in test_tree_of_battles_battle.py
(same fixed seed and orders): there England is asked how York's Vaward responds to a charge,
then how it moves after combat. With standing instructions for both, nobody is asked.
"""

from __future__ import annotations

import json
import random

import pytest
from sqlalchemy import select

from bot.db.models import StandingInstruction
from bot.db.session import Database
from bot.errors import InvalidInput, NotFound, PermissionDenied
from bot.services import Services
from bot.services.campaigns import Place
from bot.services.stages import StageReport
from rules_core.verify import verify
from tests.bot.battle_setup import START
from tests.bot.test_tree_of_battles_battle import next_stage, set_up
from tests.conftest import ALICE, BOB, GM, OUTSIDER
from tests.e2e.fake_clock import FakeClock


@pytest.fixture
def fixed_services(db: Database, monkeypatch: pytest.MonkeyPatch) -> Services:
    """Services on a fake clock; every battle gets the same dice seed."""
    import bot.services.battles

    monkeypatch.setattr(bot.services.battles, "new_seed", lambda: bytes(range(32)))
    return Services.build(db, rng=random.Random(1), clock=FakeClock(START))


async def _rows(db: Database) -> list[tuple[str, str | None, str, str, str]]:
    async with db.read() as session:
        rows = await session.scalars(select(StandingInstruction).order_by(StandingInstruction.id))
        return [(r.side_id, r.unit_id, r.topic, r.condition, r.choice) for r in rows]


async def play_turn_one(
    services: Services, place: Place, report: StageReport
) -> tuple[list[str], list[str], StageReport]:
    """Turn 1 played on from ``report`` as test_tree_of_battles_battle.py plays it: the ids of
    the questions asked, the lines logged and the last report."""
    asked: list[str] = []
    lines: list[str] = []
    while report.battle.state.cursor.turn == 1:
        if report.decision is not None:
            asked.append(report.decision.decision_id)
        report = await next_stage(services, place, report)
        lines += report.lines
    return asked, lines, report


async def test_a_turn_in_which_standing_instructions_answer_every_question(
    fixed_services: Services, place: Place
) -> None:
    services = fixed_services
    await set_up(services, place)
    york = await services.standing.set(
        place, ALICE, "charge_response", "counter_charge", unit="York's Vaward"
    )
    assert (york.side, york.unit, york.topic, york.choice) == (
        "England", "York's Vaward", "response to a charge", "counter-charge",
    )  # fmt: skip
    await services.standing.set(place, ALICE, "after_combat", "pursue", condition="by_mounted")
    report = await services.play.start(place, GM)
    asked, lines, report = await play_turn_one(services, place, report)
    assert asked == []  # in the services test: ["response:a2", "after:a2"]
    assert (
        "England chose counter charge, answered by standing instruction: counter-charge "
        "(response to a charge)"
    ) in lines
    assert (
        "England chose pursue, answered by standing instruction: pursue if the enemy is mounted "
        "(move after combat (follow up, pursue, halt, fall back))"
    ) in lines
    horse = report.battle.state.unit("b1")  # the same outcome as when England answered
    assert horse.get("broken") is False and horse.get("casualties") == 0
    assert horse.get("melee_with") == "a2" and report.battle.state.unit("a2").get("pursuing")
    ended = await services.gm.end(place, GM, None, "one turn is enough for a test")
    check = verify(json.loads(ended.record))
    assert check.ok, check.problem


async def test_who_may_set_and_clear_what(
    fixed_services: Services, place: Place, db: Database
) -> None:
    services = fixed_services
    await set_up(services, place)
    standing = services.standing
    with pytest.raises(PermissionDenied, match="not one of your units"):
        await standing.set(place, BOB, "charge_response", "evade", unit="York's Vaward")
    with pytest.raises(PermissionDenied, match="only for your own side"):
        await standing.set(place, BOB, "charge_response", "evade", side="England")
    with pytest.raises(PermissionDenied, match="no side"):
        await standing.set(place, OUTSIDER, "charge_response", "evade")
    with pytest.raises(InvalidInput, match="Name the side"):
        await standing.set(place, GM, "charge_response", "evade")  # a GM has no side of his own
    with pytest.raises(InvalidInput, match="not a condition"):
        await standing.set(place, ALICE, "charge_response", "evade", condition="raining")
    with pytest.raises(InvalidInput, match="is not of"):
        await standing.set(place, ALICE, "charge_response", "evade", "", "York's Vaward", "France")
    with pytest.raises(NotFound):
        await standing.set(place, ALICE, "charge_response", "evade", unit="The Dauphin's Horse")
    assert await _rows(db) == []  # a refusal changes nothing

    await standing.set(place, ALICE, "charge_response", "stand")
    await standing.set(
        place, ALICE, "charge_response", "Evade", condition="if the enemy is mounted"
    )
    await standing.set(place, ALICE, "charge_response", "counter-charge")  # replaces "stand"
    ruled = await standing.set(
        place, GM, "after_combat", "halt", unit="Vendôme's Horse"
    )  # a GM sets anyone's
    assert (ruled.side_id, ruled.unit_id) == ("b", "b1")
    assert await _rows(db) == [
        ("a", None, "charge_response", "by_mounted", "evade"),
        ("a", None, "charge_response", "", "counter_charge"),
        ("b", "b1", "after_combat", "", "halt"),
    ]
    assert [v.choice_id for v in await standing.shown(place, ALICE)] == ["evade", "counter_charge"]
    assert [v.choice_id for v in await standing.shown(place, BOB)] == ["halt"]
    assert len(await standing.shown(place, GM)) == 3
    assert [u for u, _ in await standing.units(place, BOB)][:1] == ["b1"]
    assert all(u.startswith("b") for u, _ in await standing.units(place, BOB))
    assert len(await standing.units(place, GM)) == 12

    with pytest.raises(PermissionDenied, match="cannot clear"):
        await standing.clear(place, BOB, side="England")
    assert await standing.clear(place, BOB, topic="charge_response") == []  # not his to clear
    cleared = await standing.clear(place, ALICE, topic="charge_response")
    assert [v.condition_id for v in cleared] == ["by_mounted", ""]
    assert await _rows(db) == [("b", "b1", "after_combat", "", "halt")]
    assert len(await standing.clear(place, GM, unit="Vendôme's Horse")) == 1
    assert await _rows(db) == []


async def test_autocomplete_offers_the_rulesets_topics_choices_and_conditions(
    fixed_services: Services, place: Place
) -> None:
    services = fixed_services
    assert await services.standing.topics(place) == []  # no battle yet: nothing, no error
    await set_up(services, place)
    topics = dict(await services.standing.topics(place))
    assert set(topics) == {"charge_response", "after_combat", "control_adjust", "treachery"}
    choices = dict(await services.standing.choices(place, "charge_response"))
    assert choices["counter_charge"] == "counter-charge"
    conditions = dict(await services.standing.conditions(place, "charge_response"))
    assert conditions["by_mounted"] == "if the enemy is mounted"
    assert await services.standing.choices(place, "bribery") == []


async def test_an_instruction_set_while_its_question_waits_answers_it_at_once(
    fixed_services: Services, place: Place
) -> None:
    services = fixed_services
    await set_up(services, place)
    report = await services.play.start(place, GM)
    assert await services.standing.answer_open(place) is None  # no question waits
    while report.decision is None:
        report = await next_stage(services, place, report)
    assert report.decision.decision_id == "response:a2"
    await services.standing.set(place, BOB, "charge_response", "evade")  # France's: not asked
    assert await services.standing.answer_open(place) is None
    await services.standing.set(place, ALICE, "charge_response", "counter_charge")
    answered = await services.standing.answer_open(place)
    assert answered is not None and answered.trigger == "standing instruction"
    assert answered.decision is not None and answered.decision.decision_id == "after:a2"
    assert any("answered by standing instruction" in line for line in answered.lines)
    assert await services.standing.answer_open(place) is None


async def test_a_deadline_that_stops_on_a_covered_question_answers_it(
    db: Database, place: Place
) -> None:
    """Skirmish: the deployment step's deadline passes; whichever side wins the initiative
    has said it goes second, so nobody is asked."""
    from tests.bot.battle_setup import deployed_battle

    services = Services.build(db, rng=random.Random(1), clock=FakeClock(START))
    await deployed_battle(services, place)
    for user in (ALICE, BOB):
        await services.standing.set(place, user, "initiative", "second")
    started = await services.play.start(place, GM)
    view = started.battle
    report = await services.play.resolve_stage(view.id, view.stage, trigger="deadline")
    assert report is not None and report.decision is None
    chose = [line for line in report.lines if "answered by standing instruction" in line]
    assert (
        len(chose) == 1
        and " chose second, answered by standing instruction: go second (" in chose[0]
    )
    order = report.battle.state.cursor.side_order
    assert order is not None and len(order) == 2


async def test_a_player_of_a_shared_side_instructs_only_the_units_of_their_groups(
    services: Services, place: Place
) -> None:
    from tests.bot.test_shared_side import CAROL, shared

    await shared(services, place)  # Hail Caesar: Alice has the legion, Carol the horse
    with pytest.raises(PermissionDenied, match="not one of your units"):
        await services.standing.set(place, CAROL, "hold_or_retreat", "retreat", unit="First Cohort")
    view = await services.standing.set(
        place, CAROL, "hold_or_retreat", "retreat", "shaken", "Gallic Horse"
    )
    assert (view.side, view.unit, view.condition) == (
        "Rome",
        "Gallic Horse",
        "if the unit is shaken",
    )
    units = [name for _, name in await services.standing.units(place, CAROL)]
    assert "Gallic Horse" in units and "First Cohort" not in units
    assert "First Cohort" in [name for _, name in await services.standing.units(place, ALICE)]
