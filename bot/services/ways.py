"""The way forward for an order the rules refused, in the names its player uses: the
``step:`` values of the steps that take it this turn, unit names, order kinds."""

from __future__ import annotations

from collections.abc import Collection

from bot.errors import Way
from bot.services import plans
from bot.services.battle_state import Loaded
from rules_core import planning
from rules_core.orders import Illegal, Instead, Order
from rules_core.state import BattleState
from rules_core.ways import way_forward

# At most this many steps are offered for ``step:``: the nearest come first.
MOST_STEPS = 3


def ways_for(
    loaded: Loaded, state: BattleState, refused: Illegal, sides: Collection[str]
) -> tuple[Way, ...]:
    """What ``sides`` may do instead of the refused order, judged against ``state`` (the
    battle now, or as it will stand at the step the order was planned for)."""
    ways = way_forward(loaded.rules, state, refused)
    named = (_named(loaded, state, way, sides, refused.order) for way in ways)
    return tuple(way for way in named if way.names or way.kind in ("distance", "condition"))


def _named(
    loaded: Loaded, state: BattleState, way: Instead, sides: Collection[str], refused: Order
) -> Way:
    """One way forward with its ids turned into what the player types or reads."""
    if way.kind == "step":
        return _steps(loaded, state, way, sides, refused)
    if way.kind == "targets":
        return Way("targets", tuple(state.unit(u).name for u in way.names))
    if way.kind == "actors":
        names = {a.id: a.name for a in state.actors(loaded.rules.order_kind(refused.kind).actor)}
        return Way("actors", tuple(names.get(a, a) for a in way.names))
    return Way(way.kind, way.names, way.distance, way.words)


def _steps(
    loaded: Loaded, state: BattleState, way: Instead, sides: Collection[str], refused: Order
) -> Way:
    """The ``step:`` values of this turn's steps (after the one judged) that take the order
    and in which ``sides`` act, those that would accept it first (a division's own step);
    the steps' titles when none is left this turn."""
    judged = planning.current_key(loaded.rules, state)
    later = [
        s
        for s in planning.turn_steps(loaded.rules, loaded.state)
        if s.step in way.names and set(s.sides) & set(sides) and s.key != judged
    ]
    taking = [s for s in later if planning.preview(loaded.rules, loaded.state, s, refused).legal]
    later = taking or later
    if later:
        return Way("step", tuple(plans.step_words(loaded, s) for s in later[:MOST_STEPS]))
    sequence = loaded.rules.sequence
    titles = tuple(sequence.step(s).title for s in way.names if s != state.cursor.step)
    return Way("later", titles)  # none: this step is the only one (its reason says more)
