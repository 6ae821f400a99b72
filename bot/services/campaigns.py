"""Campaigns and their members: create, join, leave, GMs, close."""

from __future__ import annotations

import builtins
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from functools import partial
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import joinedload, selectinload

from bot.db.models import (
    Battle,
    BattleSide,
    BattleStatus,
    Campaign,
    CampaignStatus,
    Membership,
    Role,
)
from bot.errors import ClosedCampaign, Conflict, InvalidInput, NotFound, PermissionDenied
from bot.services import settings
from bot.services.base import Service
from bot.services.names import tidy
from bot.services.settings import DeadlinePolicy, validated
from rules_core import registry

OPEN_STATUSES = (CampaignStatus.LOBBY, CampaignStatus.ACTIVE, CampaignStatus.PAUSED)


@dataclass(frozen=True)
class Place:
    """Where a command was used: the server and the campaign's channel, and who used it.

    ``user_id`` is who asks: loading the channel's campaign refuses an outsider of a closed
    campaign (``bot.services.seats``), so every service reading through a place is gated. None
    is the bot itself (deadlines, the demo), which reads everything.
    """

    guild_id: int
    channel_id: int
    user_id: int | None = None


@dataclass(frozen=True)
class MemberInfo:
    """A member as the cogs show it."""

    user_id: int
    role: Role
    side: str | None


@dataclass(frozen=True)
class CampaignInfo:
    """A campaign as the cogs show it."""

    id: int
    name: str
    ruleset_id: str
    ruleset_name: str
    status: CampaignStatus
    guild_id: int
    channel_id: int
    created_at: datetime
    members: tuple[MemberInfo, ...]
    army_names: tuple[str, ...]
    closed: bool = False  # only members see it (settings' visibility)

    @property
    def gms(self) -> tuple[int, ...]:
        """User ids of the GMs."""
        return tuple(m.user_id for m in self.members if m.role is Role.GM)

    def sides(self) -> dict[str, list[int]]:
        """Players (and GMs who play) grouped by side, in joining order."""
        grouped: dict[str, list[int]] = {}
        for member in self.members:
            if member.side:
                grouped.setdefault(member.side, []).append(member.user_id)
        return grouped


@dataclass(frozen=True)
class Removal:
    """A player a GM removed from the campaign, and what passed to that GM."""

    campaign_name: str
    user_id: int
    gm_id: int  # who removed them, and now runs what they had
    side: str | None  # the side they had joined
    armies: tuple[str, ...]  # their armies, now the GM's
    battle_sides: tuple[str, ...]  # sides of the open battle they owned, now run by the GM
    groups: tuple[str, ...]  # groups they commanded, back with their side's owner


def campaign_info(campaign: Campaign) -> CampaignInfo:
    """Plain data for a loaded campaign (members and armies eagerly loaded)."""
    ruleset = registry.get(campaign.ruleset_id)
    members = sorted(campaign.members, key=lambda m: (m.joined_at, m.id))
    return CampaignInfo(
        id=campaign.id,
        name=campaign.name,
        ruleset_id=campaign.ruleset_id,
        ruleset_name=ruleset.name,
        status=campaign.status,
        guild_id=campaign.guild_id,
        channel_id=campaign.channel_id,
        created_at=campaign.created_at,
        members=tuple(MemberInfo(m.user_id, m.role, m.side) for m in members),
        army_names=tuple(sorted(a.name for a in campaign.armies)),
        closed=is_closed(campaign),
    )


async def load_open_campaign(session: AsyncSession, place: Place) -> Campaign:
    """The campaign that is not finished in this channel, with members and armies loaded."""
    # Members joined (one query fewer on every command; armies, with their rosters, apart).
    found = await session.execute(
        select(Campaign)
        .where(
            Campaign.guild_id == place.guild_id,
            Campaign.channel_id == place.channel_id,
            Campaign.status.in_(OPEN_STATUSES),
        )
        .options(joinedload(Campaign.members), selectinload(Campaign.armies))
    )
    campaign = found.unique().scalars().first()
    if campaign is None:
        raise NotFound(
            "There is no campaign in this channel. "
            "Use `/campaign create` here, or go to a campaign's channel (`/campaign list`)."
        )
    if place.user_id is not None:
        require_reader(campaign, place.user_id)
    return campaign


