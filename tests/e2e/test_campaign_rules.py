"""/campaign rules through the real bot, and the one GM check on every GM-only command."""

from __future__ import annotations

from typing import Any

import pytest
from discord import app_commands

from bot.checks import gm_predicate
from rules_core import registry
from tools.harness import Harness

ONLY_GM = "Only a GM of **Hundred Years** can do that; `/campaign info` names its GMs."

# Every command a GM alone may use; the services refuse anyone else too.
GM_COMMANDS = (
    "campaign gm add",
    "campaign gm remove",
    "campaign deadlines",
    "campaign visibility",
    "campaign admit",
    "campaign close",
    "campaign remove",
    "campaign rules set",
    "campaign rules reset",
    "campaign map import",
    "campaign map turn",
    "battle create",
    "battle assign",
    "battle hand-over",
    "battle terrain add",
    "battle terrain remove",
    "battle terrain roll",
    "battle start",
    "battle end",
    "gm pause",
    "gm resume",
    "gm extend",
    "gm force",
    "gm set",
    "gm move",
    "gm off-table",
    "gm on-table",
    "gm terrain add",
    "gm terrain remove",
    "gm ruling",
    "gm undo",
)


@pytest.fixture
async def campaign(aide: Harness) -> Harness:
    """A GM has created 'Hundred Years' (The Tree of Battles); Alice has joined as England."""
    where = aide.channel("hundred-years")
    await aide.slash(
        aide.gm, "campaign create", channel=where, name="Hundred Years", ruleset="tree_of_battles"
    )
    await aide.slash(aide.alice, "campaign join", channel=where, side="England")
    return aide


def line_of(text: str, name: str) -> str:
    """The line of a parameter in /campaign rules show."""
    return next(line for line in text.splitlines() if line.startswith(f"• **{name}** "))


async def test_a_gm_shows_sets_and_resets_a_parameter(campaign: Harness) -> None:
    h, where = campaign, campaign.channel("hundred-years")
    shown = await h.slash(h.alice, "campaign rules show", channel=where)
    assert shown.ephemeral
    assert "**The Tree of Battles** parameters for **Hundred Years**" in shown.text
    assert line_of(shown.text, "max_turns") == (
        "• **max_turns** = `8` — turns played before the battle is a draw"
        " · source: not on the sheet"
    )
    assert "• **table_width** = `" in shown.text

    offered = await h.autocomplete(h.gm, "campaign rules set", "name", channel=where, name="turn")
    assert [c["value"] for c in offered] == ["max_turns"]

    changed = await h.slash(h.gm, "campaign rules set", channel=where, name="max_turns", value="12")
    assert not changed.ephemeral
    assert changed.content == (
        f"{h.gm.mention} set **max_turns** to `12` (ruleset: `8`); "
        "battles created from now on use it."
    )
    shown = await h.slash(h.alice, "campaign rules show", channel=where, name="max_turns")
    assert line_of(shown.text, "max_turns").startswith("• **max_turns** = `12` (ruleset: `8`) — ")

    reset = await h.slash(h.gm, "campaign rules reset", channel=where, name="max_turns")
    assert reset.content == (
        f"{h.gm.mention} reset **max_turns** to the ruleset's `8`; "
        "battles created from now on use it."
    )
    shown = await h.slash(h.alice, "campaign rules show", channel=where)
    assert line_of(shown.text, "max_turns").startswith("• **max_turns** = `8` — ")


async def test_bad_parameters_are_refused_privately(campaign: Harness) -> None:
    h, where = campaign, campaign.channel("hundred-years")
    for name, value, message in (
        (
            "max_turn",
            "3",
            "This ruleset has no parameter `max_turn`. Did you mean `max_turns`? "
            "`/campaign rules show` lists them all.",
        ),
        ("max_turns", "three", "`max_turns` takes a whole number like `8`, not `three`."),
        ("civil_war", "perhaps", "`civil_war` is `true` or `false`, not `perhaps`."),
    ):
        refused = await h.slash(h.gm, "campaign rules set", channel=where, name=name, value=value)
        assert refused.ephemeral and refused.content == message
    shown = await h.slash(h.gm, "campaign rules show", channel=where)
    assert "(ruleset:" not in shown.text  # nothing was overridden


async def test_the_gm_check_refuses_before_the_service_is_asked(
    campaign: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A non-GM gets the check's private refusal; the command body never runs."""
    h, where = campaign, campaign.channel("hundred-years")
    assert h.bot is not None
    services: Any = h.bot.services  # type: ignore[attr-defined]

    async def must_not_run(*args: object) -> None:
        raise AssertionError("the check should have refused first")

    monkeypatch.setattr(services.parameters, "override", must_not_run)
    monkeypatch.setattr(services.campaigns, "set_deadlines", must_not_run)
    for user in (h.alice, h.outsider):
        refused = await h.slash(
            user, "campaign rules set", channel=where, name="max_turns", value="3"
        )
        assert refused.ephemeral and refused.content == ONLY_GM
        refused = await h.slash(user, "campaign deadlines", channel=where, step_hours=2.0)
        assert refused.ephemeral and refused.content == ONLY_GM
    elsewhere = await h.slash(h.gm, "gm pause", channel=h.channel("general"), reason="tea")
    assert elsewhere.ephemeral and "There is no campaign in this channel" in elsewhere.content


async def test_every_gm_command_carries_the_check_and_stays_visible(campaign: Harness) -> None:
    """One named check on each GM-only command; none is hidden behind a Discord permission,
    since a campaign's GM need not be a server admin."""
    assert campaign.bot is not None
    checked = {
        command.qualified_name
        for command in campaign.bot.tree.walk_commands()
        if isinstance(command, app_commands.Command) and gm_predicate in command.checks
    }
    assert checked == set(GM_COMMANDS)
    for synced in campaign.synced_commands():
        assert synced.get("default_member_permissions") is None, synced["name"]


async def test_a_long_sheet_comes_in_several_private_messages(aide: Harness) -> None:
    """Hail Caesar's parameters do not fit one message; every page is private and complete."""
    where = aide.channel("punic-wars")
    await aide.slash(
        aide.gm, "campaign create", channel=where, name="Cannae", ruleset="hail_caesar"
    )
    shown = await aide.slash(aide.outsider, "campaign rules show", channel=where)
    assert len(shown.messages) == 2 and all(m.ephemeral for m in shown.messages)
    assert all(len(m.content) <= 2000 for m in shown.messages)
    assert "**break_test_ranged** = a table of " in shown.text
    declared = registry.get("hail_caesar").rules.parameters  # type: ignore[union-attr]
    assert shown.text.count("\n• **") == len(declared) + 2  # and the table's two sides
    table = await aide.slash(
        aide.outsider, "campaign rules show", channel=where, name="blunder_table"
    )
    assert '`[[1, "retreat", 2], [2, "back", 1],' in table.text
