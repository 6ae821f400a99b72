"""Units off the table and in reserve are not drawn on it; a panel in the legend lists them
per side (where and when each left), and terrain placed by the rules is drawn like any other."""

from __future__ import annotations

from dataclasses import replace

from PIL import Image

from bot.rendering.fog import SideView
from bot.rendering.render import MapOptions, lay_out, legend_entries, panel_columns
from bot.rendering.scene import build_scene
from rules_core.events import TerrainAdded, TerrainMoved, TerrainRemoved
from rules_core.render import absent_units
from rules_core.state import OFF_TABLE, RESERVE, BattleState, TerrainFeature
from tests.rendering import states
from tests.rendering.helpers import PLAIN, changed, picture

WITH_LEGEND = MapOptions(width=800)


def gone(state: BattleState, unit_id: str, location: str = OFF_TABLE) -> BattleState:
    unit = state.unit(unit_id)
    left = (unit.x, unit.y) if location == OFF_TABLE else None
    turn = 2 if location == OFF_TABLE else None
    return state.with_unit(replace(unit, location=location, left_at=left, left_turn=turn))


def away() -> BattleState:
    """The start, with Red Horse off the table and Blue Slingers in reserve."""
    return gone(gone(states.start(), "r3"), "b2", RESERVE)


def words(state: BattleState, view: SideView | None = None) -> list[str]:
    """Every item of the side panel as "Side — heading: words"."""
    columns = panel_columns(build_scene(state, (), view, None, ()))
    return [f"{c.title} — {head}: {item}" for c in columns for head, item in c.items]


def legend_words(state: BattleState) -> list[str]:
    """The words of every legend entry."""
    return [entry.words for entry in legend_entries(build_scene(state, (), None, None, ()))]


def test_the_panel_lists_each_sides_absent_units_in_words() -> None:
    state = away()
    assert absent_units(state, "red") == ["Off the table: Red Horse (left turn 2 near (36, 4))"]
    assert absent_units(state, "blue") == ["In reserve: Blue Slingers"]
    assert absent_units(states.start(), "red") == []
    found = words(state)
    assert "Red — Off the table: Red Horse (left turn 2 near (36, 4))" in found
    assert "Blue — In reserve: Blue Slingers" in found
    assert not any("Off the table" in w or "In reserve" in w for w in words(states.start()))


def test_a_side_view_does_not_list_the_enemys_reserves() -> None:
    red = SideView("red", visible=frozenset({"b1", "b3"}))
    found = words(away(), red)
    assert "Red — Off the table: Red Horse (left turn 2 near (36, 4))" in found
    assert not any("Blue Slingers" in w for w in found)
    blue = SideView("blue", visible=frozenset({"r1", "r2"}))
    assert "Red — Off the table: Red Horse (left turn 2 near (36, 4))" in words(away(), blue)


def test_a_long_list_is_wrapped_whole_inside_the_picture() -> None:
    state = states.start()
    for unit in state.units:
        state = state.with_unit(replace(unit, name=unit.name * 6, location=RESERVE))
    layout = lay_out(build_scene(state, (), None, None, ()), WITH_LEGEND)
    lines = layout.panel.lines
    shown = " ".join(line.words for line in lines)
    assert all(unit.name in shown for unit in state.units)  # whole: nothing cut
    for line in lines:
        x0, y0, x1, y1 = line.box(layout.panel_top)
        assert x0 >= 0 and x1 <= layout.size[0] and y0 >= 0 and y1 <= layout.size[1], line


def _table_box(state: BattleState, options: MapOptions) -> tuple[int, int, int, int]:
    layout = lay_out(build_scene(state, (), None, None), options)
    left, top = layout.origin
    return (left, top, left + layout.view.width, top + layout.view.height)


