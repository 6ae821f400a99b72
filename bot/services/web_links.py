"""The war table's links: signed, expiring, per member; and who a link's holder is *now*.

A token is ``base64url(payload) + "." + base64url(HMAC-SHA256(secret, payload))``; the payload
names the user (0 for a spectator link), the campaign, the expiry (unix seconds) and the
member's link counter. Nothing is stored per link: the counter (bumped by ``revoke``) and the
secret (replaced by ``rotate_secret``) end links, and every request asks ``reader`` again.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import select, text
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import joinedload, selectinload

from bot.db.models import Battle, BattleStatus, Campaign, CampaignStatus, WebLinkCounter, WebSecret
from bot.errors import Conflict, PermissionDenied
from bot.services.base import ClockedService
from bot.services.campaigns import Place, is_closed, load_open_campaign, require_gm
from bot.services.seats import Seat, SeatKind, seat_of

LINK_DAYS = 7
SPECTATOR = 0  # the user id a spectator link names (and counts its revocations under)
SECRET_BYTES = 32
WEB_OFF = (
    "The war table is switched off on this bot (`WEB_ENABLED=false`), so there is no link to "
    "give. Its host can switch it on; meanwhile `/battle map` posts the map here."
)
NOT_SERVED = (
    "The war table could not start on this bot (its port is taken), so a link would open "
    "nothing. Its host finds why in the bot's log; meanwhile `/battle map` posts the map here."
)
ASK_AGAIN = "Ask for a new link with `/battle table` in the campaign's channel."


class LinkRefused(PermissionDenied):
    """A war-table link that opens nothing now; the message says why and what to do."""


@dataclass(frozen=True)
class Reader:
    """A war-table request's reader, found by ``WebLinkService.reader`` on every request (never
    cached).

    ``user_id`` is None for a spectator link (the public view of an open campaign); ``place``
    is the campaign's channel with the member's user id (0, an outsider, for a spectator), so
    the services read through it exactly as for a slash command of that member."""

    campaign_id: int
    user_id: int | None
    place: Place
    seat: Seat
    battle_id: int | None = None  # the battle the table shows (in play, else the latest)


@dataclass(frozen=True)
class Link:
    """A link as ``/battle table`` gives it: the address, when it ends, whose view it shows."""

    url: str
    token: str
    expires_at: datetime
    spectator: bool
    campaign_name: str
    campaign_id: int


@dataclass(frozen=True)
class Claim:
    """What a token's payload says."""

    user_id: int
    campaign_id: int
    expires: int  # unix seconds
    counter: int

    def payload(self) -> bytes:
        """The bytes that are signed."""
        return f"{self.user_id}.{self.campaign_id}.{self.expires}.{self.counter}".encode()


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def sign(secret: bytes, claim: Claim) -> str:
    """The token for a claim under a secret."""
    payload = claim.payload()
    return _b64(payload) + "." + _b64(hmac.new(secret, payload, hashlib.sha256).digest())


def verify(secret: bytes, token: str) -> Claim:
    """The claim of a token signed with this secret, or LinkRefused (changed, or signed
    under a secret since rotated: the two look alike, by design)."""
    refused = LinkRefused(
        f"This link is not valid: it was changed or has been replaced. {ASK_AGAIN}"
    )
    body, dot, signature = token.partition(".")
    if not dot or len(token) > 200:
        raise refused
    try:
        payload, mac = _unb64(body), _unb64(signature)
    except (binascii.Error, ValueError):
        raise refused from None
    if not hmac.compare_digest(mac, hmac.new(secret, payload, hashlib.sha256).digest()):
        raise refused
    try:
        user, campaign, expires, counter = (int(p) for p in payload.decode().split("."))
    except ValueError:
        raise refused from None
    return Claim(user, campaign, expires, counter)


