"""The renderer's contract: PNG bytes, the same bytes for the same state, sizes and options."""

from __future__ import annotations

import io
import random
from dataclasses import replace

import pytest
from PIL import Image

from bot.rendering import MapOptions, Reach, SideView, render_map, render_map_async, text
from bot.rendering.fog import visible_enemies
from bot.rendering.map_layer import forget_grounds
from bot.rendering.overlays import arrow_path, read_events
from bot.rendering.render import render_image
from bot.rendering.style import side_style
from bot.rendering.units import piece
from bot.rendering.view import View
from rules_core.context import Context
from rules_core.events import Event, LeaderMoved, MeleeFought, ShotFired
from rules_core.orders import Order
from rules_core.rulesets.hail_caesar import combat, shooting
from rules_core.rulesets.hail_caesar.rules import HailCaesarRules
from rules_core.rulesets.hail_caesar.sample import sample_battle
from rules_core.steps import Cursor
from tests.rendering import states
from tests.rendering.helpers import PLAIN, changed, picture


def test_renders_png_1600_px_wide_by_default() -> None:
    data = render_map(states.start())
    image = Image.open(io.BytesIO(data))
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    assert image.width == 1600
    assert image.height > 1000


def test_the_same_state_gives_the_same_bytes_even_with_nothing_kept() -> None:
    state, events = states.mid_battle()
    first = render_map(state, events)
    text.rendered.cache_clear()
    forget_grounds()
    assert render_map(state, events) == first


def test_png_carries_no_time_or_text_chunks() -> None:
    data = render_map(states.start(), options=PLAIN)
    for chunk in (b"tIME", b"tEXt", b"iTXt", b"zTXt"):
        assert chunk not in data


def test_a_given_height_is_kept_and_the_table_fits_in_it() -> None:
    image = Image.open(io.BytesIO(render_map(states.start(), options=MapOptions(1600, 1067))))
    assert image.size == (1600, 1067)


def test_the_map_is_written_with_a_palette() -> None:
    image = render_image(states.start(), (), PLAIN)
    assert image.mode == "P"


async def test_async_render_matches_the_sync_one() -> None:
    state, events = states.mid_battle()
    assert await render_map_async(state, events) == render_map(state, events)


def test_unknown_events_are_ignored() -> None:
    state, events = states.mid_battle()
    assert picture(state, (*events, Event())) == picture(state, events)


def test_last_steps_events_are_drawn() -> None:
    state, events = states.mid_battle()
    assert changed(picture(state, events), picture(state)) is not None


def test_a_zoomed_area_draws_at_a_larger_scale() -> None:
    whole = picture(states.start(), options=MapOptions(width=800))
    zoomed = picture(states.start(), options=MapOptions(width=800, area=(6.0, 0.0, 30.0, 12.0)))
    assert zoomed.height < whole.height  # half the table's depth shown, wider than it is deep
    assert changed(whole.crop((0, 0, 800, 300)), zoomed.crop((0, 0, 800, 300))) is not None


@pytest.mark.parametrize("kind", ["move", "range"])
def test_a_units_reach_is_outlined(kind: str) -> None:
    state, _ = states.mid_battle()
    with_reach = MapOptions(width=800, legend=False, reach=Reach("r2", kind))
    assert changed(picture(state, options=with_reach), picture(state)) is not None


def test_reach_of_a_unit_without_the_field_draws_nothing() -> None:
    state, _ = states.mid_battle()
    options = replace(PLAIN, reach=Reach("r1", "range"))  # spearmen have no range
    assert changed(picture(state, options=options), picture(state)) is None


