"""One turn of Hail Caesar through Discord, from the sample armies to a verified record.

Gergovia, on the usual 48 by 36 inch table, laid out as in the services test
(tests/bot/test_hail_caesar_battle.py). Player turns alternate, Rome's first; each division
takes its orders in its own step. The seed is fixed (``fixed_seed``), so the dice are the same
on every run: the legion's division order fails even re-rolled, the Gallic horse gets three
moves, the Cretan archers drive the slingers back, and the Gallic warbands advance.
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
    give,
    kinds,
    posts,
    question,
    refused_order,
    reports,
    rolls,
    start,
)
from tools.fake_discord import BotMessage
from tools.harness import Harness
from tools.skirmish_battle import field, lines

pytestmark = pytest.mark.usefixtures("fixed_seed")
BATTLE = "Gergovia"
ARMIES = files("rules_core.rulesets.hail_caesar").joinpath("armies")
ROMANS, GAULS = "Legio IX (sample)", "Arverni (sample)"
# The services test's layout: Rome along the south edge (y 0-12), Gaul the north (y 24-36).
ROMAN_DEPLOYMENT = """\
- {unit: First Cohort, at: [5, 6]}
- {unit: Second Cohort, at: [12, 6]}
- {unit: Third Cohort, at: [19, 6]}
- {unit: Cretan Archers, at: [24, 11]}
- {unit: Gallic Horse, at: [33, 6]}
- {unit: Numidians, at: [42, 6]}
"""
GALLIC_DEPLOYMENT = [
    {"unit": "Arverni Warband", "at": [8, 30]},
    {"unit": "Carnutes Warband", "at": [18, 30]},
    {"unit": "Slingers", "at": [24, 25]},
    {"unit": "Noble Horse", "at": [34, 30]},
    {"unit": "Young Riders", "at": [43, 30]},
]
UNIT_KINDS = {
    "move": "Move",
    "charge": "Charge",
    "form": "Change formation",
    "retire": "Retire (broken division)",
    "hold": "Hold",
    "command": "Give orders",
}
ORDER_TEST = "Order test (Leadership 8) for "


def title(step: str) -> str:
    """A step result's title: the battle, the turn, the step and whose player turn it is."""
    return f"{BATTLE} — Turn 1 · {step}"


async def set_up(h: Harness) -> None:
    """Campaign, Rome and Gaul, the sample YAML army files, the battle, every unit deployed."""
    where = h.channel("punic-wars")
    created = await h.slash(
        h.gm, "campaign create", channel=where, name="Gallic War", ruleset="hail_caesar"
    )
    assert "**Hail Caesar** (`hail_caesar`)" in created.text
    await h.slash(h.alice, "campaign join", channel=where, side="Rome")
    await h.slash(h.bob, "campaign join", channel=where, side="Gaul")
    for user, name, army, count in ((h.alice, "romans", ROMANS, 6), (h.bob, "gauls", GAULS, 5)):
        upload = h.upload(f"{name}.yaml", ARMIES.joinpath(f"{name}.yaml").read_bytes())
        imported = await h.slash(user, "army import", channel=where, file=upload)
        assert imported.content == f"{user.mention} imported **{army}** ({count} units)."

    offered_a = await h.autocomplete(h.gm, "battle create", "army_a", channel=where, army_a="legio")
    offered_b = await h.autocomplete(h.gm, "battle create", "army_b", channel=where, army_b="arv")
    assert [c["value"] for c in offered_a] == [ROMANS]
    assert [c["value"] for c in offered_b] == [GAULS]
    created = await h.slash(
        h.gm, "battle create", channel=where, name=BATTLE,
        army_a=offered_a[0]["value"], army_b=offered_b[0]["value"],
    )  # fmt: skip
    assert created.embeds[0]["title"] == f"{BATTLE} (setup)"
    assert "48 × 36 inch" in created.text  # the ruleset's usual table

    roman = h.upload("roman-deployment.yaml", ROMAN_DEPLOYMENT)
    gallic = h.upload("gallic-deployment.json", json.dumps(GALLIC_DEPLOYMENT))
    for user, upload, count in ((h.alice, roman, 6), (h.bob, gallic, 5)):
        deployed = await h.slash(user, "battle deploy-file", channel=where, file=upload)
        assert deployed.ephemeral and deployed.content == f"Deployed {count} units."


