"""Exact chances before a roll is made: distributions over the dice, and the odds a ruleset
reports for a charge, a shot or a test.

A resolver describes each roll it is about to make as a ``RollSpec`` (dice, mode, modifiers,
label), built by a pure function of the state; it rolls the spec with ``RollSpec.roll`` and
``Rules.odds`` asks the same spec for its ``distribution``, so the odds and play read one list
of modifiers. Every chance is an exact ``Fraction``, computed by convolution over the faces.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from itertools import combinations_with_replacement
from math import comb, factorial, gcd, lcm
from typing import TYPE_CHECKING

from rules_core.codec import Json
from rules_core.dice import (
    Dice,
    Modifier,
    Purpose,
    Roll,
    check_mode,
    faces_of,
    format_expression,
    keep_flags,
)
from rules_core.orders import Order
from rules_core.state import BattleState, Unit

if TYPE_CHECKING:
    from rules_core.tables import Band, ScoreTable

ONE = Fraction(1)
QUERY_KINDS = ("charge", "shoot", "melee", "test")  # what may be asked without an order


class Dist:
    """An exact probability distribution over integers: whole-number weights over one common
    denominator (integer arithmetic keeps a combat's convolutions fast), read as Fractions."""

    __slots__ = ("_den", "_weights")

    def __init__(self, chances: Mapping[int, Fraction]) -> None:
        kept = {value: Fraction(chance) for value, chance in chances.items() if chance}
        if sum(kept.values()) != 1:
            raise ValueError(f"chances must add up to 1, got {sum(kept.values())}")
        den = lcm(*(c.denominator for c in kept.values()))
        self._set({v: c.numerator * (den // c.denominator) for v, c in kept.items()}, den)

    def _set(self, weights: Mapping[int, int], den: int) -> None:
        shared = gcd(den, *weights.values())
        self._weights = {v: w // shared for v, w in sorted(weights.items()) if w}
        self._den = den // shared

    @classmethod
    def _made(cls, weights: Mapping[int, int], den: int) -> Dist:
        """A distribution from whole weights over ``den`` already known to add up to it."""
        made = cls.__new__(cls)
        made._set(weights, den)
        return made

    @classmethod
    def certain(cls, value: int) -> Dist:
        """Always ``value``."""
        return cls._made({value: 1}, 1)

    @classmethod
    def die(cls, kind: str = "D6") -> Dist:
        """One die of a kind ("D6", "AvD", "D2".."D100")."""
        return cls.weighted(faces_of(kind))

    @classmethod
    def weighted(cls, values: Iterable[int]) -> Dist:
        """Each value equally likely (repeats count more, as the AvD's 3s and 4s)."""
        listed = list(values)
        weights: dict[int, int] = {}
        for value in listed:
            weights[value] = weights.get(value, 0) + 1
        return cls._made(weights, len(listed))

    @classmethod
    def binomial(cls, n: int, p: Fraction) -> Dist:
        """Successes among ``n`` independent tries that each succeed with chance ``p``."""
        yes, den = p.numerator, p.denominator
        no = den - yes
        return cls._made({k: comb(n, k) * yes**k * no ** (n - k) for k in range(n + 1)}, den**n)

    def items(self) -> list[tuple[int, Fraction]]:
        """(value, chance) from the lowest value up."""
        return [(v, Fraction(w, self._den)) for v, w in self._weights.items()]

    def chance(self, value: int) -> Fraction:
        """The chance of exactly ``value``."""
        return Fraction(self._weights.get(value, 0), self._den)

    def where(self, test: Callable[[int], bool]) -> Fraction:
        """The chance that the value passes ``test``."""
        return Fraction(sum(w for v, w in self._weights.items() if test(v)), self._den)

    def map(self, change: Callable[[int], int]) -> Dist:
        """The distribution of ``change(value)``."""
        found: dict[int, int] = {}
        for value, weight in self._weights.items():
            key = change(value)
            found[key] = found.get(key, 0) + weight
        return Dist._made(found, self._den)

    def __add__(self, other: Dist) -> Dist:
        """The sum of two independent values (convolution)."""
        found: dict[int, int] = {}
        for a, wa in self._weights.items():
            for b, wb in other._weights.items():
                found[a + b] = found.get(a + b, 0) + wa * wb
        return Dist._made(found, self._den * other._den)

    def __sub__(self, other: Dist) -> Dist:
        """The difference of two independent values."""
        return self + other.map(lambda v: -v)

    def then(self, follow: Callable[[int], Dist]) -> Dist:
        """A second value that depends on this one (hits, then the saves against them)."""
        branches = [(weight, follow(value)) for value, weight in self._weights.items()]
        common = lcm(*(branch._den for _, branch in branches))
        found: dict[int, int] = {}
        for weight, branch in branches:
            scale = weight * (common // branch._den)
            for result, w in branch._weights.items():
                found[result] = found.get(result, 0) + scale * w
        return Dist._made(found, self._den * common)

    def times(self, n: int) -> Dist:
        """The sum of ``n`` independent copies (``n`` at least 1)."""
        total, power, left = None, self, n
        while left:
            if left & 1:
                total = power if total is None else total + power
            left >>= 1
            if left:
                power = power + power
        assert total is not None
        return total

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Dist) and self._den == other._den and self._weights == other._weights
        )

    def __hash__(self) -> int:
        return hash((self._den, tuple(self._weights.items())))

    def __repr__(self) -> str:
        return f"Dist({ {v: str(c) for v, c in self.items()} })"


def success_chance(kind: str, target: int) -> Fraction:
    """The chance that one die of ``kind`` scores ``target`` or more."""
    faces = faces_of(kind)
    return Fraction(sum(1 for face in faces if face >= target), len(faces))


@dataclass(frozen=True)
class RollSpec:
    """A roll described before it is made: what ``Dice.roll`` is given, and nothing else.

    The resolver rolls it (``roll``); the odds read its ``distribution``. One function of the
    state builds it, so the odds and play cannot disagree on a modifier.
    """

    label: str
    n: int
    kind: str = "D6"
    mode: str = "sum"
    target: int | None = None
    keep: int | None = None
    keep_lowest: bool = False
    modifiers: tuple[Modifier, ...] = ()
    dice_modifiers: tuple[Modifier, ...] = ()
    purpose: Purpose | None = None  # kept on the roll made from it

    def __post_init__(self) -> None:
        object.__setattr__(self, "modifiers", tuple(self.modifiers))
        object.__setattr__(self, "dice_modifiers", tuple(self.dice_modifiers))
        check_mode(self.mode, self.keep, self.target)

    @property
    def dice(self) -> int:
        """The number of dice rolled once the dice modifiers apply (never fewer than one)."""
        return max(1, self.n + sum(m.value for m in self.dice_modifiers))

    @property
    def bonus(self) -> int:
        """The modifiers' sum, added to the total."""
        return sum(m.value for m in self.modifiers)

    def roll(self, dice: Dice) -> Roll:
        """Make the roll."""
        return dice.roll(
            self.label,
            self.n,
            self.kind,
            mode=self.mode,
            keep=self.keep,
            keep_lowest=self.keep_lowest,
            target=self.target,
            modifiers=self.modifiers,
            dice_modifiers=self.dice_modifiers,
            purpose=self.purpose,
        )

    def distribution(self) -> Dist:
        """The exact distribution of the roll's total, as ``Roll.total`` would read it."""
        return _distribution(
            self.dice, self.kind, self.mode, self.target, self.keep, self.keep_lowest, self.bonus
        )

    def describe(self) -> str:
        """The roll in words as the odds show it, e.g. "Shooting: 4D6>=5 +1 close range"."""
        text = format_expression(
            self.dice, self.kind, self.mode, self.keep, self.keep_lowest, self.target
        )
        mods = "".join(f" {m.describe()}" for m in self.modifiers)
        count = "".join(f" [{m.value:+d} dice {m.reason}]" for m in self.dice_modifiers)
        return f"{self.label}: {text}{count}{mods}"


@lru_cache(maxsize=4096)
def _distribution(
    n: int, kind: str, mode: str, target: int | None, keep: int | None, lowest: bool, bonus: int
) -> Dist:
    """The distribution of a roll's total (kept: a combat asks for the same rolls many times)."""
    if mode == "pool":
        assert target is not None
        hits = Dist.binomial(n, success_chance(kind, target))
        return hits.map(lambda s: max(0, s + bonus))
    if mode == "max":
        return _highest(n, kind).map(lambda v: v + bonus)
    if keep is not None:
        return _kept(n, kind, keep, lowest).map(lambda v: v + bonus)
    return Dist.die(kind).times(n).map(lambda v: v + bonus)


def forget() -> None:
    """Empty the kept distributions (a benchmark times them from cold)."""
    _distribution.cache_clear()


def _highest(n: int, kind: str) -> Dist:
    """The highest of ``n`` dice: P(max ≤ k) = P(one ≤ k)^n."""
    faces = sorted(set(faces_of(kind)))
    one = Dist.die(kind)
    below = [sum((p for v, p in one.items() if v <= k), Fraction(0)) ** n for k in faces]
    return Dist({k: below[i] - (below[i - 1] if i else 0) for i, k in enumerate(faces)})


def _kept(n: int, kind: str, keep: int, lowest: bool) -> Dist:
    """The sum of the ``keep`` highest (or lowest) of ``n`` dice, over every multiset of faces."""
    one = Dist.die(kind)
    found: dict[int, Fraction] = {}
    for faces in combinations_with_replacement(sorted(v for v, _ in one.items()), n):
        ways = Fraction(factorial(n))
        chance = ONE
        for face in set(faces):
            ways /= factorial(faces.count(face))
            chance *= one.chance(face) ** faces.count(face)
        flags = keep_flags(faces, keep, lowest)
        total = sum(face for face, kept in zip(faces, flags, strict=True) if kept)
        found[total] = found.get(total, Fraction(0)) + ways * chance
    return Dist(found)


def band_label(band: Band) -> str:
    """A band as the odds name it: its scores and result, e.g. "5+ victory"."""
    return f"{band.scores} {band.result.replace('_', ' ')}"


def bands(dist: Dist, table: ScoreTable) -> list[tuple[str, Fraction]]:
    """The chance of each band of a score table, in the table's order (impossible ones left out)."""
    found = [Fraction(0)] * len(table.bands)
    for value, chance in dist.items():
        found[table.bands.index(table.lookup(value))] += chance
    return [(band_label(b), p) for b, p in zip(table.bands, found, strict=True) if p]


# -- what a player asks, and what the ruleset answers -------------------------------------


@dataclass(frozen=True)
class OddsQuery:
    """What a player asks the chances of: a ``kind`` (charge, shoot, test, or an order's kind)
    by a unit, at a target if the kind has one, with the order's other parameters."""

    kind: str
    unit: str
    target: str | None = None
    params: Mapping[str, Json] = field(default_factory=dict)

    @property
    def option(self) -> str:
        """The order's choice parameter (``option``), or ""."""
        value = self.params.get("option")
        return value if isinstance(value, str) else ""

    @classmethod
    def of_order(cls, order: Order) -> OddsQuery:
        """The question an order asks: its kind by its actor, at its ``target`` if any."""
        target = order.params.get("target")
        return cls(
            order.kind, order.actor, target if isinstance(target, str) else None, dict(order.params)
        )


@dataclass(frozen=True)
class Chance:
    """One result and its exact chance."""

    label: str
    chance: Fraction

    @property
    def percent(self) -> float:
        """The chance in percent."""
        return float(self.chance * 100)


@dataclass(frozen=True)
class OddsTable:
    """The chances of one question's results (result bands, hits, passing a test)."""

    title: str
    chances: tuple[Chance, ...]

    @classmethod
    def of(cls, title: str, pairs: Iterable[tuple[str, Fraction]]) -> OddsTable:
        """A table from (label, chance) pairs, leaving out the impossible ones."""
        return cls(title, tuple(Chance(label, p) for label, p in pairs if p))

    @classmethod
    def counts(cls, title: str, dist: Dist, noun: str, plural: str = "") -> OddsTable:
        """A table of each count of a distribution ("0 hits", "1 hit", ...)."""
        many = plural or f"{noun}s"
        return cls.of(title, ((f"{v} {noun if v == 1 else many}", p) for v, p in dist.items()))


@dataclass(frozen=True)
class Odds:
    """The answer to an ``OddsQuery``: its tables of chances, the rolls they come from (with
    every modifier the bot would apply now) and notes on what was assumed."""

    title: str
    tables: tuple[OddsTable, ...]
    rolls: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Refused:
    """Why there are no odds for a query (no line of sight, out of range, not in contact)."""

    reason: str


def rolls_of(specs: Sequence[RollSpec]) -> tuple[str, ...]:
    """The rolls in words, for ``Odds.rolls``."""
    return tuple(spec.describe() for spec in specs)


def units_of(state: BattleState, query: OddsQuery) -> tuple[Unit, Unit | None] | Refused:
    """The unit a query is about and its enemy target (if it names one), or why not."""
    unit = next((u for u in state.units_on_table if u.id == query.unit), None)
    if unit is None:
        return Refused(f"no unit {query.unit!r} on the table")
    if query.target is None:
        return unit, None
    target = next((u for u in state.units_on_table if u.id == query.target), None)
    if target is None:
        return Refused(f"no unit {query.target!r} on the table")
    if target.side == unit.side:
        return Refused(f"{target.name} is a friendly unit")
    return unit, target


def needs_target(query: OddsQuery) -> Refused:
    """The refusal of a charge or shot that names no target."""
    return Refused(f"name the target of the {query.kind}")
