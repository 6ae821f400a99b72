"""Plans: orders kept for later steps of the game turn, players done for the turn, and the one
call to arms each player gets when their part of a turn opens.

``advance`` (in ``stages``) calls ``through_planned`` before it keeps a resolution: play goes
on at once through every step that each acting player has planned or is done for, and stops
at the first one someone must still look at. Once the next stage is open, ``adopt`` turns the
planned orders for it into that stage's orders and counts players done for the turn as
confirmed; ``calls_to_arms`` lists, for each player whose part of the turn has just opened,
every step they can plan now.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import delete, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.db.models import BattleOrder, PlannedOrder, Readiness, TurnPlan
from bot.errors import InvalidInput
from bot.services.battle_state import Loaded, awaited, subject_words
from bot.services.kept_reads import remembered
from bot.services.resolving import off_loop_at
from bot.services.settings import MIN_HOURS
from rules_core import engine, planning
from rules_core.decisions import GM
from rules_core.engine import Resolution
from rules_core.events import PlanQueried
from rules_core.orders import Illegal, Order
from rules_core.plugin import Rules
from rules_core.state import BattleState, Group, Leader


@dataclass(frozen=True)
class CallToArms:
    """One player's part of a game turn has opened: the steps they may plan, and by when."""

    user_id: int
    side_name: str
    steps: tuple[str, ...]
    deadline_at: datetime | None
    by_dm: bool = False  # the member asked for calls by direct message too (/campaign dm)
    part: tuple[str, ...] = ()  # the groups they command, on a side shared by several players
    side_id: str = ""
    recommend: bool = False  # offer the ruleset's recommended instructions (once per battle)
    later: bool = False  # their part comes after the steps open now: no deadline yet
    stands: bool = False  # they planned this turn last turn and are done for it: not waited on


@dataclass
class Carried:
    """A resolution carried on through planned steps: the planned orders used (for the stage
    log) and the keys whose player asked to be consulted at the step reached."""

    result: Resolution
    orders: list[Order] = field(default_factory=list)
    consult: set[str] = field(default_factory=set)


def planned_of(row: PlannedOrder) -> planning.Planned:
    """A stored planned order, with its alternatives, as the core's plan entry."""
    order = Order(row.actor, row.kind, row.params)
    alternatives = tuple(Order(row.actor, a["kind"], a["params"]) for a in row.alternatives or ())
    return planning.Planned(row.step_key, row.side_id, order, row.consult, alternatives)


def adopted(rules: Rules, state: BattleState, row: PlannedOrder) -> tuple[str, dict[str, Any], str]:
    """The kind, parameters and summary a planned order becomes its step's order with: its
    first alternative legal as the step opens when the order itself is not (none legal: the
    order, refused at resolution as before)."""
    number, order, _ = planning.first_legal(rules, state, planned_of(row))
    if order is None or not number:
        return row.kind, dict(row.params), row.summary
    verdict = rules.judge(state, order)
    said = verdict.summary if not isinstance(verdict, Illegal) else ""
    return order.kind, dict(order.params), f"{said} (alternative {number} to {row.kind})"[:400]


async def planned_rows(
    session: AsyncSession, battle_id: int, key: str | None = None
) -> list[PlannedOrder]:
    """The battle's planned orders (for one step key, if given), in the order planned."""
    query = select(PlannedOrder).where(PlannedOrder.battle_id == battle_id)
    if key is not None:
        query = query.where(PlannedOrder.step_key == key)
    rows = await session.scalars(query.order_by(PlannedOrder.submitted_at, PlannedOrder.id))
    return list(rows)


async def user_planned(session: AsyncSession, battle_id: int, user_id: int) -> list[Any]:
    """One user's planned orders for the battle, in the order planned: only what ``/orders
    mine`` shows (actor, kind, summary, step title, consult, alternatives), as plain rows.

    A full turn's plan is hundreds of rows: building each as an ORM object with its parameters
    decoded, for every player, cost ``/orders mine`` about 20 ms of CPU at 2 x 60 units."""
    query = (
        select(
            PlannedOrder.actor,
            PlannedOrder.kind,
            PlannedOrder.summary,
            PlannedOrder.step_title,
            PlannedOrder.consult,
            PlannedOrder.alternatives,
        )
        .where(PlannedOrder.battle_id == battle_id, PlannedOrder.user_id == user_id)
        .order_by(PlannedOrder.submitted_at, PlannedOrder.id)
    )
    return list(await session.execute(query))