def is_closed(campaign: Campaign) -> bool:
    """Whether only the campaign's members may see it (its settings' visibility)."""
    return settings.load(campaign).visibility == "closed"


def require_reader(campaign: Campaign, user_id: int) -> None:
    """Refuse an outsider of a closed campaign: they see nothing of it, and change nothing."""
    if is_closed(campaign) and find_member(campaign, user_id) is None:
        raise ClosedCampaign(campaign.name)


def find_member(campaign: Campaign, user_id: int) -> Membership | None:
    """The user's membership of the campaign, if any."""
    return next((m for m in campaign.members if m.user_id == user_id), None)


def require_gm(campaign: Campaign, user_id: int) -> None:
    """Raise PermissionDenied unless the user is a GM of the campaign."""
    member = find_member(campaign, user_id)
    if member is None or member.role is not Role.GM:
        raise PermissionDenied(gm_only(campaign.name))


def gm_only(campaign: str) -> str:
    """The refusal of a GM-only command to anyone else, saying where the GMs are named."""
    return f"Only a GM of **{campaign}** can do that; `/campaign info` names its GMs."


def clean_text(value: str, what: str, limit: int) -> str:
    """Strip the text and check it is 1..limit characters, or raise InvalidInput."""
    cleaned = tidy(value)
    if not cleaned:
        raise InvalidInput(f"The {what} cannot be empty.")
    if len(cleaned) > limit:
        raise InvalidInput(f"The {what} must be at most {limit} characters (got {len(cleaned)}).")
    return cleaned


