"""The people and places of the fake server, and their Discord JSON payloads."""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

DISCORD_EPOCH_MS = 1_420_070_400_000
_START_MS = int(datetime(2025, 1, 6, 12, 0, tzinfo=UTC).timestamp() * 1000)
_counter = itertools.count(1)

# Permission bits (https://discord.com/developers/docs/topics/permissions).
ADMINISTRATOR = 1 << 3
ADD_REACTIONS = 1 << 6
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
MANAGE_MESSAGES = 1 << 13
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
USE_EXTERNAL_EMOJIS = 1 << 18
USE_APPLICATION_COMMANDS = 1 << 31
MANAGE_THREADS = 1 << 34
CREATE_PUBLIC_THREADS = 1 << 35
SEND_MESSAGES_IN_THREADS = 1 << 38
ALL_PERMISSIONS = (1 << 51) - 1
MEMBER_PERMISSIONS = (
    ADD_REACTIONS
    | VIEW_CHANNEL
    | SEND_MESSAGES
    | EMBED_LINKS
    | ATTACH_FILES
    | READ_MESSAGE_HISTORY
    | USE_EXTERNAL_EMOJIS
    | USE_APPLICATION_COMMANDS
    | CREATE_PUBLIC_THREADS
    | SEND_MESSAGES_IN_THREADS
)
BOT_PERMISSIONS = MEMBER_PERMISSIONS | MANAGE_MESSAGES | MANAGE_THREADS


def snowflake() -> int:
    """A new, increasing, realistic-looking Discord snowflake."""
    return ((_START_MS - DISCORD_EPOCH_MS) << 22) | next(_counter)


def snowflake_on_shard(shard_id: int, shard_count: int) -> int:
    """A new snowflake (for a guild) that Discord would put on this shard: its timestamp is
    moved on by under ``shard_count`` milliseconds so that ``(id >> 22) % count`` is
    ``shard_id``."""
    base = _START_MS - DISCORD_EPOCH_MS
    return ((base + (shard_id - base) % shard_count) << 22) | next(_counter)


def iso_now() -> str:
    """The current wall time as Discord writes timestamps."""
    return datetime.now(UTC).isoformat()


@dataclass
class FakeUser:
    """A Discord user account."""

    username: str
    global_name: str | None = None
    bot: bool = False
    id: int = field(default_factory=snowflake)
    accepts_dms: bool = True  # False: Discord refuses the bot's direct messages (50007)

    @property
    def mention(self) -> str:
        """The mention markup for this user."""
        return f"<@{self.id}>"

    @property
    def display_name(self) -> str:
        """The name Discord shows for this user."""
        return self.global_name or self.username

    def payload(self) -> dict[str, Any]:
        """The user object JSON."""
        return {
            "id": str(self.id),
            "username": self.username,
            "global_name": self.global_name,
            "discriminator": "0",
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
            "flags": 0,
        }


@dataclass
class FakeRole:
    """A guild role."""

    name: str
    permissions: int = 0
    position: int = 1
    managed: bool = False
    id: int = field(default_factory=snowflake)

    @property
    def mention(self) -> str:
        """The mention markup for this role."""
        return f"<@&{self.id}>"

    def payload(self) -> dict[str, Any]:
        """The role object JSON."""
        return {
            "id": str(self.id),
            "name": self.name,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "icon": None,
            "unicode_emoji": None,
            "position": self.position,
            "permissions": str(self.permissions),
            "managed": self.managed,
            "mentionable": True,
            "flags": 0,
        }