async def turn_plan(
    session: AsyncSession, battle_id: int, turn: int, key: str, user_id: int
) -> TurnPlan:
    """A player's row for a game turn, made if missing."""
    row = await session.scalar(
        select(TurnPlan).where(
            TurnPlan.battle_id == battle_id, TurnPlan.turn == turn, TurnPlan.side_id == key
        )
    )
    if row is None:
        row = TurnPlan(battle_id=battle_id, turn=turn, side_id=key, user_id=user_id)
        session.add(row)
    return row


@dataclass
class TurnRows:
    """The players' rows of the game turn a resolution's new stage is in, read once for it:
    ``adopt``, ``plan_deadline`` and ``calls_to_arms`` each asked for them (a statement per
    player, inside the keeping write with the write lock held). Empty once the battle is over
    or waits on a question: none of them reads them then."""

    battle_id: int
    turn: int
    rows: dict[str, TurnPlan]
    # The earliest turn with planned orders before the resolution (None: none at all, so
    # there are none to forget or adopt: ``adopt`` reads and deletes nothing).
    oldest_planned: int | None = None

    def done(self) -> set[str]:
        """The keys of the players done for the rest of the turn (as ``done_keys``)."""
        return {key for key, row in self.rows.items() if row.done_at is not None}

    def row(self, session: AsyncSession, key: str, user_id: int) -> TurnPlan:
        """A player's row for the turn, made if missing (as ``turn_plan``)."""
        row = self.rows.get(key)
        if row is None:
            row = TurnPlan(battle_id=self.battle_id, turn=self.turn, side_id=key, user_id=user_id)
            session.add(row)
            self.rows[key] = row
        return row


async def oldest_planned(session: AsyncSession, battle_id: int) -> int | None:
    """The earliest game turn the battle has planned orders for; None if it has none."""

    async def read() -> int | None:
        return await session.scalar(
            select(func.min(PlannedOrder.turn)).where(PlannedOrder.battle_id == battle_id)
        )

    return await remembered(session, battle_id, "oldest_planned", read)


async def turn_rows(session: AsyncSession, loaded: Loaded, oldest: int | None) -> TurnRows:
    """The rows of the game turn the loaded battle's open stage is in (see ``TurnRows``)."""
    battle, state = loaded.battle, loaded.state
    found = TurnRows(battle.id, state.cursor.turn, {}, oldest)
    if state.outcome is None and state.pending is None:
        rows = await session.scalars(
            select(TurnPlan).where(TurnPlan.battle_id == battle.id, TurnPlan.turn == found.turn)
        )
        found.rows.update((row.side_id, row) for row in rows)
    return found


async def done_keys(session: AsyncSession, battle_id: int, turn: int) -> set[str]:
    """The keys of the players done for the rest of a game turn."""

    async def read() -> set[str]:
        rows = await session.scalars(
            select(TurnPlan.side_id).where(
                TurnPlan.battle_id == battle_id,
                TurnPlan.turn == turn,
                TurnPlan.done_at.is_not(None),
            )
        )
        return set(rows)

    return await remembered(session, battle_id, ("done_keys", turn), read)


async def _planned_now(session: AsyncSession, battle_id: int, key: str) -> list[PlannedOrder]:
    """``planned_rows`` for a step a resolution carries on through: a rehearsal's answer
    stands for its keeping write when there are none (rows there are to delete: read again)."""
    return await remembered(
        session,
        battle_id,
        ("planned_rows", key),
        lambda: planned_rows(session, battle_id, key),
        keep=_none,
    )


def _none(rows: list[PlannedOrder]) -> bool:
    return not rows


async def done_next_turn(
    session: AsyncSession, loaded: Loaded, user_id: int, now: datetime
) -> None:
    """Count a player done for the whole next game turn: when it opens, the steps they planned
    for resolve without waiting for them (those they did not, with the defaults). Refused
    when they planned nothing for it (nothing is changed)."""
    turn = loaded.state.cursor.turn + 1
    planned = await session.scalar(
        select(PlannedOrder.id)
        .where(
            PlannedOrder.battle_id == loaded.battle.id,
            PlannedOrder.user_id == user_id,
            PlannedOrder.turn == turn,
        )
        .limit(1)
    )
    if planned is None:
        raise InvalidInput(
            "You have planned nothing for the next turn yet: give its orders first, each with "
            f"a `step` starting `{NEXT_TURN.strip()}` (`/orders mine` lists your plan), then "
            "`/order done next_turn:true`. `/order done turn:true` is done for this turn only."
        )
    for side in loaded.side_of(user_id):
        row = await turn_plan(
            session, loaded.battle.id, turn, loaded.key_of(side, user_id), user_id
        )
        row.done_at = now


