"""SHARD_COUNT and SHARD_IDS: read from the environment, refused with one clear line each."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bot.client import AideBot, ShardedAideBot, make_bot
from bot.config import Settings


def settings(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, **env: str) -> Settings:
    monkeypatch.chdir(tmp_path)  # no .env of the developer's
    for name in ("SHARD_COUNT", "SHARD_IDS"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    return Settings()


def test_unsharded_by_default(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    assert settings(monkeypatch, tmp_path).shards is None


@pytest.mark.parametrize(
    ("env", "shards"),
    [
        ({"SHARD_COUNT": "4"}, (4, (0, 1, 2, 3))),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "3,1"}, (4, (1, 3))),
        ({"SHARD_COUNT": "4", "SHARD_IDS": " 2 "}, (4, (2,))),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "0, 1"}, (2, (0, 1))),
        ({"SHARD_COUNT": "3", "SHARD_IDS": ""}, (3, (0, 1, 2))),
    ],
)
def test_shards_from_the_environment(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, env: dict[str, str], shards: object
) -> None:
    assert settings(monkeypatch, tmp_path, **env).shards == shards


@pytest.mark.parametrize(
    ("env", "line"),
    [
        ({"SHARD_IDS": "1"}, "Invalid settings: SHARD_IDS needs SHARD_COUNT"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "0,2"}, "Invalid settings: SHARD_IDS 2 not below"),
        ({"SHARD_COUNT": "0"}, "Invalid settings: SHARD_COUNT must be at least 1"),
        (
            {"SHARD_COUNT": "2", "SHARD_IDS": "1,1"},
            "Invalid settings: SHARD_IDS names shard 1 twice",
        ),
        (
            {"SHARD_COUNT": "2", "SHARD_IDS": "one"},
            "Invalid setting SHARD_IDS: must be shard numbers",
        ),
        ({"SHARD_COUNT": "two"}, "Invalid setting SHARD_COUNT: Input should be a valid integer"),
    ],
)
def test_bad_shards_stop_the_bot_with_one_line(
    tmp_path: Path, env: dict[str, str], line: str
) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "bot"], cwd=tmp_path, capture_output=True, text=True,
        env={"PATH": "/usr/bin:/bin", "DISCORD_TOKEN": "x", **env}, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 2
    assert done.stderr.startswith(line) and done.stderr.count("\n") == 1, done.stderr


async def test_the_sharded_bot_runs_its_shards(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'a.db'}"
    plain = make_bot(Settings(discord_token="x", database_url=url))
    sharded = make_bot(
        Settings(discord_token="x", database_url=url, shard_count=4, shard_ids="1,3")
    )
    try:
        assert type(plain) is AideBot
        assert isinstance(sharded, ShardedAideBot)
        assert (sharded.shard_count, sharded.shard_ids) == (4, [1, 3])
        assert sharded.deadlines.shards == (4, (1, 3))
        assert sharded.services.outbox.shards == (4, (1, 3))
    finally:
        await plain.db.dispose()
        await sharded.db.dispose()