async def deployment_and_general_advance(h: Harness) -> None:
    """Both sides confirm their deployment; Rome's army commander orders no General Advance."""
    where = h.channel("punic-wars")
    assert await kinds(h, h.bob, where) == {"place": "Deploy"}
    deployed = await confirm(h, where, BATTLE, h.alice, h.bob)
    check_post(
        h, deployed, f"{BATTLE} — Set-up · Deployment", "Command: General Advance", [h.alice]
    )
    assert lines(deployed) == [
        "— Turn 0: Deployment —",
        "— Turn 1: Command: Rally Elite (Rome) —",
    ]

    # Rome's player turn: Gaul waits.
    assert await refused_order(h, h.bob, where, "hold", "Noble Horse") == (
        "It is not your turn to give orders: the Command: General Advance step waits for others."
    )
    assert await kinds(h, h.alice, where) == {"general_advance": "General Advance", "hold": "Hold"}
    not_chief = await refused_order(h, h.alice, where, "general_advance", "Praefect Gaius")
    assert not_chief == (
        "**Praefect Gaius** cannot general_advance: "
        "only the army commander may order a General Advance.\n"
        "➡️ The same order may be given to Legate Quintus."
    )
    advanced = await confirm(h, where, BATTLE, h.alice)
    check_post(
        h, advanced, title("Command: General Advance (Rome)"), "Command: Orders — Legio", [h.alice]
    )
    assert lines(advanced) == ["— Turn 1: Command: General Advance (Rome) —"]


async def roman_orders(h: Harness) -> None:
    """The legion's division order fails, re-rolled; the horse is ordered unit by unit."""
    where = h.channel("punic-wars")
    assert await kinds(h, h.alice, where) == UNIT_KINDS
    # The legion's turn comes first (its general commands the army).
    other = await refused_order(h, h.alice, where, "move", "Gallic Horse", x=33, y=14)
    assert other == (
        "**Gallic Horse** cannot move: Gallic Horse belongs to another division: "
        "order it in that division's turn.\n"
        "➡️ The same order is taken later this turn: give it again with "
        "`step:Command: Orders — Equites`."
    )
    too_far = await refused_order(h, h.alice, where, "move", "First Cohort", x=5, y=25)
    assert too_far == (
        '**First Cohort** cannot move: 19" needs 4 moves; it may make at most 3 moves of 6".\n'
        '➡️ Try a shorter move: it has at most 18" of movement; or give it again with'
        " `as_far_as_possible:true` to go as far as the rules allow."
    )
    for cohort, x in (("First Cohort", 5), ("Second Cohort", 12)):
        moved = await give(h, h.alice, where, "move", cohort, x=x, y=12)
        assert moved == (
            f'moves 6" to ({x}, 12): needs 1 move, order test by Legate Quintus (Leadership 8)'
        )
    options = await h.autocomplete(
        h.alice, "order give", "option", channel=where, kind="command", option=""
    )
    assert [c["value"] for c in options] == ["units", "division", "follow_me", "rally", "courage"]
    division = await give(h, h.alice, where, "command", "Legate Quintus", option="division")
    assert division == "Legate Quintus gives orders to his division: one test for all"
    tested = await confirm(h, where, BATTLE, h.alice)
    check_post(
        h, tested, title("Command: Orders — Legio (Rome)"), "Command: Orders — Legio", [h.alice]
    )
    assert lines(tested)[:3] == [
        "— Turn 1: Command: Orders (Legio) —",
        "Order test: Legate Quintus, division order: 2D6 (6, 3) = 9",
        f"{ORDER_TEST}Legate Quintus: 9, failed (9+: no move: the order fails)",
    ]
    assert lines(tested)[3].startswith("Rome must decide: Legate Quintus may have")

    asked = question(h, where)
    assert asked.content.startswith(f"{h.alice.mention}: Legate Quintus may have")
    assert "(default **keep**" in asked.content
    assert [c["label"] for c in asked.interactive] == ["re-roll the order dice", "keep the result"]
    rerolled = await answer(h, where, BATTLE, h.alice, asked, "re-roll the order dice")
    check_post(
        h, rerolled, title("Command: Orders — Legio (Rome)"), "Command: Orders — Equites", [h.alice]
    )
    assert lines(rerolled)[0] == "Rome chose reroll"  # no internal decision id
    assert lines(rerolled)[1:] == [
        "Order test re-rolled: Legate Quintus, division order: 2D6 (~~6~~→6, ~~3~~→4) = 10",
        f"{ORDER_TEST}Legate Quintus: 10, failed (9+: no move: the order fails)",
    ]
    assert not any(" moves " in line for line in lines(rerolled))  # the cohorts stay put

    # The horse's turn: the same order is now legal, with its own general's test.
    moved = await give(h, h.alice, where, "move", "Gallic Horse", x=33, y=14)
    assert (
        moved == 'moves 8" to (33, 14): needs 1 move, order test by Praefect Gaius (Leadership 8)'
    )
    horse = await confirm(h, where, BATTLE, h.alice)
    check_post(h, horse, title("Command: Orders — Equites (Rome)"), "Shooting", [h.alice])
    assert lines(horse) == [
        "— Turn 1: Command: Orders (Equites) —",
        "Order test: Praefect Gaius, order: 2D6 (3, 3) = 6",
        f"{ORDER_TEST}Gallic Horse: 6, passed (6-: three moves)",
        'Gallic Horse moves 8" to (33, 14) facing 321°; ordered: 3 moves; '
        "turns to face Slingers (proximity)",
    ]


