"""The state of a battle: table, terrain, sides, groups, leaders, units and where play stands.

Every class is a frozen dataclass; a resolver changes the battle by building a new state with
the ``with_*`` helpers. ``BattleState.to_dict`` gives JSON carrying ``SCHEMA_VERSION``.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from dataclasses import fields as dataclass_fields
from functools import cached_property
from typing import Any, TypeVar

from rules_core import geometry
from rules_core.cards import DeckState
from rules_core.codec import OMIT_DEFAULT, Json, Serialisable
from rules_core.decisions import GM, Pending
from rules_core.kept_ids import Index, index_of
from rules_core.orders import ACTOR_KINDS
from rules_core.steps import Cursor

SCHEMA_VERSION = 1

TERRAIN_KINDS = (
    "hill",
    "wood",
    "dense_wood",
    "rough",
    "marsh",
    "river",
    "stream",
    "road",
    "village",
    "linear_obstacle",
    "fortification",
    "impassable",  # nothing enters it (a lake, cliffs); paths.sweep always stops at it
    "gentle_hill",  # a low hill: height without blocking sight (unless its properties say)
    "bridge",  # an area laid over a river or stream: a crossing point (terrain.crossing_at)
    "ford",  # an area over a river or stream where it may be waded: a crossing point
)
# Kinds drawn as polylines: a unit crosses them rather than standing in them.
LINEAR_KINDS = frozenset({"river", "stream", "road", "linear_obstacle"})
# Crossing points: a path over a river or stream along one of these crosses it there.
CROSSING_KINDS = frozenset({"bridge", "ford"})
WATER_KINDS = frozenset({"river", "stream"})

# Where a unit is: on the table, in reserve (not yet deployed) or off the table (left it).
ON_TABLE = "table"
RESERVE = "reserve"
OFF_TABLE = "off"
LOCATIONS = (ON_TABLE, RESERVE, OFF_TABLE)

Point = tuple[float, float]


@dataclass(frozen=True)
class Battlefield(Serialisable):
    """The table: width and depth in the ruleset's measure, and millimetres per measure."""

    width: float
    depth: float
    measure: str
    mm_per_measure: float


@dataclass(frozen=True)
class TerrainFeature(Serialisable):
    """A piece of terrain: a polygon (area) or a polyline (river, road, hedge) of one kind."""

    id: str
    kind: str
    points: tuple[Point, ...]
    name: str = ""
    properties: Mapping[str, Json] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.kind not in TERRAIN_KINDS:
            raise ValueError(f"unknown terrain kind {self.kind!r}")
        if len(self.points) < (2 if self.linear else 3):
            raise ValueError(f"terrain {self.id!r} has too few points")

    @property
    def linear(self) -> bool:
        """True for polylines (rivers, streams, roads, linear obstacles)."""
        return self.kind in LINEAR_KINDS


@dataclass(frozen=True)
class Side(Serialisable):
    """One army in the battle, with ruleset-defined status (army will, card decks, ...)."""

    id: str
    name: str
    status: Mapping[str, Json] = field(default_factory=dict)


@dataclass(frozen=True)
class Group(Serialisable):
    """A contingent, wing, division or command: the grouping a ruleset gives orders to."""

    id: str
    name: str
    side: str
    kind: str
    leader: str | None = None
    status: Mapping[str, Json] = field(default_factory=dict)


@dataclass(frozen=True)
class Leader(Serialisable):
    """A general or commander: position, attached unit, command points and wounds."""

    id: str
    name: str
    side: str
    group: str | None
    x: float
    y: float
    attached_to: str | None = None
    points: int = 0
    wounds: int = 0
    status: Mapping[str, Json] = field(default_factory=dict)


