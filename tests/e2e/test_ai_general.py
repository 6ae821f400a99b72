"""The AI general through Discord (#36): a GM hands a side to the AI and back; a missed
deadline under the `ai` policy; the refusals.

The battle is Hail Caesar's Gergovia (test_hail_caesar_turn.py): Alice plays Rome, Bob Gaul.
"""

from __future__ import annotations

import json
from datetime import timedelta

import pytest

from rules_core.verify import verify
from tests.e2e.sheet_battle import posts, reports, start
from tests.e2e.test_hail_caesar_turn import (
    ARMIES,
    BATTLE,
    GALLIC_DEPLOYMENT,
    GAULS,
    ROMAN_DEPLOYMENT,
    ROMANS,
    set_up,
)
from tools.fake_discord import BotMessage
from tools.harness import Harness

AI_POST = (
    "🤖 The AI stand-in's orders and answers in the step just resolved:"  # then one line an order
)
pytestmark = pytest.mark.usefixtures("fixed_seed")


def ai_posts(h: Harness) -> list[BotMessage]:
    """The posts giving the AI's orders of a resolved step with their reasons."""
    return [p for p in posts(h, h.channel("punic-wars")) if p.content.startswith(AI_POST)]


async def until_not_her_turn(h: Harness) -> str:
    """Alice confirms Rome's steps (no orders: the defaults) until the battle waits for
    someone else; what she is told then."""
    for _ in range(20):
        done = await h.slash(h.alice, "order done", channel=h.channel("punic-wars"))
        assert done.ephemeral
        if not done.content.startswith("Confirmed"):
            return done.content
    raise AssertionError("Rome's steps never ended")


async def through_turn(h: Harness, turn: int) -> list[str]:
    """Alice confirms Rome's steps until Gaul's part of game turn ``turn`` has resolved (the
    AI playing it at once); the titles of every step result so far."""
    for _ in range(20):
        titles = [p.embeds[0]["title"] for p in reports(h, h.channel("punic-wars"), BATTLE)]
        if titles and titles[-1] == f"{BATTLE} — Turn {turn} · Shooting (Gaul)":
            return titles
        done = await h.slash(h.alice, "order done", channel=h.channel("punic-wars"))
        assert done.ephemeral and done.content.startswith("Confirmed"), done.content
    raise AssertionError(f"turn {turn} never came")


async def test_a_gm_hands_a_side_to_the_ai_and_takes_it_back(
    aide: Harness, fixed_seed: bytes
) -> None:
    h, where = aide, aide.channel("punic-wars")
    await set_up(h)
    offered = await h.autocomplete(h.gm, "battle hand-over", "member", channel=where, member="ai")
    assert [c["value"] for c in offered] == ["ai"]
    given = await h.slash(h.gm, "battle hand-over", channel=where, side="Gaul", member="ai")
    assert not given.ephemeral
    assert given.content.startswith(
        f"🤖 The AI general now plays **Gaul** instead of {h.bob.mention}"
    )
    await start(h, where, BATTLE, fixed_seed)
    # Rome's whole turn passes; Gaul's part is played by the AI at once, as each step opens.
    titles = await through_turn(h, 1)
    assert f"{BATTLE} — Turn 1 · Command: Orders — Warbands (Gaul)" in titles  # by the AI
    shown = ai_posts(h)
    assert shown, "the AI's orders were given and explained once their step resolved"
    assert " — " in shown[0].content.splitlines()[1]  # each with its reason

    # Bob is back: the GM hands Gaul back to him; the AI gives no more orders.
    back = await h.slash(h.gm, "battle hand-over", channel=where, side="Gaul", member=h.bob.mention)
    assert back.content.startswith(f"{h.bob.mention} now plays **Gaul** instead of the AI")
    before = len(ai_posts(h))
    await until_not_her_turn(h)
    last = reports(h, where, BATTLE)[-1]
    assert h.bob.mention in last.text  # Gaul's step waits for Bob again
    assert len(ai_posts(h)) == before


async def test_a_missed_deadline_under_the_ai_policy_has_the_ai_stand_in_orders(
    aide: Harness, fixed_seed: bytes
) -> None:
    h, where = aide, aide.channel("punic-wars")
    await set_up(h)
    policy = await h.slash(h.gm, "campaign deadlines", channel=where, missing="ai")
    assert not policy.ephemeral, policy.content
    await start(h, where, BATTLE, fixed_seed)
    await h.slash(h.alice, "order done", channel=where)
    await h.slash(h.bob, "order done", channel=where)
    await until_not_her_turn(h)  # Rome's steps pass
    # Bob gives Gaul no orders: at the deadline the AI stand-in gives them.
    await h.advance(timedelta(hours=49))
    timed_out = reports(h, where, BATTLE)[-1]
    assert "Resolved: deadline: orders by the AI stand-in" in timed_out.text
    assert "defaults applied" not in timed_out.text
    assert not ai_posts(h)  # at the General Advance the AI ordered none (the default stood)
    await h.advance(timedelta(hours=49))  # the warbands' orders: the AI gives them
    warbands = reports(h, where, BATTLE)[-1]
    assert warbands.embeds[0]["title"] == f"{BATTLE} — Turn 1 · Command: Orders — Warbands (Gaul)"
    assert "Resolved: deadline: orders by the AI stand-in" in warbands.text
    (explained,) = ai_posts(h)
    assert "Warband**: " in explained.content and " — " in explained.content
    book = await h.slash(h.alice, "orders all", channel=where)  # everyone's, once resolved
    assert "(AI: " in book.content, book.content


