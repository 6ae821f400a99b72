"""The context a resolver works in: the state it changes, its orders, dice, questions, events."""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import replace
from typing import Protocol, TypeVar

from rules_core.cards import CONCEALED, DeckState, Draw, EmptyDeckError, full_deck, sort_codes
from rules_core.codec import Json
from rules_core.decisions import GM, Answer, Decision
from rules_core.dice import Dice, Roll
from rules_core.events import (
    ArrivedOrLeft,
    CardDrawn,
    CardMoved,
    DecisionAnswered,
    DecisionRequested,
    DiceRolled,
    Event,
    LeaderMoved,
    Private,
    SideOrderSet,
    StatusChanged,
    SubjectsChanged,
    TerrainAdded,
    TerrainMoved,
    TerrainRemoved,
    TestResolved,
    UnitDeployed,
    UnitDestroyed,
    UnitLeftTable,
    UnitMoved,
    UnitReturned,
)
from rules_core.orders import Order, OrderKind, Verdict
from rules_core.secrets import masked_decision
from rules_core.state import (
    OFF_TABLE,
    RESERVE,
    BattleState,
    Leader,
    Point,
    TerrainFeature,
    Unit,
)
from rules_core.status import Scope, StatusSheet
from rules_core.steps import SequenceOfPlay, Step, Subject, active_side
from rules_core.tables import Band, ScoreTable


