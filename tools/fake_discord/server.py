"""The fake Discord: an aiohttp app on 127.0.0.1 serving REST v10, Gateway v10 and attachments."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Callable
from typing import Any, TypeVar

from aiohttp import web
from aiohttp.typedefs import Handler

from tools.fake_discord.gateway import Gateway
from tools.fake_discord.records import BotMessage, InteractionRecord, SentFile
from tools.fake_discord.world import World, snowflake

T = TypeVar("T")


def json_response(data: Any, status: int = 200) -> web.Response:
    """JSON with Content-Type exactly application/json (discord.py ignores it with a charset)."""
    return web.Response(
        body=json.dumps(data).encode(), status=status, headers={"Content-Type": "application/json"}
    )


class FakeDiscord:
    """State, records and the running server of the fake Discord."""

    def __init__(self, world: World | None = None) -> None:
        """Prepare an empty record for a world (the default cast if none is given)."""
        self.world = world or World()
        self.messages: dict[int, BotMessage] = {}
        self.interactions: dict[int, InteractionRecord] = {}
        self.commands: dict[int | None, list[dict[str, Any]]] = {}
        self.attachments: dict[int, SentFile] = {}
        self.nonces: dict[tuple[int, str], BotMessage] = {}  # (channel, nonce) -> message
        self.requests: list[str] = []
        self.rejected: list[str] = []
        self.dms_refused: list[int] = []  # users whose DMs were refused (they take none)
        self.unhandled: list[str] = []
        # Called with each interaction's record as its (first) callback arrives, before the
        # fake answers the bot: a test can look at the world at that very moment.
        self.on_callback: list[Callable[[InteractionRecord], None]] = []
        self.gateway = Gateway(self)
        self.port = 0
        self._changed = asyncio.Event()
        self._runner: web.AppRunner | None = None

    @property
    def base_url(self) -> str:
        """http://127.0.0.1:PORT."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def api_base(self) -> str:
        """What discord.http.Route.BASE must be set to."""
        return f"{self.base_url}/api/v10"

    @property
    def gateway_url(self) -> str:
        """What DiscordWebSocket.DEFAULT_GATEWAY (and resume_gateway_url) must be."""
        return f"ws://127.0.0.1:{self.port}/gateway"

    async def start(self) -> None:
        """Bind to a free port on 127.0.0.1 and serve."""
        from tools.fake_discord.rest import add_routes

        app = web.Application(middlewares=[self._log_requests], client_max_size=64 * 1024**2)
        app.router.add_get("/gateway", self.gateway.handle)
        app.router.add_get("/attachments/{file_id}/{filename}", self._serve_attachment)
        add_routes(app, self)
        app.router.add_route("*", "/{tail:.*}", self._unhandled)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]

    async def stop(self) -> None:
        """Close gateway sockets and the server."""
        await self.gateway.close()
        if self._runner is not None:
            await self._runner.cleanup()

    @web.middleware
    async def _log_requests(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """Keep a list of every request as 'METHOD /path'."""
        self.requests.append(f"{request.method} {request.path}")
        return await handler(request)

    async def _unhandled(self, request: web.Request) -> web.Response:
        """Any route the fake does not know: record it and answer 404 like Discord."""
        self.unhandled.append(f"{request.method} {request.path_qs}")
        self.notify()
        return json_response({"message": "404: Not Found (fake Discord)", "code": 0}, 404)

    async def _serve_attachment(self, request: web.Request) -> web.Response:
        """Serve the bytes of an uploaded file (the CDN)."""
        f = self.attachments.get(int(request.match_info["file_id"]))
        if f is None:
            return web.Response(status=404)
        ctype = f.content_type or "application/octet-stream"
        return web.Response(body=f.data, headers={"Content-Type": ctype})

    def reject(self, request: web.Request, status: int, body: dict[str, Any]) -> web.Response:
        """Answer with a Discord error, remembering it so the harness can fail the test."""
        self.rejected.append(f"{request.method} {request.path}: {status} {json.dumps(body)}")
        self.notify()
        return json_response(body, status)

    def notify(self) -> None:
        """Wake everything waiting for the record to change."""
        self._changed.set()
        self._changed = asyncio.Event()

    async def wait_until(self, predicate: Callable[[], T], seconds: float, what: str) -> T:
        """Wait until predicate() is truthy and return it; AssertionError after `seconds`."""
        deadline = time.monotonic() + seconds
        while True:
            value = predicate()
            if value:
                return value
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise AssertionError(f"timed out after {seconds}s waiting for {what}")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), remaining)

    def add_file(self, filename: str, data: bytes, content_type: str | None = None) -> SentFile:
        """Store a file so it is served at /attachments/ID/FILENAME."""
        f = SentFile(snowflake(), filename, data, content_type)
        self.attachments[f.id] = f
        return f

    def create_message(
        self,
        channel_id: int,
        kind: str,
        body: dict[str, Any],
        files: list[SentFile],
        interaction: InteractionRecord | None = None,
    ) -> BotMessage:
        """Record a new message from the bot."""
        channel = self.world.any_channel(channel_id)
        msg = BotMessage(
            id=snowflake(),
            channel_id=channel_id,
            guild_id=channel.guild_id if channel else None,
            kind=kind,
            author=self.world.bot.payload(),
            interaction_id=interaction.id if interaction else None,
        )
        msg.apply(body, files, record_edit=False)
        self.messages[msg.id] = msg
        self.notify()
        return msg

    async def send_interaction(
        self, payload: dict[str, Any], source: BotMessage | None = None
    ) -> InteractionRecord:
        """Record an interaction and deliver it to the bot as INTERACTION_CREATE."""
        user = payload.get("member", {}).get("user") or payload["user"]
        record = InteractionRecord(
            id=int(payload["id"]),
            token=payload["token"],
            type=payload["type"],
            user_id=int(user["id"]),
            channel_id=int(payload["channel"]["id"]),
            payload=payload,
            source_message=source,
        )
        self.interactions[record.id] = record
        await self.gateway.dispatch("INTERACTION_CREATE", payload)
        return record

    def interaction_by_token(self, token: str) -> InteractionRecord | None:
        """The interaction whose webhook token this is."""
        return next((r for r in self.interactions.values() if r.token == token), None)

    def channel_messages(self, channel_id: int | None = None) -> list[BotMessage]:
        """Messages the bot made (optionally in one channel), oldest first, deleted ones too."""
        return [m for m in self.messages.values() if channel_id in (None, m.channel_id)]
