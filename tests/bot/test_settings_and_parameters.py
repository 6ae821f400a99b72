"""Campaign settings and ruleset parameters through the services, on a real SQLite file."""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from sqlalchemy import select

from bot.db.models import Campaign
from bot.db.session import Database
from bot.errors import InvalidInput, NotFound, PermissionDenied
from bot.services import Services, settings
from bot.services.campaigns import Place
from bot.services.parameters import fits, parse_value
from bot.services.settings import CampaignSettings, DeadlinePolicy
from rules_core.plugin import Parameter
from tests.bot.battle_setup import DEPLOYMENT, START, skirmish_campaign
from tests.conftest import ALICE, GM, OUTSIDER
from tests.e2e.fake_clock import FakeClock


@pytest.fixture
def clock() -> FakeClock:
    """A clock standing at the scenario's start."""
    return FakeClock(START)


@pytest.fixture
def services(db: Database, clock: FakeClock) -> Services:
    """The services on the fake clock."""
    return Services.build(db, rng=random.Random(1), clock=clock)


async def stored(services: Services) -> dict[str, Any]:
    """The campaign's settings column exactly as the database holds it."""
    async with services.campaigns.db.read() as session:
        campaign = await session.scalar(select(Campaign))
        assert campaign is not None
        return dict(campaign.settings)


async def store(services: Services, raw: dict[str, Any]) -> None:
    """Write a settings dict straight into the row, as an older version of the bot did."""
    async with services.campaigns.db.write() as session:
        campaign = await session.scalar(select(Campaign))
        assert campaign is not None
        campaign.settings = raw


# -- the settings model -----------------------------------------------------------------


def test_defaults_are_the_documented_policy() -> None:
    policy = CampaignSettings().deadlines
    assert (policy.step_hours, policy.decision_hours) == (48.0, 24.0)
    assert policy.reminder_hours == (24.0, 1.0) and policy.missing == "default"


async def test_an_old_stored_dict_still_loads_and_drives_deadlines(
    services: Services, place: Place
) -> None:
    """A dict written before the model (lists, a partial policy, a key since dropped) loads."""
    await skirmish_campaign(services, place)
    old = {"deadlines": {"step_hours": 12.0, "reminder_hours": [1, 6.0], "missing": "gm"}}
    await store(services, {**old, "colour": "blue"})
    async with services.campaigns.db.read() as session:
        loaded = settings.load(await session.scalar(select(Campaign)))  # type: ignore[arg-type]
    assert loaded.deadlines == DeadlinePolicy(step_hours=12, reminder_hours=(6, 1), missing="gm")
    assert loaded.parameters == {} and loaded.table_width is None
    await services.battles.create(place, GM, "Ford", ["Red Host", "Blue Host"])
    for unit, at in DEPLOYMENT.items():
        await services.battles.deploy(place, GM, unit, at, None)
    report = await services.play.start(place, GM)
    assert report.battle.deadline_at == START + timedelta(hours=12)


async def test_an_invalid_stored_section_falls_back_to_its_defaults_alone(
    services: Services, place: Place
) -> None:
    await skirmish_campaign(services, place)
    await store(services, {"deadlines": {"step_hours": -3}, "parameters": {"max_turns": 4}})
    async with services.campaigns.db.read() as session:
        loaded = settings.load(await session.scalar(select(Campaign)))  # type: ignore[arg-type]
    assert loaded == CampaignSettings(parameters={"max_turns": 4})


async def test_deadlines_store_only_what_differs_and_bad_input_changes_nothing(
    services: Services, place: Place
) -> None:
    await skirmish_campaign(services, place)
    assert await stored(services) == {}
    await services.campaigns.set_deadlines(place, GM, None, None, 6, None)
    assert await stored(services) == {"deadlines": {"decision_hours": 6.0}}
    refusals = [
        ((0.1, None, None, None), "Deadlines run from 0.25 hours to 60 days."),
        ((None, "1,2,3,4,5,6", None, None), "at most five positive reminder times"),
        ((None, "-2", None, None), "at most five positive reminder times"),
        ((None, None, 2000.0, None), "Deadlines run from"),
        ((None, None, None, "skip"), "Missing orders become `default`, `gm` or `ai`, not `skip`."),
        ((None, None, None, None), "Nothing to change"),
    ]
    for arguments, message in refusals:
        with pytest.raises(InvalidInput, match=message.replace("(", r"\(")):
            await services.campaigns.set_deadlines(place, GM, *arguments)
    assert await stored(services) == {"deadlines": {"decision_hours": 6.0}}


