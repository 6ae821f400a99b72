"""The real bot in a process of its own, pointed at a fake Discord by test-only variables.

``python -m tests.e2e.bot_process`` is a small fork server: it imports the bot once, then for
each JSON line ``{"env": {...}}`` read on stdin forks a child that runs ``AideBot`` (real cogs,
real SQLite file) until it exits or is killed, printing ``{"pid": N}`` and then
``{"exit": CODE}`` (``-9`` for SIGKILL). Forking keeps a restart cheap (no second import of
discord.py, SQLAlchemy and Pillow), and the child is a real process: a SIGKILL takes it down
mid-write exactly as it would take down the bot in production.

Only this module reads the variables below; production code knows nothing of them:

AIDE_TEST_DISCORD      http://127.0.0.1:PORT of the fake Discord (REST /api/v10, /gateway)
AIDE_TEST_CLOCK_FILE   the bot's clock: an ISO time in a file that the test moves on; when it
                       changes the child fires the deadlines now due (as the harness's advance)
AIDE_TEST_STATUS_FILE  where the child writes {"pid", "seq", "clock", "idle", "events"}: the
                       last gateway event it took, the clock it has caught up with, and whether
                       a command, button or post is still being handled
AIDE_TEST_SEED         hex dice seed given to every battle created (the fixed_seed fixture's)
AIDE_TEST_CRASH_AT     N > 0: SIGKILL itself at the Nth event after it is connected and ready
                       ("start:N": counting from the process start, so during the catch-up
                       at start-up); an event is a write transaction before its commit, just
                       after a commit, or just after Discord answered a request (so a post
                       Discord accepted may not yet be marked posted)
AIDE_TEST_CRASH_LOG    a file to which the child appends the event it was killed at
AIDE_TEST_FIRED_LOG    a file to which the child appends each deadline it handled: its id,
                       kind, battle and whether it acted (a step resolved, a reminder sent)

The bot's own settings come from the usual variables: DATABASE_URL, DEV_GUILD_ID (unset:
commands are synced globally), SHARD_COUNT and SHARD_IDS (a sharded bot reports the last
event of each of its shards in the status file, as ``seqs``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import random
import signal
import sys
import traceback
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import datetime
from pathlib import Path
from typing import Any

HANDLER_TASK_PREFIXES = (
    "CommandTree-invoker",
    "discord-ui-view-dispatch",
    "discord-ui-modal-dispatch",
    "discord-ui-dynamic-item",
)


class FileClock:
    """bot.clock.Clock read from a file the test writes; refreshed by the watcher."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.text = ""
        self._now = datetime.fromisoformat(self.refresh())

    def refresh(self) -> str:
        """Read the file again; the text read (the clock moves only when it changes)."""
        text = self.path.read_text().strip()
        if text != self.text:
            self.text, self._now = text, datetime.fromisoformat(text)
        return self.text

    def now(self) -> datetime:
        """The test's time."""
        return self._now


class Crash:
    """Counts the events at which the process may be killed; kills it at the chosen one."""

    def __init__(self, spec: str, log: Path | None) -> None:
        """spec: "N" counts from when the bot is ready, "start:N" from the process start."""
        self.armed = spec.startswith("start:")
        self.at, self.log, self.count = int(spec.removeprefix("start:")), log, 0
        self.total = 0  # every event, counted or not
        self.posting: Any = None  # the bot's outbox lock, once there is a bot
        self.ready = False

    def tick(self, where: str) -> None:
        """One more event; SIGKILL now if it is the chosen one."""
        from bot.deadlines import FIRING

        self.total += 1
        if not self.armed:
            return
        self.count += 1
        if self.at <= 0 or self.count != self.at:
            return
        context = ["at start-up"] if self.posting is None or not self.ready else []
        if FIRING.get() != -1:
            context.append("while a deadline fires")
        if self.posting is not None and self.posting.locked():
            context.append("while posting")
        if self.log is not None:
            line = {"event": self.count, "where": where, "context": context}
            with self.log.open("a") as f:
                f.write(json.dumps(line) + "\n")
        os.kill(os.getpid(), signal.SIGKILL)


