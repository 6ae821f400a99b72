"""``python -m bot invite`` and ``python -m bot check``: the link a club opens to add the bot,
and the one command that says what to fix before the bot can run."""

from __future__ import annotations

import asyncio
import base64
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import discord
import pytest
from alembic import command
from alembic.script import ScriptDirectory

from bot import setup_check
from bot.access import PERMISSIONS, SCOPES, application_id, bot_intents, privileged_intents
from bot.db.migrate import alembic_config, run_alembic, upgrade_to_head
from tests.bot.test_config_and_main import run_bot

ROOT = Path(__file__).resolve().parents[2]
APP_ID = 123456789012345678
TOKEN = base64.b64encode(str(APP_ID).encode()).decode().rstrip("=") + ".GhIjKl.abcdefghijklmnop"
# Where the code does what each permission allows: a permission nothing uses would fail here.
USED_BY = {
    "view_channel": ("bot/delivery.py", "bot.get_partial_messageable(channel_id)"),
    "send_messages": ("bot/delivery.py", "await channel.send("),
    "embed_links": ("bot/delivery.py", "embed=call_to_arms_embed(call)"),
    "attach_files": ("bot/delivery.py", "files=files"),
    "read_message_history": ("bot/delivery.py", "channel.history(limit=QUESTION_LOOKBACK)"),
}


@pytest.fixture
def fresh_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty working folder holding only a .env with a well-shaped token."""
    for name in ("DISCORD_TOKEN", "DATABASE_URL", "HEARTBEAT_FILE", "LOG_LEVEL", "DEV_GUILD_ID"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".env").write_text(f"DISCORD_TOKEN={TOKEN}\n", encoding="utf-8")
    return tmp_path


def test_the_invite_link_carries_the_app_id_scopes_and_exact_permissions(tmp_path: Path) -> None:
    done = run_bot(tmp_path, "invite", DISCORD_TOKEN=TOKEN)
    assert done.returncode == 0, done.stderr
    url = urlsplit(done.stdout.splitlines()[0])
    assert (url.scheme, url.netloc, url.path) == ("https", "discord.com", "/oauth2/authorize")
    query = {key: values[0] for key, values in parse_qs(url.query).items()}
    assert query["client_id"] == str(APP_ID)
    assert query["scope"].split() == ["bot", "applications.commands"] == list(SCOPES)
    granted = discord.Permissions(int(query["permissions"]))
    assert all(getattr(granted, name) for name in PERMISSIONS)
    assert granted.value.bit_count() == len(PERMISSIONS)  # those, and nothing else
    assert not granted.administrator and not granted.manage_messages
    assert not granted.mention_everyone  # the bot pings only the players it names


def test_every_permission_asked_for_is_one_the_code_uses() -> None:
    assert set(USED_BY) == set(PERMISSIONS)
    for name, (path, code) in USED_BY.items():
        assert code in (ROOT / path).read_text(encoding="utf-8"), (name, code)


def test_the_bot_needs_no_privileged_intent() -> None:
    assert privileged_intents(bot_intents()) == []
    assert privileged_intents(discord.Intents.all()) == ["members", "presences", "message_content"]


def test_invite_takes_an_app_id_and_refuses_a_token_of_the_wrong_shape(tmp_path: Path) -> None:
    given = run_bot(tmp_path, "invite", "--app-id", "42", DISCORD_TOKEN="")
    assert given.returncode == 0 and "client_id=42&" in given.stdout
    wrong = run_bot(tmp_path, "invite", DISCORD_TOKEN="not-a-token")
    assert wrong.returncode == 2 and wrong.stdout == ""
    assert "three parts separated by dots" in wrong.stderr
    secret = run_bot(tmp_path, "invite", DISCORD_TOKEN="abc.def.ghi")  # no id inside
    assert secret.returncode == 2 and "--app-id" in secret.stderr
    with pytest.raises(ValueError, match="three parts"):
        application_id("a.b")


@pytest.mark.parametrize("command_", ["invite", "check"])
def test_help_prints_usage_and_does_nothing_else(tmp_path: Path, command_: str) -> None:
    done = run_bot(tmp_path, command_, "--help", DISCORD_TOKEN="")
    assert done.returncode == 0 and done.stdout.startswith(f"usage: python -m bot {command_}")
    assert list(tmp_path.iterdir()) == []  # no data folder, no database


def run_check(capsys: pytest.CaptureFixture[str], *arguments: str) -> tuple[int, list[str]]:
    """``python -m bot check`` in this process: its status and its lines."""
    status = setup_check.main(list(arguments))
    return status, capsys.readouterr().out.splitlines()


def test_check_offline_passes_on_a_fresh_setup(
    fresh_folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, lines = run_check(capsys, "--offline")
    assert status == 0, lines
    assert all(line.startswith("ok ") for line in lines[:-1])
    assert "application 123456789012345678" in "\n".join(lines)
    assert "bot creates its tables at its first start" in "\n".join(lines)


def test_check_says_a_database_is_migrated_or_behind(
    fresh_folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = f"sqlite+aiosqlite:///{fresh_folder / 'data' / 'aide-de-camp.db'}"
    (fresh_folder / "data").mkdir()
    first = list(ScriptDirectory.from_config(alembic_config()).walk_revisions())[-1].revision
    asyncio.run(run_alembic(url, lambda cfg: command.upgrade(cfg, first)))
    status, lines = run_check(capsys, "--offline")
    assert status == 1
    behind = [line for line in lines if line.startswith("FIX")]
    assert len(behind) == 1 and f"at migration {first}" in behind[0]
    assert "start the bot once" in behind[0]
    asyncio.run(upgrade_to_head(url))
    status, lines = run_check(capsys, "--offline")
    assert status == 0 and any("reachable and migrated" in line for line in lines)


def test_each_offline_problem_is_one_line_saying_what_to_fix(
    fresh_folder: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    (fresh_folder / "data").mkdir()
    (fresh_folder / "data" / "aide-de-camp.db").write_bytes(b"")  # an empty file, no database
    monkeypatch.setenv("HEARTBEAT_FILE", str(fresh_folder / "missing" / "beat"))
    monkeypatch.setenv("DISCORD_TOKEN", "mfa.not-a-bot-token")
    status, lines = run_check(capsys)  # not offline: a broken token is not shown to Discord
    problems = [line for line in lines if line.startswith("FIX")]
    assert status == 1 and len(problems) == 3, lines
    assert "DISCORD_TOKEN is not a bot token" in problems[0]
    assert "empty file, not a database" in problems[1]
    assert "missing does not exist; create it" in problems[2]
    assert not any("Discord" in line and "reach" in line for line in lines)


def test_check_names_each_invalid_setting(
    fresh_folder: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LOG_LEVEL", "LOUD")
    status, lines = run_check(capsys)
    assert status == 1
    assert lines[0].startswith("FIX  Setting LOG_LEVEL: must be one of DEBUG")


def test_check_fails_soft_when_discord_cannot_be_reached(
    fresh_folder: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Nothing listens on port 9 of this machine: the connection is refused at once.
    monkeypatch.setattr(discord.http.Route, "BASE", "http://127.0.0.1:9/api/v10")
    status, lines = run_check(capsys)
    assert status == 1
    assert [line for line in lines if line.startswith("FIX")] == [
        next(line for line in lines if "could not reach Discord: " in line)
    ]
    assert "run `python -m bot check` again; `--offline` runs only the checks above" in lines[-2]
    assert lines[-1] == "1 problem(s) to fix; then run `python -m bot check` again."
