"""One turn of The Tree of Battles through Discord, from the sample armies to a verified record.

Agincourt, on the usual 24 by 16 SF table, laid out as in the services test
(tests/bot/test_tree_of_battles_battle.py). Both sides act in each phase. The seed is fixed
(``fixed_seed``), so the dice are the same on every run: York's Vaward counter-charges
Vendôme's Horse, wins and pursues it; the Horse fell back, so it stays in mêlée (only retiring
troops caught by pursuers break).
"""

from __future__ import annotations

import json
from datetime import timedelta
from importlib.resources import files

import pytest

from tests.e2e.sheet_battle import (
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
    roll_of,
    rolls,
    start,
)
from tools.fake_discord import BotMessage
from tools.harness import Harness
from tools.skirmish_battle import field, lines

pytestmark = pytest.mark.usefixtures("fixed_seed")
BATTLE = "Agincourt"
ARMIES = files("rules_core.rulesets.tree_of_battles").joinpath("armies")
ENGLAND, FRANCE = "The English at Agincourt, 1415", "The French at Agincourt, 1415"
# The services test's layout: the English along the south edge (y 0-4), the French the north.
ENGLISH_DEPLOYMENT = [
    {"unit": "Right-wing Archers", "at": [5.5, 3]},
    {"unit": "York's Vaward", "at": [8.5, 3]},
    {"unit": "The King's Battle", "at": [12, 3]},
    {"unit": "Camoys' Rearward", "at": [15.5, 3]},
    {"unit": "Left-wing Archers", "at": [18.5, 3]},
    {"unit": "Baggage Train", "at": [12, 1]},
]
FRENCH_DEPLOYMENT = """\
- {unit: "Vendôme's Horse", at: [4, 13.5]}
- {unit: "The Constable's Vanguard", at: [9, 13.5]}
- {unit: Genoese Crossbowmen, at: [12, 13.5]}
- {unit: "Alençon's Main Battle", at: [15, 13.5]}
- {unit: Bombards, at: [20, 15]}
- {unit: Brigands, at: [22, 14]}
"""
COMMAND_KINDS = {
    "leader_move": "Move (1 CP): join or influence a contingent",
    "steady": "Steady (2 CPs): remove 2 DPs within 1 SF",
    "control": "Control (2 CPs): influence a control test within 1 SF",
    "new_orders": "Issue or listen to new orders (2 CPs)",
}


def title(step: str) -> str:
    """A step result's title: the battle, the turn and the step (no side: both act)."""
    return f"{BATTLE} — Turn 1 · {step}"


async def set_up(h: Harness) -> None:
    """Campaign, England and France, the sample army files, the battle, a wood, deployment."""
    where = h.channel("hundred-years")
    created = await h.slash(
        h.gm, "campaign create", channel=where, name="Hundred Years", ruleset="tree_of_battles"
    )
    assert "**The Tree of Battles** (`tree_of_battles`)" in created.text
    await h.slash(h.alice, "campaign join", channel=where, side="England")
    await h.slash(h.bob, "campaign join", channel=where, side="France")
    for user, name, army in ((h.alice, "english", ENGLAND), (h.bob, "french", FRANCE)):
        upload = h.upload(f"{name}.json", ARMIES.joinpath(f"{name}.json").read_bytes())
        imported = await h.slash(user, "army import", channel=where, file=upload)
        assert imported.content == f"{user.mention} imported **{army}** (6 units)."

    offered_a = await h.autocomplete(h.gm, "battle create", "army_a", channel=where, army_a="engl")
    offered_b = await h.autocomplete(h.gm, "battle create", "army_b", channel=where, army_b="fren")
    assert [c["value"] for c in offered_a] == [ENGLAND]
    assert [c["value"] for c in offered_b] == [FRANCE]
    created = await h.slash(
        h.gm, "battle create", channel=where, name=BATTLE,
        army_a=offered_a[0]["value"], army_b=offered_b[0]["value"],
    )  # fmt: skip
    assert created.embeds[0]["title"] == f"{BATTLE} (setup)"
    assert "24 × 16 SF" in created.text  # the ruleset's usual table
    await h.slash(
        h.gm, "battle terrain add", channel=where,
        kind="wood", shape="rectangle", at="1,9", size="2,5", name="Azincourt",
    )  # fmt: skip

    english = h.upload("english-deployment.json", json.dumps(ENGLISH_DEPLOYMENT))
    french = h.upload("french-deployment.yaml", FRENCH_DEPLOYMENT)
    for user, upload in ((h.alice, english), (h.bob, french)):
        deployed = await h.slash(user, "battle deploy-file", channel=where, file=upload)
        assert deployed.ephemeral and deployed.content == "Deployed 6 units."


