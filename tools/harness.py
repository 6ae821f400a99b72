"""Drive a real discord.py bot against the fake Discord, the way a campaign group would."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
from collections.abc import Callable
from datetime import timedelta
from typing import Any, Protocol, TypeVar, runtime_checkable

import discord
import yarl
from discord.ext import commands

from tools.fake_discord import BotMessage, FakeDiscord, FakeUser, InteractionRecord, World
from tools.fake_discord.interactions import (
    Upload,
    command_interaction,
    component_interaction,
    modal_submit_interaction,
)
from tools.fake_discord.world import FakeChannel

# A guard against a hang, not a latency check (the 3 s answer is checked in CPU seconds
# below): a test waits this long for the bot's handlers to finish. CI under a load of other
# work saw a step's handlers take over 5 s of wall time; 30 s fails a hang as surely.
TIMEOUT = 30.0
# Start-up (migrations checked, the database opened, the gateway joined): a guard against a
# hang, not a latency check; on PostgreSQL on a busy machine it can take longer than TIMEOUT.
READY_TIMEOUT = 30.0
# Discord fails an interaction not answered within 3 s. The check counts the CPU seconds the
# bot (and the fake Discord, in the same process) spent before the answer, not wall-clock time:
# a handler that works 3 s before answering fails it on any machine, while a machine busy with
# other processes does not (a timing assertion on wall-clock time would only measure the load).
RESPONSE_DEADLINE = 3.0


def answered_in_time(record: InteractionRecord) -> str | None:
    """Why an interaction's answer came too late for Discord (CPU seconds spent before it), or
    None if it came in time."""
    spent = record.answered_after_cpu or 0.0
    if spent <= RESPONSE_DEADLINE:
        return None
    return f"answered after {spent:.1f} s of work; Discord gives up after {RESPONSE_DEADLINE:g} s"


HANDLER_TASK_PREFIXES = (
    "CommandTree-invoker",
    "discord-ui-view-dispatch",
    "discord-ui-modal-dispatch",
    "discord-ui-dynamic-item",
)
WATCHED_LOGGERS = ("", "bot", "cogs", "discord")


def _describe(exc: BaseException) -> str:
    """An exception and its causes, innermost last: 'Outer(...) <- RuntimeError('boom')'."""
    parts, seen = [], set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        parts.append(repr(current))
        current = current.__cause__ or current.__context__
    return " <- ".join(parts)


Found = TypeVar("Found")  # what a wait's predicate finds


class RunsDeadlines(Protocol):
    """The bot's deadline scheduler, as far as the harness drives it."""

    async def run_due(self) -> int:
        """Fire every deadline now due; how many fired."""
        ...


@runtime_checkable
class KeepsDeadlines(Protocol):
    """A bot with a deadline scheduler (the Aide-de-Camp bot; toy bots keep none)."""

    @property
    def deadlines(self) -> RunsDeadlines:
        """Its scheduler."""
        ...


class InteractionResult:
    """What the bot did in answer to one interaction."""

    def __init__(self, record: InteractionRecord) -> None:
        """Wrap the fake's record."""
        self.record = record

    @property
    def type(self) -> int | None:
        """Callback type: 4 reply, 5 deferred, 6 deferred update, 7 update, 8 choices, 9 modal."""
        return self.record.callback_type

    @property
    def message(self) -> BotMessage | None:
        """The original response message (or, for a component, the message it updated); when
        a public "thinking…" placeholder was deleted for a private refusal, that refusal."""
        original = self.record.original
        if original is not None and original.deleted and self.record.followups:
            return self.record.followups[0]
        return original

    @property
    def followups(self) -> list[BotMessage]:
        """Followup messages, in order."""
        return self.record.followups

    @property
    def messages(self) -> list[BotMessage]:
        """The original response then every followup, without repeats."""
        out = [self.message] if self.message is not None else []
        return out + [m for m in self.followups if m not in out and not m.deleted]

    @property
    def content(self) -> str:
        """Content of the original response."""
        return self.message.content if self.message else ""

    @property
    def text(self) -> str:
        """All visible text (content, embeds) of every message of this interaction."""
        return "\n".join(m.text for m in self.messages)

    @property
    def ephemeral(self) -> bool:
        """Whether the first message of this interaction is ephemeral."""
        assert self.messages, f"interaction got no message (callback type {self.type})"
        return self.messages[0].ephemeral

    @property
    def embeds(self) -> list[dict[str, Any]]:
        """Every embed of every message."""
        return [e for m in self.messages for e in m.embeds]

    @property
    def files(self) -> list[Any]:
        """Every file uploaded with this interaction's messages."""
        return [f for m in self.messages for f in m.files]

    @property
    def choices(self) -> list[dict[str, Any]]:
        """Autocomplete choices ({name, value})."""
        assert self.type == 8, f"not an autocomplete answer (callback type {self.type})"
        found: list[dict[str, Any]] = self.record.callback_data.get("choices", [])
        return found

    @property
    def modal(self) -> dict[str, Any]:
        """The modal the bot showed."""
        assert self.type == 9, f"the bot did not answer with a modal (callback type {self.type})"
        return self.record.callback_data

    def __repr__(self) -> str:
        """Short summary for assertion messages."""
        return f"<InteractionResult type={self.type} text={self.text!r}>"


