"""The registry keeps its API for the bot and finds ruleset packages on its own."""

from __future__ import annotations

from rules_core import registry
from rules_core.roster import RosterSchema

FIVE = ["tree_of_battles", "pike_and_shot", "hail_caesar", "impetus", "heroic_age"]


def test_the_five_rulesets_are_listed_in_order_and_by_alias() -> None:
    assert [r.id for r in registry.all_rulesets()] == [*FIVE, "skirmish"]
    assert registry.get("hc").id == "hail_caesar" and registry.get("tob").measure == "SF"


def test_the_skirmish_tutorial_is_listed_last() -> None:
    skirmish = registry.get("skirmish")
    assert skirmish.rules is not None and skirmish.listed
    assert skirmish.name == "Skirmish (tutorial)"


def test_a_package_replaces_a_placeholder_in_place() -> None:
    saved = dict(registry._REGISTRY), set(registry._PLACEHOLDERS)
    try:
        registry.discover()
        registry._placeholder(registry.Ruleset("zz", "Old", "inch", RosterSchema(()), ("z1",)))
        new = registry.Ruleset("zz", "New", "inch", RosterSchema(()), ("z2",))
        registry.register(new)
        assert registry.get("zz") is new and registry.get("z2") is new
        assert "z1" not in registry._REGISTRY
        assert [r.id for r in registry.all_rulesets()] == [*FIVE, "skirmish", "zz"]
    finally:
        registry._REGISTRY.clear()
        registry._REGISTRY.update(saved[0])
        registry._PLACEHOLDERS.update(saved[1])
