"""Animated replays: one map per resolved step, as a looping GIF under an upload limit.

Each frame is the ordinary map (``render_image``) of the state after a step, with that step's
moves, shots and combats drawn and its lost units pale. The frames share the map's fixed
palette, so the GIF needs no per-frame colour tables and Pillow stores only what changed.

A replay that comes out over the limit is drawn again smaller: first narrower (to the width
the bytes suggest, no narrower than ``MIN_WIDTH``), then with fewer frames (every second,
third … step, always keeping the first and the last), then with fewer colours. If nothing
fits, ``ReplayTooLarge`` says so. Drawing takes seconds for a long battle: the bot calls
``render_replay_async``, which runs in a worker thread.
"""

from __future__ import annotations

import asyncio
import io
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import TypeVar

from PIL import Image, ImageDraw

from bot.rendering.render import Chrome, MapOptions, render_image
from bot.rendering.style import INK, PAPER, palette_image
from rules_core.events import Event
from rules_core.render import Gone
from rules_core.state import BattleState, Unit

T = TypeVar("T")
UPLOAD_LIMIT = 8 * 1024 * 1024  # bytes: Discord's limit for a server without boosts
START_WIDTH = 1000  # px: wide enough to read unit labels, small enough for a long battle
MIN_WIDTH = 480
FRAME_MS = 1500
LAST_FRAME_MS = 5000  # the final position stays up longer before the loop starts again
COLOUR_STEPS = (256, 64, 16)
MAX_STRIDE = 8  # at most every eighth step is dropped to fit; beyond that it is refused
PROGRESS_HEIGHT = 6  # px: the bar along each frame's foot
SHRINK_MARGIN = 0.85  # aim this far under the limit when choosing a narrower width


@dataclass(frozen=True)
class Frame:
    """One step to draw: the state after it, its events, its lost units and its title."""

    state: BattleState
    events: tuple[Event, ...] = ()
    lost: tuple[Unit, ...] = ()
    title: str = ""
    gone: tuple[Gone, ...] = ()  # every unit lost so far in the battle, with when and why


@dataclass(frozen=True)
class Attempt:
    """How one try at the replay was drawn: width in pixels, every n-th step, colours."""

    width: int
    stride: int = 1
    colours: int = 256


@dataclass(frozen=True)
class ReplayImage:
    """A finished replay: the GIF, how many frames it holds, and how it was drawn to fit."""

    data: bytes
    frames: int
    attempt: Attempt
    tries: int


class ReplayTooLarge(Exception):
    """Even the smallest replay is over the upload limit: its size and the limit, in bytes."""

    def __init__(self, size: int, limit: int) -> None:
        super().__init__(f"the smallest replay is {size} bytes, over the limit of {limit}")
        self.size = size
        self.limit = limit


def render_replay(
    frames: Sequence[Frame], limit: int = UPLOAD_LIMIT, width: int = START_WIDTH
) -> ReplayImage:
    """The replay as a GIF of at most ``limit`` bytes, shrunk step by step until it fits."""
    if not frames:
        raise ValueError("a replay needs at least one frame")
    attempt, tries = Attempt(width), 0
    chrome: Chrome = {}  # the frame's fixed parts, drawn once for every frame of the replay
    while True:
        tries += 1
        chosen = thin(range(len(frames)), attempt.stride)
        steps = len(frames) - 1
        data = encode_gif([draw_frame(frames[n], attempt, n, steps, chrome) for n in chosen])
        if len(data) <= limit:
            return ReplayImage(data, len(chosen), attempt, tries)
        smaller = next_attempt(attempt, len(data), limit, len(frames))
        if smaller is None:
            raise ReplayTooLarge(len(data), limit)
        attempt = smaller


async def render_replay_async(
    frames: Sequence[Frame], limit: int = UPLOAD_LIMIT, width: int = START_WIDTH
) -> ReplayImage:
    """``render_replay`` in a worker thread, so the bot's event loop keeps answering."""
    return await asyncio.to_thread(render_replay, tuple(frames), limit, width)


