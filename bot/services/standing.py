"""Standing instructions: how a side or one of its units answers a recurring question.

Players set their own side's (and their own units'), a GM anyone's. Whenever the battle stops
on questions, ``standing_answers.answer_standing`` answers at once every open question an
instruction covers, through the engine like any answer, before the stage is stored
(``stages.advance``); one set while such a question is open answers it at once.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.clock import Clock
from bot.db.models import Battle, BattleStatus, Campaign, StandingInstruction
from bot.db.session import Database
from bot.errors import Conflict, InvalidInput, NotFound, PermissionDenied
from bot.services.base import ClockedService
from bot.services.battle_state import Loaded, find_unit, load_battle
from bot.services.campaigns import Place
from bot.services.names import name_key
from bot.services.play import PlayService
from bot.services.player_writes import written
from bot.services.stages import StageReport, advance
from bot.services.standing_answers import answer_standing, instructions_of
from bot.services.write_keys import place_write
from rules_core.engine import Resolution
from rules_core.standing import (
    Recommended,
    Standing,
    Topic,
    recommended_standing,
    standing_problem,
    topic_of,
)
from rules_core.state import Unit


@dataclass(frozen=True)
class StandingView:
    """One standing instruction, in words and ids."""

    side_id: str
    side: str
    topic_id: str
    topic: str
    choice_id: str
    choice: str
    condition_id: str = ""
    condition: str = ""  # "" for always
    unit_id: str | None = None
    unit: str | None = None  # None for the whole side


@dataclass(frozen=True)
class RecommendedView:
    """One of the ruleset's recommended instructions, in words: the topic, the choices in order
    of preference, the condition ("" for always) and why an experienced player sets it."""

    topic: str
    choices: tuple[str, ...]
    condition: str
    why: str


@dataclass(frozen=True)
class Recommendations:
    """The ruleset's recommended instructions, and the battle and side (the asker's own, if
    they may set its side-wide instructions; else "") the accept button is for."""

    views: list[RecommendedView]
    battle_id: int
    side_id: str = ""


class StandingService(ClockedService):
    """``/standing``: list, set and clear standing instructions for the channel's battle."""

    def __init__(self, db: Database, clock: Clock, play: PlayService) -> None:
        super().__init__(db, clock)
        self.play = play  # its armer schedules the deadlines of the stage an answer opens

    async def place_of_battle(self, battle_id: int, user_id: int) -> Place:
        """Where a battle is played, for a button clicked in a direct message (its call to
        arms): loading it through this place still checks who the user is."""
        async with self.db.read() as session:
            found = await session.execute(
                select(Campaign.guild_id, Campaign.channel_id)
                .join(Battle, Battle.campaign_id == Campaign.id)
                .where(Battle.id == battle_id)
            )
            row = found.first()
            if row is None:
                raise NotFound("That battle is gone; `/standing recommended` offers the open one.")
            return Place(row.guild_id, row.channel_id, user_id)

    async def answer_open(self, place: Place) -> StageReport | None:
        """Answer the open questions the battle's standing instructions now cover (one was
        just set) and carry the battle on; None if none is covered."""
        async with place_write(self.db, place) as session:
            loaded = await load_battle(session, place)
            if loaded.battle.status is not BattleStatus.RUNNING or loaded.state.pending is None:
                return None
            start = Resolution(loaded.state, (), ())
            if await answer_standing(session, loaded, start) is start:
                return None
            report, arming = await advance(
                session, loaded, start, trigger="standing instruction", now=self.clock.now()
            )
        self.play.arm(arming)
        return report

    async def shown(self, place: Place, user_id: int) -> list[StandingView]:
        """The instructions the user may see: their sides' (a GM: every side's)."""
        async with self.db.read() as session:
            loaded = await load_battle(session, place)
            rows = await instructions_of(session, loaded.battle.id)
            mine = _sides_for(loaded, user_id)
            return [_view(loaded, row) for row in rows if row.side_id in mine]

    async def set(
        self,
        place: Place,
        user_id: int,
        topic: str,
        choice: str,
        condition: str = "",
        unit: str | None = None,
        side: str | None = None,
    ) -> StandingView:
        """Set (or replace) how a side, or one of its units, answers a topic's questions."""

        async def body(session: AsyncSession) -> tuple[StandingView, Loaded]:
            loaded = await load_battle(session, place)
            found = _topic(loaded, topic)
            unit_id, side_id = _whose(loaded, user_id, unit, side)
            standing = Standing(
                side_id, found.id, _choice(found, choice), _condition(found, condition), unit_id
            )
            problem = standing_problem(loaded.rules, loaded.state, standing)
            if problem is not None:
                raise InvalidInput(problem[0].upper() + problem[1:] + ".")
            rows = await instructions_of(session, loaded.battle.id)
            for row in rows:
                if (row.side_id, row.unit_id, row.topic, row.condition) == (
                    side_id,
                    unit_id,
                    standing.topic,
                    standing.condition,
                ):
                    await session.delete(row)
            row = _row(loaded, standing, user_id, self.clock.now())
            session.add(row)
            return _view(loaded, row), loaded

        # Decided in a read; the write claims the battle's version and keeps the rows.
        return await written(self.db, place, user_id, body)

    async def clear(
        self,
        place: Place,
        user_id: int,
        topic: str | None = None,
        unit: str | None = None,
        side: str | None = None,
    ) -> list[StandingView]:
        """Clear the user's instructions (a GM: anyone's), all or those of a topic, a unit or
        a side; returns those cleared."""

        async def body(session: AsyncSession) -> tuple[list[StandingView], Loaded]:
            loaded = await load_battle(session, place)
            topic_id = _topic(loaded, topic).id if topic else None
            unit_id = None
            if unit is not None:
                unit_id, _ = _whose(loaded, user_id, unit, side)
            sides = _sides_for(loaded, user_id)
            if side is not None:
                side_id = _side_id(loaded, side)
                if side_id not in sides:
                    name = _side_name(loaded, side_id)
                    raise PermissionDenied(f"You cannot clear **{name}**'s instructions.")
                sides = {side_id}
            cleared = []
            for row in await instructions_of(session, loaded.battle.id):
                if row.side_id not in sides or (topic_id and row.topic != topic_id):
                    continue
                if unit_id is not None and row.unit_id != unit_id:
                    continue
                if not _may_clear(loaded, user_id, row):  # another player's, on a shared side
                    continue
                cleared.append(_view(loaded, row))
                await session.delete(row)
            return cleared, loaded

        return await written(self.db, place, user_id, body)

    async def recommended(self, place: Place, user_id: int) -> Recommendations:
        """The standing instructions the battle's ruleset recommends, in words."""
        async with self.db.read() as session:
            loaded = await load_battle(session, place)
            views = [_recommended_view(loaded, r) for r in loaded.rules.recommended]
            mine = [s for s in loaded.side_of(user_id) if _may_instruct_side(loaded, user_id, s)]
            side = mine[0] if len(mine) == 1 and views else ""
            return Recommendations(views, loaded.battle.id, side)

    async def accept_recommended(
        self, place: Place, user_id: int, side: str | None = None, battle_id: int | None = None
    ) -> list[StandingView]:
        """Set all the ruleset's recommended instructions for the user's side (replacing its
        side-wide ones on those topics; a unit's own stay); ``battle_id``: only if the
        channel's battle is still that one (a button of an earlier battle)."""
        async with place_write(self.db, place) as session:
            loaded = await load_battle(session, place)
            if battle_id is not None and loaded.battle.id != battle_id:
                raise Conflict("That battle is over; `/standing recommended` offers this one's.")
            recommended = loaded.rules.recommended
            if not recommended:
                raise InvalidInput("These rules recommend no standing instructions.")
            _, side_id = _whose(loaded, user_id, None, side)
            topics = {r.topic for r in recommended}
            for row in await instructions_of(session, loaded.battle.id):
                if row.side_id == side_id and row.unit_id is None and row.topic in topics:
                    await session.delete(row)
            await session.flush()
            now = self.clock.now()
            rows = [
                _row(loaded, s, user_id, now) for s in recommended_standing(recommended, side_id)
            ]
            for row in rows:  # one at a time: their ids keep the order of preference
                session.add(row)
                await session.flush()
            return [_view(loaded, row) for row in rows]

    # -- autocomplete -----------------------------------------------------------------------

    async def topics(self, place: Place) -> list[tuple[str, str]]:
        """(id, title) of the questions the battle's rules ask again and again."""
        loaded = await self._lookup(place)
        return [] if loaded is None else [(t.id, t.title) for t in loaded.rules.topics]

    async def choices(self, place: Place, topic: str) -> list[tuple[str, str]]:
        """(id, label) of a topic's choices."""
        found = await self._topic_or_none(place, topic)
        return [] if found is None else [(c.id, c.label) for c in found.choices]

    async def conditions(self, place: Place, topic: str) -> list[tuple[str, str]]:
        """(id, title) of the conditions a topic's instructions may be limited to."""
        found = await self._topic_or_none(place, topic)
        return [] if found is None else [(c.id, c.title) for c in found.conditions]

    async def units(self, place: Place, user_id: int) -> list[tuple[str, str]]:
        """(id, name) of the units the user may set instructions for: only their own."""
        loaded = await self._lookup(place)
        if loaded is None:
            return []
        return [(u.id, u.name) for u in loaded.state.units if _may_instruct(loaded, user_id, u)]

    async def _lookup(self, place: Place) -> Loaded | None:
        async with self.db.read() as session:
            try:
                return await load_battle(session, place)
            except (NotFound, Conflict):  # no battle here: nothing to offer while typing
                return None

    async def _topic_or_none(self, place: Place, topic: str) -> Topic | None:
        loaded = await self._lookup(place)
        return None if loaded is None else _find_topic(loaded, topic)


