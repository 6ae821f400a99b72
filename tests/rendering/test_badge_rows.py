"""A unit's badge row sits against the unit itself, from the layout the renderer computes:
next to a turned unit's outline (not the corner of the box round it), and along a side of
its box (never touching it by a corner alone, where it reads as a neighbour's)."""

from __future__ import annotations

import pytest
import shapely

from bot.rendering.legibility import read_map, table_problems
from bot.rendering.map_layer import table_pieces
from bot.rendering.placement import SNUG
from bot.rendering.render import MapOptions, lay_out
from bot.rendering.scene import build_scene
from bot.rendering.table_scene import TablePieces
from rules_core.state import BattleState
from tests.rendering import states


def _pieces(state: BattleState, events: tuple[object, ...] = ()) -> TablePieces:
    scene = build_scene(state, events, None, None, ())  # type: ignore[arg-type]
    return table_pieces(scene, lay_out(scene, MapOptions()).view)


@pytest.mark.parametrize("facing", [20.0, 45.0, 70.0, 135.0, 200.0, 315.0])
def test_a_turned_units_badges_lie_against_its_outline(facing: float) -> None:
    pieces = _pieces(states.one_unit({"casualties": 3, "disordered": True}, facing))
    (row,) = pieces.badges
    outline = shapely.Polygon(pieces.body(row.owner).outline)
    assert shapely.distance(shapely.box(*row.box), outline) <= SNUG + 1


@pytest.mark.parametrize("name", ["showcase", "mid_battle"])
def test_no_badge_row_touches_its_units_box_by_a_corner_alone(name: str) -> None:
    state, events = (states.showcase(), ()) if name == "showcase" else states.mid_battle()
    pieces = _pieces(state, events)
    rows = [row for row in pieces.badges if pieces.body(row.owner).kind == "unit"]
    assert rows
    for row in rows:
        (left, top, right, bottom), box = row.box, pieces.body(row.owner).box
        across = left < box[2] and box[0] < right
        beside = top < box[3] and box[1] < bottom
        assert across or beside, row.owner


@pytest.mark.parametrize("width", [800, 1600])
def test_a_leaders_badges_lie_nearer_its_star_than_any_other_piece(width: int) -> None:
    reading = read_map(states.showcase(), options=MapOptions(width=width))
    rows = [row for row in reading.pieces.badges if row.owner.startswith("leader:")]
    assert len(rows) == 2  # the king's wound and the earl's KILLED
    found = [p for p in table_problems(reading) if "badges of" in p]
    assert not found, found
