"""A small fake Discord (REST v10 + Gateway v10) on 127.0.0.1 for end-to-end tests."""

from tests.e2e.fake_discord.records import BotMessage, InteractionRecord, SentFile
from tests.e2e.fake_discord.server import FakeDiscord
from tests.e2e.fake_discord.world import FakeChannel, FakeMember, FakeRole, FakeUser, World

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
