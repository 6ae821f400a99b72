"""The war table names players as Discord's messages show them: their display names (a
nickname in the server first), learned from their commands, never their ids."""

from __future__ import annotations

import pytest

import tests.e2e.conftest as e2e
from tests.web.test_browser_orders import movement_open, others_view

make_aide, make_harness, fixed_seed = e2e.make_aide, e2e.make_harness, e2e.fixed_seed
pytestmark = pytest.mark.usefixtures("fixed_seed")
NICKS = ("Hannibal of Carthage", "Scipio the Elder")


async def test_the_page_names_the_awaited_players_by_their_display_names(
    make_aide: e2e.MakeHarness,
) -> None:
    h = await make_aide(web_port=0)
    for user, nick in zip((h.alice, h.bob), NICKS, strict=True):
        h.world.members[user.id].nick = nick
    player, other, _ = await movement_open(h)
    mover_nick = h.world.members[player.id].nick
    other_nick = h.world.members[other.id].nick
    assert mover_nick in NICKS and other_nick in NICKS
    shown = await others_view(h, other)  # the other player's page and state.json
    assert f"Waiting for {mover_nick}" in shown
    assert f"Played by {mover_nick}" in shown and f"Played by {other_nick}" in shown
    assert f"@{player.id}" not in shown and f"@{other.id}" not in shown
