"""Leaders stand by the troops they command once a battle is set up through Discord (the map
draws each leader's star where its state puts it)."""

from __future__ import annotations

from shapely.geometry import Point

from bot.services.campaigns import Place
from rules_core.geometry import Footprint
from tests.e2e import test_hail_caesar_turn as hail_caesar
from tests.e2e import test_tree_of_battles_turn as tree_of_battles
from tools.fake_discord.world import FakeChannel
from tools.harness import Harness

NEAR = 2.0  # in the ruleset's measure: beside or behind a unit of the leader's own group


async def gaps(h: Harness, where: FakeChannel) -> dict[str, float]:
    """Each leader's distance to the nearest unit of its group, in the ruleset's measure."""
    view = await h.bot.services.battles.view(Place(h.world.guild_id, where.id))  # type: ignore[union-attr]
    state = view.state
    found = {}
    for leader in state.leaders:
        troops = [u for u in state.units if u.group == leader.group]
        troops = troops or [u for u in state.units if u.side == leader.side]
        spot = Point(leader.x, leader.y)
        found[leader.name] = min(Footprint.of(u).polygon.distance(spot) for u in troops)
    return found


async def test_hail_caesar_generals_stand_by_their_divisions(aide: Harness) -> None:
    await hail_caesar.set_up(aide)
    where = aide.channel("punic-wars")
    for moment in ("set-up", "started"):
        if moment == "started":
            await aide.slash(aide.gm, "battle start", channel=where)
        found = await gaps(aide, where)
        assert len(found) == 4 and max(found.values()) <= NEAR, (moment, found)


async def test_tree_of_battles_leaders_stand_with_their_contingents(aide: Harness) -> None:
    await tree_of_battles.set_up(aide)
    where = aide.channel("hundred-years")
    await aide.slash(aide.gm, "battle start", channel=where)
    found = await gaps(aide, where)
    assert len(found) == 6 and max(found.values()) == 0.0, found  # each on his contingent
