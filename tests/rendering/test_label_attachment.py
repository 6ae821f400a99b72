"""Labels stay attached: on the real sample maps and the busy 120-unit map, every unit's and
leader's label sits on or right beside its own item, and wholly on the table's picture."""

from __future__ import annotations

import pytest
from PIL import Image, ImageDraw

from bench.maps import busy_battle
from bot.rendering import map_layer
from bot.rendering.badges import badges_for
from bot.rendering.labels import Box, Occupied, add_all
from bot.rendering.render import MapOptions, lay_out
from bot.rendering.scene import build_scene
from bot.rendering.units import Label, leader_box, leader_label, place_labels, unit_label
from rules_core.events import Event
from rules_core.state import BattleState
from tools.sample_maps import at_first_step, sample_battles

BESIDE = 3.01  # px: the gap labels.spots leaves between an item and a label beside it


def placed(
    state: BattleState, events: tuple[Event, ...] = ()
) -> tuple[list[tuple[Label, Box]], Box]:
    """The labels as the map places them (the same steps as map_layer._bodies), and the
    table picture's bounds."""
    scene = build_scene(state, events, None, None)
    view = lay_out(scene, MapOptions()).view
    draw = ImageDraw.Draw(Image.new("RGB", (view.width, view.height)))
    pieces = map_layer._pieces(scene, view)
    marks = map_layer._marks(draw, scene, view)
    leaders = map_layer._leaders(scene, view)
    bounds = (0.0, 0.0, float(view.width), float(view.height))
    occupied = Occupied(bounds)
    add_all(occupied, [p.box for p in pieces] + marks + [leader_box(c) for _, c in leaders])
    shown = badges_for(state.ruleset)
    labels = [unit_label(p, shown) for p in pieces]
    labels += [leader_label(ld, c, scene.style(ld.side), shown) for ld, c in leaders]
    return place_labels(occupied, labels), bounds


def pieces_and_leaders(state: BattleState, events: tuple[Event, ...]) -> list[object]:
    """Everything the map draws a label for: the units and leaders in view."""
    scene = build_scene(state, events, None, None)
    view = lay_out(scene, MapOptions()).view
    return [*map_layer._pieces(scene, view), *map_layer._leaders(scene, view)]


def gap(a: Box, b: Box) -> float:
    """How far apart two boxes are along the axis they are furthest apart on (0: they meet)."""
    return max(a[0] - b[2], b[0] - a[2], a[1] - b[3], b[1] - a[3], 0.0)


def scenes() -> dict[str, tuple[BattleState, tuple[Event, ...]]]:
    found = {rid: (at_first_step(s), ()) for rid, s in sample_battles().items()}
    found["busy 120 units"] = busy_battle()
    return found


@pytest.mark.parametrize("name", list(scenes()))
def test_every_label_is_beside_its_item_and_on_the_picture(name: str) -> None:
    state, events = scenes()[name]
    labels, bounds = placed(state, events)
    assert len(labels) == len(pieces_and_leaders(state, events))
    for label, box in labels:
        assert gap(box, label.item) <= BESIDE, (label.text, box, label.item)
        assert bounds[0] <= box[0] and box[2] <= bounds[2], label.text  # not cut at an edge
        assert bounds[1] <= box[1] and box[3] <= bounds[3], label.text
