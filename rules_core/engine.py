"""The engine: resolves the current step of a battle with a ruleset's hooks and a seeded stream.

The engine is a set of pure functions of (rules, seed, state, input): ``begin`` places a new
battle at its first step, ``waiting`` says what it waits for, ``resolve`` resolves a step with
its orders, ``answer`` continues a resolution stopped at a question, ``void`` throws a stopped
resolution away to be redone with fresh dice, and ``run`` resolves and carries on through the
steps that need nobody. Each call returns a ``Resolution``: the new state, the new events and
the ``Entry`` rows a battle record keeps so that ``rules_core.verify`` can replay them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from rules_core import far, resume
from rules_core.cards import Draw
from rules_core.codec import Serialisable
from rules_core.context import Context
from rules_core.decisions import GM, Answer, Pending
from rules_core.dice import Roll
from rules_core.events import (
    BattleEnded,
    CardDrawn,
    DiceRolled,
    Event,
    OrderRejected,
    Private,
    StepBegan,
)
from rules_core.orders import ACTOR_KINDS, Illegal, Order, OrderKind
from rules_core.plugin import JUDGED, Rules
from rules_core.seeding import stream, stream_key
from rules_core.state import BattleState
from rules_core.steps import (
    SETUP,
    Cursor,
    Step,
    Subject,
    active_side,
    advance,
    again,
    end_iteration,
    start,
)

MAX_STEPS_PER_RUN = 10_000  # a guard against a sequence of play that never waits
_WAITING = "_waiting"  # where ``waiting`` keeps its answer beside a state's fields


class EngineError(ValueError):
    """The input does not fit where the battle stands (wrong step, no question pending)."""


@dataclass(frozen=True)
class Entry(Serialisable):
    """One call on the engine as a battle record keeps it: where, the input, the rolls."""

    action: str  # "resolve", "answer", "void" or "edit"
    turn: int
    step: str
    attempt: int
    orders: tuple[Order, ...] = ()
    answer: Answer | None = None
    rolls: tuple[Roll, ...] = ()
    state: BattleState | None = None  # the state a GM's edit left, for "edit" only
    reason: str = ""
    draws: tuple[Draw, ...] = ()  # the cards drawn, in order, like ``rolls``
    audience: str = ""  # for the answer to a private question: the side it is private to


@dataclass(frozen=True)
class Resolution:
    """What a call on the engine produced: the new state, new events and record entries."""

    state: BattleState
    events: tuple[Event, ...]
    entries: tuple[Entry, ...]

    def then(self, later: Resolution) -> Resolution:
        """This resolution followed by a later one."""
        return Resolution(later.state, self.events + later.events, self.entries + later.entries)


@dataclass(frozen=True)
class Waiting:
    """What the battle waits for: orders from some sides, an answer, or nothing (over)."""

    step: str
    title: str
    sides: tuple[str, ...] = ()
    pending: Pending | None = None
    finished: bool = False


def begin(rules: Rules, state: BattleState) -> BattleState:
    """Place a new battle at the first step of its sequence of play."""
    rules.parameter_values(state.parameters)  # refuse unknown overrides early
    state = rules.prepare(state)
    order = state.cursor.side_order or tuple(side.id for side in state.sides)
    cursor = start(rules.sequence, order, lambda step: _subjects(rules, state, step))
    return replace(state, cursor=cursor, pending=None, outcome=None)


def waiting(rules: Rules, state: BattleState) -> Waiting:
    """What the battle waits for now (worked out once per state and ruleset: states are frozen)."""
    kept = state.__dict__.get(_WAITING)
    if kept is not None and kept[0] is rules:
        return kept[1]  # type: ignore[no-any-return]
    found = _waiting(rules, state)
    state.__dict__[_WAITING] = (rules, found)
    return found


def known_waiting(rules: Rules, state: BattleState, found: Waiting) -> None:
    """Keep ``found``, worked out for an equal state elsewhere (the engine's worker, or a
    rehearsal of the same resolution), as what this state waits for."""
    state.__dict__[_WAITING] = (rules, found)


def _waiting(rules: Rules, state: BattleState) -> Waiting:
    """What the battle waits for, worked out."""
    step = rules.sequence.step(state.cursor.step)
    if state.outcome is not None:
        return Waiting(step.id, step.title, finished=True)
    if state.pending is not None:
        who = tuple(dict.fromkeys(d.who for d in state.pending.open))
        return Waiting(step.id, step.title, who, state.pending)
    return Waiting(step.id, step.title, rules.acting_sides(state))


def resolve(
    rules: Rules, seed: bytes, state: BattleState, orders: Sequence[Order] = ()
) -> Resolution:
    """Resolve the current step (or loop iteration) with the orders given for it."""
    _check_open(state)
    if state.pending is not None:
        raise EngineError("a question is waiting for an answer")
    return _run_step(rules, seed, state, tuple(orders), (), shown=0, action="resolve")


def answer(rules: Rules, seed: bytes, state: BattleState, given: Answer) -> Resolution:
    """Continue the resolution stopped at its questions with the answer to one of them; while
    others are open the step stays stopped, waiting for them."""
    _check_open(state)
    pending = state.pending
    decision = None if pending is None else pending.asked(given.decision)
    if pending is None or decision is None:
        raise EngineError(f"no question {given.decision!r} is waiting")
    problem = decision.problem(given.choice)
    if problem is not None:
        raise EngineError(f"{problem} of {given.decision!r}")
    if given.by not in (decision.who, GM):
        raise EngineError(f"{given.by!r} may not answer {given.decision!r}")
    answers = (*pending.answers, given)
    result = _run_step(
        rules, seed, state, pending.orders, answers, shown=pending.shown, action="answer"
    )
    if not decision.private:
        return result
    entry = replace(result.entries[0], audience=decision.who)
    return replace(result, entries=(entry,))


def answer_default(rules: Rules, seed: bytes, state: BattleState) -> Resolution:
    """Answer every open question with its default (the deadline passed)."""
    if state.pending is None:
        raise EngineError("no question is waiting")
    result = Resolution(state, (), ())
    for decision in state.pending.open:
        pending = result.state.pending
        if pending is None or pending.asked(decision.id) is None:
            break  # the step went on (and may have asked anew): those get their own deadline
        given = Answer(decision.id, decision.default, GM)
        result = result.then(answer(rules, seed, result.state, given))
    return result


def void(state: BattleState) -> Resolution:
    """Throw away a stopped resolution; the step is redone with a fresh random stream."""
    cursor = state.cursor
    entry = Entry("void", cursor.turn, cursor.step, cursor.attempt)
    voided = replace(state, pending=None, cursor=replace(cursor, attempt=cursor.attempt + 1))
    return Resolution(voided, (), (entry,))


def edit(before: BattleState, after: BattleState, reason: str) -> Resolution:
    """A GM's change outside the rules (a unit moved, a status set, a step undone), on record.

    An undo goes back to an earlier state; its cursor's attempt is raised past every attempt
    already used at that step, so the step is replayed with fresh dice, not foreseen ones.
    """
    cursor = before.cursor
    entry = Entry("edit", cursor.turn, cursor.step, cursor.attempt, state=after, reason=reason)
    return Resolution(after, (), (entry,))


def run(rules: Rules, seed: bytes, state: BattleState, orders: Sequence[Order] = ()) -> Resolution:
    """Resolve the current step, then every following step that needs nobody's input."""
    return settle(rules, seed, resolve(rules, seed, state, orders))


