"""The Impetus pre-battle procedure through Discord, steps 1-10, with two players and a GM.

The battle starts with both armies in reserve and an empty table. The attacker roll shows its
mounted bonus; each side in turn gives a ``place_terrain`` order (a feature chosen by its
option, a spot, the exploration points it will spend), refused where the rules refuse it (not
its turn, the attacker within 8H of other terrain); the baggage goes down, defender first; the
battle plans are written and stay secret; the deployment roll is followed by the winner's
question; the commands deploy by ``place`` orders, biggest first. The first game turn opens
with every unit on the table. The seed is fixed (``fixed_seed``).
"""

from __future__ import annotations

import json

import pytest

from bot.services.campaigns import Place
from rules_core import engine
from rules_core.orders import Order
from rules_core.plugin import Rules
from rules_core.registry import get
from rules_core.state import ON_TABLE, RESERVE, BattleState
from tests.e2e.sheet_battle import (
    confirm,
    full_log,
    give,
    kinds,
    posts,
    refused_order,
    reports,
)
from tools.fake_discord import BotMessage, FakeUser
from tools.fake_discord.world import FakeChannel
from tools.harness import Harness

pytestmark = pytest.mark.usefixtures("fixed_seed")
BATTLE = "Gergovia"
# The FOOT table's features, row by row (the sheet's order), without duplicates.
FOOT_FEATURES = ["none", "small_brk", "small_dft", "small_gentle_hill", "road", "large_dft",
                 "large_brk", "small_imp", "large_imp", "river", "village"]  # fmt: skip
PLANS = {"a": "Red: hold the hill, the horse on the left.", "b": "Blue: rush the centre."}


def rules() -> Rules:
    found = get("impetus").rules
    assert found is not None
    return found


async def set_up(h: Harness, where: FakeChannel) -> None:
    """Campaign, players, the sample army files and the battle: created, not started."""
    await h.slash(h.gm, "campaign create", channel=where, name="Gallic War", ruleset="impetus")
    await h.slash(h.alice, "campaign join", channel=where, side="Red")
    await h.slash(h.bob, "campaign join", channel=where, side="Blue")
    names = []
    for user, army in zip((h.alice, h.bob), rules().sample_armies(), strict=True):
        upload = h.upload("army.json", json.dumps(army), "application/json")
        await h.slash(user, "army import", channel=where, file=upload)
        names.append(str(army["name"]))
    await h.slash(h.gm, "battle create", channel=where, name=BATTLE, army_a=names[0],
                  army_b=names[1])  # fmt: skip


async def state_of(h: Harness, where: FakeChannel) -> BattleState:
    services = h.bot.services  # type: ignore[union-attr]
    return (await services.battles.view(Place(h.world.guild_id, where.id))).state


def user_of(h: Harness, side: str) -> FakeUser:
    return {"a": h.alice, "b": h.bob}[side]


def options_for(state: BattleState, order: Order) -> dict[str, object]:
    """``/order give`` options for a set-up order as a player types them."""
    found: dict[str, object] = {"kind": order.kind, "unit": state.side(order.actor).name}
    params = order.params
    if "at" in params:
        x, y = params["at"]  # type: ignore[misc]
        found.update(x=x, y=y)
    if "feature" in params:
        found["option"] = params["feature"]
    if "ep" in params:
        found["option2"] = params["ep"]
    if "plan" in params:
        found["text"] = params["plan"]
    if "unit" in params:
        found["target"] = state.unit(str(params["unit"])).name
    return found


async def play_step(
    h: Harness, where: FakeChannel, orders: dict[str, list[Order]] | None = None
) -> None:
    """The players of the open step give their orders (the script's unless given) through
    Discord, each previewed, and confirm; questions that follow get their default answer."""
    state = await state_of(h, where)
    waiting = engine.waiting(rules(), state).sides
    assert waiting, state.cursor
    for side in waiting:
        given = (orders or {}).get(side)
        for order in given if given is not None else rules().demo_orders(state, side):
            options = options_for(state, order)
            kind, unit = str(options.pop("kind")), str(options.pop("unit"))
            await give(h, user_of(h, side), where, kind, unit, **options)
    await confirm(h, where, BATTLE, *(user_of(h, side) for side in waiting))
    await answer_defaults(h, where)