async def forget_done(session: AsyncSession, battle_id: int, turn: int) -> None:
    """Nobody is done for a game turn any more (a GM went back a step: everyone looks again)."""
    rows = await session.scalars(
        select(TurnPlan).where(TurnPlan.battle_id == battle_id, TurnPlan.turn == turn)
    )
    for row in rows:
        row.done_at = None


async def calls_made(session: AsyncSession, loaded: Loaded) -> tuple[CallToArms, ...]:
    """The calls to arms the open stage made, as posted (for a result posted again)."""
    battle, state = loaded.battle, loaded.state
    # A stage stopped on a question makes no calls (``calls_to_arms``); a call is found by
    # the stage it opened, not by a time another stage may share.
    if state.outcome is not None or state.pending is not None:
        return ()
    rows = await session.scalars(
        select(TurnPlan).where(
            TurnPlan.battle_id == battle.id,
            TurnPlan.turn == state.cursor.turn,
            TurnPlan.called_stage == battle.stage,
        )
    )
    names = {s.side_id: s.name for s in battle.sides}
    calls = []
    now_due = {user for _, user in awaited(loaded, engine.waiting(loaded.rules, state).sides)}
    # As first posted: the players the stage waits on, then those whose part comes later.
    for row in sorted(rows, key=lambda r: (r.user_id not in now_due, r.id)):
        side = row.side_id.split(":")[0]
        early = row.user_id not in now_due
        mine = part_steps if early else own_steps
        steps = tuple(step_words(loaded, s) for s in mine(loaded, side, row.user_id))
        if len(steps) > (0 if early else 1):
            dm = wants_dm(loaded, row.user_id)
            part = loaded.part_of(side, row.user_id)
            offer = await offers_recommended(session, loaded, row.user_id)
            name = names.get(side, side)
            calls.append(
                CallToArms(
                    row.user_id, name, steps, row.due_at, dm, part, side, offer, early, stood(row)
                )
            )
    return tuple(calls)


async def drop_passed(session: AsyncSession, battle_id: int, turn: int) -> None:
    """Forget planned orders of game turns already over (a step skipped, a unit gone)."""
    await session.execute(
        delete(PlannedOrder).where(PlannedOrder.battle_id == battle_id, PlannedOrder.turn < turn)
    )


async def through_planned(
    session: AsyncSession, loaded: Loaded, result: Resolution, consult: set[str]
) -> Carried:
    """Carry a resolution on through every step that each acting player has planned or is
    done for; stop at one that waits for someone, or for a player to be consulted (their
    keys are added to ``consult`` and never count as done at that step)."""
    carried = Carried(result, consult=consult)
    rules, seed = loaded.rules, loaded.seed
    for _ in range(planning.MAX_TURN_STEPS):
        state = carried.result.state
        if state.outcome is not None or state.pending is not None:
            break
        acting = engine.waiting(rules, state).sides
        if not acting or GM in acting:
            break
        key = planning.current_key(rules, state)
        rows = await _planned_now(session, loaded.battle.id, key)
        at = replace(loaded, state=state)
        carried_out = planning.carry_out(rules, state, [planned_of(r) for r in rows])
        if carried_out.consult:
            queried = [f.planned for f in carried_out.fallbacks if f.planned.consult]
            for row in rows:
                if planned_of(row) in queried:
                    await session.delete(row)
                    carried.consult.add(at.key_of(row.side_id, row.user_id))
            notes = tuple(PlanQueried(side, key) for side in carried_out.consult)
            carried.result = Resolution(
                state, (*carried.result.events, *notes), carried.result.entries
            )
            break
        planned = {at.key_of(r.side_id, r.user_id) for r in rows}
        done = await done_keys(session, loaded.battle.id, state.cursor.turn)
        waiting = [at.key_of(s, u) for s, u in awaited(at, acting)]
        # A step in which no acting side has anything to order waits for nobody.
        if waiting and not planning.covered(waiting, planned, done - carried.consult):
            break
        step = await off_loop_at(
            loaded.battle.id, planning.run_planned, rules, seed, state, carried_out
        )
        carried.result = carried.result.then(step)
        carried.orders += carried_out.orders
        for row in rows:
            await session.delete(row)
    await session.flush()
    return carried


