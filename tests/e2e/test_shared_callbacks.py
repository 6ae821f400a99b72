"""/order rally and /odds melee through Discord: each is declared on a callback it shares with
another subcommand (/order hold, /odds charge) and acts as the name it was invoked under."""

from __future__ import annotations

import pytest

from rules_core.plugin import Rules
from tests.e2e.test_muster_orders import set_up
from tests.e2e.test_odds import running
from tools.harness import Harness


async def test_rally_and_melee_are_asked_as_themselves_not_as_their_siblings(
    aide: Harness,
) -> None:
    """The skirmish in deployment: rally is no order of its, a melee is not joined; hold and
    charge, on the same callbacks, answer as hold and charge."""
    await running(aide)
    where = aide.channel("punic-wars")
    offered = await aide.autocomplete(aide.alice, "order rally", "unit", channel=where, unit="")
    assert [c["value"] for c in offered] == ["Red Spearmen", "Red Archers", "Red Horse"]
    rally = await aide.slash(aide.alice, "order rally", channel=where, unit="Red Horse")
    assert rally.ephemeral and rally.text == (
        "This ruleset has no `rally` order; its orders are: place, move, charge, shoot, hold."
    )
    hold = await aide.slash(aide.alice, "order hold", channel=where, unit="Red Horse")
    assert hold.text.startswith("**Red Horse** cannot hold: hold orders are not given in")

    targets = await aide.autocomplete(
        aide.alice, "odds melee", "target", channel=where, target="blue"
    )
    assert [c["value"] for c in targets] == ["Blue Warriors", "Blue Slingers", "Blue Riders"]
    pair = {"unit": "Red Spearmen", "target": "Blue Warriors"}
    melee = await aide.slash(aide.alice, "odds melee", channel=where, **pair)
    assert melee.ephemeral and not melee.files
    assert melee.text == "No odds: Red Spearmen is not in contact with Blue Warriors."
    charge = await aide.slash(aide.alice, "odds charge", channel=where, **pair)
    assert "Assumed: as if Red Spearmen charged home" in charge.text and charge.files


@pytest.mark.usefixtures("fixed_seed")
async def test_order_rally_is_order_give_of_kind_rally(muster: Rules, aide: Harness) -> None:
    """Muster's council takes a leader's rally: /order rally is checked as /order give is."""
    h, where = aide, aide.channel("hundred-years")
    await set_up(h, where, muster)
    rally = await h.slash(h.alice, "order rally", channel=where, unit="General a")
    given = await h.slash(h.alice, "order give", channel=where, kind="rally", unit="General a")
    assert rally.ephemeral and rally.text == given.text == (
        "A rally order needs a `group` for group."
    )
    not_a_leader = await h.slash(h.alice, "order rally", channel=where, unit="Red Pikes")
    assert not_a_leader.text == (
        "There is no leader of yours called **Red Pikes** in this battle; one of: **General a**."
    )
