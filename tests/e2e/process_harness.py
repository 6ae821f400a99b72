"""Drive the real bot running in another process (tests/e2e/bot_process.py) through the fake
Discord, kill it with SIGKILL at chosen points, and restart it on the same database (a SQLite
file, or a PostgreSQL database with TEST_POSTGRES_URL)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import sys
import time
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from tests.databases import TestDatabases, query, sqlite_file
from tests.e2e.fake_clock import DEFAULT_START
from tools.fake_discord import BotMessage, FakeDiscord, FakeUser, World
from tools.fake_discord.interactions import Upload, command_interaction, component_interaction
from tools.fake_discord.world import FakeChannel

ROOT = Path(__file__).resolve().parents[2]
SETTLE_TIMEOUT = 60.0  # seconds; only a hung bot gets near it


class BotDied(Exception):
    """The bot process ended (killed) before it finished what it was doing."""


@dataclass
class Outcome:
    """What one interaction got: the messages the user saw, if any."""

    acknowledged: bool
    messages: list[BotMessage] = field(default_factory=list)

    @property
    def text(self) -> str:
        """Every visible text of the answer."""
        return "\n".join(m.text for m in self.messages)


class ProcessBot:
    """A fork server for bot processes, a fake Discord that outlives them, a clock file."""

    def __init__(
        self,
        workdir: Path,
        world: World,
        seed: bytes,
        *,
        fake: FakeDiscord | None = None,
        env: dict[str, str] | None = None,
    ) -> None:
        """``fake``: a fake Discord shared with other bot processes (started and stopped by
        its owner); ``env``: variables added to (or replacing) the bot's, e.g. SHARD_IDS or
        another DATABASE_URL ("" for DEV_GUILD_ID syncs commands globally)."""
        self.workdir = workdir
        self.world = world
        self.seed = seed
        self.owns_fake = fake is None
        self.fake = fake or FakeDiscord(world)
        self.env = dict(env or {})
        self.databases = TestDatabases(workdir)
        self.database_url = self.databases.url("aide.db")
        self.clock_file = workdir / "clock.txt"
        self.status_file = workdir / "status.json"
        self.crash_log = workdir / "crashes.jsonl"
        self.log_file = workdir / "bot.log"
        self.now = DEFAULT_START
        self.server: asyncio.subprocess.Process | None = None
        self.pid: int | None = None
        self.exits: list[int] = []
        self.starts = 0
        self._lines: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self._reader: asyncio.Task[None] | None = None
        self._exited = asyncio.Event()

    # -- lifecycle -------------------------------------------------------------------
    async def open(self) -> None:
        """Start the fake Discord and the fork server (which imports the bot once)."""
        if self.owns_fake:
            await self.fake.start()
        self._write_clock()
        log = self.log_file.open("ab")
        self.server = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "tests.e2e.bot_process",
            cwd=ROOT, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=log,
        )  # fmt: skip
        log.close()
        self._reader = asyncio.create_task(self._read())
        ready = await asyncio.wait_for(self._lines.get(), SETTLE_TIMEOUT)
        assert ready == {"ready": True}, ready

    async def _read(self) -> None:
        assert self.server is not None and self.server.stdout is not None
        async for raw in self.server.stdout:
            line = json.loads(raw)
            if "exit" in line:
                self.exits.append(line["exit"])
                self.pid = None
                self._exited.set()
                self.fake.notify()
            else:
                await self._lines.put(line)

    async def close(self) -> None:
        """Stop the bot gracefully (SIGTERM), the fork server and the fake."""
        with contextlib.suppress(Exception):
            await self.stop()
        try:
            await self._close_server()
        finally:
            self.databases.drop()

    async def _close_server(self) -> None:
        if self.server is not None:
            assert self.server.stdin is not None
            self.server.stdin.close()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.server.wait(), 10)
            if self.server.returncode is None:
                self.server.kill()
                await self.server.wait()
        if self._reader is not None:
            self._reader.cancel()
        if self.owns_fake:
            await self.fake.stop()

    async def start(self, crash_at: int | str = 0) -> bool:
        """Start a bot process (killed at its ``crash_at``-th event if > 0, see bot_process;
        "start:N" counts from the process start) and wait until it is
        connected and has caught up with the clock; False if it died on the way."""
        assert self.pid is None, "a bot is already running"
        assert self.server is not None and self.server.stdin is not None
        env = {
            "AIDE_TEST_DISCORD": self.fake.base_url,
            "AIDE_TEST_CLOCK_FILE": str(self.clock_file),
            "AIDE_TEST_STATUS_FILE": str(self.status_file),
            "AIDE_TEST_SEED": self.seed.hex(),
            "AIDE_TEST_CRASH_AT": str(crash_at),
            "AIDE_TEST_CRASH_LOG": str(self.crash_log),
            "DATABASE_URL": self.database_url,
            "DEV_GUILD_ID": str(self.world.guild_id),
            **self.env,
        }
        self._exited = asyncio.Event()
        self.server.stdin.write((json.dumps({"env": env}) + "\n").encode())
        await self.server.stdin.drain()
        self.pid = (await asyncio.wait_for(self._lines.get(), SETTLE_TIMEOUT))["pid"]
        self.starts += 1
        try:
            await self.settle()
        except BotDied:
            return False
        return True

    async def stop(self) -> None:
        """SIGTERM: the bot closes gracefully; wait for the process to end."""
        if self.pid is None:
            return
        os.kill(self.pid, signal.SIGTERM)
        await asyncio.wait_for(self._exited.wait(), SETTLE_TIMEOUT)

    def _write_clock(self) -> None:
        """Move the bot's clock: the file replaced whole, never read half-written."""
        tmp = self.clock_file.with_suffix(".tmp")
        tmp.write_text(self.now.isoformat())
        tmp.replace(self.clock_file)

    @property
    def running(self) -> bool:
        """Whether a bot process is up."""
        return self.pid is not None

    def status(self) -> dict[str, Any]:
        """What the bot process last reported (empty before it is ready)."""
        try:
            return json.loads(self.status_file.read_text())
        except (FileNotFoundError, json.JSONDecodeError):
            return {}

    async def settle(self, seq: int = 0, shard: int = 0) -> None:
        """Wait until the running bot took gateway event ``seq`` (of ``shard`` when it is
        sharded), caught up with the clock and handles nothing more; BotDied if it ended
        first."""
        deadline = time.monotonic() + SETTLE_TIMEOUT
        pid = self.pid
        while True:
            if self.pid != pid or self.pid is None:
                raise BotDied
            s = self.status()
            took = (s.get("seqs") or {}).get(str(shard)) if s.get("seqs") else s.get("seq")
            if (
                s.get("pid") == pid
                and s.get("idle")
                and (took or 0) >= seq
                and s.get("clock") == self.now.isoformat()
            ):
                return
            if time.monotonic() > deadline:
                raise AssertionError(f"bot did not settle in {SETTLE_TIMEOUT}s: {s}")
            await asyncio.sleep(0.01)

    # -- acting ----------------------------------------------------------------------
    async def deliver(self, payload: dict, source: BotMessage | None = None) -> Outcome:
        """Deliver an interaction and wait until the bot has finished with it (or died)."""
        if self.pid is None:
            raise BotDied
        try:
            record = await self.fake.send_interaction(payload, source)
        except AssertionError as gone:  # the gateway closed: the process is going down
            await asyncio.wait_for(self._exited.wait(), SETTLE_TIMEOUT)
            raise BotDied from gone
        seq, shard = self.fake.gateway.seq, self.fake.gateway.last_shard
        died = False
        try:
            await self.settle(seq, shard)
        except BotDied:
            died = True
        messages = ([record.original] if record.original else []) + [
            m for m in record.followups if m is not record.original
        ]
        # "Thinking…" (a deferred reply) is no answer yet: the user sees one only with text.
        outcome = Outcome(any(m.text.strip() or m.files for m in messages), messages)
        if died and not outcome.acknowledged:
            raise BotDied
        return outcome

    async def slash(
        self, user: FakeUser, command: str, channel: FakeChannel, **options: Any
    ) -> Outcome:
        """Run a slash command as a user."""
        return await self.deliver(command_interaction(self.fake, user, channel, command, options))

    async def click(self, user: FakeUser, message: BotMessage, label: str) -> Outcome:
        """Click a button of a bot message."""
        comp = message.component(label=label)
        return await self.deliver(
            component_interaction(self.fake, user, message, comp, []), message
        )

    async def advance_to(self, when: datetime) -> None:
        """Move the clock to ``when``; the bot fires what is due (BotDied if it dies so)."""
        self.set_clock(when)
        if self.pid is None:
            raise BotDied
        await self.settle(0)

    def set_clock(self, when: datetime) -> None:
        """Move the clock to ``when`` without waiting (several bots move at once, then each
        is settled)."""
        assert when >= self.now, "time only moves forward"
        self.now = when
        self._write_clock()

    @staticmethod
    def upload(filename: str, data: str) -> Upload:
        """A file for an attachment option."""
        return Upload(filename, data.encode(), None)

    # -- looking ---------------------------------------------------------------------
    def posts(self, channel: FakeChannel) -> list[BotMessage]:
        """What the bot posted to a channel on its own (not interaction replies)."""
        return [m for m in self.fake.channel_messages(channel.id) if m.kind == "channel"]

    def dms(self, user: FakeUser) -> list[BotMessage]:
        """The direct messages the bot sent a user."""
        return self.fake.channel_messages(self.world.dm_channel(user).id)

    def read(self, sql: str, *args: Any) -> list[tuple[Any, ...]]:
        """Rows from the database, read-only, while the bot may be running."""
        file = sqlite_file(self.database_url)
        if file is not None and not file.exists():
            return []
        try:
            return query(self.database_url, sql, *args)
        except Exception as error:  # no tables yet (sqlite3's and asyncpg's own errors)
            if "no such table" in str(error) or "does not exist" in str(error):
                return []
            raise

    def where(self) -> tuple[Any, ...]:
        """Where play stands: how many campaigns, members, armies and battles; the last
        battle's stage and status."""
        counts = tuple(
            len(self.read(f"SELECT id FROM {table}"))
            for table in ("campaign", "membership", "army")
        )
        rows = self.read("SELECT stage, status FROM battle ORDER BY id")
        return (*counts, len(rows), *(rows[-1] if rows else (None, None)))