async def adopt(
    session: AsyncSession, loaded: Loaded, now: datetime, consult: set[str], turn: TurnRows
) -> None:
    """Make the planned orders for the stage just opened its orders, and count the players
    done for the turn (but not those to be consulted) as having confirmed it."""
    battle, state = loaded.battle, loaded.state
    if state.outcome is not None:
        return
    oldest = turn.oldest_planned
    if oldest is not None and oldest < state.cursor.turn:
        await drop_passed(session, battle.id, state.cursor.turn)
    if state.pending is not None:
        return
    key = planning.current_key(loaded.rules, state)
    seqs: dict[str, int] = {}
    planned = [] if oldest is None else await planned_rows(session, battle.id, key)
    for row in planned:
        seq = seqs.get(row.actor, 0)
        seqs[row.actor] = seq + 1
        kind, params, summary = adopted(loaded.rules, state, row)
        session.add(
            BattleOrder(
                battle_id=battle.id,
                stage=battle.stage,
                side_id=row.side_id,
                user_id=row.user_id,
                actor=row.actor,
                seq=seq,
                kind=kind,
                params=params,
                summary=summary,
                submitted_at=row.submitted_at,
            )
        )
        await session.delete(row)
    done = turn.done()
    acting = engine.waiting(loaded.rules, state).sides
    for side, user in awaited(loaded, acting):
        ready_key = loaded.key_of(side, user)
        if ready_key in done and ready_key not in consult:
            session.add(
                Readiness(
                    battle_id=battle.id,
                    stage=battle.stage,
                    side_id=ready_key,
                    user_id=user,
                    confirmed_at=now,
                )
            )
            done.discard(ready_key)  # one row per key
    await session.flush()


async def calls_to_arms(
    session: AsyncSession, loaded: Loaded, now: datetime, turn: TurnRows
) -> tuple[CallToArms, ...]:
    """One call for each player the open stage waits on whose part of the game turn opens
    now: every step of the turn they may plan, with the deadline."""
    battle, state, rules = loaded.battle, loaded.state, loaded.rules
    if state.outcome is not None or state.pending is not None:
        return ()
    acting = engine.waiting(rules, state).sides
    names = {s.side_id: s.name for s in battle.sides}
    # A player whose part comes later in the turn is called now too (no deadline yet, their
    # steps worked out already): planning it while the others play theirs, the battle does
    # not stop for them again.
    now_due: list[tuple[str, int, tuple[planning.TurnStep, ...] | None]] = [
        (side, user, None) for side, user in awaited(loaded, acting) if side != GM
    ]
    calls = []
    for side, user, early in [*now_due, *later_in_turn(loaded, acting)]:
        key = loaded.key_of(side, user)
        row = turn.row(session, key, user)
        if row.called_at is not None:
            continue
        later = early is not None
        due = None if later else battle.deadline_at
        mine = early if early is not None else own_steps(loaded, side, user)
        steps = tuple(step_words(loaded, s) for s in mine)
        if len(steps) > (0 if later else 1):
            row.called_at, row.called_stage, row.due_at = now, battle.stage, due
            dm, part = wants_dm(loaded, user), loaded.part_of(side, user)
            offer = await offers_recommended(session, loaded, user)
            name = names.get(side, side)
            stands = stood(row)
            calls.append(CallToArms(user, name, steps, due, dm, part, side, offer, later, stands))
        elif not later:
            row.called_at, row.called_stage, row.due_at = now, battle.stage, due
    await session.flush()
    return tuple(calls)


def stood(row: TurnPlan) -> bool:
    """Whether a player was done for a game turn before they were called to it (they planned
    it the turn before, ``/order done next_turn:true``): their plan stands."""
    return row.done_at is not None and (row.called_at is None or row.done_at <= row.called_at)


def later_in_turn(
    loaded: Loaded, acting: Sequence[str]
) -> list[tuple[str, int, tuple[planning.TurnStep, ...] | None]]:
    """(side, user, their steps) for each player the open step does not wait on who has steps
    of their own still to come in this game turn."""
    found: list[tuple[str, int, tuple[planning.TurnStep, ...] | None]] = []
    for row in loaded.battle.sides:
        if row.side_id in acting:
            continue
        users = [row.owner_id, *(row.commanders or {}).values()]
        for user in dict.fromkeys(users):
            steps = part_steps(loaded, row.side_id, user)
            if steps:
                found.append((row.side_id, user, steps))
    return found


