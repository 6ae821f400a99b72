"""Who opens the war table, on every endpoint: GM, a player of each side, two players of one
side, an observer, an outsider; open and closed campaigns; members removed, campaigns closed."""

from __future__ import annotations

import pytest

from tests.conftest import BOB, GM, OUTSIDER
from tests.web.table import CAROL, PLACE, ROLES, Table

OK, REFUSED = {200}, {403}


@pytest.mark.parametrize("visibility", ["open", "closed"])
@pytest.mark.parametrize("role", list(ROLES))
async def test_members_open_every_endpoint(table: Table, role: str, visibility: str) -> None:
    await table.services.campaigns.set_visibility(PLACE, GM, visibility)
    token = await table.token(ROLES[role])
    assert await table.statuses(token) == OK


async def test_each_member_is_read_as_they_sit(table: Table) -> None:
    links = table.services.web_links
    seats = {}
    for role, user in ROLES.items():
        reader = await links.reader(await table.token(user), table.campaign_id)
        assert reader.user_id == user and reader.place.user_id == user
        seats[role] = (reader.seat.kind.value, reader.seat.sides)
    assert seats["gm"][0] == "gm" and seats["observer"] == ("observer", ())
    assert seats["red"] == seats["red too"] == ("player", ("a",))
    assert seats["blue"] == ("player", ("b",))


async def test_an_outsider_of_an_open_campaign_reads_the_public_view(table: Table) -> None:
    token = await table.token(OUTSIDER)
    assert await table.statuses(token) == OK
    reader = await table.services.web_links.reader(token, table.campaign_id)
    assert reader.user_id is None and reader.seat.kind.value == "outsider"
    assert reader.place.user_id == 0  # services read it as a non-member, never as the bot


async def test_no_cookie_opens_nothing(table: Table) -> None:
    for endpoint in ("", "map.svg", "state.json", "events", "replay.json", "replay/0.svg"):
        response = await table.client.get(f"/c/{table.campaign_id}/{endpoint}")
        assert response.status == 403, endpoint
        assert "/battle table" in await response.text()


async def test_a_removed_member_loses_every_endpoint_at_once(table: Table) -> None:
    bobs, carols = await table.token(BOB), await table.token(CAROL)
    assert await table.statuses(bobs) == OK
    await table.services.campaigns.remove_member(PLACE, GM, BOB)
    assert await table.statuses(bobs) == REFUSED
    assert await table.statuses(carols) == OK
    response = await table.client.get(
        f"/c/{table.campaign_id}/", headers={"Cookie": f"adc_{table.campaign_id}={bobs}"}
    )
    assert "no longer a member" in await response.text()


async def test_a_member_added_again_does_not_get_old_links_back(table: Table) -> None:
    old = await table.token(CAROL)
    await table.services.web_links.revoke(PLACE, CAROL)
    await table.services.campaigns.remove_member(PLACE, GM, CAROL)
    await table.services.campaigns.join(PLACE, CAROL, "Red")
    assert await table.statuses(old) == REFUSED


async def test_a_spectator_link_dies_when_the_campaign_is_closed(table: Table) -> None:
    spectator = await table.token(GM, spectator=True)
    assert await table.statuses(spectator) == OK
    await table.services.campaigns.set_visibility(PLACE, GM, "closed")
    assert await table.statuses(spectator) == REFUSED
    await table.services.campaigns.set_visibility(PLACE, GM, "open")
    assert await table.statuses(spectator) == OK


async def test_a_gm_ends_every_spectator_link(table: Table) -> None:
    outsiders = await table.token(OUTSIDER)
    gms = await table.token(GM)
    await table.services.web_links.revoke(PLACE, GM, spectator=True)
    assert await table.statuses(outsiders) == REFUSED
    assert await table.statuses(gms) == OK  # the GM's own link is not a spectator link


async def test_a_finished_campaign_closes_its_table(table: Table) -> None:
    token = await table.token(BOB)
    await table.services.campaigns.close(PLACE, GM)
    assert await table.statuses(token) == REFUSED
