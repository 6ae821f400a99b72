"""Through Discord: an army file with a typo is refused with the field meant and nothing is
imported; ``/battle deploy-file from_army:true`` places units where their army list's ``at``
puts them, checked like any deployment."""

from __future__ import annotations

import json
from importlib.resources import files

import yaml

from rules_core.state import BattleState
from tests.databases import query
from tools.harness import Harness

ARMIES = files("rules_core.rulesets.hail_caesar").joinpath("armies")
ROMANS, GAULS = "Legio IX (sample)", "Arverni (sample)"


def stored_battle(aide: Harness) -> BattleState:
    """The battle as the bot last stored it."""
    (data,) = query(aide.database_url, "SELECT state FROM battle ORDER BY id DESC LIMIT 1")[0]
    return BattleState.from_dict(json.loads(data) if isinstance(data, str) else data)


async def hail_caesar_battle(aide: Harness, gauls: bytes) -> None:
    """Rome (Alice) and Gaul (Bob) with these Gallic army files, and a battle in set-up."""
    await aide.slash(aide.gm, "campaign create", name="Gallic War", ruleset="hail_caesar")
    await aide.slash(aide.alice, "campaign join", side="Rome")
    await aide.slash(aide.bob, "campaign join", side="Gaul")
    romans = aide.upload("romans.yaml", ARMIES.joinpath("romans.yaml").read_bytes())
    await aide.slash(aide.alice, "army import", file=romans)
    await aide.slash(aide.bob, "army import", file=aide.upload("gauls.yaml", gauls))
    created = await aide.slash(
        aide.gm, "battle create", name="Gergovia", army_a=ROMANS, army_b=GAULS
    )
    assert created.embeds[0]["title"] == "Gergovia (setup)"


async def test_a_typo_is_refused_with_the_field_meant_and_nothing_imported(aide: Harness) -> None:
    await aide.slash(aide.gm, "campaign create", name="Gallic War", ruleset="hail_caesar")
    await aide.slash(aide.alice, "campaign join", side="Rome")
    text = "name: Horse\nunits:\n  - {name: Riders, tpye: cavalry, sise: large}\n"
    refused = await aide.slash(aide.alice, "army import", file=aide.upload("horse.yaml", text))
    assert refused.ephemeral
    assert refused.content == (
        "The army list has 2 problem(s):\n"
        "• `units[0].tpye: unknown field; did you mean 'type'?`\n"
        "• `units[0].sise: unknown field; did you mean 'size'?`\n"
        "`/army template` sends a file with every field explained."
    )
    emperor = (
        "name: Horse\nleaders:\n  - {name: Caesar, rank: emperor, leadership: 99}\n"
        "units:\n  - {name: Riders, type: cavalry}\n"
    )
    refused = await aide.slash(aide.alice, "army import", file=aide.upload("h.yaml", emperor))
    assert refused.ephemeral
    assert "`leaders[0].rank: must be one of general, army`" in refused.content
    assert "`leaders[0].leadership: must be at most 10`" in refused.content
    listed = await aide.slash(aide.alice, "army list")
    assert "Horse" not in listed.text


async def test_each_side_deploys_where_its_army_list_says(aide: Harness) -> None:
    await hail_caesar_battle(aide, ARMIES.joinpath("gauls.yaml").read_bytes())
    neither = await aide.slash(aide.alice, "battle deploy-file")
    assert neither.ephemeral and "`from_army:true`" in neither.content
    assert not stored_battle(aide).units

    rome = await aide.slash(aide.alice, "battle deploy-file", from_army=True)
    assert rome.ephemeral and rome.content == "Deployed 6 units."
    placed = {u.name: (u.x, u.y, u.facing) for u in stored_battle(aide).units}
    assert placed["First Cohort"] == (14, 7, 0) and placed["Cretan Archers"] == (18, 10.5, 0)
    assert set(placed) == {
        "First Cohort", "Second Cohort", "Third Cohort", "Cretan Archers", "Gallic Horse",
        "Numidians",
    }  # fmt: skip  # Alice's own side only

    gaul = await aide.slash(aide.bob, "battle deploy-file", from_army=True)
    assert gaul.content == "Deployed 5 units."
    assert {u.name: (u.x, u.y, u.facing) for u in stored_battle(aide).units}["Noble Horse"] == (
        34,
        29,
        180,
    )
    stranger = await aide.slash(aide.outsider, "battle deploy-file", from_army=True)
    assert stranger.ephemeral and len(stored_battle(aide).units) == 11


async def test_a_place_outside_the_zone_is_refused_naming_the_unit(aide: Harness) -> None:
    gauls = yaml.safe_load(ARMIES.joinpath("gauls.yaml").read_text(encoding="utf-8"))
    gauls["units"][3]["at"] = [34, 7, 180]  # Noble Horse in the Roman zone
    await hail_caesar_battle(aide, yaml.safe_dump(gauls).encode())
    refused = await aide.slash(aide.bob, "battle deploy-file", from_army=True)
    assert refused.ephemeral
    assert refused.content.startswith(
        "Noble Horse (b4), `at: [34, 7]` in its army list: **Noble Horse** "
    ), refused.content
    assert not stored_battle(aide).units  # all or nothing
    gm = await aide.slash(aide.gm, "battle deploy-file", from_army=True)
    assert gm.content.startswith("Noble Horse (b4)")  # a GM places every side's, checked too
