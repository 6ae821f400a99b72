"""``python -m bot check``: is this installation ready to run? Offline first (settings, token
shape, database, writable folders), then, if Discord answers, the token, the privileged
intents and the bot's permissions in each server it is in. One line a finding."""

from __future__ import annotations

import argparse
import asyncio
import os
from dataclasses import dataclass
from pathlib import Path

import aiohttp
import discord
from pydantic import ValidationError

from bot.access import (
    PERMISSIONS,
    TokenShapeError,
    application_id,
    bot_intents,
    permission_label,
    privileged_intents,
)
from bot.config import Settings, database_problem
from bot.db.maintenance import DatabaseRefused, check_database, head_revision

ONLINE_TIMEOUT_S = 15.0
GUILDS_LOOKED_AT = 25  # a club's bot is in a few servers; past this, the check says so
NEXT_STEP_OFFLINE = (
    "check this machine's network (a firewall or proxy?) and run `python -m bot check` again; "
    "`--offline` runs only the checks above"
)
CHECK_HELP = (
    "Check that this installation is ready: settings, token, database, folders, then (if "
    "Discord answers) the token, intents and the bot's permissions in each server. Exit "
    "status 0 when every check passes, 1 otherwise."
)


@dataclass(frozen=True)
class Finding:
    """One line of the report: passed, or a problem saying what to fix."""

    passed: bool
    line: str


def ok(line: str) -> Finding:
    """A check that passed."""
    return Finding(True, line)


def fix(line: str) -> Finding:
    """A problem, worded as what to fix."""
    return Finding(False, line)


def settings_findings() -> tuple[Settings | None, list[Finding]]:
    """The settings, or one finding per invalid setting."""
    try:
        return Settings(), [ok("Settings read (environment and .env).")]
    except ValidationError as error:
        found = []
        for problem in error.errors():
            field = ".".join(str(p) for p in problem["loc"]).upper() or "settings"
            message = str(problem["msg"]).removeprefix("Value error, ")
            found.append(fix(f"Setting {field}: {message}; correct it in .env or the environment."))
        return None, found


def token_findings(settings: Settings) -> list[Finding]:
    """Whether DISCORD_TOKEN is set and shaped like a bot token."""
    if not settings.discord_token.strip():
        return [
            fix(
                "DISCORD_TOKEN is not set: put DISCORD_TOKEN=<your bot token> in .env "
                "(Developer Portal → your application → Bot → Reset Token)."
            )
        ]
    try:
        app_id = application_id(settings.discord_token)
    except TokenShapeError as error:
        return [fix(str(error))]
    return [ok(f"DISCORD_TOKEN is shaped like a bot token (application {app_id}).")]


def database_findings(settings: Settings) -> list[Finding]:
    """Whether the database opens, and is migrated to this version's newest migration."""
    problem = database_problem(settings.database_url)
    if problem is not None:
        return [fix(problem)]
    try:
        revision = check_database(settings.database_url)
    except DatabaseRefused as error:
        return [fix(str(error))]
    head = head_revision()
    if revision is None:
        return [ok("Database reachable and new: the bot creates its tables at its first start.")]
    if revision != head:
        return [
            fix(
                f"The database is at migration {revision}, this version needs {head}: back it "
                "up (`python -m bot backup PATH` on SQLite), then start the bot once: it "
                "migrates the database at start-up."
            )
        ]
    return [ok(f"Database reachable and migrated (migration {head}).")]


def folder_findings(settings: Settings) -> list[Finding]:
    """Whether the bot can write its heartbeat file (the database's folder: with the database)."""
    if not settings.heartbeat_file:
        return []
    folder = Path(settings.heartbeat_file).expanduser().resolve().parent
    if not folder.is_dir():
        return [fix(f"HEARTBEAT_FILE: the folder {folder} does not exist; create it.")]
    if not os.access(folder, os.W_OK):
        return [fix(f"HEARTBEAT_FILE: {folder} is not writable by this user.")]
    return [ok(f"HEARTBEAT_FILE's folder {folder} is writable.")]


def offline_findings() -> tuple[Settings | None, list[Finding]]:
    """Every check that needs no network: settings, token shape, database, folders."""
    settings, found = settings_findings()
    if settings is None:
        return None, found
    found += token_findings(settings)
    found += database_findings(settings)
    found += folder_findings(settings)
    return settings, found


