"""One turn of the heroic age through Discord: two players and a GM, the sample army files,
the initiative question, orders given and one planned ahead, then a verified record.

Ethandun on the ruleset's usual 36 by 24 inch table. The seed is fixed (``fixed_seed``), so
the dice are the same on every run.
"""

from __future__ import annotations

from importlib.resources import files

import pytest

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
from tools.skirmish_battle import lines

pytestmark = pytest.mark.usefixtures("fixed_seed")
BATTLE = "Ethandun"
ARMIES = files("rules_core.rulesets.heroic_age").joinpath("armies")
WESSEX, DANES = "The Saxon fyrd of Wessex", "The Great Heathen Army"
SAXON_DEPLOYMENT = [
    {"unit": "Somerset Fyrd", "at": [6, 4]},
    {"unit": "Somerset Thegns", "at": [11, 4]},
    {"unit": "King's Hearthguard", "at": [15.5, 4]},
    {"unit": "Wessex Fyrd", "at": [20.5, 4]},
    {"unit": "Fyrd Archers", "at": [28, 5]},
]
DANISH_DEPLOYMENT = [
    {"unit": "Ubba's Hird", "at": [8, 20]},
    {"unit": "Ubba's Bondi", "at": [13, 20]},
    {"unit": "Guthrum's Huscarls", "at": [18, 20]},
    {"unit": "Guthrum's Bondi", "at": [23, 20]},
    {"unit": "Danish Bowmen", "at": [30, 19]},
]


async def set_up(h: Harness) -> None:
    """Campaign, Wessex and the Danes, the sample army files, the battle and deployment."""
    await set_up_battle(h, h.channel("hundred-years"), "Great Army", "heroic_age", BATTLE, (
        Army(h.alice, "Wessex", ARMIES.joinpath("saxons.json"), WESSEX, SAXON_DEPLOYMENT),
        Army(h.bob, "Danes", ARMIES.joinpath("danes.json"), DANES, DANISH_DEPLOYMENT),
    ))  # fmt: skip


def title(step: str) -> str:
    """A step result's title: the battle, the turn and the step."""
    return f"{BATTLE} — Turn 1 · {step}"


