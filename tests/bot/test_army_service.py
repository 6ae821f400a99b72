"""Army service: roster import in JSON and YAML, schema errors with paths, permissions."""

from __future__ import annotations

import json

import pytest
from sqlalchemy import select

from bot.db.models import Army
from bot.errors import Conflict, InvalidInput, NotFound, PermissionDenied
from bot.services import Services
from bot.services.armies import MAX_ROSTER_BYTES
from bot.services.campaigns import Place
from tests.conftest import ALICE, BOB, GM, OUTSIDER

ENGLISH = {
    "name": "English Army",
    "units": [
        {"name": "Men-at-arms", "grade": "A", "stands": 4},
        {"name": "Longbowmen", "grade": "B", "type": "archers"},
    ],
}
FRENCH_YAML = b"""
name: French Army
units:
  - name: Chivalry
    grade: A
  - name: Crossbowmen
    grade: C
"""


@pytest.fixture
async def campaign(services: Services, place: Place) -> Place:
    """A Tree of Battles campaign with Alice (English) and Bob (French)."""
    await services.campaigns.create(place, GM, "Agincourt", "tree_of_battles")
    await services.campaigns.join(place, ALICE, "English")
    await services.campaigns.join(place, BOB, "French")
    return place


async def stored_armies(services: Services) -> dict[str, int]:
    """Army name to owner, straight from the database."""
    async with services.armies.db.read() as session:
        return {a.name: a.owner_id for a in await session.scalars(select(Army))}


async def test_import_json_and_yaml(services: Services, campaign: Place) -> None:
    english = await services.armies.import_roster(
        campaign, ALICE, json.dumps(ENGLISH).encode(), "english.json"
    )
    french = await services.armies.import_roster(campaign, BOB, FRENCH_YAML, "french.yaml")
    assert (english.name, len(english.units), english.replaced) == ("English Army", 2, False)
    assert [u["name"] for u in french.units] == ["Chivalry", "Crossbowmen"]
    assert await stored_armies(services) == {"English Army": ALICE, "French Army": BOB}
    assert [a.name for a in await services.armies.list(campaign, GM)] == [
        "English Army",
        "French Army",
    ]


async def test_unknown_extension_tries_json_then_yaml(services: Services, campaign: Place) -> None:
    army = await services.armies.import_roster(campaign, BOB, FRENCH_YAML, "french.txt")
    assert army.name == "French Army"


async def test_reimport_replaces_own_army(services: Services, campaign: Place) -> None:
    await services.armies.import_roster(campaign, ALICE, json.dumps(ENGLISH).encode(), "a.json")
    changed = {**ENGLISH, "units": ENGLISH["units"][:1]}
    again = await services.armies.import_roster(
        campaign, ALICE, json.dumps(changed).encode(), "a.json"
    )
    assert again.replaced and len(again.units) == 1
    shown = await services.armies.show(campaign, BOB, "english army")
    assert [u["name"] for u in shown.units] == ["Men-at-arms"]


async def test_same_name_of_another_owner_refused(services: Services, campaign: Place) -> None:
    await services.armies.import_roster(campaign, ALICE, json.dumps(ENGLISH).encode(), "a.json")
    with pytest.raises(PermissionDenied, match="belongs to another player"):
        await services.armies.import_roster(campaign, BOB, json.dumps(ENGLISH).encode(), "b.json")
    assert await stored_armies(services) == {"English Army": ALICE}


async def test_malformed_roster_lists_every_problem(services: Services, campaign: Place) -> None:
    bad = {
        "name": "Bad",
        "units": [
            {"name": "Ok", "grade": "A"},
            {"grade": "B"},
            {"name": "Ok", "grade": "E", "stands": 0},
            "not a unit",
        ],
    }
    with pytest.raises(InvalidInput) as caught:
        await services.armies.import_roster(campaign, ALICE, json.dumps(bad).encode(), "bad.json")
    message = caught.value.message
    assert "5 problem(s)" in message
    for expected in (
        "units[1].name: is required",
        "units[2].grade: must be one of A, B, C, D",
        "units[2].stands: must be at least 1",
        "units[2].name: duplicate of units[0].name 'Ok'",
        "units[3]: must be a mapping",
    ):
        assert expected in message
    assert await stored_armies(services) == {}


