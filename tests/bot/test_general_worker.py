"""The AI general's planning runs in the engine's worker process (#36), from the side's view."""

from __future__ import annotations

import os

from bot.engine_worker import side_plan, worker_pid
from bot.services import resolving
from rules_core import engine, registry, resume
from rules_core.big_battles import big_battle
from tests.bot.test_engine_process import in_process, play

__all__ = ["in_process"]  # the fixture, used by name


async def test_the_side_s_plan_is_worked_out_in_the_worker_process(in_process: None) -> None:
    rules = registry.get("skirmish").rules
    assert rules is not None
    steps = await play(rules, big_battle(rules, 6), 4)
    battle = next(r.state for r in steps if r.state.pending is None and r.state.outcome is None)
    side = engine.waiting(rules, battle).sides[0]
    assert await resolving.off_loop(worker_pid) != os.getpid()
    there, spent = await resolving.off_loop(side_plan, rules, battle, side, 7, 0.5)
    here, _ = side_plan(rules, battle, side, 7, 0.5)
    assert there == here and there  # the same orders, each with its reason
    assert spent > 0  # the CPU time it took, counted against the side's turn
    assert all(advice.reason for advice in there)
    mine = {u.id for u in battle.units if u.side == side}
    assert {advice.order.actor for advice in there} <= mine | {side}
    await resolving.off_loop(resume.forget)  # no resolution left paused in the worker
