"""Vanguard through Discord: a ruleset that sets the table up itself. The battle starts with an
empty table; each side places terrain rolled on a table and deploys its units one at a time,
alternately, by ``/order give``; commands activate in an order settled during the turn, each
moving twice, one move seen before the next; a unit rides off the table and back. The battle
ends by itself after two turns and its record verifies. A third side is refused, and a battle
takes its own scale."""

from __future__ import annotations

import json

import pytest

from bot.errors import NotFound
from bot.services.campaigns import Place
from rules_core import engine
from rules_core.orders import Order
from rules_core.plugin import Rules
from rules_core.state import OFF_TABLE, ON_TABLE, RESERVE, BattleState
from rules_core.verify import verify
from tests.e2e.sheet_battle import confirm, full_log, give, kinds, posts, refused_order, reports
from tools.fake_discord.world import FakeChannel
from tools.harness import Harness

pytestmark = pytest.mark.usefixtures("fixed_seed")
BATTLE = "Border Clash"


async def set_up(h: Harness, where: FakeChannel, rules: Rules) -> None:
    """Campaign, players, armies and the battle: created, not started."""
    await h.slash(h.gm, "campaign create", channel=where, name="Vanguards", ruleset="vanguard")
    await h.slash(h.alice, "campaign join", channel=where, side="Red")
    await h.slash(h.bob, "campaign join", channel=where, side="Blue")
    for user, army in zip((h.alice, h.bob), rules.sample_armies(), strict=True):
        upload = h.upload("army.json", json.dumps(army), "application/json")
        await h.slash(user, "army import", channel=where, file=upload)
    await h.slash(h.gm, "battle create", channel=where, name=BATTLE, army_a="Red Vanguard",
                  army_b="Blue Vanguard", scale=40)  # fmt: skip


async def state_of(h: Harness, where: FakeChannel) -> BattleState:
    """The battle's state as the bot keeps it (everything: the bot sees all)."""
    services = h.bot.services  # type: ignore[union-attr]
    return (await services.battles.view(Place(h.world.guild_id, where.id))).state


def options_for(state: BattleState, order: Order) -> dict[str, object]:
    """``/order give`` options for one order as a player types them."""
    actor = state.side(order.actor) if order.kind.startswith("place") else state.unit(order.actor)
    found: dict[str, object] = {"kind": order.kind, "unit": actor.name}
    for name in ("at", "to"):
        if name in order.params:
            x, y = order.params[name]  # type: ignore[misc]
            found.update(x=x, y=y)
    if "unit" in order.params:
        found["target"] = state.unit(str(order.params["unit"])).name
    return found


async def play_step(h: Harness, where: FakeChannel, rules: Rules) -> None:
    """The players of every side the open step waits for give the script's orders through
    Discord, each checked by autocomplete and previewed, then confirm; the step resolves."""
    state = await state_of(h, where)
    users = {"a": h.alice, "b": h.bob}
    waiting = engine.waiting(rules, state).sides
    assert waiting, state.cursor
    for side in waiting:
        for order in rules.demo_orders(state, side):
            options = options_for(state, order)
            kind, unit = str(options.pop("kind")), str(options.pop("unit"))
            await give(h, users[side], where, kind, unit, **options)
    await confirm(h, where, BATTLE, *(users[side] for side in waiting))


