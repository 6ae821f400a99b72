"""Read-only questions about the channel's battle, for autocomplete and listings.

Each answers from one read session and returns plain data; lookups made while a user types
answer with nothing rather than an error when there is no battle to look in.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from bot.db.models import BattleStatus
from bot.errors import NO_QUESTION, ClosedCampaign, Conflict, InvalidInput, NotFound
from bot.services import holders, plans
from bot.services.base import Service
from bot.services.battle_state import Loaded, find_actor, load_battle
from bot.services.campaigns import Place
from bot.services.deployment import may_deploy, roster_entries, roster_unit_of
from bot.services.inquiries import (
    MASKED,
    questions_seen_by,
    seen_questions,
    side_names,
)
from bot.services.order_choices import ActorChoices, choices_of
from bot.services.order_params import side_of
from bot.services.stages import DecisionView
from rules_core import engine
from rules_core.decisions import GM
from rules_core.orders import ACTOR_KINDS
from rules_core.state import RESERVE, Leader, TerrainFeature, Unit
from rules_core.status import Scope
from rules_core.steps import SETUP


class LookupService(Service):
    """Lookups over the channel's battle: units, orders, answers, terrain, rosters."""

    @asynccontextmanager
    async def _battle(self, place: Place) -> AsyncIterator[Loaded | None]:
        """The channel's battle in a read session, or None when there is none to look in."""
        async with self.db.read() as session:
            try:
                loaded: Loaded | None = await load_battle(session, place)
            except (NotFound, Conflict, ClosedCampaign):
                loaded = None
            yield loaded

    async def units_on_table(self, place: Place, user_id: int, *, own: bool) -> list[str]:
        """Names of the user's units and leaders (own), or of the enemy's units (targets)."""
        names = await self._table_names(place, user_id, own=own)
        return [name for name, mine in names if mine == own]

    async def givers(self, place: Place, user_id: int, kind: str | None) -> list[str]:
        """Names of the user's units, leaders, groups or sides that give orders of a kind
        (every kind's givers when the kind is not known yet)."""
        async with self._battle(place) as loaded:
            if loaded is None:
                return []
            known = {k.id: k.actor for k in loaded.rules.order_kinds}
            actor_kinds = [known[kind]] if kind in known else sorted(set(known.values()))
            mine = _sides_for(loaded, user_id)
            state = loaded.state
            gm = loaded.is_gm(user_id)
            return [
                actor.name
                for actor_kind in ACTOR_KINDS
                if actor_kind in actor_kinds
                for actor in state.actors(actor_kind)
                if side_of(actor) in mine and (gm or loaded.commander_of(actor) in (None, user_id))
            ]

    async def turn_steps(self, place: Place, user_id: int) -> list[tuple[str, str]]:
        """(key, words) of every step of the current game turn the user's side acts in, the
        open one first, then those of the next turn: what an order may be planned for (none
        during set-up)."""
        async with self._battle(place) as loaded:
            if loaded is None or loaded.battle.status is BattleStatus.SETUP:
                return []
            steps = plans.plannable_steps(loaded, set(loaded.side_of(user_id)))
            return [(step.key, plans.step_words(loaded, step)) for step in steps]

    async def any_targets(self, place: Place, user_id: int) -> list[str]:
        """Every unit on the table, the enemy's first, for orders aimed at friend or foe;
        in a ruleset's set-up steps the user's units in reserve come first (to place)."""
        names = await self._table_names(place, user_id, leaders=False)
        found = [n for n, mine in names if not mine] + [n for n, mine in names if mine]
        return await self._reserve_names(place, user_id) + found

    async def _reserve_names(self, place: Place, user_id: int) -> list[str]:
        """The user's units in reserve while the battle runs its set-up steps, else none."""
        async with self._battle(place) as loaded:
            if loaded is None or loaded.state.cursor.segment != SETUP:
                return []
            mine = _sides_for(loaded, user_id)
            units = loaded.state.units
            names = [u.name for u in units]
            return [_shown(u, names) for u in units if u.location == RESERVE and u.side in mine]

    async def _table_names(
        self, place: Place, user_id: int, *, leaders: bool = True, own: bool = False
    ) -> list[tuple[str, bool]]:
        """(name, whether it is the user's) for every unit (and leader) on the table; with
        ``own``, the user's own leave out those of groups another player of the side commands."""
        async with self._battle(place) as loaded:
            if loaded is None:
                return []
            mine = _sides_for(loaded, user_id)
            state = loaded.state
            units = state.units if own else state.units_on_table  # targets stand on the table
            actors: tuple[Unit | Leader, ...] = (*units, *state.leaders) if leaders else units
            names = [a.name for a in actors]
            gm = loaded.is_gm(user_id)
            return [
                (_shown(a, names), a.side in mine)
                for a in actors
                if not own or gm or loaded.commander_of(a) in (None, user_id)
            ]

    async def order_choices(self, place: Place, user_id: int, actor: str) -> ActorChoices:
        """The order kinds open to an actor of the user's (any, for a GM) in each step of the
        turn its side acts in, with their typed parameters (the war table's order forms)."""
        async with self.db.read() as session:
            loaded = await load_battle(session, place)
            if loaded.battle.status is BattleStatus.SETUP:
                raise Conflict(
                    "The battle has not started yet; a GM starts it with `/battle start`."
                )
            return choices_of(loaded, user_id, actor)

    async def battle_sides(self, place: Place) -> list[tuple[str, str]]:
        """(id, name) of the battle's sides, for autocomplete."""
        async with self._battle(place) as loaded:
            return [] if loaded is None else list(side_names(loaded).items())

    async def odds_options(self, place: Place, user_id: int, kind: str) -> list[str]:
        """What ``/odds <kind> option:`` takes: the ruleset's tests, or the shoot order's
        choices."""
        if kind == "shoot":
            return await self.order_options(place, "shoot", user_id=user_id)
        async with self._battle(place) as loaded:
            return [] if loaded is None else list(loaded.rules.demo_hooks.odds_tests)

    async def order_kinds(self, place: Place) -> list[tuple[str, str]]:
        """(id, title) of the orders the current step takes, for autocomplete (none during
        set-up: no step is open yet)."""
        async with self._battle(place) as loaded:
            if loaded is None or loaded.battle.status is BattleStatus.SETUP:
                return []
            try:
                step = loaded.rules.sequence.step(loaded.state.cursor.step)
            except KeyError:  # in set-up before /battle start, play stands at no step yet
                return []
            return [(k, loaded.rules.order_kind(k).title) for k in step.order_kinds]

    async def order_options(
        self,
        place: Place,
        kind: str,
        which: int = 0,
        user_id: int | None = None,
        actor: str | None = None,
    ) -> list[str]:
        """The choices an order kind's ``which``-th choice parameter takes (formations,
        command actions …): ``option`` is the first, ``option2`` the second. Where the
        ruleset narrows them by the state (``Rules.option_choices``), those of the side of
        ``actor`` (as typed), else of the user's side."""
        async with self._battle(place) as loaded:
            if loaded is None:
                return []
            rules = loaded.rules
            if kind == "command" and kind not in {k.id for k in rules.order_kinds}:
                return list(rules.command_kinds())
            try:
                params = rules.order_kind(kind).params
            except KeyError:
                return []
            choosing = [p for p in params if p.kind == "choice"]
            if which >= len(choosing):
                return []
            side = _choosing_side(loaded, user_id, actor)
            narrowed = (
                None
                if side is None
                else rules.option_choices(
                    loaded.state, side, kind, choosing[which].name, _actor_id(loaded, actor)
                )
            )
            return list(choosing[which].choices if narrowed is None else narrowed)

    async def named_actors(self, place: Place, actor_kind: str) -> list[tuple[str, str]]:
        """(id, label) of every leader, group or unit on the table; a name shared by two
        carries its side so the labels tell them apart."""
        async with self._battle(place) as loaded:
            if loaded is None:
                return []
            actors = loaded.state.actors(actor_kind)
            names = [a.name for a in actors]
            sides = {s.side_id: s.name for s in loaded.battle.sides}
            return [
                (
                    a.id,
                    a.name if names.count(a.name) == 1 else f"{a.name} ({sides.get(side_of(a))})",
                )
                for a in actors
            ]

    async def pending_options(self, place: Place) -> list[tuple[str, str]]:
        """(id, label) of the answers to the waiting question, for autocomplete."""
        async with self._battle(place) as loaded:
            if loaded is None:
                return []
            questions = seen_questions(loaded, place.user_id)  # no one else's private ones
            return list(dict.fromkeys((o.id, o.label) for d in questions for o in d.options))

    async def open_questions(self, place: Place) -> list[tuple[str, str]]:
        """(id, question) of every question the battle waits for, for ``/answer question``."""
        async with self._battle(place) as loaded:
            if loaded is None:
                return []
            pending = loaded.state.pending
            seen, names = {d.id for d in seen_questions(loaded, place.user_id)}, side_names(loaded)
            return (
                []
                if pending is None
                else [
                    (d.id, d.question if d.id in seen else MASKED.format(names.get(d.who, d.who)))
                    for d in pending.open
                ]
            )

    async def questions_for(self, place: Place) -> list[tuple[DecisionView, bool]]:
        """Every open question as the one who asks may see it, and whether it is theirs to
        answer (``inquiries.questions_seen_by``); refused when none is waiting."""
        async with self.db.read() as session:
            loaded = await load_battle(session, place)
            if loaded.state.pending is None:
                raise NotFound(NO_QUESTION)
            return questions_seen_by(loaded, place.user_id)

    async def status_fields(self, place: Place, holder: str | None = None) -> list[str]:
        """The fields a GM may set on a unit (or on the leader, group or side named), for
        autocomplete: the ruleset's declared status keys, a leader's points and wounds."""
        async with self.db.read() as session:
            try:
                loaded = await load_battle(session, place)
                scope = holders.scope_of(find_actor(loaded.state, holder)) if holder else None
            except (NotFound, Conflict, InvalidInput, ClosedCampaign):
                return []
            return holders.fields_of(loaded.rules, scope or Scope.UNIT)

    async def gm_targets(self, place: Place) -> list[tuple[str, str]]:
        """(id, label) of every unit, leader, group and side, for the GM's ``/gm set``."""
        pairs: list[tuple[str, str]] = []
        for actor_kind in ACTOR_KINDS:
            pairs += await self.named_actors(place, actor_kind)
        return pairs

    async def terrain(self, place: Place) -> list[TerrainFeature]:
        """The terrain on the table."""
        async with self.db.read() as session:
            return list((await load_battle(session, place)).state.terrain)

    async def terrain_choices(self, place: Place) -> list[TerrainFeature]:
        """The terrain on the table, for autocomplete: none where there is nothing to see."""
        async with self._battle(place) as loaded:
            return [] if loaded is None else list(loaded.state.terrain)

    async def absent_units(self, place: Place) -> list[str]:
        """Names of the units off the table or in reserve, for a GM's autocomplete."""
        async with self._battle(place) as loaded:
            if loaded is None:
                return []
            return [u.name for u in loaded.state.units if not u.on_table]

    async def roster_units(self, place: Place, user_id: int) -> list[tuple[str, str, bool]]:
        """(id, name, deployed) of the units the user may deploy, for autocomplete."""
        async with self._battle(place) as loaded:
            if loaded is None:
                return []
            on_table = {u.id for u in loaded.state.units_on_table}
            return [
                (unit_id, name, unit_id in on_table)
                for unit_id, name, side in roster_entries(loaded)
                if may_deploy(loaded, user_id, roster_unit_of(loaded, unit_id, side))
            ]


