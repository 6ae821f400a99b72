"""Side- and group-level state (declared in the ruleset) is shown in the map's legend."""

from __future__ import annotations

from dataclasses import replace

from bot.rendering.render import MapOptions, legend_entries
from bot.rendering.scene import build_scene
from rules_core.state import BattleState, Group
from rules_core.status import Badge, Count, Flag, Scope, describe_state, sheet
from tests.rendering import states
from tests.rendering.helpers import changed, picture

WITH_LEGEND = MapOptions(width=800)


def hail_caesar(**side_status: object) -> BattleState:
    """The lone unit in a Hail Caesar battle, its side holding some status."""
    base = replace(states.one_unit(), ruleset="hail_caesar")
    red = replace(base.sides[0], status=dict(side_status))
    return replace(base, sides=(red, *base.sides[1:]))


def words(state: BattleState) -> list[str]:
    """The words of every legend entry."""
    return [entry.words for entry in legend_entries(build_scene(state, (), None, None, ()))]


def test_a_sides_declared_state_gets_a_legend_entry_and_is_drawn() -> None:
    broken = hail_caesar(broken_divisions=["gau_warbands"])
    name = broken.sides[0].name
    assert f"{name}: broken divisions: gau_warbands" in words(broken)
    assert changed(
        picture(broken, options=WITH_LEGEND), picture(hail_caesar(), options=WITH_LEGEND)
    )


def test_bookkeeping_and_empty_state_add_nothing() -> None:
    # (A deployment zone is drawn on the table itself, so it is left out here.)
    quiet = hail_caesar(reroll_turn=2, lost={"gau_horse": 1}, broken_divisions=[])
    assert words(quiet) == words(hail_caesar())
    plain = picture(hail_caesar(), options=WITH_LEGEND)
    assert changed(picture(quiet, options=WITH_LEGEND), plain) is None


def test_describe_state_words_side_group_and_leader_values_per_side() -> None:
    will = Count("will", "General Will", scope=Scope.SIDE)
    fatigued = Flag("fatigued", "fatigued", Badge("tag", "TIRED"), Scope.GROUP)
    statuses = sheet(will, fatigued)
    base = states.one_unit()
    side = base.sides[0]
    wing = Group("left", "Left wing", side.id, "wing", status={"fatigued": True})
    state = replace(
        base,
        sides=(replace(side, status={"will": 7}), *base.sides[1:]),
        groups=(wing,),
    )
    assert describe_state(statuses, state) == {side.id: ["General Will: 7", "Left wing: fatigued"]}
    assert describe_state(statuses, state, (Scope.GROUP,)) == {side.id: ["Left wing: fatigued"]}
    assert describe_state(statuses, base) == {}


def test_sides_show_in_the_legend_only_when_declared() -> None:
    # A key the ruleset does not declare is never worded, even if a state carries it.
    stray = hail_caesar(general_will=5)
    assert words(stray) == words(hail_caesar())
