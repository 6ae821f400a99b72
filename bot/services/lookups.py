"""Read-only questions about the channel's battle, for autocomplete and listings.

Each answers from one read session and returns plain data; lookups made while a user types
answer with nothing rather than an error when there is no battle to look in.
"""

from __future__ import annotations

from bot.db.session import Database
from bot.errors import Conflict, NotFound
from bot.services.battle_state import load_battle
from bot.services.battles import _roster_entries
from bot.services.campaigns import Place
from rules_core.state import TerrainFeature
from rules_core.status import Scope


class LookupService:
    """Lookups over the channel's battle: units, orders, answers, terrain, rosters."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def units_on_table(self, place: Place, user_id: int, *, own: bool) -> list[str]:
        """Names of the user's units and leaders (own), or of the enemy's units (targets)."""
        return [name for name, mine in await self._table_names(place, user_id) if mine == own]

    async def any_targets(self, place: Place, user_id: int) -> list[str]:
        """Every unit on the table, the enemy's first, for orders aimed at friend or foe."""
        names = await self._table_names(place, user_id, leaders=False)
        return [n for n, mine in names if not mine] + [n for n, mine in names if mine]

    async def _table_names(
        self, place: Place, user_id: int, *, leaders: bool = True
    ) -> list[tuple[str, bool]]:
        """(name, whether it is the user's) for every unit (and leader) on the table."""
        async with self.db.read() as session:
            try:
                loaded = await load_battle(session, place)
            except (NotFound, Conflict):
                return []
            mine = set(loaded.side_of(user_id))
            if not mine and loaded.is_gm(user_id):
                mine = {s.side_id for s in loaded.battle.sides}  # a GM may act for anyone
            state = loaded.state
            actors = (*state.units, *state.leaders) if leaders else state.units
            return [(a.name, a.side in mine) for a in actors]

    async def order_kinds(self, place: Place) -> list[tuple[str, str]]:
        """(id, title) of the orders the current step takes, for autocomplete."""
        async with self.db.read() as session:
            try:
                loaded = await load_battle(session, place)
            except (NotFound, Conflict):
                return []
            step = loaded.rules.sequence.step(loaded.state.cursor.step)
            return [(k, loaded.rules.order_kind(k).title) for k in step.order_kinds]

    async def order_options(self, place: Place, kind: str) -> list[str]:
        """The choices an order kind's option takes (formations, command actions …)."""
        async with self.db.read() as session:
            try:
                loaded = await load_battle(session, place)
            except (NotFound, Conflict):
                return []
            rules = loaded.rules
            if kind == "command" and kind not in {k.id for k in rules.order_kinds}:
                return list(rules.command_kinds())
            try:
                params = rules.order_kind(kind).params
            except KeyError:
                return []
            return [c for p in params if p.kind == "choice" for c in p.choices]

    async def pending_options(self, place: Place) -> list[tuple[str, str]]:
        """(id, label) of the answers to the waiting question, for autocomplete."""
        async with self.db.read() as session:
            try:
                loaded = await load_battle(session, place)
            except (NotFound, Conflict):
                return []
            pending = loaded.state.pending
            return [] if pending is None else [(o.id, o.label) for o in pending.decision.options]

    async def status_fields(self, place: Place) -> list[str]:
        """The unit status keys the battle's ruleset declares, for the GM's autocomplete."""
        async with self.db.read() as session:
            try:
                loaded = await load_battle(session, place)
            except (NotFound, Conflict):
                return []
            return [item.key for item in loaded.rules.statuses.of_scope(Scope.UNIT)]

    async def terrain(self, place: Place) -> list[TerrainFeature]:
        """The terrain on the table."""
        async with self.db.read() as session:
            return list((await load_battle(session, place)).state.terrain)

    async def roster_units(self, place: Place, user_id: int) -> list[tuple[str, str, bool]]:
        """(id, name, deployed) of the units the user may deploy, for autocomplete."""
        async with self.db.read() as session:
            loaded = await load_battle(session, place)
            on_table = {u.id for u in loaded.state.units}
            return [
                (unit_id, name, unit_id in on_table)
                for unit_id, name, side in _roster_entries(loaded)
                if loaded.is_gm(user_id) or side in loaded.side_of(user_id)
            ]