async def command_phase(h: Harness) -> BotMessage:
    """Two command rounds: York issues new orders, then cannot pay for a steady; control tests."""
    where = h.channel("hundred-years")
    assert await kinds(h, h.alice, where) == COMMAND_KINDS
    leaders = await h.autocomplete(h.alice, "order give", "unit", channel=where, unit="york")
    assert [c["value"] for c in leaders] == ["York's Vaward", "Edward, Duke of York"]
    shot = await refused_order(h, h.alice, where, "shoot", "Right-wing Archers", target="Bombards")
    assert shot == (
        "**Right-wing Archers** cannot shoot: shoot orders are not given in the Command step;"
        " it takes only leader_move, steady, control or new_orders.\n"
        "➡️ The same order is taken later this turn: give it again with `step:Shooting`."
    )
    preview = await give(
        h, h.alice, where, "new_orders", "Edward, Duke of York",
        option="hold the line behind the stakes",
    )  # fmt: skip
    assert preview == (
        "Edward, Duke of York issues new orders (2 CPs): hold the line behind the stakes"
    )
    first = await confirm(h, where, BATTLE, h.alice, h.bob)
    check_post(h, first, title("Command — action 1"), "Command — action 2", [h.alice, h.bob])
    assert lines(first) == [
        "— Turn 1: Command (action 1) —",
        "Edward, Duke of York: orders: hold the line behind the stakes "
        "(issue or listen to new orders)",
    ]

    # The second round: York has 1 CP left of his 3, and a steady costs 2.
    broke = await refused_order(
        h, h.alice, where, "steady", "Edward, Duke of York", target="York's Vaward"
    )
    assert broke == (
        "**Edward, Duke of York** cannot steady: Edward, Duke of York has 1 CP left; "
        "steady costs 2.\n"
        "➡️ Orders it can take now (`/order give kind:…`): new_orders."
    )
    second = await confirm(h, where, BATTLE, h.bob, h.alice)
    check_post(h, second, title("Command — action 2"), "Approach", [h.alice, h.bob])
    summary = lines(second)
    assert summary[:2] == ["— Turn 1: Command (action 2) —", "— Turn 1: Command: control tests —"]
    # Out of command: a control test each, D6 with its modifiers, then the table's row.
    assert "Control test: Bombards (out of command): D6 (5) = 5" in summary
    assert "Control test: Brigands (out of command): D6 (5) -1 D grade = 4" in summary
    assert "Bombards: control test result: repeat (control test 5)" in summary
    brigands = [line for line in summary if " for Brigands: " in line]
    assert brigands == [
        "Control test (beyond 1 SF of captain or 2 SF of marshal unless part of a continuous "
        "line connected to the leader's stand) for Brigands: 4, passed (3-4: Act as player "
        "wishes)"
    ]
    assert {r.label for r in rolls(second)} == {
        "Control test: Bombards (out of command)",
        "Control test: Brigands (out of command)",
    }
    return second


async def approach_and_shooting(h: Harness) -> None:
    """France marches (not too far) and its bombards shoot; England has no shot in range."""
    where = h.channel("hundred-years")
    assert await kinds(h, h.bob, where) == {
        "march": "March move (foot 4 SF, mounted 6 SF)",
        "hold": "Hold",
    }
    # An order of another step is refused with the orders this step does take.
    wrong = await refused_order(h, h.bob, where, "move", "Vendôme's Horse", x=4, y=11)
    assert wrong == (
        "**Vendôme's Horse** cannot move: move orders are not given in the Approach step;"
        " it takes only march or hold.\n"
        "➡️ The same order is taken later this turn: give it again with "
        "`step:Tactical movement`."
    )
    too_far = await refused_order(h, h.bob, where, "march", "Vendôme's Horse", x=4, y=5)
    assert too_far == (
        "**Vendôme's Horse** cannot march: 8.5 SF is beyond the 6 SF march move.\n"
        "➡️ Orders it can take now (`/order give kind:…`): hold."
    )
    marched = await give(h, h.bob, where, "march", "Vendôme's Horse", x=4, y=10.5)
    assert marched == "marches 3 SF to (4, 10.5)"
    marched = await give(h, h.bob, where, "march", "The Constable's Vanguard", x=9, y=11)
    assert marched == "marches 2.5 SF to (9, 11)"
    approached = await confirm(h, where, BATTLE, h.alice, h.bob)
    check_post(h, approached, title("Approach"), "Shooting", [h.bob])
    assert lines(approached) == [
        "— Turn 1: Approach —",
        "Vendôme's Horse moves 3 SF to (4, 10.5) facing 180°; march move",
        "The Constable's Vanguard moves 2.5 SF to (9, 11) facing 180°; march move",
    ]

    # Only France has anything in range: England is not asked for shooting orders.
    idle = await h.slash(h.alice, "order done", channel=where)
    assert idle.ephemeral
    assert idle.content == "It is not your turn to give orders: the Shooting step waits for others."
    assert await kinds(h, h.bob, where) == {"shoot": "Shoot", "hold": "Hold"}
    targets = await h.autocomplete(h.bob, "order give", "target", channel=where, target="camoys")
    assert [c["value"] for c in targets] == ["Camoys' Rearward"]
    aimed = await give(h, h.bob, where, "shoot", "Bombards", target=targets[0]["value"])
    assert aimed == (
        "shoots 2 D6 (one a gun) at Camoys' Rearward, 11.3 SF (beyond range), "
        "-1 new target, -1 beyond effective range"
    )
    shot = await confirm(h, where, BATTLE, h.bob)
    check_post(h, shot, title("Shooting"), "Tactical movement", [h.alice, h.bob])
    summary = lines(shot)
    assert (
        "Artillery: Bombards gun 1 at Camoys' Rearward: D6 (6) -1 new target "
        "-1 beyond effective range = 4"
    ) in summary
    assert (
        "Artillery at effective range and beyond for Camoys' Rearward: 4, passed (4-5: 4-5 = 1DP)"
    ) in summary
    assert "Camoys' Rearward: disorder points (DPs) 0 → 1 (shot by Bombards)" in summary
    assert "Risk to leader: Thomas, Lord Camoys (contingent shot at): D6 (2) = 2" in summary
    guns = [r for r in rolls(shot) if r.label.startswith("Artillery: Bombards gun")]
    assert [r.words for r in guns] == ["-1 new target -1 beyond effective range"] * 2


