"""docker-compose.yml and its sharded override, read rather than run (no Docker engine in CI):
what they must keep true. `docker compose config` validates them where Compose is installed."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from bot.client import SHUTDOWN_GRACE_S
from bot.config import Settings

ROOT = Path(__file__).resolve().parents[1]


def compose(name: str = "docker-compose.yml") -> dict[str, Any]:
    loaded = yaml.safe_load((ROOT / name).read_text(encoding="utf-8"))
    assert isinstance(loaded, dict)
    return loaded


def seconds(text: str) -> float:
    assert text.endswith("s"), text
    return float(text[:-1])


def test_the_bot_runs_on_postgresql_whose_data_is_on_a_volume() -> None:
    services = compose()["services"]
    assert set(services) == {"bot", "postgres"}
    env = services["bot"]["environment"]
    assert env["DATABASE_URL"].startswith("postgresql+asyncpg://")
    assert "@postgres:5432/" in env["DATABASE_URL"]
    assert env["DISCORD_TOKEN"].startswith("${DISCORD_TOKEN:?")  # refuses to start without
    postgres = services["postgres"]
    volume = next(v for v in postgres["volumes"] if v.endswith(":/var/lib/postgresql/data"))
    assert volume.split(":")[0] in compose()["volumes"]
    # The bot waits until PostgreSQL accepts connections.
    assert services["bot"]["depends_on"]["postgres"]["condition"] == "service_healthy"
    assert "pg_isready" in " ".join(postgres["healthcheck"]["test"])


def test_the_container_health_is_the_bots_heartbeat() -> None:
    bot = compose()["services"]["bot"]
    assert bot["healthcheck"]["test"] == ["CMD", "python", "-m", "bot.health"]
    assert bot["environment"]["HEARTBEAT_FILE"]


def test_logs_are_json_and_every_setting_named_is_one_the_bot_reads() -> None:
    env = compose()["services"]["bot"]["environment"]
    assert env["LOG_FORMAT"] == "json"
    known = {name.upper() for name in Settings.model_fields}
    assert set(env) <= known, set(env) - known


def test_stop_gives_the_bot_time_to_close_gracefully() -> None:
    bot = compose()["services"]["bot"]
    assert bot["stop_signal"] == "SIGTERM"
    assert seconds(bot["stop_grace_period"]) > SHUTDOWN_GRACE_S


def test_the_sharded_override_gives_each_process_its_shards() -> None:
    services = compose("docker-compose.sharded.yml")["services"]
    shards = [
        (s["environment"]["SHARD_COUNT"], s["environment"]["SHARD_IDS"]) for s in services.values()
    ]
    count = {c for c, _ in shards}
    assert len(count) == 1  # every process with the same SHARD_COUNT
    ids = sorted(int(i) for _, group in shards for i in group.split(","))
    assert ids == list(range(int(count.pop())))  # every shard run once
    for service in services.values():
        Settings(shard_count=service["environment"]["SHARD_COUNT"],
                 shard_ids=service["environment"]["SHARD_IDS"])  # fmt: skip


def test_the_image_installs_the_postgresql_driver(tmp_path: Path) -> None:
    dockerfile = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    line = next(ln for ln in dockerfile.splitlines() if "tomllib" in ln)
    code = line.split('"', 1)[1].rsplit('"', 1)[0]
    (tmp_path / "pyproject.toml").write_bytes((ROOT / "pyproject.toml").read_bytes())
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, check=True
    )
    assert any(req.startswith("asyncpg") for req in out.stdout.splitlines())


@pytest.mark.skipif(
    shutil.which("docker") is None
    or subprocess.run(["docker", "compose", "version"], capture_output=True).returncode != 0,
    reason="Docker Compose is not installed",
)
def test_compose_accepts_both_files() -> None:
    env = {"DISCORD_TOKEN": "x", "PATH": "/usr/bin:/bin:/usr/local/bin"}
    for files in (["-f", "docker-compose.yml"],
                  ["-f", "docker-compose.yml", "-f", "docker-compose.sharded.yml"]):  # fmt: skip
        done = subprocess.run(
            ["docker", "compose", *files, "config", "--quiet"],
            cwd=ROOT, env=env, capture_output=True, text=True, check=False,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr


def test_compose_builds_the_bot_here_and_pulls_nothing_for_it() -> None:
    bot = compose()["services"]["bot"]
    assert bot["build"] == "."
    assert "image" not in bot  # a named image would be looked for on Docker Hub first
    assert bot["pull_policy"] == "build"


def test_the_bot_reads_env_and_the_database_does_not() -> None:
    services = compose()["services"]
    assert services["bot"]["env_file"] == ".env"
    assert "env_file" not in services["postgres"]  # the bot's token stays out of PostgreSQL


def test_the_database_password_has_no_silent_default() -> None:
    text = (ROOT / "docker-compose.yml").read_text(encoding="utf-8")
    uses = re.findall(r"\$\{POSTGRES_PASSWORD([^}]*)\}", text)
    assert len(uses) == 2  # the server's password and the bot's DATABASE_URL
    assert all(use.startswith(":?") and "set POSTGRES_PASSWORD in .env" in use for use in uses)


def test_the_docs_change_the_password_with_alter_user_on_composes_database() -> None:
    postgres = compose()["services"]["postgres"]["environment"]
    user, database = postgres["POSTGRES_USER"], postgres["POSTGRES_DB"]
    docs = (ROOT / "docs" / "self-hosting.md").read_text(encoding="utf-8")
    alter = next(ln for ln in docs.splitlines() if "ALTER USER" in ln)
    assert alter.startswith(f"docker compose exec postgres psql -U {user} -d {database} -c ")
    assert f"ALTER USER {user} PASSWORD '" in alter
    assert "docker compose up -d --build" in docs and "docker compose pull" not in docs
