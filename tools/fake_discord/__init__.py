"""A small fake Discord (REST v10 + Gateway v10) on 127.0.0.1 for end-to-end tests."""

from tools.fake_discord.records import BotMessage, InteractionRecord, SentFile
from tools.fake_discord.server import FakeDiscord
from tools.fake_discord.world import FakeChannel, FakeMember, FakeRole, FakeUser, World

__all__ = [
    "BotMessage",
    "FakeChannel",
    "FakeDiscord",
    "FakeMember",
    "FakeRole",
    "FakeUser",
    "InteractionRecord",
    "SentFile",
    "World",
]