def _find_topic(loaded: Loaded, ref: str) -> Topic | None:
    found = topic_of(loaded.rules, ref)
    if found is not None:
        return found
    typed = ref.strip().casefold()
    return next((t for t in loaded.rules.topics if t.title.casefold() == typed), None)


def _topic(loaded: Loaded, ref: str) -> Topic:
    found = _find_topic(loaded, ref)
    if found is None:
        known = ", ".join(t.id for t in loaded.rules.topics) or "none"
        raise InvalidInput(f"The rules ask no questions about **{ref}**. Topics: {known}.")
    return found


def _choice(topic: Topic, ref: str) -> str:
    typed = ref.strip().casefold()
    found = next((c.id for c in topic.choices if typed in (c.id, c.label.casefold())), None)
    if found is None:
        offered = ", ".join(topic.choice_ids)
        raise InvalidInput(f"**{ref}** is not a choice for {topic.title}. Choose from: {offered}.")
    return found


def _condition(topic: Topic, ref: str) -> str:
    typed = ref.strip().casefold()
    if typed in ("", "always"):
        return ""
    found = next((c.id for c in topic.conditions if typed in (c.id, c.title.casefold())), None)
    if found is None:
        offered = ", ".join(c.id for c in topic.conditions) or "none"
        raise InvalidInput(
            f"**{ref}** is not a condition for {topic.title}. Conditions: {offered}."
        )
    return found


