"""The AI general's answers (#36): each kept with its one-line reason (the GM's at once in
``/orders all``, everyone's once the step resolves), and under the ``ai`` missed-deadline
policy a player's question left unanswered at its deadline gets the AI's answer, said in the
result, not the default. Skirmish, on a real SQLite file and the fake clock."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import select

from bot.db.models import AiAnswer, RecordEntry
from bot.db.session import Database
from bot.presentation.general import ai_orders_text
from bot.presentation.orders import order_book_text
from bot.services import Services
from bot.services.ai_seat import AI_GENERAL, STAND_IN_ANSWERS
from bot.services.campaigns import Place
from bot.services.stages import StageReport
from tests.bot.battle_setup import deployed_battle
from tests.bot.test_gm_and_deadlines import clock, fire_deadlines, services
from tests.conftest import ALICE, BOB, GM
from tests.e2e.fake_clock import FakeClock

__all__ = ["clock", "services"]  # the fixtures, used by name
SIDES = {"a": "Red", "b": "Blue"}


async def asked(services: Services, place: Place, missing: str = "default") -> StageReport:
    """The skirmish's first question (who moves first), put to one side's player; missed
    deadlines under the ``missing`` policy."""
    await deployed_battle(services, place)
    await services.campaigns.set_deadlines(place, GM, None, None, None, missing)
    await services.play.start(place, GM)
    await services.play.confirm(place, ALICE)
    report = (await services.play.confirm(place, BOB)).report
    assert report is not None and report.decision is not None
    return report


async def kept(db: Database) -> list[AiAnswer]:
    """Every answer the AI gave, oldest first."""
    async with db.read() as session:
        return list(await session.scalars(select(AiAnswer).order_by(AiAnswer.id)))


async def answers_on_record(db: Database) -> list[dict[str, object]]:
    """The record's answers to questions: which, and who gave them."""
    async with db.read() as session:
        rows = await session.scalars(select(RecordEntry).order_by(RecordEntry.seq))
        return [r.entry["answer"] for r in rows if r.entry.get("answer")]


async def test_the_ai_s_answer_keeps_its_reason_shown_once_the_step_resolves(
    services: Services, place: Place, db: Database
) -> None:
    question = await asked(services, place)
    assert question.decision is not None
    side = question.decision.side
    await services.battles.hand_over(place, GM, SIDES[side], AI_GENERAL)
    report = await services.general.next_step(question.battle.id)
    assert report is not None and report.battle.waiting_step == "Movement"  # answered at once
    (answer,) = await kept(db)
    assert (answer.side_id, answer.stage) == (side, question.stage)
    assert answer.reason and answer.choice and answer.question
    explained = await services.general.explained(report.battle.id, report.stage - 1)
    said = [e for e in explained if e.summary == f"{answer.question} → {answer.choice}"]
    assert [(e.actor, e.reason) for e in said] == [(SIDES[side], answer.reason)]


async def keep_answer(
    db: Database,
    question: StageReport,
    asked_what: str,
    choice: str,
    reason: str,
    private: bool = False,
) -> None:
    """An answer of the AI general to the open question of side "a", kept as the AI keeps it."""
    async with db.write() as session:
        session.add(
            AiAnswer(
                battle_id=question.battle.id,
                stage=question.stage,
                side_id="a",
                question=asked_what,
                choice=choice,
                reason=reason,
                private=private,
            )
        )


async def test_the_gm_reads_the_ai_s_answers_of_the_open_step_at_once(
    services: Services, place: Place, db: Database
) -> None:
    question = await asked(services, place)
    # as the AI leaves it while other questions stay open
    await keep_answer(
        db, question, "Who moves first?", "First", "first: to charge before they close"
    )
    book = await services.order_book.book(place, GM)
    assert [(a.side_name, a.said, a.reason) for a in book.ai_answers] == [
        ("Red", "Who moves first? → First", "first: to charge before they close")
    ]
    assert order_book_text(book).endswith(
        "Answers by the AI general in this step:\n"
        "Red · Who moves first? → First (AI: first: to charge before they close)"
    )
    assert (await services.order_book.book(place, ALICE)).ai_answers == ()  # not the players'


async def test_an_answer_to_a_private_question_stays_out_of_everyone_s_post(
    services: Services, place: Place, db: Database
) -> None:
    question = await asked(services, place)
    await keep_answer(  # as the AI keeps its answer to a private question
        db,
        question,
        "Which warband does your champion lead?",
        "the left",
        "the left: its flank is open",
        private=True,
    )
    explained = await services.general.explained(question.battle.id, question.stage)
    posted = ai_orders_text(explained)
    assert "- **Red**: answered a private question" in posted
    assert "champion" not in posted and "the left" not in posted  # neither question nor answer
    book = await services.order_book.book(place, GM)  # the GM reads it whole, at once
    assert [(a.said, a.reason) for a in book.ai_answers] == [
        ("Which warband does your champion lead? → the left", "the left: its flank is open")
    ]


async def test_a_question_missed_under_the_ai_policy_gets_the_ai_s_answer(
    services: Services, place: Place, db: Database, clock: FakeClock
) -> None:
    question = await asked(services, place, "ai")
    assert question.decision is not None
    side = question.decision.side
    fired = await fire_deadlines(services, db, clock, timedelta(hours=25))
    (report,) = [f for f in fired if isinstance(f, StageReport)]
    assert report.trigger == STAND_IN_ANSWERS  # said in the result
    assert report.battle.waiting_step == "Movement"
    (answer,) = await kept(db)
    assert answer.side_id == side
    (on_record,) = await answers_on_record(db)
    assert (on_record["by"], on_record["decision"]) == (side, "initiative")  # not the default
    explained = await services.general.explained(report.battle.id, report.stage - 1)
    assert [e.reason for e in explained] == [answer.reason]