def install_hooks(crash: Crash) -> None:
    """Count writes (before and after their commit) and answered Discord requests."""
    import discord

    from bot.db.session import Database

    write = Database.write

    @asynccontextmanager
    async def counted_write(self: Database, **keys: int | None) -> AsyncIterator[Any]:
        async with write(self, **keys) as session:  # battle=, campaign= (#38)
            yield session
            crash.tick("inside a write transaction, before its commit")
        crash.tick("just after a commit")

    Database.write = counted_write  # type: ignore[method-assign]
    request = discord.http.HTTPClient.request

    async def counted_request(self: Any, route: Any, **kwargs: Any) -> Any:
        answer = await request(self, route, **kwargs)
        crash.tick(f"just after Discord answered {route.method} {route.path}")
        return answer

    discord.http.HTTPClient.request = counted_request  # type: ignore[method-assign]


def point_at_fake(base: str, seed: bytes) -> None:
    """discord.py talks to the fake; battles get the fixed seed."""
    import discord
    import yarl

    import bot.services.battles

    discord.http.Route.BASE = f"{base}/api/v10"
    ws_base = base.replace("http://", "ws://")
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(f"{ws_base}/gateway")
    bot.services.battles.new_seed = lambda: seed


async def watch(bot: Any, clock: FileClock, status: Path, crash: Crash) -> None:
    """Fire deadlines when the clock file moves; report progress and idleness to the test."""
    await bot.wait_until_ready()
    crash.armed = crash.ready = True
    try:
        await _watch(bot, clock, status, crash)
    except Exception:
        logging.getLogger("bot_process").exception("the watcher failed")
        raise


async def _watch(bot: Any, clock: FileClock, status: Path, crash: Crash) -> None:
    caught_up, last = None, None
    while True:
        text = clock.refresh()
        if text != caught_up:
            await bot.deadlines.run_due()
            caught_up = text
        seqs = shard_sequences(bot)
        busy = any(
            not t.done() and t.get_name().startswith(HANDLER_TASK_PREFIXES)
            for t in asyncio.all_tasks()
        )
        report = {
            "pid": os.getpid(),
            "seq": bot.ws.sequence if bot.ws is not None else None,
            "seqs": seqs,
            "clock": caught_up,
            "idle": not busy and not bot.outbox_lock.locked(),
            "events": crash.total,
        }
        if report != last:
            tmp = status.with_suffix(".tmp")
            tmp.write_text(json.dumps(report))
            tmp.replace(status)
            last = report
        await asyncio.sleep(0.01)


def shard_sequences(bot: Any) -> dict[str, int | None]:
    """The last event number of each shard of a sharded bot ({} when it is not sharded)."""
    from discord import AutoShardedClient

    if not isinstance(bot, AutoShardedClient):
        return {}
    seqs: dict[str, int | None] = {}
    for shard_id in bot.shard_ids or range(bot.shard_count or 1):
        try:
            ws = bot._get_websocket(shard_id=shard_id)
        except KeyError:  # not connected yet
            ws = None
        seqs[str(shard_id)] = ws.sequence if ws is not None else None
    return seqs


def log_fired(bot: Any, path: Path) -> None:
    """Append a line for every deadline the bot's play service handles: who acted on what
    (the bot's own handler then announces the outcome as usual)."""
    from bot.services.stages import StageReport

    play = bot.services.play
    handle = play.on_deadline

    async def logged(due: Any) -> Any:
        outcome = await handle(due)
        line = {
            "pid": os.getpid(),
            "deadline": due.id,
            "battle": due.battle_id,
            "stage": due.stage,
            "kind": due.kind.value,
            "resolved": isinstance(outcome, StageReport),
            "acted": outcome is not None,
        }
        with path.open("a") as f:
            f.write(json.dumps(line) + "\n")
        return outcome

    play.on_deadline = logged


