"""Whether a map can be read at a glance, judged from the layout the renderer computed.

``read_map`` draws a map while recording every string it writes (``text.recording``) and
keeps the table's pieces as the placement pass laid them out; ``problems`` lists what a
reader would stumble on: a name neither in its unit's box nor joined to it, a name nearer
another unit, a label on another unit, label or badge, a text off the image or too faint,
a unit drawn that is no longer on the table.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from itertools import combinations

from bot.rendering import render
from bot.rendering.map_layer import table_pieces
from bot.rendering.placement import SLACK, gap, overlap
from bot.rendering.scene import build_scene
from bot.rendering.style import RGB
from bot.rendering.table_scene import BadgeRow, Box, Label, TablePieces, label_boxes
from bot.rendering.text import Written, recording
from rules_core.events import Event
from rules_core.state import BattleState

MIN_CONTRAST = 4.5  # WCAG AA for normal text
JOINED = 1.0  # px a leader line's end may stop short of the box it joins


@dataclass(frozen=True)
class Reading:
    """One map as drawn: the state, the table's pieces and where the table sits on the
    canvas, every text the canvas holds, and the canvas's size."""

    state: BattleState
    pieces: TablePieces
    origin: tuple[int, int]
    texts: tuple[Written, ...]
    size: tuple[int, int]
    table: Box  # where the table lies on the canvas

    def crowded(self) -> set[frozenset[str]]:
        """The pairs of bodies whose boxes overlap: units in melee drawn over each other, a
        leader's star on its unit. The check lets their labels touch each other's boxes."""
        bodies = self.pieces.bodies
        return {
            frozenset((a.id, b.id))
            for a, b in combinations(bodies, 2)
            if overlap(a.box, b.box) > SLACK
        }

    def crowded_units(self) -> set[frozenset[str]]:
        """The pairs of units whose boxes overlap (a rules matter: units drawn over each other)."""
        units = {body.id for body in self.pieces.bodies if body.kind == "unit"}
        return {pair for pair in self.crowded() if pair <= units}


def read_map(
    state: BattleState, events: Iterable[Event] = (), options: render.MapOptions | None = None
) -> Reading:
    """Draw the map of a state and read back its layout and every text it wrote."""
    options = options or render.MapOptions()
    events = tuple(events)
    with recording() as texts:
        image = render.render_image(state, events, options)
    scene = build_scene(state, events, options.side_view, options.reach, options.lost)
    layout = render.lay_out(scene, options)
    pieces = table_pieces(scene, layout.view)
    (x, y), view = layout.origin, layout.view
    table = (float(x), float(y), float(x + view.width), float(y + view.height))
    return Reading(state, pieces, layout.origin, tuple(texts), image.size, table)


def problems(reading: Reading) -> list[str]:
    """Everything on the map a reader would stumble on (empty: the map reads at a glance)."""
    return table_problems(reading) + frame_problems(reading)


def table_problems(reading: Reading) -> list[str]:
    """What a reader would stumble on in the table: units, labels, badges and their texts."""
    found = _drawn_units(reading)
    found += [p for label in reading.pieces.labels for p in _attached(reading, label)]
    found += [p for row in reading.pieces.badges for p in _badges_near(reading, row)]
    found += _overlaps(reading)
    return found + _texts(reading, [t for t in reading.texts if _inside(t.box, reading.table)])


def frame_problems(reading: Reading) -> list[str]:
    """Texts around the table (title, edges, legend) off the image or too faint."""
    return _texts(reading, [t for t in reading.texts if not _inside(t.box, reading.table)])


def contrast(a: RGB, b: RGB) -> float:
    """The WCAG contrast ratio of two colours (1 to 21)."""
    light, dark = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def _luminance(colour: RGB) -> float:
    def channel(value: int) -> float:
        v = value / 255
        return v / 12.92 if v <= 0.03928 else float(((v + 0.055) / 1.055) ** 2.4)

    r, g, b = (channel(v) for v in colour)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _drawn_units(reading: Reading) -> list[str]:
    """Units drawn on the table that the state does not have standing on it."""
    standing = {unit.id for unit in reading.state.units_on_table}
    return [
        f"{body.id} is drawn but not on the table (destroyed, routed or gone)"
        for body in reading.pieces.bodies
        if body.kind == "unit" and body.id not in standing
    ]


