"""The end of a battle: the result, losses written back to the armies, the seed revealed."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime

from sqlalchemy.ext.asyncio import AsyncSession

from bot.db.models import BattleStatus
from bot.services.battle_state import Loaded, cancel_deadlines
from bot.services.records import record_bytes
from rules_core.state import Outcome


@dataclass(frozen=True)
class ArmyLosses:
    """The units one army (or side) lost in the battle: destroyed by the carry-over rule at its
    end, or, in the after-action report, gone from the table, of the ``started`` it began with."""

    army: str
    lost: tuple[str, ...]
    started: int = 0  # counted only by the after-action report


@dataclass(frozen=True)
class EndReport:
    """How a battle ended, what each army lost, the revealed seed and the record file."""

    battle_name: str
    result: str
    losses: tuple[ArmyLosses, ...]
    seed: str
    record: bytes


async def finish(
    session: AsyncSession, loaded: Loaded, outcome: Outcome, now: datetime
) -> tuple[EndReport, list[int]]:
    """Close the battle: keep the result, write losses back, reveal the seed.

    A battle ended during set-up was never fought: its armies are left exactly as they were.
    """
    battle = loaded.battle
    fought = battle.status is not BattleStatus.SETUP
    if loaded.state.outcome is None:
        loaded.save(replace(loaded.state, outcome=outcome))
    battle.status = BattleStatus.FINISHED
    battle.finished_at = now
    battle.deadline_at = None
    disarmed = await cancel_deadlines(session, battle.id)
    result = result_text(loaded, outcome)
    losses = _write_back(loaded) if fought else []
    # "unposted" is the outbox marker of the end post, cleared once it is out (outbox.py).
    battle.result = {
        "winner": outcome.winner,
        "reason": outcome.reason,
        "text": result,
        "losses": [[loss.army, list(loss.lost)] for loss in losses],
        "unposted": True,
    }
    record = await record_bytes(session, loaded, reveal=True)
    report = EndReport(battle.name, result, tuple(losses), battle.seed, record)
    return report, disarmed


def result_text(loaded: Loaded, outcome: Outcome) -> str:
    """``Red wins: every other army has broken``, or a draw."""
    names = {s.side_id: s.name for s in loaded.battle.sides}
    if outcome.winner is None:
        return f"A draw: {outcome.reason}"
    return f"{names.get(outcome.winner, outcome.winner)} wins: {outcome.reason}"


def _write_back(loaded: Loaded) -> list[ArmyLosses]:
    """Each army's roster updated by the ruleset's carry-over rule; what each army lost."""
    armies = {a.id: a for a in loaded.campaign.armies}
    # Every unit still in the battle, on the table or not: one off the table (a pursuit) or
    # held in reserve is not lost; its ruleset's carry_over decides from its location.
    on_table = {u.id: u for u in loaded.state.units}
    losses = []
    for side in sorted(loaded.battle.sides, key=lambda s: s.side_id):
        army = armies.get(side.army_id or -1)
        if army is None:
            continue
        entries = army.roster["units"]
        updated = [
            loaded.rules.carry_over(entry, on_table.get(f"{side.side_id}{i + 1}"))
            for i, entry in enumerate(entries)
        ]
        lost = [str(e["name"]) for e in updated if e.get("status") == "destroyed"]
        army.roster = {**army.roster, "units": updated}
        losses.append(ArmyLosses(army.name, tuple(lost)))
    return losses
