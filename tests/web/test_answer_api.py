"""The war table's answers (``api/answer``): through ``/answer``'s service, in its words; who may
answer, the anti-forgery token, and nothing written when refused."""

from __future__ import annotations

import pytest

from bot.presentation.gm import answered_text
from bot.services.battle_state import load_battle
from bot.web.actions import SPECTATOR
from tests.conftest import ALICE, BOB, GM
from tests.web.actions import member
from tests.web.table import DAVE, PLACE, Table


async def stage_of(table: Table) -> tuple[int, bool]:
    """The battle's stage and whether a question waits."""
    async with table.services.play.db.read() as session:
        loaded = await load_battle(session, PLACE)
        return loaded.battle.stage, loaded.state.pending is not None


async def asked_of(table: Table, user_id: int) -> tuple[str, list[str]]:
    """The initiative question as the user's state.json shows it: its id and option ids
    (empty when it is not theirs to answer)."""
    token = await table.token(user_id)
    url = f"/c/{table.campaign_id}/state.json"
    answer = await table.client.get(url, headers={"Cookie": f"adc_{table.campaign_id}={token}"})
    blocks = (await answer.json())["panels"]["questions"]
    if not blocks:
        return "", []
    ask = blocks[0]["ask"]
    return ask["decision"], [value for value, _ in ask["options"]]


async def answerer(table: Table) -> int:
    """The player the initiative question waits for (the page shows it to them alone)."""
    for user in (ALICE, BOB):
        if (await asked_of(table, user))[0]:
            return user
    raise AssertionError("nobody's page shows the initiative question")


async def test_an_answer_on_the_page_is_answer_s_and_carries_the_battle_on(table: Table) -> None:
    user = await answerer(table)
    decision, options = await asked_of(table, user)
    assert "first" in options
    before = await stage_of(table)
    status, found = await (await member(table, user)).post(
        "answer", {"decision": decision, "choice": "first"}
    )
    assert status == 200, found
    assert found == {"ok": True, "text": answered_text(user, "first")}
    stage, waiting = await stage_of(table)
    assert stage > before[0] and not waiting  # the step resolved: movement is open


@pytest.mark.parametrize("role", ["other player", "observer", "spectator"])
async def test_only_the_questions_player_answers_it_and_nothing_changes(
    table: Table, role: str
) -> None:
    user = await answerer(table)
    decision, _ = await asked_of(table, user)
    other = {"other player": BOB if user == ALICE else ALICE, "observer": DAVE}.get(role, GM)
    writer = await member(table, other, spectator=role == "spectator")
    before = await stage_of(table)
    status, found = await writer.post("answer", {"decision": decision, "choice": "first"})
    if role == "spectator":
        assert (status, found["error"]) == (403, SPECTATOR)
    else:
        # The words /answer refuses them with, from the same service.
        with pytest.raises(Exception) as refused:
            await table.services.play.answer_here(PLACE, other, "first", "", decision)
        assert status in (403, 409) and found["error"] == str(refused.value), found
    assert await stage_of(table) == before


async def test_an_answer_without_the_pages_token_or_choice_is_refused(table: Table) -> None:
    user = await answerer(table)
    decision, _ = await asked_of(table, user)
    player = await member(table, user)
    before = await stage_of(table)
    status, found = await player.post("answer", {"decision": decision, "choice": "first"}, csrf="")
    assert status == 403 and "security token" in found["error"]
    status, found = await player.post("answer", {"decision": decision})
    assert status == 422 and "`choice` is the answer" in found["error"]
    status, found = await player.post("answer", {"decision": decision, "choice": "sideways"})
    assert status == 422, found
    assert await stage_of(table) == before


async def test_with_no_question_waiting_the_answer_says_so(table: Table) -> None:
    user = await answerer(table)
    player = await member(table, user)
    assert (await player.post("answer", {"choice": "first"}))[0] == 200
    status, found = await player.post("answer", {"choice": "first"})
    assert status == 404 and "no question" in found["error"].lower(), found
