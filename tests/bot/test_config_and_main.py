"""Settings and the entry point: defaults, environment, the missing-token exit."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import aiohttp
import discord
import pytest
from pydantic import ValidationError

from bot.__main__ import startup_failure
from bot.config import DEFAULT_DATABASE_URL, Settings, database_problem, ensure_sqlite_folder


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """No settings leak in from the machine; no .env is read from the repository."""
    for name in ("DISCORD_TOKEN", "DATABASE_URL", "DEV_GUILD_ID", "LOG_LEVEL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)


def test_defaults() -> None:
    settings = Settings()
    assert settings.discord_token == ""
    assert settings.database_url == DEFAULT_DATABASE_URL
    assert settings.dev_guild_id is None
    assert settings.log_level == "INFO"


def test_environment_and_dotenv(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("DISCORD_TOKEN=from-file\nDEV_GUILD_ID=123\n")
    monkeypatch.setenv("LOG_LEVEL", "debug")
    monkeypatch.setenv("DEV_GUILD_ID", "456")
    settings = Settings()
    assert (settings.discord_token, settings.dev_guild_id, settings.log_level) == (
        "from-file",
        456,
        "DEBUG",
    )


def test_blank_dev_guild_is_none(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DEV_GUILD_ID", "")
    assert Settings().dev_guild_id is None


def test_bad_values_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LOG_LEVEL", "loud")
    with pytest.raises(ValidationError):
        Settings()


def test_sqlite_folder_is_created(tmp_path: Path) -> None:
    ensure_sqlite_folder(f"sqlite+aiosqlite:///{tmp_path}/a/b/bot.db")
    assert (tmp_path / "a" / "b").is_dir()
    ensure_sqlite_folder("postgresql+asyncpg://u@h/db")  # not a file: nothing to do


def run_bot(tmp_path: Path, *arguments: str, **env: str) -> subprocess.CompletedProcess[str]:
    """Run ``python -m bot ARGUMENTS`` in an empty folder with only the given settings."""
    base = {k: v for k, v in os.environ.items() if k not in {"DISCORD_TOKEN", "DEV_GUILD_ID"}}
    base["PYTHONPATH"] = str(Path(__file__).resolve().parents[2])
    return subprocess.run(
        [sys.executable, "-m", "bot", *arguments],
        cwd=tmp_path,
        env={**base, **env},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_missing_token_exits_2_with_one_line(tmp_path: Path) -> None:
    result = run_bot(tmp_path)
    assert result.returncode == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1
    assert "DISCORD_TOKEN" in lines[0] and "Traceback" not in result.stderr


def test_invalid_setting_exits_2_without_traceback(tmp_path: Path) -> None:
    result = run_bot(tmp_path, DISCORD_TOKEN="x", DEV_GUILD_ID="not-a-number")
    assert result.returncode == 2
    assert "Invalid setting DEV_GUILD_ID" in result.stderr
    assert "Traceback" not in result.stderr


def test_startup_failures_a_user_can_fix_are_one_line() -> None:
    assert startup_failure(discord.LoginFailure("bad")) == (
        "Discord rejected DISCORD_TOKEN: copy a fresh token from the Developer Portal.",
        2,
    )
    line, status = startup_failure(aiohttp.ClientConnectionError("no route")) or ("", 0)
    assert line.startswith("Cannot reach Discord (no route)") and status == 1
    assert startup_failure(ZeroDivisionError()) is None


@pytest.mark.parametrize(
    ("url", "words"),
    [
        ("nonsense", "is not a database URL"),
        ("sqlite:///x.db", "must name an async driver"),
        ("mysql+aiomysql://u@h/db", "aiomysql"),  # a driver not installed
        ("postgresql+asyncpg://u:secret@127.0.0.1:1/db", "Cannot use DATABASE_URL"),
        ("sqlite+aiosqlite:///blocker/x.db", "a file is in the way"),
    ],
)
def test_bad_database_url_is_one_line_before_login(tmp_path: Path, url: str, words: str) -> None:
    (tmp_path / "blocker").write_text("not a folder")
    result = run_bot(tmp_path, DISCORD_TOKEN="x", DATABASE_URL=url)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and words in lines[0] and "DATABASE_URL" in lines[0]
    assert "Traceback" not in result.stderr and "Cannot reach Discord" not in result.stderr


def test_database_problem_accepts_the_default_and_memory(tmp_path: Path) -> None:
    assert database_problem(f"sqlite+aiosqlite:///{tmp_path / 'new' / 'x.db'}") is None
    assert database_problem("sqlite+aiosqlite:///:memory:") is None
    assert "folder" in (database_problem(f"sqlite+aiosqlite:///{tmp_path}") or "")


def test_database_errors_after_start_are_not_called_discord() -> None:
    from sqlalchemy.exc import OperationalError

    error = OperationalError("SELECT 1", {}, Exception("unable to open database file"))
    line, status = startup_failure(error) or ("", 0)
    assert line.startswith("Cannot open the database at DATABASE_URL") and status == 1


def test_help_prints_usage_and_unknown_arguments_are_refused(tmp_path: Path) -> None:
    base = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    base["PYTHONPATH"] = str(Path(__file__).resolve().parents[2])
    run = [sys.executable, "-m", "bot"]
    shown = subprocess.run(
        [*run, "--help"],
        cwd=tmp_path,
        env=base,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert shown.returncode == 0 and "DISCORD_TOKEN" in shown.stdout and "demo" in shown.stdout
    wrong = subprocess.run(
        [*run, "--bogus"],
        cwd=tmp_path,
        env=base,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert wrong.returncode == 2 and "Unknown argument '--bogus'" in wrong.stderr


def test_settling_the_heap_freezes_start_up_and_collects_the_youngest_less_often() -> None:
    """In a process of its own: frozen objects are never freed, so not in the test run's."""
    script = (
        "import gc\n"
        "from bot.gc_policy import GC_YOUNGEST, settle\n"
        "assert gc.get_freeze_count() == 0\n"
        "settle()\n"
        "assert gc.get_freeze_count() > 10_000, gc.get_freeze_count()\n"
        "assert gc.get_threshold()[0] == GC_YOUNGEST > 700\n"
        "print('settled')\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=Path(__file__).resolve().parents[2],  # this checkout's bot package
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "settled"