@dataclass
class FakeChannel:
    """A guild text channel (type 0) or a DM channel (type 1)."""

    name: str
    guild_id: int | None
    type: int = 0
    position: int = 0
    topic: str | None = None
    recipient: FakeUser | None = None
    id: int = field(default_factory=snowflake)
    # Discord's permission overwrite objects: {"id", "type" (0 role, 1 member), "allow", "deny"}.
    overwrites: list[dict[str, Any]] = field(default_factory=list)

    @property
    def mention(self) -> str:
        """The mention markup for this channel."""
        return f"<#{self.id}>"

    def payload(self) -> dict[str, Any]:
        """The channel object JSON."""
        if self.type == 1:
            assert self.recipient is not None
            return {
                "id": str(self.id),
                "type": 1,
                "last_message_id": None,
                "recipients": [self.recipient.payload()],
            }
        return {
            "id": str(self.id),
            "type": self.type,
            "guild_id": str(self.guild_id),
            "name": self.name,
            "position": self.position,
            "permission_overwrites": self.overwrites,
            "nsfw": False,
            "parent_id": None,
            "topic": self.topic,
            "rate_limit_per_user": 0,
            "last_message_id": None,
            "flags": 0,
        }


@dataclass
class FakeMember:
    """A user's membership of the guild."""

    user: FakeUser
    roles: list[FakeRole] = field(default_factory=list)
    nick: str | None = None
    joined_at: str = field(default_factory=iso_now)

    def payload(self, *, with_user: bool = True, permissions: int | None = None) -> dict[str, Any]:
        """The guild member object JSON."""
        data: dict[str, Any] = {
            "roles": [str(r.id) for r in self.roles],
            "nick": self.nick,
            "avatar": None,
            "banner": None,
            "joined_at": self.joined_at,
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "pending": False,
            "flags": 0,
            "communication_disabled_until": None,
        }
        if with_user:
            data["user"] = self.user.payload()
        if permissions is not None:
            data["permissions"] = str(permissions)
        return data


