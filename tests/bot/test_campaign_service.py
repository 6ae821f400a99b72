"""Campaign service against a real SQLite file: success paths and every refusal."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

from bot.db.models import Campaign, CampaignStatus, Membership, Role
from bot.errors import Conflict, InvalidInput, NotFound, PermissionDenied
from bot.services import Services
from bot.services.campaigns import Place
from tests.conftest import ALICE, BOB, CHANNEL, GM, GUILD, OTHER_CHANNEL, OUTSIDER


async def count(services: Services, model: type) -> int:
    """Rows of a table, read straight from the database."""
    async with services.campaigns.db.read() as session:
        return int(await session.scalar(select(func.count()).select_from(model)) or 0)


async def test_create_makes_creator_gm(services: Services, place: Place) -> None:
    info = await services.campaigns.create(place, GM, "  Hundred   Years ", "tree_of_battles")
    assert info.name == "Hundred Years"
    assert info.ruleset_name == "The Tree of Battles"
    assert info.status is CampaignStatus.LOBBY
    assert info.gms == (GM,)
    assert (await services.campaigns.info(place)).id == info.id


async def test_create_accepts_alias(services: Services, place: Place) -> None:
    info = await services.campaigns.create(place, GM, "Cannae", "hc")
    assert info.ruleset_id == "hail_caesar"


async def test_unknown_ruleset_refused_and_nothing_written(
    services: Services, place: Place
) -> None:
    with pytest.raises(InvalidInput, match="Unknown ruleset `chess`.*tree_of_battles"):
        await services.campaigns.create(place, GM, "X", "chess")
    assert await count(services, Campaign) == 0


@pytest.mark.parametrize("name", ["", "   ", "x" * 101])
async def test_bad_name_refused(services: Services, place: Place, name: str) -> None:
    with pytest.raises(InvalidInput):
        await services.campaigns.create(place, GM, name, "impetus")
    assert await count(services, Campaign) == 0


async def test_one_open_campaign_per_channel(services: Services, place: Place) -> None:
    await services.campaigns.create(place, GM, "First", "impetus")
    with pytest.raises(Conflict, match="already hosts the campaign \\*\\*First\\*\\*"):
        await services.campaigns.create(place, ALICE, "Second", "impetus")
    other = await services.campaigns.create(Place(GUILD, OTHER_CHANNEL), ALICE, "Second", "impetus")
    assert other.gms == (ALICE,)
    assert [c.name for c in await services.campaigns.list(GUILD)] == ["Second", "First"]


async def test_closed_campaign_frees_the_channel(services: Services, place: Place) -> None:
    await services.campaigns.create(place, GM, "Old", "impetus")
    closed = await services.campaigns.close(place, GM)
    assert closed.status is CampaignStatus.FINISHED
    with pytest.raises(NotFound, match="no campaign in this channel"):
        await services.campaigns.info(place)
    await services.campaigns.create(place, GM, "New", "impetus")
    everything = await services.campaigns.list(GUILD, include_finished=True)
    assert {c.name: c.status for c in everything} == {
        "New": CampaignStatus.LOBBY,
        "Old": CampaignStatus.FINISHED,
    }


async def test_unknown_campaign(services: Services, place: Place) -> None:
    for call in (
        services.campaigns.info(place),
        services.campaigns.join(place, ALICE, "English"),
        services.campaigns.leave(place, ALICE),
        services.campaigns.close(place, GM),
    ):
        with pytest.raises(NotFound):
            await call


async def test_join_as_player_and_observer(services: Services, place: Place) -> None:
    await services.campaigns.create(place, GM, "Agincourt", "tree_of_battles")
    await services.campaigns.join(place, ALICE, "English")
    info = await services.campaigns.join(place, BOB, None)
    roles = {m.user_id: (m.role, m.side) for m in info.members}
    assert roles == {
        GM: (Role.GM, None),
        ALICE: (Role.PLAYER, "English"),
        BOB: (Role.OBSERVER, None),
    }
    assert info.sides() == {"English": [ALICE]}
    assert await services.campaigns.side_names(place) == ["English"]


async def test_joining_twice_refused(services: Services, place: Place) -> None:
    await services.campaigns.create(place, GM, "Agincourt", "tree_of_battles")
    await services.campaigns.join(place, ALICE, "English")
    with pytest.raises(Conflict, match="already joined .* as player on side \\*\\*English"):
        await services.campaigns.join(place, ALICE, "French")
    assert (await services.campaigns.info(place)).sides() == {"English": [ALICE]}


async def test_gm_may_also_take_a_side_once(services: Services, place: Place) -> None:
    await services.campaigns.create(place, GM, "Agincourt", "tree_of_battles")
    info = await services.campaigns.join(place, GM, "French")
    assert info.sides() == {"French": [GM]} and info.gms == (GM,)
    with pytest.raises(Conflict):
        await services.campaigns.join(place, GM, "English")


async def test_leave(services: Services, place: Place) -> None:
    await services.campaigns.create(place, GM, "Agincourt", "tree_of_battles")
    await services.campaigns.join(place, ALICE, "English")
    info = await services.campaigns.leave(place, ALICE)
    assert [m.user_id for m in info.members] == [GM]
    with pytest.raises(NotFound, match="not a member"):
        await services.campaigns.leave(place, ALICE)


async def test_last_gm_cannot_leave(services: Services, place: Place) -> None:
    await services.campaigns.create(place, GM, "Agincourt", "tree_of_battles")
    with pytest.raises(Conflict, match="only GM"):
        await services.campaigns.leave(place, GM)
    await services.campaigns.add_gm(place, GM, ALICE)
    await services.campaigns.leave(place, GM)
    assert (await services.campaigns.info(place)).gms == (ALICE,)


async def test_gm_add_and_remove(services: Services, place: Place) -> None:
    await services.campaigns.create(place, GM, "Agincourt", "tree_of_battles")
    await services.campaigns.join(place, ALICE, "English")
    info = await services.campaigns.add_gm(place, GM, ALICE)
    assert set(info.gms) == {GM, ALICE}
    with pytest.raises(Conflict, match="already a GM"):
        await services.campaigns.add_gm(place, GM, ALICE)
    info = await services.campaigns.remove_gm(place, ALICE, GM)
    assert info.gms == (ALICE,)
    with pytest.raises(Conflict, match="at least one GM"):
        await services.campaigns.remove_gm(place, ALICE, ALICE)
    with pytest.raises(NotFound, match="not a GM"):
        await services.campaigns.remove_gm(place, ALICE, BOB)


async def test_gm_demoted_player_keeps_side(services: Services, place: Place) -> None:
    await services.campaigns.create(place, GM, "Agincourt", "tree_of_battles")
    await services.campaigns.join(place, ALICE, "English")
    await services.campaigns.add_gm(place, GM, ALICE)
    info = await services.campaigns.remove_gm(place, GM, ALICE)
    alice = next(m for m in info.members if m.user_id == ALICE)
    assert (alice.role, alice.side) == (Role.PLAYER, "English")


@pytest.mark.parametrize("actor", [ALICE, OUTSIDER])
async def test_gm_commands_refuse_non_gms(services: Services, place: Place, actor: int) -> None:
    await services.campaigns.create(place, GM, "Agincourt", "tree_of_battles")
    await services.campaigns.join(place, ALICE, "English")
    for call in (
        services.campaigns.add_gm(place, actor, BOB),
        services.campaigns.remove_gm(place, actor, GM),
        services.campaigns.check_can_close(place, actor),
        services.campaigns.close(place, actor),
    ):
        with pytest.raises(PermissionDenied, match="Only a GM of \\*\\*Agincourt\\*\\*"):
            await call
    info = await services.campaigns.info(place)
    assert info.status is CampaignStatus.LOBBY and info.gms == (GM,)
    assert await count(services, Membership) == 2


async def test_other_servers_do_not_see_the_campaign(services: Services, place: Place) -> None:
    await services.campaigns.create(place, GM, "Agincourt", "tree_of_battles")
    assert await services.campaigns.list(GUILD + 1) == []
    with pytest.raises(NotFound):
        await services.campaigns.info(Place(GUILD + 1, CHANNEL))
