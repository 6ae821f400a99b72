"""Everything inside the canvas (#32 items 2 and 3), read from the layout the renderer computes
and from its real Pillow output: the side panel's lines whole and inside the picture, legend
entries apart, a long title wrapped then cut, and units gone from the table listed, not drawn."""

from __future__ import annotations

import itertools
from dataclasses import replace

import pytest

from bot.rendering import frame, legend
from bot.rendering.render import PAD, Layout, MapOptions, lay_out, panel_columns, render_image
from bot.rendering.scene import build_scene, title_words
from bot.rendering.style import TITLE_SIZE
from bot.rendering.text import width
from rules_core import engine, registry
from rules_core.events import ArrivedOrLeft, Event, ShotFired, UnitDestroyed
from rules_core.state import BattleState, Unit
from rules_core.status import Scope, describe_state
from tests.rendering import states
from tests.rendering.helpers import PLAIN, changed, picture

Box = tuple[float, float, float, float]
WIDTHS = (800, 1600)


def samples() -> dict[str, BattleState]:
    """Every ruleset's sample battle as play begins."""
    found = {}
    for ruleset in registry.all_rulesets(include_unlisted=True):
        rules = ruleset.rules
        state = rules.sample_battle() if rules is not None else None
        if rules is not None and state is not None:
            found[ruleset.id] = engine.begin(rules, state)
    return found


SAMPLES = samples()


def laid_out(state: BattleState, size: int, events: tuple[Event, ...] = (), **kw: object) -> Layout:
    """The layout the renderer computes for a map ``size`` pixels wide."""
    lost = tuple(kw.pop("lost", ()))  # type: ignore[call-overload]
    options = MapOptions(width=size, lost=lost)
    return lay_out(build_scene(state, events, None, None, lost), options, events)


def inside(box: Box, size: tuple[int, int]) -> bool:
    """Whether a box lies wholly inside a picture of this size."""
    return box[0] >= 0 and box[1] >= 0 and box[2] <= size[0] and box[3] <= size[1]


def apart(a: Box, b: Box) -> bool:
    """Whether two boxes do not overlap."""
    return a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]


def panel_text(layout: Layout) -> str:
    """All the panel's words, its wrapped lines joined again."""
    return " ".join(line.words for line in layout.panel.lines)


def hail_caesar(**side_status: object) -> BattleState:
    """The lone unit in a Hail Caesar battle, its first side holding some status."""
    base = replace(states.one_unit(), ruleset="hail_caesar")
    red = replace(base.sides[0], status=dict(side_status))
    return replace(base, sides=(red, *base.sides[1:]))


LONG_STATE = hail_caesar(broken_divisions=[f"division_of_the_{n}_wing_of_horse" for n in range(12)])


@pytest.mark.parametrize("size", WIDTHS)
@pytest.mark.parametrize("name", [*sorted(SAMPLES), "long"])
def test_side_status_lines_all_appear_whole_inside_the_picture(name: str, size: int) -> None:
    state = SAMPLES.get(name, LONG_STATE)
    layout = laid_out(state, size)
    described = describe_state(
        registry.get(state.ruleset).rules.statuses,  # type: ignore[union-attr]
        state,
        (Scope.SIDE, Scope.GROUP),
    )
    shown = panel_text(layout)
    items = [item for lines in described.values() for item in lines]
    assert items or name not in ("impetus", "pike_and_shot", "long")  # these have side state
    for item in items:
        assert " ".join(item.split()) in shown  # whole: wrapped, never cut
    for line in layout.panel.lines:
        assert inside(line.box(layout.panel_top), layout.size), line
    if name == "long":
        assert len(layout.panel.lines) > 2  # the long line did wrap


@pytest.mark.parametrize("size", WIDTHS)
@pytest.mark.parametrize("name", [*sorted(SAMPLES), "showcase"])
def test_legend_entries_panel_and_compass_never_overlap(name: str, size: int) -> None:
    state = SAMPLES.get(name) or states.showcase()
    layout = laid_out(state, size)
    boxes = [box for _, box in legend_placed(layout)]
    assert boxes
    for box in boxes:
        assert inside(box, layout.size), box
        assert box[3] <= layout.panel_top  # the panel starts under the legend
    for a, b in itertools.combinations(boxes, 2):
        assert apart(a, b), (a, b)
    if size >= 1200:  # beside the compass: clear of each side's edge words
        assert min(box[0] for box in boxes) >= layout.furniture


def legend_placed(layout: Layout) -> list[tuple[legend.Entry, Box]]:
    """The legend's entries with the boxes the renderer draws them in."""
    return legend.placed(*layout.legend_at, layout.legend_rows)