def settle(rules: Rules, seed: bytes, result: Resolution) -> Resolution:
    """Carry a resolution on through the steps that need nobody, until someone must act."""
    for _ in range(MAX_STEPS_PER_RUN):
        if waiting(rules, result.state).sides or result.state.outcome is not None:
            return result
        result = result.then(resolve(rules, seed, result.state))
    raise EngineError("the sequence of play never waits for anyone")


def _check_open(state: BattleState) -> None:
    if state.outcome is not None:
        raise EngineError("the battle is over")


@JUDGED.keeping  # a replayed step judges the same orders on the same states
def _run_step(
    rules: Rules,
    seed: bytes,
    state: BattleState,
    orders: tuple[Order, ...],
    answers: tuple[Answer, ...],
    shown: int,
    action: str,
) -> Resolution:
    resumed = resume.resume(rules, seed, state, answers[-1]) if action == "answer" else None
    if resumed is not None:  # the resolver kept paused at this very question goes on
        context, stop, runner = resumed
    else:  # replayed from the step's start (the record's model, and ``verify``'s)
        context = _fresh_context(rules, seed, state, orders, answers)
        step = rules.sequence.step(state.cursor.step)
        stop, runner = (
            (None, None) if not step.resolver else resume.start(context, rules.resolver(step))
        )
    if stop is not None:
        pending = Pending(stop.decision, orders, answers, len(context.events), stop.others)
        stopped = replace(state, pending=pending)
        resume.keep(rules, seed, stopped, context, runner)
        return _resolution(stopped, context.events[shown:], action, state.cursor, orders, answers)
    finished = _after_step(rules, context)
    return _resolution(finished, context.events[shown:], action, state.cursor, orders, answers)