def asking(h: Harness, where: FakeChannel, text: str) -> BotMessage:
    """The one question showing its buttons whose text asks ``text``."""
    (asked,) = [
        m for m in posts(h, where)
        if text in m.text
        and any(c.get("custom_id", "").startswith("decide:") for c in m.interactive)
    ]  # fmt: skip
    return asked


async def answer_defaults(h: Harness, where: FakeChannel) -> None:
    """Every question showing its buttons answered by its side with the default (two asked
    at once, the deployment re-rolls, each in turn)."""
    for _ in range(8):
        state = await state_of(h, where)
        if state.pending is None:
            return
        for decision in state.pending.open:
            label = next(o.label for o in decision.options if o.id == decision.default)
            asked = asking(h, where, decision.question)
            clicked = await h.click(user_of(h, decision.who), asked, label=label)
            assert clicked.type == 7
            assert asked.content == f"Answered by {user_of(h, decision.who).mention}: **{label}**"


async def test_the_pre_battle_procedure_plays_through_discord(aide: Harness) -> None:
    h, where = aide, aide.channel("hundred-years")
    await set_up(h, where)
    started = await h.slash(h.gm, "battle start", channel=where)
    assert not started.ephemeral
    state = await state_of(h, where)
    assert {u.location for u in state.units} == {RESERVE} and not state.terrain

    # 1. The attacker roll: 2D6 with +1 for the two mounted units of each army.
    opening = "\n".join(line for p in posts(h, where) if p.embeds for line in full_log(p))
    assert "Attacker roll of Red: 2D6 (" in opening, opening
    assert "+1 2 mounted units (not EL, W), +1 per two rounded up" in opening, opening
    roles = {s.id: s.status["role"] for s in state.sides}
    defender = next(s for s, r in roles.items() if r == "defender")
    attacker = next(s for s, r in roles.items() if r == "attacker")
    assert state.cursor.step == "terrain_defender"

    # 2. The defender's terrain: the order's option offers the features of the table its
    # (foot) army rolls on, none of the Mtd table's (nor moving or removing enemy terrain,
    # a bridge or a ford: there is nothing to act on); option2 the exploration points it
    # has. The attacker waits.
    assert await kinds(h, user_of(h, defender), where) == {"place_terrain": "Place terrain"}
    offered = await h.autocomplete(user_of(h, defender), "order give", "option", channel=where,
                                   kind="place_terrain", option="")  # fmt: skip
    assert [c["value"] for c in offered] == FOOT_FEATURES, offered
    typed = await h.autocomplete(user_of(h, defender), "order give", "option", channel=where,
                                 kind="place_terrain", unit=state.side(defender).name,
                                 option="large")  # fmt: skip
    assert [c["value"] for c in typed] == ["large_dft", "large_brk", "large_imp"], typed
    points = await h.autocomplete(user_of(h, defender), "order give", "option2", channel=where,
                                  kind="place_terrain", option2="")  # fmt: skip
    assert [c["value"] for c in points] == ["0", "1", "2"], points
    attacking = state.side(attacker).name
    early = await refused_order(h, user_of(h, attacker), where, "place_terrain", attacking,
                                option="small_brk", x=15, y=10)  # fmt: skip
    assert (
        early
        == "It is not your turn to give orders: the 2. Terrain: the defender step waits for others."
    ), early
    await play_step(h, where)
    log = [line for m in reports(h, where, BATTLE)[-2:] for line in full_log(m)]
    assert any(
        line.startswith(f"Terrain of {state.side(defender).name} on the Terrain Table")
        for line in log
    ), log
    state = await state_of(h, where)
    assert state.cursor.step == "terrain_attacker"

    # 3. The attacker's terrain: refused within 8H of the defender's piece.
    piece = state.terrain[0]
    xs, ys = [x for x, _ in piece.points], [y for _, y in piece.points]
    near = await refused_order(h, user_of(h, attacker), where, "place_terrain",
                               state.side(attacker).name, option="small_imp",
                               x=max(xs) + 5, y=(min(ys) + max(ys)) / 2)  # fmt: skip
    assert "at least 8 H from other terrain" in near, near
    await play_step(h, where)
    await play_step(h, where)  # 4. the defender again
    state = await state_of(h, where)
    assert state.cursor.step == "baggage"
    assert state.cursor.subject is not None and state.cursor.subject.side == defender

    # 5. Baggage, defender first (the camp goes where the rules put it without an order).
    await play_step(h, where, {defender: []})
    await play_step(h, where, {attacker: []})
    state = await state_of(h, where)
    assert sorted(
        str(f.properties.get("baggage")) for f in state.terrain if f.properties.get("baggage")
    ) == ["a", "b"]

    # 6. Battle plans: sealed, then seen by their side and the GM alone.
    assert state.cursor.step == "battle_plan"
    await play_step(
        h, where, {s: [Order(s, "battle_plan", {"plan": PLANS[s]})] for s in ("a", "b")}
    )
    public = "\n".join(
        [p.text for p in posts(h, where)]
        + [f.text for p in posts(h, where) for f in p.files if f.filename.endswith(".txt")]
    )
    assert "Battle plans" in public
    assert PLANS["a"] not in public and PLANS["b"] not in public
    state = await state_of(h, where)
    assert state.hidden["a"]["battle_plan"] == PLANS["a"]
    red_unit = next(u.name for u in state.units if u.side == "a")
    own = await h.slash(h.alice, "battle unit", channel=where, name=red_unit)
    assert own.ephemeral and PLANS["a"] in own.content, own.content
    theirs = await h.slash(h.bob, "battle unit", channel=where, name=red_unit)
    assert theirs.ephemeral and PLANS["a"] not in theirs.content, theirs.content

    # 7. The deployment roll, with the unused exploration points; both armies were asked at
    # once whether to re-roll (Rome of Good CS, Gaul of Average), then the winner who deploys
    # first (each answered above with its default).
    words = ("keep both dice", "re-roll the first die", "re-roll the second die",
             "re-roll both dice")  # fmt: skip
    rerolls = [m.content for m in posts(h, where) if any(f"**{w}" in m.content for w in words)]
    assert sorted(rerolls) == sorted(
        f"Answered by {u.mention}: **keep both dice**" for u in (h.alice, h.bob)
    ), rerolls
    log = [line for m in reports(h, where, BATTLE)[-3:] for line in full_log(m)]
    assert any("Deployment roll of Red: 2D6 (" in line for line in log), log
    assert any("unused exploration points" in line for line in log), log
    state = await state_of(h, where)
    first = state.status["deploy_first"]
    assert state.cursor.step == "deploy_first" and state.cursor.subject.side == first  # type: ignore[union-attr]

    # 8-10. The commands deploy: a unit of another command, or outside the zone, is refused.
    other = next(u for u in state.units if u.side == first and u.group != state.cursor.subject.id)  # type: ignore[union-attr]
    wrong = await refused_order(h, user_of(h, first), where, "place", state.side(first).name,
                                target=other.name, x=8, y=2)  # fmt: skip
    assert "the command deploying now" in wrong, wrong
    for _ in range(8):
        state = await state_of(h, where)
        if state.cursor.segment != "setup":
            break
        await play_step(h, where)
    state = await state_of(h, where)
    assert state.cursor.turn == 1 and {u.location for u in state.units} == {ON_TABLE}
    assert state.status.get("ready") is True