async def test_handing_to_the_ai_is_refused_to_a_player_and_for_no_one(
    aide: Harness, fixed_seed: bytes
) -> None:
    h, where = aide, aide.channel("punic-wars")
    await set_up(h)
    by_player = await h.slash(h.alice, "battle hand-over", channel=where, side="Gaul", member="ai")
    assert by_player.ephemeral and "GM" in by_player.content
    no_one = await h.slash(h.gm, "battle hand-over", channel=where, side="Gaul", member="zzz")
    assert no_one.ephemeral
    assert no_one.content == (
        "`zzz` names no one: give a member (`@them`, as offered) or `ai` for the AI general."
    )
    _, opened = await start(h, where, BATTLE, fixed_seed)  # Gaul still Bob's: it waits for him
    assert h.bob.mention in opened.text


def ended(h: Harness) -> list[BotMessage]:
    """The post that ends the battle (its result with the record)."""
    found = posts(h, h.channel("punic-wars"))
    return [p for p in found if any(e["title"].startswith("🏁") for e in p.embeds)]


async def solo_set_up(h: Harness) -> BotMessage:
    """Alice alone against the AI: the campaign lasts two turns, the GM brings Gaul's army,
    a name that is no side is refused (no battle made), then the battle with the AI as Gaul."""
    where = h.channel("punic-wars")
    await h.slash(h.gm, "campaign create", channel=where, name="Gallic War", ruleset="hail_caesar")
    await h.slash(h.gm, "campaign rules set", channel=where, name="max_turns", value="2")
    await h.slash(h.alice, "campaign join", channel=where, side="Rome")
    await h.slash(h.gm, "campaign join", channel=where, side="Gaul")  # to bring Gaul's army
    for user, name in ((h.alice, "romans"), (h.gm, "gauls")):
        upload = h.upload(f"{name}.yaml", ARMIES.joinpath(f"{name}.yaml").read_bytes())
        await h.slash(user, "army import", channel=where, file=upload)
    armies = {"name": BATTLE, "army_a": ROMANS, "army_b": GAULS}
    no_side = await h.slash(h.gm, "battle create", channel=where, **armies, ai_side="Carthage")
    assert no_side.ephemeral and no_side.content.startswith(
        "No side called **Carthage** in this battle; one of: "
    ), no_side.content
    assert "No battles" in (await h.slash(h.gm, "battle list", channel=where)).text
    created = await h.slash(h.gm, "battle create", channel=where, **armies, ai_side="gaul")
    assert "The AI general — Arverni (sample)" in created.text, created.text
    roman = h.upload("roman-deployment.yaml", ROMAN_DEPLOYMENT)
    gallic = h.upload("gallic-deployment.json", json.dumps(GALLIC_DEPLOYMENT))
    for user, upload in ((h.alice, roman), (h.gm, gallic)):
        deployed = await h.slash(user, "battle deploy-file", channel=where, file=upload)
        assert deployed.ephemeral and deployed.content.startswith("Deployed"), deployed.content
    return created


async def test_a_solo_battle_plays_to_its_end_against_the_ai(
    aide: Harness, fixed_seed: bytes
) -> None:
    await solo_set_up(aide)
    h, where = aide, aide.channel("punic-wars")
    published = (await start(h, where, BATTLE, fixed_seed))[0]
    for _ in range(40):  # Alice confirms her steps; the AI answers each of its own at once
        if ended(h):
            break
        done = await h.slash(h.alice, "order done", channel=where)
        assert done.ephemeral and done.content.startswith("Confirmed"), done.content
    (ending,) = ended(h)
    assert (
        ending.embeds[-1]["title"]
        == f"🏁 {BATTLE}: A draw: 2 turns played with neither army broken"
    )
    assert ai_posts(h), "the AI's orders, explained after each of its steps"
    (kept,) = [f for f in ending.files if f.filename == "record.json"]
    record = json.loads(kept.data)
    assert record["seed_sha256"] == published
    checked = verify(record)
    assert checked.ok, checked.problem