def _shown(actor: Unit | Leader, names: list[str]) -> str:
    """An actor's name as offered, with its id when another shares the name: "Pikes (b1)",
    which the services read back as that id."""
    return f"{actor.name} ({actor.id})" if names.count(actor.name) > 1 else actor.name


def _actor_id(loaded: Loaded, actor: str | None) -> str | None:
    """The id of the typed actor, None when nothing (or nothing known) is typed."""
    if not actor:
        return None
    try:
        return find_actor(loaded.state, actor).id
    except (NotFound, InvalidInput):
        return None


def _choosing_side(loaded: Loaded, user_id: int | None, actor: str | None) -> str | None:
    """The side whose choices an order's options are: the typed actor's (a unit, leader,
    group or side of the user's, or any for a GM), else the user's own side; None when
    neither is known."""
    mine = loaded.side_of(user_id) if user_id is not None else []
    if actor:
        try:
            found = side_of(find_actor(loaded.state, actor))
        except (NotFound, InvalidInput):
            found = None
        if found is not None and (found in mine or (user_id and loaded.is_gm(user_id))):
            return found
    return mine[0] if mine else None


def _sides_for(loaded: Loaded, user_id: int) -> set[str]:
    """The sides a user gives orders for: their own; a GM every side only in a step that
    waits for the GM (offering a GM without a side every unit at other times led to orders
    that were all refused)."""
    mine = set(loaded.side_of(user_id))
    running = loaded.battle.status is not BattleStatus.SETUP
    if running and loaded.is_gm(user_id) and GM in engine.waiting(loaded.rules, loaded.state).sides:
        mine |= {s.side_id for s in loaded.battle.sides}
    return mine
