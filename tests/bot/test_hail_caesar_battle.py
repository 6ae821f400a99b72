"""A Hail Caesar battle through the services: armies with generals, deployment, a turn of orders.

The seed is new in every battle, so the orders are checked as they are given and the test
asserts what holds whatever the dice: order tests by the generals, the shot, a verified record.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.demo import order_input, run_demo
from bot.services import Services
from bot.services.battle_state import BattleView
from bot.services.campaigns import Place
from bot.services.play import OrderInput
from bot.services.stages import StageReport
from rules_core import registry
from rules_core.plugin import Rules
from rules_core.rulesets.hail_caesar.profiles import ARMIES
from rules_core.verify import verify
from tests.conftest import ALICE, BOB, GM

ROMANS, GAULS = "Legio IX (sample)", "Arverni (sample)"
DEPLOYMENT = {
    "First Cohort": "5,6",
    "Second Cohort": "12,6",
    "Third Cohort": "19,6",
    "Cretan Archers": "24,11",
    "Gallic Horse": "33,6",
    "Numidians": "42,6",
    "Arverni Warband": "8,30",
    "Carnutes Warband": "18,30",
    "Slingers": "24,25",
    "Noble Horse": "34,30",
    "Young Riders": "43,30",
}
# The Romans (the first six above) in their first turn, by step and division: (kind, unit,
# options) as Alice gives them.
ROMAN_TURN = {
    ("orders", "a_rom_legio"): [
        ("move", "First Cohort", OrderInput(x=5, y=12)),
        ("move", "Second Cohort", OrderInput(x=12, y=12)),
        ("command", "Legate Quintus", OrderInput(option="division")),
    ],
    ("orders", "a_rom_equites"): [("move", "Gallic Horse", OrderInput(x=33, y=14))],
    ("shooting", ""): [("shoot", "Cretan Archers", OrderInput(target="Slingers"))],
}


def rules() -> Rules:
    found = registry.get("hail_caesar").rules
    assert found is not None
    return found


async def create_battle(services: Services, place: Place) -> BattleView:
    """Campaign, the two sample army files imported as YAML, the battle, nothing deployed."""
    await services.campaigns.create(place, GM, "Gallic War", "hail_caesar")
    await services.campaigns.join(place, ALICE, "Rome")
    await services.campaigns.join(place, BOB, "Gaul")
    for user, name in ((ALICE, "romans"), (BOB, "gauls")):
        content = ARMIES.joinpath(f"{name}.yaml").read_bytes()
        await services.armies.import_roster(place, user, content, f"{name}.yaml")
    return await services.battles.create(place, GM, "Gergovia", [ROMANS, GAULS], 48, 36)


async def set_up(services: Services, place: Place) -> BattleView:
    """The battle with every unit deployed."""
    view = await create_battle(services, place)
    for unit, at in DEPLOYMENT.items():
        owner = ALICE if unit in list(DEPLOYMENT)[:6] else BOB
        await services.battles.deploy(place, owner, unit, at, None)
    return view


async def test_set_up_brings_divisions_and_generals(services: Services, place: Place) -> None:
    view = await set_up(services, place)
    groups = {g.id: g.leader for g in view.state.groups}
    assert groups["a_rom_legio"] == "a_rom_legate" and groups["b_gau_horse"] == "b_gau_chief"
    assert {ld.id: ld.points for ld in view.state.leaders} == {
        "a_rom_legate": 8, "a_rom_praefect": 8, "b_gau_king": 8, "b_gau_chief": 7,
    }  # fmt: skip
    units = (await services.battles.view(place)).state.units
    assert {u.id: u.group for u in units}["a5"] == "a_rom_equites"
    assert all(u.facing == (0 if u.side == "a" else 180) for u in units)
    shown = await services.battles.view(place)  # set-up maps show generals with their troops
    assert all((ld.x, ld.y) != (0.0, 0.0) for ld in shown.state.leaders)


async def answer(services: Services, view: BattleView) -> StageReport:
    """Answer the waiting question as the demo's player would; the GM grants doubtful sight."""
    assert view.state.pending is not None
    decision = view.state.pending.decision
    owner = {"a": ALICE, "b": BOB}.get(decision.who, GM)
    sight = decision.id.startswith("sight:")
    choice = "clear" if sight else rules().demo_answer(view.state)
    return await services.play.answer(view.id, view.stage, owner, None, choice)