async def test_a_turn_of_the_heroic_age_through_discord(aide: Harness, fixed_seed: bytes) -> None:
    """Initiative (a question), Movement with an order planned for the Missile exchange, a
    charge, combat and the follow-up question; then the GM ends it and the record verifies."""
    h, where = aide, aide.channel("hundred-years")
    await set_up(h)
    published, opened = await start(h, where, BATTLE, fixed_seed)
    check_post(h, opened, f"⚔️ {BATTLE} begins", "Deployment", [h.alice, h.bob])
    moved = await h.slash(
        h.gm, "gm move", channel=where, unit="Danish Bowmen", at="28,7.4", reason="scouts"
    )
    assert not moved.ephemeral, moved
    deployed = await confirm(h, where, BATTLE, h.alice, h.bob)
    check_post(h, deployed, f"{BATTLE} — Set-up · Deployment", "Initiative", [h.bob])
    assert "Initiative: Wessex: D6 (3) +1 commander-in-chief has more LPs (6 to 5) = 4" in (
        lines(deployed)
    )
    assert "Initiative: Danes: D6 (6) = 6" in lines(deployed)

    # The question: the Danes won and choose to go second.
    asked = question(h, where)
    assert asked.content.startswith(f"{h.bob.mention}: Danes won the initiative: go first")
    assert [c["label"] for c in asked.interactive] == ["go first", "go second"]
    intruder = await h.click(h.alice, asked, label="go first")
    assert intruder.ephemeral and intruder.content == "This question is not yours to answer."
    chosen = await answer(h, where, BATTLE, h.bob, asked, "go second")
    check_post(h, chosen, title("Initiative"), "Leadership", [h.alice, h.bob])
    assert "Order of play: Wessex, Danes (Danes won the initiative and goes second)" in (
        lines(chosen)
    )
    assert "The god pack: 10♣ for Danes: 10 → Number cards other than 3, 5 or 7: No impact" in (
        lines(chosen)
    )

    # Leadership: no leader spends LPs this turn; both confirm and Movement opens.
    led = await confirm(h, where, BATTLE, h.alice, h.bob)
    check_post(h, led, title("Leadership"), "Movement", [h.alice, h.bob])

    # Movement now; the Missile exchange planned ahead in the same visit.
    assert await kinds(h, h.alice, where) == {
        "move": "Move (1 AvD, + optional D6) towards a point",
        "manoeuvre": "Manoeuvre",
        "rest": "Rest and reform (stay stationary to remove a DP)",
        "hold": "Hold",
    }
    turned = await refused_order(h, h.alice, where, "move", "Somerset Fyrd", x=0, y=4)
    assert "a move more than 45° off its front needs a change of direction" in turned
    step = await refused_order(h, h.alice, where, "manoeuvre", "Somerset Fyrd", option="side_step")
    assert step == (
        "**Somerset Fyrd** cannot manoeuvre: only A & B grades may side step.\n"
        "➡️ Orders it can take now (`/order give kind:…`): move, rest, hold.\n"
        "➡️ The same order may be given to Somerset Thegns or King's Hearthguard."
    )
    move = await give(h, h.alice, where, "move", "King's Hearthguard", x=15.5, y=12, option="yes")
    assert (
        move == "King's Hearthguard moves towards (15.5, 12), 1 AvD + 1 D6 (2-11\"), full distance"
    )
    steps = await h.autocomplete(h.alice, "order give", "step", channel=where, step="")
    names = [c["name"] for c in steps]  # this turn's, then the next turn's (#40)
    assert names[:3] == ["Movement", "Missile exchange", "Combat: charges"]
    assert names[3:] and all(name.startswith("Next turn: ") for name in names[3:])
    planned = await h.slash(
        h.alice, "order give", channel=where, kind="shoot", unit="Fyrd Archers",
        target="Danish Bowmen", step=steps[1]["value"],
    )  # fmt: skip
    assert planned.ephemeral and planned.content.startswith(
        "🗓️ Planned for **Missile exchange** — **Fyrd Archers**: Fyrd Archers shoots at "
        "Danish Bowmen"
    )
    moved_on = await confirm(h, where, BATTLE, h.alice, h.bob)
    check_post(h, moved_on, title("Movement"), "Combat: charges", [h.alice, h.bob])
    log = full_log(moved_on)
    assert 'King\'s Hearthguard moves 9" to (15.5, 13) facing 0°; moves (9" rolled)' in log
    assert "King's Hearthguard: disorder points (DPs) 0 → 1 (fatigue (move: 5-6: 1 DP))" in log
    # The planned shot was carried out in the Missile exchange without stopping anyone.
    assert "— Turn 1: Missile exchange —" in log
    assert 'Fyrd Archers shoots at Danish Bowmen, 1.4" away' in log
    assert (
        "Missiles: Fyrd Archers at Danish Bowmen (4 stands): 8D6>=6 "
        "(**6**, 2, 5, 3, 3, **6**, 4, **6**) = 3 successes"
    ) in log

    # A charge, its test with the modifier's reason, the combat and the follow-up question.
    assert await kinds(h, h.bob, where) == {"charge": "Declare a charge", "hold": "Hold"}
    charge = await give(h, h.bob, where, "charge", "Danish Bowmen", target="Fyrd Archers")
    assert charge == "Danish Bowmen declares a charge at Fyrd Archers: needs 4+ on a D6 -1"
    fought = await confirm(h, where, BATTLE, h.alice, h.bob)
    check_post(h, fought, title("Combat: charges"), "Combat: moves after combat", [h.bob])
    log = full_log(fought)
    assert (
        "Charge test: Danish Bowmen at Fyrd Archers: D6 (6) -1 -1 if unformed or 2+ DPs = 5" in log
    )
    assert (
        "Combat result (charge combat: 3 hits to 0) for Danes: 3 → 2-4: +2/4 Success: Raise one "
        "aggression level, pursue/follow-up"
    ) in log
    asked = question(h, where)
    assert asked.content.startswith(
        f"{h.bob.mention}: Fyrd Archers fell back from Danish Bowmen: follow up or halt?"
    )
    after = await answer(h, where, BATTLE, h.bob, asked, "follow up")
    log = full_log(after)
    assert log[0] == "Danes chose follow up"
    assert "— Turn 1: End of turn —" in log and "— Turn 2: Initiative —" in log
    assert [r.embeds[0]["title"] for r in reports(h, where, BATTLE)][-6:] == [
        f"{BATTLE} — Set-up · Deployment",
        title("Initiative"),
        title("Leadership"),
        title("Movement"),
        title("Combat: charges"),
        title("Combat: moves after combat"),
    ]

    ending, _ = await end_and_verify(h, where, BATTLE, fixed_seed, published, "heroic_age")
    assert ending.embeds[0]["title"] == f"🏁 {BATTLE}: A draw: one turn played"
