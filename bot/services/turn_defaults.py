"""What ``/order done turn:true`` leaves to the ruleset's defaults, so a player who planned
nothing is asked to confirm before the rest of the turn passes without them."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select

from bot.db.models import BattleOrder, BattleStatus
from bot.services import plans
from bot.services.base import Service
from bot.services.battle_state import Loaded, load_battle
from bot.services.campaigns import Place
from bot.services.resolving import off_loop
from rules_core import planning
from rules_core.orders import ACTOR_KINDS, Illegal
from rules_core.plugin import Rules
from rules_core.state import BattleState


@dataclass(frozen=True)
class StepDefaults:
    """One step of the player's part of the turn and what their side does in it by default:
    (actor's name, what its default order does), in the order the rules list them."""

    step: str
    defaults: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class TurnDefaults:
    """The player's steps left to the defaults, and the sides they are for."""

    side_names: tuple[str, ...]
    steps: tuple[StepDefaults, ...]


class TurnDefaultsService(Service):
    """Whether a player done for the turn has planned nothing, and what follows by default."""

    async def unplanned(self, place: Place, user_id: int) -> TurnDefaults | None:
        """What the rest of the turn does for the user's sides by default when they have no
        order for the open step and none planned for a later one; None when they have one, or
        when ``/order done`` itself has something to say (no side, not running, a question)."""
        async with self.db.read() as session:
            loaded = await load_battle(session, place)
            state, battle = loaded.state, loaded.battle
            sides = loaded.side_of(user_id)
            if battle.status is not BattleStatus.RUNNING or state.pending or not sides:
                return None
            if state.outcome is not None:
                return None
            given = await session.scalar(
                select(BattleOrder.id)
                .where(
                    BattleOrder.battle_id == battle.id,
                    BattleOrder.stage == battle.stage,
                    BattleOrder.user_id == user_id,
                )
                .limit(1)
            )
            rows = await plans.planned_rows(session, battle.id)
            if given is not None or any(row.user_id == user_id for row in rows):
                return None
            steps: list[StepDefaults] = []
            for side in sides:
                mine = _commanded(loaded, side, user_id)
                found = await off_loop(side_defaults, loaded.rules, state, side, mine)
                steps += [StepDefaults(plans.step_words(loaded, s), d) for s, d in found]
            if not steps:  # nothing left to do this turn: nothing to confirm
                return None
            names = tuple(_name(loaded, s) for s in sides)
            return TurnDefaults(names, tuple(steps))


def _name(loaded: Loaded, side: str) -> str:
    row = loaded.side_row(side)
    return side if row is None else row.name


def _commanded(loaded: Loaded, side: str, user_id: int) -> frozenset[str]:
    """The ids of the side's actors this player orders (all of them unless groups are
    assigned to players)."""
    state = loaded.state
    return frozenset(
        actor.id
        for kind in ACTOR_KINDS
        for actor in state.actors(kind)
        if state.owner(kind, actor.id) == side and loaded.commander_of(actor) in (None, user_id)
    )


def side_defaults(
    rules: Rules, state: BattleState, side: str, actors: frozenset[str]
) -> list[tuple[planning.TurnStep, tuple[tuple[str, str], ...]]]:
    """For each step of the turn still to come in which ``side`` acts, the default orders its
    ``actors`` would follow there (judged against the battle as it stands), as (name, words)."""
    found = []
    kinds = {kind.actor for kind in rules.order_kinds}
    for step in planning.side_steps(rules, state, side):
        at = planning.at_step(state, step)
        defaults = []
        for actor_kind in (k for k in ACTOR_KINDS if k in kinds):
            for actor in at.actors(actor_kind):
                if actor.id not in actors:
                    continue
                order = rules.default_order(at, actor.id)
                verdict = None if order is None else rules.judge(at, order)
                if verdict is not None and not isinstance(verdict, Illegal):
                    defaults.append((actor.name, verdict.summary))
        found.append((step, tuple(defaults)))
    return found