class World:
    """One guild with an owner, a GM, two players, an outsider, channels, roles and the bot."""

    def __init__(self) -> None:
        """Build the default cast."""
        self.app_id = snowflake()
        self.guild_id = snowflake()
        self.guild_name = "The Campaign Table"
        self.bot = FakeUser("Aide-de-Camp", bot=True, id=self.app_id)
        self.everyone = FakeRole("@everyone", MEMBER_PERMISSIONS, position=0, id=self.guild_id)
        self.admin_role = FakeRole("Admin", ADMINISTRATOR, position=3)
        self.wargamer_role = FakeRole("Wargamer", 0, position=1)
        self.bot_role = FakeRole("Aide-de-Camp", BOT_PERMISSIONS, position=2, managed=True)
        self.owner = FakeUser("olga", "Olga the Owner")
        self.gm = FakeUser("gwen", "Gwen the GM")
        self.alice = FakeUser("alice", "Alice")
        self.bob = FakeUser("bob", "Bob")
        self.outsider = FakeUser("oscar", "Oscar the Outsider")
        self.members: dict[int, FakeMember] = {}
        self.add_member(self.owner, [self.admin_role])
        for player in (self.gm, self.alice, self.bob):
            self.add_member(player, [self.wargamer_role])
        self.add_member(self.outsider, [])
        self.add_member(self.bot, [self.bot_role])
        self.channels: dict[int, FakeChannel] = {}
        for pos, name in enumerate(("general", "hundred-years", "punic-wars")):
            self.add_channel(FakeChannel(name, self.guild_id, position=pos))
        self.dm_channels: dict[int, FakeChannel] = {}
        # Every guild the bot is in (id -> name): this one, and any added for sharding. The
        # same people are members of each; each has its own channels and @everyone role.
        self.guilds: dict[int, str] = {self.guild_id: self.guild_name}
        self.shard_count = 1  # what GET /gateway/bot recommends

    def add_guild(self, name: str, channels: tuple[str, ...], *, shard: tuple[int, int]) -> int:
        """Another guild, on shard ``shard`` = (id, count), with these text channels (names
        unique across the world); its id."""
        guild_id = snowflake_on_shard(*shard)
        self.guilds[guild_id] = name
        for pos, channel in enumerate(channels):
            self.add_channel(FakeChannel(channel, guild_id, position=pos))
        return guild_id

    def roles_of(self, guild_id: int) -> list[FakeRole]:
        """A guild's roles: its own @everyone (whose id is the guild's), then the shared ones."""
        if guild_id == self.guild_id:
            return self.roles
        everyone = FakeRole("@everyone", MEMBER_PERMISSIONS, position=0, id=guild_id)
        return [everyone, *self.roles[1:]]

    @property
    def roles(self) -> list[FakeRole]:
        """Every role of the guild, @everyone first."""
        return [self.everyone, self.wargamer_role, self.bot_role, self.admin_role]

    @property
    def users(self) -> list[FakeUser]:
        """Every user in the guild."""
        return [m.user for m in self.members.values()]

    def add_member(self, user: FakeUser, roles: list[FakeRole]) -> FakeMember:
        """Put a user in the guild with the given roles."""
        member = FakeMember(user, list(roles))
        self.members[user.id] = member
        return member

    def add_channel(self, channel: FakeChannel) -> FakeChannel:
        """Add a guild channel."""
        self.channels[channel.id] = channel
        return channel

    def channel(self, name: str) -> FakeChannel:
        """The guild channel with this name."""
        for channel in self.channels.values():
            if channel.name == name:
                return channel
        raise KeyError(name)

    def role(self, name: str) -> FakeRole:
        """The role with this name."""
        return next(r for r in self.roles if r.name == name)

    def user(self, user_id: int) -> FakeUser:
        """The user with this id (members and DM recipients)."""
        if user_id in self.members:
            return self.members[user_id].user
        raise KeyError(user_id)

    def any_channel(self, channel_id: int) -> FakeChannel | None:
        """A guild or DM channel by id."""
        return self.channels.get(channel_id) or self.dm_channels.get(channel_id)

    def dm_channel(self, user: FakeUser) -> FakeChannel:
        """The DM channel between the bot and this user, created on first use."""
        for channel in self.dm_channels.values():
            if channel.recipient is user:
                return channel
        channel = FakeChannel(f"dm-{user.username}", None, type=1, recipient=user)
        self.dm_channels[channel.id] = channel
        return channel

    def permissions(self, user: FakeUser) -> int:
        """The guild-level permissions of a member (no channel overwrites here)."""
        member = self.members[user.id]
        value = self.everyone.permissions
        for role in member.roles:
            value |= role.permissions
        if user is self.owner or value & ADMINISTRATOR:
            return ALL_PERMISSIONS
        return value

    def guild_payload(self, guild_id: int | None = None) -> dict[str, Any]:
        """The full GUILD_CREATE payload (of the first guild unless another is named)."""
        guild_id = self.guild_id if guild_id is None else guild_id
        channels = [c for c in self.channels.values() if c.guild_id in (guild_id, None)]
        return {
            "id": str(guild_id),
            "name": self.guilds[guild_id],
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "owner_id": str(self.owner.id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "roles": [r.payload() for r in self.roles_of(guild_id)],
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "vanity_url_code": None,
            "description": None,
            "banner": None,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "preferred_locale": "en-US",
            "nsfw_level": 0,
            "premium_progress_bar_enabled": False,
            "joined_at": iso_now(),
            "large": False,
            "unavailable": False,
            "member_count": len(self.members),
            "voice_states": [],
            "members": [m.payload() for m in self.members.values()],
            "channels": [c.payload() for c in channels],
            "threads": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }

    def app_payload(self) -> dict[str, Any]:
        """GET /oauth2/applications/@me."""
        return {
            "id": str(self.app_id),
            "name": self.bot.username,
            "description": "A fake application",
            "icon": None,
            "bot_public": True,
            "bot_require_code_grant": False,
            "owner": self.owner.payload(),
            "team": None,
            "verify_key": "0" * 64,
            "flags": 0,
            "summary": "",
            "interactions_endpoint_url": None,
        }
