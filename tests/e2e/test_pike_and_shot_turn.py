"""One turn of pike and shot through Discord: two players and a GM, the sample army files,
wing orders, a move planned ahead, the melee it brings and its question, then a verified record.

Edgehill on the ruleset's usual 72 by 48 inch table. The seed is fixed (``fixed_seed``), so the
dice are the same on every run.
"""

from __future__ import annotations

import json
from importlib.resources import files

import pytest

from rules_core.rulesets.pike_and_shot import sample
from tests.e2e.sheet_battle import (
    Army,
    answer,
    check_post,
    confirm,
    end_and_verify,
    full_log,
    give,
    kinds,
    question,
    refused_order,
    reports,
    set_up_battle,
    start,
)
from tools.harness import Harness

pytestmark = pytest.mark.usefixtures("fixed_seed")
BATTLE = "Edgehill"
ARMIES = files("rules_core.rulesets.pike_and_shot").joinpath("armies")
KING, PARLIAMENT = "The King's Army", "The Army of Parliament"


def deployment(army: str, places: tuple[tuple[float, float], ...]) -> list[dict]:
    """A sample army's units where the sample battle (sample.py) stands them."""
    units = json.loads(ARMIES.joinpath(f"{army}.json").read_text(encoding="utf-8"))["units"]
    return [{"unit": u["name"], "at": list(xy)} for u, xy in zip(units, places, strict=True)]


KINGS_DEPLOYMENT = deployment("royalists", sample.ROYALISTS_AT)
PARLIAMENT_DEPLOYMENT = deployment("parliament", sample.PARLIAMENT_AT)


async def set_up(h: Harness) -> None:
    """Campaign, the King and Parliament, the sample army files, the battle and deployment."""
    await set_up_battle(h, h.channel("hundred-years"), "Civil War", "pike_and_shot", BATTLE, (
        Army(h.alice, "King", ARMIES.joinpath("royalists.json"), KING, KINGS_DEPLOYMENT),
        Army(h.bob, "Parliament", ARMIES.joinpath("parliament.json"), PARLIAMENT,
             PARLIAMENT_DEPLOYMENT),
    ))  # fmt: skip


def title(step: str) -> str:
    """A step result's title: the battle, the turn and the step."""
    return f"{BATTLE} — Turn 1 · {step}"


