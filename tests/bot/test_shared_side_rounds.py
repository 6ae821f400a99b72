"""A shared side in a ruleset whose steps run in rounds rather than per group (The Tree of
Battles' command actions): the round waits for every player with a leader to command in it."""

from __future__ import annotations

from bot.services import Services
from bot.services.campaigns import Place
from tests.bot.test_tree_of_battles_battle import clock, services, set_up
from tests.conftest import ALICE, BOB, GM

CAROL = 23
__all__ = ["clock", "services"]  # the fixtures of the Tree of Battles tests


async def test_a_command_round_waits_for_the_player_given_york_s_battle(
    services: Services, place: Place
) -> None:
    await set_up(services, place)
    await services.campaigns.join(place, CAROL, "England")
    await services.battles.assign(place, GM, "a_york_battle", CAROL)
    opened = await services.play.start(place, GM)
    assert opened.battle.waiting_step == "Command — action 1"
    assert opened.battle.waiting_for == (ALICE, CAROL, BOB)
    parts = {call.user_id: call.part for call in opened.calls}
    assert parts == {
        ALICE: ("England", "King Henry V's battle", "Thomas, Lord Camoys's battle"),
        CAROL: ("Edward, Duke of York's battle",),
        BOB: (),  # France is one player's: no part to name
    }
    assert (await services.play.confirm(place, ALICE)).waiting_for == (CAROL, BOB)
    assert (await services.play.confirm(place, BOB)).waiting_for == (CAROL,)
    assert (await services.play.confirm(place, CAROL)).report is not None
