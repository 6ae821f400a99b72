"""What the war table offers for one actor: the order kinds open to it in each step of the turn
its side acts in, with each kind's typed parameters, read from the ruleset's own definitions.

The same steps as ``/order give step:`` (``plans.plannable_steps``) and the same kinds as
``kind:`` (the step's ``order_kinds``): the page keeps no parameter model of its own.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.errors import PermissionDenied
from bot.services import plans
from bot.services.battle_state import Loaded, find_actor
from bot.services.order_params import side_of
from rules_core import planning
from rules_core.orders import Param
from rules_core.state import Group, Leader, Side, Unit

ACTOR_KIND_OF = {Unit: "unit", Leader: "leader", Group: "group", Side: "side"}


@dataclass(frozen=True)
class KindChoice:
    """An order kind open to the actor: its id, its title and its typed parameters."""

    id: str
    title: str
    params: tuple[Param, ...]


@dataclass(frozen=True)
class StepChoice:
    """A step of the turn the actor's side acts in: its key (what ``step`` takes), its words,
    whether it is the step open now, and the kinds of order it takes from the actor."""

    key: str
    words: str
    open: bool
    kinds: tuple[KindChoice, ...]


@dataclass(frozen=True)
class ActorChoices:
    """An actor (unit, leader, group or side) and what it may be ordered, step by step."""

    actor_id: str
    name: str
    actor_kind: str
    steps: tuple[StepChoice, ...]


def choices_of(loaded: Loaded, user_id: int, actor_ref: str) -> ActorChoices:
    """What this user may order the named actor (a GM: any actor; a player: their side's)."""
    gm = loaded.is_gm(user_id)
    mine = loaded.side_of(user_id)
    if not gm and not mine:
        loaded.require_not_handed_away(user_id)
        raise PermissionDenied("You have no side in this battle.")
    actor = find_actor(loaded.state, actor_ref, None if gm else mine)
    actor_kind = ACTOR_KIND_OF[type(actor)]
    now_open = planning.current_key(loaded.rules, loaded.state)
    steps = []
    for step in plans.plannable_steps(loaded, {side_of(actor)}):
        ids = loaded.rules.sequence.step(step.step).order_kinds
        kinds = tuple(
            KindChoice(kind.id, kind.title, kind.params)
            for kind in map(loaded.rules.order_kind, ids)
            if kind.actor == actor_kind
        )
        words = plans.step_words(loaded, step)
        steps.append(StepChoice(step.key, words, step.key == now_open, kinds))
    return ActorChoices(actor.id, actor.name, actor_kind, tuple(steps))
