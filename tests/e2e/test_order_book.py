"""/orders all: every side's orders, sealed until their step resolves (a GM sees them at once)."""

from __future__ import annotations

from tools.harness import Harness
from tools.skirmish_battle import open_questions, order, set_up_battle


async def test_orders_sealed_to_players_until_their_step_resolves(aide: Harness) -> None:
    where = aide.channel("punic-wars")
    await set_up_battle(aide, where)
    early = await aide.slash(aide.alice, "orders all", channel=where)
    assert early.ephemeral and "has not started" in early.text and "/battle start" in early.text
    await aide.slash(aide.gm, "battle start", channel=where)
    await order(aide, aide.alice, where, "place", unit="Red Archers", x=26, y=11)

    gm_view = await aide.slash(aide.gm, "orders all", channel=where)
    assert gm_view.ephemeral
    assert gm_view.text.splitlines() == [
        "Orders given so far for **Set-up · Deployment** (sealed: only GMs see them):",
        f"Red · **Red Archers** (place): deploys at (26, 11) facing 0° — {aide.alice.mention}",
    ]
    for reader in (aide.bob, aide.alice, aide.outsider):  # the giver too: no one but GMs
        sealed = await aide.slash(reader, "orders all", channel=where)
        assert sealed.ephemeral and "Red Archers" not in sealed.text
        assert sealed.text.startswith("No step has resolved yet. Orders stay sealed")

    await aide.slash(aide.alice, "order done", channel=where)
    await aide.slash(aide.bob, "order done", channel=where)  # deployment resolves; a question
    stopped = await aide.slash(aide.bob, "orders all", channel=where)
    assert stopped.text.splitlines() == [
        "Orders of **Set-up · Deployment**, which waits for an answer: only your side's "
        "(the others' show once it resolves):",
        "none of your side's",
    ]
    own = await aide.slash(aide.alice, "orders all", channel=where)
    assert "**Red Archers** (place)" in own.text
    gm_stopped = await aide.slash(aide.gm, "orders all", channel=where)
    assert gm_stopped.text.splitlines() == [
        "Orders given so far for **Set-up · Deployment** (sealed: only GMs see them):",
        f"Red · **Red Archers** (place): deploys at (26, 11) facing 0° — {aide.alice.mention}",
    ]
    (question,) = open_questions(aide, where)
    winner = aide.bob if aide.bob.mention in question.content else aide.alice  # initiative
    await aide.click(winner, question, label="go first")
    opened = await aide.slash(aide.bob, "orders all", channel=where)
    assert opened.text.splitlines() == [
        "Orders of the last step resolved, **Set-up · Deployment**:",
        f"Red · **Red Archers** (place): deploys at (26, 11) facing 0° — {aide.alice.mention}",
    ]
    gm_now = await aide.slash(aide.gm, "orders all", channel=where)
    assert gm_now.text.startswith("Orders given so far for **Turn 1")
    assert "none yet" in gm_now.text and "Red Archers" not in gm_now.text


async def test_outside_a_battle_the_order_book_is_refused_privately(aide: Harness) -> None:
    refused = await aide.slash(aide.gm, "orders all", channel=aide.channel("general"))
    assert refused.ephemeral and "no campaign in this channel" in refused.text
