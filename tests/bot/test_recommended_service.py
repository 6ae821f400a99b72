"""The ruleset's recommended standing instructions through the services: shown in words,
accepted for a side in one call, offered once per battle in the first call to arms, and then
nothing they answer is asked (The Tree of Battles at Agincourt, as test_standing_service.py)."""

from __future__ import annotations

import pytest

from bot.db.session import Database
from bot.errors import Conflict, PermissionDenied
from bot.services import Services
from bot.services.campaigns import Place
from tests.bot.test_standing_service import _rows, fixed_services, play_turn_one
from tests.bot.test_tree_of_battles_battle import set_up
from tests.conftest import ALICE, BOB, GM, OUTSIDER

__all__ = ["fixed_services"]  # a fixture


async def test_the_recommended_instructions_are_shown_in_words_with_why(
    fixed_services: Services, place: Place
) -> None:
    await set_up(fixed_services, place)
    found = await fixed_services.standing.recommended(place, ALICE)
    assert found.side_id == "a"  # Alice's accept button is for England
    response = next(v for v in found.views if v.topic == "response to a charge")
    assert response.choices[:2] == ("stand to receive", "counter-charge")
    assert response.condition == "" and "gives the ground away" in response.why
    below = next(v for v in found.views if v.condition == "if the score is below the free band")
    assert below.choices == ("raise the score",)
    assert all("treachery" not in v.topic for v in found.views)  # the GM rules it
    assert (await fixed_services.standing.recommended(place, GM)).side_id == ""  # no side


async def test_accepting_sets_them_all_for_the_side_and_keeps_a_units_own(
    fixed_services: Services, place: Place, db: Database
) -> None:
    standing = fixed_services.standing
    await set_up(fixed_services, place)
    with pytest.raises(PermissionDenied):
        await standing.accept_recommended(place, OUTSIDER)
    with pytest.raises(PermissionDenied, match="only for your own side"):
        await standing.accept_recommended(place, BOB, "England")
    with pytest.raises(Conflict, match="battle is over"):
        await standing.accept_recommended(place, ALICE, battle_id=999)
    assert await _rows(db) == []  # a refusal changes nothing
    await standing.set(place, ALICE, "charge_response", "evade")  # replaced by the recommended
    await standing.set(place, ALICE, "after_combat", "pursue", unit="York's Vaward")  # kept
    accepted = await standing.accept_recommended(place, ALICE)
    assert {v.side for v in accepted} == {"England"}
    rows = await _rows(db)
    assert ("a", "a2", "after_combat", "", "pursue") in rows
    responses = [r[4] for r in rows if r[2] == "charge_response"]
    assert responses == ["stand", "counter_charge", "evade", "break"]  # in order of preference
    again = await standing.accept_recommended(place, ALICE)  # twice: the same, not doubled
    assert len(again) == len(accepted) and len(await _rows(db)) == len(rows)


async def test_offered_in_the_first_call_to_arms_and_then_nothing_they_answer_is_asked(
    fixed_services: Services, place: Place
) -> None:
    await set_up(fixed_services, place)
    report = await fixed_services.play.start(place, GM)
    offers = {call.user_id: (call.recommend, call.side_id) for call in report.calls}
    assert offers == {ALICE: (True, "a"), BOB: (True, "b")}
    await fixed_services.standing.accept_recommended(place, ALICE, "a", report.battle.id)
    asked, lines, report = await play_turn_one(fixed_services, place, report)
    assert asked == []  # without them, England is asked ["response:a2", "after:a2"]
    assert any("answered by standing instruction: stand to receive" in line for line in lines)
    assert report.calls and not any(call.recommend for call in report.calls)  # once per battle