async def roman_shooting(h: Harness) -> BotMessage:
    """The Cretan archers shoot the slingers, who fail their break test and retreat."""
    where = h.channel("punic-wars")
    assert await kinds(h, h.alice, where) == {"shoot": "Shoot", "hold": "Hold"}
    targets = await h.autocomplete(h.alice, "order give", "target", channel=where, target="sl")
    assert [c["value"] for c in targets] == ["Slingers"]
    aimed = await give(h, h.alice, where, "shoot", "Cretan Archers", target="Slingers")
    assert aimed == 'shoots at Slingers, 12" away: long range'
    shot = await confirm(h, where, BATTLE, h.alice)
    check_post(h, shot, title("Shooting (Rome)"), "Command: General Advance", [h.bob])
    summary = lines(shot)
    assert summary[1] == 'Cretan Archers shoots at Slingers, 12" away'  # the map's shot line
    assert summary[2] == (
        "Shooting: Cretan Archers at Slingers (long range 2 → 2 dice) "
        "(hits on 4+, -1 target in open order → 5+): 2D6>=5 (**6**, 2) = 1 success"
    )
    assert "Slingers: casualties 0 → 1 (shot by Cretan Archers)" in summary
    assert "Break test: Slingers (shot at): 2D6 (1, 5) = 6" in summary
    assert (
        "Ranged break test (Skirmishers) for Slingers: 6, failed "
        "(6: Break if Shaken otherwise retreat Disordered)"
    ) in summary
    assert 'Slingers moves 6" to (24, 31) facing 180°; retreats' in summary
    # Rome's player turn ends (hand-to-hand, disorder markers); Gaul's begins.
    assert summary[-3:] == [
        "— Turn 1: Hand-to-hand (Rome) —",
        "— Turn 1: Remove Disorder Markers (Rome) —",
        "— Turn 1: Command: Rally Elite (Gaul) —",
    ]
    return shot