def _attached(reading: Reading, label: Label) -> list[str]:
    """A label's name inside its body's box, or joined to it by a line and nearer it than
    any other body; a keyed name's tag inside the box and its line in the key."""
    pieces = reading.pieces
    own = pieces.body(label.owner).box
    if label.name is None:
        tag = label.tag
        keyed = (
            label.keyed
            and tag is not None
            and (_inside(tag.box, own) or _joins(label, own, tag.box))
        )
        said = tag is not None and any(t.text.startswith(f"{tag.text} = ") for t in pieces.key)
        return [] if keyed and said else [f"{label.owner}: no name on the map or in the key"]
    box = label.name.box
    if label.line is None and not _inside(box, own):
        return [f"{label.name.text!r} is neither in its box nor joined to it"]
    if label.line is not None and not _joins(label, own, box):
        return [f"{label.name.text!r}: its leader line does not join it to its box"]
    crowded = reading.crowded()
    mine = gap(box, own)
    for other in pieces.bodies:
        if other.id == label.owner or frozenset((other.id, label.owner)) in crowded:
            continue
        theirs = gap(box, other.box)
        if theirs < mine or (theirs == mine and overlap(box, other.box) > SLACK):
            return [f"{label.name.text!r} is as near {other.id} as its own {label.owner}"]
    return []


def _badges_near(reading: Reading, row: BadgeRow) -> list[str]:
    """A badge row nearer its own body than any other (a body its own overlaps excepted: a
    leader's star on its unit): a status read off the wrong piece misleads."""
    pieces, crowded = reading.pieces, reading.crowded()
    mine = gap(row.box, pieces.body(row.owner).box)
    others = [
        (gap(row.box, other.box), other.id)
        for other in pieces.bodies
        if other.id != row.owner and frozenset((other.id, row.owner)) not in crowded
    ]
    theirs, nearest = min(others, default=(float("inf"), ""))
    if theirs <= mine:
        return [f"the badges of {row.owner} are as near {nearest} as their own {row.owner}"]
    return []


def _joins(label: Label, own: Box, box: Box) -> bool:
    """Whether the label's leader line runs from its body's box (``own``) to ``box``."""
    if label.line is None:
        return False
    start, end = label.line.points[0], label.line.points[-1]
    return gap((*start, *start), own) <= JOINED and gap((*end, *end), box) <= JOINED


def _overlaps(reading: Reading) -> list[str]:
    """Labels on another body's box, on another label or on a badge row."""
    pieces, crowded = reading.pieces, reading.crowded()
    texts = [(label.owner, box) for label in pieces.labels for box in label_boxes(label)]
    found = []
    for owner, box in texts:
        for body in pieces.bodies:
            near = frozenset((body.id, owner)) in crowded
            if body.id != owner and not near and overlap(box, body.box) > SLACK:
                found.append(f"a label of {owner} lies on {body.id}")
        for row in pieces.badges:
            if overlap(box, row.box) > SLACK:
                found.append(f"a label of {owner} lies on the badges of {row.owner}")
    for (first, a), (second, b) in combinations(texts, 2):
        if overlap(a, b) > SLACK:
            found.append(f"labels of {first} and {second} overlap")
    return found


def _texts(reading: Reading, texts: Iterable[Written]) -> list[str]:
    """Each text wholly on the image and with enough contrast against what is under it."""
    width, height = reading.size
    found = []
    for text in texts:
        left, top, right, bottom = text.box
        if left < 0 or top < 0 or right > width or bottom > height:
            found.append(f"{text.text!r} runs off the image at {text.box}")
        ratio = contrast(text.colour, text.under)
        if ratio < MIN_CONTRAST:
            found.append(f"{text.text!r} has contrast {ratio:.2f} against what is under it")
    return found


def _inside(box: Box, own: Box) -> bool:
    return (
        box[0] >= own[0] - SLACK
        and box[1] >= own[1] - SLACK
        and box[2] <= own[2] + SLACK
        and box[3] <= own[3] + SLACK
    )
