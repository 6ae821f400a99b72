"""Hostile roster files: alias bombs, deep nesting, huge numbers; each refused specifically."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from bot.db.models import Army
from bot.errors import InvalidInput
from bot.services import Services
from bot.services.campaigns import Place
from bot.services.data_files import MAX_NAME_IN_MESSAGE
from tests.conftest import ALICE, BOB, GM

BILLION_LAUGHS = b"""
name: Bomb
a: &a ["x","x","x","x","x","x","x","x","x"]
b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]
c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]
d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]
e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]
f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]
units:
  - name: Foot
    grade: A
    notes: *f
"""


@pytest.fixture
async def campaign(services: Services, place: Place) -> Place:
    """A Tree of Battles campaign with Alice and Bob on opposite sides."""
    await services.campaigns.create(place, GM, "Agincourt", "tree_of_battles")
    await services.campaigns.join(place, ALICE, "English")
    await services.campaigns.join(place, BOB, "French")
    return place


@pytest.mark.parametrize(
    ("content", "filename", "expected"),
    [
        (BILLION_LAUGHS, "bomb.yaml", "anchors or aliases"),
        (b"name: &n Foot\nunits: []\n", "anchor.yaml", "anchors or aliases"),
        (b"[" * 100_000 + b"]" * 100_000, "deep.json", "nested too deeply"),
        (b"- " * 5_000 + b"x", "deep.yaml", "nested too deeply"),
        (b"[" * 40 + b"]" * 40, "deep.txt", "nested too deeply"),
        (b'{"name": "A", "units": [], "n": ' + b"9" * 5000 + b"}", "num.json", "number of 5000"),
        (b"name: A\nunits: []\nn: " + b"9" * 5000 + b"\n", "num.yaml", "number of 5000"),
        (b'{"name": "A", "units": [], "n": NaN}', "nan.json", "must be finite"),
        (b'{"name": "A", "units": [], "n": 1e999}', "inf.json", "must be finite"),
        (b"name: A\nunits: []\nn: .inf\n", "inf.yaml", "must be finite"),
        (b"[" + b"1," * 30_000 + b"1]", "many.json", "too many entries"),
    ],
)
async def test_hostile_rosters_refused_and_nothing_stored(
    services: Services, campaign: Place, content: bytes, filename: str, expected: str
) -> None:
    with pytest.raises(InvalidInput) as caught:
        await services.armies.import_roster(campaign, ALICE, content, filename)
    assert expected in caught.value.message
    assert len(caught.value.message) < 2000
    async with services.armies.db.read() as session:
        assert list(await session.scalars(select(Army))) == []


async def test_long_file_name_is_cut_in_the_refusal(services: Services, campaign: Place) -> None:
    with pytest.raises(InvalidInput) as caught:
        await services.armies.import_roster(campaign, ALICE, b"\xff", "x" * 3000 + ".json")
    assert len(caught.value.message) < MAX_NAME_IN_MESSAGE + 60


async def test_plain_yaml_still_imports(services: Services, campaign: Place) -> None:
    roster = b"name: Plain\nunits:\n  - name: Foot\n    grade: A\n    stands: 4\n"
    army = await services.armies.import_roster(campaign, ALICE, roster, "plain.yml")
    assert army.units == [{"name": "Foot", "grade": "A", "stands": 4}]
