"""Aiming at the war table: the judge's answer carries the rules' facts (path, distance used and
left, terrain crossed, where "as far as possible" stops) and a move's reach, for a Hail Caesar
unit; only its own side's member may ask."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
from shapely.geometry import Point, Polygon

from bot.services import Services
from tests.conftest import ALICE, BOB
from tests.web.actions import member
from tests.web.hail_caesar import MOVER, THROUGH_WOOD, TOO_FAR, hail_caesar_table
from tests.web.table import DAVE, Table


@pytest.fixture
async def table(services: Services) -> AsyncIterator[Table]:
    """The Hail Caesar battle at its first orders step."""
    async with hail_caesar_table(services) as found:
        yield found


def move(to: list[float], **more: Any) -> dict[str, Any]:
    """The page's body of a move of the Romans' cohort."""
    return {"kind": "move", "unit": MOVER, "params": {"to": to}, **more}


async def test_a_move_through_a_wood_says_its_path_distance_and_terrain(table: Table) -> None:
    player = await member(table, ALICE)
    status, found = await player.post("judge", move(THROUGH_WOOD))
    assert status == 200 and found["ok"] is True, found
    assert found["path"] == [[5.0, 6.0], THROUGH_WOOD]
    assert found["used"] == 10.0 and found["left"] == 8.0  # three moves of 6"
    assert found["terrain"] == ["Oakwood"]
    assert "stops_at" not in found


async def test_a_move_too_long_is_refused_with_what_it_has(table: Table) -> None:
    player = await member(table, ALICE)
    status, found = await player.post("judge", move(TOO_FAR))
    assert status == 200 and found["ok"] is False
    assert "Try a shorter move" in found["text"]
    assert found["used"] == 24.0 and found["left"] == 18.0
    assert found["terrain"] == ["Oakwood"]
    status, cut = await player.post("judge", move(TOO_FAR, as_far_as_possible=True))
    assert status == 200 and cut["ok"] is True, cut
    assert cut["stops_at"] == cut["path"][-1]
    assert cut["stops_at"][0] == 5.0 and 23.5 < cut["stops_at"][1] <= 24.0


async def test_the_reach_holds_a_legal_point_and_not_a_refused_one(table: Table) -> None:
    status, found = await (await member(table, ALICE)).get("reach", unit=MOVER, kind="move")
    assert status == 200, found
    outline = Polygon(found["outline"])
    assert outline.contains(Point(*THROUGH_WOOD))
    assert not outline.contains(Point(*TOO_FAR))


@pytest.mark.parametrize("who", [BOB, DAVE])
async def test_the_reach_of_a_unit_not_yours_is_refused(table: Table, who: int) -> None:
    status, found = await (await member(table, who)).get("reach", unit=MOVER, kind="move")
    assert status in (403, 404, 409) and "outline" not in found, found


async def test_a_spectator_gets_no_reach(table: Table) -> None:
    spectator = await member(table, ALICE, spectator=True)
    status, found = await spectator.get("reach", unit=MOVER, kind="move")
    assert status == 403 and "outline" not in found


async def test_the_reach_of_an_order_without_a_point_is_refused(table: Table) -> None:
    status, found = await (await member(table, ALICE)).get("reach", unit=MOVER, kind="hold")
    assert status == 422 and "`hold` takes no point or path" in found["error"], found
