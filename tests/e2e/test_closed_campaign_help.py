"""/help, /rules and /campaign create by an outsider in a closed campaign's channel: told the
campaign is closed, as every other command tells them, not that there is no campaign."""

from __future__ import annotations

from tools.harness import Harness

CLOSED = "**Hundred Years** is a closed campaign: ask its GM to admit you."


async def test_an_outsider_is_told_the_campaign_is_closed(aide: Harness) -> None:
    h, where = aide, aide.channel("hundred-years")
    await h.slash(
        h.gm, "campaign create", channel=where, name="Hundred Years", ruleset="tree_of_battles"
    )
    await h.slash(h.alice, "campaign join", channel=where, side="England")
    opened = await h.slash(h.outsider, "help", channel=where)
    assert "The Tree of Battles" in opened.text  # open: anyone may read the reference
    await h.slash(h.gm, "campaign visibility", channel=where, visibility="closed")

    for command, options in (
        ("help", {}),
        ("rules", {}),
        ("rules", {"table": "Control test"}),
        ("campaign create", {"name": "Usurpers", "ruleset": "tree_of_battles"}),
    ):
        refused = await h.slash(h.outsider, command, channel=where, **options)
        assert refused.ephemeral and refused.content == CLOSED, command
    tables = await h.autocomplete(h.outsider, "rules", "table", channel=where, table="")
    assert tables == []

    member = await h.slash(h.alice, "help", channel=where)
    assert "The Tree of Battles" in member.text
    assert await h.autocomplete(h.alice, "rules", "table", channel=where, table="")
