"""The Docker image, read rather than built (no Docker engine in CI): what it must keep true."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOCKERFILE = (ROOT / "Dockerfile").read_text(encoding="utf-8")


def test_the_build_context_leaves_out_the_venv_database_and_secrets() -> None:
    ignored = (ROOT / ".dockerignore").read_text(encoding="utf-8").split()
    for entry in (".venv", ".env", "data", "*.db", ".git", "__pycache__", "demo-out"):
        assert entry in ignored


def test_dependencies_install_before_the_code_is_copied() -> None:
    install_deps = DOCKERFILE.index("pip install -r")
    assert DOCKERFILE.index("COPY pyproject.toml") < install_deps
    assert install_deps < DOCKERFILE.index("COPY bot ") < DOCKERFILE.index("--no-deps .")


def test_the_requirements_line_reads_every_dependency(tmp_path: Path) -> None:
    line = next(ln for ln in DOCKERFILE.splitlines() if "tomllib" in ln)
    code = line.split('"', 1)[1].rsplit('"', 1)[0]
    (tmp_path / "pyproject.toml").write_bytes((ROOT / "pyproject.toml").read_bytes())
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, check=True
    )
    assert "discord.py>=2.7,<2.8" in out.stdout.splitlines()


def test_a_health_check_and_an_entrypoint_that_makes_data_writable() -> None:
    assert "HEALTHCHECK" in DOCKERFILE and "bot.health" in DOCKERFILE
    assert "HEARTBEAT_FILE=" in DOCKERFILE
    assert 'ENTRYPOINT ["docker-entrypoint.sh"]' in DOCKERFILE
    script = ROOT / "docker-entrypoint.sh"
    assert os.access(script, os.X_OK)
    text = script.read_text(encoding="utf-8")
    assert "chown -R aide:aide /data" in text and "setpriv --reuid=aide" in text


def test_docker_stop_reaches_the_bot_as_sigterm_and_it_closes_in_time() -> None:
    """SIGTERM is the stop signal; the entrypoint execs (no shell in between to swallow it);
    the bot's shutdown grace fits inside Docker's default 10 s before SIGKILL. That the bot
    closes on SIGTERM with status 0 is checked on a real process in
    tests/e2e/test_crash_anywhere.py (each graceful restart)."""
    from bot.client import SHUTDOWN_GRACE_S

    assert "STOPSIGNAL SIGTERM" in DOCKERFILE
    assert 'CMD ["python", "-m", "bot"]' in DOCKERFILE  # exec form: python is the process
    script = (ROOT / "docker-entrypoint.sh").read_text(encoding="utf-8")
    runs = [ln.strip() for ln in script.splitlines() if '"$@"' in ln]
    assert runs and all(ln.startswith("exec ") for ln in runs), runs
    assert SHUTDOWN_GRACE_S < 10


def test_the_image_builds_without_buildkit() -> None:
    """``COPY --chmod`` (and any ``--chmod``/``--chown`` flag, or a ``# syntax=`` line) needs
    BuildKit; the entrypoint is made executable in a RUN instead."""
    assert "--chmod" not in DOCKERFILE and "# syntax=" not in DOCKERFILE
    copy = DOCKERFILE.index("COPY docker-entrypoint.sh /usr/local/bin/docker-entrypoint.sh")
    assert copy < DOCKERFILE.index("RUN chmod 755 /usr/local/bin/docker-entrypoint.sh")


def test_settings_are_given_at_run_time_never_baked_into_the_image() -> None:
    copied = [ln.split()[1:-1] for ln in DOCKERFILE.splitlines() if ln.startswith("COPY ")]
    assert all(source not in (".", "./", ".env") for sources in copied for source in sources)
    assert "DISCORD_TOKEN" not in DOCKERFILE  # no token, not even an empty one, in ENV
    docs = (ROOT / "docs" / "self-hosting.md").read_text(encoding="utf-8")
    runs = [ln for ln in docs.splitlines() if ln.startswith("docker run ")]
    assert runs and all("--env-file .env" in ln for ln in runs)
