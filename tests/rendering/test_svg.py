"""The table's scene is data a second backend draws: the SVG writer draws every unit, label,
badge, terrain piece and mark of a sample map's scene, without Pillow."""

from __future__ import annotations

from collections.abc import Iterable
from xml.etree import ElementTree

import pytest

from bot.rendering.map_layer import table_pieces
from bot.rendering.render import MapOptions, lay_out
from bot.rendering.scene import Scene, build_scene
from bot.rendering.sketch import Mark, Text
from bot.rendering.svg import drawn_element, scene_svg, shape_element, text_element
from bot.rendering.table_scene import TablePieces
from bot.rendering.view import View
from tests.rendering import states


def _scene(name: str) -> Scene:
    state, events = (states.showcase(), ()) if name == "showcase" else states.mid_battle()
    return build_scene(state, events, None, None, ())


def _pieces(scene: Scene) -> tuple[TablePieces, View]:
    view = lay_out(scene, MapOptions()).view
    return table_pieces(scene, view), view


def _rounded(points: Iterable[tuple[float, float]]) -> set[tuple[float, float]]:
    return {(round(x, 1), round(y, 1)) for x, y in points}


@pytest.mark.parametrize("name", ["showcase", "mid_battle"])
def test_the_svg_draws_every_piece_of_the_scene(name: str) -> None:
    scene = _scene(name)
    pieces, view = _pieces(scene)
    svg = scene_svg(pieces, (view.width, view.height))
    ElementTree.fromstring(svg)  # well formed
    for body in pieces.bodies:
        assert f'class="{body.kind}" data-owner="{body.id}"' in svg
        assert all(shape_element(shape) in svg for shape in body.shapes)
    for label in pieces.labels:
        assert all(text_element(t) in svg for t in (label.name, label.tag) if t is not None)
    for row in pieces.badges:
        assert row.marks and all(drawn_element(mark) in svg for mark in row.marks)
    for mark in (*pieces.terrain, *pieces.under, *pieces.over, *pieces.texts, *pieces.key):
        assert drawn_element(mark) in svg


def test_the_scene_holds_each_terrain_piece_each_mark_and_each_badge_word() -> None:
    scene = _scene("mid_battle")
    pieces, view = _pieces(scene)
    assert scene.marks.moves and scene.marks.shots and (scene.marks.combats or scene.contacts)
    # Every area of terrain is drawn: its outline is among the terrain's marks.
    outlines = [_rounded(m.points) for m in pieces.terrain if isinstance(m, Mark)]
    areas = [f for f in scene.state.terrain if not f.linear]
    assert areas
    for feature in areas:
        corners = _rounded(view.pxs(feature.points))
        assert any(corners <= points for points in outlines), feature.id
    # A move is a white halo, a dot, a line and an arrowhead; a shot a dashed line.
    assert len(pieces.under) >= 4 * len(scene.marks.moves)
    assert any(isinstance(m, Mark) and m.dash for m in pieces.over)
    words = {m.text for row in pieces.badges for m in row.marks if isinstance(m, Text)}
    shown = {badge.text(value) for row in pieces.badges for badge, value in row.items}
    assert shown - {None} <= words | {str(n) for n in range(10)}
