"""The Tree of Battles through the services: set up from the sample armies, one turn, the end.

The battle's dice seed is fixed (the one edge of the bot's randomness), so the turn's rolls and
questions are the same each run; the orders are given as a player types them.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from bot.db.session import Database
from bot.demo import run_demo
from bot.errors import InvalidInput
from bot.services import Services
from bot.services.campaigns import Place
from bot.services.endings import ArmyLosses
from bot.services.play import OrderInput
from bot.services.shapes import TypedTerrain
from bot.services.stages import StageReport
from rules_core import registry
from rules_core.verify import verify
from tests.bot.battle_setup import START
from tests.conftest import ALICE, BOB, GM
from tests.e2e.fake_clock import FakeClock

ENGLAND, FRANCE = "The English at Agincourt, 1415", "The French at Agincourt, 1415"
# x,y on a 24 by 16 SF table: the English along the south edge, the French along the north.
DEPLOYMENT = {
    "Right-wing Archers": "5.5,3",
    "York's Vaward": "8.5,3",
    "The King's Battle": "12,3",
    "Camoys' Rearward": "15.5,3",
    "Left-wing Archers": "18.5,3",
    "Baggage Train": "12,1",
    "Vendôme's Horse": "4,13.5",
    "The Constable's Vanguard": "9,13.5",
    "Genoese Crossbowmen": "12,13.5",
    "Alençon's Main Battle": "15,13.5",
    "Bombards": "20,15",
    "Brigands": "22,14",
}
# Turn 1, step by step: (player, order kind, contingent, options) as a player types them.
TURN_ONE: dict[str, list[tuple[int, str, str, OrderInput]]] = {
    "approach": [
        (BOB, "march", "Vendôme's Horse", OrderInput(x=4, y=10.5)),
        (BOB, "march", "The Constable's Vanguard", OrderInput(x=9, y=11)),
    ],
    "shooting": [(BOB, "shoot", "Bombards", OrderInput(target="Camoys' Rearward"))],
    "tactical": [
        (BOB, "move", "Vendôme's Horse", OrderInput(x=6, y=5.5, option="extra_d6")),
        (BOB, "manoeuvre", "Brigands", OrderInput(option="about_face")),
    ],
    "charges": [(BOB, "charge", "Vendôme's Horse", OrderInput(target="York's Vaward"))],
}


@pytest.fixture
def clock() -> FakeClock:
    """The services' clock."""
    return FakeClock(START)


@pytest.fixture
def services(db: Database, clock: FakeClock, monkeypatch: pytest.MonkeyPatch) -> Services:
    """Services on the fake clock; every battle gets the same dice seed."""
    import bot.services.battles

    monkeypatch.setattr(bot.services.battles, "new_seed", lambda: bytes(range(32)))
    return Services.build(db, rng=random.Random(1), clock=clock)


async def set_up(services: Services, place: Place) -> None:
    """Campaign, two players, the sample armies, a 24 by 16 SF battle with every unit deployed."""
    rules = registry.get("tree_of_battles").rules
    assert rules is not None
    await services.campaigns.create(place, GM, "Hundred Years", "tree_of_battles")
    await services.campaigns.join(place, ALICE, "England")
    await services.campaigns.join(place, BOB, "France")
    english, french = rules.sample_armies()
    await services.armies.import_roster(place, ALICE, json.dumps(english).encode(), "e.json")
    await services.armies.import_roster(place, BOB, json.dumps(french).encode(), "f.json")
    view = await services.battles.create(place, GM, "Agincourt", [ENGLAND, FRANCE], 24, 16)
    assert {ld.id for ld in view.state.leaders} >= {"a_henry", "b_albret"}
    await services.battles.add_terrain(
        place, GM, TypedTerrain("wood", "rectangle", "1,9", "2,5", "Azincourt")
    )
    for unit, at in DEPLOYMENT.items():
        owner = ALICE if unit in _names(english) else BOB
        await services.battles.deploy(place, owner, unit, at, None)


def _names(army: object) -> set[str]:
    assert isinstance(army, dict)
    return {str(entry["name"]) for entry in army["units"]}


