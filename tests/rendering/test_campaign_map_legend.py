"""The campaign map's legend explains every kind of mark the map draws (#33 item 7), read from
the drawing's layout: each kind drawn on a real Pillow picture has a legend entry with words."""

from __future__ import annotations

import pytest

from bot.rendering.campaign_map import (
    ARMY,
    BATTLE,
    CENTRE,
    LINK_MARK,
    MARGIN,
    MEETING,
    SIDE,
    UNHELD_MARK,
    draw_map,
)
from bot.rendering.style import SMALL_SIZE
from bot.rendering.text import width as text_width
from bot.services.campaign_map import ArmyMarker, MapPicture
from bot.services.map_files import Region
from tools.campaign_map_sample import sample_picture

SQUARE = ((0.0, 0.0), (200.0, 0.0), (200.0, 200.0), (0.0, 200.0))


def small_map() -> MapPicture:
    """Two sides, a region held by each, one held by nobody, armies on the map: meeting in
    the Ford, fighting in the East."""
    regions = (
        Region("West", (100.0, 100.0), SQUARE, ("Ford",)),
        Region("Ford", (300.0, 100.0), (), ("West", "East")),
        Region("East", (500.0, 100.0), (), ("Ford",)),
    )
    armies = (
        ArmyMarker("Host", "Red", "Ford", 2, 3),
        ArmyMarker("Band", "Blue", "Ford", 1, 1),
        ArmyMarker("Guard", "Red", "East", 4, 4),
        ArmyMarker("Raid", "Blue", "East", 2, 2),
    )
    holders = {"West": "Red", "East": "Blue"}
    sides = ("Red", "Blue")
    return MapPicture("C", "Map", 2, regions, holders, armies, sides, battles=("East",))


@pytest.mark.parametrize("picture", [small_map(), sample_picture()], ids=["small", "sample"])
def test_every_kind_of_mark_drawn_has_a_legend_entry(picture: MapPicture) -> None:
    image, layout = draw_map(picture)
    assert image.size[0] > 0 and image.getbbox() is not None
    sides = {SIDE + side for side in picture.sides}
    assert {ARMY, LINK_MARK, CENTRE, BATTLE, MEETING} | sides <= layout.drawn
    unexplained = layout.drawn - set(layout.legend)
    assert unexplained == set(), f"drawn without a legend entry: {sorted(unexplained)}"
    assert all(words.strip() for words in layout.legend.values()), layout.legend


def test_the_small_map_draws_every_kind_the_renderer_has() -> None:
    """So a kind of mark added without a legend entry fails the test above."""
    _image, layout = draw_map(small_map())
    kinds = {ARMY, LINK_MARK, CENTRE, UNHELD_MARK, BATTLE, MEETING, SIDE + "Red", SIDE + "Blue"}
    assert kinds == layout.drawn


def test_the_legend_shows_whole_on_a_narrow_map() -> None:
    """A map a few units wide still has room for the legend's longest words."""
    regions = (Region("A", (0.0, 0.0), (), ("B",)), Region("B", (0.0, 40.0), (), ("A",)))
    side = "The Most Serene Republic of Venice and its Allies"
    picture = MapPicture("C", "Map", 1, regions, {"A": side}, (), (side,))
    image, layout = draw_map(picture)
    longest = max(text_width(words, SMALL_SIZE) for words in layout.legend.values())
    assert image.width >= MARGIN / 2 + 34 + longest
