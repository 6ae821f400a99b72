"""The persistent domain: campaigns, their members and their armies."""

from __future__ import annotations

import enum
from datetime import datetime
from typing import Annotated, Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Enum,
    ForeignKey,
    Index,
    LargeBinary,
    String,
    UniqueConstraint,
    false,
    text,
)
from sqlalchemy.orm import Mapped, mapped_column, relationship

from bot.db.base import Base, StateJSON, UTCDateTime, utcnow


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


# Column shapes many tables share (SQLAlchemy's ``Annotated`` mapping), declared once.
IntPk = Annotated[int, mapped_column(primary_key=True)]
Snowflake = Annotated[int, mapped_column(BigInteger)]  # a Discord id: a user, guild or channel
CampaignRef = Annotated[int, mapped_column(ForeignKey("campaign.id", ondelete="CASCADE"))]
BattleRef = Annotated[int, mapped_column(ForeignKey("battle.id", ondelete="CASCADE"))]
WrittenAt = Annotated[datetime, mapped_column(UTCDateTime, default=utcnow)]  # when added
UpdatedAt = Annotated[datetime, mapped_column(UTCDateTime, default=utcnow, onupdate=utcnow)]


def _owned(parent: str) -> Any:
    """The rows a parent owns: deleted with it (by the database's cascade too)."""
    return relationship(back_populates=parent, cascade="all, delete-orphan", passive_deletes=True)


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

    id: Mapped[IntPk]
    guild_id: Mapped[Snowflake]
    channel_id: Mapped[Snowflake]
    name: Mapped[str] = mapped_column(String(100))
    ruleset_id: Mapped[str] = mapped_column(String(40))
    status: Mapped[CampaignStatus] = mapped_column(
        _enum(CampaignStatus, "campaign_status"), default=CampaignStatus.LOBBY
    )
    settings: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)  # bot.services.settings
    created_by: Mapped[Snowflake]
    created_at: Mapped[WrittenAt]
    updated_at: Mapped[UpdatedAt]
    # Bumped by every ORM write to the campaign, its members or its armies (bot.db.versioning):
    # a resolution's write is given what its rehearsal loaded only while it is unchanged.
    version: Mapped[int] = mapped_column(default=0, server_default="0")

    members: Mapped[list[Membership]] = _owned("campaign")
    armies: Mapped[list[Army]] = _owned("campaign")


class Membership(Base):
    """A user's place in a campaign: role and, for players, a side."""

    __tablename__ = "membership"
    __table_args__ = (UniqueConstraint("campaign_id", "user_id"),)

    id: Mapped[IntPk]
    campaign_id: Mapped[CampaignRef]
    user_id: Mapped[Snowflake]
    role: Mapped[Role] = mapped_column(_enum(Role, "member_role"))
    side: Mapped[str | None] = mapped_column(String(50))
    joined_at: Mapped[WrittenAt]
    # Calls to arms also by direct message (``/campaign dm``); off until the member opts in.
    dm_calls: Mapped[bool] = mapped_column(default=False, server_default=false())

    campaign: Mapped[Campaign] = relationship(back_populates="members")


class Army(Base):
    """An army list owned by a member, validated against the campaign's roster schema."""

    __tablename__ = "army"
    __table_args__ = (UniqueConstraint("campaign_id", "name"),)

    id: Mapped[IntPk]
    campaign_id: Mapped[CampaignRef]
    owner_id: Mapped[Snowflake]
    name: Mapped[str] = mapped_column(String(100))
    roster: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[WrittenAt]
    updated_at: Mapped[UpdatedAt]

    campaign: Mapped[Campaign] = relationship(back_populates="armies")


class BattleStatus(enum.StrEnum):
    """Where a battle stands: being set up, in play, paused by a GM, or over."""

    SETUP = "setup"
    RUNNING = "running"
    PAUSED = "paused"
    FINISHED = "finished"


class DeadlineKind(enum.StrEnum):
    """What a deadline does when it fires."""

    STEP = "step"  # resolve the step with default orders for whoever is missing
    REMINDER = "reminder"  # ping those who have not submitted
    DECISION = "decision"  # answer a pending question with its default


class DeadlineStatus(enum.StrEnum):
    """A deadline is pending until it fires once or is cancelled."""

    PENDING = "pending"
    FIRED = "fired"
    CANCELLED = "cancelled"


