"""The GM's terrain over HTTP: ``api/gm/terrain`` is ``/battle terrain add`` during set-up and
``/gm terrain add`` once the battle runs, through the same service call, in its words; anyone
but a GM is refused as the slash commands refuse, bad input is refused saying why, and a
refusal writes nothing."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.presentation.battles import laid_text
from bot.presentation.gm import change_text
from bot.services import Services
from bot.services.battle_state import load_battle
from bot.services.campaigns import gm_only
from bot.services.gm import REASON_NEEDED
from bot.services.shapes import SHAPES, TypedTerrain
from bot.web.actions import SPECTATOR
from bot.web.gm_terrain import NO_NAME_NOW, NOT_A_SIZE, NOT_POINTS
from rules_core.state import TERRAIN_KINDS, BattleState
from tests.bot.battle_setup import deployed_battle
from tests.conftest import ALICE, BOB, GM
from tests.web.actions import member
from tests.web.table import CAROL, DAVE, PLACE, Table, client_of

ROLES = {"red": ALICE, "blue": BOB, "red too": CAROL, "observer": DAVE}
HILL = {"kind": "hill", "shape": "polygon", "at": [[30, 10], [36, 10], [33, 15]]}
POND = TypedTerrain("marsh", "circle", "40.00,30.00", "3.00")


async def stored(services: Services) -> BattleState:
    """The battle as stored."""
    async with services.play.db.read() as session:
        return (await load_battle(session, PLACE)).state


@pytest.fixture
async def setting_up(services: Services) -> AsyncIterator[Table]:
    """The skirmish battle deployed but not begun (set-up: `/battle terrain add`)."""
    await deployed_battle(services, PLACE)
    campaign_id = (await services.campaigns.info(PLACE)).id
    async with client_of(services) as client:
        yield Table(services, client, campaign_id)


async def test_mid_battle_the_gm_lays_terrain_as_gm_terrain_add_does(table: Table) -> None:
    body = {**HILL, "reason": "the scenario's hidden hill"}
    status, found = await (await member(table, GM)).post("gm/terrain", body)
    assert status == 200, found
    laid = (await stored(table.services)).terrain[-1]
    typed = TypedTerrain("hill", "polygon", "30.00,10.00 36.00,10.00 33.00,15.00")
    assert (laid.kind, laid.points) == ("hill", typed.outline())
    # The same words /gm terrain add answers and posts: lift it, lay it again by the service.
    await table.services.gm.lift_terrain(PLACE, GM, laid.id, "again")
    change = await table.services.gm.lay_terrain(PLACE, GM, typed, "the scenario's hidden hill")
    assert found["text"] == change_text(change)
    assert "the scenario's hidden hill" in found["text"]


async def test_a_circle_is_laid_by_its_centre_and_radius(table: Table) -> None:
    body = {"kind": "marsh", "shape": "circle", "at": [[40, 30]], "size": 3, "reason": "rain"}
    status, found = await (await member(table, GM)).post("gm/terrain", body)
    assert status == 200, found
    assert (await stored(table.services)).terrain[-1].points == POND.outline()


async def test_in_set_up_the_gm_lays_named_terrain_as_battle_terrain_add_does(
    setting_up: Table,
) -> None:
    body = {"kind": "wood", "shape": "rectangle", "at": [[30, 20]], "size": [6, 4], "name": "Oaks"}
    status, found = await (await member(setting_up, GM)).post("gm/terrain", body)
    assert status == 200, found
    laid = (await stored(setting_up.services)).terrain[-1]
    typed = TypedTerrain("wood", "rectangle", "30.00,20.00", "6.00,4.00", "Oaks")
    assert (laid.name, laid.points) == ("Oaks", typed.outline())
    await setting_up.services.battles.remove_terrain(PLACE, GM, laid.id)
    assert found["text"] == laid_text(
        await setting_up.services.battles.add_terrain(PLACE, GM, typed)
    )


async def test_in_set_up_a_name_too_long_is_refused_in_the_slash_command_s_words(
    setting_up: Table,
) -> None:
    body = {"kind": "wood", "shape": "circle", "at": [[30, 20]], "size": 3, "name": "O" * 61}
    before = await stored(setting_up.services)
    status, found = await (await member(setting_up, GM)).post("gm/terrain", body)
    assert (status, found) == (
        422,
        {"error": "The terrain name must be at most 60 characters (got 61)."},
    )
    assert await stored(setting_up.services) == before


@pytest.mark.parametrize("role", [*ROLES, "spectator"])
async def test_no_one_but_the_gm_lays_terrain(table: Table, role: str) -> None:
    writer = await member(table, ROLES.get(role, GM), spectator=role == "spectator")
    words = SPECTATOR if role == "spectator" else gm_only("Border Raids")
    before = await stored(table.services)
    assert (await writer.post("gm/terrain", {**HILL, "reason": "mine"})) == (403, {"error": words})
    assert (await writer.post("gm/terrain", {"kind": "x"})) == (403, {"error": words})
    assert await stored(table.services) == before


@pytest.mark.parametrize("role", ["red", "blue"])
async def test_in_set_up_no_player_lays_terrain(setting_up: Table, role: str) -> None:
    before = await stored(setting_up.services)
    found = await (await member(setting_up, ROLES[role])).post("gm/terrain", HILL)
    assert found == (403, {"error": gm_only("Border Raids")})
    assert await stored(setting_up.services) == before


BAD: list[tuple[dict[str, Any], str]] = [
    (HILL, REASON_NEEDED),
    ({**HILL, "reason": "  "}, REASON_NEEDED),
    ({**HILL, "reason": "why", "name": "Big Hill"}, NO_NAME_NOW),
    ({**HILL, "at": "30,10 36,10 33,15", "reason": "why"}, NOT_POINTS),
    ({**HILL, "at": [[30, 10], [36, 10]], "reason": "why"}, "at least 3 points; you gave 2"),
    ({**HILL, "kind": "lava", "reason": "why"}, "Unknown terrain `lava`"),
    ({**HILL, "kind": "river", "reason": "why"}, "A river is drawn with the shape `line`."),
    ({**HILL, "shape": "circle", "at": [[30, 10]], "size": "big", "reason": "why"}, NOT_A_SIZE),
    ({**HILL, "shape": "circle", "at": [[30, 10]], "size": -2, "reason": "why"}, "positive"),
    ({**HILL, "at": [[30, 10], [99, 10], [33, 15]], "reason": "why"}, "off the table"),
]


@pytest.mark.parametrize(("body", "words"), BAD)
async def test_bad_terrain_is_refused_saying_why_and_lays_nothing(
    table: Table, body: dict[str, Any], words: str
) -> None:
    before = await stored(table.services)
    status, found = await (await member(table, GM)).post("gm/terrain", body)
    assert status == 422 and words in found["error"], found
    assert await stored(table.services) == before


async def test_terrain_without_the_pages_token_is_forbidden(table: Table) -> None:
    before = await stored(table.services)
    body = {**HILL, "reason": "why"}
    status, found = await (await member(table, GM)).post("gm/terrain", body, csrf="")
    assert status == 403 and "security token" in found["error"]
    assert await stored(table.services) == before


async def test_the_form_offers_the_slash_commands_kinds_and_shapes_to_the_gm_alone(
    table: Table,
) -> None:
    status, found = await (await member(table, GM)).get("gm/terrain")
    assert status == 200, found
    assert [k["value"] for k in found["kinds"]] == list(TERRAIN_KINDS)
    assert found["shapes"] == list(SHAPES) and found["setup"] is False
    refused = await (await member(table, ALICE)).get("gm/terrain")
    assert refused == (403, {"error": gm_only("Border Raids")})


async def test_in_set_up_the_form_asks_a_name_not_a_reason(setting_up: Table) -> None:
    assert (await (await member(setting_up, GM)).get("gm/terrain"))[1]["setup"] is True