def test_absent_units_are_not_drawn_on_the_table_but_in_the_panel() -> None:
    start, state = states.start(), away()
    scene = build_scene(state, (), None, None, ())
    assert [u.id for u in scene.units] == ["r1", "r2", "b1", "b3"]
    # Without the legend: the table differs only where the two units stood.
    plain_box = changed(picture(state), picture(start))
    layout = lay_out(build_scene(start, (), None, None), PLAIN)
    left, top = layout.origin
    spots = [layout.view.px((u.x, u.y)) for u in (start.unit("r3"), start.unit("b2"))]
    assert plain_box is not None
    for x, y in spots:
        assert plain_box[0] <= left + x <= plain_box[2] and plain_box[1] <= top + y <= plain_box[3]
    # Where Red Horse stood there is now bare table: the picture there matches an empty table.
    empty = picture(replace(start, units=()))
    x, y = spots[0]
    spot = (round(left + x) - 10, round(top + y) - 5, round(left + x) + 10, round(top + y) + 5)
    assert changed(picture(state).crop(spot), empty.crop(spot)) is None
    assert changed(picture(start).crop(spot), empty.crop(spot)) is not None
    # With the legend, the panel's rows are added below the table.
    with_panel, without = picture(state, options=WITH_LEGEND), picture(start, options=WITH_LEGEND)
    assert with_panel.height > without.height
    table = _table_box(state, WITH_LEGEND)
    below = (0, table[3] + 1, with_panel.width, with_panel.height)
    assert _ink(with_panel.crop(below)) > _ink(without.crop((0, below[1], 800, without.height)))


def _ink(image: Image.Image) -> int:
    """How many pixels are darker than the paper: text and samples."""
    return sum(image.convert("L").histogram()[:128])


def test_terrain_added_by_the_rules_is_drawn_with_a_legend_entry() -> None:
    bridge = TerrainFeature("b", "bridge", ((10, 14), (14, 14), (14, 20), (10, 20)), "Old Bridge")
    start = states.start()
    placed = replace(start, terrain=(*start.terrain, bridge))
    assert changed(picture(placed), picture(start)) is not None
    assert "bridge" in legend_words(placed) and "bridge" not in legend_words(start)


def test_a_leader_with_a_unit_off_the_table_is_not_drawn() -> None:
    start = states.start()
    lord = replace(start.leader("red_lord"), attached_to="r3")
    state = gone(start.with_leader(lord), "r3")
    assert "red_lord" not in [ld.id for ld in build_scene(state, (), None, None).leaders]
    assert "red_lord" in [
        ld.id for ld in build_scene(start.with_leader(lord), (), None, None).leaders
    ]
    red = SideView("red", visible=frozenset())
    assert "red_lord" not in [ld.id for ld in build_scene(state, (), red, None).leaders]


def test_terrain_changed_in_the_step_is_marked_with_legend_entries() -> None:
    start = states.start()
    bridge = TerrainFeature("b", "bridge", ((10, 14), (14, 14), (14, 20), (10, 20)), "Old Bridge")
    wood = start.terrain[0]
    moved_to = tuple((x + 10, y) for x, y in wood.points)
    after = replace(
        start,
        terrain=(replace(wood, points=moved_to), *start.terrain[1:3], bridge),
    )
    events = (
        TerrainAdded(bridge, "built"),
        TerrainMoved(wood.id, wood.kind, wood.name, wood.points, moved_to, "the wood walks"),
        TerrainRemoved("hill1", "hill", "Gallows Hill", "levelled", start.terrain[3].points),
    )
    found = [e.words for e in legend_entries(build_scene(after, events, None, None, ()))]
    assert "terrain placed or moved this step" in found
    assert "where terrain was before this step" in found
    assert "terrain placed or moved this step" not in legend_words(after)
    marked, plain = picture(after, events), picture(after)
    box = changed(marked, plain)
    assert box is not None
    # The marks sit on the old hill, the wood's two places and the bridge: nowhere else.
    layout = lay_out(build_scene(after, events, None, None), PLAIN)
    left = layout.origin[0]
    hill = [layout.view.px(p) for p in start.terrain[3].points]
    assert box[0] <= left + min(x for x, _ in hill) + 3
