"""Text on the map, each string rendered once and kept as a mask.

FreeType rendering costs far more than stamping a ready mask; unit names, badge words and
edge numbers repeat on every map of a battle, so the masks are kept (a bounded cache) and
stamped with ``ImageDraw.bitmap``. The halo is the letters' mask grown by shifted copies,
a tenth of the cost of FreeType's stroker.

Every string of a picture goes through ``write``, so ``recording`` can list them all, each
with its pixel box and colours: the legibility tests read that list, not the pixels.
"""

from __future__ import annotations

import math
import threading
import unicodedata
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageChops, ImageDraw

from bot.rendering.style import RGB, WHITE, font

Point = tuple[float, float]
Box = tuple[float, float, float, float]
# Maps are drawn in worker threads and a FreeType face must not render two strings at once.
_FREETYPE = threading.Lock()
_RECORD = threading.local()  # the texts written while ``recording`` (per thread)


@dataclass(frozen=True)
class Written:
    """One string a picture drew: its words, its letters' pixel box, its colour and the colour
    under it (the halo's where it has one, else the ground it was written on)."""

    text: str
    box: Box
    colour: RGB
    under: RGB


@contextmanager
def recording() -> Iterator[list[Written]]:
    """Note every string ``write`` draws in this thread meanwhile, in canvas pixels."""
    found: list[Written] = []
    before = getattr(_RECORD, "texts", None), getattr(_RECORD, "origin", (0, 0))
    _RECORD.texts, _RECORD.origin = found, (0, 0)
    try:
        yield found
    finally:
        _RECORD.texts, _RECORD.origin = before


@contextmanager
def shifted(origin: tuple[int, int]) -> Iterator[None]:
    """Texts written meanwhile go on a part pasted at ``origin`` of the canvas (the table)."""
    before = getattr(_RECORD, "origin", (0, 0))
    _RECORD.origin = origin
    try:
        yield
    finally:
        _RECORD.origin = before


@dataclass(frozen=True)
class Rendered:
    """A string's masks: the letters and (optionally) their halo, and where they sit."""

    letters: Image.Image
    halo: Image.Image | None
    offset: tuple[int, int]  # from the anchor point to the masks' top-left corner


@lru_cache(maxsize=4096)
def drawable(text: str) -> str:
    """The text without what the map's font cannot draw (emoji and their joiners would be
    boxes), its spaces tidied."""
    kept = (
        ch
        for ch in text
        if ord(ch) <= 0xFFFF
        and unicodedata.category(ch) not in ("So", "Cs", "Co", "Cn")
        and ch not in "\u200d\ufe0f\ufe0e"
    )
    return " ".join("".join(kept).split()) if text.strip() else text


def possessive(name: str) -> str:
    """A name as an owner: "Rome's", but "Caesar's Legions'" (a plural in s takes only the
    apostrophe)."""
    return f"{name}'" if name.endswith("s") else f"{name}'s"


def shortened(text: str, size: int, room: float, bold: bool = False) -> str:
    """The text cut with "…" to fit ``room`` pixels (whole if it fits)."""
    text = drawable(text)
    if width(text, size, bold) <= room:
        return text
    while text and width(text + "…", size, bold) > room:
        text = text[:-1]
    return text.rstrip() + "…"


@lru_cache(maxsize=4096)
def rendered(text: str, size: int, bold: bool, halo: int, anchor: str) -> Rendered:
    """Render a string once into masks."""
    face = font(size, bold)
    with _FREETYPE:
        bounds = face.getbbox(text, anchor=anchor, stroke_width=halo)
        left, top = math.floor(bounds[0]), math.floor(bounds[1])
        box = (max(math.ceil(bounds[2]) - left, 1), max(math.ceil(bounds[3]) - top, 1))
        letters = Image.new("L", box)
        ImageDraw.Draw(letters).text((-left, -top), text, fill=255, font=face, anchor=anchor)
    return Rendered(letters, grown(letters, halo) if halo else None, (left, top))


def grown(mask: Image.Image, radius: int) -> Image.Image:
    """The mask spread ``radius`` pixels each way (the mask needs that much empty border)."""
    across = mask
    for shift in (s for s in range(-radius, radius + 1) if s):
        across = ImageChops.lighter(across, ImageChops.offset(mask, shift, 0))
    spread = across
    for shift in (s for s in range(-radius, radius + 1) if s):
        spread = ImageChops.lighter(spread, ImageChops.offset(across, 0, shift))
    return spread


@lru_cache(maxsize=4096)
def width(text: str, size: int, bold: bool = False) -> float:
    """The advance width of a string in pixels."""
    with _FREETYPE:
        return font(size, bold).getlength(drawable(text))


def write(
    draw: ImageDraw.ImageDraw,
    at: Point,
    text: str,
    colour: RGB,
    size: int,
    *,
    bold: bool = False,
    anchor: str = "la",
    halo: int = 0,
    halo_colour: RGB = WHITE,
) -> None:
    """Draw a string at ``at`` (placed by ``anchor`` as in Pillow), with an optional halo."""
    text = drawable(text)
    if not text:
        return
    done = rendered(text, size, bold, halo, anchor)
    corner = (round(at[0] + done.offset[0]), round(at[1] + done.offset[1]))
    texts: list[Written] | None = getattr(_RECORD, "texts", None)
    if texts is not None:
        _note(texts, draw, corner, done, (text, colour, halo_colour if halo else None))
    if done.halo is not None:
        draw.bitmap(corner, done.halo, fill=halo_colour)
    draw.bitmap(corner, done.letters, fill=colour)


def _note(
    texts: list[Written],
    draw: ImageDraw.ImageDraw,
    corner: tuple[int, int],
    done: Rendered,
    what: tuple[str, RGB, RGB | None],
) -> None:
    """Record a string about to be drawn: its ink's box and what lies under it."""
    text, colour, halo = what
    ink = done.letters.getbbox()
    if ink is None:
        return
    box = (corner[0] + ink[0], corner[1] + ink[1], corner[0] + ink[2], corner[1] + ink[3])
    under = halo if halo is not None else _ground(draw, box)
    dx, dy = _RECORD.origin
    texts.append(Written(text, (box[0] + dx, box[1] + dy, box[2] + dx, box[3] + dy), colour, under))


def _ground(draw: ImageDraw.ImageDraw, box: Box) -> RGB:
    """The commonest colour in the box before the letters go on: what they are read against."""
    image: Image.Image | None = getattr(draw, "_image", None)
    if image is None:
        return WHITE
    left, top, right, bottom = (round(v) for v in box)
    inside = (max(left, 0), max(top, 0), min(right, image.width), min(bottom, image.height))
    if inside[0] >= inside[2] or inside[1] >= inside[3]:
        return WHITE
    part = image.crop(inside).convert("RGB")
    counts: list[tuple[int, tuple[int, int, int]]] | None = part.getcolors(part.width * part.height)  # type: ignore[assignment]
    if not counts:
        return WHITE
    return max(counts)[1]
