"""The way forward for an order the rules refused, in the names its player uses: the
``step:`` values of the steps that take it this turn, unit names, order kinds."""

from __future__ import annotations

from collections.abc import Collection

from bot.errors import Way
from bot.services import plans
from bot.services.battle_state import Loaded
from rules_core import planning
from rules_core.orders import Illegal, Instead
from rules_core.state import BattleState
from rules_core.ways import way_forward

# At most this many steps are offered for ``step:``: the nearest come first.
MOST_STEPS = 3


def ways_for(
    loaded: Loaded, state: BattleState, refused: Illegal, sides: Collection[str]
) -> tuple[Way, ...]:
    """What ``sides`` may do instead of the refused order, judged against ``state`` (the
    battle now, or as it will stand at the step the order was planned for)."""
    return tuple(
        _named(loaded, state, way, sides) for way in way_forward(loaded.rules, state, refused)
    )


def _named(loaded: Loaded, state: BattleState, way: Instead, sides: Collection[str]) -> Way:
    """One way forward with its ids turned into what the player types or reads."""
    if way.kind == "step":
        return _steps(loaded, state, way, sides)
    if way.kind == "targets":
        return Way("targets", tuple(state.unit(u).name for u in way.names))
    return Way(way.kind, way.names, way.distance, way.words)


def _steps(loaded: Loaded, state: BattleState, way: Instead, sides: Collection[str]) -> Way:
    """The ``step:`` values of this turn's steps (after the one judged) that take the order
    and in which ``sides`` act; the steps' titles when none is left this turn."""
    judged = planning.current_key(loaded.rules, state)
    later = [
        s
        for s in planning.turn_steps(loaded.rules, loaded.state)
        if s.step in way.names and set(s.sides) & set(sides) and s.key != judged
    ]
    if later:
        return Way("step", tuple(plans.step_words(loaded, s) for s in later[:MOST_STEPS]))
    titles = tuple(loaded.rules.sequence.step(step).title for step in way.names)
    return Way("later", titles)
