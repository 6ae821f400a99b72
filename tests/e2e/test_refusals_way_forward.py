"""A refused order says what to do instead, through Discord (#40 item 1).

Hail Caesar on a shallow table (48 by 9 inch: each deployment zone 3" deep, 3" apart), so
that the Gauls' large warband, turned side-on, reaches the Roman line. Two refusals, each
with its way forward: Rome's first `/order move`, given at the General Advance step, names
the `step:` that takes it (and the same order, given with that step, is planned); the
warband's sidestep, which would turn it within 1" of the First Cohort, says how it could
move without turning, or charge.
"""

from __future__ import annotations

import json
from importlib.resources import files

import pytest

from tests.e2e.sheet_battle import confirm, refused_order
from tools.harness import Harness

pytestmark = pytest.mark.usefixtures("fixed_seed")
BATTLE = "Shallow Ford"
ARMIES = files("rules_core.rulesets.hail_caesar").joinpath("armies")
ROMANS, GAULS = "Legio IX (sample)", "Arverni (sample)"
# Rome's zone is y 0-3, Gaul's y 6-9; a unit's whole footprint stands inside its zone.
ROMAN_DEPLOYMENT = [
    {"unit": name, "at": at}
    for name, at in zip(
        ("First Cohort", "Second Cohort", "Third Cohort", "Cretan Archers", "Gallic Horse"),
        ([10, 2], [17, 2], [24, 2], [31, 2], [38, 1.5]),
        strict=True,
    )
] + [{"unit": "Numidians", "at": [45, 1.5]}]
GALLIC_UNITS = ("Arverni Warband", "Carnutes Warband", "Slingers", "Noble Horse", "Young Riders")
GALLIC_DEPLOYMENT = [
    {"unit": name, "at": at}
    for name, at in zip(
        GALLIC_UNITS, ([10, 7], [20, 7], [28, 7], [36, 7.5], [44, 7.5]), strict=True
    )
]
FIRST_MOVE = (
    "**First Cohort** cannot move: move orders are not given in the Command: General Advance "
    "step; it takes only general_advance or hold.\n"
    "➡️ The same order is taken later this turn: give it again with "
    "`step:Command: Orders — Legio`."
)
SIDESTEP = (
    '**Arverni Warband** cannot move: Arverni Warband would turn within 1" of First Cohort.\n'
    "➡️ To make it possible: move Arverni Warband without turning: a point straight ahead or "
    "behind it keeps its facing of 180°; or charge First Cohort."
)


async def set_up(
    h: Harness,
    deployments: tuple[list[dict], list[dict]] = (ROMAN_DEPLOYMENT, GALLIC_DEPLOYMENT),
    **table: object,
) -> None:
    """Campaign, Rome and Gaul with the sample armies, the battle on a 9" deep table (or as
    ``table`` says), every unit deployed, the battle started and deployment confirmed."""
    where = h.channel("punic-wars")
    await h.slash(h.gm, "campaign create", channel=where, name="Gallic War", ruleset="hail_caesar")
    await h.slash(h.alice, "campaign join", channel=where, side="Rome")
    await h.slash(h.bob, "campaign join", channel=where, side="Gaul")
    for user, name in ((h.alice, "romans"), (h.bob, "gauls")):
        upload = h.upload(f"{name}.yaml", ARMIES.joinpath(f"{name}.yaml").read_bytes())
        await h.slash(user, "army import", channel=where, file=upload)
    size = table or {"depth": 9}
    created = await h.slash(
        h.gm, "battle create", channel=where, name=BATTLE, army_a=ROMANS, army_b=GAULS, **size
    )
    assert created.embeds[0]["title"] == f"{BATTLE} (setup)", created.text
    for user, placed in zip((h.alice, h.bob), deployments, strict=True):
        upload = h.upload("deployment.json", json.dumps(placed))
        deployed = await h.slash(user, "battle deploy-file", channel=where, file=upload)
        assert deployed.content == f"Deployed {len(placed)} units.", deployed
    await h.slash(h.gm, "battle start", channel=where)
    await confirm(h, where, BATTLE, h.alice, h.bob)


async def test_the_first_move_names_the_step_that_takes_it(aide: Harness) -> None:
    h, where = aide, aide.channel("punic-wars")
    await set_up(h)
    refused = await refused_order(h, h.alice, where, "move", "First Cohort", x=10, y=3)
    assert refused == FIRST_MOVE
    # The way forward works: the same order with that step is planned.
    planned = await h.slash(
        h.alice, "order give", channel=where, kind="move", unit="First Cohort", x=10, y=3,
        step="Command: Orders — Legio",
    )  # fmt: skip
    assert planned.ephemeral
    assert planned.content.startswith("🗓️ Planned for **Command: Orders — Legio** — "), planned


async def test_a_turn_too_near_the_enemy_says_how_to_move_instead(aide: Harness) -> None:
    h, where = aide, aide.channel("punic-wars")
    await set_up(h)
    for _ in range(4):  # Rome's turn: General Advance, both divisions' orders, shooting
        await confirm(h, where, BATTLE, h.alice)
    await confirm(h, where, BATTLE, h.bob)  # Gaul's General Advance: none
    refused = await refused_order(h, h.bob, where, "move", "Arverni Warband", x=11, y=7)
    assert refused == SIDESTEP
    # Moving straight back keeps its facing: taken.
    back = await h.slash(
        h.bob, "order give", channel=where, kind="move", unit="Arverni Warband", x=10, y=8
    )
    assert back.content.startswith('✅ **Arverni Warband**: moves 1"'), back
