"""REST v10 routes of the fake: login, command sync, interaction callbacks, webhooks, messages."""

from __future__ import annotations

import json
import time
from typing import TYPE_CHECKING, Any

from aiohttp import BodyPartReader, web

from tools.fake_discord import schema
from tools.fake_discord.records import (
    EPHEMERAL,
    LOADING,
    BotMessage,
    InteractionRecord,
    SentFile,
)
from tools.fake_discord.server import json_response
from tools.fake_discord.world import snowflake

if TYPE_CHECKING:
    from tools.fake_discord.server import FakeDiscord

UNKNOWN_MESSAGE = {"message": "Unknown Message", "code": 10008}
UNKNOWN_WEBHOOK = {"message": "Unknown Webhook", "code": 10015}
UNKNOWN_CHANNEL = {"message": "Unknown Channel", "code": 10003}
UNKNOWN_GUILD = {"message": "Unknown Guild", "code": 10004}
CANNOT_DM = {"message": "Cannot send messages to this user", "code": 50007}


async def read_body(request: web.Request) -> tuple[dict[str, Any], list[SentFile]]:
    """The JSON body, or payload_json plus files[n] of a multipart body."""
    if not request.can_read_body:
        return {}, []
    if not request.content_type.startswith("multipart/"):
        return await request.json(), []
    payload: dict[str, Any] = {}
    raw: dict[int, tuple[str, bytes, str | None]] = {}
    reader = await request.multipart()
    async for part in reader:
        assert isinstance(part, BodyPartReader)  # discord.py sends flat multipart bodies
        name = part.name or ""
        if name == "payload_json":
            payload = json.loads(await part.text())
        elif name.startswith("files["):
            data = await part.read()
            ctype = part.headers.get("Content-Type")
            raw[int(name[6:-1])] = (part.filename or "file", bytes(data), ctype)
    return payload, _files_from(payload, raw)


def _files_from(
    payload: dict[str, Any], raw: dict[int, tuple[str, bytes, str | None]]
) -> list[SentFile]:
    """Pair uploaded parts with their entries in payload['attachments'] (or data.attachments)."""
    meta_list = payload.get("attachments") or (payload.get("data") or {}).get("attachments") or []
    meta = {int(a["id"]): a for a in meta_list if str(a.get("id", "")).isdigit()}
    files = []
    for index, (filename, data, ctype) in sorted(raw.items()):
        info = meta.get(index, {})
        name = info.get("filename", filename)
        files.append(SentFile(snowflake(), name, data, ctype, info.get("description")))
    return files