async def run_bot() -> None:
    """One bot process: until SIGTERM (a graceful close) or SIGKILL."""
    from bot.__main__ import stop_on_sigterm
    from bot.client import make_bot
    from bot.config import Settings

    env = os.environ
    crash_log = env.get("AIDE_TEST_CRASH_LOG")
    crash = Crash(env.get("AIDE_TEST_CRASH_AT", "0"), Path(crash_log) if crash_log else None)
    install_hooks(crash)
    point_at_fake(env["AIDE_TEST_DISCORD"], bytes.fromhex(env["AIDE_TEST_SEED"]))
    clock = FileClock(Path(env["AIDE_TEST_CLOCK_FILE"]))
    settings = Settings(
        discord_token="fake-token",
        database_url=env["DATABASE_URL"],
        dev_guild_id=env.get("DEV_GUILD_ID") or None,
        log_level="WARNING",
        shard_count=env.get("SHARD_COUNT") or None,
        shard_ids=env.get("SHARD_IDS") or None,
        engine=env.get("ENGINE") or "thread",  # the worker process where a test asks for it
        web_enabled=False,  # never port 8080 from a test
    )
    bot = make_bot(settings, clock=clock, rng=random.Random(1415), guild_ready_timeout=0.05)
    crash.posting = bot.outbox_lock

    async def identify_at_once(shard_id: int | None, *, initial: bool = False) -> None:
        """The fake Discord has no IDENTIFY rate limit: no 5 s between a process's shards."""

    bot.before_identify_hook = identify_at_once  # type: ignore[method-assign]
    if env.get("AIDE_TEST_FIRED_LOG"):
        log_fired(bot, Path(env["AIDE_TEST_FIRED_LOG"]))
    async with bot:
        stop_on_sigterm(bot)  # production's handler: SIGTERM closes gracefully
        watcher = asyncio.create_task(watch(bot, clock, Path(env["AIDE_TEST_STATUS_FILE"]), crash))
        try:
            await bot.start("fake-token")
        finally:
            watcher.cancel()


def child(env: dict[str, str]) -> None:
    """In the forked child: run the bot; never return into the fork server's loop."""
    code = 0
    try:
        os.dup2(2, 1)  # the fork server's stdout is its protocol with the test
        os.environ.update(env)
        logging.basicConfig(
            level=logging.WARNING, stream=sys.stderr, format="%(levelname)s %(name)s: %(message)s"
        )
        asyncio.run(run_bot())
    except BaseException:
        traceback.print_exc()
        code = 1
    finally:
        sys.stderr.flush()
        os._exit(code)


def serve() -> None:
    """Read one JSON command per line; fork a bot for each and report its pid and exit."""
    import bot.client  # noqa: F401  (imported once, before forking)
    import cogs  # noqa: F401
    from bot.client import cog_modules

    for module in cog_modules():
        __import__(module)
    print(json.dumps({"ready": True}), flush=True)
    for line in sys.stdin:
        if not line.strip():
            continue
        command = json.loads(line)
        pid = os.fork()
        if pid == 0:
            child(command["env"])
        print(json.dumps({"pid": pid}), flush=True)
        _, status = os.waitpid(pid, 0)
        print(json.dumps({"exit": os.waitstatus_to_exitcode(status)}), flush=True)


def main(argv: list[str] | None = None) -> None:
    """Parse the (only) option, ``--help``, then serve."""
    argparse.ArgumentParser(
        prog="python -m tests.e2e.bot_process",
        description="A fork server for the end-to-end tests: it imports the bot once, then "
        'runs one bot process for each JSON line {"env": {...}} read on standard input. '
        "The module's docstring lists the variables it reads.",
    ).parse_args(argv)
    serve()


if __name__ == "__main__":
    main()