def _sides_for(loaded: Loaded, user_id: int) -> set[str]:
    """The sides whose instructions a user may see and set: their own, every side for a GM."""
    if loaded.is_gm(user_id):
        return {s.side_id for s in loaded.battle.sides}
    return set(loaded.side_of(user_id))


def _may_instruct(loaded: Loaded, user_id: int, unit: Unit) -> bool:
    """Whether a user may set instructions for a unit: a GM, or its side's player (with groups
    assigned, the player commanding its group)."""
    if loaded.is_gm(user_id):
        return True
    return unit.side in loaded.side_of(user_id) and loaded.commander_of(unit) in (None, user_id)


def _may_instruct_side(loaded: Loaded, user_id: int, side_id: str) -> bool:
    """Whether a user may set a side's side-wide instructions: a GM, or its player (with
    groups assigned, the side's owner: as side-level orders, they stay with the owner)."""
    if loaded.is_gm(user_id):
        return True
    if side_id not in loaded.side_of(user_id):
        return False
    side = next((s for s in loaded.state.sides if s.id == side_id), None)
    return side is None or loaded.commander_of(side) in (None, user_id)


def _may_clear(loaded: Loaded, user_id: int, row: StandingInstruction) -> bool:
    """Whether a user may take back an instruction: one they could set."""
    unit = next((u for u in loaded.state.units if u.id == row.unit_id), None)
    if unit is not None:
        return _may_instruct(loaded, user_id, unit)
    return _may_instruct_side(loaded, user_id, row.side_id)