class CampaignService(Service):
    """Everything about campaigns and membership; each call is one database session."""

    async def create(self, place: Place, user_id: int, name: str, ruleset_id: str) -> CampaignInfo:
        """Create a campaign in this channel with the caller as its first GM."""
        name = clean_text(name, "campaign name", 100)
        ruleset = _known_ruleset(ruleset_id)
        async with self.db.write() as session:
            existing = await session.scalar(
                select(Campaign).where(
                    Campaign.channel_id == place.channel_id, Campaign.status.in_(OPEN_STATUSES)
                )
            )
            if existing is not None:
                await session.refresh(existing, ["members"])
                require_reader(existing, user_id)  # an outsider of a closed one is told so
                raise Conflict(
                    f"This channel already hosts the campaign **{existing.name}**. "
                    "Close it first (`/campaign close`) or create the new one in another channel."
                )
            campaign = Campaign(
                guild_id=place.guild_id,
                channel_id=place.channel_id,
                name=name,
                ruleset_id=ruleset.id,
                created_by=user_id,
                settings={},  # every setting at its default
                members=[Membership(user_id=user_id, role=Role.GM)],
                armies=[],
            )
            session.add(campaign)
            await session.flush()
            return campaign_info(campaign)

    async def info(self, place: Place) -> CampaignInfo:
        """The campaign of this channel."""
        async with self.db.read() as session:
            return campaign_info(await load_open_campaign(session, place))

    async def list(
        self, guild_id: int, *, include_finished: bool = False, user_id: int | None = None
    ) -> list[CampaignInfo]:
        """Campaigns of this server, newest first; given who asks, the closed campaigns they
        are no member of are left out."""
        query = (
            select(Campaign)
            .where(Campaign.guild_id == guild_id)
            .options(selectinload(Campaign.members), selectinload(Campaign.armies))
            .order_by(Campaign.created_at.desc(), Campaign.id.desc())
        )
        if not include_finished:
            query = query.where(Campaign.status.in_(OPEN_STATUSES))
        async with self.db.read() as session:
            return [
                campaign_info(c)
                for c in await session.scalars(query)
                if user_id is None or not is_closed(c) or find_member(c, user_id) is not None
            ]

    async def join(self, place: Place, user_id: int, side: str | None) -> CampaignInfo:
        """Join as a player on a side, or as an observer when no side is given."""
        side = clean_text(side, "side", 50) if side is not None else None
        return await self._change_member(place, user_id, partial(_join, user_id=user_id, side=side))

    async def leave(self, place: Place, user_id: int) -> CampaignInfo:
        """Leave the campaign; the last GM and owners of armies cannot."""
        async with self.db.write() as session:
            campaign = await load_open_campaign(session, place)
            member = find_member(campaign, user_id)
            if member is None:
                raise NotFound(f"You are not a member of **{campaign.name}**.")
            owned = sorted(a.name for a in campaign.armies if a.owner_id == user_id)
            if owned:
                raise Conflict(
                    "You still own armies in this campaign: "
                    + ", ".join(f"**{n}**" for n in owned)
                    + ". Remove them with `/army remove` first."
                )
            if member.role is Role.GM and len(_gm_members(campaign)) == 1:
                raise Conflict(
                    "You are the only GM. Add another GM with `/campaign gm add` "
                    "or close the campaign with `/campaign close`."
                )
            campaign.members.remove(member)
            await session.delete(member)
            await session.flush()
            return campaign_info(campaign)

    async def add_gm(self, place: Place, actor_id: int, user_id: int) -> CampaignInfo:
        """Make a user a GM (a GM only); a player keeps their side."""
        return await self._change_member(
            place, user_id, partial(_make_gm, user_id=user_id), by_gm=actor_id
        )

    async def remove_gm(self, place: Place, actor_id: int, user_id: int) -> CampaignInfo:
        """Take the GM role from a user (a GM only); the last GM stays."""
        return await self._change_member(place, user_id, _unmake_gm, by_gm=actor_id)

    async def _change_member(
        self,
        place: Place,
        user_id: int,
        change: Callable[[Campaign, Membership | None], None],
        *,
        by_gm: int | None = None,
    ) -> CampaignInfo:
        """One change to a user's membership of the channel's campaign, in one write; made by a
        GM when ``by_gm`` names who makes it."""
        async with self.db.write() as session:
            campaign = await load_open_campaign(session, place)
            if by_gm is not None:
                require_gm(campaign, by_gm)
            change(campaign, find_member(campaign, user_id))
            await session.flush()
            return campaign_info(campaign)

    async def check_can_remove_member(self, place: Place, actor_id: int, user_id: int) -> str:
        """Raise unless a GM may remove this member (used before asking to confirm); the
        campaign's name."""
        async with self.db.read() as session:
            campaign = await load_open_campaign(session, place)
            _removable(campaign, actor_id, user_id)
            return campaign.name

    async def remove_member(self, place: Place, actor_id: int, user_id: int) -> Removal:
        """Remove a player or observer (a GM only): their armies and the open battle's sides
        they owned pass to the GM who removes them (GM-run from now on), the groups they
        commanded go back to their side's owner, and their seat is gone."""
        async with self.db.write() as session:
            campaign = await load_open_campaign(session, place)
            member = _removable(campaign, actor_id, user_id)
            armies = sorted(a.name for a in campaign.armies if a.owner_id == user_id)
            for army in campaign.armies:
                if army.owner_id == user_id:
                    army.owner_id = actor_id
            owned: list[str] = []
            groups: list[str] = []
            battles = await session.scalars(
                select(Battle)
                .where(
                    Battle.campaign_id == campaign.id,
                    Battle.status.in_(
                        (BattleStatus.SETUP, BattleStatus.RUNNING, BattleStatus.PAUSED)
                    ),
                )
                .options(selectinload(Battle.sides))
            )
            for battle in battles:
                names = {g["id"]: g["name"] for g in battle.state.get("groups", ())}
                for row in battle.sides:
                    owned += _hand_over(row, user_id, actor_id)
                    kept = {g: u for g, u in (row.commanders or {}).items() if u != user_id}
                    groups += [names.get(g, g) for g in row.commanders or {} if g not in kept]
                    if row.commanders and kept != row.commanders:
                        row.commanders = kept
            side = member.side
            campaign.members.remove(member)
            await session.delete(member)
            await session.flush()
            return Removal(
                campaign.name, user_id, actor_id, side, tuple(armies), tuple(owned), tuple(groups)
            )

    async def set_visibility(self, place: Place, actor_id: int, visibility: str) -> CampaignInfo:
        """Open the campaign to anyone in the server, or close it to its members (a GM only)."""
        async with self.db.write() as session:
            campaign = await load_open_campaign(session, place)
            require_gm(campaign, actor_id)
            current = settings.load(campaign)
            settings.save(campaign, current.changed(visibility=visibility))
            return campaign_info(campaign)

    async def set_dm_calls(self, place: Place, user_id: int, on: bool) -> CampaignInfo:
        """A member's choice to get their calls to arms by direct message as well."""
        async with self.db.write() as session:
            campaign = await load_open_campaign(session, place)
            member = find_member(campaign, user_id)
            if member is None:
                raise NotFound(f"You are not in **{campaign.name}**: `/campaign join` it first.")
            member.dm_calls = on
            await session.flush()
            return campaign_info(campaign)

    async def admit(self, place: Place, actor_id: int, user_id: int) -> CampaignInfo:
        """Add a user as an observer (a GM only): in a closed campaign, the way in."""
        async with self.db.write() as session:
            campaign = await load_open_campaign(session, place)
            require_gm(campaign, actor_id)
            member = find_member(campaign, user_id)
            if member is not None:
                raise Conflict(
                    f"That member is already in **{campaign.name}** as {member.role.value}."
                )
            campaign.members.append(Membership(user_id=user_id, role=Role.OBSERVER))
            await session.flush()
            return campaign_info(campaign)

    async def check_can_close(self, place: Place, actor_id: int) -> CampaignInfo:
        """Raise unless the user may close this channel's campaign; used before confirming."""
        async with self.db.read() as session:
            campaign = await load_open_campaign(session, place)
            require_gm(campaign, actor_id)
            return campaign_info(campaign)

    async def close(self, place: Place, actor_id: int) -> CampaignInfo:
        """Finish the campaign (a GM only); its channel is then free for a new one."""
        async with self.db.write() as session:
            campaign = await load_open_campaign(session, place)
            require_gm(campaign, actor_id)
            campaign.status = CampaignStatus.FINISHED
            await session.flush()
            return campaign_info(campaign)

    async def set_deadlines(
        self,
        place: Place,
        actor_id: int,
        step_hours: float | None,
        reminders: str | None,
        decision_hours: float | None,
        missing: str | None,
    ) -> DeadlinePolicy:
        """Change the campaign's deadline policy (a GM only); it applies from the next step."""
        changes = _deadline_changes(step_hours, reminders, decision_hours, missing)
        async with self.db.write() as session:
            campaign = await load_open_campaign(session, place)
            require_gm(campaign, actor_id)
            current = settings.load(campaign)
            policy = validated(DeadlinePolicy, {**current.deadlines.model_dump(), **changes})
            settings.save(campaign, current.changed(deadlines=policy))
            return policy

    async def check_gm(self, place: Place, user_id: int) -> CampaignInfo:
        """This channel's campaign, if the user is one of its GMs; refuses anyone else."""
        async with self.db.read() as session:
            campaign = await load_open_campaign(session, place)
            require_gm(campaign, user_id)
            return campaign_info(campaign)

    async def side_names(self, place: Place) -> builtins.list[str]:
        """Sides already chosen in this channel's campaign (for autocomplete)."""
        async with self.db.read() as session:
            try:
                campaign = await load_open_campaign(session, place)
            except (NotFound, ClosedCampaign):
                return []
            return sorted({m.side for m in campaign.members if m.side})