class RulesView(Protocol):
    """What a resolver's context may ask of the ruleset's rules (``rules_core.plugin.Rules``
    is one): a protocol, because the rules sit above the context they hand to resolvers."""

    @property
    def sequence(self) -> SequenceOfPlay:
        """The declared turn structure."""
        ...

    @property
    def statuses(self) -> StatusSheet:
        """Every status key the rules keep."""
        ...

    def parameter_values(self, overrides: Mapping[str, Json] = {}) -> dict[str, Json]:
        """Every parameter's value, with a campaign's overrides applied."""
        ...

    def order_kind(self, kind_id: str) -> OrderKind:
        """The order kind with this id."""
        ...

    def judge(self, state: BattleState, order: Order) -> Verdict:
        """Whether an order is legal now, and why not."""
        ...

    def deployment_zone(self, state: BattleState, side: str) -> tuple[Point, ...] | None:
        """The area a side deploys in, or None for anywhere."""
        ...

    def deployment_facing(self, state: BattleState, side: str) -> float:
        """The facing a side's units deploy with unless told."""
        ...


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
        rules: RulesView,
        state: BattleState,
        orders: Sequence[Order],
        answers: Sequence[Answer],
        rng: random.Random,
    ) -> None:
        self.rules = rules
        self.state = state
        self.rng = rng  # the step's random stream: dice and card draws pick from it
        self.orders = tuple(orders)
        self.events: list[Event] = []
        # Every roll goes into the log, so the record holds each one for verification.
        self.dice = Dice(rng, lambda roll: self.emit(DiceRolled(roll)))
        self._answers = {answer.decision: answer for answer in answers}
        self.params: Mapping[str, Json] = rules.parameter_values(state.parameters)
        self.reopen = False  # ``again``: the step opens again for the same actors
        self.ended = False  # ``end_iteration``: the rest of the subject's chain is skipped
        # Set by the engine when it keeps a stopped resolution alive (``rules_core.resume``):
        # a question then pauses the resolver here instead of raising ``Suspended``.
        self.pause: Callable[[Suspended], None] | None = None
        # A resolver's working notes for this one resolution (e.g. which pairs already fought
        # a melee round), keyed by a name its ruleset owns: never saved, gone with the context.
        self.scratch: dict[str, object] = {}

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

    # -- what comes next -----------------------------------------------------------------

    def again(self) -> None:
        """Open this step again for the same actors once it is resolved (another move of
        the same activation, seen before the next is chosen), with its own random stream."""
        self.reopen = True

    def end_iteration(self) -> None:
        """End the current subject's iteration of a loop after this step: the rest of its
        chain is skipped (a command that passes, a unit that fails to activate)."""
        self._loop_head()
        self.ended = True

    @property
    def upcoming(self) -> tuple[Subject, ...]:
        """The subjects still to come after this one in the loop this step runs in."""
        return self.state.cursor.upcoming

    def set_subjects(self, subjects: Sequence[Subject], reason: str) -> None:
        """Replace the subjects still to come in this loop (reorder, add, drop); the loop must
        count its iterations (its head declares ``until``)."""
        head = self._loop_head()
        if not self.rules.sequence.counted(head.id):
            raise ValueError(f"the loop of {head.id!r} is fixed: give it until= to change it")
        cursor = self.state.cursor.with_upcoming(tuple(subjects))
        self.state = replace(self.state, cursor=cursor)
        self.emit(SubjectsChanged(tuple(s.id for s in subjects), reason))

    def insert_subject(self, subject: Subject, reason: str, index: int = 0) -> None:
        """Put a subject among those still to come (0: next; ``len(upcoming)``: last)."""
        upcoming = list(self.upcoming)
        upcoming.insert(index, subject)
        self.set_subjects(upcoming, reason)

    def skip_subject(self, subject_id: str, reason: str) -> None:
        """Drop a subject still to come from this loop; KeyError if none has that id."""
        if not any(s.id == subject_id for s in self.upcoming):
            raise KeyError(f"no subject {subject_id!r} still to come")
        self.set_subjects([s for s in self.upcoming if s.id != subject_id], reason)

    def _loop_head(self) -> Step:
        head = self.rules.sequence.loop_head(self.state.cursor.step)
        if head is None or not self.state.cursor.subjects:
            raise ValueError(f"step {self.state.cursor.step!r} runs in no loop")
        return head

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
        """The answer to a question; suspends the resolution until somebody gives it. A
        private question and its answer are seen by ``who`` alone (and the GM)."""
        self._asked(decision)
        answer = self._answers.get(decision.id)
        while answer is None:
            self._wait(Suspended(decision))
            answer = self._answers.get(decision.id)
        self._answered(decision, answer)
        return answer.choice

    def ask_all(self, decisions: Sequence[Decision]) -> tuple[str, ...]:
        """The answers to independent questions asked at once (two charged units choosing
        their response): the step waits until every one is answered, in any order."""
        for decision in decisions:
            self._asked(decision)
        missing = [d for d in decisions if d.id not in self._answers]
        while missing:
            self._wait(Suspended(missing[0], tuple(missing[1:])))
            missing = [d for d in decisions if d.id not in self._answers]
        for decision in decisions:
            self._answered(decision, self._answers[decision.id])
        return tuple(self._answers[d.id].choice for d in decisions)

    def give(self, answer: Answer) -> None:
        """An answer arrived for a paused resolution (the engine's, before resuming it)."""
        self._answers[answer.decision] = answer

    def _wait(self, stop: Suspended) -> None:
        """Stop the resolution at an unanswered question: raise ``stop`` (the engine replays
        the step from its start once answered), or pause here until an answer is given."""
        if self.pause is None:
            raise stop
        self.pause(stop)

    def _asked(self, decision: Decision) -> None:
        asked = DecisionRequested(decision)
        if not decision.private:
            self.emit(asked)
            return
        self.emit(Private(decision.who, asked, DecisionRequested(masked_decision(decision))))

    def _answered(self, decision: Decision, answer: Answer) -> None:
        answered = DecisionAnswered(decision.id, answer.choice, answer.by, answer.reason)
        if not decision.private:
            self.emit(answered)
            return
        hidden = DecisionAnswered(decision.id, CONCEALED, answer.by)
        self.emit(Private(decision.who, answered, hidden))

    def emit_private(self, audience: str, event: Event, public: Event | None = None) -> None:
        """Log an event only ``audience`` (a side id or ``GM``) sees; others see ``public``."""
        self.emit(Private(audience, event, public))

    def set_hidden(self, side_id: str, reason: str | None, **changes: Json) -> None:
        """Change declared hidden fields (``Scope.HIDDEN``) of one side (or ``GM``); each
        change is logged privately to that side."""
        before = self.state.hidden.get(side_id, {})
        self.state = self.rules.statuses.apply(self.state, Scope.HIDDEN, side_id, changes)
        if reason is None:
            return
        for name, value in changes.items():
            old = before.get(name)
            if old != value:
                self.emit_private(side_id, StatusChanged(side_id, name, old, value, reason))

    def cards(self, deck_id: str) -> Cards:
        """The card deck ``deck_id`` to create, shuffle, deal, draw and play with."""
        return Cards(self, deck_id)

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
        if not unit.on_table:
            raise ValueError(f"unit {unit_id!r} is not on the table ({unit.location})")
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
        self.state = replace(self.state, units=_joined(self.state.units, unit, "on the table"))
        self.emit(ArrivedOrLeft(unit.id, "unit", True, reason))

    def remove_unit(self, unit_id: str, reason: str) -> None:
        """Take a unit off the table without destroying it (withdrawn, sent away)."""
        self.state = self.state.without_unit(unit_id)
        self.emit(ArrivedOrLeft(unit_id, "unit", False, reason))

    def take_off_table(self, unit_id: str, reason: str) -> None:
        """Take a unit on the table off it, keeping it in the battle: it remembers where (its
        x, y) and in which turn it left, and may come back with ``return_to_table``."""
        unit = self.state.unit(unit_id)
        if not unit.on_table:
            raise ValueError(f"unit {unit_id!r} is not on the table ({unit.location})")
        turn = self.state.cursor.turn
        self.state = self.state.with_unit(unit.taken_off(turn))
        self.emit(UnitLeftTable(unit_id, (unit.x, unit.y), turn, reason))

    def return_to_table(self, unit_id: str, at: Point, facing: float, reason: str) -> None:
        """Bring a unit that left the table back onto it at ``at`` (its centre), turned to
        ``facing``. Where it may come back (within 6" of where it left: ``toolkit.within_of_exit``)
        is the ruleset's to check before calling this."""
        self._place(unit_id, at, facing, OFF_TABLE, "off the table")
        self.emit(UnitReturned(unit_id, (float(at[0]), float(at[1])), facing % 360, reason))

    def place_from_reserve(self, unit_id: str, at: Point, facing: float, reason: str) -> None:
        """Deploy a unit held in reserve onto the table at ``at``, turned to ``facing``."""
        self._place(unit_id, at, facing, RESERVE, "in reserve")
        self.emit(UnitDeployed(unit_id, (float(at[0]), float(at[1])), facing % 360, reason))

    def _place(self, unit_id: str, at: Point, facing: float, source: str, words: str) -> None:
        """Put a unit that is at ``source`` (off the table, in reserve) on the table."""
        unit = self.state.unit(unit_id)
        if unit.location != source:
            raise ValueError(f"unit {unit_id!r} is not {words} ({unit.location})")
        self.state = self.state.with_unit(unit.placed(at, facing))

    def add_terrain(self, feature: TerrainFeature, reason: str) -> None:
        """Place a new piece of terrain on the table; refuses an id already in use."""
        if any(f.id == feature.id for f in self.state.terrain):
            raise KeyError(f"terrain feature {feature.id!r} is already on the table")
        self.state = replace(self.state, terrain=(*self.state.terrain, feature))
        self.emit(TerrainAdded(feature, reason))

    def move_terrain(self, feature_id: str, points: Sequence[Point], reason: str) -> None:
        """Give a piece of terrain a new outline (moved or reshaped); it keeps its id, kind,
        name and properties."""
        old = self.state.terrain_feature(feature_id)
        new_points = tuple((float(x), float(y)) for x, y in points)
        moved = replace(old, points=new_points)  # validated again: enough points
        terrain = tuple(moved if f.id == feature_id else f for f in self.state.terrain)
        self.state = replace(self.state, terrain=terrain)
        before = tuple(old.points)
        self.emit(TerrainMoved(feature_id, old.kind, old.name, before, new_points, reason))

    def remove_terrain(self, feature_id: str, reason: str) -> None:
        """Take a piece of terrain off the table."""
        old = self.state.terrain_feature(feature_id)
        terrain = tuple(f for f in self.state.terrain if f.id != feature_id)
        self.state = replace(self.state, terrain=terrain)
        self.emit(TerrainRemoved(feature_id, old.kind, old.name, reason, tuple(old.points)))

    def add_leader(self, leader: Leader, reason: str) -> None:
        """Bring a leader into the battle (a hero appears, a replacement commander)."""
        leaders = _joined(self.state.leaders, leader, "in the battle")
        self.state = replace(self.state, leaders=leaders)
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


