"""Mentions reach only the people a message means to ping; names typed by users stay text."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import discord

from bot.client import AideBot
from bot.delivery import post_reminder
from bot.presentation.gm import change_text
from bot.services.gm import Change, GmChange
from bot.services.play import Reminder

ALICE, EVE = 21, 666


class RecordingChannel:
    """Stands in for a channel: keeps what was sent."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, dict[str, Any]]] = []

    async def send(self, content: str, **kwargs: Any) -> None:
        """Record one message."""
        self.sent.append((content, kwargs))


class RecordingBot:
    """Stands in for the bot: every channel is the recording one."""

    def __init__(self) -> None:
        self.channel = RecordingChannel()

    def get_partial_messageable(self, _channel_id: int) -> RecordingChannel:
        """The recording channel."""
        return self.channel


async def test_a_reminder_pings_only_the_late_and_shows_names_as_typed() -> None:
    bot = RecordingBot()
    when = datetime(2026, 11, 26, tzinfo=UTC)
    name = f"**Ford** <@{EVE}> @everyone"
    await post_reminder(bot, Reminder(1, name, "Turn 1 · _Move_", (ALICE,), when))  # type: ignore[arg-type]
    ((content, kwargs),) = bot.channel.sent
    allowed = kwargs["allowed_mentions"].to_dict()
    assert allowed["parse"] == [] and allowed["users"] == [ALICE]
    assert "\\*\\*Ford\\*\\*" in content and "\\_Move\\_" in content
    assert "@everyone" not in content.replace("@\u200beveryone", "")


def test_by_default_the_bot_pings_nobody(bot: AideBot) -> None:
    allowed = bot.allowed_mentions
    assert allowed is not None
    assert allowed.to_dict() == discord.AllowedMentions.none().to_dict()


def test_gm_post_escapes_the_unit_name_and_reason() -> None:
    change = GmChange(Change.SET, "**because** <@666>", 1, 2, 11, "__Red__ Horse", "dps")
    text = change_text(change)
    assert "\\_\\_Red\\_\\_ Horse" in text and "\\*\\*because\\*\\*" in text
