"""Issue 19's acceptance-run findings, checked again through Discord: each one a test."""

from __future__ import annotations

from tools.harness import Harness
from tools.skirmish_battle import set_up_battle


async def test_kind_autocomplete_during_set_up_offers_without_failing(aide: Harness) -> None:
    where = aide.channel("punic-wars")
    await set_up_battle(aide, where)  # set-up: not started
    for option in ("kind", "unit", "step", "target"):
        offered = await aide.autocomplete(
            aide.alice, "order give", option, channel=where, **{option: ""}
        )
        assert isinstance(offered, list), option
    assert aide.take_errors() == []  # "Loading options failed" was a KeyError here
    given = await aide.slash(aide.alice, "order give", channel=where, kind="hold", unit="Red Horse")
    assert given.ephemeral and "`/battle start`" in given.text


async def test_a_gm_without_a_side_is_offered_only_what_they_may_order(aide: Harness) -> None:
    where = aide.channel("punic-wars")
    await set_up_battle(aide, where)
    await aide.slash(aide.gm, "battle start", channel=where)
    offered = await aide.autocomplete(aide.gm, "order give", "unit", channel=where, unit="")
    assert offered == []  # every side's units were offered, and every order refused
    given = await aide.slash(aide.gm, "order hold", channel=where, unit="Red Archers")
    assert given.ephemeral and given.text.startswith("You play no side in this battle")
    assert "`/campaign remove`" in given.text