def _fresh_context(
    rules: Rules,
    seed: bytes,
    state: BattleState,
    orders: tuple[Order, ...],
    answers: tuple[Answer, ...],
) -> Context:
    """A context at the start of the step: its stream, its opening event and complete orders."""
    cursor = state.cursor
    label = cursor.label(rules.sequence)
    rng = stream(seed, stream_key(state.battle_id, cursor.turn, label, cursor.attempt))
    context = Context(rules, replace(state, pending=None), (), answers, rng)
    step = rules.sequence.step(cursor.step)
    side = active_side(rules.sequence, cursor)
    began = StepBegan(cursor.turn, step.id, step.title, side, _subject(cursor), cursor.again)
    context.emit(began)
    context.orders = _complete_orders(rules, context, orders)
    return context


def _complete_orders(
    rules: Rules, context: Context, orders: tuple[Order, ...]
) -> tuple[Order, ...]:
    """The legal orders given, in the order given, plus defaults for every actor of the acting
    sides left without.

    An actor's later order that may not join its earlier ones (a second order of a kind that
    does not combine, more of a kind than its limit) is refused with an ``OrderRejected`` event
    saying why: no order is dropped unseen.
    """
    state = context.state
    kinds = rules.kinds_by_id()
    kept: list[Order] = []
    for order in orders:
        verdict = rules.judge(state, order)
        if isinstance(verdict, Illegal):
            context.emit(OrderRejected(order.actor, order.kind, verdict.reason))
            continue
        order = _shortened(rules, context, order, verdict.order)
        earlier = [o for o in kept if _same_actor(kinds, o, order)]
        problem = _uncombined(kinds, earlier, order)
        if earlier and problem is None:
            joined, problem = rules.join_orders(state, earlier, order)
            order = order if problem else joined[-1]
        if problem:
            context.emit(OrderRejected(order.actor, order.kind, problem))
        else:
            kept.append(order)
    return (*kept, *_defaults(rules, state, kept))


def _shortened(rules: Rules, context: Context, order: Order, judged: Order) -> Order:
    """The order to carry out: an "as far as possible" one as its judge cut it now (the battle
    may have changed since it was given), said in an event when it was cut."""
    if not far.wanted(order):
        return order
    full = rules.judge(context.state, far.plain(order))
    if isinstance(full, Illegal):
        context.emit(far.said(order, judged, full.reason))
    return judged


