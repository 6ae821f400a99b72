"""Questions with typed answers through the services: an option among 30 (by id or label), a
unit and an option open at once, a point, a number in a range, a facing and a leader; a GM
answers with a reason."""

from __future__ import annotations

import json

import pytest

from bot.errors import Conflict, InvalidInput, PermissionDenied
from bot.services import Services
from bot.services.campaigns import Place
from rules_core.plugin import Rules
from tests.bot.test_actor_orders import mustered
from tests.conftest import ALICE, BOB, GM


async def at_parley(services: Services, place: Place, rules: Rules) -> int:
    """A Muster battle past its first council and march, waiting at the parley's first question."""
    await mustered(services, place, rules)
    for _ in range(2):
        await services.play.confirm(place, ALICE)
        report = (await services.play.confirm(place, BOB)).report
    assert report is not None and report.decision is not None
    assert report.decision.decision_id == "omen" and len(report.decision.options) == 30
    return report.battle.id


async def answer(services: Services, battle_id: int, user: int, text: str, reason: str = ""):  # type: ignore[no-untyped-def]
    """Answer the waiting question; the report of what followed."""
    async with services.play.db.read() as session:
        from bot.services.battle_state import load_battle_by_id

        loaded = await load_battle_by_id(session, battle_id)
        assert loaded is not None
        stage = loaded.battle.stage
    return await services.play.answer(battle_id, stage, user, None, text, reason)


async def test_every_answer_kind_is_checked_and_read(
    muster: Rules, services: Services, place: Place
) -> None:
    battle = await at_parley(services, place, muster)
    with pytest.raises(PermissionDenied, match="not yours to answer"):
        await answer(services, battle, BOB, "omen_2")
    with pytest.raises(InvalidInput, match="`omen 31` is not one of the answers"):
        await answer(services, battle, ALICE, "omen 31")
    both = await answer(services, battle, ALICE, "omen 27")  # its label, as typed
    champion, banner = both.questions  # two questions open at once
    assert (champion.answer, banner.decision_id) == ("unit", "banner")
    horse = next(o for o, label in champion.options if label == "Blue Horse")
    assert await answer(services, battle, BOB, "Blue Horse") is None  # the banner is still open
    with pytest.raises(Conflict, match="already been answered"):
        await services.play.answer(battle, both.battle.stage, BOB, "champion", horse)
    herald = await answer(services, battle, ALICE, "furl")
    assert herald.decision is not None and herald.decision.answer == "point"
    with pytest.raises(InvalidInput, match="is not a point: answer `x,y`"):
        await answer(services, battle, ALICE, "north")
    wager = await answer(services, battle, ALICE, "(30, 20)")
    assert wager.decision is not None and (wager.decision.low, wager.decision.high) == (1, 6)
    with pytest.raises(InvalidInput, match="give a number from 1 to 6"):
        await answer(services, battle, BOB, "9")
    turn = await answer(services, battle, BOB, "5")
    assert turn.decision is not None and turn.decision.answer == "facing"
    with pytest.raises(InvalidInput, match="from 0 to 360"):
        await answer(services, battle, ALICE, "400")
    envoy = await answer(services, battle, ALICE, "270")
    assert envoy.decision is not None and envoy.decision.answer == "leader"
    done = await answer(services, battle, GM, envoy.decision.options[1][1], "Blue is away")

    state = done.battle.state
    red, blue = state.sides
    assert red.status["omen"] == "omen_27" and red.status["herald"] == "30,20"
    assert red.status["banner"] == "furl"
    assert blue.status["wager"] == 5 and blue.status["envoy"] == envoy.decision.options[1][0]
    assert state.unit(horse).status["champion"] is True
    assert state.units_of(red.id)[0].facing == 270
    record = json.loads(await services.records.record(place))
    answers = [e["answer"] for e in record["entries"] if e["action"] == "answer"]
    assert [a["decision"] for a in answers] == [
        "omen", "champion", "banner", "herald", "wager", "turn", "envoy",
    ]  # fmt: skip
    assert answers[-1]["by"] == "gm" and answers[-1]["reason"] == "Blue is away"
    assert answers[0] == {"decision": "omen", "choice": "omen_27", "by": red.id, "reason": ""}