class Battle(Base):
    """A battle of a campaign: its secret seed, current rules state and where play stands.

    ``stage`` counts every point at which the battle waits for input; orders, confirmations
    and deadlines belong to one stage, and resolving moves the stage on in one transaction,
    which is what makes a resolution happen exactly once.
    """

    __tablename__ = "battle"
    __table_args__ = (
        Index(
            "uq_battle_open_campaign",
            "campaign_id",
            unique=True,
            sqlite_where=text("status != 'finished'"),
            postgresql_where=text("status != 'finished'"),
        ),
        # Loading a campaign's battle in some statuses reads a few rows, not the whole table.
        Index("ix_battle_campaign_id_status", "campaign_id", "status"),
    )

    id: Mapped[IntPk]
    campaign_id: Mapped[CampaignRef]
    name: Mapped[str] = mapped_column(String(100))
    ruleset_id: Mapped[str] = mapped_column(String(40))
    status: Mapped[BattleStatus] = mapped_column(
        _enum(BattleStatus, "battle_status"), default=BattleStatus.SETUP
    )
    seed: Mapped[str] = mapped_column(String(64))  # hex; secret until the battle ends
    seed_sha256: Mapped[str] = mapped_column(String(64))
    state: Mapped[dict[str, Any]] = mapped_column(StateJSON)
    initial_state: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    # What the state waits for, worked out where it was made (bot.services.stored_waiting).
    waiting: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    stage: Mapped[int] = mapped_column(default=0)
    stage_started_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    deadline_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    paused_left_s: Mapped[float | None] = mapped_column()
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    created_by: Mapped[Snowflake]
    created_at: Mapped[WrittenAt]
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    # Bumped by every write to the battle or its rows (bot.db.versioning): a resolution worked
    # out from a read keeps its result only if the version is still the one it read.
    version: Mapped[int] = mapped_column(default=0, server_default="0")

    sides: Mapped[list[BattleSide]] = _owned("battle")


class BattleSide(Base):
    """One side of a battle: the army it fields and the player who gives its orders."""

    __tablename__ = "battle_side"
    __table_args__ = (UniqueConstraint("battle_id", "side_id"),)

    id: Mapped[IntPk]
    battle_id: Mapped[BattleRef]
    side_id: Mapped[str] = mapped_column(String(40))
    name: Mapped[str] = mapped_column(String(100))
    army_id: Mapped[int | None] = mapped_column(ForeignKey("army.id", ondelete="SET NULL"))
    owner_id: Mapped[Snowflake]
    # Several players on one side: group id -> the member who orders it (none: the owner does all).
    commanders: Mapped[dict[str, int] | None] = mapped_column(JSON)
    # Players a GM handed the side away from (/battle hand-over): they act for it no more,
    # though they joined it by name, until it is handed back to them.
    handed_away: Mapped[list[int] | None] = mapped_column(JSON)
    # The AI general's thinking for this side in one game turn (#36, AI_SECONDS_PER_TURN is
    # shared by the turn's steps): the turn, and the CPU seconds spent in it so far.
    ai_turn: Mapped[int | None] = mapped_column()
    ai_spent: Mapped[float] = mapped_column(default=0.0, server_default=text("0"))

    battle: Mapped[Battle] = relationship(back_populates="sides")


class StageLog(Base):
    """History of one stage: the state it started from, its orders and what resolving did."""

    __tablename__ = "stage_log"
    __table_args__ = (UniqueConstraint("battle_id", "number"),)

    id: Mapped[IntPk]
    battle_id: Mapped[BattleRef]
    number: Mapped[int] = mapped_column()
    turn: Mapped[int] = mapped_column()
    step: Mapped[str] = mapped_column(String(60))
    title: Mapped[str] = mapped_column(String(100))
    start_state: Mapped[dict[str, Any]] = mapped_column(JSON)
    started_at: Mapped[WrittenAt]
    orders: Mapped[list[Any] | None] = mapped_column(JSON)
    events: Mapped[list[Any] | None] = mapped_column(JSON)
    resolved_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    trigger: Mapped[str | None] = mapped_column(String(40))
    missing: Mapped[list[Any] | None] = mapped_column(JSON)
    # What the list of the battle's losses reads of a stage, kept so that no report decodes
    # earlier states (#38; None in rows from before it): the start state's units as
    # rules_core.render.unit_names gives them, and once resolved its events' gone_reasons.
    unit_names: Mapped[list[Any] | None] = mapped_column(JSON)
    gone_reasons: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    # The outbox marker: set once the result that opened this stage (and its question) is posted.
    announced_at: Mapped[datetime | None] = mapped_column(UTCDateTime)


class RecordEntry(Base):
    """One call on the rules engine, in order: what ``rules_core.verify`` replays."""

    __tablename__ = "record_entry"
    __table_args__ = (
        UniqueConstraint("battle_id", "seq"),
        # ``/gm undo`` asks for the highest attempt used at a step: one seek down this index.
        Index("ix_record_entry_battle_step_attempt", "battle_id", "turn", "step", "attempt"),
    )

    id: Mapped[IntPk]
    battle_id: Mapped[BattleRef]
    seq: Mapped[int] = mapped_column()
    entry: Mapped[dict[str, Any]] = mapped_column(JSON)
    # Copied from ``entry`` when it is written, so that no query has to open the JSON.
    turn: Mapped[int] = mapped_column()
    step: Mapped[str] = mapped_column(String(60))
    attempt: Mapped[int] = mapped_column()