@dataclass(frozen=True)
class Unit(Serialisable):
    """A unit; x, y is the centre of its footprint and facing is compass degrees.

    ``location`` says whether it is on the table (``ON_TABLE``), in reserve before deployment
    (``RESERVE``: x, y mean nothing yet) or off the table after leaving it (``OFF_TABLE``:
    ``left_at`` and ``left_turn`` say where and when it left). Only units on the table take
    part in geometry: ``BattleState.units_on_table``.
    """

    id: str
    name: str
    side: str
    group: str
    type: str
    quality: str
    frontage: float
    depth: float
    x: float
    y: float
    facing: float
    stands: int = 1
    formation: str = ""
    profile: Mapping[str, Json] = field(default_factory=dict)
    status: Mapping[str, Json] = field(default_factory=dict)
    location: str = field(default=ON_TABLE, metadata={OMIT_DEFAULT: True})
    left_at: Point | None = field(default=None, metadata={OMIT_DEFAULT: True})
    left_turn: int | None = field(default=None, metadata={OMIT_DEFAULT: True})

    def __post_init__(self) -> None:
        if self.location not in LOCATIONS:
            raise ValueError(f"unit {self.id!r}: unknown location {self.location!r}")

    @property
    def on_table(self) -> bool:
        """True if the unit stands on the table (not in reserve, not off the table)."""
        return self.location == ON_TABLE

    def taken_off(self, turn: int) -> Unit:
        """A copy off the table, remembering where it stood and the turn it left in."""
        return replace(self, location=OFF_TABLE, left_at=(self.x, self.y), left_turn=turn)

    def placed(self, at: Point, facing: float) -> Unit:
        """A copy standing on the table at ``at`` turned to ``facing`` (back from off the
        table, or deployed from reserve)."""
        x, y = float(at[0]), float(at[1])
        return replace(
            self, location=ON_TABLE, x=x, y=y, facing=facing % 360, left_at=None, left_turn=None
        )

    def get(self, key: str, default: Json = None) -> Json:
        """A status field, falling back to the profile, then to ``default``."""
        if key in self.status:
            return self.status[key]
        return self.profile.get(key, default)

    def with_status(self, **changes: Json) -> Unit:
        """A copy with some status fields changed."""
        if type(self) is not Unit:
            return replace(self, status={**self.status, **changes})
        return _copied(self, status={**self.status, **changes})  # nothing to check again


@dataclass(frozen=True)
class Outcome(Serialisable):
    """How the battle ended: the winning side (None for a draw) and why."""

    winner: str | None
    reason: str


