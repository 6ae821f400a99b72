"""/help that teaches (#33): the loop and a tour, one command, one topic, every command named
in them real; and every option whose values are a closed set offered as you type."""

from __future__ import annotations

from typing import Any

import pytest

from bot.presentation.command_docs import Docs, command_docs, stale_mentions
from bot.presentation.help import EXAMPLES, TOPICS, loop_text, topic_text
from bot.presentation.reference import help_messages
from rules_core import registry
from tests.e2e.test_heroic_age_turn import set_up as set_up_heroic
from tests.e2e.test_odds import running
from tools.harness import Harness

RULESETS = [r.id for r in registry.all_rulesets(include_unlisted=True)]
BY_ORDERS = [r.id for r in registry.all_rulesets() if r.rules and r.rules.setup_in_rules]


def docs_of(aide: Harness) -> Docs:
    """The running bot's commands as /help reads them."""
    assert aide.bot is not None
    return command_docs(aide.bot.tree.walk_commands())


async def test_help_gives_the_loop_and_a_tour_with_the_command_for_each(aide: Harness) -> None:
    shown = await aide.slash(aide.alice, "help")
    assert shown.ephemeral and all(m.ephemeral and len(m.text) <= 2000 for m in shown.messages)
    text = shown.text
    assert "How a battle by post runs" in text and "no campaign in this channel" in text
    for command in (
        "`/order give kind:<kind> unit:<unit>`",
        "`/order give step:<later step>`",
        "`/order alternative`",
        "`/order done turn:true`",
        "`/standing recommended`",
        "`/odds order number:1`",
        "`/battle replay`",
        "`/battle report`",
        "`/campaign map show`",
        "`/orders mine`",
        "`/battle map fog:true`",
        "`/help topic:<topic>`",
    ):
        assert command in text, command


async def test_every_command_help_writes_exists_with_those_options(aide: Harness) -> None:
    """Loop, tour, steps, every topic and every example, in every ruleset and none: each
    `/command option:` written is in the command tree, so /help cannot go stale."""
    docs = docs_of(aide)
    assert stale_mentions("`/order giv kind:x` `/odds test flavour:x`", docs) == [
        "/order giv kind:x",
        "/odds test flavour:x",
    ]  # the check itself sees a wrong name and a wrong option
    rulesets = [None, *(registry.get(r) for r in RULESETS)]
    texts = [m for r in rulesets for m in help_messages(r)]
    texts += [topic_text(t, r) for t in TOPICS for r in rulesets]
    texts += list(EXAMPLES.values())
    assert all(len(t) <= 2000 for t in texts)
    assert [s for t in texts for s in stale_mentions(t, docs)] == []
    assert set(EXAMPLES) <= set(docs)


async def test_help_for_one_command_lists_its_options_and_an_example(aide: Harness) -> None:
    shown = await aide.slash(aide.alice, "help", command="order give")
    assert shown.ephemeral and shown.text.startswith("**/order give**: ")
    assert "• `kind` (required): The kind of order (offered for the current step)" in shown.text
    assert "• `step` (optional)" in shown.text
    assert shown.text.endswith("Example: `/order give kind:move unit:Blue Riders x:12 y:20`")
    created = await aide.slash(aide.alice, "help", command="/campaign create")
    assert "• `ruleset` (required): " in created.text and "one of `" in created.text
    built = await aide.slash(aide.alice, "help", command="battle terrain add")
    assert "Example: `/battle terrain add kind:" in built.text and "at:<at>`" in built.text


async def test_an_unknown_command_is_refused_with_the_nearest(aide: Harness) -> None:
    refused = await aide.slash(aide.alice, "help", command="order giv")
    assert refused.ephemeral
    assert refused.text.startswith("There is no command `/order giv`. Did you mean `/order give`")


async def test_help_command_offers_every_command_as_you_type(aide: Harness) -> None:
    offered = await aide.autocomplete(aide.alice, "help", "command", command="odds")
    assert [c["value"] for c in offered] == [
        "odds charge",
        "odds melee",
        "odds order",
        "odds shoot",
        "odds test",
    ]
    everything = await aide.autocomplete(aide.alice, "help", "command", command="")
    assert len(everything) == 25  # Discord's most; typing narrows them


@pytest.mark.parametrize("topic", list(TOPICS))
async def test_each_help_topic_explains_its_feature(aide: Harness, topic: str) -> None:
    shown = await aide.slash(aide.alice, "help", topic=topic)
    assert shown.ephemeral and len(shown.text) <= 2000
    assert shown.text.startswith("**") and "`/" in shown.text


@pytest.mark.parametrize("ruleset", RULESETS)
async def test_no_help_tells_a_ruleset_that_sets_up_by_orders_to_deploy(
    aide: Harness, ruleset: str
) -> None:
    """Impetus places its units by orders after /battle start: /help says so and never
    points at /battle deploy, which it refuses; the other rulesets deploy with it."""
    await aide.slash(aide.gm, "campaign create", name="Help", ruleset=ruleset)
    shown = [await aide.slash(aide.alice, "help")]
    shown += [await aide.slash(aide.alice, "help", topic=t) for t in TOPICS]
    text = "\n".join(s.text for s in shown)
    if ruleset in BY_ORDERS:
        assert "/battle deploy" not in text
        assert "**by orders**" in text and "`/order give kind:place" in text
    else:
        assert "`/battle deploy unit:<unit> at:<x,y>`" in text and "by orders" not in text
    assert "/battle deploy" in loop_text(None)  # without a campaign both ways are told


# String options whose value is the player's own words or numbers: everything else is one of
# a closed set (names, kinds, steps, sides, topics, option keys) and must be offered.
FREE_TEXT = {"reason", "at", "size", "value", "zoom", "path", "text", "expression", "label"}
FREE_TEXT_IN = {
    ("battle create", "name"),
    ("campaign create", "name"),
    ("battle terrain add", "name"),
    ("campaign deadlines", "reminders"),
}


def _string_options(prefix: str, node: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """Every string option under a synced command, with its command's path."""
    found = []
    for child in node.get("options") or []:
        if child["type"] in (1, 2):
            found += _string_options(f"{prefix} {child['name']}", child)
        elif child["type"] == 3:
            found.append((prefix, child))
    return found


async def test_every_closed_choice_option_offers_its_values(aide: Harness) -> None:
    options = [o for c in aide.synced_commands() for o in _string_options(c["name"], c)]
    closed = [
        (path, o)
        for path, o in options
        if o["name"] not in FREE_TEXT and (path, o["name"]) not in FREE_TEXT_IN
    ]
    assert ("odds test", "option") in {(p, o["name"]) for p, o in closed}
    unoffered = [
        f"/{path} {o['name']}:"
        for path, o in closed
        if not o.get("choices") and not o.get("autocomplete")
    ]
    assert unoffered == []


async def test_odds_options_and_battle_sides_are_offered(aide: Harness) -> None:
    await set_up_heroic(aide)
    where = aide.channel("hundred-years")
    tests = await aide.autocomplete(aide.alice, "odds test", "option", channel=where, option="")
    assert [c["value"] for c in tests] == ["+1", "-1"]
    await running(aide)
    ford = aide.channel("punic-wars")
    sides = await aide.autocomplete(aide.alice, "standing set", "side", channel=ford, side="")
    assert [c["name"] for c in sides] == ["Red", "Blue"]
    none = await aide.autocomplete(aide.alice, "odds test", "option", channel=ford, option="")
    assert none == []  # the skirmish has one test: nothing to choose