# -- ruleset parameters ------------------------------------------------------------------


async def test_the_sheet_lists_every_parameter_with_default_and_source(
    services: Services, place: Place
) -> None:
    await services.campaigns.create(place, GM, "Cannae", "hail_caesar")
    sheet = await services.parameters.sheet(place)
    rows = {row.name: row for row in sheet.rows}
    assert sheet.ruleset_name == "Hail Caesar" and sheet.campaign_name == "Cannae"
    assert rows["max_turns"].value == rows["max_turns"].default == 8
    assert rows["initiative_range"].source == "the sheet"
    assert rows["table_width"].default > 0 and not any(r.overridden for r in sheet.rows)
    assert "break_test_ranged" in rows
    with pytest.raises(NotFound, match="`max_turns`"):
        await services.parameters.sheet(place, "max_turn")
    assert [r.name for r in (await services.parameters.sheet(place, "Max Turns")).rows] == [
        "max_turns"
    ]


async def test_a_gm_overrides_resets_and_battles_copy_the_values(
    services: Services, place: Place
) -> None:
    await skirmish_campaign(services, place)
    row = await services.parameters.override(place, GM, "max_turns", " 3 ")
    assert (row.value, row.default, row.overridden) == (3, 6, True)
    await services.parameters.override(place, GM, "table_width", "60")
    assert await stored(services) == {"parameters": {"max_turns": 3}, "table_width": 60.0}
    view = await services.battles.create(place, GM, "Ford", ["Red Host", "Blue Host"])
    assert view.state.parameters == {"max_turns": 3}
    assert (view.state.battlefield.width, view.state.battlefield.depth) == (60.0, 36.0)
    # A later change reaches later battles only: this one keeps what it copied.
    await services.parameters.override(place, GM, "max_turns", "9")
    assert (await services.battles.view(place)).state.parameters == {"max_turns": 3}
    row = await services.parameters.reset(place, GM, "max_turns")
    assert (row.value, row.overridden) == (6, False)
    await services.parameters.reset(place, GM, "table_width")
    assert await stored(services) == {}


async def test_setting_the_rulesets_own_value_keeps_no_override(
    services: Services, place: Place
) -> None:
    await skirmish_campaign(services, place)
    await services.parameters.override(place, GM, "evade_distance", "3")
    assert await stored(services) == {}


@pytest.mark.parametrize(
    ("ruleset", "name", "value", "message"),
    [
        ("skirmish", "max_turns", "8.5", "`max_turns` takes a whole number like `6`"),
        ("skirmish", "max_turns", "many", "takes a whole number"),
        ("skirmish", "max_turns", "-1", "`max_turns` cannot be negative"),
        ("skirmish", "max_turn", "4", "no parameter `max_turn`. Did you mean `max_turns`"),
        ("skirmish", "zzz", "4", "no parameter `zzz`. `/campaign rules show` lists them all.$"),
        ("skirmish", "table_width", "4", "Table sizes run from 6 to 400"),
        ("skirmish", "table_depth", "nan", "finite number"),
        ("tree_of_battles", "civil_war", "maybe", "`civil_war` is `true` or `false`"),
        ("tree_of_battles", "understrength_share", "half", "takes a number like `0.5`"),
        ("hail_caesar", "order_test_moves", "[[1, 2", "JSON shaped like its default"),
        ("hail_caesar", "order_test_moves", '[[1, "two"]]', "must keep the shape"),
        ("hail_caesar", "blunder_table", "[[1, 2, 3]]", "must keep the shape"),
    ],
)
async def test_bad_values_are_refused_and_change_nothing(
    services: Services, place: Place, ruleset: str, name: str, value: str, message: str
) -> None:
    await services.campaigns.create(place, GM, "Test", ruleset)
    with pytest.raises((InvalidInput, NotFound), match=message):
        await services.parameters.override(place, GM, name, value)
    assert await stored(services) == {}


