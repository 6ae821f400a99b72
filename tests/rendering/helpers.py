"""Helpers for the rendering tests: render to an RGB image and compare images."""

from __future__ import annotations

import io
from collections.abc import Iterable

from PIL import Image, ImageChops

from bot.rendering.render import MapOptions, render_map
from rules_core.events import Event
from rules_core.state import BattleState

PLAIN = MapOptions(width=800, legend=False)


def picture(
    state: BattleState, events: Iterable[Event] = (), options: MapOptions = PLAIN
) -> Image.Image:
    """The rendered map decoded to RGB."""
    return Image.open(io.BytesIO(render_map(state, tuple(events), options))).convert("RGB")


def changed(a: Image.Image, b: Image.Image) -> tuple[int, int, int, int] | None:
    """The box of pixels that differ between two images of one size, or None."""
    return ImageChops.difference(a, b).getbbox()