def _deadline_changes(
    step_hours: float | None,
    reminders: str | None,
    decision_hours: float | None,
    missing: str | None,
) -> dict[str, Any]:
    """The policy fields the GM gave, reminders read from ``24,1``; the model checks them."""
    given = {"step_hours": step_hours, "decision_hours": decision_hours, "missing": missing}
    changes: dict[str, Any] = {key: value for key, value in given.items() if value is not None}
    if reminders is not None:
        try:
            before = [float(h) for h in reminders.replace(" ", "").split(",") if h]
        except ValueError:
            raise InvalidInput(
                f"Malformed reminders `{reminders}`: hours before, e.g. `24,1`."
            ) from None
        changes["reminder_hours"] = before
    if not changes:
        raise InvalidInput("Nothing to change: give at least one setting.")
    return changes


def _join(campaign: Campaign, member: Membership | None, *, user_id: int, side: str | None) -> None:
    """Seat a user on a side, or as an observer without one; an admitted observer takes a side
    and a GM who also plays keeps the GM role."""
    if member is not None and member.role is Role.OBSERVER and side is not None:
        _check_side_count(campaign, side)
        member.role, member.side = Role.PLAYER, side
        return
    if member is not None and (member.role is not Role.GM or member.side):
        where = f" on side **{member.side}**" if member.side else ""
        raise Conflict(
            f"You have already joined **{campaign.name}** as {member.role.value}{where}. "
            "Use `/campaign leave` first to change."
        )
    if side is not None:
        _check_side_count(campaign, side)
    if member is None:
        role = Role.PLAYER if side else Role.OBSERVER
        campaign.members.append(Membership(user_id=user_id, role=role, side=side))
    elif side is None:
        raise Conflict(f"You are already a GM of **{campaign.name}**.")
    else:
        member.side = side