class _OrderColumns:
    """What an order says, given for the open stage or planned for a later step."""

    side_id: Mapped[str] = mapped_column(String(40))
    user_id: Mapped[Snowflake]
    actor: Mapped[str] = mapped_column(String(60))
    seq: Mapped[int] = mapped_column(default=0, server_default=text("0"))
    kind: Mapped[str] = mapped_column(String(40))
    params: Mapped[dict[str, Any]] = mapped_column(JSON)
    summary: Mapped[str] = mapped_column(String(400))


class BattleOrder(_OrderColumns, Base):
    """An order given for one stage; secret until the stage resolves, replaceable until then.

    ``actor`` is a unit, leader, group or side id (the order kind says which); an actor giving
    several orders in a stage has one row each, ``seq`` keeping the order they were given in.
    """

    __tablename__ = "battle_order"
    __table_args__ = (UniqueConstraint("battle_id", "stage", "actor", "seq"),)

    id: Mapped[IntPk]
    battle_id: Mapped[BattleRef]
    stage: Mapped[int] = mapped_column()
    submitted_at: Mapped[WrittenAt]
    # Why the AI general gave it (its one-line reason); None for a player's order.
    reason: Mapped[str | None] = mapped_column(String(300))


class PlannedOrder(_OrderColumns, Base):
    """An order planned for a later step of the current game turn, kept under the step's key
    (``planning.step_key``: turn, step, side, subject); secret like every order. When play
    reaches the step it becomes that stage's order (or, judged illegal, falls back on the
    default, unless ``consult``: then its player is asked again). ``alternatives`` are the
    orders tried in turn before the default, each ``{"kind", "params", "summary"}``; sealed
    with the order."""

    __tablename__ = "planned_order"
    __table_args__ = (Index("ix_planned_order_battle_step", "battle_id", "step_key"),)

    id: Mapped[IntPk]
    battle_id: Mapped[BattleRef]
    turn: Mapped[int] = mapped_column()
    step_key: Mapped[str] = mapped_column(String(160))
    step_title: Mapped[str] = mapped_column(String(200))
    consult: Mapped[bool] = mapped_column(default=False, server_default=false())
    alternatives: Mapped[list[Any] | None] = mapped_column(JSON)
    submitted_at: Mapped[WrittenAt]


class TurnPlan(Base):
    """A player's part of a game turn: when it was called to arms and by when its plan is
    due (once the player has ``planned`` an order ahead, the deadline of every step of that
    part), and whether the player is done for the rest of the turn (``/order done
    turn:true``). ``side_id`` is the key a
    confirmation is kept under (``Loaded.key_of``)."""

    __tablename__ = "turn_plan"
    __table_args__ = (UniqueConstraint("battle_id", "turn", "side_id"),)

    id: Mapped[IntPk]
    battle_id: Mapped[BattleRef]
    turn: Mapped[int] = mapped_column()
    side_id: Mapped[str] = mapped_column(String(60))
    user_id: Mapped[int] = mapped_column(BigInteger, default=0, server_default=text("0"))
    called_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    called_stage: Mapped[int | None] = mapped_column(nullable=True)  # the stage it opened
    due_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)  # the call's
    planned: Mapped[bool] = mapped_column(default=False, server_default=false())
    done_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)


class Readiness(Base):
    """A side's confirmation that its orders for a stage are complete."""

    __tablename__ = "readiness"
    __table_args__ = (UniqueConstraint("battle_id", "stage", "side_id"),)

    id: Mapped[IntPk]
    battle_id: Mapped[BattleRef]
    stage: Mapped[int] = mapped_column()
    side_id: Mapped[str] = mapped_column(String(40))
    user_id: Mapped[Snowflake]
    confirmed_at: Mapped[WrittenAt]


class AiAnswer(Base):
    """An answer the AI general gave a question put to a side (#36), with its one-line reason:
    the answer itself is in the record; the reason is the GM's at once, everyone's once the
    step has resolved."""

    __tablename__ = "ai_answer"

    id: Mapped[IntPk]
    battle_id: Mapped[BattleRef]
    stage: Mapped[int] = mapped_column()  # the stage (the question) it answered
    side_id: Mapped[str] = mapped_column(String(40))
    question: Mapped[str] = mapped_column(String(300))
    choice: Mapped[str] = mapped_column(String(200))
    reason: Mapped[str] = mapped_column(String(300))
    # A private question's answer is its side's and the GM's: never in everyone's post.
    private: Mapped[bool] = mapped_column(default=False, server_default=false())
    given_at: Mapped[WrittenAt]


