"""What a stage waits for is stored beside the battle's state (#38): worked out in the engine's
worker where the state is made, and read back on load, so a command after a restart (or in
another process) does not work it out again on the event loop."""

from __future__ import annotations

import json
from typing import Any

import pytest

from bench.replay import on_a_new_database
from bot import pace
from bot.demo import PLACE, StepClock, Transcript, play, set_up
from bot.services import battle_state, stored_waiting
from rules_core import engine, registry
from rules_core.plugin import Rules
from rules_core.state import BattleState


class Quiet(Transcript):
    """A transcript that draws no maps."""

    async def step(self, report: object) -> None:
        """Count the step only."""
        self.maps += 1


@pytest.mark.parametrize("ruleset", pace.playable())
async def test_the_stored_answer_is_the_fresh_one_after_each_step_and_serves_a_restart(
    ruleset: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    rules = registry.get(ruleset).rules
    assert rules is not None
    kept: list[tuple[str, dict[str, Any]]] = []
    original = stored_waiting.stored

    def noting(rules: Rules, state: BattleState, text: str) -> dict[str, Any]:
        found = original(rules, state, text)
        kept.append((text, found))
        return found

    monkeypatch.setattr(stored_waiting, "stored", noting)
    async with on_a_new_database() as (services, _, folder):
        await set_up(services, ruleset, rules)
        await play(services, rules, StepClock(), 1, Quiet(folder, []))
        assert len(kept) >= 2, "the battle was saved at each step"
        for text, found in kept:
            fresh = engine.waiting(rules, BattleState.from_dict(json.loads(text)))
            again = BattleState.from_dict(json.loads(text))
            assert stored_waiting.restore(rules, again, found, text)
            assert engine.waiting(rules, again) == fresh
        # A restart: nothing decoded is kept; the next command reads the stored answer.
        monkeypatch.setattr(battle_state, "_decoded", type(battle_state._decoded)())
        calls: list[int] = []
        real = engine._waiting

        def counted(rules: Rules, state: BattleState) -> engine.Waiting:
            calls.append(1)
            return real(rules, state)

        monkeypatch.setattr(engine, "_waiting", counted)
        view = await services.battles.view(PLACE)
        assert calls == [], "a command after a restart worked out what the stage waits for"
        assert view.waiting_step.startswith(engine.waiting(rules, view.state).title)
