"""/help and /rules: the game loop, the campaign's steps and orders, the sheet's tables."""

from __future__ import annotations

import pytest

from rules_core import registry
from tools.harness import Harness


async def test_help_explains_the_loop_and_this_rulesets_orders(aide: Harness) -> None:
    bare = await aide.slash(aide.alice, "help")
    assert bare.ephemeral and "How a battle by post runs" in bare.text
    assert "no campaign in this channel" in bare.text
    await aide.slash(aide.gm, "campaign create", name="Agincourt", ruleset="tree_of_battles")
    shown = await aide.slash(aide.alice, "help")
    assert "The Tree of Battles: the steps and the orders each accepts" in shown.text
    assert "`march`" in shown.text and "`hold`" in shown.text
    assert all(len(m.text) <= 2000 for m in shown.messages)


async def test_rules_lists_the_tables_and_shows_one(aide: Harness) -> None:
    await aide.slash(aide.gm, "campaign create", name="Gergovia", ruleset="hail_caesar")
    listed = await aide.slash(aide.alice, "rules")
    assert listed.ephemeral and "`blunder`" in listed.text
    offered = await aide.autocomplete(aide.alice, "rules", "table", table="break_hand")
    assert "break_hand_to_hand_infantry" in [c["value"] for c in offered]
    shown = await aide.slash(aide.alice, "rules", table="Blunder")
    assert shown.ephemeral and shown.text.startswith("**blunder** (Hail Caesar)")
    assert "```" in shown.text
    grid = await aide.slash(aide.alice, "rules", table="morale_save")
    assert grid.text.count("\n") > 3


async def test_an_unknown_table_is_refused_naming_the_tables(aide: Harness) -> None:
    await aide.slash(aide.gm, "campaign create", name="Ford", ruleset="skirmish")
    refused = await aide.slash(aide.alice, "rules", table="nope")
    assert refused.ephemeral
    assert refused.text.startswith("Skirmish (tutorial) has no table `nope`; its tables: `to_hit`")


FIGHTING = [r.id for r in registry.all_rulesets(include_unlisted=True) if r.rules is not None]


@pytest.mark.parametrize("ruleset", FIGHTING)
async def test_help_fits_every_step_and_topic_of_each_ruleset(aide: Harness, ruleset: str) -> None:
    """Nothing is cut off: every step, every standing topic and the pointer to /rules."""
    rules = registry.get(ruleset).rules
    assert rules is not None
    await aide.slash(aide.gm, "campaign create", name="Help", ruleset=ruleset)
    shown = await aide.slash(aide.alice, "help")
    assert all(len(m.text) <= 2000 for m in shown.messages) and shown.ephemeral
    assert all(m.ephemeral for m in shown.messages)
    assert len(shown.messages) <= 3  # the loop, the tour, the steps: packed as they fit
    assert shown.text.endswith("Tables of the sheet: `/rules table:<name>`.")
    assert all(f"• {step.title}:" in shown.text for step in rules.sequence.steps)
    assert all(f"`{topic.id}`" in shown.text for topic in rules.topics)