async def give_orders(services: Services, place: Place, view: BattleView) -> StageReport:
    """The Romans' scripted first turn, the demo's orders otherwise; every acting side confirms."""
    state = view.state
    subject = state.cursor.subject.id if state.cursor.subject else ""
    owners = {s.side_id: s.owner_id for s in view.sides}
    report = None
    for side in engine_sides(view):
        if side == "a" and state.cursor.turn == 1:
            given = ROMAN_TURN.get((state.cursor.step, subject), [])
        else:
            orders = rules().demo_orders(state, side)
            given = [(o.kind, o.actor, order_input(rules(), o)) for o in orders]
        for kind, unit, options in given:
            await services.play.submit(place, owners[side], kind, unit, options)
    for side in engine_sides(view):
        report = (await services.play.confirm(place, owners[side])).report or report
    assert report is not None
    return report


def engine_sides(view: BattleView) -> list[str]:
    """The sides whose players the stage waits for."""
    return [s.side_id for s in view.sides if s.owner_id in view.waiting_for]


async def test_a_turn_of_orders_ends_in_a_verified_record(services: Services, place: Place) -> None:
    await set_up(services, place)
    report = await services.play.start(place, GM)
    started = report.battle.state
    assert all((ld.x, ld.y) != (0, 0) for ld in started.leaders)
    lines: list[str] = list(report.lines)
    while report.ended is None and report.battle.state.cursor.turn < 2:
        view = report.battle
        if view.state.pending is not None:
            report = await answer(services, view)
        else:
            report = await give_orders(services, place, view)
        lines += report.lines
    text = "\n".join(lines)
    assert "Order test: Legate Quintus, division order" in text
    assert "Order test (Leadership 8) for Gallic Horse" in text
    assert "Shooting: Cretan Archers at Slingers" in text
    assert "Turn 1: Command: Orders (Warbands)" in text or report.ended is not None
    ended = report.ended or await services.gm.end(place, GM, None, "the test stops here")
    check = verify(json.loads(ended.record))
    assert check.ok, check.problem
    assert any(loss.army.startswith(ROMANS) for loss in ended.losses)


async def test_the_demo_plays_hail_caesar_and_verifies(tmp_path: Path) -> None:
    transcript = await run_demo("hail_caesar", 3, tmp_path)
    text = transcript.read_text(encoding="utf-8")
    assert text.startswith("# Demo: Hail Caesar")
    assert "Order test: Legate Quintus, General Advance" in text
    assert "Order test (Leadership 8)" in text
    assert sorted(tmp_path.glob("step-*.png"))
    record = json.loads((tmp_path / "record.json").read_text())
    assert record["seed"] is not None and verify(record).ok
    assert f"## The record\n\n{verify(record).text()}" in text
    assert "\n## How it ended\n\nThe " in text  # the last section: why the battle ended


async def test_a_failing_prepare_is_reported_not_hidden(
    services: Services, place: Place, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A set-up map shows the battle as ``prepare`` makes it; an error there surfaces."""
    await create_battle(services, place)
    await services.battles.view(place)  # nothing deployed yet: prepare takes it

    def broken(state: object) -> object:
        raise KeyError("a bug in prepare")

    monkeypatch.setattr(type(rules()), "prepare", lambda self, state: broken(state))
    with pytest.raises(KeyError, match="a bug in prepare"):
        await services.battles.view(place)