@dataclass(frozen=True)
class BattleState(Serialisable):
    """Everything the rules need to continue a battle; JSON round-trips exactly."""

    battle_id: str
    ruleset: str
    battlefield: Battlefield
    cursor: Cursor
    sides: tuple[Side, ...]
    groups: tuple[Group, ...] = ()
    leaders: tuple[Leader, ...] = ()
    units: tuple[Unit, ...] = ()
    terrain: tuple[TerrainFeature, ...] = ()
    parameters: Mapping[str, Json] = field(default_factory=dict)
    status: Mapping[str, Json] = field(default_factory=dict)
    pending: Pending | None = None
    outcome: Outcome | None = None
    schema_version: int = SCHEMA_VERSION
    # Per-side secrets keyed by side id (or ``GM``): declared with ``Scope.HIDDEN``, written
    # through ``Context.set_hidden``; ``rules_core.secrets.view`` shows each side only its own.
    hidden: Mapping[str, Mapping[str, Json]] = field(default_factory=dict)
    decks: tuple[DeckState, ...] = ()  # card decks: see ``rules_core.cards``

    def to_dict(self) -> dict[str, Any]:
        """The state as JSON-ready data, schema version first."""
        data = super().to_dict()
        return {"schema_version": data.pop("schema_version"), **data}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> BattleState:
        """Rebuild a state; refuses a schema version this code does not know."""
        version = data.get("schema_version")
        if version != SCHEMA_VERSION:
            raise ValueError(f"battle state schema {version!r}; this code reads {SCHEMA_VERSION}")
        state = super().from_dict(data)
        assert isinstance(state, BattleState)
        return state

    def unit(self, unit_id: str) -> Unit:
        """The unit with this id; KeyError if there is none."""
        found = self._units_by_id.get(unit_id)
        if found is None:
            raise KeyError(f"no unit {unit_id!r}")
        return found

    @cached_property
    def units_on_table(self) -> tuple[Unit, ...]:
        """The units standing on the table, in roster order: those geometry, sight, contact
        and the map consider (units in reserve or off the table are left out)."""
        return self._lookups.on_table

    @cached_property
    def _lookups(self) -> _Lookups:
        """What is asked of the units most, shared by every state holding the same units."""
        return _lookups_of(self.units)

    def units_at(self, location: str) -> tuple[Unit, ...]:
        """The units in one location (``ON_TABLE``, ``RESERVE`` or ``OFF_TABLE``)."""
        return tuple(unit for unit in self.units if unit.location == location)

    def leader(self, leader_id: str) -> Leader:
        """The leader with this id; KeyError if there is none."""
        found = self._leaders_by_id.get(leader_id)
        if found is None:
            raise KeyError(f"no leader {leader_id!r}")
        return found

    @property
    def _units_by_id(self) -> dict[str, Unit]:
        """Units by id, the first of each id as a scan would find it (the state never changes)."""
        return self._lookups.by_id

    @property
    def _leaders_by_id(self) -> dict[str, Leader]:
        """Leaders by id, the first of each id."""
        return self._leader_index.by_id

    @cached_property
    def _leader_index(self) -> Index[Leader]:
        """The leaders by id and slot (kept per tuple: ``kept_ids``)."""
        return index_of(self.leaders)

    @cached_property
    def _group_index(self) -> Index[Group]:
        """The groups by id and slot."""
        return index_of(self.groups)

    @cached_property
    def _side_index(self) -> Index[Side]:
        """The sides by id and slot."""
        return index_of(self.sides)

    def group(self, group_id: str) -> Group:
        """The group with this id; KeyError if there is none."""
        found = self._group_index.by_id.get(group_id)
        if found is None:
            raise KeyError(f"no group {group_id!r}")
        return found

    def side(self, side_id: str) -> Side:
        """The side with this id; KeyError if there is none."""
        found = self._side_index.by_id.get(side_id)
        if found is None:
            raise KeyError(f"no side {side_id!r}")
        return found

    def actors(self, actor_kind: str) -> tuple[Unit | Leader | Group | Side, ...]:
        """Whoever can give orders of one actor kind: units, leaders, groups or sides."""
        found: dict[str, tuple[Unit | Leader | Group | Side, ...]] = {
            "unit": self.units,
            "leader": self.leaders,
            "group": self.groups,
            "side": self.sides,
        }
        return found[actor_kind]

    def owner(self, actor_kind: str, actor_id: str) -> str | None:
        """The side of the unit, leader, group or side with this id; None if it is not here."""
        if actor_kind in ("unit", "leader"):  # the first of the id, as the scan below finds
            kept = self._units_by_id if actor_kind == "unit" else self._leaders_by_id
            piece = kept.get(actor_id)
            return None if piece is None else piece.side
        for actor in self.actors(actor_kind):
            if actor.id == actor_id:
                return actor.id if isinstance(actor, Side) else actor.side
        return None

    def units_of(self, side_id: str, *, on_table: bool = False) -> tuple[Unit, ...]:
        """The units of one side, in roster order (with ``on_table``, only those standing on
        the table: for anything measured; without, units in reserve or off the table count)."""
        return self._lookups.of_side(side_id, on_table, True)

    def enemies_of(self, side_id: str, *, on_table: bool = False) -> tuple[Unit, ...]:
        """The units of every other side (with ``on_table``, only those on the table)."""
        return self._lookups.of_side(side_id, on_table, False)

    def roster_positions(self) -> Mapping[tuple[str, str], int]:
        """Each actor's place in roster order, by (actor kind, id): units, leaders, groups,
        then sides (the last place of an id held twice); kept while the ids stay the same."""
        others = tuple(  # the units' ids are the lookups' own
            () if kind == "unit" else tuple(a.id for a in self.actors(kind)) for kind in ACTOR_KINDS
        )
        kept = self._lookups.roster
        found = kept.get(others)
        if found is None:
            keys = [(kind, a.id) for kind in ACTOR_KINDS for a in self.actors(kind)]
            found = kept[others] = {key: index for index, key in enumerate(keys)}
        return found

    def with_unit(self, unit: Unit) -> BattleState:
        """A copy with the unit of the same id replaced.

        A battle changes one unit at a time, many times a turn: the copy takes over this
        state's lookups (slot and id of each unit, which are on the table, ``geometry.near``'s
        boxes) with the one entry changed, rather than each later question rebuilding them
        from every unit.
        """
        mine = self._lookups
        if mine.slots is None or type(self) is not BattleState:  # an id twice: all swap
            return replace(self, units=_swap(self.units, unit))
        slot = mine.slots.get(unit.id)
        if slot is None:
            raise KeyError(f"no unit {unit.id!r}")
        units = (*self.units[:slot], unit, *self.units[slot + 1 :])
        made = _copied(self, units=units)
        made.__dict__["_lookups"] = _keep_lookups(mine.swapped(units, slot, unit))
        return made

    def without_unit(self, unit_id: str) -> BattleState:
        """A copy with the unit removed from the table."""
        self.unit(unit_id)
        return replace(self, units=tuple(u for u in self.units if u.id != unit_id))

    def _with(self, **changes: Any) -> BattleState:
        """A copy with some fields changed (never the units), sharing the lookups of those
        that stay."""
        if type(self) is not BattleState:
            return replace(self, **changes)
        made = _copied(self, **changes)
        mine, kept = self.__dict__, made.__dict__
        for name in ("_lookups", *(index for key, index in _INDEXES.items() if key not in changes)):
            if name in mine:
                kept[name] = mine[name]
        return made

    def _swapped(
        self, name: str, index: Index[Any] | None, new: Leader | Group | Side
    ) -> BattleState:
        """A copy with ``new`` swapped into the leaders, groups or sides, its index made from
        this one's (``index``; None when an id is there twice: every one of it swaps)."""
        if index is None:
            return self._with(**{name: _swap(getattr(self, name), new)})
        made = self._with(**{name: index.items})
        made.__dict__[_INDEXES[name]] = index
        return made

    def terrain_feature(self, feature_id: str) -> TerrainFeature:
        """The terrain feature with this id; KeyError if there is none."""
        for feature in self.terrain:
            if feature.id == feature_id:
                return feature
        raise KeyError(f"no terrain feature {feature_id!r}")

    def with_leader(self, leader: Leader) -> BattleState:
        """A copy with the leader of the same id replaced."""
        return self._swapped("leaders", self._leader_index.swapped(leader), leader)

    def with_group(self, group: Group) -> BattleState:
        """A copy with the group of the same id replaced."""
        return self._swapped("groups", self._group_index.swapped(group), group)

    def with_side(self, side: Side) -> BattleState:
        """A copy with the side of the same id replaced."""
        return self._swapped("sides", self._side_index.swapped(side), side)

    def with_status(self, **changes: Json) -> BattleState:
        """A copy with some battle-level status fields changed."""
        return self._with(status={**self.status, **changes})

    def with_hidden(self, holder: str, **changes: Json) -> BattleState:
        """A copy with some hidden fields of one side (or the GM) changed."""
        kept = {**self.hidden.get(holder, {}), **changes}
        return self._with(hidden={**self.hidden, holder: kept})

    def deck(self, deck_id: str) -> DeckState:
        """The card deck with this id; KeyError if there is none."""
        for deck in self.decks:
            if deck.id == deck_id:
                return deck
        raise KeyError(f"no deck {deck_id!r}")

    def with_deck(self, deck: DeckState) -> BattleState:
        """A copy with the deck of the same id replaced, or added if it is new."""
        if any(d.id == deck.id for d in self.decks):
            return replace(self, decks=tuple(deck if d.id == deck.id else d for d in self.decks))
        return replace(self, decks=(*self.decks, deck))

    def side_of(self, owner: str) -> str | None:
        """The side an owner of cards or secrets belongs to: a side id is its own side, a
        unit, leader or group id gives its side, ``GM`` is the GM; None if it is not here."""
        if owner == GM:
            return GM
        for kind in ("side", "unit", "leader", "group"):
            found = self.owner(kind, owner)
            if found is not None:
                return found
        return None


