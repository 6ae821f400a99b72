"""Planning ahead: the steps of the current game turn still to come, and orders kept for them.

A player may give orders for any step of the current game turn in which their side acts, not
only the open one. ``turn_steps`` lists those steps from the sequence of play as data (a step
repeated for subjects gives one entry per subject; alternate player turns give each side its
own steps). An order planned for a later step is judged now, against the present state placed
at that step, for a preview (``preview``), and judged again when its step comes
(``carry_out``): one that has become illegal gives way to its alternatives, tried in turn (a
conditional plan: "charge; if not possible, advance; if not possible, hold"); when none is
legal it is dropped, so the engine falls back on the ruleset's default, and the result says
why, unless its player asked to be consulted, in which case the step waits for that player.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, replace

from rules_core import engine
from rules_core.codec import Serialisable
from rules_core.decisions import GM
from rules_core.engine import Resolution
from rules_core.events import PlanAlternativeUsed, PlanFellBack
from rules_core.orders import Illegal, Order, Verdict
from rules_core.plugin import Rules
from rules_core.state import BattleState
from rules_core.steps import Actors, Cursor, SequenceOfPlay, Step, Subject, active_side, advance

MAX_TURN_STEPS = 500  # a guard against a sequence of play whose turn never ends


@dataclass(frozen=True)
class TurnStep(Serialisable):
    """One step of the current game turn that takes orders: its key, where it stands in the
    sequence (step id, subject), who acts in it, and the cursor that reaches it."""

    key: str  # ``turn:label``, unique in a battle: ``3:orders@roman#r_div2``
    turn: int
    step: str
    title: str
    subject: str | None
    sides: tuple[str, ...]
    cursor: Cursor


@dataclass(frozen=True)
class Planned(Serialisable):
    """An order kept for a step: the step's key, the side giving it, the order, whether its
    player asked to be consulted if it cannot be carried out ("ask me"), and the orders to try
    in turn if it cannot (its alternatives, same actor)."""

    step: str
    side: str
    order: Order
    consult: bool = False
    alternatives: tuple[Order, ...] = ()


@dataclass(frozen=True)
class Fallback(Serialisable):
    """A planned order that could not be carried out at its step, and why."""

    planned: Planned
    reason: str


@dataclass(frozen=True)
class Substitute(Serialisable):
    """A planned order that could not be carried out at its step, replaced by one of its
    alternatives (``number``: 1 for the first); ``reason`` says why each one tried before
    it failed."""

    planned: Planned
    used: Order
    number: int
    reason: str


@dataclass(frozen=True)
class CarriedOut:
    """The planned orders of the step now reached: those carried out (planned or an
    alternative), those dropped (the default is used), the sides whose player asked to be
    consulted about a dropped one, and the alternatives used in place of their order."""

    orders: tuple[Order, ...]
    fallbacks: tuple[Fallback, ...]
    consult: tuple[str, ...]
    substitutes: tuple[Substitute, ...] = ()


def step_key(sequence: SequenceOfPlay, cursor: Cursor) -> str:
    """The key orders planned for the step at ``cursor`` are kept under.

    A counted loop's iteration number is left out: a subject's steps keep their key however
    the loop's order changes during the turn (Impetus: a command activates when it wins an
    initiative contest, so its iteration is not known when its orders are planned)."""
    label = cursor.label(sequence)
    if cursor.subject is not None and sequence.counted(cursor.step):
        numbered = f"#{cursor.subject.id}.{cursor.iteration}"
        label = label.replace(numbered, f"#{cursor.subject.id}", 1)
    return f"{cursor.turn}:{label}"


def current_key(rules: Rules, state: BattleState) -> str:
    """The key of the step the battle stands at."""
    return step_key(rules.sequence, state.cursor)


def step_sides(sequence: SequenceOfPlay, step: Step, cursor: Cursor) -> tuple[str, ...]:
    """The player sides that give orders in a step, from the sequence of play alone."""
    if not step.order_kinds or step.actors in (Actors.NOBODY, Actors.GM):
        return ()
    if step.actors is Actors.BOTH:
        return tuple(cursor.side_order)
    side = active_side(sequence, cursor)
    return () if not side else (side,)


def turn_steps(rules: Rules, state: BattleState) -> tuple[TurnStep, ...]:
    """The steps of the current game turn from the one open now (included) that take orders
    from a player side, in the order they come. Set-up is its own turn (turn 0)."""
    sequence = rules.sequence
    cursor = state.cursor
    if state.outcome is not None:
        return ()
    found: list[TurnStep] = []
    for _ in range(MAX_TURN_STEPS):
        step = sequence.step(cursor.step)
        sides = step_sides(sequence, step, cursor)
        if sides:
            subject = None if cursor.subject is None else cursor.subject.id
            key = step_key(sequence, cursor)
            found.append(TurnStep(key, cursor.turn, step.id, step.title, subject, sides, cursor))
        before = cursor

        def subjects(later: Step, at: Cursor = before) -> tuple[Subject, ...]:
            assert later.repeat_for is not None
            return rules.subjects(later.repeat_for, replace(state, cursor=at))

        cursor = advance(sequence, cursor, subjects)
        if cursor.turn != state.cursor.turn:
            break
    return tuple(found)


def side_steps(rules: Rules, state: BattleState, side: str) -> tuple[TurnStep, ...]:
    """The steps of the current game turn still to come in which ``side`` gives orders."""
    return tuple(step for step in turn_steps(rules, state) if side in step.sides)


def next_turn_steps(rules: Rules, state: BattleState, side: str) -> tuple[TurnStep, ...]:
    """The steps of the next game turn in which ``side`` gives orders: what a player may plan
    a turn ahead."""
    return tuple(step for step in next_turn(rules, state) if side in step.sides)


def next_turn(rules: Rules, state: BattleState) -> tuple[TurnStep, ...]:
    """The steps of the next game turn that take orders from a player side, as the sequence of
    play lays them out from the battle as it stands now (a loop's subjects listed now). None
    once the battle is over or in set-up (turn 0)."""
    if state.outcome is not None or state.cursor.turn < 1:
        return ()
    cursor = state.cursor
    for _ in range(MAX_TURN_STEPS):
        before = cursor

        def subjects(later: Step, at: Cursor = before) -> tuple[Subject, ...]:
            assert later.repeat_for is not None
            return rules.subjects(later.repeat_for, replace(state, cursor=at))

        cursor = advance(rules.sequence, cursor, subjects)
        if cursor.turn != state.cursor.turn:
            return turn_steps(rules, replace(state, cursor=cursor, pending=None))
    return ()


def find_step(rules: Rules, state: BattleState, key: str) -> TurnStep | None:
    """The step of the current game turn with this key, or None if it has passed or is not
    in this turn."""
    return next((step for step in turn_steps(rules, state) if step.key == key), None)


def at_step(state: BattleState, step: TurnStep) -> BattleState:
    """The present state placed at a later step: what a planned order is judged against."""
    return replace(state, cursor=step.cursor, pending=None)


def preview(rules: Rules, state: BattleState, step: TurnStep, order: Order) -> Verdict:
    """The verdict on an order planned for ``step``, judged now against the present state."""
    return rules.judge(at_step(state, step), order)


# The dice a foreseen step rolls: never the battle's own seed, whose stream the real step will
# draw from, or a preview would tell a player how their planned move's dice fall before the
# step resolves (and let them replan around it).
FORESIGHT_SEED = b"foresight: not the battle's dice"


def foreseen(
    rules: Rules,
    state: BattleState,
    step: TurnStep,
    plan: Iterable[Planned],
    side: str,
) -> BattleState:
    """The battle at ``step`` as it will stand after ``side``'s own orders planned for the
    steps before it (of this turn; for a step of the next turn, of both), each step resolved
    with them on ``FORESIGHT_SEED``'s dice, not the battle's, every other side's units and
    leaders where they stand now: what an order that only becomes possible after its
    player's own planned moves is previewed against."""
    plan = [p for p in plan if p.side == side]
    now = state
    steps = turn_steps(rules, state)
    if step.turn > state.cursor.turn:  # a step of the next turn: after all of this one's too
        steps = (*steps, *next_turn_steps(rules, state, side))
    for earlier in steps:
        if earlier.key == step.key:
            break
        orders = [p.order for p in plan if p.step == earlier.key]
        if orders:
            after = engine.resolve(rules, FORESIGHT_SEED, at_step(now, earlier), orders).state
            now = _own_moved(now, after, side)
    return at_step(now, step)


def _own_moved(now: BattleState, after: BattleState, side: str) -> BattleState:
    """``now`` with ``side``'s units and leaders as they stand in ``after``."""
    units = {u.id: u for u in after.units}
    leaders = {ld.id: ld for ld in after.leaders}
    return replace(
        now,
        units=tuple(units.get(u.id, u) if u.side == side else u for u in now.units),
        leaders=tuple(leaders.get(ld.id, ld) if ld.side == side else ld for ld in now.leaders),
    )


def plan_orders(
    rules: Rules, state: BattleState, step: TurnStep, orders: Iterable[Order]
) -> list[Order]:
    """The orders of a list that are legal at ``step`` as the battle stands now."""
    placed = at_step(state, step)
    return [order for order in orders if not isinstance(rules.judge(placed, order), Illegal)]


def plain_alternatives(
    rules: Rules, state: BattleState, step: TurnStep, order: Order
) -> tuple[Order, ...]:
    """Orders an actor may fall back on at ``step`` if ``order`` cannot be carried out: the
    step's other kinds for the same kind of actor that need no parameters (hold, rally), those
    legal as the battle stands now; what a player planning ahead would add as alternatives."""
    kinds = rules.kinds_by_id()
    own = kinds.get(order.kind)
    placed = at_step(state, step)
    found = []
    for kind_id in rules.sequence.step(step.step).order_kinds:
        kind = kinds.get(kind_id)
        if kind is None or own is None or kind.id == own.id or kind.actor != own.actor:
            continue
        if any(param.required for param in kind.params):
            continue
        plain = Order(order.actor, kind.id)
        if not isinstance(rules.judge(placed, plain), Illegal):
            found.append(plain)
    return tuple(found)


def due(rules: Rules, state: BattleState, plan: Iterable[Planned]) -> tuple[Planned, ...]:
    """The planned orders for the step the battle has reached, in the order planned."""
    key = current_key(rules, state)
    return tuple(planned for planned in plan if planned.step == key)


def preview_alternatives(
    rules: Rules, state: BattleState, step: TurnStep, orders: Iterable[Order]
) -> tuple[Verdict, ...]:
    """The verdict on each alternative of a planned order, judged now as ``preview`` does."""
    placed = at_step(state, step)
    return tuple(rules.judge(placed, order) for order in orders)


def first_legal(
    rules: Rules, state: BattleState, item: Planned
) -> tuple[int, Order | None, tuple[str, ...]]:
    """The first of a planned order and its alternatives legal now: its number (0 for the
    order itself), the order (None if none is) and why each one tried before it failed."""
    reasons: list[str] = []
    for number, order in enumerate((item.order, *item.alternatives)):
        verdict = rules.judge(state, order)
        if not isinstance(verdict, Illegal):
            return number, order, tuple(reasons)
        reasons.append(verdict.reason)
    return 0, None, tuple(reasons)


def carry_out(rules: Rules, state: BattleState, planned: Sequence[Planned]) -> CarriedOut:
    """Judge the planned orders of the current step again: keep the legal ones, try the
    alternatives of the rest in turn, drop those with none legal (the engine then uses the
    default) with the reasons, and name the sides to consult."""
    kept: list[Order] = []
    dropped: list[Fallback] = []
    used: list[Substitute] = []
    for item in planned:
        number, order, reasons = first_legal(rules, state, item)
        if order is None:
            dropped.append(Fallback(item, _failures(item, reasons)))
            continue
        kept.append(order)
        if number:
            tried = replace(item, alternatives=item.alternatives[: number - 1])
            used.append(Substitute(item, order, number, _failures(tried, reasons)))
    consult = tuple(dict.fromkeys(f.planned.side for f in dropped if f.planned.consult))
    return CarriedOut(tuple(kept), tuple(dropped), consult, tuple(used))


def _failures(item: Planned, reasons: Sequence[str]) -> str:
    """Why a planned order and each of its alternatives failed, in one clause."""
    tried = (item.order, *item.alternatives)
    if len(tried) == 1:
        return reasons[0]
    said = [reasons[0]] + [
        f"alternative {n} ({order.kind}): {reason}"
        for n, (order, reason) in enumerate(zip(tried[1:], reasons[1:], strict=True), start=1)
    ]
    return "; ".join(said)


def run_planned(
    rules: Rules, seed: bytes, state: BattleState, carried: CarriedOut, given: Sequence[Order] = ()
) -> Resolution:
    """Resolve the current step with its planned orders (after any ``given`` now), carrying on
    through the steps that need nobody; each planned order that fell back is said in the log
    right after the step begins."""
    result = engine.run(rules, seed, state, (*given, *carried.orders))
    notes = tuple(
        PlanFellBack(f.planned.order.actor, f.planned.order.kind, f.reason)
        for f in carried.fallbacks
    ) + tuple(
        PlanAlternativeUsed(
            u.planned.order.actor,
            u.planned.order.kind,
            u.number,
            u.used.kind,
            u.reason,
        )
        for u in carried.substitutes
    )
    events = (*result.events[:1], *notes, *result.events[1:])
    return Resolution(result.state, events, result.entries)


def covered(
    acting: Collection[str], planned_sides: Collection[str], done_sides: Collection[str]
) -> bool:
    """Whether a step may resolve at once: every acting side has orders for it or is done for
    the turn (a step that waits for the GM never resolves on its own)."""
    if not acting or GM in acting:
        return False
    return all(side in planned_sides or side in done_sides for side in acting)