class _ErrorCollector(logging.Handler):
    """Collect ERROR records from the bot and discord.py."""

    def __init__(self, on_emit: Callable[[], None]) -> None:
        """Start empty; call on_emit after each new record."""
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []
        self.on_emit = on_emit

    def emit(self, record: logging.LogRecord) -> None:
        """Remember a record once, even if seen by several loggers."""
        if record not in self.records:
            self.records.append(record)
            self.on_emit()


class Harness:
    """A fake Discord plus a real bot connected to it."""

    def __init__(
        self,
        bot_factory: Callable[[], commands.Bot],
        world: World | None = None,
        timeout: float = TIMEOUT,
        clock: Any = None,
    ) -> None:
        """Prepare; call start() (or use the fixture) to run. clock: the FakeClock the bot got."""
        self.clock = clock
        self.database_url = ""  # the bot's database, when the harness runs Aide-de-Camp
        self.fake = FakeDiscord(world)
        self.world = self.fake.world
        self.bot_factory = bot_factory
        self.timeout = timeout
        self.bot: commands.Bot | None = None
        self.bot_task: asyncio.Task[None] | None = None
        self._errors = _ErrorCollector(self.fake.notify)
        self._saved: list[tuple[Any, str, Any]] = []
        self._seen = {"rejected": 0, "unhandled": 0}
        self._closed = False

    # -- people and places -------------------------------------------------
    @property
    def gm(self) -> FakeUser:
        """The game master."""
        return self.world.gm

    @property
    def alice(self) -> FakeUser:
        """First player."""
        return self.world.alice

    @property
    def bob(self) -> FakeUser:
        """Second player."""
        return self.world.bob

    @property
    def outsider(self) -> FakeUser:
        """A member with no role and no campaign."""
        return self.world.outsider

    def channel(self, name: str = "general") -> FakeChannel:
        """A guild channel by name."""
        return self.world.channel(name)

    # -- lifecycle -----------------------------------------------------------
    async def start(self) -> None:
        """Start the fake, point discord.py at it, start the bot and wait until it is ready."""
        await self.fake.start()
        self._patch(discord.http.Route, "BASE", self.fake.api_base)
        self._patch(
            discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", yarl.URL(self.fake.gateway_url)
        )
        self._guard_network()
        for name in WATCHED_LOGGERS:
            logging.getLogger(name).addHandler(self._errors)
        await self.start_bot()

    async def start_bot(self) -> None:
        """Start a new bot from the factory (same database, same world) and wait until ready."""
        assert self.bot is None, "stop_bot() first"
        self.bot = self.bot_factory()
        self.bot_task = asyncio.create_task(self.bot.start("fake-token"), name="e2e-bot")
        self.bot_task.add_done_callback(lambda _: self.fake.notify())
        ready = asyncio.create_task(self.bot.wait_until_ready())
        done, _ = await asyncio.wait(
            {self.bot_task, ready},
            timeout=max(self.timeout, READY_TIMEOUT),
            return_when="FIRST_COMPLETED",
        )
        if ready not in done:
            ready.cancel()
            self.check()
            raise AssertionError(f"bot not ready after {max(self.timeout, READY_TIMEOUT)}s")
        self.check()

    async def stop_bot(self) -> None:
        """Stop the bot the way a process exits; the fake, its record and the database stay.

        Start another with start_bot(): it reconnects to the same fake Discord, so messages
        before and after the restart are in one record.
        """
        await self._handlers_done()
        self.check()
        bot, task = self.bot, self.bot_task
        self.bot, self.bot_task = None, None
        if bot is not None:
            await bot.close()
        if task is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await asyncio.wait_for(task, self.timeout)
        self.check()

    async def close(self) -> None:
        """Stop the bot and the fake, restore discord.py, then report anything unchecked."""
        if self._closed:
            return
        self._closed = True
        try:
            with contextlib.suppress(AssertionError):
                await self._handlers_done()
            if self.bot is not None:
                await self.bot.close()
            if self.bot_task is not None:
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await asyncio.wait_for(self.bot_task, self.timeout)
            await self.fake.stop()
        finally:
            for name in WATCHED_LOGGERS:
                logging.getLogger(name).removeHandler(self._errors)
            for obj, attr, old in reversed(self._saved):
                setattr(obj, attr, old)
        self.check(closing=True)

    def _guard_network(self) -> None:
        """Refuse name lookups of anything but localhost, and report the attempt."""
        real = socket.getaddrinfo

        def local_only(host: Any, *args: Any, **kwargs: Any) -> Any:
            if host not in (None, "localhost", "127.0.0.1", "::1", b"localhost"):
                self.fake.unhandled.append(f"network access to {host!r} blocked")
                raise OSError(f"e2e tests have no network: {host!r}")
            return real(host, *args, **kwargs)

        self._patch(socket, "getaddrinfo", local_only)

    def _patch(self, obj: Any, attr: str, value: Any) -> None:
        """Set an attribute, restoring it on close."""
        self._saved.append((obj, attr, getattr(obj, attr)))
        setattr(obj, attr, value)

    # -- failing fast --------------------------------------------------------
    def check(self, *, closing: bool = False) -> None:
        """AssertionError if the bot died, logged an error, or sent what Discord would refuse."""
        problems = []
        task = self.bot_task
        if task is not None and task.done() and not closing:
            exc = None if task.cancelled() else task.exception()
            problems.append(
                f"the bot task ended: {_describe(exc) if exc else 'cancelled/returned'}"
            )
        for record in self.take_errors():
            text = record.getMessage()
            if record.exc_info and record.exc_info[1] is not None:
                text += f" -- {_describe(record.exc_info[1])}"
            problems.append(f"bot logged {record.levelname} ({record.name}): {text}")
        problems += [f"fake Discord refused: {r}" for r in self._new("rejected")]
        problems += [f"unhandled request: {r}" for r in self._new("unhandled")]
        if problems:
            raise AssertionError("\n".join(problems))

    def take_errors(self) -> list[logging.LogRecord]:
        """Error log records not yet reported (and forget them)."""
        records, self._errors.records = self._errors.records, []
        return records

    def _new(self, kind: str) -> list[str]:
        """Entries of fake.rejected / fake.unhandled not yet reported."""
        items: list[str] = getattr(self.fake, kind)  # fake.rejected or fake.unhandled
        new, self._seen[kind] = items[self._seen[kind] :], len(items)
        return new

    # -- acting ----------------------------------------------------------------
    async def slash(
        self,
        user: FakeUser,
        command: str,
        /,
        channel: FakeChannel | None = None,
        options: dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> InteractionResult:
        """Run '/command [group] [sub]' as user in channel (default #general) with options."""
        values = {**(options or {}), **kwargs}
        where = channel or self.channel()
        return await self.send(command_interaction(self.fake, user, where, command, values))

    async def autocomplete(
        self,
        user: FakeUser,
        command: str,
        focused: str,
        /,
        channel: FakeChannel | None = None,
        **values: Any,
    ) -> list[dict[str, Any]]:
        """Type into option 'focused' of a command; return the choices the bot offers."""
        where = channel or self.channel()
        payload = command_interaction(self.fake, user, where, command, values, focused=focused)
        return (await self.send(payload)).choices

    async def click(
        self,
        user: FakeUser,
        message: BotMessage | InteractionResult,
        *,
        custom_id: str | None = None,
        label: str | None = None,
    ) -> InteractionResult:
        """Click a button (by custom_id or label) on a bot message."""
        msg = self._message_of(message)
        comp = msg.component(custom_id=custom_id, label=label)
        return await self.send(component_interaction(self.fake, user, msg, comp, []), msg)

    async def select(
        self,
        user: FakeUser,
        message: BotMessage | InteractionResult,
        values: list[str],
        *,
        custom_id: str | None = None,
    ) -> InteractionResult:
        """Choose values in a select menu (the first one unless custom_id is given)."""
        msg = self._message_of(message)
        selects = [c for c in msg.interactive if c["type"] != 2]
        comp = msg.component(custom_id=custom_id) if custom_id else selects[0]
        return await self.send(component_interaction(self.fake, user, msg, comp, values), msg)

    async def submit_modal(
        self, user: FakeUser, shown: InteractionResult, values: dict[str, str]
    ) -> InteractionResult:
        """Fill in and submit the modal the bot showed (fields by custom_id or label)."""
        source = shown.record.source_message
        channel = self.world.any_channel(shown.record.channel_id)
        assert channel is not None
        payload = modal_submit_interaction(self.fake, user, channel, shown.modal, values, source)
        return await self.send(payload, source)

    async def send(
        self, payload: dict[str, Any], source: BotMessage | None = None
    ) -> InteractionResult:
        """Deliver a raw interaction; wait for the answer and for the handler to finish."""
        self.check()
        record = await self.fake.send_interaction(payload, source)
        try:
            what = f"an answer to interaction type {record.type}"
            await self._until(lambda: record.callbacks, what)
        finally:
            await self._handlers_done()
            self.check()
        late = answered_in_time(record)
        assert late is None, late
        return InteractionResult(record)

    async def advance(self, delta: timedelta) -> int:
        """Move the fake clock on, fire every deadline now due, and let the posts settle.

        Returns how many deadlines fired (none while the bot is stopped: time just passes).
        """
        assert self.clock is not None, "this harness was given no clock"
        self.check()
        self.clock.advance(delta)
        if self.bot is None:
            return 0
        assert isinstance(self.bot, KeepsDeadlines), "this bot keeps no deadlines"
        fired = await asyncio.wait_for(self.bot.deadlines.run_due(), self.timeout)
        await self._handlers_done()
        self.check()
        return fired

    @staticmethod
    def upload(filename: str, data: bytes | str, content_type: str | None = None) -> Upload:
        """A file for an attachment option."""
        raw = data.encode() if isinstance(data, str) else data
        return Upload(filename, raw, content_type)

    # -- waiting and looking -------------------------------------------------
    async def _until(self, predicate: Callable[[], Found], what: str) -> Found:
        """Wait for predicate, failing early if the bot dies or logs an error."""

        def ok() -> Any:
            if self._errors.records or (self.bot_task is not None and self.bot_task.done()):
                return True
            return predicate()

        try:
            await self.fake.wait_until(ok, self.timeout, what)
        finally:
            if not predicate():
                await self._handlers_done()
                self.check()
        return predicate()

    async def _handlers_done(self) -> None:
        """Wait until no command, view or modal handler task of the bot is still running."""
        deadline = asyncio.get_running_loop().time() + self.timeout
        while True:
            busy = [
                t
                for t in asyncio.all_tasks()
                if not t.done() and t.get_name().startswith(HANDLER_TASK_PREFIXES)
            ]
            if not busy:
                return
            if asyncio.get_running_loop().time() > deadline:
                self.check()
                raise AssertionError(f"handlers still running after {self.timeout}s: {busy}")
            await asyncio.wait(busy, timeout=0.05)

    async def wait_for_message(
        self, predicate: Callable[[BotMessage], bool], what: str = "a message"
    ) -> BotMessage:
        """Wait for a bot message (new or edited) satisfying predicate."""

        def find() -> BotMessage | None:
            return next((m for m in self.fake.messages.values() if predicate(m)), None)

        found = await self._until(find, what)
        assert found is not None, f"no {what}"  # _until fails first when the bot broke down
        return found

    def messages(self, channel: FakeChannel | None = None) -> list[BotMessage]:
        """Bot messages (optionally in one channel), oldest first."""
        return self.fake.channel_messages(channel.id if channel else None)

    def dms(self, user: FakeUser) -> list[BotMessage]:
        """Direct messages the bot sent to a user."""
        return self.fake.channel_messages(self.world.dm_channel(user).id)

    def synced_commands(self) -> list[dict[str, Any]]:
        """Every command the bot synced (global and guild)."""
        return [c for cmds in self.fake.commands.values() for c in cmds]

    def _message_of(self, target: BotMessage | InteractionResult) -> BotMessage:
        """A message, given a message or an interaction result."""
        if isinstance(target, InteractionResult):
            assert target.message is not None, "that interaction produced no message"
            return target.message
        return target
