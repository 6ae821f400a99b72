"""War-table links: valid, expired, tampered, revoked, another campaign's, after the secret is
rotated; the cookie they set and the redirect that drops the token."""

from __future__ import annotations

import base64
from datetime import timedelta

import pytest

from bot.config import Settings
from bot.errors import ClosedCampaign, Conflict, PermissionDenied
from bot.services.web_links import WEB_OFF, LinkRefused
from tests.conftest import ALICE, BOB, GM, OTHER_CHANNEL, OUTSIDER
from tests.e2e.fake_clock import FakeClock
from tests.web.table import DAVE, PLACE, Table, client_of

OK, REFUSED = {200}, {403}


async def refusal(table: Table, token: str, campaign_id: int | None = None) -> str:
    """The text of the page refusing this link."""
    cid = campaign_id or table.campaign_id
    response = await table.client.get(f"/c/{cid}/", headers={"Cookie": f"adc_{cid}={token}"})
    assert response.status == 403
    return await response.text()


async def test_a_valid_link_opens_every_endpoint(table: Table) -> None:
    assert await table.statuses(await table.token(ALICE)) == OK


async def test_an_expired_link_is_refused_and_says_so(table: Table, clock: FakeClock) -> None:
    token = await table.token(ALICE)
    clock.advance(timedelta(days=7) - timedelta(seconds=1))
    assert await table.statuses(token) == OK
    clock.advance(timedelta(seconds=1))
    assert await table.statuses(token) == REFUSED
    assert "expired" in await refusal(table, token)


def _forged(token: str, user_id: int) -> str:
    """The token with its payload naming another user, signature kept."""
    body, _, signature = token.partition(".")
    payload = base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)).decode()
    forged = ".".join([str(user_id), *payload.split(".")[1:]]).encode()
    return base64.urlsafe_b64encode(forged).rstrip(b"=").decode() + "." + signature


async def test_a_tampered_link_is_refused(table: Table) -> None:
    token = await table.token(ALICE)
    body, _, signature = token.partition(".")
    other = "A" if signature[0] != "A" else "B"
    for bad in (_forged(token, GM), f"{body}.{other}{signature[1:]}", body, f"{body}.!!", "x.y"):
        assert await table.statuses(bad) == REFUSED, bad
        assert "not valid" in await refusal(table, bad)


async def test_revoking_ends_the_old_links_only(table: Table) -> None:
    old, bobs = await table.token(ALICE), await table.token(BOB)
    new = await table.services.web_links.revoke(PLACE, ALICE)
    assert await table.statuses(old) == REFUSED
    assert "revoke" in await refusal(table, old)
    assert await table.statuses(new.token) == OK
    assert await table.statuses(bobs) == OK  # another member's links stay


async def test_another_campaigns_link_opens_nothing_here(table: Table) -> None:
    services = table.services
    other = PLACE.__class__(PLACE.guild_id, OTHER_CHANNEL)
    await services.campaigns.create(other, GM, "Elsewhere", "skirmish")
    other_id = (await services.campaigns.info(other)).id
    token = await table.token(GM)
    assert await table.get(token, "", other_id) == 403
    assert "another campaign" in await refusal(table, token, other_id)


async def test_rotating_the_secret_ends_every_link(table: Table) -> None:
    tokens = [await table.token(user) for user in (GM, ALICE, BOB)]
    await table.services.web_links.rotate_secret()
    for token in tokens:
        assert await table.statuses(token) == REFUSED
    assert await table.statuses(await table.token(ALICE)) == OK


async def test_opening_a_link_sets_the_cookie_and_drops_the_token(table: Table) -> None:
    token = await table.token(ALICE)
    response = await table.client.get(f"/t/{token}", allow_redirects=False)
    assert response.status == 303
    cid = table.campaign_id
    assert response.headers["Location"] == f"/c/{cid}/"
    cookie = response.cookies[f"adc_{cid}"]
    assert cookie.value == token
    assert cookie["path"] == f"/c/{cid}/"
    assert cookie["httponly"] is True and cookie["samesite"] == "Strict"
    assert cookie["max-age"] == str(7 * 24 * 3600)
    assert not cookie["secure"]  # PUBLIC_URL is http here
    page = await table.client.get(f"/t/{token}")  # the jar keeps it: the table opens
    assert page.status == 200 and str(page.url).endswith(f"/c/{cid}/")
    assert token not in str(page.url)


async def test_the_cookie_is_secure_behind_https(table: Table) -> None:
    token = await table.token(ALICE)
    https = Settings(web_port=0, public_url="https://table.example.org")
    async with client_of(table.services, https) as client:
        response = await client.get(f"/t/{token}", allow_redirects=False)
        assert response.status == 303
        assert response.cookies[f"adc_{table.campaign_id}"]["secure"] is True


async def test_opening_a_bad_link_sets_no_cookie(table: Table) -> None:
    response = await table.client.get("/t/not.a-link", allow_redirects=False)
    assert response.status == 403 and not response.cookies
    assert "/battle table" in await response.text()


async def test_who_gets_which_link(table: Table) -> None:
    links = table.services.web_links
    assert not (await links.issue(PLACE, ALICE)).spectator
    assert not (await links.issue(PLACE, DAVE)).spectator  # an observer: their own link
    outsider = await links.issue(PLACE, OUTSIDER)  # an open campaign: the public link
    assert outsider.spectator and outsider.url.startswith("http://localhost:8080/t/")
    with pytest.raises(PermissionDenied):
        await links.revoke(PLACE, ALICE, spectator=True)  # a GM ends the spectator links
    await table.services.campaigns.set_visibility(PLACE, GM, "closed")
    with pytest.raises(ClosedCampaign):
        await links.issue(PLACE, OUTSIDER)
    with pytest.raises(PermissionDenied, match="no spectator links"):
        await links.issue(PLACE, ALICE, spectator=True)


async def test_no_link_while_the_war_table_is_off(table: Table) -> None:
    table.services.web_links.unavailable = WEB_OFF
    with pytest.raises(Conflict, match="WEB_ENABLED"):
        await table.services.web_links.issue(PLACE, ALICE)


async def test_a_refused_link_is_told_why_on_the_page(table: Table) -> None:
    with pytest.raises(LinkRefused):
        await table.services.web_links.reader("x.y", table.campaign_id)
