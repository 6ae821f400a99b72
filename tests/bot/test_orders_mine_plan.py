"""``/orders mine`` with a turn planned ahead (issue 37): each player's own planned orders, in
the order planned, with their steps, read without the other players' (a real SQLite file)."""

from __future__ import annotations

from bot.services import Services
from bot.services.campaigns import Place
from tests.bot.test_tree_of_battles_battle import TURN_ONE, clock, services, set_up
from tests.conftest import ALICE, BOB, GM

__all__ = ["clock", "services"]  # fixtures


async def test_orders_mine_lists_only_the_readers_planned_orders_in_the_order_planned(
    services: Services, place: Place
) -> None:
    await set_up(services, place)
    await services.play.start(place, GM)
    keys = {words: key for key, words in await services.lookups.turn_steps(place, BOB)}
    planned = []
    for step, orders in TURN_ONE.items():
        title = next(w for w in keys if step in w.casefold())
        for user, kind, unit, given in orders:
            await services.play.submit(place, user, kind, unit, given, step=keys[title])
            planned.append((unit, kind, title))
    mine = await services.play.mine(place, BOB)
    assert [(o.unit_name, o.kind, o.step) for o in mine] == planned
    assert all(o.summary and o.alternatives == () and not o.consult for o in mine)
    assert await services.play.mine(place, ALICE) == []  # France's plan is secret from England