async def test_a_turn_of_pike_and_shot_through_discord(aide: Harness, fixed_seed: bytes) -> None:
    """Wing orders, with a move planned ahead for Movement; the horse charges home, the melee
    and its questions; /battle status; commanders move; then the GM ends it and the record
    verifies."""
    h, where = aide, aide.channel("hundred-years")
    await set_up(h)
    published, opened = await start(h, where, BATTLE, fixed_seed)
    check_post(h, opened, f"⚔️ {BATTLE} begins", "Deployment", [h.alice, h.bob])
    moved = await h.slash(
        h.gm, "gm move", channel=where, unit="Holles's Redcoats", at="8,20", reason="forlorn hope"
    )
    assert not moved.ephemeral, moved
    deployed = await confirm(h, where, BATTLE, h.alice, h.bob)
    check_post(h, deployed, f"{BATTLE} — Set-up · Deployment", "Orders", [h.alice, h.bob])

    # Orders: each side orders its wings (a wing is the actor); the King's foot holds.
    assert await kinds(h, h.alice, where) == {"wing_order": "Wing order"}
    held = await give(h, h.alice, where, "wing_order", "Royal foot", option="hold")
    assert held == "Royal foot: Attack → Hold"
    wrong = await refused_order(h, h.alice, where, "wing_order", "Royal foot", option="charge")
    assert "choose one of attack, hold, withdraw" in wrong
    # The horse's move planned ahead for Movement, in the same visit.
    steps = await h.autocomplete(h.alice, "order give", "step", channel=where, step="")
    names = [c["name"] for c in steps]  # this turn's, then the next turn's (#40)
    assert names[:4] == ["Orders", "Movement", "Combat", "Commanders move"]
    assert names[4:] == [f"Next turn: {name}" for name in names[:4]]
    planned = await h.slash(
        h.alice, "order give", channel=where, kind="move", unit="Wilmot's Horse",
        path="8,22", step=steps[1]["value"],
    )  # fmt: skip
    assert planned.ephemeral and planned.content.startswith(
        "🗓️ Planned for **Movement** — **Wilmot's Horse**: Wilmot's Horse moves 17\" of its 18\"\n"
        "• it will stop in contact with Holles's Redcoats (the attacker in melee)"
    ), planned.content
    attack = await give(h, h.bob, where, "wing_order", "Parliament foot", option="attack")
    assert attack == "Parliament foot: Hold → Attack"
    ordered = await confirm(h, where, BATTLE, h.alice, h.bob)
    check_post(h, ordered, title("Orders"), "Movement", [h.alice, h.bob])
    assert full_log(ordered)[1:] == [
        "Royal foot: wing order attack → hold",
        "Parliament foot: wing order hold → attack",
    ]

    # Movement: both sides at once; the planned move stops in contact: the attacker.
    assert await kinds(h, h.alice, where) == {
        "move": "Move (to a point, or along a path)",
        "hold": "Hold",
        "return": "Return to the table after a pursuit",
    }
    toward = await refused_order(h, h.alice, where, "move", "Astley's Tercio", path="24,12")
    assert "its wing is under Hold orders: no move toward the enemy" in toward
    marched = await confirm(h, where, BATTLE, h.alice, h.bob)
    log = full_log(marched)
    assert log[:3] == [
        "— Turn 1: Movement —",
        "Wilmot's Horse moves 13\" to (8, 18) facing 0°; stops in contact",
        "Wilmot's Horse: moved into contact this turn (moved into contact with Holles's Redcoats)",
    ]

    # Combat follows at once (no shooter has a choice of targets): the melee, its recoil, and
    # the questions of the advance and its facing.
    assert "— Turn 1: Combat —" in log
    assert (
        "Melee result (Wilmot's Horse 2 unsaved hits, Holles's Redcoats 1) for Wilmot's Horse: "
        "1 → 1: Scores differ by one hit = Recoil."
    ) in log
    assert "Holles's Redcoats moves 4\" to (8, 24) facing 180°; recoils" in log
    asked = question(h, where)
    assert asked.content.startswith(
        f"{h.alice.mention}: Wilmot's Horse may advance into the ground Holles's Redcoats left"
    )
    assert [c["label"] for c in asked.interactive] == [
        "advance into the vacated ground", "stay where it is",
    ]  # fmt: skip
    intruder = await h.click(h.bob, asked, label="stay where it is")
    assert intruder.ephemeral and intruder.content == "This question is not yours to answer."
    after = await answer(h, where, BATTLE, h.alice, asked, "advance into the vacated ground")
    assert full_log(after)[:2] == [
        "King chose advance",
        "Wilmot's Horse moves 2\" to (8, 20) facing 0°; advances into the vacated ground",
    ]
    asked = question(h, where)
    assert [c["label"] for c in asked.interactive] == [
        "keep its facing (0°)", "turn 90° left (270°)", "turn 90° right (90°)",
    ]  # fmt: skip
    faced = await answer(h, where, BATTLE, h.alice, asked, "turn 90° right (90°)")
    log = full_log(faced)
    check_post(h, faced, title("Combat"), "Commanders move", [h.alice, h.bob])
    assert "Wilmot's Horse moves 0\" to (8, 20) facing 90°; changes facing" in log
    for step in ("Risk to commanders", "Reform", "Fatigue", "General Will", "Replace commanders"):
        assert f"— Turn 1: {step} —" in log
    assert (
        "Fatigue for Royal foot: -2, passed (7-: 7 or less: the wing is unaffected and "
        "continues as normal)" in log
    )

    # The side panel of /battle status shows the wings' orders and the commanders.
    status = await h.slash(h.alice, "battle status", channel=where)
    king = status.embeds[0]["fields"][0]["value"]
    assert "Royal foot: wing order: hold" in king and "Prince Rupert: rank: army" in king

    # Commanders move: Meldrum rides to Essex's Foot and attaches to it.
    assert await kinds(h, h.bob, where) == {
        "command_move": "Commander moves", "stay": "Commander stays",
    }  # fmt: skip
    attached = await give(
        h, h.bob, where, "command_move", "Sir John Meldrum", x=34, y=43, target="Essex's Foot"
    )
    assert attached == 'Sir John Meldrum moves 8.2" of 24" and attaches to Essex\'s Foot'
    moved_on = await confirm(h, where, BATTLE, h.alice, h.bob)
    check_post(h, moved_on, title("Commanders move"), "Orders", [h.alice, h.bob])
    assert full_log(moved_on) == [
        "— Turn 1: Commanders move —", 'Sir John Meldrum moves 8.2" to (34, 43)',
    ]  # fmt: skip
    # One result per resolution: Movement (on into Combat), then each answer's continuation.
    assert [r.embeds[0]["title"] for r in reports(h, where, BATTLE)][-6:] == [
        f"{BATTLE} — Set-up · Deployment",
        title("Orders"),
        title("Movement"),
        title("Combat"),
        title("Combat"),
        title("Commanders move"),
    ]

    ending, _ = await end_and_verify(h, where, BATTLE, fixed_seed, published, "pike_and_shot")
    assert ending.embeds[0]["title"] == f"🏁 {BATTLE}: A draw: one turn played"
