"""``bench.scale`` runs at its smoke size and prints every figure beside its target; its
lock timer sees each write transaction and nothing else."""

from __future__ import annotations

import asyncio
import os

import pytest
from sqlalchemy import text

from bench.engine_starts import engine_starts
from bench.lock_hold import LockHold
from bench.scale import main, pct
from bot.db.session import Database
from rules_core import engine, registry
from rules_core.big_battles import begun

POSTGRES = os.environ.get("TEST_POSTGRES_URL", "")
TARGETED = (
    ("writes on small battles, one resolving", "<= 100 ms (or <= 2x idle p99"),
    ("writes on small battles, two resolving", "<= 100 ms (or <= 2x idle p99"),
    ("reads on small battles, one resolving", "<= 2x idle p99"),
    ("reads on small battles, two resolving", "<= 2x idle p99"),
    ("second of two big resolutions: start delay", "<= 50 ms"),
    ("write lock held per transaction", "<= 20 ms"),
)
UNTARGETED = (
    "writes on small battles, idle",
    "reads on small battles, idle",
    "big resolution alone, wall: median",
    "big resolution: CPU each",
    "big resolution: lock held, longest",
    "command: CPU each, idle",
)


def test_smoke_run_prints_every_figure_with_its_target(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--smoke"]) == 0
    rows = [r for r in capsys.readouterr().out.splitlines() if r.startswith("| ")]
    for name, target in TARGETED:
        found = [r for r in rows if r.startswith(f"| {name}") and target in r]
        assert len(found) == 1, name
        assert found[0].rstrip().endswith(("| yes |", "| **no** |"))
    for name in UNTARGETED:
        assert any(r.startswith(f"| {name}") for r in rows), name
    both = next(r for r in rows if r.startswith("| second of two big resolutions: rounds both"))
    assert both.startswith("| second of two big resolutions: rounds both resolved (of 1) | 1.0 ")
    holds = next(r for r in rows if r.startswith("| write lock held per transaction"))
    assert "(n=0)" not in holds  # the timer saw the players' writes


def test_processes_and_throughput_need_postgres() -> None:
    for mode in (["--processes", "2"], ["--throughput"]):
        with pytest.raises(SystemExit) as refused:
            main(["--smoke", *mode])
        assert refused.value.code == 2


async def test_lock_hold_times_each_write_transaction_and_no_read(db: Database) -> None:
    holds = LockHold(db)
    async with db.read() as session:
        await session.execute(text("SELECT 1"))
    assert holds.holds == []
    for _ in range(2):
        async with db.write() as session:
            await session.execute(text("SELECT 1"))
            await asyncio.sleep(0.05)  # held at least this long: the hold spans the transaction
    assert len(holds.holds) == 2
    assert min(holds.holds) >= 50.0
    assert holds.since(1) == holds.holds[1:]


def test_pct_is_the_nearest_rank() -> None:
    values = [float(v) for v in range(1, 101)]
    assert (pct(values, 0.5), pct(values, 0.99), pct(values, 1.0)) == (50.0, 99.0, 100.0)
    assert pct([], 0.99) == 0.0


def test_engine_starts_notes_each_battles_first_engine_call_and_restores_the_engine() -> None:
    rules = registry.get("skirmish").rules
    assert rules is not None
    state = begun(rules, 8)
    original = engine.run
    with engine_starts() as firsts:
        engine.settle(rules, b"one", engine.run(rules, b"one", state))
        engine.run(rules, b"two", state)
    assert set(firsts) == {b"one", b"two"}
    assert firsts[b"one"] <= firsts[b"two"]
    assert engine.run is original


@pytest.mark.skipif(not POSTGRES, reason="TEST_POSTGRES_URL is not set (.ci/postgres start)")
def test_processes_and_throughput_on_postgres_print_their_figures(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["--smoke", "--postgres", POSTGRES, "--processes", "2"]) == 0
    assert main(["--smoke", "--postgres", POSTGRES, "--throughput"]) == 0
    rows = [r for r in capsys.readouterr().out.splitlines() if r.startswith("| ")]
    b_p99 = [r for r in rows if r.startswith("| process B writes while A resolves")]
    assert any("<= 100 ms" in r and r.rstrip().endswith(("| yes |", "| **no** |")) for r in b_p99)
    assert any(r.startswith("| process A: big steps resolved meanwhile") for r in rows)
    for count in (1, 2, 3):
        found = next(r for r in rows if r.startswith(f"| writes per second, {count} process"))
        assert "| 0.0 /s |" not in found  # each child ran and reported its writes
