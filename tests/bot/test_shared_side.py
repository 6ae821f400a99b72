"""Several players on one side: the GM gives each a group, each orders only theirs, and a
step waits for every player with something to order in it (Hail Caesar's Rome, two players)."""

from __future__ import annotations

import pytest

from bot.errors import InvalidInput, NotYourGroup, PermissionDenied
from bot.services import Services
from bot.services.campaigns import Place
from bot.services.play import OrderInput
from tests.bot.test_hail_caesar_battle import set_up
from tests.conftest import ALICE, BOB, GM

CAROL = 23


async def shared(services: Services, place: Place) -> None:
    """The Gergovia battle with Carol on Rome beside Alice: Alice the legion, Carol the horse."""
    await set_up(services, place)
    await services.campaigns.join(place, CAROL, "Rome")
    await services.battles.assign(place, GM, "Legio", ALICE)
    given = await services.battles.assign(place, GM, "a_rom_equites", CAROL)
    assert (given.group_name, given.side_name, given.user_id) == ("Equites", "Rome", CAROL)


async def waiting(services: Services, place: Place) -> tuple[str, tuple[int, ...]]:
    view = await services.battles.view(place)
    return view.waiting_step, view.waiting_for


async def test_only_a_gm_assigns_and_only_to_a_player_of_the_side(
    services: Services, place: Place
) -> None:
    await set_up(services, place)
    await services.campaigns.join(place, CAROL, "Rome")
    with pytest.raises(PermissionDenied):
        await services.battles.assign(place, ALICE, "Equites", CAROL)
    with pytest.raises(InvalidInput, match=r"not a player of \*\*Rome\*\*"):
        await services.battles.assign(place, GM, "Equites", BOB)
    with pytest.raises(InvalidInput, match="is a GM"):
        await services.battles.assign(place, GM, "Equites", GM)
    with pytest.raises(Exception, match="no group"):
        await services.battles.assign(place, GM, "Cataphracts", CAROL)
    view = await services.battles.view(place)
    assert view.waiting_for == ()  # nothing stored by the refusals
    first = await services.battles.assign(place, GM, "Equites", CAROL)
    again = await services.battles.assign(place, GM, "Equites", ALICE)
    assert (first.previous_id, again.previous_id) == (None, CAROL)


async def test_each_orders_their_own_and_the_step_waits_for_both(
    services: Services, place: Place
) -> None:
    await shared(services, place)
    await services.play.start(place, GM)
    assert (await waiting(services, place))[1] == (ALICE, CAROL, BOB)  # deployment

    first = await services.play.confirm(place, ALICE)
    assert first.report is None and first.waiting_for == (CAROL, BOB)
    reminder = await services.play.reminder(*(await _stage(services, place)))
    assert reminder is not None and reminder.user_ids == (CAROL, BOB)
    assert (await services.play.confirm(place, BOB)).waiting_for == (CAROL,)
    assert (await services.play.confirm(place, CAROL)).report is not None

    # General Advance: both Roman generals may order it, so both players are awaited.
    step, users = await waiting(services, place)
    assert step.startswith("Command: General Advance") and users == (ALICE, CAROL)
    assert (await services.play.confirm(place, CAROL)).waiting_for == (ALICE,)
    assert (await services.play.confirm(place, ALICE)).report is not None

    # The legion's own step waits for Alice alone; Carol may not order its cohorts.
    step, users = await waiting(services, place)
    assert step == "Command: Orders — Legio" and users == (ALICE,)
    with pytest.raises(NotYourGroup) as refused:
        await services.play.submit(place, CAROL, "move", "First Cohort", OrderInput(x=5, y=12))
    assert (refused.value.group, refused.value.commander_id) == ("Legio", ALICE)
    carols = await services.lookups.givers(place, CAROL, None)
    assert "First Cohort" not in carols and "Gallic Horse" in carols
    own = await services.lookups.units_on_table(place, CAROL, own=True)
    assert "First Cohort" not in own and "Gallic Horse" in own
    targets = await services.lookups.units_on_table(place, CAROL, own=False)
    assert "First Cohort" not in targets and "Slingers" in targets
    assert (await services.play.confirm(place, ALICE)).report is not None

    # The horse's step: Carol's; Alice may not order it, nor withdraw Carol's order.
    step, users = await waiting(services, place)
    assert step == "Command: Orders — Equites" and users == (CAROL,)
    with pytest.raises(NotYourGroup):
        await services.play.submit(place, ALICE, "move", "Gallic Horse", OrderInput(x=33, y=14))
    await services.play.submit(place, CAROL, "move", "Gallic Horse", OrderInput(x=33, y=14))
    with pytest.raises(NotYourGroup):
        await services.play.withdraw(place, ALICE, "Gallic Horse")
    assert (await services.play.confirm(place, CAROL)).report is not None

    # Shooting: both have shooters' steps to give; an order counts as having acted.
    step, users = await waiting(services, place)
    assert step == "Shooting" and users == (ALICE, CAROL)
    await services.play.submit(place, ALICE, "hold", "Cretan Archers", OrderInput())
    reminder = await services.play.reminder(*(await _stage(services, place)))
    assert reminder is not None and reminder.user_ids == (CAROL,)
    assert (await services.play.confirm(place, ALICE)).waiting_for == (CAROL,)
    assert (await services.play.confirm(place, CAROL)).report is not None


async def _stage(services: Services, place: Place) -> tuple[int, int]:
    view = await services.battles.view(place)
    return view.id, view.stage


async def test_a_removed_commander_s_group_goes_back_to_the_side_s_owner(
    services: Services, place: Place
) -> None:
    """/campaign remove: Carol's Equites go back to Alice (Rome's owner), who orders them; the
    step waits for Alice and Bob only."""
    await shared(services, place)
    await services.play.start(place, GM)
    assert (await waiting(services, place))[1] == (ALICE, CAROL, BOB)
    with pytest.raises(PermissionDenied):
        await services.campaigns.remove_member(place, ALICE, CAROL)
    removal = await services.campaigns.remove_member(place, GM, CAROL)
    assert (removal.groups, removal.battle_sides, removal.armies) == (("Equites",), (), ())
    assert (await waiting(services, place))[1] == (ALICE, BOB)
    assert "Gallic Horse" in await services.lookups.units_on_table(place, ALICE, own=True)
    assert await services.lookups.units_on_table(place, CAROL, own=True) == []


async def test_each_player_deploys_only_their_own_group(services: Services, place: Place) -> None:
    await shared(services, place)
    carols = {name for _, name, _ in await services.lookups.roster_units(place, CAROL)}
    alices = {name for _, name, _ in await services.lookups.roster_units(place, ALICE)}
    assert carols == {"Gallic Horse", "Numidians"}
    assert "First Cohort" in alices and not alices & carols
    with pytest.raises(NotYourGroup):
        await services.battles.deploy(place, CAROL, "First Cohort", "5,7", None)
    placed = await services.battles.deploy(place, CAROL, "Numidians", "41,6", None)
    assert (placed.x, placed.y) == (41, 6)