def _make_gm(campaign: Campaign, member: Membership | None, *, user_id: int) -> None:
    """Give a user the GM role, a new member if need be."""
    if member is not None and member.role is Role.GM:
        raise Conflict(f"That member is already a GM of **{campaign.name}**.")
    if member is None:
        campaign.members.append(Membership(user_id=user_id, role=Role.GM))
    else:
        member.role = Role.GM


def _unmake_gm(campaign: Campaign, member: Membership | None) -> None:
    """Take the GM role from a member, back to player (with a side) or observer."""
    if member is None or member.role is not Role.GM:
        raise NotFound(f"That member is not a GM of **{campaign.name}**.")
    if len(_gm_members(campaign)) == 1:
        raise Conflict("A campaign needs at least one GM; add another GM first.")
    member.role = Role.PLAYER if member.side else Role.OBSERVER


def _removable(campaign: Campaign, actor_id: int, user_id: int) -> Membership:
    """The member a GM may remove: anyone but a GM (take the role first)."""
    require_gm(campaign, actor_id)
    member = find_member(campaign, user_id)
    if member is None:
        raise NotFound(f"That member is not in **{campaign.name}**; `/campaign info` lists who is.")
    if member.role is Role.GM:
        raise Conflict(
            "A GM cannot be removed: take the GM role first with `/campaign gm remove`, "
            "then remove them."
        )
    return member


def _hand_over(row: BattleSide, user_id: int, gm_id: int) -> list[str]:
    """Give a battle side the removed player owned to the GM; its name, if it was theirs."""
    if row.owner_id != user_id:
        return []
    row.owner_id = gm_id
    return [row.name]


def _known_ruleset(ruleset_id: str) -> registry.Ruleset:
    try:
        return registry.get(ruleset_id)
    except KeyError:
        known = ", ".join(r.id for r in registry.all_rulesets())
        raise InvalidInput(f"Unknown ruleset `{ruleset_id}`. Choose one of: {known}.") from None


def _gm_members(campaign: Campaign) -> list[Membership]:
    return [m for m in campaign.members if m.role is Role.GM]


def _check_side_count(campaign: Campaign, side: str) -> None:
    """Refuse a new side beyond the most the ruleset's battles take (exactly two for the
    sheet rulesets); joining a side that exists is always fine."""
    rules = registry.get(campaign.ruleset_id).rules
    if rules is None:
        return
    taken = {m.side.casefold(): m.side for m in campaign.members if m.side}
    if side.casefold() in taken or len(taken) < rules.sides[1]:
        return
    names = " and ".join(f"**{name}**" for name in sorted(taken.values()))
    count = rules.sides[1]
    raise Conflict(
        f"{registry.get(campaign.ruleset_id).name} battles take at most {count} sides, and "
        f"{names} are taken: join one of them."
    )