async def gallic_turn(h: Harness) -> BotMessage:
    """Gaul: no General Advance; the king orders his warbands as one; the horse's initiative."""
    where = h.channel("punic-wars")
    assert await refused_order(h, h.alice, where, "hold", "Numidians") == (
        "It is not your turn to give orders: the Command: General Advance step waits for others."
    )
    advanced = await confirm(h, where, BATTLE, h.bob)
    check_post(
        h, advanced, title("Command: General Advance (Gaul)"), "Command: Orders — Warbands", [h.bob]
    )

    assert await kinds(h, h.bob, where) == UNIT_KINDS
    for warband, x in (("Arverni Warband", 8), ("Carnutes Warband", 18)):
        moved = await give(h, h.bob, where, "move", warband, x=x, y=24)
        assert moved == (
            f'moves 6" to ({x}, 24): needs 1 move, '
            "order test by King Vercassivellaunos (Leadership 8)"
        )
    # The same division order through /order command, its option autocompleted.
    options = await h.autocomplete(
        h.bob, "order command", "option", channel=where, unit="King", option="div"
    )
    assert [c["value"] for c in options] == ["division"]
    ordered = await h.slash(
        h.bob, "order command", channel=where, unit="King Vercassivellaunos", option="division"
    )
    assert ordered.ephemeral
    assert ordered.content.startswith(
        "✅ **King Vercassivellaunos**: King Vercassivellaunos gives orders to his division"
    )
    warbands = await confirm(h, where, BATTLE, h.bob)
    check_post(
        h, warbands, title("Command: Orders — Warbands (Gaul)"), "Command: Orders — Horse", [h.bob]
    )
    assert lines(warbands) == [
        "— Turn 1: Command: Orders (Warbands) —",
        "Order test: King Vercassivellaunos, division order: 2D6 (3, 2) = 5",
        f"{ORDER_TEST}King Vercassivellaunos: 5, passed (6-: three moves)",
        'Arverni Warband moves 6" to (8, 24) facing 180°; ordered: 3 moves',
        'Carnutes Warband moves 6" to (18, 24) facing 155°; ordered: 3 moves; '
        "turns to face Cretan Archers (proximity)",
    ]

    # Within 12" of the Gallic horse, the noble horse moves on its initiative: no test.
    moved = await give(h, h.bob, where, "move", "Noble Horse", x=34, y=24)
    assert moved == 'moves 6" to (34, 24): needs 1 move on its initiative (no order test)'
    horse = await confirm(h, where, BATTLE, h.bob)
    check_post(h, horse, title("Command: Orders — Horse (Gaul)"), "Shooting", [h.bob])
    assert lines(horse) == [
        "— Turn 1: Command: Orders (Horse) —",
        'Noble Horse moves 6" to (34, 24) facing 186°; initiative move; '
        "turns to face Gallic Horse (proximity)",
    ]

    out_of_range = await refused_order(
        h, h.bob, where, "shoot", "Slingers", target="Cretan Archers"
    )
    assert out_of_range == (
        '**Slingers** cannot shoot: Cretan Archers is 18" away, beyond 12" range.\n'
        "➡️ Orders it can take now (`/order give kind:…`): hold."
    )
    shot = await confirm(h, where, BATTLE, h.bob)
    check_post(h, shot, title("Shooting (Gaul)"), "Command: General Advance", [h.alice])
    assert "Slingers: no longer disordered (end of the player turn)" in lines(shot)
    assert lines(shot)[-1] == "— Turn 2: Command: Rally Elite (Rome) —"
    return shot


async def test_a_turn_of_hail_caesar_through_discord(aide: Harness, fixed_seed: bytes) -> None:
    """Set up, both player turns of turn 1, then the end and a verified record."""
    h, where = aide, aide.channel("punic-wars")
    await set_up(h)
    published, opened = await start(h, where, BATTLE, fixed_seed)
    check_post(h, opened, f"⚔️ {BATTLE} begins", "Deployment", [h.alice, h.bob])
    units = await h.autocomplete(h.alice, "order give", "unit", channel=where, unit="")
    assert [c["value"] for c in units][-2:] == ["Legate Quintus", "Praefect Gaius"]

    await deployment_and_general_advance(h)
    await roman_orders(h)
    await roman_shooting(h)
    await gallic_turn(h)
    assert [r.embeds[0]["title"] for r in reports(h, where, BATTLE)] == [
        f"{BATTLE} — Set-up · Deployment",
        title("Command: General Advance (Rome)"),
        title("Command: Orders — Legio (Rome)"),
        title("Command: Orders — Legio (Rome)"),
        title("Command: Orders — Equites (Rome)"),
        title("Shooting (Rome)"),
        title("Command: General Advance (Gaul)"),
        title("Command: Orders — Warbands (Gaul)"),
        title("Command: Orders — Horse (Gaul)"),
        title("Shooting (Gaul)"),
    ]
    tests = [r for post in reports(h, where, BATTLE) for r in rolls(post)]
    assert [r.expression for r in tests if r.label.startswith("Order test")] == ["2D6"] * 4
    assert len([p for p in posts(h, where) if p.interactive]) == 0  # every question answered

    # Turn 2 has begun with Rome's player turn: the next reminder names it, and pings Alice.
    assert await h.advance(timedelta(hours=25)) == 1
    (reminder,) = [p for p in posts(h, where) if p.content.startswith("⏰")]
    assert reminder.content.startswith(f"⏰ {h.alice.mention}: orders for **{BATTLE}** ")
    assert "(Turn 2 · Command: General Advance (Rome)) are due" in reminder.content

    ending, _ = await end_and_verify(h, where, BATTLE, fixed_seed, published, "hail_caesar")
    assert field(ending, "Losses") == f"{ROMANS} lost nothing.\n{GAULS} lost nothing."