async def next_stage(services: Services, place: Place, report: StageReport) -> StageReport:
    """Answer the waiting question, or give this step's orders and confirm for each side."""
    view = report.battle
    if report.decision is not None:
        decision = report.decision
        who = decision.user_ids[0]
        choice = decision.options[-1][0]  # not the default
        return await services.play.answer(view.id, view.stage, who, decision.decision_id, choice)
    step = view.state.cursor.step if view.state.cursor.turn == 1 else ""
    for user, kind, unit, given in TURN_ONE.get(step, []):
        summary = await services.play.submit(place, user, kind, unit, given)
        assert summary.unit_name == unit
    result = None
    for user in view.waiting_for:
        result = (await services.play.confirm(place, user)).report or result
    assert result is not None
    return result


async def test_a_turn_of_the_tree_of_battles_through_the_services(
    services: Services, place: Place
) -> None:
    await set_up(services, place)
    report = await services.play.start(place, GM)
    first = report.battle.state
    henry = next(ld for ld in first.leaders if ld.id == "a_henry")
    assert (henry.attached_to, henry.x, henry.y, henry.points) == ("a3", 12.0, 3.0, 4)
    assert first.unit("a2").group == "a_york_battle"
    assert first.group("b_main").leader == "b_albret"
    assert report.battle.waiting_step == "Command — action 1"
    with pytest.raises(InvalidInput, match="not given in the Command step"):
        await services.play.submit(
            place, ALICE, "shoot", "Right-wing Archers", OrderInput(target="Bombards")
        )
    asked: list[str] = []
    while report.battle.state.cursor.turn == 1:
        if report.decision is not None:
            asked.append(report.decision.decision_id)
        report = await next_stage(services, place, report)
    assert asked == ["response:a2", "after:a2"]  # York's Vaward counter-charged, then pursued
    assert report.battle.state.cursor.turn == 2
    horse = report.battle.state.unit("b1")
    # Set back, the Horse fell back; the Vaward pursued and stays in contact: the sheet breaks
    # only retiring troops caught by pursuers, so no break and no free hack.
    assert horse.get("broken") is False and horse.get("casualties") == 0
    assert horse.get("melee_with") == "a2" and report.battle.state.unit("a2").get("pursuing")
    ended = await services.gm.end(place, GM, None, "one turn is enough for a test")
    assert ended.result.startswith("A draw")
    assert ended.losses == (ArmyLosses(ENGLAND, ()), ArmyLosses(FRANCE, ()))
    french = await services.armies.show(place, BOB, FRANCE)
    assert french.units[0]["stands"] == 4  # no free hack: Vendôme's Horse keeps its stands
    check = verify(json.loads(ended.record))
    assert check.ok, check.problem


async def test_a_leader_takes_a_command_action(services: Services, place: Place) -> None:
    await set_up(services, place)
    await services.play.start(place, GM)
    given = OrderInput(option="hold the line behind the stakes")
    view = await services.play.submit(place, ALICE, "new_orders", "Edward, Duke of York", given)
    assert view.summary.startswith("Edward, Duke of York issues new orders (2 CPs)")


async def test_the_demo_plays_the_tree_of_battles(tmp_path: Path) -> None:
    transcript = await run_demo("tree_of_battles", 3, tmp_path)
    text = transcript.read_text(encoding="utf-8")
    assert text.startswith("# Demo: The Tree of Battles")
    assert "## Turn 3 · Shooting" in text
    record = json.loads((tmp_path / "record.json").read_text())
    assert verify(record).ok


async def test_order_command_names_the_action_in_its_option(
    services: Services, place: Place
) -> None:
    await set_up(services, place)
    await services.play.start(place, GM)
    actions = await services.lookups.order_options(place, "command")
    assert {"leader_move", "steady", "control", "new_orders"} <= set(actions)
    with pytest.raises(InvalidInput, match="Name the command action in `option`"):
        await services.play.submit(place, ALICE, "command", "Edward, Duke of York", OrderInput())
    given = OrderInput(option="new_orders")
    with pytest.raises(InvalidInput, match="needs"):
        await services.play.submit(place, ALICE, "command", "Edward, Duke of York", given)
