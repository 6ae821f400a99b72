"""The heartbeat a container's health check reads."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest

from bot import health


def test_a_fresh_beat_is_healthy_a_stale_or_missing_one_is_not(tmp_path: Path) -> None:
    beat = tmp_path / "beat"
    assert "has not connected" in (health.problem(beat) or "")
    beat.touch()
    assert health.problem(beat) is None
    stale = beat.stat().st_mtime + health.STALE_SECONDS + 5
    assert "stuck or disconnected" in (health.problem(beat, now=stale) or "")


async def test_the_bot_beats_only_while_connected(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(health, "BEAT_SECONDS", 0.01)
    beat, connected = tmp_path / "beat", [False]
    task = asyncio.create_task(health.beat_forever(beat, lambda: connected[0]))
    await asyncio.sleep(0.05)
    assert not beat.exists()
    connected[0] = True
    await asyncio.sleep(0.05)
    task.cancel()
    assert beat.exists()


def test_main_reads_heartbeat_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HEARTBEAT_FILE", str(tmp_path / "beat"))
    assert health.main([]) == 1
    (tmp_path / "beat").touch()
    assert health.main([]) == 0
    monkeypatch.setenv("HEARTBEAT_FILE", "")
    assert health.main([]) == 1
    assert os.environ["HEARTBEAT_FILE"] == ""


async def test_no_beat_while_the_database_does_not_answer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(health, "BEAT_SECONDS", 0.01)
    beat, answers = tmp_path / "beat", [False]

    async def database_ok() -> bool:
        if not answers[0]:
            raise OSError("connection refused")
        return True

    task = asyncio.create_task(health.beat_forever(beat, lambda: True, database_ok))
    await asyncio.sleep(0.05)
    assert not beat.exists()
    answers[0] = True
    await asyncio.sleep(0.05)
    task.cancel()
    assert beat.exists()


async def test_the_bot_asks_its_database(db_url: str) -> None:
    from bot.client import AideBot
    from bot.config import Settings

    bot = AideBot(Settings(discord_token="x", database_url=db_url))
    try:
        assert await bot.database_ok()
    finally:
        await bot.db.dispose()
