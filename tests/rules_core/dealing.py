"""Exhaustive enumeration of the dice a resolver rolls, for checking the odds against play.

``Dealt`` deals chosen faces to ``Dice`` (D6 through ``randint``, AvD through ``choice``), so
``itertools.product`` over the faces drives a resolver through every roll it can make;
``explore`` does the same when how many dice are rolled depends on earlier dice (saves
against the hits scored), branching on each die as the resolver asks for it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Iterable, Sequence
from fractions import Fraction
from itertools import product

from rules_core.odds import Odds, OddsTable


class Dealt(random.Random):
    """A random stream that deals the given faces in order."""

    def __init__(self, faces: Iterable[int]) -> None:
        super().__init__(0)
        self.faces = list(faces)
        self.dealt = 0

    def randint(self, a: int, b: int) -> int:
        self.dealt += 1
        return self.faces.pop(0)

    def choice(self, seq: Sequence[int]) -> int:  # type: ignore[override]
        self.dealt += 1
        return self.faces.pop(0)


class DealtThenThrees(Dealt):
    """Deals the given faces in order, then 3s (an AvD its second face): for scripted
    situations that care about the first few dice only."""

    def randint(self, a: int, b: int) -> int:
        return super().randint(a, b) if self.faces else 3

    def choice(self, seq: Sequence[int]) -> int:  # type: ignore[override]
        return super().choice(seq) if self.faces else seq[1]


class Exhausted(Exception):
    """The resolver asked for a die beyond the faces dealt: these are its possible faces."""

    def __init__(self, faces: tuple[int, ...]) -> None:
        super().__init__(faces)
        self.faces = faces


class Branching(random.Random):
    """Deals a prefix of faces, then stops the resolver to branch on the next die."""

    def __init__(self, prefix: tuple[int, ...]) -> None:
        super().__init__(0)
        self.prefix = prefix
        self.at = 0

    def _next(self, faces: tuple[int, ...]) -> int:
        if self.at == len(self.prefix):
            raise Exhausted(faces)
        self.at += 1
        return self.prefix[self.at - 1]

    def randint(self, a: int, b: int) -> int:
        return self._next(tuple(range(a, b + 1)))

    def choice(self, seq: Sequence[int]) -> int:  # type: ignore[override]
        return self._next(tuple(seq))


def tally(
    faces: Sequence[Sequence[int]], run: Callable[[Dealt], Hashable]
) -> dict[Hashable, Fraction]:
    """Every combination of faces (one list of faces per die) run once, equally likely."""
    found: dict[Hashable, Fraction] = {}
    combos = list(product(*faces))
    for combo in combos:
        rng = Dealt(combo)
        outcome = run(rng)
        assert rng.dealt == len(combo), "the resolver rolled a different number of dice"
        found[outcome] = found.get(outcome, Fraction(0)) + Fraction(1, len(combos))
    return found


def explore(run: Callable[[random.Random], Hashable]) -> dict[Hashable, Fraction]:
    """Every sequence of faces the resolver can roll, each weighted by its chance."""
    found: dict[Hashable, Fraction] = {}
    stack: list[tuple[tuple[int, ...], Fraction]] = [((), Fraction(1))]
    while stack:
        prefix, weight = stack.pop()
        try:
            outcome = run(Branching(prefix))
        except Exhausted as more:
            share = weight / len(more.faces)
            stack.extend(((*prefix, face), share) for face in more.faces)
            continue
        found[outcome] = found.get(outcome, Fraction(0)) + weight
    return found


def table(odds: Odds | object, title: str) -> dict[str, Fraction]:
    """One table of an answer, as label → chance."""
    assert isinstance(odds, Odds), odds
    found: OddsTable = next(t for t in odds.tables if t.title == title)
    return {c.label: c.chance for c in found.chances}


def nonzero(found: dict[Hashable, Fraction]) -> dict[Hashable, Fraction]:
    """The outcomes that happen (an enumeration never lists the impossible ones anyway)."""
    return {key: chance for key, chance in found.items() if chance}
