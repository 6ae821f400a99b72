""".ci/postgres: a throwaway PostgreSQL server that starts, answers at the URL it prints, can
be started and stopped twice, and leaves nothing behind."""

from __future__ import annotations

import glob
import os
import socket
import subprocess
from pathlib import Path

import pytest

from tests.databases import on_postgres, query

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / ".ci" / "postgres"

pytestmark = [
    pytest.mark.skipif(
        not glob.glob("/usr/lib/postgresql/*/bin/initdb"), reason="no PostgreSQL server installed"
    ),
    # The PostgreSQL run of CI starts its server with this script already.
    pytest.mark.skipif(on_postgres(), reason="this run's server came from .ci/postgres"),
]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def run(command: str, port: int) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "POSTGRES_PORT": str(port)}
    env.pop("TMPDIR", None)
    return subprocess.run(
        [str(SCRIPT), command], env=env, capture_output=True, text=True, timeout=120, check=False
    )


def test_start_twice_answers_at_the_printed_url_then_stop_twice_leaves_nothing() -> None:
    port = free_port()
    folder = Path(f"/tmp/aide-de-camp-postgres.{port}")
    try:
        first = run("start", port)
        assert first.returncode == 0, first.stderr
        url = f"postgresql+asyncpg://aide:aide@127.0.0.1:{port}/aide_de_camp"
        assert first.stdout.splitlines() == [
            f"export POSTGRES_PORT={port}",
            f"export TEST_POSTGRES_URL={url}",
        ]
        again = run("start", port)
        assert (again.returncode, again.stdout) == (0, first.stdout), again.stderr
        assert "already running" in again.stderr
        assert run("url", port).stdout.strip() == url
        assert query(url, "SELECT current_database(), ?::int + 1", 41) == [("aide_de_camp", 42)]
    finally:
        stopped = run("stop", port)
    assert stopped.returncode == 0, stopped.stderr
    assert not folder.exists()
    assert run("stop", port).returncode == 0
    assert run("url", port).returncode == 1