async def test_tables_and_flags_take_values_of_their_shape(
    services: Services, place: Place
) -> None:
    await services.campaigns.create(place, GM, "Cannae", "hail_caesar")
    row = await services.parameters.override(place, GM, "order_test_moves", "[[-1, 2], [0, 1]]")
    assert row.value == [[-1, 2], [0, 1]]
    row = await services.parameters.override(place, GM, "division_break_share", "1")
    assert row.value == 1.0 and isinstance(row.value, float)
    await services.campaigns.close(place, GM)
    await services.campaigns.create(place, GM, "Towton", "tree_of_battles")
    assert (await services.parameters.override(place, GM, "civil_war", "Yes")).value is True


async def test_only_a_gm_changes_parameters_even_called_directly(
    services: Services, place: Place
) -> None:
    await skirmish_campaign(services, place)
    for user in (ALICE, OUTSIDER):
        with pytest.raises(PermissionDenied, match="Only a GM of \\*\\*Border Raids\\*\\*"):
            await services.parameters.override(place, user, "max_turns", "3")
        with pytest.raises(PermissionDenied):
            await services.parameters.reset(place, user, "max_turns")
    assert await stored(services) == {}
    assert "max_turns" in await services.parameters.names(place)
    assert await services.parameters.names(Place(1, 2)) == []


async def test_the_gm_check_asks_the_campaign_service(services: Services, place: Place) -> None:
    await skirmish_campaign(services, place)
    assert (await services.campaigns.check_gm(place, GM)).name == "Border Raids"
    with pytest.raises(PermissionDenied):
        await services.campaigns.check_gm(place, ALICE)
    with pytest.raises(NotFound):
        await services.campaigns.check_gm(Place(1, 2), GM)


# -- reading a typed value ---------------------------------------------------------------

SHAPES = [
    Parameter("turns", 8, "whole"),
    Parameter("share", 0.5, "number"),
    Parameter("civil_war", False, "flag"),
    Parameter("moves", [[-2, 3], [-1, 2], [0, 1]], "table"),
    Parameter("blunders", [[1, "retreat", 2], [2, "back", 1]], "rows of mixed cells"),
    Parameter("breaks", [[10, None, "hold"], [9, 9, "give"]], "open cells"),
]


@given(parameter=st.sampled_from(SHAPES), text=st.text(max_size=40))
def test_any_typed_text_gives_a_value_of_the_defaults_shape_or_a_clear_refusal(
    parameter: Parameter, text: str
) -> None:
    try:
        value = parse_value(parameter, text)
    except InvalidInput as error:
        assert f"`{parameter.name}`" in error.message
    else:
        assert fits(parameter.default, value)


def test_shapes() -> None:
    table = [[10, None, "hold"], [9, 9, "give"]]
    assert fits(table, [[11, None, "hold"], [8, 7, "break"], [7, 7, "break"]])
    assert not fits(table, [[11, "x", "hold"]])
    assert not fits(table, [[11, None]])
    assert not fits(8, 8.5) and fits(0.5, 1) and not fits(False, 0) and not fits(1, True)
    assert fits({"a": 1}, {"a": 2}) and not fits({"a": 1}, {"b": 2})
    assert not fits(table, []) and fits([], []) and not fits([1], [[1]])


async def test_the_rules_play_with_the_copied_override(services: Services, place: Place) -> None:
    """A turn limit of 1 set for the campaign ends its next battle as a draw after turn 1."""
    await skirmish_campaign(services, place)
    await services.parameters.override(place, GM, "max_turns", "1")
    await services.battles.create(place, GM, "Ford", ["Red Host", "Blue Host"])
    for unit, at in DEPLOYMENT.items():
        await services.battles.deploy(place, GM, unit, at, None)
    report = await services.play.start(place, GM)
    for _ in range(40):
        if report.ended is not None:
            break
        report = await services.gm.force(place, GM)
    assert report.ended is not None, "the battle should have ended at the turn limit"
    assert "1 turns played with neither army broken" in report.ended.result
