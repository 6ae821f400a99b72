"""Seats and closed campaigns through the services on a real database: who a user is in a
campaign and its battle, and what an outsider of a closed campaign is refused (changing nothing).
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from sqlalchemy import select

from bot.db.models import Battle, Campaign, Membership, Role
from bot.db.session import Database
from bot.errors import ClosedCampaign, Conflict, HandedAway, InvalidInput, PermissionDenied
from bot.services import Services
from bot.services.battle_state import load_battle
from bot.services.campaigns import Place
from bot.services.seats import Seat, SeatKind, seat_of
from rules_core.secrets import Viewer
from tests.bot.battle_setup import deployed_battle
from tests.conftest import ALICE, BOB, GM, OUTSIDER

CAROL, DAVE = 23, 24  # a second Red player commanding nothing, an observer


def asking(place: Place, user_id: int) -> Place:
    """The place as a user's command gives it."""
    return replace(place, user_id=user_id)


async def seats(db: Database, place: Place) -> dict[int, Seat]:
    async with db.read() as session:
        loaded = await load_battle(session, place)
        return {
            u: seat_of(loaded.campaign, u, loaded.battle)
            for u in (GM, ALICE, BOB, CAROL, DAVE, OUTSIDER)
        }


async def test_each_user_has_a_seat(services: Services, db: Database, place: Place) -> None:
    await deployed_battle(services, place)
    await services.campaigns.join(place, CAROL, "Red")
    await services.campaigns.join(place, DAVE, None)
    found = await seats(db, place)
    assert found[GM] == Seat(SeatKind.GM)
    assert found[ALICE] == Seat(SeatKind.PLAYER, ("a",))
    assert found[BOB] == Seat(SeatKind.PLAYER, ("b",))
    assert found[CAROL] == Seat(SeatKind.PLAYER, ("a",))  # joined the side by name
    assert found[DAVE] == Seat(SeatKind.OBSERVER)
    assert found[OUTSIDER] == Seat(SeatKind.OUTSIDER)
    assert all(seat.may_read for seat in found.values())  # open: anyone may watch


async def test_a_gm_who_plays_keeps_the_gm_seat_and_a_commander_plays_the_side(
    services: Services, db: Database, place: Place
) -> None:
    await deployed_battle(services, place)
    await services.campaigns.add_gm(place, GM, ALICE)
    async with db.write() as session:
        battle = await session.scalar(select(Battle))
        assert battle is not None
        await session.refresh(battle, ["sides"])
        blue = next(s for s in battle.sides if s.side_id == "b")
        blue.commanders = {"b_main": OUTSIDER}  # a group given to someone who never joined
    found = await seats(db, place)
    assert found[ALICE] == Seat(SeatKind.GM, ("a",))
    assert found[OUTSIDER] == Seat(SeatKind.PLAYER, ("b",))


async def test_without_a_battle_a_player_has_no_sides_yet(
    services: Services, db: Database, place: Place
) -> None:
    await deployed_battle(services, place)
    async with db.read() as session:
        campaign = await session.scalar(select(Campaign))
        assert campaign is not None
        await session.refresh(campaign, ["members"])
        assert seat_of(campaign, ALICE) == Seat(SeatKind.PLAYER)
        assert seat_of(campaign, OUTSIDER) == Seat(SeatKind.OUTSIDER)


