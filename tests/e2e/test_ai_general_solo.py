"""A solo skirmish against the AI general through Discord (#36): after `/battle create
ai_side:` and `/battle start`, every time the AI's side is awaited it answers in the same flow,
so Alice's orders and confirmations resolve each step at once (no deadline waited for), to the
battle's end, whose record verifies. Hail Caesar's solo battle is in test_ai_general.py."""

from __future__ import annotations

import json

import pytest

from rules_core.verify import verify
from tests.e2e.sheet_battle import start
from tools.fake_discord import BotMessage
from tools.harness import Harness
from tools.skirmish_battle import (
    BATTLE,
    BLUE_DEPLOYMENT,
    RED_DEPLOYMENT,
    posts,
    reports,
    skirmish_campaign,
)

pytestmark = pytest.mark.usefixtures("fixed_seed")
AI_POST = "🤖 The AI stand-in's orders and answers in the step just resolved:"
MOST_STEPS = 150  # Alice's confirmations at most: the AI ends it long before


def ended(h: Harness) -> list[BotMessage]:
    """The post that ends the battle (its result with the record)."""
    found = posts(h, h.channel("hundred-years"))
    return [p for p in found if any(e["title"].startswith("🏁") for e in p.embeds)]


async def solo_set_up(h: Harness) -> None:
    """Alice (Red) alone against the AI: Bob brought Blue's army; the GM creates the battle
    with the AI as Blue and deploys it from its file."""
    where = h.channel("hundred-years")
    await skirmish_campaign(h, where)
    created = await h.slash(
        h.gm, "battle create", channel=where, name=BATTLE,
        army_a="Red Host", army_b="Blue Host", ai_side="Blue",
    )  # fmt: skip
    assert "The AI general — Blue Host" in created.text, created.text
    for unit, at in RED_DEPLOYMENT.items():
        deployed = await h.slash(h.alice, "battle deploy", channel=where, unit=unit, at=at)
        assert deployed.ephemeral, deployed.content
    blue = h.upload("blue-deployment.json", json.dumps(BLUE_DEPLOYMENT))
    deployed = await h.slash(h.gm, "battle deploy-file", channel=where, file=blue)
    assert deployed.ephemeral and deployed.content == "Deployed 3 units.", deployed.content


async def test_a_solo_skirmish_resolves_at_once_and_plays_to_its_end(
    aide: Harness, fixed_seed: bytes
) -> None:
    h, where = aide, aide.channel("hundred-years")
    await solo_set_up(h)
    published = (await start(h, where, BATTLE, fixed_seed))[0]
    began = h.clock.now()
    # Alice re-places her archers and confirms: the AI has deployed Blue: the step resolves.
    placed = await h.slash(
        h.alice, "order give", channel=where, kind="place", unit="Red Archers", x=26, y=6
    )
    assert placed.ephemeral and placed.content.startswith("✅ **Red Archers**"), placed.content
    done = await h.slash(h.alice, "order done", channel=where)
    assert done.content == "Confirmed: every order is in, resolving.", done.content
    (deployment, *_) = reports(h, where)
    assert "Resolved: all orders confirmed" in deployment.text, deployment.text
    for _ in range(MOST_STEPS):  # Alice confirms her steps (or answers); the AI its own
        if ended(h):
            break
        done = await h.slash(h.alice, "order done", channel=where)
        if not done.content.startswith("Confirmed"):  # a question of hers: the first that fits
            for choice in ("first", "stand"):  # the initiative, a charge at her unit
                await h.slash(h.alice, "answer", channel=where, answer=choice)
    (ending,) = ended(h)
    assert ending.embeds[-1]["title"] == f"🏁 {BATTLE}: Blue wins: every other army has broken"
    explained = [p.content for p in posts(h, where) if p.content.startswith(AI_POST)]
    answers = [line for p in explained for line in p.splitlines() if " → " in line]
    assert answers and all(" — " in line for line in answers)  # its answers, with why
    assert h.clock.now() == began  # no deadline waited for: the AI answered in the same flow
    triggers = {
        line for r in reports(h, where) for line in r.text.splitlines() if "Resolved:" in line
    }
    assert not any("deadline" in t for t in triggers), triggers
    (kept,) = [f for f in ending.files if f.filename == "record.json"]
    record = json.loads(kept.data)
    assert record["seed_sha256"] == published
    checked = verify(record)
    assert checked.ok, checked.problem
