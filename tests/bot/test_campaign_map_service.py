"""The campaign map service over a real SQLite file: map files checked, sealed moves, turns,
the battle set up where armies meet, the others waiting, a draw sending the attackers back."""

from __future__ import annotations

import json

import pytest
import yaml

from bot.errors import Conflict, InvalidInput, PermissionDenied
from bot.presentation.battles import set_up_steps
from bot.presentation.campaign_map import turn_texts
from bot.services import Services
from bot.services.battle_state import SetUp, set_up_of
from bot.services.campaign_map import TurnReport
from bot.services.campaigns import Place
from bot.services.map_files import MAX_REGIONS, parse_map
from rules_core import registry
from rules_core.state import Side
from tests.conftest import ALICE, BOB, GM

MAP = {
    "name": "Two Roads",
    "regions": [
        {"name": "Redhold", "at": [0, 100], "holder": "Red", "adjacent": ["Ford", "Hills"]},
        {"name": "Ford", "at": [100, 0], "adjacent": ["Bluehold"]},
        {"name": "Hills", "at": [100, 200], "adjacent": ["Bluehold"]},
        {"name": "Bluehold", "at": [200, 100], "holder": "Blue"},
    ],
}


def army(name: str) -> bytes:
    return json.dumps(
        {"name": name, "units": [{"name": f"{name} foot", "type": "infantry", "move": 6,
                                  "stamina": 3}]}
    ).encode()  # fmt: skip


@pytest.fixture
async def campaign(services: Services, place: Place) -> Place:
    """A skirmish campaign; Alice (Red) and Bob (Blue) have two armies each; the map is in."""
    await services.campaigns.create(place, GM, "Border Raids", "skirmish")
    await services.campaigns.join(place, ALICE, "Red")
    await services.campaigns.join(place, BOB, "Blue")
    for user, names in ((ALICE, ("Red One", "Red Two")), (BOB, ("Blue One", "Blue Two"))):
        for name in names:
            await services.armies.import_roster(place, user, army(name), f"{name}.json")
    await services.campaign_map.import_map(place, GM, yaml.safe_dump(MAP).encode(), "m.yaml")
    return place


async def turn(services: Services, place: Place, moves: list[tuple[int, str, str]]) -> object:
    for user, name, to in moves:
        await services.campaign_map.move(place, user, name, to)
    return await services.campaign_map.resolve_turn(place, GM)


async def entered(services: Services, place: Place) -> None:
    await turn(services, place, [
        (ALICE, "Red One", "Redhold"), (ALICE, "Red Two", "Redhold"),
        (BOB, "Blue One", "Bluehold"), (BOB, "Blue Two", "Bluehold"),
    ])  # fmt: skip


def test_adjacency_goes_both_ways_and_a_polygon_gives_the_centre() -> None:
    name, regions, holders = parse_map(yaml.safe_dump(MAP).encode(), "m.yaml")
    assert name == "Two Roads" and holders == {"Redhold": "Red", "Bluehold": "Blue"}
    assert {r.name: r.adjacent for r in regions}["Bluehold"] == ("Ford", "Hills")
    square = {"name": "Sq", "polygon": [[0, 0], [10, 0], [10, 10], [0, 10]], "adjacent": ["B"]}
    _, (sq, _b), _ = parse_map(
        json.dumps({"regions": [square, {"name": "B", "at": [20, 5]}]}).encode(), "m.json"
    )
    assert sq.at == (5.0, 5.0) and sq.polygon[2] == (10.0, 10.0)


@pytest.mark.parametrize(
    ("regions", "said"),
    [
        ([{"name": "A", "at": [0, 0]}], "has 1 regions; a map has at least 2"),
        ([{"name": f"R{i}", "at": [i, 0]} for i in range(MAX_REGIONS + 1)], "at most 60"),
        ([{"name": "A", "at": [0, 0]}, {"name": "B", "at": [1e9, 0]}], "B.at: must be [x, y]"),
        ([{"name": "A", "at": [0, 0]}, {"name": "B"}], "B: give its centre `at: [x, y]`"),
        (
            [{"name": "A", "at": [0, 0]},
             {"name": "B", "polygon": [[0, 0], [10, 10], [10, 0], [0, 10]]}],
            "B.polygon: the outline must not cross itself",
        ),
        ([{"name": "A", "at": [0, 0], "adjacent": ["A"]}, {"name": "B", "at": [1, 1]}],
         "A: a region is not adjacent to itself"),
    ],
)  # fmt: skip
def test_a_bad_map_file_is_refused_saying_what(regions: list[object], said: str) -> None:
    with pytest.raises(InvalidInput) as refused:
        parse_map(json.dumps({"regions": regions}).encode(), "m.json")
    assert said in str(refused.value)