async def test_closing_refuses_outsiders_everywhere_and_changes_nothing(
    services: Services, db: Database, place: Place
) -> None:
    await deployed_battle(services, place)
    await services.campaigns.join(place, DAVE, None)
    with pytest.raises(PermissionDenied):
        await services.campaigns.set_visibility(asking(place, ALICE), ALICE, "closed")
    with pytest.raises(InvalidInput, match="`open` or `closed`, not `secret`"):
        await services.campaigns.set_visibility(asking(place, GM), GM, "secret")
    info = await services.campaigns.set_visibility(asking(place, GM), GM, "closed")
    assert info.closed
    found = await seats(db, place)
    assert found[OUTSIDER] == Seat(SeatKind.OUTSIDER, (), closed=True)
    assert not found[OUTSIDER].may_read and found[DAVE].may_read

    outsider = asking(place, OUTSIDER)
    refusal = "**Border Raids** is a closed campaign: ask its GM to admit you."
    reads = {
        "campaign info": services.campaigns.info(outsider),
        "battle status": services.battles.view(outsider),
        "battle list": services.battles.list(outsider),
        "battle log": services.records.log(outsider, 0),
        "battle record": services.records.record(outsider),
        "army show": services.armies.show(outsider, OUTSIDER, "Red Host"),
        "orders mine": services.play.mine(outsider, OUTSIDER),
        "campaign join": services.campaigns.join(outsider, OUTSIDER, "Green"),
        "campaign watch": services.campaigns.join(outsider, OUTSIDER, None),
    }
    for name, call in reads.items():
        with pytest.raises(ClosedCampaign) as refused:
            await call
        assert refused.value.message == refusal, name
    # Autocomplete gives nothing at all.
    assert await services.lookups.units_on_table(outsider, OUTSIDER, own=False) == []
    assert await services.lookups.named_actors(outsider, "unit") == []
    assert await services.armies.names(outsider) == []
    assert await services.campaigns.side_names(outsider) == []
    assert await services.parameters.names(outsider) == []
    # The server's list leaves the closed campaign out for them, not for its members.
    assert await services.campaigns.list(place.guild_id, user_id=OUTSIDER) == []
    assert [c.name for c in await services.campaigns.list(place.guild_id, user_id=DAVE)] == [
        "Border Raids"
    ]
    async with db.read() as session:
        members = {m.user_id for m in await session.scalars(select(Membership))}
    assert OUTSIDER not in members  # nothing changed

    # Members still read; an admitted outsider reads, and may then take a side.
    assert (await services.battles.view(asking(place, DAVE))).seat == Seat(
        SeatKind.OBSERVER, (), closed=True
    )
    with pytest.raises(PermissionDenied):
        await services.campaigns.admit(asking(place, DAVE), DAVE, OUTSIDER)
    await services.campaigns.admit(asking(place, GM), GM, OUTSIDER)
    with pytest.raises(Conflict, match="already in \\*\\*Border Raids\\*\\* as observer"):
        await services.campaigns.admit(asking(place, GM), GM, OUTSIDER)
    assert (await services.campaigns.info(outsider)).name == "Border Raids"
    joined = await services.campaigns.join(outsider, OUTSIDER, "Green")
    assert [(m.role, m.side) for m in joined.members if m.user_id == OUTSIDER] == [
        (Role.PLAYER, "Green")
    ]

    # Opened again, anyone reads and may watch.
    await services.campaigns.set_visibility(asking(place, GM), GM, "open")
    stranger = asking(place, 98)
    assert (await services.battles.view(stranger)).seat == Seat(SeatKind.OUTSIDER)
    watched = await services.campaigns.join(stranger, 98, None)
    assert [m.role for m in watched.members if m.user_id == 98] == [Role.OBSERVER]


def test_each_seat_has_its_viewer() -> None:
    assert Seat(SeatKind.GM, ("a",)).viewer() == Viewer.game_master()  # a GM who plays sees all
    assert Seat(SeatKind.PLAYER, ("b",)).viewer() == Viewer.of_side("b")
    assert Seat(SeatKind.PLAYER).viewer() == Viewer.public()  # no side in this battle
    assert Seat(SeatKind.OBSERVER).viewer() == Viewer.public()
    assert Seat(SeatKind.OUTSIDER).viewer() == Viewer.public()


async def test_a_player_handed_away_has_no_seat_on_the_side_until_it_is_handed_back(
    services: Services, db: Database, place: Place
) -> None:
    await deployed_battle(services, place)
    await services.campaigns.join(place, CAROL, "Red")
    await services.battles.hand_over(place, GM, "Red", GM)
    found = await seats(db, place)
    assert found[ALICE] == Seat(SeatKind.PLAYER)  # joined Red by name, but handed away
    assert found[CAROL] == Seat(SeatKind.PLAYER, ("a",))  # Red's other player keeps it
    assert found[GM] == Seat(SeatKind.GM, ("a",))
    await services.play.start(place, GM)
    with pytest.raises(HandedAway) as refused:
        await services.play.confirm(place, ALICE)
    assert (refused.value.side, refused.value.holder_id) == ("Red", GM)
    assert (await services.battles.view(place)).waiting_for == (GM, BOB)

    await services.battles.hand_over(place, GM, "Red", ALICE)
    assert (await seats(db, place))[ALICE] == Seat(SeatKind.PLAYER, ("a",))
    assert (await services.play.confirm(place, ALICE)).waiting_for == (BOB,)
