"""Every kind of terrain draws something, inside its own outline, and no two kinds look alike."""

from __future__ import annotations

import hashlib
from functools import cache

import pytest
from PIL import Image

from bot.rendering.render import lay_out
from bot.rendering.scene import build_scene
from bot.rendering.terrain import DRAWERS, OBSTACLE_STYLES, obstacle_style
from rules_core.state import TERRAIN_KINDS, TerrainFeature
from rules_core.terrain_pieces import PIECES
from tests.rendering import states
from tests.rendering.helpers import PLAIN, changed, picture


@cache
def bare() -> Image.Image:
    """The table with no terrain."""
    return picture(states.with_terrain())


def test_every_kind_and_piece_has_a_drawer() -> None:
    assert set(DRAWERS) == set(TERRAIN_KINDS) | set(PIECES)


@pytest.mark.parametrize("kind", TERRAIN_KINDS)
def test_each_kind_draws_within_its_outline(kind: str) -> None:
    feature = states.feature_of(kind)
    state = states.with_terrain(feature)
    box = changed(picture(state), bare())
    assert box is not None, f"{kind} drew nothing"
    layout = lay_out(build_scene(state, (), None, None), PLAIN)
    xs, ys = zip(*(layout.view.px(p) for p in feature.points), strict=True)
    left, top = layout.origin
    slack = 40  # bands and walls have width; grid lines redrawn over terrain stay inside
    assert box[0] >= left + min(xs) - slack and box[2] <= left + max(xs) + slack
    assert box[1] >= top + min(ys) - slack and box[3] <= top + max(ys) + slack


@pytest.mark.parametrize("style", OBSTACLE_STYLES)
def test_each_obstacle_style_draws(style: str) -> None:
    state = states.with_terrain(states.feature_of("linear_obstacle", style))
    assert changed(picture(state), bare()) is not None


def test_kinds_and_obstacle_styles_all_look_different() -> None:
    looks = [states.feature_of(kind) for kind in TERRAIN_KINDS if kind != "linear_obstacle"]
    looks += [states.feature_of("linear_obstacle", style) for style in OBSTACLE_STYLES]
    digests = {hashlib.sha256(picture(states.with_terrain(f)).tobytes()).hexdigest() for f in looks}
    assert len(digests) == len(looks)


def test_obstacle_style_comes_from_type_then_name_then_wall() -> None:
    line = ((0.0, 0.0), (1.0, 1.0))
    assert (
        obstacle_style(TerrainFeature("a", "linear_obstacle", line, "", {"type": "Hedge"}))
        == "hedge"
    )
    assert (
        obstacle_style(TerrainFeature("b", "linear_obstacle", line, "Stakes of the archers"))
        == "stakes"
    )
    assert obstacle_style(TerrainFeature("c", "linear_obstacle", line, "Dyke")) == "wall"


def test_a_river_keeps_its_given_width() -> None:
    def band(width: float) -> int:
        river = TerrainFeature("r", "river", ((0.0, 8.0), (24.0, 8.0)), "", {"width": width})
        box = changed(picture(states.with_terrain(river)), bare())
        assert box is not None
        return box[3] - box[1]

    assert band(4.0) > band(2.0) + 40  # 800 px over 24" is 32 px an inch
