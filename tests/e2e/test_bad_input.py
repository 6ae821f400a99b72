"""Bad input through Discord (#30 items 9, 10): terrain with too few points for its shape and
a deployment file whose facing is not a number are refused privately with the rule, and no
row changes."""

from __future__ import annotations

import json

import pytest

from tests.e2e.test_outsider_writes import rows
from tools.harness import Harness
from tools.skirmish_battle import BLUE_DEPLOYMENT, refused, set_up_battle

pytestmark = pytest.mark.usefixtures("fixed_seed")


@pytest.fixture
async def battle(aide: Harness) -> Harness:
    """Border Raids with the battle Ford set up (every unit deployed), not started."""
    await set_up_battle(aide, aide.channel("hundred-years"))
    return aide


@pytest.mark.parametrize(
    ("kind", "shape", "at", "words"),
    [
        ("river", "line", "10,18", "A line needs at least 2 points; you gave 1."),
        ("wood", "polygon", "10,18 20,18", "A polygon needs at least 3 points; you gave 2."),
    ],
)
async def test_battle_terrain_with_too_few_points(
    battle: Harness, kind: str, shape: str, at: str, words: str
) -> None:
    h, where = battle, battle.channel("hundred-years")
    before = rows(h.database_url)
    text = await refused(h, h.gm, where, "battle terrain add", kind=kind, shape=shape, at=at)
    assert text == words
    assert rows(h.database_url) == before


async def test_gm_terrain_with_too_few_points(battle: Harness) -> None:
    h, where = battle, battle.channel("hundred-years")
    await h.slash(h.gm, "battle start", channel=where)
    before = rows(h.database_url)
    text = await refused(
        h, h.gm, where, "gm terrain add", kind="road", shape="line", at="10,18", reason="a road"
    )
    assert text == "A line needs at least 2 points; you gave 1."
    assert rows(h.database_url) == before


@pytest.mark.parametrize(
    ("facing", "shown"), [("abc", '"abc"'), ([90], "[90]"), ({"a": 1}, '{"a": 1}')]
)
async def test_deployment_file_facing_not_a_number(
    battle: Harness, facing: object, shown: str
) -> None:
    h, where = battle, battle.channel("hundred-years")
    entries = [*BLUE_DEPLOYMENT[:2], {**BLUE_DEPLOYMENT[2], "facing": facing}]
    before = rows(h.database_url)
    upload = h.upload("blue-deployment.json", json.dumps(entries))
    text = await refused(h, h.bob, where, "battle deploy-file", file=upload)
    assert text == f"Row 3 (Blue Riders): `facing` must be a number of degrees, not `{shown}`."
    assert rows(h.database_url) == before
