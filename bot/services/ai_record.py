"""What the AI general said and why, as kept beside the record (#36): its answers to
questions with their reasons, and where a step began (its orders came before its questions).

Read by the AI general's service (everyone's once the step has resolved) and by the order book
(a GM's at once); kept apart so that neither imports the other.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import select

from bot.db.models import AiAnswer, StageLog

MOST_QUESTIONS = 20  # questions one step stops at, at most, looking back for its orders


@dataclass(frozen=True)
class AnsweredByAi:
    """A question the AI general answered for a side: the side, the question, the answer
    (its option's label) and why."""

    side_name: str
    question: str
    choice: str
    reason: str
    private: bool = False  # a private question's: its side's and the GM's alone

    @property
    def said(self) -> str:
        """The question and the answer, as one line shows them."""
        return f"{self.question} → {self.choice}"


async def step_start(session: Any, battle_id: int, stage: int) -> int:
    """The stage that gave the orders of the step ``stage`` belongs to: itself, or, when it
    is a question the step stopped at, the stage before the step's first question."""
    for _ in range(MOST_QUESTIONS):
        started = await session.scalar(
            select(StageLog.start_state).where(
                StageLog.battle_id == battle_id, StageLog.number == stage
            )
        )
        if not started or not started.get("pending"):
            break
        stage -= 1  # a question of the step: its orders came before it
    return stage


async def answers_between(
    session: Any, battle_id: int, first: int, last: int, sides: dict[str, str]
) -> list[AnsweredByAi]:
    """The AI's answers given at stages ``first`` to ``last``, oldest first, its sides named
    by ``sides`` (side id to name)."""
    rows = await session.scalars(
        select(AiAnswer)
        .where(AiAnswer.battle_id == battle_id, AiAnswer.stage.between(first, last))
        .order_by(AiAnswer.id)
    )
    return [
        AnsweredByAi(sides.get(r.side_id, r.side_id), r.question, r.choice, r.reason, r.private)
        for r in rows
    ]
