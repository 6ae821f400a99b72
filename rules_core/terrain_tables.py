"""Terrain rolled on a ruleset's terrain table: how many pieces, what each is, where it lies.

A ruleset with a terrain table returns it from ``Rules.terrain_table``; ``roll_terrain`` rolls
the number of pieces, then each piece on the table, and lays it at a spot drawn from the same
random stream, clear of the table edges (``margin``), of the other terrain and, for an area,
of the sides' deployment zones when they leave room. The GM (or the players, as the ruleset
says) may move or remove pieces afterwards. Every roll goes through ``Dice``, so it is shown
and kept; the spots are drawn from the same stream, so the same seed lays the same table.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from shapely import Polygon
from shapely.geometry.base import BaseGeometry

from rules_core.codec import Serialisable
from rules_core.dice import Dice
from rules_core.dice_expr import parse_expression
from rules_core.state import LINEAR_KINDS, TERRAIN_KINDS, BattleState, Point, TerrainFeature
from rules_core.tables import ScoreTable
from rules_core.terrain import feature_shape

NOTHING = "none"  # a band result that lays no piece
TRIES = 60  # spots tried for one piece before it is left out
GRID = 0.5  # spots are rounded to this, in the table's measure


@dataclass(frozen=True)
class TerrainPiece(Serialisable):
    """One result of a terrain table: a kind, a name and a size in the table's measure (a
    linear piece runs edge to edge across the table; its ``width`` is the band's width)."""

    kind: str
    name: str
    width: float
    depth: float = 0.0

    def __post_init__(self) -> None:
        if self.kind not in TERRAIN_KINDS:
            raise ValueError(f"terrain piece {self.name!r}: unknown kind {self.kind!r}")


@dataclass(frozen=True)
class TerrainTable(Serialisable):
    """A ruleset's terrain table: ``count`` (a dice expression, or a plain number) pieces,
    each rolled with
    ``roll`` on ``table``, whose band results name entries of ``pieces`` (or ``none``)."""

    name: str
    count: str
    roll: str
    table: ScoreTable
    pieces: Mapping[str, TerrainPiece]
    margin: float = 2.0

    def __post_init__(self) -> None:
        if not self.count.isdigit():
            parse_expression(self.count)
        parse_expression(self.roll)
        for band in self.table.bands:
            if band.result != NOTHING and band.result not in self.pieces:
                raise ValueError(f"{self.name}: band {band.scores} names no piece")


@dataclass(frozen=True)
class Rolled:
    """What a terrain roll laid: the new features, and the pieces rolled that found no room."""

    features: tuple[TerrainFeature, ...]
    left_out: tuple[str, ...]


def roll_terrain(
    table: TerrainTable,
    state: BattleState,
    dice: Dice,
    zones: Sequence[Sequence[Point]] = (),
    first_id: int = 1,
) -> Rolled:
    """Roll the table and lay each piece (ids ``t<first_id>`` on); ``zones`` are the sides'
    deployment zones, kept clear of area pieces when there is room."""
    count = (
        int(table.count)
        if table.count.isdigit()
        else parse_expression(table.count).roll(dice, f"{table.name}: how many pieces").total
    )
    laid: list[TerrainFeature] = []
    left_out: list[str] = []
    taken: list[BaseGeometry] = [feature_shape(f) for f in state.terrain if not f.linear]
    keep_clear = [Polygon(zone) for zone in zones if len(zone) >= 3]
    for index in range(max(0, count)):
        score = parse_expression(table.roll).roll(dice, f"{table.name}: piece {index + 1}").total
        result = table.table.lookup(score).result
        if result == NOTHING:
            continue
        piece = table.pieces[result]
        key = f"t{first_id + len(laid)}"
        feature = _lay(piece, key, state, dice, taken, keep_clear, table.margin)
        if feature is None:
            left_out.append(piece.name)
            continue
        laid.append(feature)
        if not feature.linear:
            taken.append(feature_shape(feature))
    return Rolled(tuple(laid), tuple(left_out))


def _lay(
    piece: TerrainPiece,
    key: str,
    state: BattleState,
    dice: Dice,
    taken: list[BaseGeometry],
    keep_clear: list[Polygon],
    margin: float,
) -> TerrainFeature | None:
    """The piece at the first spot drawn that is clear; None if none of ``TRIES`` is."""
    field = state.battlefield
    props = {"width": piece.width} if piece.kind in LINEAR_KINDS else {}
    for attempt in range(TRIES):
        avoid_zones = attempt < TRIES // 2  # then give up on the zones before on the piece
        if piece.kind in LINEAR_KINDS:
            y = _spot(dice, margin, field.depth - margin)
            points: tuple[Point, ...] = ((0.0, y), (field.width, y))
            return TerrainFeature(key, piece.kind, points, piece.name, props)
        half_w, half_d = piece.width / 2, (piece.depth or piece.width) / 2
        x = _spot(dice, margin + half_w, field.width - margin - half_w)
        y = _spot(dice, margin + half_d, field.depth - margin - half_d)
        points = (
            (x - half_w, y - half_d),
            (x + half_w, y - half_d),
            (x + half_w, y + half_d),
            (x - half_w, y + half_d),
        )
        shape = Polygon(points)
        if any(shape.intersects(other) for other in taken):
            continue
        if avoid_zones and any(shape.intersects(zone) for zone in keep_clear):
            continue
        return TerrainFeature(key, piece.kind, points, piece.name, props)
    return None


def _spot(dice: Dice, low: float, high: float) -> float:
    """A coordinate between ``low`` and ``high`` on the ``GRID``, drawn from the roll's stream."""
    if high <= low:
        return round(((low + high) / 2) / GRID) * GRID
    steps = int((high - low) / GRID)
    return low + dice.rng.randint(0, steps) * GRID
