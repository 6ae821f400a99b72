"""The Bot subclass: migrates, loads every cog, syncs commands, handles command errors."""

from __future__ import annotations

import asyncio
import logging
import pkgutil
import random
import sys
from pathlib import Path
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands
from sqlalchemy import text

import cogs
from bot.access import bot_intents
from bot.clock import Clock, SystemClock
from bot.config import Settings
from bot.db.migrate import upgrade_to_head
from bot.db.session import Database
from bot.deadlines import DueDeadline
from bot.delivery import accept_recommended, announce, answer_click, flush_outbox, post_report
from bot.gc_policy import POLL_S, HeapPolicy
from bot.health import beat_forever
from bot.heap import limit_arenas, trim_forever
from bot.member_names import MemberNames
from bot.presentation.questions import Click, DecisionButton, DecisionMenu
from bot.presentation.replies import report_error
from bot.presentation.standing import RecommendButton
from bot.scheduling import DeadlineScheduler
from bot.services import Services, resolving
from bot.services.web_links import NOT_SERVED, WEB_OFF
from bot.web.live import Hub
from bot.web.server import WebServer, make_app

if sys.platform == "win32":  # no flock; one process at a time there
    fcntl = None
else:
    import fcntl

log = logging.getLogger(__name__)
SHUTDOWN_GRACE_S = 8.0  # within the 10 s `docker stop` gives before it kills
MIGRATION_LOCK = 0x41646D69  # the PostgreSQL advisory lock key migrations are run under
OUTBOX_RETRY_S = 60.0  # how often results left unposted (Discord down, a failed map) are retried


def cog_modules() -> list[str]:
    """Every module in the cogs package, found rather than listed."""
    return sorted(m.name for m in pkgutil.iter_modules(cogs.__path__, prefix="cogs."))


# discord.py names the task that runs each command, button, menu or form it was sent.
INTERACTION_TASKS = (
    "CommandTree-invoker",
    "discord-ui-view-dispatch",
    "discord-ui-modal-dispatch",
    "discord-ui-dynamic-item",
)


async def drain_interactions(grace_s: float) -> int:
    """Wait (at most ``grace_s`` seconds) for the commands and clicks being handled, so the
    write in progress commits and its reply is sent before the gateway closes; how many
    were left."""
    me = asyncio.current_task()
    tasks = {
        t
        for t in asyncio.all_tasks()
        if t is not me and not t.done() and t.get_name().startswith(INTERACTION_TASKS)
    }
    if not tasks:
        return 0
    _done, pending = await asyncio.wait(tasks, timeout=grace_s)
    return len(pending)


async def migrate_alone(db: Database, url: str) -> None:
    """Migrate to head, one process at a time: processes started together (shards,
    ``docker compose up``) wait for a lock, so only the first migrates and the others find
    the database at head. PostgreSQL: a session advisory lock; a SQLite file: an exclusive
    ``flock`` on ``<file>.migrate-lock`` beside it."""
    if db.engine.dialect.name != "postgresql":
        database = db.engine.url.database
        if not database or database == ":memory:" or fcntl is None:
            await upgrade_to_head(url)
            return
        with open(f"{database}.migrate-lock", "a") as lock:  # noqa: ASYNC230 - opened once
            await asyncio.to_thread(fcntl.flock, lock, fcntl.LOCK_EX)
            try:
                await upgrade_to_head(url)
            finally:
                fcntl.flock(lock, fcntl.LOCK_UN)
        return
    async with db.engine.connect() as con:
        await con.execute(text("SELECT pg_advisory_lock(:key)"), {"key": MIGRATION_LOCK})
        await con.commit()  # the lock is the session's: it outlives this transaction
        try:
            await upgrade_to_head(url)
        finally:
            await con.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": MIGRATION_LOCK})
            await con.commit()


