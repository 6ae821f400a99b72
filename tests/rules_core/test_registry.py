"""The registry keeps its API for the bot and finds ruleset packages on its own."""

from __future__ import annotations

import importlib

import pytest

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


@pytest.mark.usefixtures("sketch")
def test_rulesets_without_rules_yet_come_from_their_own_packages() -> None:
    for ruleset_id in ("sketch",):
        found = registry.get(ruleset_id)
        assert found.rules is None and found.roster_schema.unit_fields
        assert importlib.import_module(f"rules_core.rulesets.{ruleset_id}").RULESET is found
    assert "_PLACEHOLDERS" not in vars(registry)


def test_a_new_ruleset_is_listed_by_its_position_and_an_id_is_taken_once() -> None:
    saved = dict(registry._REGISTRY)
    try:
        registry.register(registry.Ruleset("zz", "New", "inch", RosterSchema(()), ("z2",)))
        registry.register(registry.Ruleset("aa", "First", "inch", RosterSchema(()), position=0))
        assert registry.get("z2").id == "zz"
        assert [r.id for r in registry.all_rulesets()] == ["aa", *FIVE, "skirmish", "zz"]
        with pytest.raises(ValueError, match="already registered"):
            registry.register(registry.Ruleset("z2", "Again", "inch", RosterSchema(())))
    finally:
        registry._REGISTRY.clear()
        registry._REGISTRY.update(saved)
