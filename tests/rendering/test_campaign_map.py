"""The campaign map image: a PNG with regions coloured by holder, and the README's example
kept fresh."""

from __future__ import annotations

import io

from PIL import Image

from bot.rendering.campaign_map import MARGIN, TITLE_HEIGHT, UNHELD, colours, render_map
from bot.rendering.style import shade
from bot.services.campaign_map import ArmyMarker, MapPicture
from bot.services.map_files import Region
from tools.campaign_map_sample import NAME, OUT, sample_map

SQUARE = ((0.0, 0.0), (200.0, 0.0), (200.0, 200.0), (0.0, 200.0))


def picture(holders: dict[str, str]) -> MapPicture:
    regions = (
        Region("West", (100.0, 100.0), SQUARE, ("East",)),
        Region("East", (400.0, 100.0), (), ("West",)),
    )
    armies = (ArmyMarker("Host", "Red", "East", 2, 3),)
    return MapPicture("C", "Map", 2, regions, holders, armies, ("Red", "Blue"))


def test_regions_are_coloured_by_their_holder() -> None:
    held, free = (picture({"West": "Blue"}), picture({}))
    for shown, expected in ((held, shade(colours(held)["Blue"], -0.55)), (free, UNHELD)):
        image = Image.open(io.BytesIO(render_map(shown)))
        assert image.format == "PNG"
        scale = 1.5  # a map 400 units across is drawn 600 pixels wide
        corner = (MARGIN + 20 * scale, TITLE_HEIGHT + MARGIN + 20 * scale)
        assert image.convert("RGB").getpixel(corner) == expected


def test_the_committed_example_map_is_fresh() -> None:
    """docs/campaign_map holds what `python -m tools.campaign_map_sample` draws."""
    assert (OUT / NAME).read_bytes() == sample_map()