async def test_moves_are_sealed_from_everyone_but_their_owner(
    services: Services, campaign: Place
) -> None:
    await services.campaign_map.move(campaign, ALICE, "Red One", "Redhold")
    mine = await services.campaign_map.show(campaign, ALICE)
    theirs = await services.campaign_map.show(campaign, BOB)
    gm = await services.campaign_map.show(campaign, GM)
    assert [m.army for m in mine.mine] == ["Red One"]
    assert theirs.mine == () and gm.mine == () and mine.picture.armies == ()
    with pytest.raises(PermissionDenied):
        await services.campaign_map.resolve_turn(campaign, ALICE)


async def test_one_battle_at_a_time_the_other_meeting_waits(
    services: Services, campaign: Place
) -> None:
    await entered(services, campaign)
    report = await turn(services, campaign, [
        (ALICE, "Red One", "Ford"), (BOB, "Blue One", "Ford"),
        (ALICE, "Red Two", "Hills"), (BOB, "Blue Two", "Hills"),
    ])  # fmt: skip
    assert (report.battle, report.waiting) == ("Battle of Ford", ("Hills",))  # type: ignore[attr-defined]
    assert report.picture.battles == ("Ford",)  # type: ignore[attr-defined]
    with pytest.raises(Conflict):
        await services.campaign_map.resolve_turn(campaign, GM)
    with pytest.raises(Conflict):
        await services.campaign_map.import_map(campaign, GM, yaml.safe_dump(MAP).encode(), "m.yaml")


async def test_a_draw_sends_those_who_marched_in_back_and_the_holder_stays(
    services: Services, campaign: Place
) -> None:
    await entered(services, campaign)
    await turn(services, campaign, [(ALICE, "Red One", "Hills")])
    report = await turn(services, campaign, [(BOB, "Blue One", "Hills")])
    assert report.battle == "Battle of Hills"  # type: ignore[attr-defined]
    await services.gm.end(campaign, GM, None, "mist")
    view = await services.campaign_map.show(campaign, GM)
    assert [(s.battle, s.holder) for s in view.settled] == [("Battle of Hills", None)]
    where = {m.name: m.region for m in view.picture.armies}
    # Red One took the Hills a turn before: it stands; Blue One marched in: it goes back.
    assert where["Red One"] == "Hills" and where["Blue One"] == "Bluehold"
    assert view.picture.holders["Hills"] == "Red"


async def test_a_turn_is_resolved_once(services: Services, campaign: Place) -> None:
    await services.campaign_map.move(campaign, ALICE, "Red One", "Redhold")
    first = await services.campaign_map.resolve_turn(campaign, GM, 1)
    assert [m.army for m in first.moves] == ["Red One"]
    with pytest.raises(Conflict) as again:
        await services.campaign_map.resolve_turn(campaign, GM, 1)
    assert str(again.value).startswith("Campaign turn 1 has already been resolved")


@pytest.mark.parametrize(
    ("ruleset", "way"), [("skirmish", SetUp.BY_HAND), ("terrain_roll", SetUp.ROLLED)]
)
async def test_the_battle_of_a_meeting_says_how_its_ruleset_sets_it_up(
    services: Services, place: Place, request: pytest.FixtureRequest, ruleset: str, way: SetUp
) -> None:
    """The turn's post advises the set-up the ruleset takes: a terrain roll only where it has
    a terrain table (#39 item 12)."""
    if ruleset != "skirmish":
        request.getfixturevalue(ruleset)  # a test ruleset, registered for this test
    await services.campaigns.create(place, GM, "Border Raids", ruleset)
    await services.campaigns.join(place, ALICE, "Red")
    await services.campaigns.join(place, BOB, "Blue")
    await services.armies.import_roster(place, ALICE, army("Red One"), "r.json")
    await services.armies.import_roster(place, BOB, army("Blue One"), "b.json")
    await services.campaign_map.import_map(place, GM, yaml.safe_dump(MAP).encode(), "m.yaml")
    await turn(services, place, [(ALICE, "Red One", "Redhold"), (BOB, "Blue One", "Bluehold")])
    await turn(services, place, [(ALICE, "Red One", "Hills")])
    report = await turn(services, place, [(BOB, "Blue One", "Hills")])
    assert isinstance(report, TurnReport) and report.battle == "Battle of Hills"
    assert report.set_up is way
    said = turn_texts(report)[1]
    assert ("`/battle terrain roll`" in said) is (way is SetUp.ROLLED)
    assert "players: `/battle deploy`, then `/battle start`" in said


def test_a_ruleset_setting_up_by_its_own_steps_is_advised_to_start() -> None:
    """Impetus places terrain and units by orders after /battle start: the advice says so and
    offers neither a terrain roll nor /battle deploy, which it refuses."""
    impetus = registry.get("impetus").rules
    assert impetus is not None
    state = impetus.new_battle("b", "impetus", 30, 20, [Side("a", "Red"), Side("b", "Blue")])
    assert set_up_of(impetus, state) is SetUp.IN_RULES
    said = set_up_steps(SetUp.IN_RULES)
    assert said.startswith("GM: `/battle start`; ") and "set-up steps" in said
    assert "/battle deploy" not in said and "terrain roll" not in said
