"""Shared pieces of the battle services: loading the channel's battle, its view, finding units."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from enum import Enum
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import defer, joinedload, selectinload

from bot.db.encoded import text_of
from bot.db.locks import check_locked
from bot.db.models import (
    Battle,
    BattleSide,
    BattleStatus,
    Campaign,
    Deadline,
    DeadlineStatus,
    Role,
)
from bot.deadlines import FIRING
from bot.errors import Conflict, HandedAway, NotFound, NotYourGroup, PermissionDenied
from bot.services import stored_waiting
from bot.services.campaigns import Place, find_member, gm_only, load_open_campaign
from bot.services.kept_loads import made, rows_of
from bot.services.kept_reads import REFUSED, given_back, note
from bot.services.order_params import one_of, resolve, side_of
from bot.services.seats import Seat, seat_of
from bot.services.state_encoding import encoded
from rules_core import engine, orderable, registry
from rules_core.orders import ACTOR_KINDS
from rules_core.plugin import Rules
from rules_core.state import BattleState, Group, Leader, Side, Unit
from rules_core.status import describe_state

OPEN_BATTLE = (BattleStatus.SETUP, BattleStatus.RUNNING, BattleStatus.PAUSED)
# A loaded battle comes with its sides (one query, not two) and without its first state,
# which only the battle's record reads (``records.record_bytes``): decoding it cost every
# command, and a resolution's keeping write with the write lock held, about 1 ms at 2 x 60.
_BATTLE_LOAD = (joinedload(Battle.sides), defer(Battle.initial_state))


class SetUp(Enum):
    """How a battle in set-up is made ready, as its ruleset says."""

    ROLLED = "rolled"  # the GM rolls terrain on the ruleset's table; players deploy
    BY_HAND = "by_hand"  # the GM lays terrain by hand; players deploy
    IN_RULES = "in_rules"  # /battle start runs the ruleset's own set-up steps (orders)


def set_up_of(rules: Rules, state: BattleState) -> SetUp:
    """How this battle is set up: by its ruleset's steps, a terrain roll, or by hand."""
    if rules.setup_in_rules:
        return SetUp.IN_RULES
    return SetUp.ROLLED if rules.terrain_table(state) is not None else SetUp.BY_HAND


@dataclass(frozen=True)
class SideView:
    """A side as the cogs show it."""

    side_id: str
    name: str
    owner_id: int
    army_name: str


@dataclass(frozen=True)
class BattleView:
    """A battle as the cogs show it: where play stands and who must act."""

    id: int
    name: str
    campaign_name: str
    ruleset_id: str
    status: BattleStatus
    channel_id: int
    seed_sha256: str
    stage: int
    deadline_at: datetime | None
    sides: tuple[SideView, ...]
    state: BattleState
    waiting_step: str
    waiting_for: tuple[int, ...]  # user ids who must act now
    gm_ids: tuple[int, ...]
    side_state: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # declared words
    seat: Seat | None = None  # who asked (None: the bot itself)
    set_up: SetUp = SetUp.BY_HAND  # how its ruleset sets a battle up
    # The open step takes only deployment orders and every unit is already placed: it is
    # there for adjustments alone, and the post says so.
    adjusting: bool = False

    def side_name(self, side_id: str) -> str:
        """The display name of a side (or "GM")."""
        found = next((s.name for s in self.sides if s.side_id == side_id), None)
        return found or ("GM" if side_id == "gm" else side_id)


