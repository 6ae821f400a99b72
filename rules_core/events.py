"""Typed events: what a resolution did, in data that the text renderer and the map read."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, TypeGuard

from rules_core.cards import Draw
from rules_core.codec import OMIT_DEFAULT, Json, Serialisable, decode
from rules_core.decisions import Decision
from rules_core.dice import Roll
from rules_core.state import TerrainFeature

Point = tuple[float, float]


@dataclass(frozen=True)
class Event(Serialisable):
    """Base of every event; ``kind`` names the event in JSON."""

    kind: ClassVar[str] = "event"


@dataclass(frozen=True)
class StepBegan(Event):
    """A step (or one iteration of a repeated step) began."""

    kind: ClassVar[str] = "step_began"
    turn: int
    step: str
    title: str
    side: str | None = None
    subject: str | None = None
    # How many times the step has opened again for the same actors (``Context.again``).
    again: int = field(default=0, metadata={OMIT_DEFAULT: True})


@dataclass(frozen=True)
class OrderRejected(Event):
    """An order was refused at resolution; the unit falls back on its default."""

    kind: ClassVar[str] = "order_rejected"
    actor: str
    order_kind: str
    reason: str


@dataclass(frozen=True)
class OrderShortened(Event):
    """An order to go as far as possible was cut where the rules stop it (``rules_core.far``)."""

    kind: ClassVar[str] = "order_shortened"
    actor: str
    order_kind: str
    reason: str  # why the whole order was refused
    at: Point | None = None  # where a move to a point or along a path stops
    distance: float | None = None  # how far a move by a distance goes


@dataclass(frozen=True)
class PlanFellBack(Event):
    """An order planned ahead could not be carried out when its step came; the default was
    used instead."""

    kind: ClassVar[str] = "plan_fell_back"
    actor: str
    order_kind: str
    reason: str


@dataclass(frozen=True)
class PlanAlternativeUsed(Event):
    """An order planned ahead could not be carried out when its step came; the alternative
    ``number`` (1 for the first) its player gave was used, the earlier ones failing for
    ``reason``."""

    kind: ClassVar[str] = "plan_alternative_used"
    actor: str
    order_kind: str
    number: int
    used_kind: str
    reason: str


@dataclass(frozen=True)
class PlanQueried(Event):
    """An order planned ahead cannot be carried out now its step has come, and its player
    asked to be consulted: the step waits for that side's new orders (the order stays
    secret)."""

    kind: ClassVar[str] = "plan_queried"
    side: str
    step: str


@dataclass(frozen=True)
class DiceRolled(Event):
    """A roll: its label, dice and every modifier with its reason."""

    kind: ClassVar[str] = "dice_rolled"
    roll: Roll


@dataclass(frozen=True)
class TestResolved(Event):
    """A test passed or failed, with the score and the table row that decided it; a table
    looked up with nothing to pass (a combat result, a blunder) has ``verdict`` False."""

    kind: ClassVar[str] = "test_resolved"
    __test__: ClassVar[bool] = False  # not a pytest test class, despite its name
    subject: str
    test: str
    score: int
    passed: bool
    row: str
    verdict: bool = True


@dataclass(frozen=True)
class ShotResolved(TestResolved):
    """A shot's outcome in data: who shot at whom, the hits scored and what they bring next
    (a ruleset's result key, "" for nothing). It reads as the test line it is logged as, or
    not at all when ``test`` is "" (the ruleset logs no line for it)."""

    kind: ClassVar[str] = "shot_resolved"
    shooter: str = ""
    target: str = ""
    hits: int = 0
    next: str = ""


@dataclass(frozen=True)
class MeleeResolved(TestResolved):
    """A melee's outcome in data: the winner and loser (None for a draw), the hits each unit
    scored, the row applied (``row``) and what comes next. It reads as the test line it is
    logged as, or not at all when ``test`` is "" (the ruleset logs no line for it)."""

    kind: ClassVar[str] = "melee_resolved"
    winner: str | None = None
    loser: str | None = None
    hits: tuple[tuple[str, int], ...] = ()
    next: str = ""


@dataclass(frozen=True)
class ReactionResolved(TestResolved):
    """A reaction's outcome in data: who reacted, with what reaction, its outcome and what
    comes next. It reads as the test line it is logged as, or not at all when ``test`` is
    "" (a reaction whose effects are logged by the events that follow)."""

    kind: ClassVar[str] = "reaction_resolved"
    reactor: str = ""
    reaction: str = ""
    outcome: str = ""
    next: str = ""


def silent(event: Event) -> bool:
    """Whether ``event`` is a typed result logged as data only (no test name, no line): an
    event that did not exist before the typed results."""
    return isinstance(event, ShotResolved | MeleeResolved | ReactionResolved) and not event.test


def logged_test(event: Event) -> TypeGuard[TestResolved]:
    """Whether ``event`` is a test read as a line of the log (not a ``silent`` result), so
    counts of tests stay as they were before the typed results."""
    return isinstance(event, TestResolved) and not silent(event)


def log_length(events: Sequence[Event]) -> int:
    """How many of ``events`` are not ``silent``: question ids built from a count of the events
    so far use it, so they stay as they were before the typed results (a record's answers,
    keyed by those ids, still find their questions)."""
    return sum(1 for event in events if not silent(event))


@dataclass(frozen=True)
class UnitMoved(Event):
    """A unit moved along a path and ended with a new facing."""

    kind: ClassVar[str] = "unit_moved"
    unit: str
    path: tuple[Point, ...]
    distance: float
    facing: float
    notes: tuple[str, ...] = ()


class ShotMark:
    """Mixed into an event the map draws as a shot: a line from ``shooter`` to ``target``.

    A ruleset's own shot event inherits it (or is a ``ShotFired``) and the map draws it.
    """

    shooter: str
    target: str


class CombatMark:
    """Mixed into an event the map marks as a combat between ``attacker`` and ``defender``."""

    attacker: str
    defender: str


@dataclass(frozen=True)
class ShotFired(Event, ShotMark):
    """A unit shot at another; the map draws a line between them."""

    kind: ClassVar[str] = "shot_fired"
    shooter: str
    target: str
    distance: float | None = None


@dataclass(frozen=True)
class MeleeFought(Event, CombatMark):
    """Two units fought hand to hand; the map marks where they meet."""

    kind: ClassVar[str] = "melee_fought"
    attacker: str
    defender: str


@dataclass(frozen=True)
class StatusChanged(Event):
    """A status field of a unit, leader, group or side changed, and why."""

    kind: ClassVar[str] = "status_changed"
    subject: str
    field: str
    old: Json
    new: Json
    reason: str


@dataclass(frozen=True)
class UnitDestroyed(Event):
    """A unit left the battle: destroyed, routed off or surrendered."""

    kind: ClassVar[str] = "unit_destroyed"
    unit: str
    reason: str


@dataclass(frozen=True)
class LeaderHit(Event):
    """A leader was hit: wounded, lost points or killed."""

    kind: ClassVar[str] = "leader_hit"
    leader: str
    result: str
    reason: str


@dataclass(frozen=True)
class DecisionRequested(Event):
    """Resolution stopped to ask a player or the GM a question."""

    kind: ClassVar[str] = "decision_requested"
    decision: Decision


@dataclass(frozen=True)
class DecisionAnswered(Event):
    """A question was answered (or defaulted) and resolution continued."""

    kind: ClassVar[str] = "decision_answered"
    decision: str
    choice: str
    by: str
    reason: str = ""  # a GM's reason, or the standing instruction that answered


@dataclass(frozen=True)
class SideOrderSet(Event):
    """The order the sides act in was set, for example by initiative."""

    kind: ClassVar[str] = "side_order_set"
    order: tuple[str, ...]
    reason: str


@dataclass(frozen=True)
class SubjectsChanged(Event):
    """The subjects still to come in a loop changed (initiative passed, a command's turn came
    when it won the roll): the new list, in order, and why."""

    kind: ClassVar[str] = "subjects_changed"
    upcoming: tuple[str, ...]
    reason: str


@dataclass(frozen=True)
class LeaderMoved(Event):
    """A leader moved along a path (the map draws it like a unit's move)."""

    kind: ClassVar[str] = "leader_moved"
    leader: str
    path: tuple[Point, ...]
    distance: float
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class ArrivedOrLeft(Event):
    """A unit or leader joined the battle or left it without being destroyed (a hero
    appears, a commander is replaced, reinforcements arrive)."""

    kind: ClassVar[str] = "arrived_or_left"
    subject: str
    what: str  # "unit" or "leader"
    arrived: bool
    reason: str


@dataclass(frozen=True)
class UnitLeftTable(Event):
    """A unit left the table without leaving the battle (a pursuit off the edge): it may come
    back. ``at`` is where it left, ``turn`` the turn it left in."""

    kind: ClassVar[str] = "unit_left_table"
    unit: str
    at: Point
    turn: int
    reason: str


@dataclass(frozen=True)
class UnitPlaced(Event):
    """A unit not on the table was placed on it at ``at``, facing ``facing`` (the base of
    ``UnitReturned`` and ``UnitDeployed``, which say from where)."""

    kind: ClassVar[str] = "unit_placed"
    unit: str
    at: Point
    facing: float
    reason: str


@dataclass(frozen=True)
class UnitReturned(UnitPlaced):
    """A unit off the table came back onto it at ``at``, facing ``facing``."""

    kind: ClassVar[str] = "unit_returned"


@dataclass(frozen=True)
class UnitDeployed(UnitPlaced):
    """A unit in reserve was placed on the table at ``at``, facing ``facing``."""

    kind: ClassVar[str] = "unit_deployed"


@dataclass(frozen=True)
class TerrainAdded(Event):
    """A piece of terrain was placed on the table (rolled on a table, placed by a side)."""

    kind: ClassVar[str] = "terrain_added"
    feature: TerrainFeature
    reason: str


@dataclass(frozen=True)
class TerrainMoved(Event):
    """A piece of terrain changed its outline (moved, reshaped); ``before`` is its old one."""

    kind: ClassVar[str] = "terrain_moved"
    feature: str
    terrain_kind: str
    name: str
    before: tuple[Point, ...]
    points: tuple[Point, ...]
    reason: str


@dataclass(frozen=True)
class TerrainRemoved(Event):
    """A piece of terrain was taken off the table (a bridge burnt, a wood cleared)."""

    kind: ClassVar[str] = "terrain_removed"
    feature: str
    terrain_kind: str
    name: str
    reason: str
    points: tuple[Point, ...] = ()  # where it lay, for the map


@dataclass(frozen=True)
class BattleEnded(Event):
    """The battle is over: a winner (None for a draw) and the reason."""

    kind: ClassVar[str] = "battle_ended"
    winner: str | None
    reason: str


@dataclass(frozen=True)
class CardDrawn(Event):
    """A card was drawn into an owner's hand (private to them: its public form has no card)
    or turned face up (``owner`` None)."""

    kind: ClassVar[str] = "card_drawn"
    draw: Draw


@dataclass(frozen=True)
class CardMoved(Event):
    """A card changed place: played face up, discarded, retained, or the deck shuffled
    (``what``: "play", "discard", "retain", "shuffle"); ``card`` is "" where it is not seen."""

    kind: ClassVar[str] = "card_moved"
    deck: str
    owner: str | None
    what: str
    card: str = ""


@dataclass(frozen=True)
class Private(Event):
    """An event only its ``audience`` (a side id or ``GM``) may see; everyone else sees its
    ``public`` form, or nothing when it has none. The GM sees every private event."""

    kind: ClassVar[str] = "private"
    audience: str
    event: Event
    public: Event | None = None

    def to_dict(self) -> dict[str, Any]:
        """The event with both forms tagged with their kinds."""
        public = None if self.public is None else event_to_dict(self.public)
        return {"audience": self.audience, "event": event_to_dict(self.event), "public": public}


EVENT_TYPES: dict[str, type[Event]] = {
    cls.kind: cls
    for cls in (
        StepBegan,
        OrderRejected,
        OrderShortened,
        PlanFellBack,
        PlanAlternativeUsed,
        PlanQueried,
        DiceRolled,
        TestResolved,
        ShotResolved,
        MeleeResolved,
        ReactionResolved,
        UnitMoved,
        ShotFired,
        MeleeFought,
        StatusChanged,
        LeaderMoved,
        ArrivedOrLeft,
        UnitDestroyed,
        LeaderHit,
        DecisionRequested,
        DecisionAnswered,
        SideOrderSet,
        BattleEnded,
        CardDrawn,
        CardMoved,
        Private,
        SubjectsChanged,
        UnitLeftTable,
        UnitReturned,
        UnitDeployed,
        TerrainAdded,
        TerrainMoved,
        TerrainRemoved,
    )
}


def event_to_dict(event: Event) -> dict[str, Any]:
    """An event as JSON-ready data tagged with its kind."""
    return {"kind": event.kind, **event.to_dict()}


def event_from_dict(data: Mapping[str, Any]) -> Event:
    """Rebuild an event from ``event_to_dict`` output."""
    cls = EVENT_TYPES[data["kind"]]
    if cls is Private:
        public = data.get("public")
        return Private(
            data["audience"],
            event_from_dict(data["event"]),
            None if public is None else event_from_dict(public),
        )
    fields = {key: value for key, value in data.items() if key != "kind"}
    event = decode(cls, fields)
    assert isinstance(event, Event)
    return event