def part_steps(loaded: Loaded, side: str, user_id: int) -> tuple[planning.TurnStep, ...]:
    """``own_steps``, but on a side shared by several players only the steps about a group or
    leader this player commands, unless they own the side (its side-wide steps are the
    owner's to plan)."""
    row = loaded.side_row(side)
    shared = row is not None and bool(row.commanders) and row.owner_id != user_id
    return own_steps(loaded, side, user_id, groups_only=shared)


async def offers_recommended(session: AsyncSession, loaded: Loaded, user_id: int) -> bool:
    """Whether a player's call to arms offers the ruleset's recommended instructions: once per
    battle, in their first call (none called in an earlier game turn)."""
    if not loaded.rules.recommended:
        return False
    earlier = await session.scalar(
        select(TurnPlan.id)
        .where(
            TurnPlan.battle_id == loaded.battle.id,
            TurnPlan.user_id == user_id,
            TurnPlan.turn < loaded.state.cursor.turn,
            TurnPlan.called_at.is_not(None),
        )
        .limit(1)
    )
    return earlier is None


def own_steps(
    loaded: Loaded, side: str, user_id: int, *, groups_only: bool = False
) -> tuple[planning.TurnStep, ...]:
    """The steps of the turn still to come in which ``side`` acts, but for a step about a group
    or leader another player of a shared side commands: that one is theirs to plan (with
    ``groups_only``, the side-wide steps are left out too)."""
    state = loaded.state
    subjects: dict[str, Group | Leader] = {g.id: g for g in state.groups}
    subjects.update((leader.id, leader) for leader in state.leaders)
    found = []
    for step in planning.side_steps(loaded.rules, state, side):
        subject = subjects.get(step.subject or "")
        if subject is None and groups_only:
            continue
        commander = None if subject is None else loaded.commander_of(subject)
        if commander in (None, user_id):
            found.append(step)
    return tuple(found)


def wants_dm(loaded: Loaded, user_id: int) -> bool:
    """Whether a member asked for their calls to arms by direct message as well."""
    member = next((m for m in loaded.campaign.members if m.user_id == user_id), None)
    return member is not None and member.dm_calls


NEXT_TURN = "Next turn: "  # how a step of the next game turn is named, before its title


def step_words(loaded: Loaded, step: planning.TurnStep) -> str:
    """``Command: Orders (Legio I)``: a step of the turn as a player picks it (``Next turn:
    Command: Orders (Legio I)`` for one of the next turn)."""
    ahead = NEXT_TURN if step.turn > loaded.state.cursor.turn else ""
    return f"{ahead}{step.title}{subject_words(planning.at_step(loaded.state, step))}"


def plannable_steps(loaded: Loaded, sides: set[str]) -> tuple[planning.TurnStep, ...]:
    """The steps ``sides`` act in that an order may be planned for: those of this game turn
    still to come, then those of the next (a plan for the next turn, kept until it opens)."""
    rules, state = loaded.rules, loaded.state
    steps = (*planning.turn_steps(rules, state), *planning.next_turn(rules, state))
    return tuple(s for s in steps if sides & set(s.sides))


def plan_deadline(
    loaded: Loaded, now: datetime, consult: set[str], turn: TurnRows
) -> datetime | None:
    """The deadline of the open stage when every player it waits on was called to arms for
    this part of the turn and has planned ahead in it: their plan's deadline covers all its
    steps (the latest of them, a quarter of an hour from now at the soonest). None keeps the
    step's own deadline: players who answer step by step get a fresh one for each step, and
    so do questions, players to be consulted and anyone never called."""
    state = loaded.state
    if state.outcome is not None or state.pending is not None:
        return None
    acting = engine.waiting(loaded.rules, state).sides
    keys = {loaded.key_of(side, user) for side, user in awaited(loaded, acting) if side != GM}
    if not keys or keys & consult:
        return None
    rows = [turn.rows[key] for key in sorted(keys) if key in turn.rows]
    dues = [row.due_at for row in rows if row.due_at is not None and row.planned]
    if len(dues) < len(keys):
        return None
    return max(max(dues), now + timedelta(hours=MIN_HOURS))