def next_attempt(attempt: Attempt, size: int, limit: int, count: int) -> Attempt | None:
    """A smaller way to draw after ``size`` bytes came out over ``limit``; None if none is left.

    Narrower first (bytes go roughly with the area), then fewer frames, then fewer colours."""
    if attempt.width > MIN_WIDTH:
        scaled = int(attempt.width * (SHRINK_MARGIN * limit / size) ** 0.5)
        return Attempt(max(MIN_WIDTH, min(scaled, attempt.width - 1)), attempt.stride)
    if attempt.stride < MAX_STRIDE and attempt.stride < count - 1:
        wanted = -(-attempt.stride * size // int(SHRINK_MARGIN * limit))  # ceiling
        stride = min(MAX_STRIDE, max(attempt.stride + 1, wanted))
        return Attempt(attempt.width, stride, attempt.colours)
    fewer = [c for c in COLOUR_STEPS if c < attempt.colours]
    if fewer:
        return Attempt(attempt.width, attempt.stride, fewer[0])
    return None


def thin(frames: Sequence[T], stride: int) -> list[T]:
    """Every ``stride``-th frame, always with the first and the last."""
    kept = list(frames[::stride])
    if (len(frames) - 1) % stride:
        kept.append(frames[-1])
    return kept


def draw_frame(
    frame: Frame, attempt: Attempt, step: int = 0, steps: int = 0, chrome: Chrome | None = None
) -> Image.Image:
    """One step's map at the attempt's width, in at most its number of colours, with a bar
    along its foot showing how far through the battle it is: no two steps look alike, so
    the GIF keeps a frame for each (Pillow merges equal frames). ``chrome`` keeps the
    frame's fixed parts from one step to the next (the table's ground is kept anyway)."""
    options = MapOptions(width=attempt.width, lost=frame.lost, gone=frame.gone, after=frame.title)
    image = render_image(frame.state, frame.events, options, chrome)
    if steps:
        draw_progress(image, step / steps)
    if attempt.colours < 256:
        image = image.convert("RGB").quantize(
            colors=attempt.colours, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE
        )
    return image


def draw_progress(image: Image.Image, share: float) -> None:
    """A bar along the foot of a palette image, ``share`` of its width long."""
    ink = palette_index(INK)
    top = image.height - PROGRESS_HEIGHT
    ImageDraw.Draw(image).rectangle((0, top, round(image.width * share), image.height), ink)


@cache
def palette_index(colour: tuple[int, int, int]) -> int:
    """Where a colour sits in the map's fixed palette."""
    flat = palette_image().getpalette() or []
    colours = [tuple(flat[i : i + 3]) for i in range(0, len(flat), 3)]
    return colours.index(colour)


def encode_gif(images: Sequence[Image.Image]) -> bytes:
    """A looping GIF of equally sized frames (shorter ones padded below with the page)."""
    width = max(image.width for image in images)
    height = max(image.height for image in images)
    padded = [_padded(image, (width, height)) for image in images]
    durations = [FRAME_MS] * (len(padded) - 1) + [LAST_FRAME_MS]
    buffer = io.BytesIO()
    padded[0].save(
        buffer,
        "GIF",
        save_all=True,
        append_images=padded[1:],
        duration=durations,
        loop=0,
        optimize=False,
        disposal=1,
    )
    return buffer.getvalue()


def _padded(image: Image.Image, size: tuple[int, int]) -> Image.Image:
    """The image on a page-coloured canvas of ``size``, keeping its palette."""
    if image.size == size:
        return image
    if image.mode == "P" and image.getpalette() == palette_image().getpalette():
        # The map's fixed palette holds the page's colour: pad in it, with no round trip
        # through RGB and no second quantising (a fifth of a replay's time).
        page = Image.new("P", size, palette_index(PAPER))
        page.putpalette(image.getpalette() or [])
        page.paste(image, (0, 0))
        return page
    canvas = Image.new("RGB", size, PAPER)
    canvas.paste(image.convert("RGB"), (0, 0))
    palette = image if image.mode == "P" else None
    if palette is None:
        return canvas
    return canvas.quantize(palette=palette, dither=Image.Dither.NONE)


def frame_count(data: bytes) -> int:
    """How many frames a GIF holds (for the bench and the tests)."""
    with Image.open(io.BytesIO(data)) as image:
        return int(getattr(image, "n_frames", 1))
