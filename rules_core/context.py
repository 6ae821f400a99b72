"""The context a resolver works in: the state it changes, its orders, dice, questions, events."""

from __future__ import annotations

import itertools
import random
from collections.abc import Collection, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from rules_core.codec import Json
from rules_core.decisions import GM, Answer, Decision
from rules_core.dice import Dice, Roll
from rules_core.events import (
    ArrivedOrLeft,
    DecisionAnswered,
    DecisionRequested,
    DiceRolled,
    Event,
    LeaderMoved,
    SideOrderSet,
    StatusChanged,
    TestResolved,
    UnitDestroyed,
    UnitMoved,
)
from rules_core.orders import Order
from rules_core.state import BattleState, Leader, Point, Unit
from rules_core.status import Scope
from rules_core.steps import Step, Subject, active_side
from rules_core.tables import Band, ScoreTable

if TYPE_CHECKING:
    from rules_core.plugin import Rules


class Suspended(Exception):
    """Raised inside a resolver when it asks a question nobody has answered yet."""

    def __init__(self, decision: Decision, others: tuple[Decision, ...] = ()) -> None:
        super().__init__(decision.id)
        self.decision = decision
        self.others = others  # further questions asked at the same time


class Context:
    """Everything a resolver may use; it changes the battle only through ``state``."""

    def __init__(
        self,
        rules: Rules,
        state: BattleState,
        orders: Sequence[Order],
        answers: Sequence[Answer],
        rng: random.Random,
    ) -> None:
        self.rules = rules
        self.state = state
        self.orders = tuple(orders)
        self.events: list[Event] = []
        # Every roll goes into the log, so the record holds each one for verification.
        self.dice = Dice(rng, lambda roll: self.emit(DiceRolled(roll)))
        self._answers = {answer.decision: answer for answer in answers}
        self.params: Mapping[str, Json] = rules.parameter_values(state.parameters)

    @property
    def step(self) -> Step:
        """The step being resolved."""
        return self.rules.sequence.step(self.state.cursor.step)

    @property
    def side(self) -> str | None:
        """The side acting in this step, iteration or player turn (None if both)."""
        return active_side(self.rules.sequence, self.state.cursor)

    @property
    def subject(self) -> Subject | None:
        """The subject of this iteration of a repeated step."""
        return self.state.cursor.subject

    def emit(self, event: Event) -> None:
        """Add an event to the resolution's log."""
        self.events.append(event)

    def number(self, name: str) -> float:
        """A numeric parameter's value."""
        value = self.params[name]
        if not isinstance(value, int | float) or isinstance(value, bool):
            raise TypeError(f"parameter {name!r} is not a number")
        return float(value)

    def orders_of(self, side: str | None = None) -> tuple[Order, ...]:
        """This step's orders, optionally only those for one side's units and leaders."""
        if side is None:
            return self.orders
        owners = {unit.id: unit.side for unit in self.state.units}
        owners.update({leader.id: leader.side for leader in self.state.leaders})
        return tuple(order for order in self.orders if owners.get(order.actor) == side)

    def ask(self, decision: Decision) -> str:
        """The answer to a question; suspends the resolution until somebody gives it."""
        self.emit(DecisionRequested(decision))
        answer = self._answers.get(decision.id)
        if answer is None:
            raise Suspended(decision)
        self.emit(DecisionAnswered(decision.id, answer.choice, answer.by, answer.reason))
        return answer.choice

    def ask_all(self, decisions: Sequence[Decision]) -> tuple[str, ...]:
        """The answers to independent questions asked at once (two charged units choosing
        their response): the step waits until every one is answered, in any order."""
        for decision in decisions:
            self.emit(DecisionRequested(decision))
        missing = [d for d in decisions if d.id not in self._answers]
        if missing:
            raise Suspended(missing[0], tuple(missing[1:]))
        for decision in decisions:
            answer = self._answers[decision.id]
            self.emit(DecisionAnswered(decision.id, answer.choice, answer.by, answer.reason))
        return tuple(self._answers[d.id].choice for d in decisions)

    def test(
        self, subject: str, test: str, roll: Roll, table: ScoreTable, passing: Collection[str]
    ) -> Band:
        """Look a roll's total up in a table and log the test with the row that decided it
        (with no ``passing`` results it is a look-up, logged without passed or failed)."""
        band = table.lookup(roll.total)
        passed = band.result in passing
        self.emit(TestResolved(subject, test, roll.total, passed, band.row, bool(passing)))
        return band

    def set_side_order(self, order: Sequence[str], reason: str) -> None:
        """Set the order the sides act in (initiative, who goes first)."""
        cursor = replace(self.state.cursor, side_order=tuple(order))
        self.state = replace(self.state, cursor=cursor)
        self.emit(SideOrderSet(tuple(order), reason))

    def set_status(self, unit_id: str, reason: str | None, **changes: Json) -> None:
        """Change declared status fields of a unit, logging each with its reason (None: quietly)."""
        self._set(Scope.UNIT, unit_id, self.state.unit(unit_id).status, reason, changes)

    def set_leader_status(self, leader_id: str, reason: str | None, **changes: Json) -> None:
        """Change declared status fields of a leader, logging each with its reason."""
        self._set(Scope.LEADER, leader_id, self.state.leader(leader_id).status, reason, changes)

    def set_group_status(self, group_id: str, reason: str | None, **changes: Json) -> None:
        """Change declared status fields of a group (wing, division), logging each change."""
        self._set(Scope.GROUP, group_id, self.state.group(group_id).status, reason, changes)

    def set_side_status(self, side_id: str, reason: str | None, **changes: Json) -> None:
        """Change declared status fields of a side (army will, tallies), logging each change."""
        self._set(Scope.SIDE, side_id, self.state.side(side_id).status, reason, changes)

    def set_battle_status(self, reason: str | None, **changes: Json) -> None:
        """Change declared status fields of the battle itself."""
        self._set(Scope.BATTLE, "", self.state.status, reason, changes)

    def _set(
        self,
        scope: Scope,
        holder: str,
        before: Mapping[str, Json],
        reason: str | None,
        changes: Mapping[str, Json],
    ) -> None:
        """Validate, log and apply a change of one holder's status."""
        self.state = self.rules.statuses.apply(self.state, scope, holder, changes)
        self._log(holder or "battle", before, reason, changes)

    def _log(
        self,
        subject: str,
        before: Mapping[str, Json],
        reason: str | None,
        changes: Mapping[str, Json],
    ) -> None:
        """A StatusChanged event per changed field; bookkeeping (no reason) is not logged."""
        if reason is None:
            return
        for name, value in changes.items():
            old = before.get(name)
            if old != value:
                self.emit(StatusChanged(subject, name, old, value, reason))

    def move(
        self, unit_id: str, path: Sequence[Point], facing: float, notes: Sequence[str] = ()
    ) -> None:
        """Move a unit along a path to its last point, turned to ``facing``."""
        unit = self.state.unit(unit_id)
        end = path[-1]
        length = sum(_leg(a, b) for a, b in itertools.pairwise(path))
        self.state = self.state.with_unit(replace(unit, x=end[0], y=end[1], facing=facing % 360))
        self.emit(UnitMoved(unit_id, tuple(path), round(length, 6), facing % 360, tuple(notes)))

    def destroy(self, unit_id: str, reason: str) -> None:
        """Remove a unit from the battle."""
        self.state = self.state.without_unit(unit_id)
        self.emit(UnitDestroyed(unit_id, reason))

    def move_leader(self, leader_id: str, path: Sequence[Point], notes: Sequence[str] = ()) -> None:
        """Move a leader along a path to its last point (detached from any unit)."""
        leader = self.state.leader(leader_id)
        end = path[-1]
        length = sum(_leg(a, b) for a, b in itertools.pairwise(path))
        moved = replace(leader, x=end[0], y=end[1], attached_to=None)
        self.state = self.state.with_leader(moved)
        self.emit(LeaderMoved(leader_id, tuple(path), round(length, 6), tuple(notes)))

    def add_unit(self, unit: Unit, reason: str) -> None:
        """Bring a new unit onto the table (reinforcements, a unit raised by a card)."""
        if any(u.id == unit.id for u in self.state.units):
            raise KeyError(f"unit {unit.id!r} is already on the table")
        self.state = replace(self.state, units=(*self.state.units, unit))
        self.emit(ArrivedOrLeft(unit.id, "unit", True, reason))

    def remove_unit(self, unit_id: str, reason: str) -> None:
        """Take a unit off the table without destroying it (withdrawn, sent away)."""
        self.state = self.state.without_unit(unit_id)
        self.emit(ArrivedOrLeft(unit_id, "unit", False, reason))

    def add_leader(self, leader: Leader, reason: str) -> None:
        """Bring a leader into the battle (a hero appears, a replacement commander)."""
        if any(ld.id == leader.id for ld in self.state.leaders):
            raise KeyError(f"leader {leader.id!r} is already in the battle")
        self.state = replace(self.state, leaders=(*self.state.leaders, leader))
        self.emit(ArrivedOrLeft(leader.id, "leader", True, reason))

    def remove_leader(self, leader_id: str, reason: str) -> None:
        """Take a leader out of the battle (killed, captured, replaced)."""
        self.state.leader(leader_id)
        leaders = tuple(ld for ld in self.state.leaders if ld.id != leader_id)
        self.state = replace(self.state, leaders=leaders)
        self.emit(ArrivedOrLeft(leader_id, "leader", False, reason))

    def answerer(self, side: str | None) -> str:
        """Who answers a question about a side's troops: that side, or the GM if none."""
        return GM if side is None else side


def _leg(a: Point, b: Point) -> float:
    return float(((b[0] - a[0]) ** 2 + (b[1] - a[1]) ** 2) ** 0.5)