class Rest:
    """Handlers bound to one FakeDiscord."""

    def __init__(self, fake: FakeDiscord) -> None:
        """Bind to the fake."""
        self.fake = fake
        self.world = fake.world

    async def me(self, request: web.Request) -> web.Response:
        """GET /users/@me: the bot user (login)."""
        return json_response(self.world.bot.payload())

    async def my_guilds(self, request: web.Request) -> web.Response:
        """GET /users/@me/guilds: the servers the bot is in, as partial guilds."""
        permissions = str(self.world.permissions(self.world.bot))
        return json_response(
            [
                {
                    "id": str(i),
                    "name": name,
                    "icon": None,
                    "owner": False,
                    "permissions": permissions,
                    "features": [],
                }
                for i, name in self.world.guilds.items()
            ]
        )

    async def application(self, request: web.Request) -> web.Response:
        """GET /oauth2/applications/@me (login)."""
        return json_response(self.world.app_payload())

    async def get_user(self, request: web.Request) -> web.Response:
        """GET /users/{id}."""
        try:
            return json_response(self.world.user(int(request.match_info["user_id"])).payload())
        except KeyError:
            return self.fake.reject(request, 404, {"message": "Unknown User", "code": 10013})

    async def open_dm(self, request: web.Request) -> web.Response:
        """POST /users/@me/channels: open a DM with a member."""
        body = await request.json()
        user = self.world.user(int(body["recipient_id"]))
        return json_response(self.world.dm_channel(user).payload())

    def _scope(self, request: web.Request) -> int | None:
        """The guild id of a guild command route, None for global."""
        guild = request.match_info.get("guild_id")
        return int(guild) if guild else None

    async def get_commands(self, request: web.Request) -> web.Response:
        """GET application (guild) commands."""
        return json_response(self.fake.commands.get(self._scope(request), []))

    async def put_commands(self, request: web.Request) -> web.Response:
        """PUT (bulk overwrite) application commands: validate, then echo with ids."""
        payload = await request.json()
        problems = schema.validate_commands(payload)
        if problems:
            return self.fake.reject(request, 400, schema.error_body(problems))
        scope = self._scope(request)
        old = {(c["name"], c.get("type", 1)): c["id"] for c in self.fake.commands.get(scope, [])}
        synced = []
        for cmd in payload:
            key = (cmd["name"], cmd.get("type", 1))
            synced.append(
                {
                    "type": 1,
                    "default_member_permissions": None,
                    "nsfw": False,
                    **cmd,
                    "id": old.get(key, str(snowflake())),
                    "application_id": str(self.world.app_id),
                    "version": str(snowflake()),
                    **({"guild_id": str(scope)} if scope else {}),
                }
            )
        self.fake.commands[scope] = synced
        self.fake.notify()
        return json_response(synced)

    async def callback(self, request: web.Request) -> web.Response:
        """POST /interactions/{id}/{token}/callback: the one response to an interaction."""
        record = self.fake.interactions.get(int(request.match_info["interaction_id"]))
        if record is None or record.token != request.match_info["token"]:
            return self.fake.reject(request, 404, {"message": "Unknown interaction", "code": 10062})
        body, files = await read_body(request)
        if record.callbacks:
            already = {"message": "Interaction has already been acknowledged.", "code": 40060}
            return self.fake.reject(request, 400, already)
        problems = self._callback_problems(body, len(files))
        if problems:
            return self.fake.reject(request, 400, schema.error_body(problems))
        for look in self.fake.on_callback:
            look(record)
        record.callbacks.append(body)
        record.answered_after = time.monotonic() - record.sent_at
        record.answered_after_cpu = time.process_time() - record.sent_cpu
        message = self._apply_callback(record, body, files)
        self.fake.notify()
        ctype = body["type"]
        resource: dict[str, Any] = {"type": ctype}
        if message is not None and ctype in (4, 7):
            resource["message"] = message.payload(self.fake.base_url)
        return json_response(
            {
                "interaction": {
                    "id": str(record.id),
                    "type": record.type,
                    "response_message_id": str(message.id) if message else None,
                    "response_message_loading": ctype == 5,
                    "response_message_ephemeral": bool(message and message.ephemeral),
                },
                "resource": resource,
            }
        )

    def _callback_problems(self, body: dict[str, Any], n_files: int) -> schema.Problems:
        """Validate a callback body by its type."""
        ctype, data = body.get("type"), body.get("data") or {}
        if ctype == 4:
            return schema.validate_message(data, n_files, creating=True)
        if ctype == 7:
            return schema.validate_message(data, n_files, creating=False)
        if ctype == 8:
            return schema.validate_choices(data.get("choices") or [])
        if ctype == 9:
            return schema.validate_modal(data)
        if ctype in (5, 6):
            return []
        return [("type", f"unsupported callback type {ctype!r}")]

    def _apply_callback(
        self, record: InteractionRecord, body: dict[str, Any], files: list[SentFile]
    ) -> BotMessage | None:
        """Create or edit the message a callback implies, and remember it as the original."""
        ctype, data = body["type"], body.get("data") or {}
        if ctype == 4:
            record.original = self.fake.create_message(
                record.channel_id, "response", data, files, record
            )
        elif ctype == 5:
            flags = (data.get("flags") or 0) & EPHEMERAL | LOADING
            record.original = self.fake.create_message(
                record.channel_id, "response", {"flags": flags}, [], record
            )
            record.original.flags = flags
        elif ctype in (6, 7):
            record.original = record.source_message
            if ctype == 7 and record.original is not None:
                record.original.apply(data, files, record_edit=True)
        return record.original

    async def execute_webhook(self, request: web.Request) -> web.Response:
        """POST /webhooks/{app}/{token}: an interaction followup."""
        record = self.fake.interaction_by_token(request.match_info["token"])
        if record is None or not record.callbacks:
            return self.fake.reject(request, 404, UNKNOWN_WEBHOOK)
        body, files = await read_body(request)
        problems = schema.validate_message(body, len(files), creating=True)
        if problems:
            return self.fake.reject(request, 400, schema.error_body(problems))
        original = record.original
        placeholder = original is not None and original.loading and not original.deleted
        if original is not None and placeholder and record.callback_type == 5:
            ephemeral = original.flags & EPHEMERAL
            original.apply(body, files, record_edit=False)
            original.flags = (original.flags & ~(EPHEMERAL | LOADING)) | ephemeral
            message = original
        else:
            message = self.fake.create_message(record.channel_id, "followup", body, files, record)
        record.followups.append(message)
        self.fake.notify()
        return json_response(message.payload(self.fake.base_url))

    def _webhook_message(self, request: web.Request) -> BotMessage | None:
        """The @original or followup message addressed by a webhook message route."""
        record = self.fake.interaction_by_token(request.match_info["token"])
        if record is None:
            return None
        mid = request.match_info["message_id"]
        if mid == "@original":
            return record.original
        wanted = int(mid)
        owned = [record.original, *record.followups]
        return next((m for m in owned if m is not None and m.id == wanted), None)

    async def webhook_message(self, request: web.Request) -> web.Response:
        """GET/PATCH/DELETE /webhooks/{app}/{token}/messages/{id|@original}."""
        message = self._webhook_message(request)
        if message is None or message.deleted:
            return self.fake.reject(request, 404, UNKNOWN_MESSAGE)
        return await self._message_verb(request, message)

    async def _message_verb(self, request: web.Request, message: BotMessage) -> web.Response:
        """Apply GET, PATCH or DELETE to a recorded message."""
        if request.method == "DELETE":
            message.deleted = True
            self.fake.notify()
            return web.Response(status=204)
        if request.method == "PATCH":
            body, files = await read_body(request)
            problems = schema.validate_message(body, len(files), creating=False)
            if problems:
                return self.fake.reject(request, 400, schema.error_body(problems))
            message.apply(body, files, record_edit=True)
            self.fake.notify()
        return json_response(message.payload(self.fake.base_url))

    async def get_channel(self, request: web.Request) -> web.Response:
        """GET /channels/{id}."""
        channel = self.world.any_channel(int(request.match_info["channel_id"]))
        if channel is None:
            return self.fake.reject(request, 404, UNKNOWN_CHANNEL)
        return json_response(channel.payload())

    async def create_channel_message(self, request: web.Request) -> web.Response:
        """POST /channels/{id}/messages: a plain message (or DM) from the bot."""
        channel = self.world.any_channel(int(request.match_info["channel_id"]))
        if channel is None:
            return self.fake.reject(request, 404, UNKNOWN_CHANNEL)
        body, files = await read_body(request)
        problems = schema.validate_message(body, len(files), creating=True)
        if problems:
            return self.fake.reject(request, 400, schema.error_body(problems))
        if channel.type == 1 and channel.recipient and not channel.recipient.accepts_dms:
            self.fake.dms_refused.append(channel.recipient.id)  # as Discord does: not a bot bug
            return json_response(CANNOT_DM, 403)
        kind = "dm" if channel.type == 1 else "channel"
        nonce = body.get("nonce") if body.get("enforce_nonce") else None
        if nonce is not None:  # Discord returns the message it already made for this nonce
            again = self.fake.nonces.get((channel.id, str(nonce)))
            if again is not None:
                return json_response(again.payload(self.fake.base_url))
        message = self.fake.create_message(channel.id, kind, body, files)
        if nonce is not None:
            self.fake.nonces[(channel.id, str(nonce))] = message
        return json_response(message.payload(self.fake.base_url))

    async def channel_history(self, request: web.Request) -> web.Response:
        """GET /channels/{id}/messages: the bot's messages there, newest first (``limit``)."""
        channel_id = int(request.match_info["channel_id"])
        if self.world.any_channel(channel_id) is None:
            return self.fake.reject(request, 404, UNKNOWN_CHANNEL)
        limit = min(int(request.query.get("limit", "50")), 100)
        before = int(request.query.get("before", "0")) or None
        shown = [
            m
            for m in reversed(self.fake.channel_messages(channel_id))
            if not m.deleted and not m.ephemeral and (before is None or m.id < before)
        ]
        return json_response([m.payload(self.fake.base_url) for m in shown[:limit]])

    async def channel_message(self, request: web.Request) -> web.Response:
        """GET/PATCH/DELETE /channels/{id}/messages/{id}."""
        message = self.fake.messages.get(int(request.match_info["message_id"]))
        if message is None or message.deleted or message.ephemeral:
            return self.fake.reject(request, 404, UNKNOWN_MESSAGE)
        return await self._message_verb(request, message)

    def _guild_id(self, request: web.Request) -> int | None:
        """The guild of a /guilds/{id} route, if the bot is in it."""
        guild_id = int(request.match_info["guild_id"])
        return guild_id if guild_id in self.world.guilds else None

    async def guild(self, request: web.Request) -> web.Response:
        """GET /guilds/{id}."""
        guild_id = self._guild_id(request)
        if guild_id is None:
            return self.fake.reject(request, 404, UNKNOWN_GUILD)
        return json_response(self.world.guild_payload(guild_id))

    async def guild_channels(self, request: web.Request) -> web.Response:
        """GET /guilds/{id}/channels."""
        guild_id = self._guild_id(request)
        if guild_id is None:
            return self.fake.reject(request, 404, UNKNOWN_GUILD)
        channels = self.world.guild_payload(guild_id)["channels"]
        return json_response(channels)

    async def guild_roles(self, request: web.Request) -> web.Response:
        """GET /guilds/{id}/roles."""
        guild_id = self._guild_id(request)
        if guild_id is None:
            return self.fake.reject(request, 404, UNKNOWN_GUILD)
        return json_response([r.payload() for r in self.world.roles_of(guild_id)])

    async def gateway_bot(self, request: web.Request) -> web.Response:
        """GET /gateway/bot: where to connect and how many shards Discord recommends."""
        return json_response(
            {
                "url": self.fake.gateway_url,
                "shards": self.world.shard_count,
                "session_start_limit": {
                    "total": 1000,
                    "remaining": 1000,
                    "reset_after": 0,
                    "max_concurrency": 1,
                },
            }
        )

    async def gateway(self, request: web.Request) -> web.Response:
        """GET /gateway: where to connect."""
        return json_response({"url": self.fake.gateway_url})

    async def guild_member(self, request: web.Request) -> web.Response:
        """GET /guilds/{id}/members/{user_id}."""
        member = self.world.members.get(int(request.match_info["user_id"]))
        if member is None:
            return self.fake.reject(request, 404, {"message": "Unknown Member", "code": 10007})
        return json_response(member.payload())


