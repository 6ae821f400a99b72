"""Battle maps with Pillow: a battle state and the last step's events in, PNG bytes out."""

from bot.rendering.badges import Count, Level, Pips, Tag
from bot.rendering.fog import SideView
from bot.rendering.overlays import Reach
from bot.rendering.render import MapOptions, render_map, render_map_async

__all__ = [
    "Count",
    "Level",
    "MapOptions",
    "Pips",
    "Reach",
    "SideView",
    "Tag",
    "render_map",
    "render_map_async",
]