@dataclass
class Loaded:
    """A battle loaded inside a session, with its campaign, rules and state."""

    campaign: Campaign
    battle: Battle
    rules: Rules
    state: BattleState

    @property
    def seed(self) -> bytes:
        """The battle's secret seed."""
        return bytes.fromhex(self.battle.seed)

    def side_of(self, user_id: int) -> list[str]:
        """The side ids a user gives orders for: sides they own, joined or command groups of."""
        return list(self.seat(user_id).sides)

    def seat(self, user_id: int) -> Seat:
        """Who the user is in this battle: GM, player (with their sides), observer, outsider."""
        return seat_of(self.campaign, user_id, self.battle)

    def require_not_handed_away(self, user_id: int) -> None:
        """Refuse a player who has no side here because a GM handed theirs to someone else,
        saying so (until it is handed back); anyone else passes."""
        if self.side_of(user_id):
            return
        for row in sorted(self.battle.sides, key=lambda s: s.side_id):
            if user_id in (row.handed_away or ()):
                raise HandedAway(row.name, row.owner_id)

    def side_row(self, side_id: str) -> BattleSide | None:
        """The battle's row for a side."""
        return next((s for s in self.battle.sides if s.side_id == side_id), None)

    def commander_of(self, actor: Unit | Leader | Group | Side) -> int | None:
        """Who alone may order an actor when its side's groups are assigned to players: the
        player commanding its group, or the side's owner for side-level orders and groups no
        one was given; None when the side has no assignments (any of its players may)."""
        row = self.side_row(actor.id if isinstance(actor, Side) else actor.side)
        if row is None or not row.commanders:
            return None
        group = (
            actor.id
            if isinstance(actor, Group)
            else None
            if isinstance(actor, Side)
            else actor.group
        )
        return row.commanders.get(group or "", row.owner_id)

    def part_of(self, side_id: str, user_id: int) -> tuple[str, ...]:
        """The names of the groups a player commands on a side whose groups are assigned (the
        owner keeps those no one was given); none on a side without assignments."""
        row = self.side_row(side_id)
        if row is None or not row.commanders:
            return ()
        groups = [g for g in self.state.groups if g.side == side_id]
        return tuple(g.name for g in groups if self.commander_of(g) == user_id)

    def key_of(self, side_id: str, user_id: int) -> str:
        """What a user's confirmation is kept under: the side, or with assigned groups the
        side and the player (each of them confirms their own part)."""
        row = self.side_row(side_id)
        return f"{side_id}:{user_id}" if row is not None and row.commanders else side_id

    def is_gm(self, user_id: int) -> bool:
        """Whether the user is a GM of the campaign."""
        member = find_member(self.campaign, user_id)
        return member is not None and member.role is Role.GM

    def require_gm(self, user_id: int) -> None:
        """Raise unless the user is a GM."""
        if not self.is_gm(user_id):
            raise PermissionDenied(gm_only(self.campaign.name))

    def save(self, state: BattleState) -> None:
        """Keep a new state on the battle row; the next command that reads the same stored
        data is given this very state, with what the engine keeps beside it (who it waits
        for, worked out where the step resolved), instead of decoding it again."""
        self.state = state
        data = encoded(state)  # once per state: a rehearsal encoded it before the write
        text = data.text
        self.battle.state = data
        # In set-up nothing is awaited yet (``view_of`` asks nothing of the engine either).
        setting_up = self.battle.status is BattleStatus.SETUP
        self.battle.waiting = None if setting_up else stored_waiting.stored(self.rules, state, text)
        if self.battle.id is not None:
            _keep(self.battle.id, text, state)


def check_commands(
    loaded: Loaded, user_id: int, actor: Unit | Leader | Group | Side, gm: bool
) -> None:
    """Refuses a player ordering (or deploying) a group, or its units and leaders, that another
    player of the side commands; side-level orders stay with the side's owner."""
    commander = loaded.commander_of(actor)
    if gm or commander is None or commander == user_id:
        return
    group_id = actor.id if isinstance(actor, Group | Side) else actor.group
    names = {g.id: g.name for g in loaded.state.groups}
    side = loaded.side_row(actor.id if isinstance(actor, Side) else actor.side)
    group = names.get(group_id or "", side.name if side is not None else "the side")
    raise NotYourGroup(actor.name, group, commander)


