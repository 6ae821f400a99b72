"""Gateway v10 over websockets: HELLO, IDENTIFY -> READY + GUILD_CREATE, heartbeats, RESUME.

Sharding as Discord does it: an IDENTIFY may carry ``shard: [id, count]``; that connection is
then given only the guilds whose ``(guild_id >> 22) % count`` is its id, and every event about
a guild (an interaction) is sent on the connection of the shard that owns the guild. An
IDENTIFY without ``shard`` is shard 0 of 1 (every guild). Several bot processes may be
connected at once, each for its own shards; a shard identified again (a process restarted
with it) moves to the new connection.
"""

from __future__ import annotations

import asyncio
import json
import uuid
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

if TYPE_CHECKING:
    from tools.fake_discord.server import FakeDiscord

HEARTBEAT_INTERVAL_MS = 41_250


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard Discord gives a guild."""
    return (guild_id >> 22) % shard_count


@dataclass
class Session:
    """One identified gateway session: a shard of a bot, on one websocket."""

    ws: web.WebSocketResponse
    shard_id: int = 0
    shard_count: int = 1
    seq: int = 0
    session_id: str = field(default_factory=lambda: uuid.uuid4().hex)

    def owns(self, guild_id: int) -> bool:
        """Whether this session's shard is the guild's."""
        return shard_of(guild_id, self.shard_count) == self.shard_id


class Gateway:
    """The gateway of the fake: one session per shard (a single one when not sharded)."""

    def __init__(self, fake: FakeDiscord) -> None:
        """Start with no connection."""
        self.fake = fake
        self.sessions: dict[int, Session] = {}  # shard id -> its current session
        self.by_ws: dict[int, Session] = {}  # id(ws) -> session, for frames after IDENTIFY
        self.seq = 0  # the sequence number of the last event sent (on whichever shard)
        self.last_shard = 0  # the shard that last event went to
        self.identified = asyncio.Event()
        self.received: list[dict[str, Any]] = []
        self.connections = 0
        self.identifies: list[tuple[int, int]] = []  # (shard id, count) of every IDENTIFY
        self._sockets: list[web.WebSocketResponse] = []
        self._resumable: dict[str, Session] = {}  # session id -> a session whose socket closed

    @property
    def ws(self) -> web.WebSocketResponse | None:
        """The websocket of shard 0 (the only one when the bot is not sharded)."""
        session = self.sessions.get(0) or next(iter(self.sessions.values()), None)
        return session.ws if session is not None and not session.ws.closed else None

    def connected_shards(self) -> dict[int, int]:
        """Shard id -> shard count of every session whose websocket is open."""
        return {s.shard_id: s.shard_count for s in self.sessions.values() if not s.ws.closed}

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        """Serve one websocket connection from the bot until it closes."""
        ws = web.WebSocketResponse(autoping=True)
        await ws.prepare(request)
        self.connections += 1
        self._sockets.append(ws)
        await self._send(ws, {"op": 10, "d": {"heartbeat_interval": HEARTBEAT_INTERVAL_MS}})
        try:
            async for msg in ws:
                if msg.type is not WSMsgType.TEXT:
                    continue
                await self._on_frame(ws, json.loads(msg.data))
        finally:
            self._sockets.remove(ws)
            self.by_ws.pop(id(ws), None)
            for shard_id, session in list(self.sessions.items()):
                if session.ws is ws:
                    del self.sessions[shard_id]
                    self._resumable[session.session_id] = session
            self.fake.notify()
        return ws

    async def _on_frame(self, ws: web.WebSocketResponse, frame: dict[str, Any]) -> None:
        """React to one frame from the bot."""
        self.received.append(frame)
        op, data = frame.get("op"), frame.get("d")
        if op == 1:
            await self._send(ws, {"op": 11})
        elif op == 2:
            shard_id, count = (data or {}).get("shard") or (0, 1)
            await self._ready(Session(ws, int(shard_id), int(count)))
        elif op == 6:
            await self._resume(ws, data or {})
        elif op == 8:
            session = self.by_ws.get(id(ws))
            if session is not None:
                await self._members_chunk(session, data or {})

    async def _resume(self, ws: web.WebSocketResponse, data: dict[str, Any]) -> None:
        """RESUME: the session named moves to this websocket (a new one if it is unknown)."""
        wanted: str = data.get("session_id") or ""  # session ids are never empty
        known = self._resumable.pop(wanted, None) or next(
            (s for s in self.sessions.values() if s.session_id == wanted), None
        )
        session = Session(ws) if known is None else known
        session.ws = ws
        self.sessions[session.shard_id] = session
        self.by_ws[id(ws)] = session
        await self._dispatch(session, "RESUMED", {})
        self.identified.set()
        self.fake.notify()

    async def _ready(self, session: Session) -> None:
        """Answer IDENTIFY: READY with the shard's guilds unavailable, then their GUILD_CREATE."""
        world = self.fake.world
        self.identifies.append((session.shard_id, session.shard_count))
        self.sessions[session.shard_id] = session
        self.by_ws[id(session.ws)] = session
        guilds = [g for g in world.guilds if session.owns(g)]
        ready = {
            "v": 10,
            "user": world.bot.payload(),
            "guilds": [{"id": str(g), "unavailable": True} for g in guilds],
            "session_id": session.session_id,
            "resume_gateway_url": self.fake.gateway_url,
            "application": {"id": str(world.app_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
        }
        if session.shard_count > 1:
            ready["shard"] = [session.shard_id, session.shard_count]
        await self._dispatch(session, "READY", ready)
        for guild_id in guilds:
            await self._dispatch(session, "GUILD_CREATE", world.guild_payload(guild_id))
        self.identified.set()
        self.fake.notify()

    async def _members_chunk(self, session: Session, request: dict[str, Any]) -> None:
        """Answer REQUEST_GUILD_MEMBERS with every member in one chunk."""
        world = self.fake.world
        chunk = {
            "guild_id": str(request.get("guild_id") or world.guild_id),
            "members": [m.payload() for m in world.members.values()],
            "chunk_index": 0,
            "chunk_count": 1,
            "nonce": request.get("nonce"),
        }
        await self._dispatch(session, "GUILD_MEMBERS_CHUNK", chunk)

    async def _send(self, ws: web.WebSocketResponse, frame: dict[str, Any]) -> None:
        """Send one JSON text frame."""
        await ws.send_str(json.dumps(frame))

    async def _dispatch(self, session: Session, event: str, data: Any) -> None:
        """Send a DISPATCH (op 0) with the session's next sequence number."""
        session.seq += 1
        self.seq, self.last_shard = session.seq, session.shard_id
        await self._send(session.ws, {"op": 0, "t": event, "s": session.seq, "d": data})

    def session_for(self, guild_id: int | None) -> Session | None:
        """The open session of the shard that owns the guild (shard 0 for none)."""
        for session in self.sessions.values():
            if session.ws.closed:
                continue
            if guild_id is None and session.shard_id == 0:
                return session
            if guild_id is not None and session.owns(guild_id):
                return session
        return None

    async def dispatch(self, event: str, data: Any) -> None:
        """Send an event to the bot's shard for its guild; AssertionError if it is not
        connected."""
        guild = data.get("guild_id") if isinstance(data, dict) else None
        session = self.session_for(int(guild) if guild else None)
        if session is None:
            where = f" (the shard of guild {guild})" if guild else ""
            raise AssertionError(f"cannot send {event}: the bot is not connected{where}")
        await self._dispatch(session, event, data)

    async def close(self) -> None:
        """Close every connection."""
        for ws in list(self._sockets):
            if not ws.closed:
                await ws.close(code=1000)
