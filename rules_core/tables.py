"""Reference tables as data: score bands (results tables) and grids (row by column)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from rules_core.codec import Json, Serialisable


@dataclass(frozen=True)
class Band(Serialisable):
    """One row of a results table: the scores it covers (None = open-ended) and its result."""

    low: int | None
    high: int | None
    result: str
    text: str = ""

    def covers(self, score: int) -> bool:
        """True if ``score`` falls in this band."""
        above = self.low is None or score >= self.low
        below = self.high is None or score <= self.high
        return above and below

    @property
    def scores(self) -> str:
        """The band as printed on a sheet: ``5+``, ``1-``, ``3-4`` or ``2``; with a negative
        score in it, words instead of a dash: ``-4 to -2``, ``-7 or less``, ``-1 or more``."""
        negative = any(v is not None and v < 0 for v in (self.low, self.high))
        if self.low is None:
            return f"{self.high} or less" if negative else f"{self.high}-"
        if self.high is None:
            return f"{self.low} or more" if negative else f"{self.low}+"
        if self.low == self.high:
            return str(self.low)
        return f"{self.low} to {self.high}" if negative else f"{self.low}-{self.high}"

    @property
    def row(self) -> str:
        """The row as one line, e.g. ``3-4: act as the player wishes``."""
        return f"{self.scores}: {self.text or self.result}"


@dataclass(frozen=True)
class ScoreTable(Serialisable):
    """A table looked up by a score, such as a control test's results."""

    name: str
    bands: tuple[Band, ...]

    def __post_init__(self) -> None:
        for band in self.bands:
            if band.low is not None and band.high is not None and band.low > band.high:
                raise ValueError(f"{self.name}: band {band.scores} is empty")

    def lookup(self, score: int) -> Band:
        """The first band covering ``score``; KeyError if none does."""
        for band in self.bands:
            if band.covers(score):
                return band
        raise KeyError(f"{self.name}: no row for {score}")


@dataclass(frozen=True)
class GridTable(Serialisable):
    """A table looked up by row and column, such as movement rates by troop type."""

    name: str
    columns: tuple[str, ...]
    rows: Mapping[str, tuple[Json, ...]]

    def __post_init__(self) -> None:
        for key, cells in self.rows.items():
            if len(cells) != len(self.columns):
                raise ValueError(f"{self.name}: row {key!r} has {len(cells)} cells")

    def lookup(self, row: str, column: str) -> Json:
        """The cell at ``row`` and ``column``; KeyError if either is unknown."""
        if column not in self.columns:
            raise KeyError(f"{self.name}: no column {column!r}")
        return self.rows[row][self.columns.index(column)]


def number(table: GridTable, row: str, column: str) -> float:
    """A numeric cell."""
    value = table.lookup(row, column)
    assert isinstance(value, int | float) and not isinstance(value, bool), (table.name, row)
    return float(value)


def whole(table: GridTable, row: str, column: str) -> int:
    """A whole-number cell."""
    return int(number(table, row, column))
