"""Side- and group-level state (declared in the ruleset) is shown in the map's side panel."""

from __future__ import annotations

from dataclasses import replace

from bot.rendering.render import MapOptions, panel_columns
from bot.rendering.scene import build_scene
from rules_core.state import BattleState
from tests.rendering import states
from tests.rendering.helpers import changed, picture

WITH_LEGEND = MapOptions(width=800)


def hail_caesar(**side_status: object) -> BattleState:
    """The lone unit in a Hail Caesar battle, its side holding some status."""
    base = replace(states.one_unit(), ruleset="hail_caesar")
    red = replace(base.sides[0], status=dict(side_status))
    return replace(base, sides=(red, *base.sides[1:]))


def words(state: BattleState) -> list[str]:
    """Every item of the side panel as "Side: words"."""
    columns = panel_columns(build_scene(state, (), None, None, ()))
    return [f"{c.title}: {item}" for c in columns for _, item in c.items]


def test_a_sides_declared_state_gets_a_panel_line_and_is_drawn() -> None:
    broken = hail_caesar(broken_divisions=["gau_warbands"])
    name = broken.sides[0].name
    assert f"{name}: broken divisions: gau_warbands" in words(broken)
    drawn, plain = picture(broken, options=WITH_LEGEND), picture(hail_caesar(), options=WITH_LEGEND)
    assert drawn.height > plain.height  # the panel under the legend
    foot = drawn.crop((0, plain.height - 20, drawn.width, drawn.height)).convert("L")
    assert sum(foot.histogram()[:160]) > 100  # its words drawn


def test_bookkeeping_and_empty_state_add_nothing() -> None:
    # (A deployment zone is drawn on the table itself, so it is left out here.)
    quiet = hail_caesar(reroll_turn=2, lost={"gau_horse": 1}, broken_divisions=[])
    assert words(quiet) == words(hail_caesar())
    plain = picture(hail_caesar(), options=WITH_LEGEND)
    assert changed(picture(quiet, options=WITH_LEGEND), plain) is None


def test_sides_show_in_the_panel_only_when_declared() -> None:
    # A key the ruleset does not declare is never worded, even if a state carries it.
    stray = hail_caesar(general_will=5)
    assert words(stray) == words(hail_caesar())