def rules_of(ruleset_id: str) -> Rules:
    """The rules object of a ruleset, or a clear error if it has none yet."""
    rules = registry.get(ruleset_id).rules
    if rules is None:
        raise Conflict(
            f"The ruleset `{ruleset_id}` cannot run battles yet: its rules are still being "
            "written. Campaigns, armies and dice work meanwhile."
        )
    return rules


async def load_battle(
    session: AsyncSession, place: Place, statuses: Sequence[BattleStatus] = OPEN_BATTLE
) -> Loaded:
    """The open battle of this channel's campaign."""
    campaign = await load_open_campaign(session, place)
    found = await session.execute(
        select(Battle)
        .where(Battle.campaign_id == campaign.id, Battle.status.in_(statuses))
        .options(*_BATTLE_LOAD)  # one query, not two
        .order_by(Battle.id.desc())
        .limit(1)  # the newest (the limit applies to battles, not to their joined sides)
    )
    battle = found.unique().scalars().first()
    if battle is None:
        raise NotFound(
            f"**{campaign.name}** has no battle in play. A GM starts one: `/battle create`."
        )
    check_locked(session.info, battle.id, campaign.id)
    return _loaded(campaign, battle)


async def load_battle_by_id(session: AsyncSession, battle_id: int) -> Loaded | None:
    """A battle by id, with its campaign (for deadlines, which have no channel context); in a
    resolution's keeping write, made from the rows its rehearsal loaded (``kept_loads``)."""
    key = ("loaded", battle_id)
    found, rows = given_back(battle_id, key)
    given = made(session.sync_session, rows) if found else None
    if given is not None:
        battle, campaign = given
        check_locked(session.info, battle.id, battle.campaign_id)
    else:
        loaded = await _load_by_id(session, battle_id)
        if loaded is None:
            return None
        battle, campaign = loaded
        note(session, battle_id, key, lambda: rows_of(battle, campaign) or REFUSED)
    return _loaded(campaign, battle)


async def _load_by_id(session: AsyncSession, battle_id: int) -> tuple[Battle, Campaign] | None:
    found = await session.execute(
        select(Battle).where(Battle.id == battle_id).options(*_BATTLE_LOAD)
    )
    battle = found.unique().scalars().first()
    if battle is None:
        return None
    check_locked(session.info, battle.id, battle.campaign_id)
    campaign = (
        (
            await session.execute(
                select(Campaign)
                .where(Campaign.id == battle.campaign_id)
                .options(joinedload(Campaign.members), selectinload(Campaign.armies))
            )
        )
        .unique()
        .scalars()
        .first()
    )
    assert campaign is not None
    return battle, campaign


def _loaded(campaign: Campaign, battle: Battle) -> Loaded:
    rules = rules_of(battle.ruleset_id)
    state = decoded(battle.id, battle.state, (rules, battle.waiting))
    return Loaded(campaign, battle, rules, state)


DECODED_KEPT = 32  # battles whose last decoded states are kept between commands
STATES_KEPT = 2  # per battle: the one a resolution starts from and the one it makes
_decoded: OrderedDict[int, tuple[tuple[str, BattleState], ...]] = OrderedDict()


def decoded(
    battle_id: int, data: Mapping[str, Any], waiting: tuple[Rules, Any] | None = None
) -> BattleState:
    """A battle's stored state decoded, the same object as last time while the stored data is
    equal (compared whole: a change of any field decodes anew). A state is frozen, so what the
    engine keeps beside it (who it waits for, contacts, footprints, a paused resolution) is
    reused by the next command instead of worked out again. ``waiting``: the rules and what the
    battle row stored of what the state waits for, given to a state decoded anew.

    The state a resolution starts from stays kept beside the one its rehearsal made, so the
    keeping write (which loads the same stored state again) does not decode it again."""
    text = text_of(data)  # compared as text: nothing done to ``data`` later can fool it
    for kept_text, state in _decoded.get(battle_id, ()):
        if kept_text == text:
            _decoded.move_to_end(battle_id)
            return state
    state = BattleState.from_dict(data)
    if waiting is not None:
        stored_waiting.restore(waiting[0], state, waiting[1], text)
    _keep(battle_id, text, state)
    return state