def test_each_sides_edge_words_stay_clear_of_the_legend() -> None:
    start = states.start()
    names = ("The Army of the Eastern Association", "The Royalist Army of Oxford")
    sides = tuple(replace(side, name=n) for side, n in zip(start.sides, names, strict=True))
    state = replace(start, sides=sides)
    layout = laid_out(state, 1600)
    words = max(width(frame.edge_words(n, "N"), frame.EDGE_TEXT) for n in names)
    assert PAD + frame.COMPASS_WORDS + words <= min(box[0] for _, box in legend_placed(layout))


def test_a_long_title_wraps_to_two_lines_then_is_cut() -> None:
    start = states.start()
    medium = replace(
        start, status={"name": "The Battle of the Field Beside the River Severn at Worcester"}
    )
    long = replace(start, status={"name": "The Battle of the Field Beside the River " * 8})
    short = laid_out(start, 800)
    two, cut = laid_out(medium, 800), laid_out(long, 800)
    assert len(short.title) == 1 and len(two.title) == 2 and len(cut.title) == 2
    assert not two.title[-1].endswith("…") and cut.title[-1].endswith("…")
    assert " ".join(two.title).startswith(" ".join(medium.status["name"].split()))  # type: ignore[union-attr]
    right = width(title_words(long, None)[1], frame.EDGE_TEXT + 2)
    for line in cut.title:
        assert frame.TITLE_GAP + width(line, TITLE_SIZE, bold=True) <= 800 - right
    assert two.title_height > short.title_height and two.origin[1] > short.origin[1]
    drawn, plain = picture(medium), picture(start)
    assert drawn.height > plain.height  # the second line is drawn in a taller bar


def destroyed() -> tuple[BattleState, tuple[Event, ...], Unit]:
    """The start after Red Horse was shot and destroyed in Turn 2's shooting."""
    start = states.start()
    horse = start.unit("r3")
    after = replace(start, units=tuple(u for u in start.units if u.id != "r3"))
    events = (ShotFired("b1", "r3", 5.0), UnitDestroyed("r3", "shot to pieces"))
    return after, events, horse


def test_a_destroyed_unit_is_not_drawn_and_is_listed_with_when_and_why() -> None:
    after, events, horse = destroyed()
    options = replace(PLAIN, lost=(horse,))
    scene = build_scene(after, events, None, None, (horse,))
    assert horse.id not in [u.id for u in (*scene.units, *scene.ghosts)]
    # No box where it stood: the table with it lost matches the table without it, but for
    # the shot, still marked where it happened (so the two differ only along the shot).
    quiet = picture(after, (), options)
    assert changed(quiet, picture(after)) is None
    shot = changed(picture(after, events, options), picture(after))
    assert shot is not None
    columns = panel_columns(scene, events, "Turn 2 · Shooting")
    red = next(c for c in columns if c.title == "Red")
    assert ("Lost", "Red Horse: destroyed, shot to pieces (Turn 2 · Shooting)") in red.items
    layout = laid_out(after, 800, events, lost=(horse,))
    assert "Lost:" in panel_text(layout) and "shot to pieces" in panel_text(layout)


def test_a_unit_that_left_the_battle_is_listed_off_the_table() -> None:
    after, _, horse = destroyed()
    events = (ArrivedOrLeft("r3", "unit", False, "recalled to the baggage"),)
    scene = build_scene(after, events, None, None, (horse,))
    assert changed(picture(after, events, replace(PLAIN, lost=(horse,))), picture(after)) is None
    red = next(c for c in panel_columns(scene, events, "Turn 3 · Movement") if c.title == "Red")
    words = "Red Horse: left the battle, recalled to the baggage (Turn 3 · Movement)"
    assert red.items == (("Off the table", words),)


def test_the_bots_map_of_a_step_draws_no_lost_unit() -> None:
    after, events, horse = destroyed()
    image = render_image(after, events, MapOptions(width=800, lost=(horse,), legend=False))
    again = render_image(after, events, MapOptions(width=800, legend=False))
    # Lost or not, the only difference is the shot's mark (its target known only when lost).
    box = changed(image.convert("RGB"), again.convert("RGB"))
    layout = lay_out(build_scene(after, events, None, None), PLAIN)
    spot = layout.view.px((horse.x, horse.y))
    assert box is not None
    x, y = layout.origin[0] + spot[0], layout.origin[1] + spot[1]
    assert image.convert("RGB").getpixel((round(x) + 12, round(y))) == picture(after).getpixel(
        (round(x) + 12, round(y))
    )