class StandingInstruction(Base):
    """How a side (or one of its units) answers a kind of question the rules ask again and
    again, without waiting for its player (``rules_core.standing``)."""

    __tablename__ = "standing_instruction"
    __table_args__ = (Index("ix_standing_instruction_battle_id", "battle_id"),)

    id: Mapped[IntPk]
    battle_id: Mapped[BattleRef]
    side_id: Mapped[str] = mapped_column(String(40))
    unit_id: Mapped[str | None] = mapped_column(String(40), nullable=True)
    topic: Mapped[str] = mapped_column(String(40))
    condition: Mapped[str] = mapped_column(String(40), default="")
    choice: Mapped[str] = mapped_column(String(40))
    set_by: Mapped[Snowflake]
    set_at: Mapped[WrittenAt]


class Deadline(Base):
    """A time at which something must happen; the scheduler is only a cache of these rows."""

    __tablename__ = "deadline"
    __table_args__ = (
        Index("ix_deadline_status_due_at", "status", "due_at"),
        Index("ix_deadline_battle_id_status", "battle_id", "status"),
    )

    id: Mapped[IntPk]
    battle_id: Mapped[BattleRef]
    stage: Mapped[int] = mapped_column()
    kind: Mapped[DeadlineKind] = mapped_column(_enum(DeadlineKind, "deadline_kind"))
    due_at: Mapped[datetime] = mapped_column(UTCDateTime)
    status: Mapped[DeadlineStatus] = mapped_column(
        _enum(DeadlineStatus, "deadline_status"), default=DeadlineStatus.PENDING
    )
    fired_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    note: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)


class CampaignMap(Base):
    """A campaign's strategic map (``bot.services.campaign_map``): its regions with their
    centres, outlines and neighbours as imported, who holds each region, where each army
    stands, the campaign turn, and the battles the map is waiting on (battle id -> the region
    fought over and where each army that marched in came from)."""

    __tablename__ = "campaign_map"

    id: Mapped[IntPk]
    campaign_id: Mapped[int] = mapped_column(
        ForeignKey("campaign.id", ondelete="CASCADE"), unique=True
    )
    name: Mapped[str] = mapped_column(String(100))
    regions: Mapped[list[Any]] = mapped_column(JSON)
    holders: Mapped[dict[str, str]] = mapped_column(JSON, default=dict)  # region -> side
    positions: Mapped[dict[str, str]] = mapped_column(JSON, default=dict)  # army id -> region
    battles: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    turn: Mapped[int] = mapped_column(default=1)
    # The map's picture under the regions (a PNG the bot re-encoded), if the GM gave one.
    background: Mapped[bytes | None] = mapped_column(LargeBinary, nullable=True)
    created_by: Mapped[Snowflake]
    updated_at: Mapped[UpdatedAt]


class MapMove(Base):
    """An army's move on the campaign map for one campaign turn: sealed (only its owner sees
    it) until a GM resolves the turn; replaceable until then."""

    __tablename__ = "map_move"
    __table_args__ = (UniqueConstraint("map_id", "turn", "army_id"),)

    id: Mapped[IntPk]
    map_id: Mapped[int] = mapped_column(ForeignKey("campaign_map.id", ondelete="CASCADE"))
    turn: Mapped[int] = mapped_column()
    army_id: Mapped[int] = mapped_column(ForeignKey("army.id", ondelete="CASCADE"))
    user_id: Mapped[Snowflake]
    to_region: Mapped[str] = mapped_column(String(40))
    submitted_at: Mapped[WrittenAt]


class WebSecret(Base):
    """The war table's signing key (``bot.services.web_links``): one row, made at first start;
    replacing it (``python -m bot web-secret --rotate``) ends every link signed before."""

    __tablename__ = "web_secret"

    id: Mapped[IntPk]
    secret: Mapped[bytes] = mapped_column(LargeBinary(64))
    created_at: Mapped[WrittenAt]


class WebLinkCounter(Base):
    """How many times a member ended their war-table links (``/battle table revoke:true``); a
    link names the count it was issued under. Kept when the member leaves, so a member removed
    and added again does not get old links back. User id 0 counts the spectator links."""

    __tablename__ = "web_link_counter"
    __table_args__ = (UniqueConstraint("campaign_id", "user_id"),)

    id: Mapped[IntPk]
    campaign_id: Mapped[CampaignRef]
    user_id: Mapped[Snowflake]
    counter: Mapped[int] = mapped_column(default=0)