Item = TypeVar("Item", Unit, Leader, Group, Side)


def _first_by_id(items: tuple[Item, ...]) -> dict[str, Item]:
    """Items by id, keeping the first of each id."""
    found: dict[str, Item] = {}
    for item in items:
        found.setdefault(item.id, item)
    return found


@dataclass(eq=False)
class _Lookups:
    """What a tuple of units is asked most: each unit's slot by id (None if an id is there
    twice), the first unit of each id, and the units on the table."""

    units: tuple[Unit, ...]
    slots: dict[str, int] | None
    by_id: dict[str, Unit]
    on_table: tuple[Unit, ...]
    table_slots: dict[str, int]  # each slot in ``on_table`` by id (while ids are unique)
    sides: dict[tuple[str, bool, bool], tuple[Unit, ...]] = field(default_factory=dict)
    # roster places by the other actors' ids: shared by every tuple with the same unit ids
    roster: dict[tuple[tuple[str, ...], ...], dict[tuple[str, str], int]] = field(
        default_factory=dict
    )

    def of_side(self, side_id: str, on_table: bool, mine: bool) -> tuple[Unit, ...]:
        """The units of one side (``mine``) or of every other, of all or those on the table;
        kept, as the same tuple each time (so ``geometry.near`` keeps its boxes too)."""
        key = (side_id, on_table, mine)
        found = self.sides.get(key)
        if found is None:
            units = self.on_table if on_table else self.units
            found = tuple(unit for unit in units if (unit.side == side_id) is mine)
            self.sides[key] = found
        return found

    def swapped(self, units: tuple[Unit, ...], slot: int, unit: Unit) -> _Lookups:
        """The lookups of ``units``: these units with ``unit`` put in ``slot`` (ids unique)."""
        on_slot = self.table_slots.get(unit.id)
        if on_slot is None or unit.location != ON_TABLE:  # on or off the table: all again
            on_table = _standing(units)
            table_slots = _slots(on_table) if on_table is not units else self.slots
        elif self.on_table is self.units:  # all stood on the table, and still do
            on_table, table_slots = units, self.table_slots
            geometry.follow(self.units, units, slot)  # their boxes, one row changed
        else:
            before = self.on_table
            on_table, table_slots = (
                (*before[:on_slot], unit, *before[on_slot + 1 :]),
                self.table_slots,
            )
            geometry.follow(before, on_table, on_slot)
        assert table_slots is not None
        by_id = {**self.by_id, unit.id: unit}
        return _Lookups(units, self.slots, by_id, on_table, table_slots, roster=self.roster)


