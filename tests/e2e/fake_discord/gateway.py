"""Gateway v10 over a websocket: HELLO, IDENTIFY -> READY + GUILD_CREATE, heartbeats, RESUME."""

from __future__ import annotations

import asyncio
import json
import uuid
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

if TYPE_CHECKING:
    from tests.e2e.fake_discord.server import FakeDiscord

HEARTBEAT_INTERVAL_MS = 41_250


class Gateway:
    """The single gateway session of the fake (one bot, one shard)."""

    def __init__(self, fake: FakeDiscord) -> None:
        """Start with no connection."""
        self.fake = fake
        self.ws: web.WebSocketResponse | None = None
        self.seq = 0
        self.session_id = uuid.uuid4().hex
        self.identified = asyncio.Event()
        self.received: list[dict] = []
        self.connections = 0

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        """Serve one websocket connection from the bot until it closes."""
        ws = web.WebSocketResponse(autoping=True)
        await ws.prepare(request)
        self.ws = ws
        self.connections += 1
        await self._send(ws, {"op": 10, "d": {"heartbeat_interval": HEARTBEAT_INTERVAL_MS}})
        async for msg in ws:
            if msg.type is not WSMsgType.TEXT:
                continue
            await self._on_frame(ws, json.loads(msg.data))
        if self.ws is ws:
            self.ws = None
        return ws

    async def _on_frame(self, ws: web.WebSocketResponse, frame: dict) -> None:
        """React to one frame from the bot."""
        self.received.append(frame)
        op, data = frame.get("op"), frame.get("d")
        if op == 1:
            await self._send(ws, {"op": 11})
        elif op == 2:
            await self._ready(ws)
        elif op == 6:
            await self._dispatch(ws, "RESUMED", {})
            self.identified.set()
        elif op == 8:
            await self._members_chunk(ws, data or {})

    async def _ready(self, ws: web.WebSocketResponse) -> None:
        """Answer IDENTIFY: READY with the guild unavailable, then its GUILD_CREATE."""
        world = self.fake.world
        self.seq = 0
        ready = {
            "v": 10,
            "user": world.bot.payload(),
            "guilds": [{"id": str(world.guild_id), "unavailable": True}],
            "session_id": self.session_id,
            "resume_gateway_url": self.fake.gateway_url,
            "application": {"id": str(world.app_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
        }
        await self._dispatch(ws, "READY", ready)
        await self._dispatch(ws, "GUILD_CREATE", world.guild_payload())
        self.identified.set()

    async def _members_chunk(self, ws: web.WebSocketResponse, request: dict) -> None:
        """Answer REQUEST_GUILD_MEMBERS with every member in one chunk."""
        world = self.fake.world
        chunk = {
            "guild_id": str(world.guild_id),
            "members": [m.payload() for m in world.members.values()],
            "chunk_index": 0,
            "chunk_count": 1,
            "nonce": request.get("nonce"),
        }
        await self._dispatch(ws, "GUILD_MEMBERS_CHUNK", chunk)

    async def _send(self, ws: web.WebSocketResponse, frame: dict) -> None:
        """Send one JSON text frame."""
        await ws.send_str(json.dumps(frame))

    async def _dispatch(self, ws: web.WebSocketResponse, event: str, data: Any) -> None:
        """Send a DISPATCH (op 0) with the next sequence number."""
        self.seq += 1
        await self._send(ws, {"op": 0, "t": event, "s": self.seq, "d": data})

    async def dispatch(self, event: str, data: Any) -> None:
        """Send an event to the connected bot; AssertionError if it is not connected."""
        if self.ws is None or self.ws.closed:
            raise AssertionError(f"cannot send {event}: the bot is not connected to the gateway")
        await self._dispatch(self.ws, event, data)

    async def close(self) -> None:
        """Close the connection, if any."""
        if self.ws is not None and not self.ws.closed:
            await self.ws.close(code=1000)