async def tactical_and_combat(h: Harness) -> BotMessage:
    """The horse moves with the mounted D6, the brigands about-face; a charge, two questions."""
    where = h.channel("hundred-years")
    offered = await kinds(h, h.bob, where)
    assert list(offered) == ["move", "manoeuvre", "hold"]
    options = await h.autocomplete(
        h.bob, "order give", "option", channel=where, kind="move", option=""
    )
    assert [c["value"] for c in options] == ["plain", "extra_d6", "skirmish_bonus", "all", "road"]
    on_foot = await refused_order(
        h, h.bob, where, "move", "The Constable's Vanguard", x=9, y=9, option="extra_d6"
    )
    assert on_foot == (
        "**The Constable's Vanguard** cannot move: only mounted may add the optional D6.\n"
        "➡️ Orders it can take now (`/order give kind:…`): manoeuvre, hold.\n"
        "➡️ The same order may be given to Vendôme's Horse."
    )
    moved = await give(h, h.bob, where, "move", "Vendôme's Horse", x=6, y=5.5, option="extra_d6")
    assert moved == "moves 2 AvD + D6 x ½ SF (2.5-8 SF) toward (6, 5.5), 5.4 SF away"
    options = await h.autocomplete(
        h.bob, "order give", "option", channel=where, kind="manoeuvre", option="about"
    )
    assert [c["value"] for c in options] == ["about_face"]
    turned = await give(h, h.bob, where, "manoeuvre", "Brigands", option="about_face")
    assert turned == "about face\n• About face: ½ move. C & D Grade 1 DP in 6 SF of enemy."
    moved = await confirm(h, where, BATTLE, h.alice, h.bob)
    check_post(h, moved, title("Tactical movement"), "Combat: charges and responses", [h.bob])
    assert lines(moved) == [
        "— Turn 1: Tactical movement —",
        "Move: Vendôme's Horse, 2 AvD x ½ SF: 2AvD (5, 3) = 8",
        "Move: Vendôme's Horse, mounted D6 x ½ SF: D6 (3) = 3",
        "Vendôme's Horse moves 5.4 SF to (6, 5.5) facing 180°; moves",
        "Brigands moves 0 SF to (22, 14) facing 0°; about face",
    ]

    assert await kinds(h, h.bob, where) == {"charge": "Charge", "hold": "Hold"}
    charge = await give(h, h.bob, where, "charge", "Vendôme's Horse", target="York's Vaward")
    assert charge == "charges York's Vaward, 2.9 SF away: 2 AvD + D6 x ½ SF (2.5-8 SF)"
    declared = await confirm(h, where, BATTLE, h.bob)
    check_post(
        h, declared, title("Combat: charges and responses"), "Combat: charges and responses",
        [h.alice],
    )  # fmt: skip
    assert lines(declared)[-1] == (
        "England must decide: Vendôme's Horse charges York's Vaward: how does it respond? "
        "[stand to receive, counter-charge; default stand]"
    )
    asked = question(h, where)
    assert asked.content.startswith(
        f"{h.alice.mention}: Vendôme's Horse charges York's Vaward: how does it respond?"
    )
    assert [c["label"] for c in asked.interactive] == ["stand to receive", "counter-charge"]
    intruder = await h.click(h.bob, asked, label="stand to receive")
    assert intruder.ephemeral and intruder.content == "This question is not yours to answer."
    blocked = await refused_order(h, h.bob, where, "hold", "Brigands")
    assert blocked == "The battle waits for an answer to a question, not for orders."

    fought = await answer(h, where, BATTLE, h.alice, asked, "counter-charge")
    check_post(
        h, fought, title("Combat: charges and responses"), "Combat: moves after combat",
        [h.alice],
    )  # fmt: skip
    log = full_log(fought)
    assert "England chose counter charge" in log
    assert "Vendôme's Horse moves 2.9 SF to (8.5, 4) facing 180°; charges home" in log
    assert (
        "Combat (charge): York's Vaward against Vendôme's Horse: D6 (4) +3 combat factor "
        "(profile) +1 A grade +1 deeper formation +1 noble fighting = 10"
    ) in log
    assert (
        "Combat (charge): Vendôme's Horse against York's Vaward: D6 (2) +3 combat factor "
        "(profile) +1 A grade +1 mounted chivalrous charge +1 noble fighting = 8"
    ) in log
    fought_rolls = [r for r in map(roll_of, log) if r and r.label.startswith("Combat (charge)")]
    assert [(r.dice, r.total) for r in fought_rolls] == [((4,), 10), ((2,), 8)]

    asked = question(h, where)
    assert asked.content.startswith(
        f"{h.alice.mention}: York's Vaward (success) against Vendôme's Horse: "
        "what move after combat?"
    )
    assert [c["label"] for c in asked.interactive] == ["follow up", "pursue"]
    after = await answer(h, where, BATTLE, h.alice, asked, "pursue")
    check_post(
        h, after, title("Combat: moves after combat"), "Command — action 1", [h.alice, h.bob]
    )
    log = full_log(after)
    assert log[0] == "England chose pursue"
    # Set back, the Horse fell back ("Move back base depth facing the enemy"); the pursuer
    # stays in contact with it: the sheet breaks only retiring troops caught by pursuers.
    assert (
        "Vendôme's Horse moves 1 SF to (8.5, 5) facing 180°; falls back base depth facing the enemy"
    ) in log
    assert (
        "York's Vaward moves 1 SF to (8.5, 4) facing 0°; pursues and stays in contact with "
        "Vendôme's Horse: the mêlée goes on (only retiring troops caught by pursuers break)"
    ) in log
    assert not [line for line in log if "(caught by" in line or "free hack by" in line]
    assert "— Turn 1: Rally —" in log
    return after