@pytest.mark.parametrize(
    ("content", "filename", "expected"),
    [
        (b"{not json", "a.json", "not valid JSON: line 1, column 2"),
        (b"name: [unclosed", "a.yaml", "not valid YAML: line 1"),
        (b"\xff\xfe\x00", "a.json", "not UTF-8"),
        (b"[1, 2]", "a.json", "(root): must be a mapping"),
        (b'{"name": "X"}', "a.json", "units: must be a list"),
        (b'{"name": "X", "units": []}', "a.json", "units: must contain at least one unit"),
        (b" " * (MAX_ROSTER_BYTES + 1), "a.json", "too large"),
    ],
)
async def test_unreadable_files_refused(
    services: Services, campaign: Place, content: bytes, filename: str, expected: str
) -> None:
    with pytest.raises(InvalidInput) as caught:
        await services.armies.import_roster(campaign, ALICE, content, filename)
    assert expected in caught.value.message
    assert await stored_armies(services) == {}


async def test_schema_is_the_campaigns_ruleset(services: Services) -> None:
    pike = Place(1000, 3000)
    await services.campaigns.create(pike, GM, "Lützen", "pike_and_shot")
    await services.campaigns.join(pike, ALICE, "Swedes")
    roster = {"name": "Swedes", "units": [{"name": "Yellow", "quality": "elite"}]}
    with pytest.raises(InvalidInput, match="units\\[0\\].quality: must be one of raw, trained"):
        await services.armies.import_roster(pike, ALICE, json.dumps(roster).encode(), "s.json")


async def test_march_column_where_the_movement_table_says_n_a_is_refused(
    services: Services,
) -> None:
    pike = Place(1000, 3000)
    await services.campaigns.create(pike, GM, "Lützen", "pike_and_shot")
    await services.campaigns.join(pike, ALICE, "Swedes")
    roster = {
        "name": "Swedes",
        "units": [
            {"name": "Blue", "march_column": True},
            {"name": "Mob", "type": "rabble", "march_column": True},
        ],
    }
    with pytest.raises(InvalidInput) as caught:
        await services.armies.import_roster(pike, ALICE, json.dumps(roster).encode(), "s.json")
    assert "1 problem(s)" in caught.value.message
    assert "units[1].march_column: Rabble have no March Column (n/a" in caught.value.message
    assert await stored_armies(services) == {}


async def test_only_players_with_a_side_import(services: Services, campaign: Place) -> None:
    await services.campaigns.join(campaign, OUTSIDER, None)
    for user in (GM, OUTSIDER, 12345):
        with pytest.raises(PermissionDenied, match="Only players with a side"):
            await services.armies.import_roster(campaign, user, FRENCH_YAML, "f.yaml")


async def test_non_members_cannot_read_armies(services: Services, campaign: Place) -> None:
    await services.armies.import_roster(campaign, BOB, FRENCH_YAML, "f.yaml")
    with pytest.raises(PermissionDenied, match="Join"):
        await services.armies.list(campaign, OUTSIDER)
    with pytest.raises(PermissionDenied):
        await services.armies.show(campaign, OUTSIDER, "French Army")
    with pytest.raises(NotFound, match="no army called \\*\\*Nope"):
        await services.armies.show(campaign, ALICE, "Nope")


async def test_remove_by_owner_or_gm_only(services: Services, campaign: Place) -> None:
    await services.armies.import_roster(campaign, BOB, FRENCH_YAML, "f.yaml")
    await services.armies.import_roster(campaign, ALICE, json.dumps(ENGLISH).encode(), "e.json")
    with pytest.raises(PermissionDenied, match="Only the owner"):
        await services.armies.check_can_remove(campaign, ALICE, "French Army")
    with pytest.raises(PermissionDenied):
        await services.armies.remove(campaign, ALICE, "French Army")
    await services.armies.remove(campaign, BOB, "French Army")
    await services.armies.remove(campaign, GM, "English Army")
    assert await stored_armies(services) == {}
    with pytest.raises(NotFound):
        await services.armies.remove(campaign, GM, "English Army")


async def test_owner_of_armies_cannot_leave(services: Services, campaign: Place) -> None:
    await services.armies.import_roster(campaign, BOB, FRENCH_YAML, "f.yaml")
    with pytest.raises(Conflict, match="still own armies.*French Army"):
        await services.campaigns.leave(campaign, BOB)


async def test_names_for_autocomplete(services: Services, campaign: Place) -> None:
    await services.armies.import_roster(campaign, BOB, FRENCH_YAML, "f.yaml")
    await services.armies.import_roster(campaign, ALICE, json.dumps(ENGLISH).encode(), "e.json")
    assert await services.armies.names(campaign) == ["English Army", "French Army"]
    assert await services.armies.names(campaign, owner_id=BOB) == ["French Army"]
    assert await services.armies.names(Place(5, 5)) == []