def _owner_only(loaded: Loaded, side_id: str) -> PermissionDenied:
    name = _side_name(loaded, side_id)
    return PermissionDenied(
        f"**{name}**'s side-wide instructions are its owner's; set yours for your own units "
        "(`unit`)."
    )


def _side_id(loaded: Loaded, ref: str) -> str:
    typed = name_key(ref)
    for row in loaded.battle.sides:
        if typed in (row.side_id.casefold(), name_key(row.name)):
            return row.side_id
    raise NotFound(f"There is no side called **{ref}** in this battle.")


def _side_name(loaded: Loaded, side_id: str) -> str:
    return next((s.name for s in loaded.battle.sides if s.side_id == side_id), side_id)


def _whose(
    loaded: Loaded, user_id: int, unit: str | None, side: str | None
) -> tuple[str | None, str]:
    """(unit id or None, side id) an instruction is for, checked against who sets it."""
    gm = loaded.is_gm(user_id)
    if unit is not None:
        found = find_unit(loaded.state, unit)
        if not _may_instruct(loaded, user_id, found):
            raise PermissionDenied(f"**{found.name}** is not one of your units.")
        if side is not None and _side_id(loaded, side) != found.side:
            name = _side_name(loaded, _side_id(loaded, side))
            raise InvalidInput(f"**{found.name}** is not of **{name}**.")
        return found.id, found.side
    if side is not None:
        side_id = _side_id(loaded, side)
        if not gm and side_id not in loaded.side_of(user_id):
            name = _side_name(loaded, side_id)
            raise PermissionDenied(
                f"You can set instructions only for your own side, not **{name}**."
            )
        if not _may_instruct_side(loaded, user_id, side_id):
            raise _owner_only(loaded, side_id)
        return None, side_id
    mine = loaded.side_of(user_id)
    if len(mine) == 1:
        if not _may_instruct_side(loaded, user_id, mine[0]):
            raise _owner_only(loaded, mine[0])
        return None, mine[0]
    if not mine and not gm:
        loaded.require_not_handed_away(user_id)
        raise PermissionDenied("You command no side in this battle.")
    raise InvalidInput("Name the side the instruction is for (`side`).")


def _row(loaded: Loaded, standing: Standing, user_id: int, now: datetime) -> StandingInstruction:
    """A standing instruction as stored, set by ``user_id`` at ``now``."""
    return StandingInstruction(
        battle_id=loaded.battle.id, side_id=standing.side, unit_id=standing.unit,
        topic=standing.topic, condition=standing.condition, choice=standing.choice,
        set_by=user_id, set_at=now,
    )  # fmt: skip


def _recommended_view(loaded: Loaded, recommended: Recommended) -> RecommendedView:
    topic = topic_of(loaded.rules, recommended.topic)
    assert topic is not None  # a test checks every recommendation against the topics
    labels = {c.id: c.label for c in topic.choices}
    condition = topic.condition(recommended.condition) if recommended.condition else None
    return RecommendedView(
        topic.title,
        tuple(labels[c] for c in recommended.choices),
        condition.title if condition else "",
        recommended.why,
    )


def _view(loaded: Loaded, row: StandingInstruction) -> StandingView:
    topic = topic_of(loaded.rules, row.topic)
    title = topic.title if topic else row.topic
    choice = (
        next((c.label for c in topic.choices if c.id == row.choice), row.choice)
        if topic
        else row.choice
    )
    condition = topic.condition(row.condition) if topic and row.condition else None
    unit = next((u.name for u in loaded.state.units if u.id == row.unit_id), row.unit_id)
    return StandingView(
        row.side_id,
        _side_name(loaded, row.side_id),
        row.topic,
        title,
        row.choice,
        choice,
        row.condition,
        condition.title if condition else "",
        row.unit_id,
        unit,
    )