async def test_a_turn_of_the_tree_of_battles_through_discord(
    aide: Harness, fixed_seed: bytes
) -> None:
    """Set up, one full turn of simultaneous phases, then the end and a verified record."""
    h, where = aide, aide.channel("hundred-years")
    await set_up(h)
    published, opened = await start(h, where, BATTLE, fixed_seed)
    check_post(h, opened, f"⚔️ {BATTLE} begins", "Command — action 1", [h.alice, h.bob])

    await command_phase(h)
    await approach_and_shooting(h)
    await tactical_and_combat(h)
    assert [r.embeds[0]["title"] for r in reports(h, where, BATTLE)] == [
        title("Command — action 1"),
        title("Command — action 2"),
        title("Approach"),
        title("Shooting"),
        title("Tactical movement"),
        title("Combat: charges and responses"),
        title("Combat: charges and responses"),
        title("Combat: moves after combat"),
    ]

    # Turn 2 has begun: the next reminder names it, and the leaders have their CPs again.
    assert await h.advance(timedelta(hours=25)) == 1
    (reminder,) = [p for p in h.messages(where) if p.content.startswith("⏰")]
    assert f"orders for **{BATTLE}** (Turn 2 · Command — action 1) are due" in reminder.content
    steady = await give(h, h.alice, where, "steady", "Edward, Duke of York", target="York's Vaward")
    assert steady == "Edward, Duke of York steadies York's Vaward, removing up to 2 DPs (2 CPs)"

    ending, _ = await end_and_verify(h, where, BATTLE, fixed_seed, published, "tree_of_battles")
    assert field(ending, "Losses") == f"{ENGLAND} lost nothing.\n{FRANCE} lost nothing."
    # No free hack: Vendôme's Horse keeps its four stands.
    shown = await h.slash(h.bob, "army show", channel=where, name=FRANCE)
    assert "1. Vendôme's Horse — type men_at_arms, grade A, stands 4" in shown.text.splitlines()
