"""The persistent domain: campaigns, their members and their armies."""

from __future__ import annotations

import enum
from datetime import datetime
from typing import Any

from sqlalchemy import JSON, BigInteger, Enum, ForeignKey, Index, String, UniqueConstraint, text
from sqlalchemy.orm import Mapped, mapped_column, relationship

from bot.db.base import Base, UTCDateTime, utcnow


class CampaignStatus(enum.StrEnum):
    """Where a campaign stands: gathering players, playing, paused, or over."""

    LOBBY = "lobby"
    ACTIVE = "active"
    PAUSED = "paused"
    FINISHED = "finished"


class Role(enum.StrEnum):
    """What a member does in a campaign."""

    GM = "gm"
    PLAYER = "player"
    OBSERVER = "observer"


def _enum(kind: type[enum.Enum], name: str) -> Enum:
    # Stored as plain strings (no native enum, no CHECK) so adding a value needs no migration.
    return Enum(
        kind,
        name=name,
        native_enum=False,
        create_constraint=False,
        length=16,
        values_callable=lambda members: [m.value for m in members],
    )


class Campaign(Base):
    """A campaign: one ruleset, played in one channel of one server."""

    __tablename__ = "campaign"
    __table_args__ = (
        # One campaign that is not finished per channel; finished ones free the channel.
        Index(
            "uq_campaign_open_channel",
            "channel_id",
            unique=True,
            sqlite_where=text("status != 'finished'"),
            postgresql_where=text("status != 'finished'"),
        ),
        Index("ix_campaign_guild_id", "guild_id"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    guild_id: Mapped[int] = mapped_column(BigInteger)
    channel_id: Mapped[int] = mapped_column(BigInteger)
    name: Mapped[str] = mapped_column(String(100))
    ruleset_id: Mapped[str] = mapped_column(String(40))
    status: Mapped[CampaignStatus] = mapped_column(
        _enum(CampaignStatus, "campaign_status"), default=CampaignStatus.LOBBY
    )
    settings: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    created_by: Mapped[int] = mapped_column(BigInteger)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, onupdate=utcnow)

    members: Mapped[list[Membership]] = relationship(
        back_populates="campaign", cascade="all, delete-orphan", passive_deletes=True
    )
    armies: Mapped[list[Army]] = relationship(
        back_populates="campaign", cascade="all, delete-orphan", passive_deletes=True
    )


class Membership(Base):
    """A user's place in a campaign: role and, for players, a side."""

    __tablename__ = "membership"
    __table_args__ = (UniqueConstraint("campaign_id", "user_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    campaign_id: Mapped[int] = mapped_column(ForeignKey("campaign.id", ondelete="CASCADE"))
    user_id: Mapped[int] = mapped_column(BigInteger)
    role: Mapped[Role] = mapped_column(_enum(Role, "member_role"))
    side: Mapped[str | None] = mapped_column(String(50))
    joined_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)

    campaign: Mapped[Campaign] = relationship(back_populates="members")


class Army(Base):
    """An army list owned by a member, validated against the campaign's roster schema."""

    __tablename__ = "army"
    __table_args__ = (UniqueConstraint("campaign_id", "name"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    campaign_id: Mapped[int] = mapped_column(ForeignKey("campaign.id", ondelete="CASCADE"))
    owner_id: Mapped[int] = mapped_column(BigInteger)
    name: Mapped[str] = mapped_column(String(100))
    roster: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, onupdate=utcnow)

    campaign: Mapped[Campaign] = relationship(back_populates="armies")
