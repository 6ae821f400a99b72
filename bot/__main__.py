"""Run the bot: ``python -m bot`` or the ``aide-de-camp`` console script."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import signal
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

from pydantic import ValidationError

from bot.config import Settings, database_problem

SETTINGS = """settings (from the environment or a .env file in the current folder):
  DISCORD_TOKEN  the bot token (required to run the bot)
  DATABASE_URL   SQLAlchemy async URL (default sqlite+aiosqlite:///data/aide-de-camp.db)
  DEV_GUILD_ID   sync commands to this server only
  LOG_LEVEL      DEBUG, INFO, WARNING, ERROR or CRITICAL
  LOG_FORMAT     text (default) or json: one JSON object a line
  SHARD_COUNT    shards in all (unset: one unsharded process)
  SHARD_IDS      this process's shards, e.g. 0,1 (default: all of SHARD_COUNT)
  HEARTBEAT_FILE touched every 30 s while connected; `python -m bot.health` checks it
  WEB_ENABLED    serve the war table (default true); WEB_HOST, WEB_PORT (127.0.0.1:8080)
  PUBLIC_URL     the war table's address as players open it, e.g. https://table.example.org
  GC_REFRESH_MINUTES  start-up's heap frozen, one full collection every N minutes (60; 0: off)
  AIDE_RULESETS  extra folders holding ruleset packages
"""

log = logging.getLogger("bot")
TOKEN_HELP = (
    "DISCORD_TOKEN is not set: put DISCORD_TOKEN=<your bot token> in the environment or in a "
    ".env file (Developer Portal → your application → Bot → Reset Token)."
)


def load_settings() -> Settings:
    """Read the settings; on invalid values print one line per problem and exit 2."""
    try:
        return Settings()
    except ValidationError as error:
        for problem in error.errors():
            field = ".".join(str(p) for p in problem["loc"]).upper()
            message = str(problem["msg"]).removeprefix("Value error, ")
            where = f"Invalid setting {field}" if field else "Invalid settings"
            print(f"{where}: {message}", file=sys.stderr)
        raise SystemExit(2) from None


async def run(settings: Settings) -> None:
    """Start the bot and keep it running until it is closed."""
    from bot.client import make_bot  # imported late so the token check above stays instant

    async with make_bot(settings) as bot:
        if settings.shards is not None:
            log.info("shards %s of %d", list(settings.shards[1]), settings.shards[0])
        stop_on_sigterm(bot)
        await bot.start(settings.discord_token)


def stop_on_sigterm(bot: Any) -> None:
    """Close the bot gracefully on SIGTERM (``docker stop``): the handler in flight finishes."""
    loop = asyncio.get_running_loop()
    closing: list[asyncio.Task[None]] = []  # keep a reference so the task is not collected

    def stop() -> None:
        if closing:
            return  # a second signal while closing: the first close is still at work
        log.info("SIGTERM: finishing the work in progress, then stopping")
        closing.append(loop.create_task(bot.close()))

    with contextlib.suppress(NotImplementedError):  # Windows has no loop signal handlers
        loop.add_signal_handler(signal.SIGTERM, stop)
        loop.add_signal_handler(signal.SIGINT, stop)  # Ctrl-C closes the same way


def startup_failure(error: BaseException) -> tuple[str, int] | None:
    """The one line and exit status for a failure a user can fix; None for real bugs."""
    import aiohttp
    import discord
    from sqlalchemy.exc import SQLAlchemyError

    if isinstance(error, discord.LoginFailure):
        return "Discord rejected DISCORD_TOKEN: copy a fresh token from the Developer Portal.", 2
    if isinstance(error, discord.PrivilegedIntentsRequired):
        return "Discord refused a privileged intent; enable it for the bot or remove it.", 2
    if isinstance(error, SQLAlchemyError):
        first = str(error).splitlines()[0] if str(error) else type(error).__name__
        return f"Cannot open the database at DATABASE_URL: {first}", 1
    if isinstance(error, aiohttp.ClientConnectionError | OSError):
        return f"Cannot reach Discord ({error}); check the network and try again.", 1
    return None


def demo_command(arguments: list[str]) -> int:
    """``python -m bot demo``: see bot/demo.py."""
    from bot.demo import main as demo  # lazy: each command loads only what it runs

    return demo(arguments)


def pace_command(arguments: list[str]) -> int:
    """``python -m bot pace``: see bot/pace.py."""
    from bot.pace import main as pace  # lazy: each command loads only what it runs

    return pace(arguments)


def ai_bench_command(arguments: list[str]) -> int:
    """``python -m bot ai-bench``: see bot/ai_bench.py."""
    from bot.ai_bench import main as ai_bench  # lazy: each command loads only what it runs

    return ai_bench(arguments)


def backup_command(arguments: list[str]) -> int:
    """``python -m bot backup PATH``: copy the live database to PATH; the exit status."""
    parser = argparse.ArgumentParser(
        prog="python -m bot backup",
        description="Copy the bot's SQLite database (DATABASE_URL) to a new file. The copy is "
        "consistent even while the bot is running.",
    )
    parser.add_argument("path", type=Path, help="the file to write; it must not exist yet")
    target = parser.parse_args(arguments).path
    from bot.db.maintenance import DatabaseRefused, backup  # lazy: only this command needs it

    try:
        pages = backup(load_settings().database_url, target)
    except DatabaseRefused as error:
        print(error, file=sys.stderr)
        return 2
    print(f"Backed up {pages} pages to {target}.")
    return 0


def invite_command(arguments: list[str]) -> int:
    """``python -m bot invite``: see bot/access.py."""
    from bot.access import main as invite  # lazy: each command loads only what it runs

    return invite(arguments)


def check_command(arguments: list[str]) -> int:
    """``python -m bot check``: see bot/setup_check.py."""
    from bot.setup_check import main as check  # lazy: each command loads only what it runs

    return check(arguments)


def web_secret_command(arguments: list[str]) -> int:
    """``python -m bot web-secret --rotate``: see bot/web/secret.py."""
    from bot.web.secret import main as web_secret  # lazy: each command loads only what it runs

    return web_secret(arguments)


class Command(NamedTuple):
    """A subcommand of ``python -m bot``: what runs it and one sentence saying what it does."""

    run: Callable[[list[str]], int]
    summary: str


# Each command parses its own arguments, ``--help`` included (argparse: usage, exit 0).
COMMANDS: dict[str, Command] = {
    "demo": Command(demo_command, "Play a sample battle offline; no token is needed."),
    "pace": Command(pace_command, "Count how often players stop per game turn."),
    "ai-bench": Command(ai_bench_command, "Measure the AI general against defaults and itself."),
    "backup": Command(backup_command, "Copy the live SQLite database to a file."),
    "invite": Command(invite_command, "Print the link that adds the bot to a server."),
    "check": Command(check_command, "Check settings, database, token and permissions."),
    "web-secret": Command(web_secret_command, "--rotate: end every war-table link at once."),
}


def usage_text() -> str:
    """The top-level usage: what ``python -m bot`` does, its commands and its settings."""
    width = max(len(name) for name in COMMANDS) + 2
    commands = "".join(f"  {name:<{width}}{c.summary}\n" for name, c in COMMANDS.items())
    return (
        "usage: python -m bot [COMMAND ...]\n\n"
        "Run the Aide-de-Camp Discord bot, or one of the commands below. "
        "Add --help after a command for its options.\n\n"
        f"commands:\n{commands}\n{SETTINGS}"
    )


def check_database_or_exit(settings: Settings) -> None:
    """Stop with one line (exit 2) if the database file is empty, corrupt or too new."""
    from bot.db.maintenance import DatabaseRefused, check_database  # lazy: see make_bot

    try:
        check_database(settings.database_url)
    except DatabaseRefused as error:
        print(error, file=sys.stderr)
        raise SystemExit(2) from None


def usage(arguments: list[str]) -> int:
    """Print the usage for ``--help`` (status 0) or for anything else unknown (status 2)."""
    if arguments[0] in ("-h", "--help"):
        print(usage_text(), end="")
        return 0
    print(f"Unknown argument {arguments[0]!r}.\n{usage_text()}", end="", file=sys.stderr)
    return 2


def main() -> None:
    """Entry point: run the command named first (see ``COMMANDS``), else run the bot."""
    command = COMMANDS.get(sys.argv[1]) if sys.argv[1:] else None
    if command is not None:
        raise SystemExit(command.run(sys.argv[2:]))
    if sys.argv[1:]:
        raise SystemExit(usage(sys.argv[1:]))
    settings = load_settings()
    if not settings.discord_token.strip():
        print(TOKEN_HELP, file=sys.stderr)
        raise SystemExit(2)
    problem = database_problem(settings.database_url)
    if problem is not None:
        print(problem, file=sys.stderr)
        raise SystemExit(2)
    check_database_or_exit(settings)
    from bot.logs import setup_logging  # lazy: not loaded by the checks above that exit

    setup_logging(settings.log_level, settings.log_format, shards=settings.shards)
    try:
        with contextlib.suppress(KeyboardInterrupt):
            asyncio.run(run(settings))
    except Exception as error:
        failure = startup_failure(error)
        if failure is None:
            raise
        print(failure[0], file=sys.stderr)
        raise SystemExit(failure[1]) from None


if __name__ == "__main__":
    main()
