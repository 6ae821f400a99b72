"""Status declared once: the keys a ruleset keeps on units, leaders, groups, sides and the battle.

A ruleset lists its status in one module (``rulesets/<id>/status.py``) as ``Flag``, ``Count``
and ``Level`` declarations collected in a ``StatusSheet``. The rules read a value with
``DISORDERED.of(unit)`` and write it through ``Context`` (which refuses an undeclared key); the
map builds its badges from each declaration's ``Badge`` (plain data: shape, word, tone), and the
status view words side-, group- and leader-level state from the same declarations.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Protocol

from rules_core.codec import Json


class Scope(Enum):
    """What a status key belongs to."""

    UNIT = "unit"
    LEADER = "leader"
    GROUP = "group"
    SIDE = "side"
    BATTLE = "battle"


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
class Flag:
    """A true-or-false status, shown as a tag while it is set."""

    key: str
    meaning: str
    badge: Badge | None = None
    scope: Scope = Scope.UNIT

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
class Count:
    """A whole number (DPs, casualties, leadership points), shown as pips or a counted tag."""

    key: str
    meaning: str
    badge: Badge | None = None
    scope: Scope = Scope.UNIT
    default: int = 0

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
        """Plain words for the value, or None for zero."""
        if isinstance(value, bool) or not isinstance(value, int | float) or not value:
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


Declared = Flag | Count | Level


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

    def of_scope(self, scope: Scope) -> tuple[Declared, ...]:
        """The declarations for one scope, in order."""
        return tuple(item for item in self.items if item.scope is scope)

    def describe(self, scope: Scope, status: Mapping[str, Json]) -> list[str]:
        """Plain words for every declared value set in a status mapping, in declared order."""
        lines = []
        for item in self.of_scope(scope):
            if item.key in status:
                words = item.words(status[item.key])
                if words:
                    lines.append(words)
        return lines


def sheet(*groups: Iterable[Declared] | Declared) -> StatusSheet:
    """A sheet from declarations and groups of them (a shared group plus a ruleset's own)."""
    items: list[Declared] = []
    for group in groups:
        if isinstance(group, Flag | Count | Level):
            items.append(group)
        else:
            items.extend(group)
    return StatusSheet(tuple(items))