def _uncombined(
    kinds: Mapping[str, OrderKind], earlier: Sequence[Order], order: Order
) -> str | None:
    """Why ``order`` may not follow the actor's ``earlier`` orders of the step (one of them or
    it is of a kind that does not combine; the first given stands), or None if it may."""
    if not earlier or all(kinds[o.kind].combines for o in (*earlier, order)):
        return None
    first, this = kinds[earlier[0].kind].title, kinds[order.kind].title
    return f"it already has a {first} order this step; {this} does not combine with it"


def _same_actor(kinds: Mapping[str, OrderKind], one: Order, other: Order) -> bool:
    """Whether two orders are given by the same unit, leader, group or side."""
    return one.actor == other.actor and kinds[one.kind].actor == kinds[other.kind].actor


def _defaults(rules: Rules, state: BattleState, kept: Sequence[Order]) -> list[Order]:
    """Default orders for the acting sides' actors that were given none."""
    if not gives_defaults(rules):
        return []  # the base hook gives no actor a default: no need to look at each
    acting = rules.acting_sides(state)
    kinds = rules.kinds_by_id()
    ordered = {(kinds[order.kind].actor, order.actor) for order in kept}
    used = {kind.actor for kind in rules.order_kinds} | {"unit", "leader"}
    found: list[Order] = []
    for actor_kind in (kind for kind in ACTOR_KINDS if kind in used):
        for actor in state.actors(actor_kind):
            side = state.owner(actor_kind, actor.id)
            if (side in acting or GM in acting) and (actor_kind, actor.id) not in ordered:
                default = rules.default_order(state, actor.id)
                if default is not None and not isinstance(rules.judge(state, default), Illegal):
                    found.append(default)
    return found


def gives_defaults(rules: Rules) -> bool:
    """Whether the ruleset has default orders at all: False when its ``default_order`` is the
    base hook's, which gives none (a hook set on the instance counts as given)."""
    return getattr(rules.default_order, "__func__", None) is not Rules.default_order


def _after_step(rules: Rules, context: Context) -> BattleState:
    """Advance the cursor past the resolved step and check whether the battle is over."""
    state = context.state
    sequence = rules.sequence

    def subjects(step: Step) -> tuple[Subject, ...]:
        return _subjects(rules, state, step)

    def following() -> Cursor:
        if context.reopen:
            return again(state.cursor)
        if context.ended:
            return end_iteration(sequence, state.cursor, subjects)
        return advance(sequence, state.cursor, subjects)

    cursor = following()
    if state.cursor.segment == SETUP and cursor.segment != SETUP:
        rules.setup_complete(context)  # once, as the last set-up step ends
        state = context.state
        cursor = following()  # the hook may have set the side order or the subjects' state
    state = replace(state, cursor=cursor)
    outcome = rules.outcome(state)
    if outcome is not None:
        context.emit(BattleEnded(outcome.winner, outcome.reason))
        state = replace(state, outcome=outcome)
    return state


def _resolution(
    state: BattleState,
    events: Sequence[Event],
    action: str,
    cursor: Cursor,
    orders: tuple[Order, ...],
    answers: tuple[Answer, ...],
) -> Resolution:
    rolls = tuple(event.roll for event in events if isinstance(event, DiceRolled))
    draws = tuple(e.draw for e in map(_inner, events) if isinstance(e, CardDrawn))
    given = answers[-1] if action == "answer" else None
    shown_orders = orders if action == "resolve" else ()
    entry = Entry(
        action, cursor.turn, cursor.step, cursor.attempt, shown_orders, given, rolls, draws=draws
    )
    return Resolution(state, tuple(events), (entry,))


def _inner(event: Event) -> Event:
    """An event itself, or the full (private) form of a ``Private`` one."""
    while isinstance(event, Private):
        event = event.event
    return event


def _subjects(rules: Rules, state: BattleState, step: Step) -> tuple[Subject, ...]:
    assert step.repeat_for is not None
    return rules.subjects(step.repeat_for, state)


def _subject(cursor: Cursor) -> str | None:
    return None if cursor.subject is None else cursor.subject.id