def add_routes(app: web.Application, fake: FakeDiscord) -> None:
    """Register every REST route under /api/v10."""
    rest = Rest(fake)
    api = "/api/v10"
    cmds = "/applications/{app_id}/commands"
    guild_cmds = "/applications/{app_id}/guilds/{guild_id}/commands"
    hook_msg = "/webhooks/{app_id}/{token}/messages/{message_id}"
    routes = [
        ("GET", "/users/@me", rest.me),
        ("GET", "/oauth2/applications/@me", rest.application),
        ("GET", "/users/@me/guilds", rest.my_guilds),
        ("POST", "/users/@me/channels", rest.open_dm),
        ("GET", "/users/{user_id}", rest.get_user),
        ("GET", cmds, rest.get_commands),
        ("PUT", cmds, rest.put_commands),
        ("GET", guild_cmds, rest.get_commands),
        ("PUT", guild_cmds, rest.put_commands),
        ("POST", "/interactions/{interaction_id}/{token}/callback", rest.callback),
        ("POST", "/webhooks/{app_id}/{token}", rest.execute_webhook),
        *[(verb, hook_msg, rest.webhook_message) for verb in ("GET", "PATCH", "DELETE")],
        ("GET", "/channels/{channel_id}", rest.get_channel),
        ("POST", "/channels/{channel_id}/messages", rest.create_channel_message),
        ("GET", "/channels/{channel_id}/messages", rest.channel_history),
        *[
            (verb, "/channels/{channel_id}/messages/{message_id}", rest.channel_message)
            for verb in ("GET", "PATCH", "DELETE")
        ],
        ("GET", "/gateway/bot", rest.gateway_bot),
        ("GET", "/gateway", rest.gateway),
        ("GET", "/guilds/{guild_id}", rest.guild),
        ("GET", "/guilds/{guild_id}/channels", rest.guild_channels),
        ("GET", "/guilds/{guild_id}/roles", rest.guild_roles),
        ("GET", "/guilds/{guild_id}/members/{user_id}", rest.guild_member),
    ]
    for method, path, handler in routes:
        app.router.add_route(method, api + path, handler)
