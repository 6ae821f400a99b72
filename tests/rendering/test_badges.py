"""Status badges: every declared badge draws something; quiet values draw nothing."""

from __future__ import annotations

from dataclasses import replace
from functools import cache

import pytest
from PIL import Image

from bot.rendering import Count, Level, Pips, Tag, badges
from bot.rendering.badges import DEFAULT_BADGES, badges_for, shown
from bot.rendering.style import BADGE_COLOURS
from rules_core.codec import Json
from rules_core.rulesets.hail_caesar.status import STATUSES as HC_STATUSES
from rules_core.status import Badge as StatusBadge
from rules_core.status import Count as StatusCount
from rules_core.status import Flag, LevelValue, Scope, sheet
from rules_core.status import Level as StatusLevel
from tests.rendering import states
from tests.rendering.helpers import changed, picture


@cache
def plain_unit() -> Image.Image:
    """The lone unit with no status."""
    return picture(states.one_unit())


@pytest.mark.parametrize("key", sorted(DEFAULT_BADGES))
def test_each_shared_badge_draws_something(key: str) -> None:
    value = DEFAULT_BADGES[key].example()
    assert changed(picture(states.one_unit({key: value})), plain_unit()) is not None


@pytest.mark.parametrize(("key", "value"), sorted(states.BADGE_VALUES.items()))
def test_the_rulesets_values_draw(key: str, value: Json) -> None:
    assert changed(picture(states.one_unit({key: value})), plain_unit()) is not None


@pytest.mark.parametrize(
    ("key", "value"),
    [("dps", 0), ("casualties", 0), ("disordered", False), ("cohesion", "Sound"),
     ("array", "good array"), ("freshness", "fresh"), ("unknown_key", 5)],
)  # fmt: skip
def test_quiet_values_and_unknown_keys_draw_nothing(key: str, value: Json) -> None:
    assert changed(picture(states.one_unit({key: value})), plain_unit()) is None


def test_many_pips_show_their_number() -> None:
    six, nine = picture(states.one_unit({"dps": 6})), picture(states.one_unit({"dps": 9}))
    assert changed(six, nine) is not None


def test_levels_are_matched_without_regard_to_case_and_unknown_levels_still_show() -> None:
    level = DEFAULT_BADGES["aggression"]
    assert level.text("blood lust") == level.text("Blood Lust") == "BLOODLUST"
    assert level.text("berserk") == "BERSERK"


def test_badges_come_in_declaration_order() -> None:
    row = shown({"disordered": True, "dps": 2}, DEFAULT_BADGES)
    assert [badge for badge, _ in row] == [DEFAULT_BADGES["dps"], DEFAULT_BADGES["disordered"]]


def test_a_rulesets_badges_come_from_its_declaration_in_its_order() -> None:
    shown_hc = badges_for("hail_caesar")
    assert list(shown_hc) == [item.key for item in HC_STATUSES.badges(Scope.UNIT, Scope.LEADER)]
    assert "won" in shown_hc and "dps" not in shown_hc  # declared by HC; a Tree of Battles key
    assert "control" in badges_for("tree_of_battles") and "control" not in DEFAULT_BADGES
    heroic = states.one_unit({"won": True})
    assert changed(picture(heroic), plain_unit()) is None  # a ruleset without rules lacks it
    hail = replace(heroic, ruleset="hail_caesar")
    assert changed(picture(hail), picture(replace(states.one_unit(), ruleset="hail_caesar")))


def test_every_badge_shape_is_built_from_plain_data() -> None:
    declared = sheet(
        StatusLevel(
            "morale",
            "morale",
            (LevelValue("steady", quiet=True), LevelValue("wavering", "WAVER", "warn")),
        ),
        StatusCount("ammo", "ammunition", StatusBadge("pips", tone="calm")),
        StatusCount("kills", "kills", StatusBadge("count", "{} k", "good")),
        Flag("signal", "advance signalled", StatusBadge("tag", "ADV", "good")),
        Flag("quiet_mark", "bookkeeping only"),
    )
    drawn = badges.badges_from(declared)
    assert list(drawn) == ["morale", "ammo", "kills", "signal"]
    assert isinstance(drawn["morale"], Level) and drawn["morale"].text("Wavering") == "WAVER"
    assert drawn["morale"].text("steady") is None
    assert isinstance(drawn["ammo"], Pips) and drawn["ammo"].colour == BADGE_COLOURS["calm"]
    assert isinstance(drawn["kills"], Count) and drawn["kills"].text(2) == "2 k"
    assert isinstance(drawn["signal"], Tag) and drawn["signal"].colour == BADGE_COLOURS["good"]


@pytest.mark.parametrize("formation", ["column", "square", "testudo", "wedge", "open_order"])
def test_a_units_own_formation_field_shows_as_a_badge(formation: str) -> None:
    base = states.one_unit()
    formed = replace(base, units=(replace(base.units[0], formation=formation),))
    assert changed(picture(formed), plain_unit()) is not None
    in_line = replace(base, units=(replace(base.units[0], formation="line"),))
    assert changed(picture(in_line), plain_unit()) is None


def test_the_legend_lists_a_level_badge_that_comes_from_the_formation_field() -> None:
    from bot.rendering.render import legend_entries
    from bot.rendering.scene import build_scene
    from rules_core.rulesets.hail_caesar.sample import sample_battle

    state = sample_battle()
    assert any(u.formation == "open_order" and "formation" not in u.status for u in state.units)
    words = [entry.words for entry in legend_entries(build_scene(state, (), None, None, ()))]
    assert "formation" in words, words
