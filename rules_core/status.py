"""Status declared once: the keys a ruleset keeps on units, leaders, groups, sides and the battle.

A ruleset lists its status in one module (``rulesets/<id>/status.py``) as ``Flag``, ``Count``,
``Level``, ``Text`` (an id or a word) and ``Note`` (structured bookkeeping) declarations
collected in a ``StatusSheet``. The rules read a value with ``DISORDERED.of(unit)`` and write it
through ``Context`` (which refuses an undeclared key or a value of the wrong kind); the map
builds its badges from each declaration's ``Badge`` (plain data: shape, word, tone), and
``describe_state`` words side-, group- and leader-level state from the same declarations.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Protocol

from rules_core.codec import Json
from rules_core.decisions import GM
from rules_core.state import BattleState


class Scope(Enum):
    """What a status key belongs to."""

    UNIT = "unit"
    LEADER = "leader"
    GROUP = "group"
    SIDE = "side"
    BATTLE = "battle"
    HIDDEN = "hidden"  # one side's secret (``BattleState.hidden``), seen by that side and the GM


TONES = frozenset({"warn", "bad", "worse", "good", "calm", "neutral", "pip"})
SHAPES = frozenset({"tag", "pips", "count", "level"})


@dataclass(frozen=True)
class Badge:
    """How the map shows a value: a shape, a word (or ``{}`` form for counts) and a tone."""

    shape: str
    word: str = ""
    tone: str = "warn"

    def __post_init__(self) -> None:
        if self.shape not in SHAPES:
            raise ValueError(f"unknown badge shape {self.shape!r}")
        if self.tone not in TONES:
            raise ValueError(f"unknown badge tone {self.tone!r}")


class Holder(Protocol):
    """Anything with a status mapping (a unit, leader, group, side or the battle)."""

    @property
    def status(self) -> Mapping[str, Json]:
        """Its status fields."""
        ...


def _raw(holder: Holder, key: str) -> Json:
    """A status value, falling back to a unit's profile (its roster values)."""
    if key in holder.status:
        return holder.status[key]
    profile = getattr(holder, "profile", None)
    if isinstance(profile, Mapping):
        found: Json = profile.get(key)
        return found
    return None


@dataclass(frozen=True)
class _Badged:
    """What a flag and a count declare alike: the key, its meaning, its badge and its scope."""

    key: str
    meaning: str
    badge: Badge | None = None
    scope: Scope = Scope.UNIT


@dataclass(frozen=True)
class Flag(_Badged):
    """A true-or-false status, shown as a tag while it is set."""

    def of(self, holder: Holder) -> bool:
        """Whether the flag is set (only ``True`` counts as set)."""
        return _raw(holder, self.key) is True

    def check(self, value: Json) -> Json:
        """The value if it is a flag's; ValueError otherwise."""
        if not isinstance(value, bool) and value is not None:
            raise ValueError(f"{self.key} is a flag, not {value!r}")
        return value

    def words(self, value: Json) -> str | None:
        """Plain words for the value, or None when there is nothing to say."""
        return self.meaning if value is True else None


@dataclass(frozen=True)
class Count(_Badged):
    """A whole number (DPs, casualties, leadership points), shown as pips or a counted tag."""

    default: int = 0
    private: bool = False  # bookkeeping (a tally, a turn number): not described to players

    def of(self, holder: Holder) -> int:
        """The count, or the default when it is missing or not a number."""
        value = _raw(holder, self.key)
        if isinstance(value, bool) or not isinstance(value, int | float):
            return self.default
        return int(value)

    def check(self, value: Json) -> Json:
        """The value if it is a count's; ValueError otherwise."""
        if value is not None and (isinstance(value, bool) or not isinstance(value, int | float)):
            raise ValueError(f"{self.key} is a count, not {value!r}")
        return value

    def words(self, value: Json) -> str | None:
        """Plain words for the value, or None for zero or a private count."""
        if (
            self.private
            or isinstance(value, bool)
            or not isinstance(value, int | float)
            or not value
        ):
            return None
        return f"{self.meaning}: {value:g}"


@dataclass(frozen=True)
class LevelValue:
    """One named value of a level, with its badge word and tone (``quiet``: no badge)."""

    value: str
    word: str = ""
    tone: str = "neutral"
    quiet: bool = False