class AideBot(commands.Bot):
    """Aide-de-Camp: slash commands only, no privileged intents."""

    outbox_retry_s: float = OUTBOX_RETRY_S
    gc_poll_s: float = POLL_S  # how often the heap's refresh looks at the clock (bot/gc_policy)

    def __init__(
        self,
        settings: Settings,
        *,
        clock: Clock | None = None,
        rng: random.Random | None = None,
        **kwargs: Any,
    ) -> None:
        # The bot never joins voice: no start-up warnings about voice libraries it does not need.
        discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False
        kwargs.setdefault("intents", bot_intents())  # declared with the permissions
        # Nobody is pinged unless a message names whom it means to ping (reminders, questions):
        # a mention typed into a unit or army name stays text.
        kwargs.setdefault("allowed_mentions", discord.AllowedMentions.none())
        # No message cache (discord.py keeps the last 1,000 messages it saw): the bot keeps
        # the posts it needs (open questions) itself and finds older ones through the API.
        kwargs.setdefault("max_messages", None)
        super().__init__(command_prefix=commands.when_mentioned, help_command=None, **kwargs)
        limit_arenas()  # a burst's threads share two heaps (bot/heap.py)
        self.settings = settings
        self.clock: Clock = clock or SystemClock()
        self.db = Database.from_url(settings.database_url)
        self.services = Services.build(self.db, rng=rng, clock=self.clock)
        self.member_names = MemberNames(self)  # for the war table: names the bot has seen
        self.add_listener(self.member_names.learn, "on_interaction")
        self.deadlines = DeadlineScheduler(
            self.db, self.clock, self.on_deadline, shards=settings.shards
        )
        self.deadlines.after_batch = self.after_deadlines
        self.deadlines.before_batch = self.services.play.idle.sift
        self.services.play.armer = self.deadlines
        self.services.outbox.shards = settings.shards  # post only our servers' results
        self.web_hub = Hub(self.services.news.marks)  # the war table's news (bot.web.live)
        self.open_questions: dict[int, list[discord.Message]] = {}  # battle id → question posts
        # Battles whose open question posts this process knows (it posted or looked for them);
        # for any other, questions an earlier process posted are found in the channel.
        self.questions_known: set[int] = set()
        self.outbox_lock = asyncio.Lock()  # one poster at a time: each result goes out once
        self.tree.error(self.on_app_command_error)
        self._heartbeat: asyncio.Task[None] | None = None
        self._outbox_retry: asyncio.Task[None] | None = None
        self._trim_heap: asyncio.Task[None] | None = None
        self.heap_policy = HeapPolicy(settings.gc_refresh_minutes, self.clock, self.gc_poll_s)
        self._gc_refresh: asyncio.Task[None] | None = None
        self.db_closed = False
        self.web: WebServer | None = None  # the war table, while it is being served
        self.services.web_links.base_url = settings.web_url

    async def setup_hook(self) -> None:
        """Start the engine's worker, migrate to head, load the cogs, sync the command tree,
        re-arm the deadlines."""
        resolving.configure(self.settings.engine, self.settings.engine_workers)
        self.services.general.budget_s = self.settings.ai_seconds_per_turn
        engine = asyncio.create_task(resolving.start())  # a worker process imports meanwhile
        await migrate_alone(self.db, self.settings.database_url)
        self.add_dynamic_items(DecisionButton, DecisionMenu, RecommendButton)
        for module in cog_modules():
            await self.load_extension(module)
        await self.sync_commands()
        await engine  # before a deadline or command resolves
        fired = await self.deadlines.start()
        log.info("deadlines re-armed; %d overdue fired at start-up", fired)
        posted = await flush_outbox(self)
        log.info("%d step results left unposted by the last run posted now", posted)
        self._outbox_retry = asyncio.create_task(self.retry_outbox_forever())
        self._trim_heap = asyncio.create_task(trim_forever())
        if self.settings.web_enabled:
            await self.start_web()
        else:
            self.services.web_links.unavailable = WEB_OFF
        if self.settings.heartbeat_file:
            beat = beat_forever(Path(self.settings.heartbeat_file), self.is_ready, self.database_ok)
            self._heartbeat = asyncio.create_task(beat)
        self._gc_refresh = self.heap_policy.start()  # last: start-up's heap is all built

    async def start_web(self) -> None:
        """Serve the war table; if it cannot (the port taken), say so once and play on."""
        await self.services.web_links.ensure_secret()
        app = make_app(
            self.services,
            self.web_hub,
            self.settings,
            connected=self.is_ready,
            reports=lambda report: post_report(self, report),  # a step resolved from the page
            announce=lambda channel, text: self.get_partial_messageable(channel).send(text),
            names=self.member_names.name,
        )
        server = WebServer(app, self.settings.web_host, self.settings.web_port)
        try:
            await server.start()
        except OSError as error:
            log.error(
                "the war table is not served: cannot listen on %s:%d (%s); the bot plays on "
                "without it. Free the port or set WEB_PORT (WEB_ENABLED=false switches it off).",
                self.settings.web_host,
                self.settings.web_port,
                error.strerror or error,
            )
            self.services.web_links.unavailable = NOT_SERVED
            return
        self.web = server
        # Without PUBLIC_URL, links name the port actually bound (WEB_PORT=0 picks a free one).
        self.services.web_links.base_url = self.settings.public_url or (
            f"http://localhost:{server.port}"
        )
        log.info("war table served on %s:%d as %s", server.host, server.port, self.settings.web_url)

    async def database_ok(self) -> bool:
        """Whether the database answers a trivial query (for the health check)."""
        async with self.db.read() as session:
            answer: int | None = await session.scalar(text("SELECT 1"))
            return answer == 1

    async def on_deadline(self, due: DueDeadline) -> None:
        """A deadline came: let the services act, then tell the channel."""
        outcome = await self.services.play.on_deadline(due)
        try:
            await announce(self, outcome)
        except discord.HTTPException:
            log.exception("could not post the result of deadline %s", due.id)

    async def answer_click(self, interaction: discord.Interaction, click: Click) -> None:
        """A question's button or menu was used: answer it and post what follows."""
        await answer_click(self, interaction, click)

    async def accept_recommended(
        self, interaction: discord.Interaction, battle_id: int, side_id: str
    ) -> None:
        """The button of a call to arms: accept the recommended instructions, post what follows."""
        await accept_recommended(self, interaction, battle_id, side_id)

    async def after_deadlines(self) -> None:
        """Once the deadlines fired together are handled: a deadline is also the retry for
        results left unposted (once per batch, not once per deadline)."""
        if not self.outbox_lock.locked():  # one already flushing retries what is left
            await flush_outbox(self)

    async def retry_outbox_forever(self) -> None:
        """Every ``outbox_retry_s``, post what is still unposted (a Discord error, a failed
        post): a result is not left waiting for the next step, deadline or restart. The outbox
        lock and the posts' nonces keep each result to one post."""
        while True:
            await asyncio.sleep(self.outbox_retry_s)
            try:
                outbox = self.services.outbox
                if await outbox.pending() or await outbox.pending_ends():
                    await flush_outbox(self)
            except Exception:  # the next round tries again
                log.warning("retrying unposted results failed", exc_info=True)

    async def sync_commands(self) -> list[app_commands.AppCommand]:
        """Sync to the development server when one is set (instant), else globally."""
        if self.settings.dev_guild_id:
            guild = discord.Object(id=self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
        else:
            synced = await self.tree.sync()
        log.info("synced %d commands", len(synced))
        return synced

    async def on_app_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        """The one error handler of the command tree."""
        await report_error(interaction, error)

    async def close(self) -> None:
        """Stop the deadlines, let a handler in flight finish, close the gateway, then the
        database; what is left unposted goes out at the next start (the outbox). Closing
        twice (SIGTERM, then the ``async with`` ending) closes once."""
        if self.db_closed:
            return
        self.deadlines.shutdown()
        for task in (self._heartbeat, self._outbox_retry, self._trim_heap, self._gc_refresh):
            if task is not None:
                task.cancel()
        left_deadlines, left_commands = await asyncio.gather(
            self.deadlines.drain(SHUTDOWN_GRACE_S), drain_interactions(SHUTDOWN_GRACE_S)
        )
        if left_deadlines or left_commands:
            log.warning(
                "still running at shutdown: %d deadline handlers, %d commands",
                left_deadlines,
                left_commands,
            )
        await self.web_hub.close()  # open pages' streams end before the web server stops
        if self.web is not None:
            web, self.web = self.web, None
            await web.stop()
        await super().close()
        await resolving.shutdown()  # after the commands in flight: none is resolving now
        if not self.db_closed:
            self.db_closed = True
            await self.db.dispose()
        log.info("closed: gateway and database")


class ShardedAideBot(AideBot, commands.AutoShardedBot):
    """The same bot on several gateway shards (``SHARD_COUNT``, ``SHARD_IDS``): discord.py's
    AutoShardedBot opens one connection per shard; the deadline scheduler keeps to the
    servers of these shards."""


def make_bot(settings: Settings, **kwargs: Any) -> AideBot:
    """The bot the settings ask for: sharded when ``SHARD_COUNT`` is set."""
    if settings.shards is None:
        return AideBot(settings, **kwargs)
    count, ids = settings.shards
    return ShardedAideBot(settings, shard_count=count, shard_ids=list(ids), **kwargs)


class Served:
    """A cog's (or command group's) first base: it holds the bot and reads the bot's services
    through ``self.services``, rather than copying each service it uses into an attribute."""

    def __init__(self, bot: AideBot) -> None:
        self.bot = bot
        self.services: Services = bot.services
        super().__init__()  # a Group's own name and description come from its class keywords
