"""Army lists are strict: a key no field names is refused with the nearest field as a
suggestion at every level (army, unit, leader, wing, commander), and leaders' ranks and points
stay within what the ruleset allows; every sample army still passes."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

import pytest

from rules_core import registry
from rules_core.roster import Field, RosterSchema
from rules_core.rulesets.hail_caesar.profiles import LEADERSHIP
from rules_core.rulesets.heroic_age.profiles import LPS
from rules_core.rulesets.tree_of_battles.profiles import CPS

SHIPPED = ["tree_of_battles", "hail_caesar", "heroic_age", "pike_and_shot", "impetus", "skirmish"]
# The list of leaders (or wings) each ruleset's army list gives, and one of its fields.
LEADERS = {
    "tree_of_battles": ("leaders", "rank", "rnak"),
    "hail_caesar": ("leaders", "leadership", "leadrship"),
    "heroic_age": ("leaders", "lps", "lsp"),
    "pike_and_shot": ("wings", "order", "oder"),
    "impetus": ("generals", "traits", "triats"),
}


def sample(ruleset: str) -> dict[str, Any]:
    """A deep copy of the ruleset's first sample army."""
    rules = registry.get(ruleset).rules
    assert rules is not None
    first: Mapping[str, Any] = rules.sample_armies()[0]
    return copy.deepcopy(dict(first))


def problems(ruleset: str, roster: object) -> list[str]:
    """What the ruleset's schema says of the roster."""
    return registry.get(ruleset).roster_schema.validate(roster)


@pytest.mark.parametrize("ruleset", SHIPPED)
def test_every_sample_army_is_accepted(ruleset: str) -> None:
    rules = registry.get(ruleset).rules
    assert rules is not None
    for army in rules.sample_armies():
        assert problems(ruleset, army) == [], army["name"]


@pytest.mark.parametrize("ruleset", SHIPPED)
def test_a_misspelt_unit_key_is_refused_with_the_field_meant(ruleset: str) -> None:
    roster = sample(ruleset)
    unit = roster["units"][0]
    unit["tpye"] = unit.pop("type", "x")
    assert "units[0].tpye: unknown field; did you mean 'type'?" in problems(ruleset, roster)


def test_the_issue_typos_are_refused_each_with_its_suggestion() -> None:
    roster = {"name": "Host", "units": [{"name": "Horse", "tpye": "cavalry", "sise": "large"}]}
    assert problems("hail_caesar", roster) == [
        "units[0].tpye: unknown field; did you mean 'type'?",
        "units[0].sise: unknown field; did you mean 'size'?",
    ]


@pytest.mark.parametrize("ruleset", SHIPPED)
def test_a_misspelt_army_key_is_refused(ruleset: str) -> None:
    roster = sample(ruleset)
    roster["unts"] = []
    assert "unts: unknown field; did you mean 'units'?" in problems(ruleset, roster)


@pytest.mark.parametrize("ruleset", sorted(LEADERS))
def test_a_misspelt_leader_key_is_refused(ruleset: str) -> None:
    listed, key, typo = LEADERS[ruleset]
    roster = sample(ruleset)
    roster[listed][0][typo] = roster[listed][0].pop(key, "x")
    found = problems(ruleset, roster)
    assert f"{listed}[0].{typo}: unknown field; did you mean '{key}'?" in found


def test_a_key_like_no_field_lists_the_fields() -> None:
    roster = sample("skirmish")
    roster["units"][0]["banner"] = "red"
    assert problems("skirmish", roster) == [
        "units[0].banner: unknown field; the fields are name, type, move, stamina, at, status"
    ]


def test_the_pike_and_shot_commander_is_checked_too() -> None:
    roster = sample("pike_and_shot")
    roster["commander"] = {"name": "Rupert", "knid": "heroic"}
    assert problems("pike_and_shot", roster) == [
        "commander.knid: unknown field; did you mean 'kind'?"
    ]
    roster["commander"] = "Rupert"
    assert problems("pike_and_shot", roster) == ["commander: must be a mapping of name, kind, with"]


def test_an_emperor_with_99_command_points_is_refused_with_what_is_allowed() -> None:
    roster = sample("tree_of_battles")
    roster["leaders"][0].update(rank="emperor", cps=99)
    assert problems("tree_of_battles", roster) == [
        "leaders[0].rank: must be one of captain, marshal",
        f"leaders[0].cps: must be at most {CPS[1]}",
    ]
    roster["leaders"][0].update(rank="marshal", cps=0)
    assert problems("tree_of_battles", roster) == [f"leaders[0].cps: must be at least {CPS[0]}"]


def test_hail_caesar_ranks_and_leadership_are_bounded() -> None:
    roster = sample("hail_caesar")
    roster["leaders"][0].update(rank="emperor", leadership=LEADERSHIP[1] + 1)
    assert problems("hail_caesar", roster) == [
        "leaders[0].rank: must be one of general, army",
        f"leaders[0].leadership: must be at most {LEADERSHIP[1]}",
    ]


def test_heroic_age_lps_are_bounded() -> None:
    roster = sample("heroic_age")
    roster["leaders"][0]["lps"] = LPS[1] + 1
    assert problems("heroic_age", roster) == [f"leaders[0].lps: must be at most {LPS[1]}"]


def test_impetus_generals_and_weapons_are_read_from_its_lists() -> None:
    roster = sample("impetus")
    roster["generals"][0].update(type="Emperor", traits="Brave, Lucky")
    roster["units"][0]["weapons"] = "pike, sword"
    assert problems("impetus", roster) == [
        "generals[0].type: must be one of Genius, Charismatic, Expert, Reliable, Poor, Incompetent",
        "generals[0].traits: Lucky: not one of Brave, Severe, Confident, Cavalry",
        "units[0].weapons: sword: not one of pike, long_spear, polearm, pilum, pbw",
    ]


@pytest.mark.parametrize(
    ("at", "problem"),
    [
        ([10, 5, 0], None),
        ([10.5, 5], None),
        ([10], "must be [x, y] or [x, y, facing] in numbers"),
        (["ten", 5], "must be [x, y] or [x, y, facing] in numbers"),
        ([10, -1], "x and y must be 0 or more, facing from 0 to 360 degrees"),
        ([10, 5, 400], "x and y must be 0 or more, facing from 0 to 360 degrees"),
    ],
)
def test_a_units_place_is_checked(at: list[object], problem: str | None) -> None:
    roster = sample("heroic_age")
    roster["units"][0]["at"] = at
    expected = [] if problem is None else [f"units[0].at: {problem}"]
    assert problems("heroic_age", roster) == expected


def test_a_plugin_schema_stays_lenient_unless_it_asks() -> None:
    lenient = RosterSchema((Field("name", str, required=True),))
    assert lenient.validate({"name": "A", "units": [{"name": "B", "extra": 1}], "more": 2}) == []