async def test_a_battle_set_up_by_its_ruleset_plays_through_discord(
    vanguard: Rules, aide: Harness, fixed_seed: bytes
) -> None:
    h, where = aide, aide.channel("hundred-years")
    await set_up(h, where, vanguard)

    # A third side is refused: Vanguard battles take exactly two.
    third = await h.slash(h.outsider, "campaign join", channel=where, side="Green")
    assert third.ephemeral and third.content == (
        "Vanguard (test) battles take at most 2 sides, and **Blue** and **Red** are taken: "
        "join one of them."
    )
    assert (await state_of(h, where)).battlefield.mm_per_measure == 40  # the battle's own scale

    # Units are not deployed by hand: the ruleset's set-up steps place them.
    by_hand = await h.slash(h.alice, "battle deploy", channel=where, unit="Red Foot", at="12,6")
    assert by_hand.ephemeral and by_hand.content == (
        "Vanguard (test) places units by orders in its set-up steps: once the GM runs "
        "`/battle start`, give `/order give kind:place`."
    )

    # Before the start no step is open: the kind autocomplete offers nothing, and fails not.
    assert await kinds(h, h.alice, where) == {}

    # The battle starts with an empty table: every unit in reserve, no terrain.
    started = await h.slash(h.gm, "battle start", channel=where)
    assert not started.ephemeral
    state = await state_of(h, where)
    assert {u.location for u in state.units} == {RESERVE} and not state.terrain
    (opening,) = [p for p in posts(h, where) if p.embeds and "begins" in p.embeds[0]["title"]]
    assert "The armies wait in reserve" in opening.text, opening.text
    assert "Now\nTerrain — Red\nWaiting for\n" + h.alice.mention in opening.text

    # Terrain: Red places first; Blue's order is refused while it is Red's turn.
    assert await kinds(h, h.alice, where) == {"place_terrain": "Place terrain"}
    early = await refused_order(h, h.bob, where, "place_terrain", "Blue", x=30, y=18)
    assert early == "It is not your turn to give orders: the Terrain step waits for others."
    badly = await refused_order(h, h.alice, where, "place_terrain", "Red", x=14, y=2)
    assert "middle third" in badly, badly
    await play_step(h, where, vanguard)
    result = reports(h, where, BATTLE)[-1]
    assert any("is placed on the table: rolled" in line for line in full_log(result)), result.text
    await play_step(h, where, vanguard)
    assert len((await state_of(h, where)).terrain) == 2

    # Deployment: one unit a side at a time, alternately, placed by side orders.
    assert await kinds(h, h.alice, where) == {"place": "Place"}
    offered = await h.autocomplete(h.alice, "order give", "target", channel=where, kind="place",
                                   unit="Red", target="Red")  # fmt: skip
    assert {c["value"] for c in offered} >= {"Red Foot", "Red Horse"}
    outside = await refused_order(h, h.alice, where, "place", "Red", target="Red Foot", x=12,
                                  y=30)  # fmt: skip
    assert "must deploy inside" in outside, outside
    theirs = await refused_order(h, h.alice, where, "place", "Red", target="Blue Foot", x=12,
                                 y=6)  # fmt: skip
    assert "is not Red's" in theirs, theirs
    for _ in range(4):
        await play_step(h, where, vanguard)
    state = await state_of(h, where)
    assert {u.location for u in state.units} == {ON_TABLE}
    assert state.status.get("ready") is True  # the set-up hook ran
    assert state.cursor.turn == 1

    # The turns: activations, each command's moves one at a time, until the battle ends.
    seen_off = False
    for _ in range(40):
        try:
            state = await state_of(h, where)
        except NotFound:  # over: the channel has no battle in play
            break
        seen_off = seen_off or any(u.location == OFF_TABLE for u in state.units)
        await play_step(h, where, vanguard)
    else:
        pytest.fail("the battle did not end")
    assert seen_off  # the red horse was off the table for a while
    logged = [line for m in reports(h, where, BATTLE) for line in full_log(m)]
    assert any("leaves the table" in line for line in logged)
    assert any("comes back onto the table" in line for line in logged)
    assert any(line.startswith("Still to come:") for line in logged)

    # The battle ended on its own; its record verifies.
    (record_post,) = [
        m for m in h.messages(where) if any(f.filename == "record.json" for f in m.files)
    ]
    record = json.loads(next(f for f in record_post.files if f.filename == "record.json").data)
    assert record["ruleset"] == "vanguard" and record["seed"] == fixed_seed.hex()
    checked = verify(record)
    assert checked.ok, checked.problem
    assert checked.rolls > 10


async def test_a_sheet_ruleset_refuses_a_third_side(aide: Harness) -> None:
    h, where = aide, aide.channel("hundred-years")
    await h.slash(h.gm, "campaign create", channel=where, name="Hundred Years",
                  ruleset="tree_of_battles")  # fmt: skip
    await h.slash(h.alice, "campaign join", channel=where, side="English")
    await h.slash(h.bob, "campaign join", channel=where, side="French")
    third = await h.slash(h.outsider, "campaign join", channel=where, side="Burgundians")
    assert third.ephemeral and "take at most 2 sides" in third.content
    joined = await h.slash(h.outsider, "campaign join", channel=where, side="french")
    assert not joined.content.startswith("The Tree of Battles"), joined.content