@dataclass(frozen=True)
class Level:
    """One of a list of named values (array, cohesion, aggression), shown as a coloured tag."""

    key: str
    meaning: str
    values: tuple[LevelValue, ...]
    scope: Scope = Scope.UNIT
    default: str = ""
    open: bool = False  # True: other text values are allowed too (shown in neutral grey)

    @property
    def badge(self) -> Badge | None:
        """Levels are drawn as a tag in the tone of their value."""
        return Badge("level")

    def names(self) -> tuple[str, ...]:
        """The level's values in order."""
        return tuple(item.value for item in self.values)

    def of(self, holder: Holder) -> str:
        """The value, or the default when it is missing."""
        value = _raw(holder, self.key)
        return value if isinstance(value, str) and value else self.default

    def entry(self, value: Json) -> LevelValue | None:
        """The declared value that ``value`` names, or None."""
        key = str(value).strip().lower()
        return next((item for item in self.values if item.value.lower() == key), None)

    def check(self, value: Json) -> Json:
        """The value if it is one of the level's; ValueError otherwise."""
        if value is None or value == "" or self.open or self.entry(value) is not None:
            return value
        raise ValueError(f"{self.key} is one of {', '.join(self.names())}, not {value!r}")

    def words(self, value: Json) -> str | None:
        """Plain words for the value, or None for a quiet or empty one."""
        entry = self.entry(value)
        if value in (None, "") or (entry is not None and entry.quiet):
            return None
        return f"{self.meaning}: {value}"


@dataclass(frozen=True)
class Text:
    """A word or an id the rules keep (the enemy in combat, a charge response); never drawn."""

    key: str
    meaning: str
    scope: Scope = Scope.UNIT
    badge: None = None

    def of(self, holder: Holder) -> str:
        """The text, or "" when it is missing or not text."""
        value = _raw(holder, self.key)
        return value if isinstance(value, str) else ""

    def check(self, value: Json) -> Json:
        """The value if it is text (or None, for unset); ValueError otherwise."""
        if value is not None and not isinstance(value, str):
            raise ValueError(f"{self.key} is text, not {value!r}")
        return value

    def words(self, value: Json) -> str | None:
        """Plain words for the value, or None when it is unset."""
        return f"{self.meaning}: {value}" if isinstance(value, str) and value else None


@dataclass(frozen=True)
class Note:
    """Structured bookkeeping (a last move, a tally by division); never drawn or described."""

    key: str
    meaning: str
    scope: Scope = Scope.UNIT
    shown: bool = False  # True: described to players (a list of broken divisions)
    badge: None = None

    def of(self, holder: Holder) -> Json:
        """The raw value, or None when it is missing."""
        return _raw(holder, self.key)

    def check(self, value: Json) -> Json:
        """Any JSON value will do: the rules that keep it read it."""
        return value

    def words(self, value: Json) -> str | None:
        """Plain words for a shown note that holds something; bookkeeping is not shown."""
        if not self.shown or value in (None, "", [], {}):
            return None
        items = value if isinstance(value, list) else [value]
        return f"{self.meaning}: {', '.join(str(item) for item in items)}"


Declared = Flag | Count | Level | Text | Note


class UndeclaredStatus(KeyError):
    """A status key that the ruleset does not declare was set or read."""


@dataclass(frozen=True)
class StatusSheet:
    """Every status key a ruleset keeps, in drawing order."""

    items: tuple[Declared, ...] = ()
    _index: dict[tuple[Scope, str], Declared] = field(
        init=False, repr=False, compare=False, default_factory=dict
    )

    def __post_init__(self) -> None:
        for item in self.items:
            slot = (item.scope, item.key)
            if slot in self._index:
                raise ValueError(f"status {item.key!r} is declared twice for {item.scope.value}")
            self._index[slot] = item

    def __iter__(self) -> Iterator[Declared]:
        return iter(self.items)

    def __add__(self, other: StatusSheet) -> StatusSheet:
        return StatusSheet((*self.items, *other.items))

    def get(self, key: str, scope: Scope = Scope.UNIT) -> Declared:
        """The declaration of a key; UndeclaredStatus if there is none."""
        found = self._index.get((scope, key))
        if found is None:
            raise UndeclaredStatus(f"status {key!r} is not declared for a {scope.value}")
        return found

    def declares(self, key: str, scope: Scope = Scope.UNIT) -> bool:
        """Whether a key is declared for a scope."""
        return (scope, key) in self._index

    def check(self, scope: Scope, changes: Mapping[str, Json]) -> None:
        """Refuse undeclared keys and values of the wrong kind."""
        for key, value in changes.items():
            self.get(key, scope).check(value)

    def apply(
        self, state: BattleState, scope: Scope, holder: str, changes: Mapping[str, Json]
    ) -> BattleState:
        """The state with declared status fields of one holder changed (its id; "" the battle).

        For hooks that build a state before play (``prepare``); resolvers use ``Context``.
        """
        self.check(scope, changes)
        if scope is Scope.UNIT:
            return state.with_unit(state.unit(holder).with_status(**changes))
        if scope is Scope.LEADER:
            leader = state.leader(holder)
            return state.with_leader(replace(leader, status={**leader.status, **changes}))
        if scope is Scope.GROUP:
            group = state.group(holder)
            return state.with_group(replace(group, status={**group.status, **changes}))
        if scope is Scope.SIDE:
            side = state.side(holder)
            return state.with_side(replace(side, status={**side.status, **changes}))
        if scope is Scope.HIDDEN:
            if holder != GM:
                state.side(holder)
            return state.with_hidden(holder, **changes)
        return state.with_status(**changes)

    def of_scope(self, scope: Scope) -> tuple[Declared, ...]:
        """The declarations for one scope, in order."""
        return tuple(item for item in self.items if item.scope is scope)

    def badges(self, *scopes: Scope) -> tuple[Declared, ...]:
        """The declarations with a badge for some scopes, in drawing (declaration) order."""
        return tuple(item for item in self.items if item.scope in scopes and item.badge)

    def describe(
        self, scope: Scope, status: Mapping[str, Json], names: Mapping[str, str] = {}
    ) -> list[str]:
        """Plain words for every declared value set in a status mapping, in declared order.

        A note listing ids (broken divisions, say) shows each id's name where ``names`` has it.
        """
        lines = []
        for item in self.of_scope(scope):
            if item.key in status:
                value = status[item.key]
                if isinstance(item, Note) and isinstance(value, list):
                    value = [names.get(v, v) if isinstance(v, str) else v for v in value]
                words = item.words(value)
                if words:
                    lines.append(words)
        return lines