class WebLinkService(ClockedService):
    """Issues, ends and checks war-table links; permissions are decided here."""

    base_url = "http://localhost:8080"  # the bot sets PUBLIC_URL's (``Settings.web_url``)
    # Why no link can be given (the bot sets it: WEB_ENABLED off, or its port taken).
    unavailable: str | None = None

    async def ensure_secret(self) -> None:
        """Make the signing key if there is none yet (the bot calls it at start)."""
        async with self.db.write() as session:
            await _secret(session)

    async def rotate_secret(self) -> None:
        """Replace the signing key: every link given so far stops working."""
        async with self.db.write() as session:
            row = await session.get(WebSecret, 1)
            if row is None:
                session.add(WebSecret(id=1, secret=secrets.token_bytes(SECRET_BYTES)))
            else:
                row.secret = secrets.token_bytes(SECRET_BYTES)
                row.created_at = self.clock.now()

    async def issue(self, place: Place, user_id: int, spectator: bool = False) -> Link:
        """A link for this member (or the public one: ``spectator``, or any outsider of an
        open campaign), valid for LINK_DAYS days."""
        self._require_served()
        async with self.db.write() as session:
            campaign = await load_open_campaign(
                session, Place(place.guild_id, place.channel_id, user_id)
            )
            await _require_battle(session, campaign)
            seat = seat_of(campaign, user_id)
            if spectator and is_closed(campaign):
                raise PermissionDenied(_closed_to_spectators(campaign.name))
            holder = SPECTATOR if spectator or seat.kind is SeatKind.OUTSIDER else user_id
            return await self._link(session, campaign, holder)

    async def revoke(self, place: Place, user_id: int, spectator: bool = False) -> Link:
        """End this member's links (``spectator``: every spectator link, a GM only) and give
        a new one."""
        self._require_served()
        async with self.db.write() as session:
            campaign = await load_open_campaign(
                session, Place(place.guild_id, place.channel_id, user_id)
            )
            await _require_battle(session, campaign)
            outsider = seat_of(campaign, user_id).kind is SeatKind.OUTSIDER
            if spectator or outsider:
                require_gm(campaign, user_id)  # spectator links are everyone's: a GM ends them
                if is_closed(campaign):
                    raise PermissionDenied(_closed_to_spectators(campaign.name))
            holder = SPECTATOR if spectator else user_id
            row = await _counter(session, campaign.id, holder)
            row.counter += 1
            await session.flush()
            return await self._link(session, campaign, holder)

    async def reader(self, token: str, campaign_id: int) -> Reader:
        """Who holds this link now, for this campaign's pages; LinkRefused saying why not."""
        async with self.db.read() as session:
            secret = await session.scalar(select(WebSecret.secret).where(WebSecret.id == 1))
            if secret is None:
                raise LinkRefused(f"This link is not valid. {ASK_AGAIN}")
            claim = verify(secret, token)
            if claim.campaign_id != campaign_id:
                raise LinkRefused(f"This link is for another campaign's table. {ASK_AGAIN}")
            if claim.expires <= self.clock.now().timestamp():
                raise LinkRefused(
                    f"This link has expired (links last {LINK_DAYS} days). {ASK_AGAIN}"
                )
            campaign = await _campaign(session, campaign_id)
            counter = await session.scalar(
                select(WebLinkCounter.counter).where(
                    WebLinkCounter.campaign_id == campaign_id,
                    WebLinkCounter.user_id == claim.user_id,
                )
            )
            if (counter or 0) != claim.counter:
                raise LinkRefused(
                    f"This link was ended with `/battle table revoke:true`. {ASK_AGAIN}"
                )
            battle = await _require_battle(session, campaign)
            return _reader_of(campaign, battle, claim.user_id)

    async def csrf(self, token: str) -> str:
        """The page's anti-forgery token for a link: ``HMAC-SHA256(key, "csrf:" + token)`` in
        hex. Every write sends it back; another site's page cannot read it, so it writes
        nothing with the member's cookie."""
        async with self.db.read() as session:
            secret = await session.scalar(select(WebSecret.secret).where(WebSecret.id == 1))
        if secret is None:
            raise LinkRefused(f"This link is not valid. {ASK_AGAIN}")
        return hmac.new(secret, b"csrf:" + token.encode(), hashlib.sha256).hexdigest()

    async def open_link(self, token: str) -> tuple[Reader, int]:
        """A link being opened: its reader now and how many seconds it has left."""
        async with self.db.read() as session:
            secret = await session.scalar(select(WebSecret.secret).where(WebSecret.id == 1))
        if secret is None:
            raise LinkRefused(f"This link is not valid. {ASK_AGAIN}")
        claim = verify(secret, token)
        reader = await self.reader(token, claim.campaign_id)
        return reader, max(0, int(claim.expires - self.clock.now().timestamp()))

    async def database_answers(self) -> bool:
        """Whether the database answers a trivial query (``/health``)."""
        try:
            async with self.db.read() as session:
                answer: int | None = await session.scalar(text("SELECT 1"))
                return answer == 1
        except Exception:  # any failure is the answer: the database does not answer
            return False

    def _require_served(self) -> None:
        """Refuse a link the bot could not open (no war table served)."""
        if self.unavailable is not None:
            raise Conflict(self.unavailable)

    async def _link(self, session: AsyncSession, campaign: Campaign, holder: int) -> Link:
        """A fresh link for this holder under their current counter."""
        secret = await _secret(session)
        counter = (await _counter(session, campaign.id, holder)).counter
        expires_at = self.clock.now() + timedelta(days=LINK_DAYS)
        claim = Claim(holder, campaign.id, int(expires_at.timestamp()), counter)
        token = sign(secret, claim)
        url = f"{self.base_url}/t/{token}"
        return Link(url, token, expires_at, holder == SPECTATOR, campaign.name, campaign.id)