def _keep(battle_id: int, text: str, state: BattleState) -> None:
    others = tuple(kept for kept in _decoded.get(battle_id, ()) if kept[0] != text)
    _decoded[battle_id] = ((text, state), *others)[:STATES_KEPT]
    _decoded.move_to_end(battle_id)
    while len(_decoded) > DECODED_KEPT:
        _decoded.popitem(last=False)


def users_for(loaded: Loaded, sides: Sequence[str]) -> list[int]:
    """The users who act for these sides: each side's player (or, with groups assigned, each
    player with something to order in this step), and the GMs for ``gm``."""
    return list(dict.fromkeys(user for _, user in awaited(loaded, sides)))


def awaited(loaded: Loaded, sides: Sequence[str]) -> list[tuple[str, int]]:
    """(side, user) for everyone the step waits on among these sides (not a side with nothing
    to order in it: its orders cannot matter)."""
    gms = [m.user_id for m in loaded.campaign.members if m.role is Role.GM]
    found: list[tuple[str, int]] = []
    for side in ordering(loaded, sides):
        if side == "gm":
            found += [(side, gm) for gm in gms]
            continue
        row = loaded.side_row(side)
        if row is None:
            continue
        users = _step_commanders(loaded, side) if row.commanders else [row.owner_id]
        found += [(side, user) for user in users or [row.owner_id]]
    return list(dict.fromkeys(found))


def ordering(loaded: Loaded, sides: Sequence[str]) -> list[str]:
    """The sides (and ``gm``) with something to order in the open step, of these; while a
    question is open, every side it asks."""
    state = loaded.state
    if state.pending is not None:
        return list(sides)
    return [s for s in sides if s == "gm" or orderable.has_orders(loaded.rules, state, s)]


def _step_commanders(loaded: Loaded, side: str) -> list[int]:
    """The players of a side with assigned groups who have something to order in this step:
    the commander of the step's subject, or of any actor of the step's order kinds."""
    state = loaded.state
    subject = state.cursor.subject
    actors: list[Unit | Leader | Group | Side] = []
    if subject is not None:
        both = state.actors("group") + state.actors("leader")
        actors = [a for a in both if a.id == subject.id]
    if not actors:  # no subject, or one that is no group or leader (a round: "action 1")
        step = loaded.rules.sequence.step(state.cursor.step)
        kinds = {loaded.rules.order_kind(k).actor for k in step.order_kinds}
        actors = [a for k in ACTOR_KINDS if k in kinds for a in state.actors(k)]
    users = [loaded.commander_of(a) for a in actors if side_of(a) == side]
    return list(dict.fromkeys(u for u in users if u is not None))


def view_of(loaded: Loaded) -> BattleView:
    """Plain data for a loaded battle."""
    battle, state = loaded.battle, loaded.state
    waiting = (
        engine.waiting(loaded.rules, state) if battle.status is not BattleStatus.SETUP else None
    )
    gms = tuple(m.user_id for m in loaded.campaign.members if m.role is Role.GM)
    users = users_for(loaded, waiting.sides if waiting else ())
    armies = {a.id: a.name for a in loaded.campaign.armies}
    step_words = waiting.title + subject_words(state) if waiting else "Setting up"
    return BattleView(
        id=battle.id,
        name=battle.name,
        campaign_name=loaded.campaign.name,
        ruleset_id=battle.ruleset_id,
        status=battle.status,
        channel_id=loaded.campaign.channel_id,
        seed_sha256=battle.seed_sha256,
        stage=battle.stage,
        deadline_at=battle.deadline_at,
        sides=tuple(
            SideView(s.side_id, s.name, s.owner_id, armies.get(s.army_id or -1, "—"))
            for s in sorted(battle.sides, key=lambda s: s.side_id)
        ),
        state=_as_shown(loaded) if battle.status is BattleStatus.SETUP else state,
        waiting_step=step_words,
        waiting_for=tuple(users),
        gm_ids=gms,
        side_state={
            side: tuple(lines)
            for side, lines in describe_state(loaded.rules.statuses, state).items()
        },
        set_up=set_up_of(loaded.rules, state),
        adjusting=waiting is not None and orderable.only_adjusting(loaded.rules, state),
    )