def sheet(*groups: Iterable[Declared] | Declared) -> StatusSheet:
    """A sheet from declarations and groups of them (a shared group plus a ruleset's own)."""
    items: list[Declared] = []
    for group in groups:
        if isinstance(group, Flag | Count | Level | Text | Note):
            items.append(group)
        else:
            items.extend(group)
    return StatusSheet(tuple(items))


def describe_state(
    statuses: StatusSheet,
    state: BattleState,
    scopes: Collection[Scope] = (Scope.SIDE, Scope.GROUP, Scope.LEADER),
) -> dict[str, list[str]]:
    """Plain words, per side id, for its declared side-, group- and leader-level state.

    Only sides with something to say appear; group and leader lines start with their name.
    """
    found: dict[str, list[str]] = {}
    names = {g.id: g.name for g in state.groups}
    names |= {u.id: u.name for u in state.units} | {ld.id: ld.name for ld in state.leaders}
    for side in state.sides:
        lines = statuses.describe(Scope.SIDE, side.status, names) if Scope.SIDE in scopes else []
        parts: list[tuple[Scope, str, Mapping[str, Json]]] = [
            (Scope.GROUP, g.name, g.status) for g in state.groups if g.side == side.id
        ]
        parts += [(Scope.LEADER, ld.name, ld.status) for ld in state.leaders if ld.side == side.id]
        for scope, name, status in parts:
            if scope in scopes:
                lines += [f"{name}: {line}" for line in statuses.describe(scope, status, names)]
        if lines:
            found[side.id] = lines
    return found


@dataclass(frozen=True)
class Hidden:
    """One side's hidden state as a holder the declarations read: ``SWAPS.of(hidden_of(...))``."""

    status: Mapping[str, Json]


def hidden_of(state: BattleState, holder: str) -> Hidden:
    """The hidden state of one side (or ``GM``), to read with ``Scope.HIDDEN`` declarations."""
    return Hidden(state.hidden.get(holder, {}))


def held(state: BattleState) -> Iterator[tuple[Scope, str]]:
    """Every (scope, key) a state keeps in any unit, leader, group, side or battle status."""
    parts: tuple[tuple[Scope, Iterable[Holder]], ...] = (
        (Scope.UNIT, state.units),
        (Scope.LEADER, state.leaders),
        (Scope.GROUP, state.groups),
        (Scope.SIDE, state.sides),
        (Scope.BATTLE, (state,)),
    )
    for scope, holders in parts:
        for holder in holders:
            for key in holder.status:
                yield scope, key
    for secrets in state.hidden.values():
        for key in secrets:
            yield Scope.HIDDEN, key


def undeclared(statuses: StatusSheet, state: BattleState) -> set[tuple[Scope, str]]:
    """The (scope, key) pairs a state keeps that the sheet does not declare."""
    return {slot for slot in held(state) if not statuses.declares(slot[1], slot[0])}


def stored(item: Declared, holder: Holder) -> Json:
    """The value a holder keeps for a declared key exactly as stored (None when unset): no
    default and no profile fallback, for bookkeeping that tells unset from a set False or 0."""
    return holder.status.get(item.key)
