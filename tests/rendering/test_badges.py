"""Status badges: every registered badge draws something; quiet values draw nothing."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from functools import cache

import pytest
from PIL import Image

from bot.rendering import Count, Level, Pips, Tag, badges, register_badge
from bot.rendering.badges import DEFAULT_BADGES, badges_for, shown
from rules_core.codec import Json
from tests.rendering import states
from tests.rendering.helpers import changed, picture


@cache
def plain_unit() -> Image.Image:
    """The lone unit with no status."""
    return picture(states.one_unit())


@pytest.mark.parametrize("key", sorted(DEFAULT_BADGES))
def test_each_registered_badge_draws_something(key: str) -> None:
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


def test_badges_come_in_registry_order() -> None:
    row = shown({"disordered": True, "dps": 2}, DEFAULT_BADGES)
    assert [badge for badge, _ in row] == [DEFAULT_BADGES["dps"], DEFAULT_BADGES["disordered"]]


@pytest.fixture
def restore_registry() -> Iterator[None]:
    before = dict(DEFAULT_BADGES)
    kept = {key: dict(table) for key, table in badges._BY_RULESET.items()}
    yield
    DEFAULT_BADGES.clear()
    DEFAULT_BADGES.update(before)
    badges._BY_RULESET.clear()
    badges._BY_RULESET.update(kept)


@pytest.mark.usefixtures("restore_registry")
def test_a_ruleset_can_add_badges_of_its_own() -> None:
    register_badge("impetus_bonus", Count("impetus bonus", "+{} imp", (0, 90, 0)), "impetus")
    register_badge("signal", Tag("advance signalled", "ADV"), "impetus")
    assert "impetus_bonus" in badges_for("impetus")
    assert "impetus_bonus" not in badges_for("heroic_age")
    heroic = states.one_unit({"impetus_bonus": 2})
    assert changed(picture(heroic), plain_unit()) is None  # heroic_age does not know the key
    impetus = replace(heroic, ruleset="impetus")
    assert changed(picture(impetus), picture(replace(states.one_unit(), ruleset="impetus")))


@pytest.mark.usefixtures("restore_registry")
def test_every_badge_shape_can_be_registered_for_all_rulesets() -> None:
    register_badge("morale", Level("morale", {"wavering": ("WAVER", (200, 100, 0))}))
    register_badge("ammo", Pips("ammunition", (0, 0, 160), most=4))
    for key, value in (("morale", "Wavering"), ("ammo", 3)):
        assert changed(picture(states.one_unit({key: value})), plain_unit()) is not None


@pytest.mark.parametrize("formation", ["column", "square", "testudo", "wedge", "open_order"])
def test_a_units_own_formation_field_shows_as_a_badge(formation: str) -> None:
    base = states.one_unit()
    formed = replace(base, units=(replace(base.units[0], formation=formation),))
    assert changed(picture(formed), plain_unit()) is not None
    in_line = replace(base, units=(replace(base.units[0], formation="line"),))
    assert changed(picture(in_line), plain_unit()) is None
