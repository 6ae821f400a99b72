"""The real bot with ``ENGINE=process``: every resolution, answer and question runs in the
engine's worker process. The fixed-seed skirmish of ``test_battle_scenario`` plays exactly as
with the engine in a thread (its own assertions check each post), its record verifies, and the
worker stops with the bot. A worker killed while the battle starts changes nothing: the GM is
told, and starting again works."""

from __future__ import annotations

import asyncio
import json
import multiprocessing
import os
import signal
from pathlib import Path

import pytest

from bot.engine_worker import worker_pid
from bot.services import resolving
from rules_core.verify import verify
from tests.bot.test_engine_process import held_until, until
from tests.e2e import test_battle_scenario as scenario
from tests.e2e.conftest import MakeHarness
from tools.harness import Harness
from tools.skirmish_battle import BATTLE, posts, reports, set_up_battle

pytestmark = pytest.mark.usefixtures("fixed_seed")
STARTING = 60.0  # s: the worker process imports the rules while the bot connects (loaded CI)


def children() -> set[int]:
    """The pids of this process's live child processes."""
    return {p.pid for p in multiprocessing.active_children() if p.pid is not None}


async def in_process(make_aide: MakeHarness) -> tuple[Harness, int]:
    """The bot with its engine in a worker process; the worker's pid."""
    h = await make_aide(engine="process")
    h.timeout = STARTING  # its first calls wait for the worker's imports on a loaded machine
    pid = await resolving.off_loop(worker_pid)
    assert resolving.mode() == "process"
    assert pid != os.getpid() and pid in children()
    return h, pid


async def test_a_battle_played_with_the_engine_in_a_worker_process(
    make_aide: MakeHarness, fixed_seed: bytes
) -> None:
    h, pid = await in_process(make_aide)
    where = h.channel("hundred-years")
    published = await scenario.play_to_turn_three(h, where, fixed_seed)
    assert await resolving.off_loop(worker_pid) == pid  # one worker throughout

    asked = await h.slash(h.gm, "battle end", channel=where, reason="Dusk", winner="Blue")
    await h.click(h.gm, asked, label="Confirm")
    (record_file,) = h.messages(where)[-1].files
    record = json.loads(record_file.data)
    assert record["seed_sha256"] == published
    checked = verify(record)
    assert checked.ok, checked.problem

    await h.stop_bot()  # a graceful close stops the worker
    assert pid not in children()
    assert resolving.mode() == "thread"


async def test_a_worker_killed_while_the_battle_starts_changes_nothing(
    make_aide: MakeHarness, fixed_seed: bytes, tmp_path: Path
) -> None:
    h, pid = await in_process(make_aide)
    where = h.channel("hundred-years")
    await set_up_battle(h, where)
    before = await h.slash(h.gm, "battle status", channel=where)

    # The worker is busy when the GM starts the battle; it dies before the start's call is done.
    held = asyncio.ensure_future(resolving.off_loop(held_until, str(tmp_path / "never")))
    starting = asyncio.ensure_future(h.slash(h.gm, "battle start", channel=where))
    await until(lambda: resolving.calls_waiting() == 2)
    os.kill(pid, signal.SIGKILL)
    refusal = await starting
    assert refusal.ephemeral
    assert refusal.content == resolving.ENGINE_STOPPED
    with pytest.raises(resolving.EngineStopped):
        await held

    # Nothing was written: the battle is still being set up as it was, and nothing posted.
    status = await h.slash(h.gm, "battle status", channel=where)
    assert status.embeds[0]["title"] == f"{BATTLE} (setup)"
    assert status.text == before.text
    assert not [m for m in posts(h, where) if m.embeds and "begins" in m.embeds[0]["title"]]
    assert reports(h, where) == []

    # Starting again goes to a new worker and goes through as it would have.
    await scenario.start(h, where, fixed_seed)
    assert await resolving.off_loop(worker_pid) not in {pid, os.getpid()}