class Cards:
    """One deck of the battle as a resolver works it (``Context.cards(deck_id)``).

    Cards are named by their codes ("QS", "10H", "JOKER1"). A draw picks a card from the
    step's random stream when it is made, so the saved state never holds a future order; a
    card drawn into a hand is seen by its owner's side alone, one drawn face up by everyone.
    An owner is a side id or a leader's, unit's or group's id (seen by that one's side).
    """

    def __init__(self, context: Context, deck_id: str) -> None:
        self._context = context
        self.id = deck_id

    @property
    def deck(self) -> DeckState:
        """The deck as the battle holds it now."""
        return self._context.state.deck(self.id)

    def _save(self, deck: DeckState) -> None:
        self._context.state = self._context.state.with_deck(deck)

    def _audience(self, owner: str) -> str:
        side = self._context.state.side_of(owner)
        if side is None:
            raise KeyError(f"no side, leader, unit or group {owner!r} to hold cards")
        return side

    def create(self, *, jokers: bool = True) -> None:
        """A new full deck with every card in the draw pile; refuses a deck that exists."""
        if any(deck.id == self.id for deck in self._context.state.decks):
            raise ValueError(f"deck {self.id!r} exists already")
        self._save(DeckState(self.id, sort_codes([card.code for card in full_deck(jokers)])))

    @property
    def remaining(self) -> int:
        """How many cards are left in the draw pile."""
        return len(self.deck.pile)

    def shuffle(self) -> None:
        """The discards go back into the draw pile."""
        deck = self.deck
        self._save(replace(deck, pile=sort_codes([*deck.pile, *deck.discards]), discards=()))
        self._context.emit(CardMoved(self.id, None, "shuffle"))

    def draw(self, owner: str | None = None) -> str:
        """Draw a card into ``owner``'s hand (private to their side), or face up onto the
        table when ``owner`` is None; EmptyDeckError when the pile is empty."""
        audience = None if owner is None else self._audience(owner)
        deck = self.deck
        if not deck.pile:
            raise EmptyDeckError(f"the {self.id} deck is empty: shuffle the discards back")
        card = deck.pile[self._context.rng.randrange(len(deck.pile))]
        pile = tuple(code for code in deck.pile if code != card)
        if owner is None:
            self._save(replace(deck, pile=pile, face_up=(*deck.face_up, card)))
            self._context.emit(CardDrawn(Draw(self.id, None, card)))
            return card
        hands = {**deck.hands, owner: (*deck.hand(owner), card)}
        self._save(replace(deck, pile=pile, hands=hands))
        assert audience is not None
        self._context.emit_private(
            audience, CardDrawn(Draw(self.id, owner, card)), CardDrawn(Draw(self.id, owner, ""))
        )
        return card

    def deal(self, owner: str, n: int) -> tuple[str, ...]:
        """Draw ``n`` cards into ``owner``'s hand."""
        if n < 0:
            raise ValueError(f"cannot deal a negative number of cards ({n})")
        return tuple(self.draw(owner) for _ in range(n))

    def hand(self, owner: str) -> tuple[str, ...]:
        """The cards in ``owner``'s hand, in the order they came."""
        return self.deck.hand(owner)

    def retained(self, owner: str) -> tuple[str, ...]:
        """The cards ``owner`` keeps back (retained), in the order kept."""
        return self.deck.kept(owner)

    def _take(self, owner: str, card: str) -> DeckState:
        deck = self.deck
        held = list(deck.hand(owner))
        if card not in held:
            raise ValueError(f"{owner!r} holds no {card!r} in the {self.id} deck")
        held.remove(card)
        return replace(deck, hands={**deck.hands, owner: tuple(held)})

    def play(self, owner: str, card: str) -> None:
        """Play a card from ``owner``'s hand face up, for everyone to see."""
        deck = self._take(owner, card)
        self._save(replace(deck, face_up=(*deck.face_up, card)))
        self._context.emit(CardMoved(self.id, owner, "play", card))

    def discard(self, owner: str | None, card: str) -> None:
        """Discard a card from ``owner``'s hand, or from the table (``owner`` None); the
        discards are seen by everyone."""
        if owner is None:
            deck = self.deck
            if card not in deck.face_up:
                raise ValueError(f"{card!r} is not face up in the {self.id} deck")
            face_up = list(deck.face_up)
            face_up.remove(card)
            deck = replace(deck, face_up=tuple(face_up))
        else:
            deck = self._take(owner, card)
        self._save(replace(deck, discards=(*deck.discards, card)))
        self._context.emit(CardMoved(self.id, owner, "discard", card))

    def retain(self, owner: str, card: str) -> None:
        """Move a card from ``owner``'s hand to their retained pile, in secret."""
        deck = self._take(owner, card)
        retained = {**deck.retained, owner: (*deck.kept(owner), card)}
        self._save(replace(deck, retained=retained))
        self._context.emit_private(
            self._audience(owner),
            CardMoved(self.id, owner, "retain", card),
            CardMoved(self.id, owner, "retain"),
        )


def _leg(a: Point, b: Point) -> float:
    return float(((b[0] - a[0]) ** 2 + (b[1] - a[1]) ** 2) ** 0.5)


Piece = TypeVar("Piece", bound=Unit | Leader)


def _joined(pieces: tuple[Piece, ...], piece: Piece, where: str) -> tuple[Piece, ...]:
    """``pieces`` with ``piece`` added; it must not be among them already (``where``)."""
    if any(p.id == piece.id for p in pieces):
        what = "unit" if isinstance(piece, Unit) else "leader"
        raise KeyError(f"{what} {piece.id!r} is already {where}")
    return (*pieces, piece)