def _reader_of(campaign: Campaign, battle: Battle, user_id: int) -> Reader:
    """The reader of a verified link: a member as they sit now, or a spectator."""
    place = Place(campaign.guild_id, campaign.channel_id, user_id)
    if user_id == SPECTATOR:
        if is_closed(campaign):
            raise LinkRefused(
                f"**{campaign.name}** is now closed to spectators: only its members see its "
                "table. Ask a GM to admit you (`/campaign admit`), then ask for your own link "
                "with `/battle table`."
            )
        return Reader(campaign.id, None, place, seat_of(campaign, SPECTATOR, battle), battle.id)
    seat = seat_of(campaign, user_id, battle)
    if seat.kind is SeatKind.OUTSIDER:
        raise LinkRefused(
            f"You are no longer a member of **{campaign.name}**, so this personal link is "
            "ended. If a GM adds you again, ask for a new link with `/battle table`."
        )
    return Reader(campaign.id, user_id, place, seat, battle.id)


def _closed_to_spectators(name: str) -> str:
    return (
        f"**{name}** is a closed campaign: it has no spectator links. Members ask for their own "
        "link with `/battle table`; a GM opens it with `/campaign settings visibility:open`."
    )


async def _campaign(session: AsyncSession, campaign_id: int) -> Campaign:
    """The link's campaign while it is being played; LinkRefused once it is gone or over."""
    campaign = (
        (
            await session.execute(
                select(Campaign)
                .where(Campaign.id == campaign_id)
                .options(joinedload(Campaign.members), selectinload(Campaign.armies))
            )
        )
        .unique()
        .scalars()
        .first()
    )
    if campaign is None:
        raise LinkRefused("This campaign no longer exists, so its table is gone.")
    if campaign.status is CampaignStatus.FINISHED:
        raise LinkRefused(
            f"**{campaign.name}** is finished, so its war table is closed. "
            "`/battle replay` and `/battle report` still tell its battles."
        )
    return campaign


async def _require_battle(session: AsyncSession, campaign: Campaign) -> Battle:
    """The battle the table shows: the campaign's battle in play, else its latest."""
    found = await session.execute(
        select(Battle)
        .where(Battle.campaign_id == campaign.id)
        .options(joinedload(Battle.sides))
        .order_by((Battle.status == BattleStatus.FINISHED).asc(), Battle.id.desc())
        .limit(1)
    )
    battle = found.unique().scalars().first()
    if battle is None:
        raise LinkRefused(
            f"**{campaign.name}** has no battle yet, so there is no table to show. "
            "A GM starts one: `/battle create`."
        )
    return battle


async def _secret(session: AsyncSession) -> bytes:
    """The signing key, made (once, whoever comes first) if there is none."""
    found = await session.scalar(select(WebSecret.secret).where(WebSecret.id == 1))
    if found is not None:
        return found
    made = secrets.token_bytes(SECRET_BYTES)
    try:
        async with session.begin_nested():
            session.add(WebSecret(id=1, secret=made))
    except IntegrityError:  # another process made it first: theirs is the key
        again = await session.scalar(select(WebSecret.secret).where(WebSecret.id == 1))
        assert again is not None
        return again
    return made


async def _counter(session: AsyncSession, campaign_id: int, user_id: int) -> WebLinkCounter:
    """The holder's link counter, made at 0 the first time."""
    row = await session.scalar(
        select(WebLinkCounter).where(
            WebLinkCounter.campaign_id == campaign_id, WebLinkCounter.user_id == user_id
        )
    )
    if row is None:
        row = WebLinkCounter(campaign_id=campaign_id, user_id=user_id, counter=0)
        session.add(row)
        await session.flush()
    return row
