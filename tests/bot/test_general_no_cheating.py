"""The AI general does not cheat at the bot's level either (#36): its orders for a side, given
through GeneralService on a real SQLite file, are the same when the other side's planned
orders for later steps, its standing instructions, its cards in hand and its hidden state
change. Skirmish: the AI plays Red, Bob Blue (the defaults); the battle is played twice, in
two databases, the second with Blue's secrets changed before each of the AI's steps."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from sqlalchemy import select

from bot.db.migrate import upgrade_to_head
from bot.db.models import BattleOrder, PlannedOrder, StandingInstruction
from bot.db.session import Database
from bot.services import Services, battles
from bot.services.ai_seat import AI_GENERAL
from bot.services.battle_state import load_battle_by_id
from bot.services.campaigns import Place
from rules_core.cards import DeckState
from tests.bot.battle_setup import deployed_battle
from tests.conftest import BOB, GM
from tests.databases import TestDatabases

Given = list[tuple[str, str, dict[str, object], str | None]]
SECRET_DECK = "secret-plans"


async def ai_orders(db: Database) -> Given:
    """Every order the AI gave: actor, kind, parameters and reason (not the stage: Blue's
    standing answer makes a question's stage no more)."""
    async with db.read() as session:
        rows = await session.scalars(
            select(BattleOrder).where(BattleOrder.user_id == AI_GENERAL).order_by(BattleOrder.id)
        )
        return [(r.actor, r.kind, dict(r.params), r.reason) for r in rows]


async def blue_s_secrets_changed(db: Database, battle_id: int) -> None:
    """Blue's secrets changed: an order planned for a later turn, a standing instruction (the
    answer Bob gives anyway), a hand of cards and its hidden state."""
    async with db.write() as session:
        loaded = await load_battle_by_id(session, battle_id)
        assert loaded is not None
        state = loaded.state
        if any(d.id == SECRET_DECK for d in state.decks):
            return
        blue = next(u.id for u in state.units if u.side == "b")
        session.add(
            PlannedOrder(
                battle_id=battle_id,
                turn=9,
                step_key=f"9:shoot:b:{blue}",
                step_title="Turn 9 · Shooting",
                side_id="b",
                user_id=BOB,
                actor=blue,
                kind="shoot",
                params={"target": "red-horse"},
                summary="shoots at Red Horse",
            )
        )
        session.add(
            StandingInstruction(
                battle_id=battle_id, side_id="b", topic="initiative", choice="first", set_by=BOB
            )
        )
        hand = DeckState(SECRET_DECK, pile=("2H",), hands={"b": ("QS", "KD")})
        hidden = state.with_hidden("b", plan="flank march")
        loaded.save(replace(hidden, decks=(*state.decks, hand)))


async def played(url: str, place: Place, *, secrets_changed: bool) -> Given:
    """Red handed to the AI, Blue Bob's (the defaults, going first), through two turns' Movement
    and Shooting: the AI's orders."""
    await upgrade_to_head(url)
    db = Database.from_url(url)
    try:
        services = Services.build(db, rng=random.Random(1))
        services.general.budget_s = 60.0  # never cut short: only what it sees counts
        await deployed_battle(services, place)
        await services.battles.hand_over(place, GM, "Red", AI_GENERAL)
        battle_id = (await services.play.start(place, GM)).battle.id
        for _ in range(40):  # the AI plays its steps as delivery.ai_plays does, Bob his
            if secrets_changed:
                await blue_s_secrets_changed(db, battle_id)
            if await services.general.next_step(battle_id) is not None:
                continue
            async with db.read() as session:
                loaded = await load_battle_by_id(session, battle_id)
            assert loaded is not None
            if loaded.state.cursor.turn > 2 or loaded.state.outcome is not None:
                break
            if loaded.state.pending is not None:
                await services.play.answer_here(place, BOB, "first")
            else:
                await services.play.confirm(place, BOB)
        return await ai_orders(db)
    finally:
        await db.dispose()


async def test_the_ai_s_orders_ignore_the_other_side_s_secrets(
    databases: TestDatabases, place: Place, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(battles, "new_seed", lambda: bytes(range(32)))  # the same dice twice
    plain = await played(databases.url("plain.db"), place, secrets_changed=False)
    kept = await played(databases.url("secrets.db"), place, secrets_changed=True)
    assert plain == kept
    assert {kind for _, kind, _, _ in plain} - {"hold"}, plain  # it did give orders
