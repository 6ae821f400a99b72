"""A replay's frames are composed from layers drawn once (the table's ground with its grid and
terrain, the frame's edges, bands, scale bar and compass): each must equal, pixel for pixel,
the same frame drawn whole with nothing kept."""

from __future__ import annotations

from PIL import Image, ImageChops

from bot.rendering.map_layer import forget_grounds
from bot.rendering.render import Chrome
from bot.rendering.replay import Attempt, Frame, draw_frame
from tests.rendering import states


def _frames() -> list[Frame]:
    """The start, a step with marks, a long two-line title, and a table with terrain."""
    state, events = states.mid_battle()
    long_title = "Turn 12 · Movement, charges, rallies and the second shooting phase at dusk"
    return [
        Frame(states.start()),
        Frame(state, events, title="Turn 1 · Movement"),
        Frame(state, events, title=long_title),
        Frame(states.showcase(), title="Turn 2 · Shooting"),
        Frame(state, (), title="Turn 2 · Combat"),
    ]


def _whole(frame: Frame, attempt: Attempt, step: int, steps: int) -> Image.Image:
    """The frame drawn with nothing kept from an earlier one."""
    forget_grounds()
    return draw_frame(frame, attempt, step, steps, None)


def test_each_frame_from_kept_layers_equals_the_frame_drawn_whole() -> None:
    frames = _frames()
    for width in (1000, 600):
        attempt, chrome, steps = Attempt(width), Chrome(), len(frames) - 1
        forget_grounds()
        composed = [draw_frame(f, attempt, n, steps, chrome) for n, f in enumerate(frames)]
        assert chrome  # the fixed layers were kept and reused
        for n, (frame, made) in enumerate(zip(frames, composed, strict=True)):
            whole = _whole(frame, attempt, n, steps)
            assert made.size == whole.size
            difference = ImageChops.difference(made.convert("RGB"), whole.convert("RGB"))
            assert difference.getbbox() is None, f"frame {n} at {width} px differs"
