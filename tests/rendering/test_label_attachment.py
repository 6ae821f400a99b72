"""Labels stay attached: on the real sample maps and the busy 120-unit map, every unit's and
leader's name sits inside its own box or is joined to it by a leader line, nearer its own body
than any other, and its badges touch its own box."""

from __future__ import annotations

import pytest

from bench.maps import busy_battle
from bot.rendering import map_layer
from bot.rendering.labels import Box
from bot.rendering.placement import RINGS, gap
from bot.rendering.render import MapOptions, lay_out
from bot.rendering.scene import build_scene
from bot.rendering.table_scene import TablePieces
from rules_core.events import Event
from rules_core.state import BattleState
from tools.sample_maps import at_first_step, sample_battles

BESIDE = 3.01  # px: the gap placement.spots leaves between a body and its badges


def placed(state: BattleState, events: tuple[Event, ...] = ()) -> tuple[TablePieces, int]:
    """The table's pieces as the map places them, and how many bodies are in view."""
    scene = build_scene(state, events, None, None)
    view = lay_out(scene, MapOptions()).view
    return map_layer.table_pieces(scene, view), len(map_layer.table_owners(scene, view))


def beside(a: Box, b: Box) -> float:
    """How far apart two boxes are along the axis they are furthest apart on (0: they meet)."""
    return max(a[0] - b[2], b[0] - a[2], a[1] - b[3], b[1] - a[3], 0.0)


def scenes() -> dict[str, tuple[BattleState, tuple[Event, ...]]]:
    found = {rid: (at_first_step(s), ()) for rid, s in sample_battles().items()}
    found["busy 120 units"] = busy_battle()
    return found


@pytest.mark.parametrize("name", list(scenes()))
def test_every_name_is_in_its_box_or_joined_to_it_and_badges_touch_their_box(name: str) -> None:
    state, events = scenes()[name]
    pieces, count = placed(state, events)
    assert len(pieces.labels) == count
    boxes = {body.id: body.box for body in pieces.bodies}
    for label in pieces.labels:
        own = boxes[label.owner]
        if label.name is None:
            assert label.keyed and label.tag is not None
            assert any(text.text.startswith(label.tag.text + " = ") for text in pieces.key)
        elif label.line is None:  # inside its own box
            box = label.name.box
            assert own[0] <= box[0] and box[2] <= own[2] and own[1] <= box[1] and box[3] <= own[3]
        else:
            (x0, y0), (x1, y1) = label.line.points
            assert (
                gap((x0, y0, x0, y0), own) < 0.01 and gap((x1, y1, x1, y1), label.name.box) < 0.01
            )
    for row in pieces.badges:  # a leader's star has little room: its badges may be a ring out
        most = BESIDE if not row.owner.startswith("leader:") else RINGS[-1] + 0.01
        assert beside(row.box, boxes[row.owner]) <= most, row