def _as_shown(loaded: Loaded) -> BattleState:
    """During set-up, the state as it will begin (leaders beside their troops), for maps.
    A ruleset's ``prepare`` takes a partly deployed army; an error in it is a bug, reported
    (the command's error handler logs it with a reference) rather than hidden behind the
    state as it stands."""
    return loaded.rules.prepare(loaded.state)


def subject_words(state: BattleState) -> str:
    """`` — Legio IX`` when a step runs once per division, command or round, else nothing."""
    subject = state.cursor.subject
    if subject is None:
        return ""
    names = {g.id: g.name for g in state.groups} | {ld.id: ld.name for ld in state.leaders}
    names |= {side.id: side.name for side in state.sides}  # a loop over the sides
    return f" — {names.get(subject.id, subject.id.replace('_', ' '))}"


def find_leader(state: BattleState, ref: str, sides: Sequence[str] | None = None) -> Leader:
    """A leader by id or name (case-insensitive), optionally only among some sides."""
    leader = resolve(state.leaders, "leader", ref, sides)
    assert isinstance(leader, Leader)
    return leader


def find_actor(
    state: BattleState, ref: str, sides: Sequence[str] | None = None
) -> Unit | Leader | Group | Side:
    """A unit, or failing that a leader, group or side, by id or name."""
    for actor_kind in ACTOR_KINDS:
        try:
            return resolve(state.actors(actor_kind), actor_kind, ref, sides)
        except NotFound:
            continue
    whose = "" if sides is None else " of yours"
    every = [a for kind in ACTOR_KINDS for a in state.actors(kind)]
    mine = [a for a in every if sides is None or side_of(a) in sides]
    raise NotFound(
        f"There is no unit, leader, group or side{whose} called **{ref}**{one_of(mine)}."
    )


def find_giver(
    state: BattleState, actor_kind: str, ref: str, sides: Sequence[str] | None = None
) -> Unit | Leader | Group | Side:
    """Who gives an order of one actor kind (a unit, leader, group or side), by id or name;
    a name two of them share is refused with the candidates."""
    return resolve(state.actors(actor_kind), actor_kind, ref, sides)


def find_unit(state: BattleState, ref: str, sides: Sequence[str] | None = None) -> Unit:
    """A unit by id or name (case-insensitive), optionally only among some sides; a name
    units of both sides share is refused with their ids."""
    unit = resolve(state.units, "unit", ref, sides)
    assert isinstance(unit, Unit)
    return unit


async def cancel_deadlines(session: AsyncSession, battle_id: int) -> list[int]:
    """Cancel the battle's pending deadlines (not the one firing now); their ids, to disarm."""
    # One statement (UPDATE ... RETURNING), not a SELECT then an UPDATE: inside a resolution's
    # write every statement is a round trip while the write lock is held.
    cancelled = await session.scalars(
        update(Deadline)
        .where(
            Deadline.battle_id == battle_id,
            Deadline.status == DeadlineStatus.PENDING,
            Deadline.id != FIRING.get(),
        )
        .values(status=DeadlineStatus.CANCELLED)
        .returning(Deadline.id)
        .execution_options(synchronize_session="fetch")
    )
    return sorted(cancelled)
