"""A battle's stored state is decoded once while it stays the same (issue 21): what the engine
keeps beside a state (who it waits for, a paused resolution) serves the next command."""

from __future__ import annotations

import json

from bot.db.models import Battle
from bot.services import Services
from bot.services.battle_state import decoded, load_battle
from bot.services.campaigns import Place
from rules_core import engine
from rules_core.rulesets.skirmish.rules import SkirmishRules
from rules_core.rulesets.skirmish.sample import sample_battle
from rules_core.state import BattleState
from tests.bot.battle_setup import deployed_battle
from tests.conftest import GM


def test_equal_stored_data_gives_the_same_state_and_a_change_a_new_one() -> None:
    rules = SkirmishRules()
    state = engine.begin(rules, sample_battle())
    stored = json.loads(json.dumps(state.to_dict()))
    first = decoded(990_001, stored)
    assert first == state
    again = decoded(990_001, json.loads(json.dumps(state.to_dict())))  # read again: equal data
    assert again is first
    assert engine.waiting(rules, again) is engine.waiting(rules, first)  # worked out once
    moved = json.loads(json.dumps(state.to_dict()))
    moved["units"][0]["x"] += 1.0
    changed = decoded(990_001, moved)
    assert changed is not first and changed.units[0].x == state.units[0].x + 1.0
    stored["units"][0]["x"] += 5.0  # the caller's dict changed in place after it was decoded
    assert decoded(990_001, stored) is not first
    assert decoded(990_002, moved) is not changed  # kept per battle


async def test_the_state_a_step_saved_is_the_next_commands_without_decoding(
    services: Services, place: Place
) -> None:
    await deployed_battle(services, place)
    report = await services.play.start(place, GM)  # resolves to the first input and saves
    async with services.play.db.read() as session:
        loaded = await load_battle(session, place)
    # The very state saved: who it waits for was worked out where the step resolved, not
    # again on the event loop for this command (a freshly decoded state has not got it).
    assert "_waiting" in loaded.state.__dict__
    assert loaded.state == BattleState.from_dict(loaded.battle.state)
    assert engine.waiting(loaded.rules, loaded.state).title == report.battle.waiting_step

    # Stored data that differs from what was saved (another process wrote it) is decoded.
    async with services.play.db.write() as session:
        battle = await session.get(Battle, loaded.battle.id)
        assert battle is not None
        changed = json.loads(json.dumps(battle.state))
        changed["units"][0]["x"] += 1.0
        battle.state = changed
    async with services.play.db.read() as session:
        again = await load_battle(session, place)
    assert "_waiting" not in again.state.__dict__
    assert again.state.units[0].x == loaded.state.units[0].x + 1.0
