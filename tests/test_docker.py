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
