"""The AI general's thinking time is bounded per game turn (#36): AI_SECONDS_PER_TURN is
shared by a side's steps of one turn (what earlier steps spent is remembered per battle and
side, on its row), and a new turn has it whole again."""

from __future__ import annotations

import itertools
from types import SimpleNamespace

import pytest
from sqlalchemy import select

from bot import engine_worker
from bot.db.models import BattleSide
from bot.db.session import Database
from bot.services import Services
from bot.services.ai_seat import AI_GENERAL
from bot.services.campaigns import Place
from rules_core import general
from rules_core.general import Advice
from rules_core.plugin import Rules
from rules_core.state import BattleState
from tests.bot.battle_setup import deployed_battle
from tests.conftest import GM

TOOK = 0.3  # the CPU seconds each of the AI's plans takes, as the fake clock reads them


async def test_a_side_s_steps_of_one_turn_share_its_budget(
    services: Services, place: Place, db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    given: list[tuple[int, str, float]] = []  # (turn, side, budget) of each plan

    def scripted(
        rules: Rules, view: BattleState, side: str, *, seed: int = 0, budget_s: float = 1.0
    ) -> tuple[Advice, ...]:
        given.append((view.cursor.turn, side, budget_s))
        return tuple(Advice(o, "as scripted") for o in rules.demo_orders(view, side))

    ticks = itertools.count(step=TOOK)  # each plan reads the clock twice: TOOK apart
    monkeypatch.setattr(engine_worker, "time", SimpleNamespace(thread_time=lambda: next(ticks)))
    monkeypatch.setattr(general, "plan_side", scripted)
    await deployed_battle(services, place)
    for side in ("Red", "Blue"):
        await services.battles.hand_over(place, GM, side, AI_GENERAL)
    services.general.budget_s = 1.0
    battle_id = (await services.play.start(place, GM)).battle.id
    for _ in range(60):
        if len({turn for turn, _, _ in given}) > 2:
            break
        assert await services.general.next_step(battle_id) is not None
    by_turn: dict[tuple[int, str], list[float]] = {}
    for turn, side, budget in given:
        by_turn.setdefault((turn, side), []).append(budget)
    assert max(len(b) for b in by_turn.values()) > 1, by_turn  # a turn of several steps
    for budgets in by_turn.values():  # each turn starts whole, then has what is left
        expected = [max(0.0, 1.0 - TOOK * n) for n in range(len(budgets))]
        assert budgets == pytest.approx(expected), by_turn
    async with db.read() as session:
        rows = list(await session.scalars(select(BattleSide)))
    last = {side: turn for turn, side, _ in given}
    assert {r.side_id: r.ai_turn for r in rows} == last  # remembered on the side's row
    left = {r.side_id: r.ai_spent for r in rows}
    assert left == pytest.approx({s: TOOK * len(by_turn[t, s]) for s, t in last.items()})
