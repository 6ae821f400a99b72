"""The sample armies' ``at`` fit the table ``/battle create`` lays out (issue 19 item 9): a GM
who imports them deploys every unit where its file says, inside its side's zone, on no one."""

from __future__ import annotations

import json
from itertools import combinations

import pytest

from bot.services import Services
from bot.services.campaigns import Place
from rules_core import registry
from rules_core.geometry import Footprint, overlapping
from tests.conftest import ALICE, BOB, GM

PLACED = [
    r.id
    for r in registry.all_rulesets()
    if r.rules is not None
    and any("at" in unit for army in r.rules.sample_armies() for unit in army["units"])  # type: ignore[union-attr]
]


def test_hail_caesar_samples_say_where_to_deploy() -> None:
    assert "hail_caesar" in PLACED


@pytest.mark.parametrize("ruleset", PLACED)
async def test_sample_armies_deploy_as_given_on_the_usual_table(
    services: Services, place: Place, ruleset: str
) -> None:
    rules = registry.get(ruleset).rules
    assert rules is not None
    armies = rules.sample_armies()[:2]
    await services.campaigns.create(place, GM, "Samples", ruleset)
    for user, army, side in zip((ALICE, BOB), armies, ("A", "B"), strict=True):
        await services.campaigns.join(place, user, side)
        content = json.dumps(army).encode()
        await services.armies.import_roster(place, user, content, "army.json")
    names = [str(a["name"]) for a in armies]
    view = await services.battles.create(place, GM, "Usual table", names)
    field = view.state.battlefield
    assert (field.width, field.depth) == rules.default_table
    for user, army in zip((ALICE, BOB), armies, strict=True):
        for unit in army["units"]:  # type: ignore[union-attr]
            x, y, facing = unit["at"]
            await services.battles.deploy(place, user, unit["name"], f"{x},{y}", facing)
    units = (await services.battles.view(place)).state.units
    assert all(u.location == "table" for u in units) and len(units) == sum(
        len(a["units"])
        for a in armies  # type: ignore[arg-type]
    )
    on_each_other = [
        (a.name, b.name)
        for a, b in combinations(units, 2)
        if overlapping(Footprint.of(a), Footprint.of(b))
    ]
    assert on_each_other == []