async def online_findings(token: str) -> list[Finding]:
    """Ask Discord (within ONLINE_TIMEOUT_S): the token, the intents, each server's permissions.
    What was found before a failure is kept, then the failure's own line."""
    client = discord.Client(intents=bot_intents())
    found: list[Finding] = []
    try:
        async with asyncio.timeout(ONLINE_TIMEOUT_S):
            await client.login(token)
            await _ask_discord(client, found)
    except discord.LoginFailure:
        found.append(
            fix(
                "Discord rejected DISCORD_TOKEN: reset the token (Developer Portal → Bot → "
                "Reset Token) and put the new one in .env."
            )
        )
    except discord.HTTPException as error:  # it answered, but refused: not a network fault
        found.append(fix(f"Discord refused a request of the check ({error}); try again later."))
    except (aiohttp.ClientError, OSError, TimeoutError) as error:
        reason = str(error) or f"no answer within {ONLINE_TIMEOUT_S:g} s"
        found.append(fix(f"could not reach Discord: {reason}; {NEXT_STEP_OFFLINE}."))
    finally:
        await client.close()
    return found


async def _ask_discord(client: discord.Client, found: list[Finding]) -> None:
    """Add the findings of a logged-in client to ``found``: who it is, intents, servers."""
    assert client.user is not None  # set by login
    found.append(ok(f"Discord accepted the token: the bot is {client.user} ({client.user.id})."))
    found += await _intent_findings(client)
    guilds = [guild async for guild in client.fetch_guilds(limit=GUILDS_LOOKED_AT + 1)]
    if not guilds:
        found.append(
            fix("The bot is in no server yet: open the link `python -m bot invite` prints.")
        )
    for guild in guilds[:GUILDS_LOOKED_AT]:
        found += await _guild_findings(client, guild.id)
    if len(guilds) > GUILDS_LOOKED_AT:
        found.append(ok(f"Only the first {GUILDS_LOOKED_AT} servers were checked."))


async def _intent_findings(client: discord.Client) -> list[Finding]:
    """Each privileged intent the bot connects with must be enabled for the application."""
    needed = privileged_intents(bot_intents())
    if not needed:
        return [ok("The bot needs no privileged intents.")]
    flags = (await client.application_info()).flags
    off = [
        name
        for name in needed
        if not getattr(flags, f"gateway_{name}", False)
        and not getattr(flags, f"gateway_{name}_limited", False)
    ]
    if off:
        return [fix(f"Enable the {', '.join(off)} intent(s): Developer Portal → Bot.")]
    return [ok(f"Privileged intents enabled: {', '.join(needed)}.")]


async def _guild_findings(client: discord.Client, guild_id: int) -> list[Finding]:
    """The bot's permissions in one server, and in each text channel it can see there."""
    assert client.user is not None
    guild = await client.fetch_guild(guild_id)
    me = await guild.fetch_member(client.user.id)
    missing = _missing(me.guild_permissions)
    if missing:
        return [
            fix(
                f"In the server {guild.name}, the bot's role lacks {', '.join(missing)}: "
                "Server Settings → Roles → the bot's role, or invite it again with "
                "`python -m bot invite`."
            )
        ]
    found = [ok(f"In the server {guild.name}, the bot's role has every permission it uses.")]
    for channel in await guild.fetch_channels():
        if not isinstance(channel, discord.TextChannel):
            continue
        allowed = channel.permissions_for(me)
        short = _missing(allowed)
        if allowed.view_channel and short:  # a channel it cannot see is no campaign's
            found.append(
                fix(
                    f"In #{channel.name} ({guild.name}) the bot lacks {', '.join(short)}: "
                    "Edit Channel → Permissions → the bot's role."
                )
            )
    return found


def _missing(allowed: discord.Permissions) -> list[str]:
    """The permissions the bot uses that ``allowed`` does not give, as Discord names them."""
    return [permission_label(name) for name in PERMISSIONS if not getattr(allowed, name)]


def main(arguments: list[str]) -> int:
    """``python -m bot check [--offline]``: print one line a finding; 0 if all passed, else 1."""
    parser = argparse.ArgumentParser(prog="python -m bot check", description=CHECK_HELP)
    parser.add_argument("--offline", action="store_true", help="skip the checks with Discord")
    options = parser.parse_args(arguments)
    settings, found = offline_findings()
    if (
        settings is not None
        and not options.offline
        and all(f.passed for f in token_findings(settings))  # a token worth showing Discord
    ):
        found += asyncio.run(online_findings(settings.discord_token))
    for finding in found:
        print(f"{'ok ' if finding.passed else 'FIX'}  {finding.line}")
    problems = sum(not f.passed for f in found)
    if problems:
        print(f"{problems} problem(s) to fix; then run `python -m bot check` again.")
        return 1
    print("Everything checked is ready: start the bot with `python -m bot`.")
    return 0