def _slots(units: tuple[Unit, ...]) -> dict[str, int]:
    """Each unit's slot by id (the last slot of an id held twice)."""
    return {unit.id: slot for slot, unit in enumerate(units)}


# By the units tuple's identity (the entry holds the tuple, so the id is not reused while
# kept): a state copied with only its cursor or status changed shares its units' lookups.
_LOOKUPS: OrderedDict[int, _Lookups] = OrderedDict()
_LOOKUPS_SIZE = 32
_LOOKUPS_LOCK = threading.Lock()


def _lookups_of(units: tuple[Unit, ...]) -> _Lookups:
    """The lookups of a units tuple: kept ones, or made from every unit."""
    with _LOOKUPS_LOCK:
        found = _LOOKUPS.get(id(units))
    if found is not None and found.units is units:
        return found
    slots, on_table = _slots(units), _standing(units)
    unique = len(slots) == len(units)
    table_slots = slots if on_table is units else _slots(on_table)
    return _keep_lookups(
        _Lookups(units, slots if unique else None, _first_by_id(units), on_table, table_slots)
    )


def _keep_lookups(made: _Lookups) -> _Lookups:
    """Remember a tuple's lookups, forgetting the oldest beyond the size."""
    with _LOOKUPS_LOCK:
        _LOOKUPS[id(made.units)] = made
        _LOOKUPS.move_to_end(id(made.units))
        while len(_LOOKUPS) > _LOOKUPS_SIZE:
            _LOOKUPS.popitem(last=False)
    return made


def _standing(units: tuple[Unit, ...]) -> tuple[Unit, ...]:
    """The units on the table: the tuple itself when all are."""
    if all(unit.location == ON_TABLE for unit in units):
        return units
    return tuple(unit for unit in units if unit.location == ON_TABLE)


Copied = TypeVar("Copied", Unit, BattleState)


def _copied(item: Copied, **changes: Any) -> Copied:
    """A copy of a frozen dataclass with some fields changed, as ``dataclasses.replace``
    makes it but without its per-field checks (for changes that need none); only the
    fields are copied, never what was kept beside them (cached lookups of the original)."""
    made = object.__new__(type(item))
    fields = item.__dict__
    made.__dict__.update({name: fields[name] for name in _FIELDS[type(item)]}, **changes)
    return made


def _swap(items: tuple[Item, ...], new: Item) -> tuple[Item, ...]:
    if not any(item.id == new.id for item in items):
        raise KeyError(f"no {type(new).__name__.lower()} {new.id!r}")
    return tuple(new if item.id == new.id else item for item in items)


_INDEXES = {"leaders": "_leader_index", "groups": "_group_index", "sides": "_side_index"}
_FIELDS: dict[type, tuple[str, ...]] = {
    kind: tuple(f.name for f in dataclass_fields(kind)) for kind in (Unit, BattleState)
}
