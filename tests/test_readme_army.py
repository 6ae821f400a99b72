"""The README's example army is one its ruleset accepts, and the sample folders it names exist."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

from rules_core import registry

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_the_example_army_is_accepted_by_the_tree_of_battles() -> None:
    after = README.index("for The Tree of Battles, for example:")  # the quick start has one too
    block = re.search(r"```yaml\n(.*?)```", README[after:], re.S)
    assert block is not None
    roster = yaml.safe_load(block.group(1))
    assert registry.get("tree_of_battles").roster_schema.validate(roster) == []


def test_every_ruleset_with_sample_armies_keeps_them_where_the_readme_says() -> None:
    assert "rules_core/rulesets/<id>/armies/" in README
    for ruleset_id in ("tree_of_battles", "hail_caesar", "heroic_age", "pike_and_shot"):
        assert any((ROOT / "rules_core/rulesets" / ruleset_id / "armies").iterdir())


def test_the_set_up_table_gives_each_ruleset_its_own_table_and_zone_depth() -> None:
    names = {
        "tree_of_battles": "The Tree of Battles",
        "hail_caesar": "Hail Caesar",
        "heroic_age": "Heroic Age",
        "pike_and_shot": "Pike and shot",
    }
    units = {"SF": "SF", "inch": "inches", "H": "H"}
    for ruleset_id, name in {**names, "skirmish": "Skirmish", "impetus": "Impetus 2"}.items():
        rules = registry.get(ruleset_id).rules
        assert rules is not None
        width, depth = rules.default_table
        measure = units[rules.measure_name()]
        band = min(rules.deployment_depth, depth / 3)
        row = f"| {name} | {width:g} × {depth:g} {measure}"
        assert row in README, row
        line = next(ln.strip() for ln in README.splitlines() if ln.strip().startswith(row))
        assert line.endswith(f"| {band:g} {measure} deep |"), line
