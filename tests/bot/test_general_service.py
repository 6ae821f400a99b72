"""The AI general's orders go through the players' judge (#36): one it may not give is refused
as a player's would be (logged; the default stands), the others kept with their reasons."""

from __future__ import annotations

import logging

import pytest
from pydantic import ValidationError
from sqlalchemy import select

from bot.config import Settings
from bot.db.models import BattleOrder
from bot.db.session import Database
from bot.services import Services
from bot.services.ai_seat import AI_GENERAL
from bot.services.campaigns import Place
from rules_core import general
from rules_core.general import Advice
from rules_core.orders import Order
from rules_core.plugin import Rules
from rules_core.state import BattleState
from tests.bot.battle_setup import deployed_battle
from tests.conftest import GM


def enemy_and_own(
    rules: Rules, view: BattleState, side: str, *, seed: int = 0, budget_s: float = 1.0
) -> tuple[Advice, ...]:
    """An order for an enemy unit (a player could not give it), then the scripted ones."""
    enemy = next(u for u in view.units if u.side != side)
    own = tuple(Advice(o, "as scripted") for o in rules.demo_orders(view, side))
    return (Advice(Order(enemy.id, "hold", {}), "cheating"), *own)


async def test_an_order_the_side_may_not_give_is_refused_and_the_rest_kept(
    services: Services, place: Place, db: Database, monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:  # fmt: skip
    monkeypatch.setattr(general, "plan_side", enemy_and_own)
    await deployed_battle(services, place)
    for side in ("Red", "Blue"):  # AI against AI: whichever the open step awaits
        await services.battles.hand_over(place, GM, side, AI_GENERAL)
    battle_id = (await services.play.start(place, GM)).battle.id
    given: list[BattleOrder] = []
    with caplog.at_level(logging.INFO, logger="bot.services.general"):
        for _ in range(12):  # until a step with orders has been played
            report = await services.general.next_step(battle_id)
            async with db.read() as session:
                given = list(await session.scalars(select(BattleOrder)))
            if given or report is None:
                break
    assert given, "the AI gave its side's orders"
    assert {row.reason for row in given} == {"as scripted"}
    assert all(row.user_id == AI_GENERAL for row in given)
    assert "AI order refused" in caplog.text  # the players' judge refused the enemy's hold


def test_the_ai_s_time_per_turn_is_a_setting_within_bounds(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AI_SECONDS_PER_TURN", "3.5")
    assert Settings(discord_token="t").ai_seconds_per_turn == 3.5
    for bad in ("0", "-1", "61"):
        monkeypatch.setenv("AI_SECONDS_PER_TURN", bad)
        with pytest.raises(ValidationError):
            Settings(discord_token="t")