def test_north_is_up_and_facing_zero_points_north() -> None:
    """Y grows up the picture; facing 0 faces +y and 90 faces +x (see rules_core.geometry)."""
    view = View((0.0, 0.0, 24.0, 16.0), 10.0)
    assert view.px((0.0, 16.0)) == (0.0, 0.0)
    assert view.px((24.0, 0.0)) == (240.0, 160.0)
    style = side_style((0, 0, 255))
    north = piece(view, states.one_unit().unit("u1"), style).corners
    east = piece(view, states.one_unit(facing=90.0).unit("u1"), style).corners
    assert max(y for _, y in north[:2]) < min(y for _, y in north[2:])  # front above rear
    assert min(x for x, _ in east[:2]) > max(x for x, _ in east[2:])  # front right of rear


def test_side_view_hides_enemies_behind_a_wood_and_shows_the_rest() -> None:
    state = states.behind_the_wood()
    seen = render_map(state, options=MapOptions(width=800, side_view=SideView("red")))
    everything = render_map(state, options=MapOptions(width=800))
    assert seen != everything
    assert visible_enemies(state, SideView("red")) == frozenset({"open"})


def test_side_view_draws_last_known_positions_of_hidden_enemies() -> None:
    state = states.behind_the_wood()
    hidden = state.unit("hidden")
    ghost = SideView("red", last_known={"hidden": replace(hidden, x=hidden.x - 6)})
    plain = SideView("red")
    with_ghost = picture(state, options=replace(PLAIN, side_view=ghost))
    without = picture(state, options=replace(PLAIN, side_view=plain))
    assert changed(with_ghost, without) is not None


def test_a_move_arrow_ends_where_the_path_enters_the_units_footprint() -> None:
    state, _ = states.mid_battle()
    spearmen = state.unit("r1")  # 4" wide, 2" deep, centred on (12, 20) facing north
    assert arrow_path(((12.0, 4.0), (12.0, 20.0)), spearmen)[-1] == pytest.approx((12.0, 19.0))
    assert arrow_path(((12.0, 19.5), (12.0, 20.0)), spearmen)[-1] == (12.0, 20.0)  # from inside


def test_the_marks_of_units_lost_in_the_step_are_drawn_where_they_stood() -> None:
    state = states.start()
    gone, survivor = state.units[0], state.units[-1]
    after = replace(state, units=state.units[1:])
    events = (ShotFired(survivor.id, gone.id, 5.0), MeleeFought(survivor.id, gone.id))
    plain = render_image(after, events, MapOptions(width=800, legend=False))
    marked = render_image(after, events, MapOptions(width=800, lost=(gone,), legend=False))
    assert plain.tobytes() != marked.tobytes()  # the shot and the combat (the unit: test_canvas)


def test_a_hail_caesar_shooting_step_draws_its_shot_and_its_combat() -> None:
    rules = HailCaesarRules()
    state = replace(sample_battle(), cursor=Cursor(1, "main", "shooting", ("rom", "gau")))
    state = state.with_unit(replace(state.unit("r4"), x=24, y=26))  # archers 6" from slingers
    order = Order("r4", "shoot", {"target": "g3"})
    ctx = Context(rules, state, (order,), (), random.Random(3))
    shooting.resolve_shooting(ctx)
    assert ShotFired("r4", "g3", 6.0) in ctx.events
    assert read_events(ctx.events).shots == [("r4", "g3")]
    shot = picture(ctx.state, ctx.events)
    assert changed(shot, picture(ctx.state)) is not None  # the line is drawn

    # Hand-to-hand: the warband touching the First Cohort fights it, and the map marks it.
    fighting = state.with_unit(replace(state.unit("g1"), x=20, y=10, facing=180))
    fighting = replace(fighting, cursor=Cursor(1, "main", "combat", ("rom", "gau")))
    ctx = Context(rules, fighting, (), (), random.Random(3))
    combat.resolve_combat(ctx)
    assert MeleeFought("r1", "g1") in ctx.events
    assert ("r1", "g1") in read_events(ctx.events).combats


def test_a_leaders_move_is_drawn_like_a_units() -> None:
    moved = LeaderMoved("red_lord", ((10.0, 4.0), (13.0, 8.0)), 5.0)
    assert read_events([moved]).moves == [("red_lord", ((10.0, 4.0), (13.0, 8.0)))]
